/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule-builtins.h"

#include "wan-topology.h"
#include "wan-training-text.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <numeric>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueScheduleBuiltins");

namespace
{

using Clique = CliqueSchedule::Clique;
using Round = CliqueSchedule::Round;
/// Groups of islands that the rounds so far connect, each ascending,
/// ordered by their smallest island.
using Groups = std::vector<std::vector<uint32_t>>;
/// Which cliques a partition may use.
using Allowed = std::function<bool(const Clique&)>;

/// Partitions beyond this size are searched greedily instead of exhaustively.
const size_t kExhaustiveLimit = 15;

/**
 * Exhaustive search for the partition of islands into allowed triangles, with
 * one remainder group of |islands| mod 3 (any members), that minimises the
 * largest alignment span, then the sum of spans.  Of equal partitions the
 * first found (in the islands' order) stays.
 */
class TriangleSearch
{
  public:
    /**
     * @param topo the topology
     * @param islands the islands to partition
     * @param allowed which triangles may be used
     */
    TriangleSearch(const WanTopology& topo,
                   const std::vector<uint32_t>& islands,
                   const Allowed& allowed)
        : m_topo(topo),
          m_islands(islands),
          m_allowed(allowed),
          m_used(islands.size(), false)
    {
    }

    /// @return the best partition; empty when there is none
    std::vector<Clique> Run()
    {
        Search(m_islands.size() % 3 != 0, 0.0, 0.0);
        return m_best;
    }

  private:
    /// Extends the current partition from its first unused island.
    void Search(bool remainderLeft, double curMax, double curSum)
    {
        if (curMax > m_bestMax || (curMax == m_bestMax && curSum >= m_bestSum))
        {
            return;
        }
        const size_t n = m_islands.size();
        size_t u = 0;
        while (u < n && m_used[u])
        {
            ++u;
        }
        if (u == n)
        {
            m_best = m_current;
            m_bestMax = curMax;
            m_bestSum = curSum;
            return;
        }
        const size_t remainder = n % 3;
        m_used[u] = true;
        for (size_t v = u + 1; v < n; ++v)
        {
            if (m_used[v])
            {
                continue;
            }
            m_used[v] = true;
            for (size_t w = v + 1; w < n; ++w)
            {
                Clique t{m_islands[u], m_islands[v], m_islands[w]};
                if (!m_used[w] && m_allowed(t))
                {
                    m_used[w] = true;
                    Extend(t, remainderLeft, curMax, curSum);
                    m_used[w] = false;
                }
            }
            if (remainderLeft && remainder == 2)
            {
                Extend({m_islands[u], m_islands[v]}, false, curMax, curSum);
            }
            m_used[v] = false;
        }
        if (remainderLeft && remainder == 1)
        {
            Extend({m_islands[u]}, false, curMax, curSum);
        }
        m_used[u] = false;
    }

    /// Searches on with one more clique in the partition.
    void Extend(const Clique& c, bool remainderLeft, double curMax, double curSum)
    {
        const double s = CliqueSchedule::AlignmentSpan(m_topo, c);
        m_current.push_back(c);
        Search(remainderLeft, std::max(curMax, s), curSum + s);
        m_current.pop_back();
    }

    const WanTopology& m_topo;                                 //!< latencies
    const std::vector<uint32_t>& m_islands;                    //!< what to partition
    const Allowed& m_allowed;                                  //!< usable triangles
    std::vector<bool> m_used;                                  //!< islands placed
    std::vector<Clique> m_current;                             //!< partition so far
    std::vector<Clique> m_best;                                //!< best partition
    double m_bestMax{std::numeric_limits<double>::infinity()}; //!< its largest span
    double m_bestSum{std::numeric_limits<double>::infinity()}; //!< its sum of spans
};

/// A pair of islands that a greedy matching may take.
struct PairCandidate
{
    double delay; //!< path latency between them, seconds
    uint32_t a;   //!< one island
    uint32_t b;   //!< the other
};

/**
 * Greedy matching: candidates cheapest path latency first (ties in the given
 * order), each taken when both islands are still unmatched and `take` agrees.
 * @param candidates the pairs that may be taken
 * @param matched islands already matched; updated
 * @param take called for each otherwise usable pair; true takes it
 * @return the pairs taken
 */
std::vector<Clique>
GreedyPairs(std::vector<PairCandidate> candidates,
            std::vector<bool>& matched,
            const std::function<bool(const PairCandidate&)>& take)
{
    std::stable_sort(
        candidates.begin(),
        candidates.end(),
        [](const PairCandidate& x, const PairCandidate& y) { return x.delay < y.delay; });
    std::vector<Clique> pairs;
    for (const auto& c : candidates)
    {
        if (!matched[c.a] && !matched[c.b] && take(c))
        {
            pairs.push_back({c.a, c.b});
            matched[c.a] = matched[c.b] = true;
        }
    }
    return pairs;
}

/**
 * Greedy partition: repeatedly the allowed triangle of smallest span, then
 * the cheapest allowed pairs of the islands left, the rest singletons.
 */
std::vector<Clique>
GreedyTriangles(const WanTopology& topo,
                const std::vector<uint32_t>& islands,
                const Allowed& allowed)
{
    std::vector<Clique> part;
    std::vector<uint32_t> left = islands;
    while (left.size() >= 3)
    {
        Clique pick;
        double pickSpan = std::numeric_limits<double>::infinity();
        for (size_t a = 0; a < left.size(); ++a)
        {
            for (size_t b = a + 1; b < left.size(); ++b)
            {
                for (size_t c = b + 1; c < left.size(); ++c)
                {
                    Clique t{left[a], left[b], left[c]};
                    double s = CliqueSchedule::AlignmentSpan(topo, t);
                    if (allowed(t) && s < pickSpan)
                    {
                        pick = t;
                        pickSpan = s;
                    }
                }
            }
        }
        if (pick.empty())
        {
            break;
        }
        part.push_back(pick);
        for (auto v : pick)
        {
            left.erase(std::find(left.begin(), left.end(), v));
        }
    }
    std::vector<PairCandidate> candidates;
    for (size_t a = 0; a < left.size(); ++a)
    {
        for (size_t b = a + 1; b < left.size(); ++b)
        {
            candidates.push_back({topo.GetPathDelay(left[a], left[b]), left[a], left[b]});
        }
    }
    std::vector<bool> matched(topo.GetNCities(), false);
    auto pairs = GreedyPairs(candidates, matched, [&allowed](const PairCandidate& c) {
        return allowed({c.a, c.b});
    });
    part.insert(part.end(), pairs.begin(), pairs.end());
    for (auto v : left)
    {
        if (!matched[v])
        {
            part.push_back({v});
        }
    }
    return part;
}

/// Partitions islands into triangles (see CliqueScheduleBuiltins): exhaustive
/// up to kExhaustiveLimit islands, greedy beyond or when no partition exists.
std::vector<Clique>
PartitionIntoTriangles(const WanTopology& topo,
                       const std::vector<uint32_t>& islands,
                       const Allowed& allowed)
{
    if (islands.size() <= kExhaustiveLimit)
    {
        auto best = TriangleSearch(topo, islands, allowed).Run();
        if (!best.empty() || islands.empty())
        {
            return best;
        }
        NS_LOG_INFO("no partition of " << islands.size()
                                       << " islands into the required triangles; greedy");
    }
    return GreedyTriangles(topo, islands, allowed);
}

/// Adds every island of 0..n-1 that no clique of the round holds as a singleton.
void
AddSingletons(Round& round, uint32_t n)
{
    std::vector<bool> held(n, false);
    for (const auto& c : round)
    {
        for (auto v : c)
        {
            held[v] = true;
        }
    }
    for (uint32_t v = 0; v < n; ++v)
    {
        if (!held[v])
        {
            round.push_back({v});
        }
    }
}

/// @return the groups of islands that the rounds connect
Groups
GroupsOf(const std::vector<Round>& rounds, uint32_t n)
{
    auto label = CliqueSchedule::Groups(rounds, n);
    Groups groups;
    std::vector<size_t> index(n, n);
    for (uint32_t v = 0; v < n; ++v)
    {
        if (index[label[v]] == n)
        {
            index[label[v]] = groups.size();
            groups.emplace_back();
        }
        groups[index[label[v]]].push_back(v);
    }
    return groups;
}

/// @return for each island of 0..n-1, the index of its group
std::vector<size_t>
GroupIndex(const Groups& groups, uint32_t n)
{
    std::vector<size_t> groupOf(n);
    for (size_t g = 0; g < groups.size(); ++g)
    {
        for (auto v : groups[g])
        {
            groupOf[v] = g;
        }
    }
    return groupOf;
}

/// @return the islands of each region, regions in order of first appearance
Groups
IslandsByRegion(const WanTopology& topo)
{
    auto regions = topo.GetRegions();
    Groups members(regions.size());
    for (uint32_t i = 0; i < topo.GetNCities(); ++i)
    {
        auto r = std::find(regions.begin(), regions.end(), topo.GetCity(i).region);
        members[r - regions.begin()].push_back(i);
    }
    return members;
}

/// Round 1 of regional and triangles: each region's own clique, or its triangles.
Round
RegionalRound(const WanTopology& topo)
{
    Round round;
    for (const auto& members : IslandsByRegion(topo))
    {
        if (members.size() <= 3)
        {
            round.push_back(members);
            continue;
        }
        auto part = PartitionIntoTriangles(topo, members, [](const Clique&) { return true; });
        round.insert(round.end(), part.begin(), part.end());
    }
    return round;
}

/// A gateway round: one pair for every two groups, cheapest first.
Round
GatewayRound(const WanTopology& topo, const Groups& groups)
{
    const uint32_t n = topo.GetNCities();
    const auto groupOf = GroupIndex(groups, n);
    std::vector<PairCandidate> candidates;
    for (size_t g = 0; g < groups.size(); ++g)
    {
        for (size_t h = g + 1; h < groups.size(); ++h)
        {
            for (auto a : groups[g])
            {
                for (auto b : groups[h])
                {
                    candidates.push_back({topo.GetPathDelay(a, b), a, b});
                }
            }
        }
    }
    std::set<std::pair<size_t, size_t>> joined;
    std::vector<bool> matched(n, false);
    Round round = GreedyPairs(candidates, matched, [&](const PairCandidate& c) {
        return joined.insert({groupOf[c.a], groupOf[c.b]}).second;
    });
    AddSingletons(round, n);
    return round;
}

/// A cross-group round: triangles of three different groups (two when only
/// two are left).
Round
CrossGroupRound(const WanTopology& topo, const Groups& groups)
{
    const uint32_t n = topo.GetNCities();
    const auto groupOf = GroupIndex(groups, n);
    const size_t required = std::min<size_t>(3, groups.size());
    auto spansGroups = [&groupOf, required](const Clique& c) {
        std::set<size_t> distinct;
        for (auto v : c)
        {
            distinct.insert(groupOf[v]);
        }
        return distinct.size() >= std::min(required, c.size());
    };
    std::vector<uint32_t> all(n);
    std::iota(all.begin(), all.end(), 0);
    return PartitionIntoTriangles(topo, all, spansGroups);
}

/// A round that joins groups of islands.
using JoiningRound = Round (*)(const WanTopology& topo, const Groups& groups);

/**
 * @return a schedule of the regional round, then joining rounds until the
 *         rounds connect every island.  Each joining round joins at least
 *         two groups (its first, cheapest clique spans two), so at most N - 1
 *         rounds are added.
 */
CliqueSchedule
RegionalThenJoined(const std::string& name, const WanTopology& topo, JoiningRound joiningRound)
{
    const uint32_t n = topo.GetNCities();
    std::vector<Round> rounds{RegionalRound(topo)};
    auto groups = GroupsOf(rounds, n);
    while (groups.size() > 1)
    {
        rounds.push_back(joiningRound(topo, groups));
        auto joined = GroupsOf(rounds, n);
        NS_ABORT_MSG_IF(joined.size() >= groups.size(), "a joining round joined no groups");
        groups = std::move(joined);
    }
    return CliqueSchedule(name, rounds);
}

/// @return the minimum spanning tree of the core graph by latency, as
///         adjacency lists (Kruskal; it also minimises the longest edge)
std::vector<std::vector<uint32_t>>
MinimumSpanningTree(const WanTopology& topo)
{
    const uint32_t n = topo.GetNCities();
    const auto& links = topo.GetLinks();
    std::vector<uint32_t> order(links.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&links](uint32_t x, uint32_t y) {
        return links[x].delay < links[y].delay;
    });
    std::vector<uint32_t> component(n);
    std::iota(component.begin(), component.end(), 0);
    std::function<uint32_t(uint32_t)> find = [&](uint32_t v) {
        return component[v] == v ? v : component[v] = find(component[v]);
    };
    std::vector<std::vector<uint32_t>> tree(n);
    for (auto k : order)
    {
        auto ra = find(links[k].a);
        auto rb = find(links[k].b);
        if (ra != rb)
        {
            component[ra] = rb;
            tree[links[k].a].push_back(links[k].b);
            tree[links[k].b].push_back(links[k].a);
        }
    }
    return tree;
}

/// @return the tree's edges coloured into matchings.  A tree is bipartite, so
///         max-degree colours suffice: a walk from island 0 gives each child
///         edge the lowest colour its parent edge does not have.
std::vector<std::vector<std::pair<uint32_t, uint32_t>>>
ColourTree(const std::vector<std::vector<uint32_t>>& tree)
{
    const auto n = tree.size();
    std::vector<std::vector<std::pair<uint32_t, uint32_t>>> colours;
    std::vector<int> parentColour(n, -1);
    std::vector<bool> seen(n, false);
    std::vector<uint32_t> queue{0};
    seen[0] = true;
    for (size_t q = 0; q < queue.size(); ++q)
    {
        uint32_t u = queue[q];
        auto children = tree[u];
        std::sort(children.begin(), children.end());
        int colour = 0;
        for (auto v : children)
        {
            if (seen[v])
            {
                continue;
            }
            if (colour == parentColour[u])
            {
                ++colour;
            }
            if (static_cast<size_t>(colour) >= colours.size())
            {
                colours.resize(colour + 1);
            }
            colours[colour].emplace_back(u, v);
            parentColour[v] = colour;
            seen[v] = true;
            queue.push_back(v);
            ++colour;
        }
    }
    return colours;
}

/// A built-in schedule's name and construction.
struct Builtin
{
    const char* name;                                //!< its name
    CliqueSchedule (*make)(const WanTopology& topo); //!< its construction
    bool needsMemory;                                //!< gets GetAmpleMemory() by default
};

/// The built-in schedules, in the paper's order: the one list of their names.
const Builtin kBuiltins[] = {
    {"pairs", &CliqueScheduleBuiltins::Pairs, false},
    {"regional", &CliqueScheduleBuiltins::Regional, false},
    {"triangles", &CliqueScheduleBuiltins::Triangles, false},
    {"all-to-all", &CliqueScheduleBuiltins::AllToAll, true},
};

} // namespace

std::vector<std::string>
CliqueScheduleBuiltins::Names()
{
    std::vector<std::string> names;
    for (const auto& b : kBuiltins)
    {
        names.emplace_back(b.name);
    }
    return names;
}

std::string
CliqueScheduleBuiltins::JoinedNames(const std::string& separator)
{
    return wantext::Join(Names(), separator);
}

bool
CliqueScheduleBuiltins::IsBuiltin(const std::string& name)
{
    return std::any_of(std::begin(kBuiltins), std::end(kBuiltins), [&name](const Builtin& b) {
        return name == b.name;
    });
}

double
CliqueScheduleBuiltins::GetAmpleMemory()
{
    return 32e9;
}

double
CliqueScheduleBuiltins::GetDefaultMemory(const std::string& name)
{
    return std::any_of(std::begin(kBuiltins),
                       std::end(kBuiltins),
                       [&name](const Builtin& b) { return name == b.name && b.needsMemory; })
               ? GetAmpleMemory()
               : 0.0;
}

std::pair<std::string, double>
CliqueScheduleBuiltins::SplitMemory(const std::string& text)
{
    const auto colon = text.rfind(':');
    if (colon == std::string::npos)
    {
        return {text, GetDefaultMemory(text)};
    }
    const std::string name = text.substr(0, colon);
    const double gb = wantext::ParseNumber(text.substr(colon + 1),
                                           "memory of " + wantext::Printable(name) + ", GB");
    wantext::bounds::kHbmGB.Check(gb, "memory of " + wantext::Printable(name));
    return {name, gb * 1e9};
}

CliqueSchedule
CliqueScheduleBuiltins::Make(const std::string& name, const WanTopology& topo)
{
    for (const auto& b : kBuiltins)
    {
        if (name == b.name)
        {
            return b.make(topo);
        }
    }
    throw std::invalid_argument("unknown schedule '" + wantext::Printable(name) +
                                "' (built-in: " + JoinedNames() + ")");
}

CliqueSchedule
CliqueScheduleBuiltins::Pairs(const WanTopology& topo)
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<Round> rounds;
    for (const auto& matching : ColourTree(MinimumSpanningTree(topo)))
    {
        Round round;
        for (auto [a, b] : matching)
        {
            round.push_back({a, b});
        }
        AddSingletons(round, topo.GetNCities());
        rounds.push_back(round);
    }
    return CliqueSchedule("pairs", rounds);
}

CliqueSchedule
CliqueScheduleBuiltins::Regional(const WanTopology& topo)
{
    NS_LOG_FUNCTION_NOARGS();
    return RegionalThenJoined("regional", topo, GatewayRound);
}

CliqueSchedule
CliqueScheduleBuiltins::Triangles(const WanTopology& topo)
{
    NS_LOG_FUNCTION_NOARGS();
    return RegionalThenJoined("triangles", topo, CrossGroupRound);
}

CliqueSchedule
CliqueScheduleBuiltins::AllToAll(const WanTopology& topo)
{
    Clique all(topo.GetNCities());
    std::iota(all.begin(), all.end(), 0);
    return CliqueSchedule("all-to-all", {Round{all}});
}

} // namespace ns3
