/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-ring-all-reduce-helper.h"

#include "ns3/log.h"
#include "ns3/uinteger.h"
#include "ns3/wan-contribution.h"
#include "ns3/wan-ring-application.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>
#include <tuple>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRingAllReduceHelper");

WanRingAllReduceHelper::WanRingAllReduceHelper(const WanNetworkHelper& network)
    : m_network(network)
{
    m_factory.SetTypeId(WanRingApplication::GetTypeId());
}

void
WanRingAllReduceHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
    m_sendBufferSet = m_sendBufferSet || name == "SendBuffer";
    m_receiveBufferSet = m_receiveBufferSet || name == "ReceiveBuffer";
}

void
WanRingAllReduceHelper::SetPayload(double bytes)
{
    m_payload = wantext::RequirePositive(bytes, "ring all-reduce payload", "bytes");
}

void
WanRingAllReduceHelper::SetScale(double factor)
{
    m_scale = wantext::RequireAtLeast(factor, 1, "ring all-reduce scale");
}

double
WanRingAllReduceHelper::BandwidthDelayProduct(uint32_t from, uint32_t to) const
{
    const auto& topo = m_network.GetTopology();
    double rate = std::min(topo.GetCity(from).egressBps, topo.GetCity(to).ingressBps);
    const auto path = topo.GetPath(from, to);
    for (size_t h = 0; h + 1 < path.size(); ++h)
    {
        for (const auto& link : topo.GetLinks())
        {
            if ((link.a == path[h] && link.b == path[h + 1]) ||
                (link.b == path[h] && link.a == path[h + 1]))
            {
                rate = std::min(rate, link.capacityBps);
            }
        }
    }
    return rate / m_scale / 8 * 2 * topo.GetPathDelay(from, to);
}

void
WanRingAllReduceHelper::CheckOrder(const std::vector<uint32_t>& order) const
{
    const auto& topo = m_network.GetTopology();
    if (order.size() < 2)
    {
        throw std::invalid_argument("ring all-reduce: " + std::to_string(order.size()) +
                                    " member(s), need at least 2");
    }
    std::set<uint32_t> seen;
    for (uint32_t c : order)
    {
        if (c >= topo.GetNCities())
        {
            throw std::invalid_argument("ring all-reduce: no city " + std::to_string(c) +
                                        " (the topology has " + std::to_string(topo.GetNCities()) +
                                        ")");
        }
        if (!seen.insert(c).second)
        {
            throw std::invalid_argument("ring all-reduce: city " + topo.GetCity(c).code +
                                        " twice in the ring");
        }
    }
}

void
WanRingAllReduceHelper::SetBuffers(Ptr<WanRingApplication> app,
                                   uint32_t city,
                                   uint32_t next,
                                   uint32_t previous)
{
    const auto& topo = m_network.GetTopology();
    const double out = BandwidthDelayProduct(city, next);
    const double in = BandwidthDelayProduct(previous, city);
    auto twice = [](double bdp) {
        return UintegerValue(static_cast<uint32_t>(
            std::min<double>(std::ceil(2 * bdp), std::numeric_limits<uint32_t>::max())));
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
    for (const auto& [what, buffer, bdp, rtt] :
         {std::make_tuple("send", send.Get(), out, 2 * topo.GetPathDelay(city, next)),
          std::make_tuple("receive", receive.Get(), in, 2 * topo.GetPathDelay(previous, city))})
    {
        if (buffer < bdp)
        {
            const std::string warning =
                topo.GetCity(city).code + ": " + what + " buffer of " + std::to_string(buffer) +
                " bytes below the path's bandwidth-delay product (" + wantext::Num(bdp, 4) +
                " bytes): a connection is capped at about " +
                wantext::Num(buffer * 8 / rtt / 1e9, 4) + " Gbps";
            m_warnings.push_back(warning);
            NS_LOG_WARN(warning);
        }
    }
}

ApplicationContainer
WanRingAllReduceHelper::Install(const std::vector<uint32_t>& order)
{
    CheckOrder(order);
    const auto n = static_cast<uint32_t>(order.size());
    UintegerValue chunkBytes;
    m_factory.Create<WanRingApplication>()->GetAttribute("ChunkBytes", chunkBytes);
    const double bytes = m_payload / m_scale;
    if (bytes / chunkBytes.Get() > std::numeric_limits<uint32_t>::max())
    {
        throw std::invalid_argument("ring all-reduce: " + wantext::Num(bytes) +
                                    " bytes in chunks of " + std::to_string(chunkBytes.Get()) +
                                    ": more than 2^32 chunks");
    }
    const auto chunks = static_cast<uint32_t>(std::ceil(bytes / chunkBytes.Get()));
    std::vector<Ipv4Address> members;
    for (uint32_t c : order)
    {
        members.push_back(m_network.GetIslandAddress(c));
    }
    auto ownOf = [chunks](uint32_t city) {
        std::vector<int64_t> own(chunks);
        for (uint32_t k = 0; k < chunks; ++k)
        {
            own[k] = WanContribution::ToFixed(
                WanContribution::Value(WanContribution::IslandValue(city), k));
        }
        return own;
    };
    std::vector<int64_t> expected(chunks, 0);
    for (uint32_t c : order)
    {
        const auto own = ownOf(c);
        for (uint32_t k = 0; k < chunks; ++k)
        {
            expected[k] = WanContribution::Add(expected[k], own[k]);
        }
    }
    m_warnings.clear();
    ApplicationContainer apps;
    for (uint32_t i = 0; i < n; ++i)
    {
        auto app = m_factory.Create<WanRingApplication>();
        SetBuffers(app, order[i], order[(i + 1) % n], order[(i + n - 1) % n]);
        app->SetRing(members, i, ownOf(order[i]), expected);
        m_network.GetIslands().Get(order[i])->AddApplication(app);
        apps.Add(app);
    }
    return apps;
}

std::vector<uint32_t>
WanRingAllReduceHelper::ChooseOrder(const WanTopology& topo, std::vector<uint32_t> cities)
{
    if (cities.size() < 2)
    {
        throw std::invalid_argument("ring all-reduce: " + std::to_string(cities.size()) +
                                    " member(s), need at least 2");
    }
    auto cost = [&topo](const std::vector<uint32_t>& ring) {
        double slowest = 0;
        double total = 0;
        for (size_t i = 0; i < ring.size(); ++i)
        {
            const double d = topo.GetPathDelay(ring[i], ring[(i + 1) % ring.size()]);
            slowest = std::max(slowest, d);
            total += d;
        }
        return std::make_pair(slowest, total);
    };
    if (cities.size() <= 9)
    {
        std::vector<uint32_t> best = cities;
        auto bestCost = cost(best);
        std::sort(cities.begin() + 1, cities.end());
        do
        {
            const auto c = cost(cities);
            if (c < bestCost)
            {
                best = cities;
                bestCost = c;
            }
        } while (std::next_permutation(cities.begin() + 1, cities.end()));
        return best;
    }
    std::vector<uint32_t> ring{cities.front()};
    std::vector<uint32_t> left(cities.begin() + 1, cities.end());
    while (!left.empty())
    {
        auto nearest = std::min_element(left.begin(), left.end(), [&](uint32_t a, uint32_t b) {
            return topo.GetPathDelay(ring.back(), a) < topo.GetPathDelay(ring.back(), b);
        });
        ring.push_back(*nearest);
        left.erase(nearest);
    }
    return ring;
}

const std::vector<std::string>&
WanRingAllReduceHelper::GetWarnings() const
{
    return m_warnings;
}

} // namespace ns3
