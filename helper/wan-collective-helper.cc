/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-collective-helper.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/round-planner.h"
#include "ns3/uinteger.h"
#include "ns3/wan-collective-application.h"
#include "ns3/wan-contribution.h"
#include "ns3/wan-scale-check.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCollectiveHelper");

WanCollectiveHelper::WanCollectiveHelper(const WanNetworkHelper& network,
                                         TypeId app,
                                         std::string what)
    : m_network(network),
      m_what(std::move(what))
{
    m_factory.SetTypeId(app);
}

void
WanCollectiveHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
    m_sendBufferSet = m_sendBufferSet || name == "SendBuffer";
    m_receiveBufferSet = m_receiveBufferSet || name == "ReceiveBuffer";
}

void
WanCollectiveHelper::SetPayload(double bytes)
{
    m_payload = wantext::RequirePositive(bytes, m_what + " payload", "bytes");
}

void
WanCollectiveHelper::SetScale(double factor)
{
    m_scale = wantext::RequireAtLeast(factor, 1, m_what + " scale");
}

double
WanCollectiveHelper::BandwidthDelayProduct(uint32_t from, uint32_t to) const
{
    const auto& topo = m_network.GetTopology();
    double rate = std::min(topo.GetCity(from).egressBps, topo.GetCity(to).ingressBps);
    const auto path = topo.GetPath(from, to);
    for (size_t h = 0; h + 1 < path.size(); ++h)
    {
        rate = std::min(rate, topo.GetLinks()[topo.GetLinkIndex(path[h], path[h + 1])].capacityBps);
    }
    // Made once: it copies the topology and computes its paths. Every link
    // of the network has the islands' MTU.
    const uint32_t mtu = m_network.GetIslands().Get(from)->GetObject<Ipv4>()->GetMtu(1);
    if (!m_planner)
    {
        PlannerConfig config;
        config.multicast = false;
        config.edgeBps = m_network.GetEdgeRate();
        config.frameBytes = mtu;
        m_planner = std::make_shared<const RoundPlanner>(topo, config);
    }
    const double scale = m_network.GetScale();
    // A segment's round trip: the latency both ways and its frame's store
    // and forward, on the sender's own link too (an ACK's is a few bytes).
    const double frame =
        m_planner->GetFrameDelay(from, to) + 8.0 * mtu / topo.GetCity(from).egressBps;
    const double roundTrip = 2 * topo.GetPathDelay(from, to) + scale * frame;
    return rate / scale / 8 * roundTrip;
}

const std::vector<std::string>&
WanCollectiveHelper::GetWarnings() const
{
    return m_warnings;
}

void
WanCollectiveHelper::CheckMembers(const std::vector<uint32_t>& cities) const
{
    const auto& topo = m_network.GetTopology();
    if (cities.size() < 2)
    {
        throw std::invalid_argument(m_what + ": " + std::to_string(cities.size()) +
                                    " member(s), need at least 2");
    }
    std::set<uint32_t> seen;
    for (uint32_t c : cities)
    {
        if (c >= topo.GetNCities())
        {
            throw std::invalid_argument(m_what + ": no city " + std::to_string(c) +
                                        " (the topology has " + std::to_string(topo.GetNCities()) +
                                        ")");
        }
        if (!seen.insert(c).second)
        {
            throw std::invalid_argument(m_what + ": city " + topo.GetCity(c).code +
                                        " twice among the members");
        }
    }
}

uint32_t
WanCollectiveHelper::Chunks() const
{
    UintegerValue chunkBytes;
    m_factory.Create<WanCollectiveApplication>()->GetAttribute("ChunkBytes", chunkBytes);
    const double bytes = m_payload / m_scale;
    if (bytes / chunkBytes.Get() > std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument(m_what + ": " + wantext::Num(bytes) + " bytes in chunks of " +
                                    std::to_string(chunkBytes.Get()) + ": more than 2^32 chunks");
    }
    return static_cast<uint32_t>(std::ceil(bytes / chunkBytes.Get()));
}

std::vector<int64_t>
WanCollectiveHelper::OwnValues(uint32_t city, uint32_t chunks)
{
    std::vector<int64_t> own(chunks);
    for (uint32_t k = 0; k < chunks; ++k)
    {
        own[k] =
            WanContribution::ToFixed(WanContribution::Value(WanContribution::IslandValue(city), k));
    }
    return own;
}

std::vector<int64_t>
WanCollectiveHelper::ExpectedSums(const std::vector<uint32_t>& cities, uint32_t chunks)
{
    std::vector<int64_t> expected(chunks, 0);
    for (uint32_t c : cities)
    {
        const auto own = OwnValues(c, chunks);
        for (uint32_t k = 0; k < chunks; ++k)
        {
            expected[k] = WanContribution::Add(expected[k], own[k]);
        }
    }
    return expected;
}

std::vector<Ipv4Address>
WanCollectiveHelper::Addresses(const std::vector<uint32_t>& cities) const
{
    std::vector<Ipv4Address> addresses;
    for (uint32_t c : cities)
    {
        addresses.push_back(m_network.GetIslandAddress(c));
    }
    return addresses;
}

void
WanCollectiveHelper::StartInstall()
{
    m_warnings.clear();
    m_members.clear();
    m_sendBytes.clear();
    const auto atScale = WanScaleCheck::TcpAtScale(m_scale);
    if (!atScale.empty())
    {
        m_warnings.push_back(atScale);
        NS_LOG_WARN(atScale);
    }
}

void
WanCollectiveHelper::SizeReceiveBuffers()
{
    const auto& topo = m_network.GetTopology();
    for (const auto& m : m_members)
    {
        uint64_t senders = 0;
        for (uint32_t from : m.receivesFrom)
        {
            senders = std::max<uint64_t>(senders, m_sendBytes.at(from));
        }
        uint64_t need = 2 * senders +
                        WanCollectiveApplication::MinimumBuffer(m_network.GetIslands().Get(m.city));
        need += need >> 14; // over what the window scale rounds the advertised window down by
        UintegerValue receive;
        m.app->GetAttribute("ReceiveBuffer", receive);
        if (receive.Get() >= need)
        {
            continue;
        }
        if (!m_receiveBufferSet)
        {
            m.app->SetAttribute(
                "ReceiveBuffer",
                UintegerValue(static_cast<uint32_t>(
                    std::min<uint64_t>(need, std::numeric_limits<uint32_t>::max()))));
            continue;
        }
        const std::string warning =
            topo.GetCity(m.city).code + ": receive buffer of " + std::to_string(receive.Get()) +
            " bytes not over twice its senders' send buffers (" + std::to_string(senders) +
            " bytes): the receiver's window can hold a sender, and ns-3 before 3.41 crashes "
            "when a sender's unacknowledged bytes fill it exactly (ns-3 issue #991)";
        m_warnings.push_back(warning);
        NS_LOG_WARN(warning);
    }
}

Ptr<WanCollectiveApplication>
WanCollectiveHelper::Create(uint32_t city,
                            const std::vector<uint32_t>& sendsTo,
                            const std::vector<uint32_t>& receivesFrom)
{
    auto app = m_factory.Create<WanCollectiveApplication>();
    double out = 0;
    double in = 0;
    for (uint32_t to : sendsTo)
    {
        out = std::max(out, BandwidthDelayProduct(city, to));
    }
    for (uint32_t from : receivesFrom)
    {
        in = std::max(in, BandwidthDelayProduct(from, city));
    }
    // At least the members' minimum, which a small product (a high scale)
    // would go below.
    const double floor = WanCollectiveApplication::MinimumBuffer(m_network.GetIslands().Get(city));
    auto twice = [floor](double bdp) {
        return UintegerValue(
            static_cast<uint32_t>(std::min<double>(std::max(std::ceil(2 * bdp), floor),
                                                   std::numeric_limits<uint32_t>::max())));
    };
    if (!m_sendBufferSet)
    {
        app->SetAttribute("SendBuffer", twice(out));
    }
    if (!m_receiveBufferSet)
    {
        app->SetAttribute("ReceiveBuffer", twice(in));
    }
    UintegerValue send;
    UintegerValue receive;
    app->GetAttribute("SendBuffer", send);
    app->GetAttribute("ReceiveBuffer", receive);
    if (receive.Get() < floor)
    {
        throw std::invalid_argument(m_what + ": ReceiveBuffer " + std::to_string(receive.Get()) +
                                    " bytes is below two segments (" +
                                    std::to_string(static_cast<uint32_t>(floor)) + " bytes at " +
                                    m_network.GetTopology().GetCity(city).code +
                                    "'s MTU): its window cannot hold a full segment");
    }
    for (uint32_t to : sendsTo)
    {
        WarnBelow(send.Get(), "send", city, city, to);
    }
    for (uint32_t from : receivesFrom)
    {
        WarnBelow(receive.Get(), "receive", city, from, city);
    }
    m_sendBytes[city] = send.Get();
    m_members.push_back({app, city, receivesFrom});
    m_network.GetIslands().Get(city)->AddApplication(app);
    return app;
}

void
WanCollectiveHelper::WarnBelow(uint32_t buffer,
                               const std::string& kind,
                               uint32_t city,
                               uint32_t from,
                               uint32_t to)
{
    const auto& topo = m_network.GetTopology();
    const double bdp = BandwidthDelayProduct(from, to);
    if (buffer >= bdp)
    {
        return;
    }
    const double rtt = 2 * topo.GetPathDelay(from, to);
    const std::string warning = topo.GetCity(city).code + ": " + kind + " buffer of " +
                                std::to_string(buffer) +
                                " bytes below the bandwidth-delay product of the path " +
                                topo.GetCity(from).code + "-" + topo.GetCity(to).code + " (" +
                                wantext::Num(bdp, 4) + " bytes): a connection is capped at about " +
                                wantext::Num(buffer * 8 / rtt / 1e9, 4) + " Gbps";
    m_warnings.push_back(warning);
    NS_LOG_WARN(warning);
}

} // namespace ns3
