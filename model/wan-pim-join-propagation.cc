/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-pim-join-propagation.h"

#include "wan-pim-state.h"

#include "ns3/ipv4-address.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

namespace ns3
{

double
WanPimJoinPropagation::Delay(const WanTopology& before,
                             const WanTopology& after,
                             uint32_t source,
                             const std::vector<uint32_t>& members)
{
    const Ipv4Address s(0x0a000000u + source);            // stands for the source's address
    const Ipv4Address g((232u << 24) | (source & 0xffu)); // an SSM group of the source
    const WanTopology* routes = &before;
    std::vector<std::unique_ptr<WanPimState>> states;
    for (uint32_t v = 0; v < before.GetNCities(); ++v)
    {
        states.push_back(std::make_unique<WanPimState>([&routes, v, source](Ipv4Address) {
            return v == source ? WanPimState::LOCAL : routes->GetPath(v, source).at(1);
        }));
    }
    std::map<WanHop, double> delay; // the links up now
    for (const auto& link : after.GetLinks())
    {
        delay[{link.a, link.b}] = delay[{link.b, link.a}] = link.delay;
    }
    double last = 0;
    // Carries messages in time order; a message on a link that is down is lost.
    auto deliver = [&](uint32_t from, const std::vector<WanPimState::Message>& messages) {
        std::multimap<double, std::pair<uint32_t, WanPimState::Message>> queue;
        auto send = [&](double t, uint32_t u, const std::vector<WanPimState::Message>& out) {
            for (const auto& m : out)
            {
                auto it = delay.find({u, m.neighbour});
                if (it != delay.end())
                {
                    queue.emplace(t + it->second, std::make_pair(u, m));
                }
            }
        };
        send(0, from, messages);
        while (!queue.empty())
        {
            auto [t, item] = *queue.begin();
            queue.erase(queue.begin());
            const auto& [u, m] = item;
            auto& to = *states[m.neighbour];
            last = m.join ? std::max(last, t) : last;
            send(t, m.neighbour, m.join ? to.Join(s, g, u, t) : to.Prune(s, g, u, t));
        }
    };
    for (uint32_t r : members)
    {
        if (r != source)
        {
            deliver(r, states[r]->Join(s, g, WanPimState::LOCAL, 0)); // the tree as it was
        }
    }
    routes = &after;
    last = 0;
    for (uint32_t v = 0; v < states.size(); ++v)
    {
        deliver(v, states[v]->RpfChanged(0));
    }
    return last;
}

} // namespace ns3
