/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-tcp-cross-traffic-helper.h"

#include "wan-mpi-helper.h"

#include "ns3/data-rate.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/uinteger.h"
#include "ns3/wan-tcp-bulk-sender.h"
#include "ns3/wan-tcp-bulk-sink.h"
#include "ns3/wan-training-compat.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTcpCrossTrafficHelper");

namespace
{

/// IPv4 header, TCP header and its timestamp option (12 bytes, padded).
constexpr uint32_t kTcpIpOverhead = 20 + 20 + 12;
/// PPP header of a frame.
constexpr uint32_t kPppBytes = 2;
/// The sinks' port.
constexpr uint16_t kPort = 5301;
/// TCP's largest window: 65535 bytes at the largest window scale, 14 (RFC 7323).
constexpr double kLargestWindow = 65535.0 * (1 << 14);
/// The window scale rounds an advertised window down by up to 2^14 - 1 bytes.
constexpr double kScaleRounding = 1 << 14;

/**
 * @param bytes a buffer's size
 * @return it in whole bytes, up (a product's rounding error of a millionth
 *         of a byte left out), as an attribute value, at most 2^32 - 1
 */
UintegerValue
BufferValue(double bytes)
{
    return UintegerValue(static_cast<uint32_t>(
        std::min<double>(std::ceil(bytes - 1e-6), std::numeric_limits<uint32_t>::max())));
}

} // namespace

WanTcpCrossTrafficHelper::WanTcpCrossTrafficHelper()
    : m_congestion(TcpCubic::GetTypeId())
{
}

void
WanTcpCrossTrafficHelper::SetFlows(uint32_t flows, TypeId congestion)
{
    wantext::bounds::kCrossTcpFlows.Check(flows, "TCP cross traffic: connections per direction");
    if (!wancompat::MakeCongestionControl(congestion))
    {
        throw std::invalid_argument("TCP cross traffic: " + congestion.GetName() +
                                    " is not a TCP congestion control");
    }
    m_flows = flows;
    m_congestion = congestion;
}

TypeId
WanTcpCrossTrafficHelper::CongestionControl(const std::string& name)
{
    TypeId tid;
    if (!TypeId::LookupByNameFailSafe(name, &tid))
    {
        throw std::invalid_argument("TCP cross traffic: no type named " + name +
                                    " (a congestion control such as ns3::TcpCubic)");
    }
    return tid;
}

uint32_t
WanTcpCrossTrafficHelper::GetFlows() const
{
    return m_flows;
}

TypeId
WanTcpCrossTrafficHelper::GetCongestionControl() const
{
    return m_congestion;
}

double
WanTcpCrossTrafficHelper::BandwidthDelayProduct(const WanNetworkHelper& net,
                                                uint32_t from,
                                                uint32_t to)
{
    const auto& topo = net.GetTopology();
    const auto device = net.GetCoreDevice(from, to);
    DataRateValue rate;
    device->GetAttribute("DataRate", rate);
    const double bps = rate.Get().GetBitRate();
    const double delay = topo.GetLinks()[topo.GetLinkIndex(from, to)].delay;
    const double roundTrip = 2 * delay + 8.0 * (device->GetMtu() + kPppBytes) / bps;
    return bps / 8 * roundTrip;
}

ApplicationContainer
WanTcpCrossTrafficHelper::Install(const WanNetworkHelper& net,
                                  Time end,
                                  const std::vector<uint32_t>& rankOf) const
{
    ApplicationContainer apps;
    if (m_flows == 0)
    {
        return apps;
    }
    const auto& topo = net.GetTopology();

    // The senders' buffers first: each sink's receive buffer depends on
    // those of the connections it accepts.
    struct Direction
    {
        uint32_t from;      //!< the sending router's city
        uint32_t to;        //!< the receiving router's city
        uint32_t segment;   //!< segment size
        UintegerValue send; //!< send buffer
    };

    std::vector<Direction> directions;
    std::map<uint32_t, uint64_t> largestInto; // per receiving city
    for (const auto& link : topo.GetLinks())
    {
        for (const auto& [from, to] : {WanHop{link.a, link.b}, WanHop{link.b, link.a}})
        {
            const uint32_t segment = net.GetCoreDevice(from, to)->GetMtu() - kTcpIpOverhead;
            // At most what keeps the sink's buffer within TCP's largest window.
            const double most = (kLargestWindow - 2.0 * segment) / 2 - 2 * kScaleRounding;
            const auto send = BufferValue(
                std::min(std::max(2 * BandwidthDelayProduct(net, from, to), 2.0 * segment), most));
            directions.push_back({from, to, segment, send});
            largestInto[to] = std::max<uint64_t>(largestInto[to], send.Get());
        }
    }
    for (const auto& [city, largest] : largestInto)
    {
        if (!WanMpiHelper::IsLocal(rankOf, city))
        {
            continue;
        }
        uint32_t segment = 0;
        for (const auto& d : directions)
        {
            segment = d.to == city ? std::max(segment, d.segment) : segment;
        }
        double receive = 2.0 * largest + 2.0 * segment;
        receive += std::floor(receive / kScaleRounding); // the window scale's rounding
        auto sink = CreateObject<WanTcpBulkSink>();
        sink->SetAttribute("Port", UintegerValue(kPort));
        sink->SetAttribute("SegmentSize", UintegerValue(segment));
        sink->SetAttribute("ReceiveBuffer", BufferValue(receive));
        sink->SetStartTime(Seconds(0));
        sink->SetStopTime(end);
        net.GetRouters().Get(city)->AddApplication(sink);
        apps.Add(sink);
    }
    for (const auto& d : directions)
    {
        if (!WanMpiHelper::IsLocal(rankOf, d.from))
        {
            continue;
        }
        for (uint32_t k = 0; k < m_flows; ++k)
        {
            auto sender = CreateObject<WanTcpBulkSender>();
            sender->SetAttribute(
                "Remote",
                AddressValue(InetSocketAddress(net.GetCoreAddress(d.to, d.from), kPort)));
            sender->SetAttribute("SegmentSize", UintegerValue(d.segment));
            sender->SetAttribute("SendBuffer", d.send);
            sender->SetAttribute("CongestionControl", TypeIdValue(m_congestion));
            sender->SetStartTime(Seconds(0));
            sender->SetStopTime(end);
            net.GetRouters().Get(d.from)->AddApplication(sender);
            apps.Add(sender);
        }
        NS_LOG_INFO(topo.GetCity(d.from).code << "->" << topo.GetCity(d.to).code << ": " << m_flows
                                              << " connection(s), send buffer " << d.send.Get()
                                              << " bytes");
    }
    return apps;
}

uint64_t
WanTcpCrossTrafficHelper::GetBytesReceived(const ApplicationContainer& apps, double scale)
{
    uint64_t bytes = 0;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        if (auto sink = DynamicCast<WanTcpBulkSink>(apps.Get(i)))
        {
            bytes += sink->GetBytesReceived();
        }
    }
    return static_cast<uint64_t>(std::llround(bytes * scale));
}

uint64_t
WanTcpCrossTrafficHelper::GetRetransmissions(const ApplicationContainer& apps)
{
    uint64_t segments = 0;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        if (auto sender = DynamicCast<WanTcpBulkSender>(apps.Get(i)))
        {
            segments += sender->GetRetransmissions();
        }
    }
    return segments;
}

} // namespace ns3
