/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-core-link-monitor.h"

#include "wan-mpi-helper.h"

#include "ns3/log.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/traffic-control-layer.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCoreLinkMonitor");

WanCoreLinkMonitor::WanCoreLinkMonitor(const WanExperimentPlan& plan)
{
    for (const auto& r : plan.rounds)
    {
        m_roundEnds.push_back(Seconds(r.start + r.deadline));
    }
    m_rounds.resize(plan.rounds.size() + 1); // the last: after the last round
}

void
WanCoreLinkMonitor::Watch(const WanNetworkHelper& net)
{
    for (const auto& link : net.GetTopology().GetLinks())
    {
        for (const auto& hop : {WanHop{link.a, link.b}, WanHop{link.b, link.a}})
        {
            auto device = net.GetCoreDevice(hop.first, hop.second);
            DataRateValue rate;
            device->GetAttribute("DataRate", rate);
            m_queues[hop].rate = rate.Get();
            device->TraceConnectWithoutContext("PhyTxBegin",
                                               MakeBoundCallback(&CountPacket, this, hop));
            auto queue = DynamicCast<PointToPointNetDevice>(device)->GetQueue();
            queue->TraceConnectWithoutContext("BytesInQueue",
                                              MakeBoundCallback(&TrackQueue, this, hop, true));
            queue->TraceConnectWithoutContext("Drop", MakeBoundCallback(&CountDrop, this, hop));
            // This device receives what the reverse direction sends.
            device->TraceConnectWithoutContext(
                "PhyRxDrop",
                MakeBoundCallback(&CountLoss, this, WanHop{hop.second, hop.first}));
            auto tc = device->GetNode()->GetObject<TrafficControlLayer>();
            if (auto disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr)
            {
                disc->TraceConnectWithoutContext("BytesInQueue",
                                                 MakeBoundCallback(&TrackQueue, this, hop, false));
                disc->TraceConnectWithoutContext("Drop",
                                                 MakeBoundCallback(&CountDiscDrop, this, hop));
            }
        }
    }
}

void
WanCoreLinkMonitor::SetRoundEnd(uint32_t round, Time end)
{
    m_roundEnds.at(round) = end;
}

WanCoreLinkMonitor::Round&
WanCoreLinkMonitor::Current(WanHop hop, Time at)
{
    const auto k = static_cast<size_t>(
        std::upper_bound(m_roundEnds.begin(), m_roundEnds.end(), at) - m_roundEnds.begin());
    return m_rounds[k][hop];
}

void
WanCoreLinkMonitor::CountPacket(WanCoreLinkMonitor* monitor, WanHop hop, Ptr<const Packet> packet)
{
    auto& round = monitor->Current(hop, Simulator::Now());
    ++round.packets;
    round.bytes += packet->GetSize();
}

void
WanCoreLinkMonitor::CountDrop(WanCoreLinkMonitor* monitor, WanHop hop, Ptr<const Packet>)
{
    ++monitor->Current(hop, Simulator::Now()).queueDrops;
}

void
WanCoreLinkMonitor::CountDiscDrop(WanCoreLinkMonitor* monitor,
                                  WanHop hop,
                                  Ptr<const QueueDiscItem> item)
{
    CountDrop(monitor, hop, item->GetPacket());
}

void
WanCoreLinkMonitor::CountLoss(WanCoreLinkMonitor* monitor, WanHop hop, Ptr<const Packet>)
{
    ++monitor->Current(hop, Simulator::Now()).lost;
}

void
WanCoreLinkMonitor::TrackQueue(WanCoreLinkMonitor* monitor,
                               WanHop hop,
                               bool device,
                               uint32_t,
                               uint32_t bytes)
{
    // A backlog counts once it has lasted: a packet that an idle link takes
    // at once passes through both queues within one instant and is not a queue.
    auto& q = monitor->m_queues[hop];
    if (Simulator::Now() > q.since)
    {
        auto& round = monitor->Current(hop, q.since);
        round.peakQueueBytes = std::max(round.peakQueueBytes, q.discBytes + q.deviceBytes);
        q.since = Simulator::Now();
    }
    (device ? q.deviceBytes : q.discBytes) = bytes;
}

void
WanCoreLinkMonitor::Fill(uint32_t round, double scale, WanRoundResult& rr) const
{
    for (const auto& [hop, queue] : m_queues) // every core link direction
    {
        const auto& perHop = m_rounds.at(round);
        const auto it = perHop.find(hop);
        const auto counts = it == perHop.end() ? Round{} : it->second;
        rr.corePackets[hop] = counts.packets;
        rr.coreBytes[hop] = static_cast<uint64_t>(std::llround(counts.bytes * scale));
        rr.corePeakQueueBytes[hop] =
            static_cast<uint64_t>(std::llround(counts.peakQueueBytes * scale));
        rr.coreQueueDrops[hop] = counts.queueDrops;
        rr.coreLost[hop] = counts.lost;
        rr.corePeakQueueMs[hop] = counts.peakQueueBytes * 8e3 / queue.rate.GetBitRate();
    }
}

std::string
WanCoreLinkMonitor::Save() const
{
    nlohmann::json rows = nlohmann::json::array();
    for (uint32_t k = 0; k < m_rounds.size(); ++k)
    {
        for (const auto& [hop, c] : m_rounds[k])
        {
            rows.push_back({k,
                            hop.first,
                            hop.second,
                            c.packets,
                            c.bytes,
                            c.peakQueueBytes,
                            c.queueDrops,
                            c.lost});
        }
    }
    return rows.dump();
}

void
WanCoreLinkMonitor::Merge(const std::string& saved)
{
    for (const auto& row : nlohmann::json::parse(saved))
    {
        auto& c = m_rounds.at(
            row.at(0).get<uint32_t>())[{row.at(1).get<uint32_t>(), row.at(2).get<uint32_t>()}];
        c.packets += row.at(3).get<uint64_t>();
        c.bytes += row.at(4).get<uint64_t>();
        c.peakQueueBytes = std::max(c.peakQueueBytes, row.at(5).get<uint64_t>());
        c.queueDrops += row.at(6).get<uint64_t>();
        c.lost += row.at(7).get<uint64_t>();
    }
}

void
WanCoreLinkMonitor::GatherToRoot()
{
    WanMpiHelper::MergeAtRoot(Save(), [this](const std::string& s) { Merge(s); });
}

} // namespace ns3
