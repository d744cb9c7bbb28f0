/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-rank-balancer.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// At most this many assignments (ranks^(cities - 1)) are tried one by one.
constexpr double kExhaustiveLimit = 1 << 16;

} // namespace

// Fitted to two-rank runs of one full-scale round of triangles (the MPI
// build, optimized with its profile): each packet that crosses costs both
// ranks about five times what a packet hop costs, the sends, receives and
// rebuilding of ns-3's MPI interface against its profiled event path.
const uint64_t WanRankBalancer::kCrossingWork = 5;

WanRankBalancer::Load
WanRankBalancer::PlannedLoad(const WanExperimentPlan& plan, uint32_t nCities, bool aggregation)
{
    Load load;
    for (const auto& round : plan.rounds)
    {
        if (round.failed)
        {
            continue;
        }
        std::vector<uint64_t> work(nCities, 0);
        auto add = [&work, nCities](uint32_t city, uint64_t amount) {
            if (city >= nCities)
            {
                throw std::invalid_argument("rank balance: city " + std::to_string(city) +
                                            " in a plan for " + std::to_string(nCities) +
                                            " cities");
            }
            work[city] += amount;
        };
        std::set<uint32_t> receivers;
        for (const auto& stream : round.streams)
        {
            const uint64_t peers = stream.members.empty() ? 0 : stream.members.size() - 1;
            const uint64_t copies = stream.tree.empty() ? peers : 1;
            add(stream.sender, 1 + 4 * copies);
            for (auto member : stream.members)
            {
                if (member != stream.sender)
                {
                    add(member, aggregation ? 2 : 4);
                    receivers.insert(member);
                }
            }
        }
        if (aggregation)
        {
            for (auto city : receivers)
            {
                add(city, 2); // one merged stream to the island
            }
        }
        for (const auto& link : round.plan.links)
        {
            add(link.from, link.streams);
            add(link.to, link.streams);
        }
        load.work.push_back(std::move(work));
        load.links.push_back(round.plan.links);
    }
    return load;
}

double
WanRankBalancer::Lookahead(const WanTopology& topo, const std::vector<uint32_t>& rankOf)
{
    double lookahead = std::numeric_limits<double>::infinity();
    for (const auto& link : topo.GetLinks())
    {
        if (rankOf.at(link.a) != rankOf.at(link.b))
        {
            lookahead = std::min(lookahead, link.delay);
        }
    }
    return lookahead;
}

std::vector<std::vector<uint64_t>>
WanRankBalancer::RankWork(const Load& load, const std::vector<uint32_t>& rankOf, uint32_t ranks)
{
    std::vector<std::vector<uint64_t>> perRound;
    for (size_t r = 0; r < load.work.size(); ++r)
    {
        std::vector<uint64_t> sums(ranks, 0);
        for (size_t c = 0; c < load.work[r].size(); ++c)
        {
            sums.at(rankOf.at(c)) += load.work[r][c];
        }
        for (const auto& link : load.links[r])
        {
            const auto from = rankOf.at(link.from);
            const auto to = rankOf.at(link.to);
            if (from != to)
            {
                sums[from] += kCrossingWork * link.streams;
                sums[to] += kCrossingWork * link.streams;
            }
        }
        perRound.push_back(std::move(sums));
    }
    return perRound;
}

uint64_t
WanRankBalancer::Cost(const Load& load, const std::vector<uint32_t>& rankOf, uint32_t ranks)
{
    uint64_t cost = 0;
    for (const auto& sums : RankWork(load, rankOf, ranks))
    {
        cost += *std::max_element(sums.begin(), sums.end());
    }
    return cost;
}

std::vector<uint32_t>
WanRankBalancer::Balance(const WanTopology& topo,
                         uint32_t ranks,
                         const Load& load,
                         const std::vector<uint32_t>& start)
{
    const uint32_t n = topo.GetNCities();
    for (const auto& work : load.work)
    {
        if (work.size() != n)
        {
            throw std::invalid_argument("rank balance: a load of " + std::to_string(work.size()) +
                                        " cities for a topology of " + std::to_string(n));
        }
    }
    if (ranks < 1 || ranks > n)
    {
        throw std::invalid_argument("rank balance: " + std::to_string(ranks) + " ranks for " +
                                    std::to_string(n) + " cities (1 to " + std::to_string(n) + ")");
    }
    if (start.size() != n)
    {
        throw std::invalid_argument("rank balance: a start partition of " +
                                    std::to_string(start.size()) + " cities for a topology of " +
                                    std::to_string(n));
    }
    std::vector<uint32_t> rankOf(n, 0);
    if (ranks == 1)
    {
        return rankOf;
    }

    if (std::pow(static_cast<double>(ranks), n - 1.0) <= kExhaustiveLimit)
    {
        return Exhaustive(topo, ranks, load);
    }
    return LocalSearch(ranks, load, start);
}

std::vector<uint32_t>
WanRankBalancer::Exhaustive(const WanTopology& topo, uint32_t ranks, const Load& load)
{
    const uint32_t n = topo.GetNCities();
    std::vector<uint32_t> rankOf(n, 0);
    // Every assignment up to relabelling: city c on a rank already used
    // or on the next one; leaves that use every rank are scored.
    std::vector<uint32_t> best;
    uint64_t bestCost = std::numeric_limits<uint64_t>::max();
    double bestLookahead = -1;
    std::function<void(uint32_t, uint32_t)> visit = [&](uint32_t c, uint32_t used) {
        if (n - c < ranks - used)
        {
            return; // too few cities left to give every rank one
        }
        if (c == n)
        {
            const auto cost = Cost(load, rankOf, ranks);
            const auto lookahead = Lookahead(topo, rankOf);
            if (cost < bestCost || (cost == bestCost && lookahead > bestLookahead))
            {
                best = rankOf;
                bestCost = cost;
                bestLookahead = lookahead;
            }
            return;
        }
        for (uint32_t r = 0; r < std::min(used + 1, ranks); ++r)
        {
            rankOf[c] = r;
            visit(c + 1, std::max(used, r + 1));
        }
    };
    visit(1, 1);
    return best;
}

std::vector<uint32_t>
WanRankBalancer::LocalSearch(uint32_t ranks, const Load& load, const std::vector<uint32_t>& start)
{
    const auto n = static_cast<uint32_t>(start.size());
    std::vector<uint32_t> rankOf;
    // Local search from the start: a city moves to another rank (its own
    // keeping one), or two cities of two ranks swap, whenever that lowers
    // the cost; it ends, since every step does.
    rankOf = start;
    std::vector<uint32_t> members(ranks, 0);
    for (auto r : rankOf)
    {
        if (r >= ranks)
        {
            throw std::invalid_argument("rank balance: a start partition with rank " +
                                        std::to_string(r) + " of " + std::to_string(ranks));
        }
        ++members[r];
    }
    uint64_t cost = Cost(load, rankOf, ranks);
    bool improved = true;
    while (improved)
    {
        improved = false;
        for (uint32_t c = 0; c < n && !improved; ++c)
        {
            const uint32_t from = rankOf[c];
            for (uint32_t to = 0; to < ranks && !improved && members[from] > 1; ++to)
            {
                if (to == from)
                {
                    continue;
                }
                rankOf[c] = to;
                const auto moved = Cost(load, rankOf, ranks);
                if (moved < cost)
                {
                    cost = moved;
                    --members[from];
                    ++members[to];
                    improved = true;
                }
                else
                {
                    rankOf[c] = from;
                }
            }
            for (uint32_t d = c + 1; d < n && !improved; ++d)
            {
                if (rankOf[d] == rankOf[c])
                {
                    continue;
                }
                std::swap(rankOf[c], rankOf[d]);
                const auto swapped = Cost(load, rankOf, ranks);
                if (swapped < cost)
                {
                    cost = swapped;
                    improved = true;
                }
                else
                {
                    std::swap(rankOf[c], rankOf[d]);
                }
            }
        }
    }
    return rankOf;
}

} // namespace ns3
