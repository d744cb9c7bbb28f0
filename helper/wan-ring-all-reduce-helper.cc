/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-ring-all-reduce-helper.h"

#include "ns3/log.h"
#include "ns3/wan-ring-application.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRingAllReduceHelper");

WanRingAllReduceHelper::WanRingAllReduceHelper(const WanNetworkHelper& network)
    : WanCollectiveHelper(network, WanRingApplication::GetTypeId(), "ring all-reduce")
{
}

ApplicationContainer
WanRingAllReduceHelper::Install(const std::vector<uint32_t>& order)
{
    CheckMembers(order);
    const auto n = static_cast<uint32_t>(order.size());
    const uint32_t chunks = Chunks();
    const auto members = Addresses(order);
    const auto expected = ExpectedSums(order, chunks);
    StartInstall();
    ApplicationContainer apps;
    for (uint32_t i = 0; i < n; ++i)
    {
        auto app = DynamicCast<WanRingApplication>(
            Create(order[i], {order[(i + 1) % n]}, {order[(i + n - 1) % n]}));
        app->SetRing(members, i, OwnValues(order[i], chunks), expected);
        apps.Add(app);
    }
    SizeReceiveBuffers();
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
    for (uint32_t c : cities)
    {
        if (c >= topo.GetNCities())
        {
            throw std::invalid_argument("ring all-reduce: no city " + std::to_string(c) +
                                        " (the topology has " + std::to_string(topo.GetNCities()) +
                                        ")");
        }
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

} // namespace ns3
