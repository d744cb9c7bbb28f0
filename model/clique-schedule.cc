/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule.h"

#include "wan-topology.h"
#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <nlohmann/json.hpp>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueSchedule");

namespace
{

/// Partitions beyond this size are searched greedily instead of exhaustively.
const size_t kExhaustiveLimit = 15;

/// Sorts members and cliques so that equal schedules compare equal.
CliqueSchedule::Round
Canonical(CliqueSchedule::Round round)
{
    for (auto& c : round)
    {
        std::sort(c.begin(), c.end());
    }
    std::sort(round.begin(), round.end());
    return round;
}

/**
 * Partitions `islands` into triangles whose members satisfy `allowed`, with
 * one remainder group of size |islands| mod 3 (any members), minimising the
 * largest alignment span, then the sum of spans.
 */
std::vector<CliqueSchedule::Clique>
PartitionIntoTriangles(const WanTopology& topo,
                       const std::vector<uint32_t>& islands,
                       const std::function<bool(const CliqueSchedule::Clique&)>& allowed)
{
    const size_t n = islands.size();
    const size_t remainder = n % 3;
    auto span = [&topo](const CliqueSchedule::Clique& c) {
        return CliqueSchedule::AlignmentSpan(topo, c);
    };
    std::vector<CliqueSchedule::Clique> best;
    double bestMax = std::numeric_limits<double>::infinity();
    double bestSum = std::numeric_limits<double>::infinity();

    if (n > kExhaustiveLimit)
    {
        // Greedy: repeatedly take the allowed triangle of smallest span.
        std::vector<uint32_t> left = islands;
        while (left.size() >= 3)
        {
            CliqueSchedule::Clique pick;
            double pickSpan = std::numeric_limits<double>::infinity();
            for (size_t a = 0; a < left.size(); ++a)
            {
                for (size_t b = a + 1; b < left.size(); ++b)
                {
                    for (size_t c = b + 1; c < left.size(); ++c)
                    {
                        CliqueSchedule::Clique t{left[a], left[b], left[c]};
                        double s = span(t);
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
            best.push_back(pick);
            for (auto v : pick)
            {
                left.erase(std::find(left.begin(), left.end(), v));
            }
        }
        for (auto v : left)
        {
            best.push_back({v});
        }
        return best;
    }

    std::vector<bool> used(n, false);
    std::vector<CliqueSchedule::Clique> current;
    std::function<void(bool, double, double)> search =
        [&](bool remainderLeft, double curMax, double curSum) {
            if (curMax > bestMax || (curMax == bestMax && curSum >= bestSum))
            {
                return;
            }
            size_t u = 0;
            while (u < n && used[u])
            {
                ++u;
            }
            if (u == n)
            {
                best = current;
                bestMax = curMax;
                bestSum = curSum;
                return;
            }
            used[u] = true;
            for (size_t v = u + 1; v < n; ++v)
            {
                if (used[v])
                {
                    continue;
                }
                used[v] = true;
                for (size_t w = v + 1; w < n; ++w)
                {
                    if (used[w])
                    {
                        continue;
                    }
                    CliqueSchedule::Clique t{islands[u], islands[v], islands[w]};
                    if (!allowed(t))
                    {
                        continue;
                    }
                    double s = span(t);
                    used[w] = true;
                    current.push_back(t);
                    search(remainderLeft, std::max(curMax, s), curSum + s);
                    current.pop_back();
                    used[w] = false;
                }
                if (remainderLeft && remainder == 2)
                {
                    CliqueSchedule::Clique pair{islands[u], islands[v]};
                    double s = span(pair);
                    current.push_back(pair);
                    search(false, std::max(curMax, s), curSum + s);
                    current.pop_back();
                }
                used[v] = false;
            }
            if (remainderLeft && remainder == 1)
            {
                current.push_back({islands[u]});
                search(false, curMax, curSum);
                current.pop_back();
            }
            used[u] = false;
        };
    search(remainder != 0, 0.0, 0.0);
    if (best.empty() && n > 0)
    {
        throw std::invalid_argument("cannot partition " + std::to_string(n) +
                                    " islands into triangles of the required regions");
    }
    return best;
}

/// Adds every island of 0..n-1 that no clique of the round holds as a singleton.
void
AddSingletons(CliqueSchedule::Round& round, uint32_t n)
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

/// Islands of each region, regions in order of first appearance.
std::vector<std::vector<uint32_t>>
IslandsByRegion(const WanTopology& topo)
{
    auto regions = topo.GetRegions();
    std::vector<std::vector<uint32_t>> members(regions.size());
    for (uint32_t i = 0; i < topo.GetNCities(); ++i)
    {
        auto r = std::find(regions.begin(), regions.end(), topo.GetCity(i).region);
        members[r - regions.begin()].push_back(i);
    }
    return members;
}

/// Round 1 of regional and triangles: each region's own triangles.
CliqueSchedule::Round
RegionalTriangles(const WanTopology& topo)
{
    CliqueSchedule::Round round;
    for (const auto& members : IslandsByRegion(topo))
    {
        if (members.size() <= 3)
        {
            round.push_back(members);
            continue;
        }
        auto part = PartitionIntoTriangles(topo, members, [](const CliqueSchedule::Clique&) {
            return true;
        });
        round.insert(round.end(), part.begin(), part.end());
    }
    return Canonical(round);
}

} // namespace

CliqueSchedule::CliqueSchedule(std::string name, std::vector<Round> rounds)
    : m_name(std::move(name))
{
    for (auto& r : rounds)
    {
        m_rounds.push_back(Canonical(std::move(r)));
    }
}

double
CliqueSchedule::AlignmentSpan(const WanTopology& topo, const Clique& clique)
{
    if (clique.size() <= 1)
    {
        return 0;
    }
    if (clique.size() == 2)
    {
        return topo.GetPathDelay(clique[0], clique[1]);
    }
    if (clique.size() == 3)
    {
        // Offsets s_x = K - (l_xy + l_xz) make both arrivals at each receiver
        // coincide (at K - l_yz); K = the largest such sum keeps offsets >= 0.
        double ab = topo.GetPathDelay(clique[0], clique[1]);
        double ac = topo.GetPathDelay(clique[0], clique[2]);
        double bc = topo.GetPathDelay(clique[1], clique[2]);
        double k = std::max({ab + ac, ab + bc, ac + bc});
        return k - std::min({ab, ac, bc});
    }
    double span = 0;
    for (auto a : clique)
    {
        for (auto b : clique)
        {
            span = std::max(span, topo.GetPathDelay(a, b));
        }
    }
    return span;
}

CliqueSchedule
CliqueSchedule::Pairs(const WanTopology& topo)
{
    NS_LOG_FUNCTION_NOARGS();
    const uint32_t n = topo.GetNCities();
    const auto& links = topo.GetLinks();
    // Kruskal: the minimum spanning tree also minimises its longest edge.
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
    // A tree is bipartite, so max-degree colours suffice: walk from the root and
    // give each child edge the lowest colour its parent edge does not have.
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
    std::vector<Round> rounds;
    for (const auto& matching : colours)
    {
        Round round;
        for (auto [a, b] : matching)
        {
            round.push_back({a, b});
        }
        AddSingletons(round, n);
        rounds.push_back(round);
    }
    return CliqueSchedule("pairs", rounds);
}

CliqueSchedule
CliqueSchedule::Regional(const WanTopology& topo)
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<Round> rounds{RegionalTriangles(topo)};
    auto regions = IslandsByRegion(topo);
    if (regions.size() > 1)
    {
        // Gateway pairs: the lowest-latency pair of unmatched islands for each
        // pair of regions, cheapest first.
        struct Candidate
        {
            double delay;
            uint32_t a, b;
            size_t ra, rb;
        };

        std::vector<Candidate> candidates;
        for (size_t ra = 0; ra < regions.size(); ++ra)
        {
            for (size_t rb = ra + 1; rb < regions.size(); ++rb)
            {
                for (auto a : regions[ra])
                {
                    for (auto b : regions[rb])
                    {
                        candidates.push_back({topo.GetPathDelay(a, b), a, b, ra, rb});
                    }
                }
            }
        }
        std::stable_sort(candidates.begin(),
                         candidates.end(),
                         [](const Candidate& x, const Candidate& y) { return x.delay < y.delay; });
        std::vector<bool> matched(topo.GetNCities(), false);
        std::set<std::pair<size_t, size_t>> joined;
        Round round;
        for (const auto& c : candidates)
        {
            if (matched[c.a] || matched[c.b] || joined.count({c.ra, c.rb}))
            {
                continue;
            }
            round.push_back({c.a, c.b});
            matched[c.a] = matched[c.b] = true;
            joined.insert({c.ra, c.rb});
        }
        AddSingletons(round, topo.GetNCities());
        rounds.push_back(round);
    }
    return CliqueSchedule("regional", rounds);
}

CliqueSchedule
CliqueSchedule::Triangles(const WanTopology& topo)
{
    NS_LOG_FUNCTION_NOARGS();
    std::vector<Round> rounds{RegionalTriangles(topo)};
    const size_t nRegions = topo.GetRegions().size();
    if (nRegions > 1)
    {
        std::vector<uint32_t> all(topo.GetNCities());
        std::iota(all.begin(), all.end(), 0);
        auto crossRegional = [&topo, nRegions](const Clique& t) {
            std::set<std::string> regions;
            for (auto v : t)
            {
                regions.insert(topo.GetCity(v).region);
            }
            // Three regions when there are three; otherwise at least two.
            return regions.size() >= std::min<size_t>(3, nRegions);
        };
        rounds.push_back(PartitionIntoTriangles(topo, all, crossRegional));
    }
    return CliqueSchedule("triangles", rounds);
}

CliqueSchedule
CliqueSchedule::AllToAll(const WanTopology& topo)
{
    Clique all(topo.GetNCities());
    std::iota(all.begin(), all.end(), 0);
    return CliqueSchedule("all-to-all", {Round{all}});
}

std::vector<std::string>
CliqueSchedule::BuiltinNames()
{
    return {"pairs", "regional", "triangles", "all-to-all"};
}

CliqueSchedule
CliqueSchedule::Builtin(const std::string& name, const WanTopology& topo)
{
    if (name == "pairs")
    {
        return Pairs(topo);
    }
    if (name == "regional")
    {
        return Regional(topo);
    }
    if (name == "triangles")
    {
        return Triangles(topo);
    }
    if (name == "all-to-all")
    {
        return AllToAll(topo);
    }
    throw std::invalid_argument("unknown schedule '" + name +
                                "' (built-in: pairs, regional, triangles, all-to-all)");
}

CliqueSchedule
CliqueSchedule::LoadFile(const std::string& path, const WanTopology& topo)
{
    std::string text = wantext::ReadFile(path, "schedule file");
    try
    {
        return FromJson(text, topo);
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(path + ": " + e.what());
    }
}

CliqueSchedule
CliqueSchedule::FromJson(const std::string& text, const WanTopology& topo)
{
    using nlohmann::json;
    json doc = wantext::ParseJson(text, "schedule");
    if (!doc.is_object() || !doc.contains("rounds") || !doc["rounds"].is_array() ||
        doc["rounds"].empty())
    {
        throw std::invalid_argument("schedule JSON needs a non-empty \"rounds\" array");
    }
    std::string name = "file";
    if (doc.contains("name") && doc["name"].is_string())
    {
        name = doc["name"].get<std::string>();
    }
    std::vector<Round> rounds;
    uint32_t k = 0;
    for (const auto& r : doc["rounds"])
    {
        ++k;
        std::string where = "round " + std::to_string(k);
        if (!r.is_array())
        {
            throw std::invalid_argument(where + " is not a list of cliques");
        }
        Round round;
        for (const auto& c : r)
        {
            if (!c.is_array())
            {
                throw std::invalid_argument(where + " has a clique that is not a list of cities");
            }
            Clique clique;
            for (const auto& code : c)
            {
                if (!code.is_string())
                {
                    throw std::invalid_argument(where + " names a city that is not a string");
                }
                auto s = code.get<std::string>();
                if (!topo.HasCity(s))
                {
                    throw std::invalid_argument(where + " names unknown island '" + s + "'");
                }
                clique.push_back(topo.FindCity(s));
            }
            round.push_back(clique);
        }
        rounds.push_back(round);
    }
    CliqueSchedule schedule(name, rounds);
    schedule.Validate(topo);
    return schedule;
}

void
CliqueSchedule::Validate(const WanTopology& topo) const
{
    const uint32_t n = topo.GetNCities();
    if (m_rounds.empty())
    {
        throw std::invalid_argument("schedule '" + m_name + "' has no rounds");
    }
    for (uint32_t k = 0; k < m_rounds.size(); ++k)
    {
        std::string where = "schedule '" + m_name + "' round " + std::to_string(k + 1);
        std::vector<uint32_t> count(n, 0);
        for (const auto& c : m_rounds[k])
        {
            if (c.empty())
            {
                throw std::invalid_argument(where + " has an empty clique");
            }
            for (auto v : c)
            {
                if (v >= n)
                {
                    throw std::invalid_argument(where + " names unknown island #" +
                                                std::to_string(v));
                }
                if (++count[v] == 2)
                {
                    throw std::invalid_argument(where + ": island " + topo.GetCity(v).code +
                                                " appears twice");
                }
            }
        }
        for (uint32_t v = 0; v < n; ++v)
        {
            if (count[v] == 0)
            {
                throw std::invalid_argument(where + ": island " + topo.GetCity(v).code +
                                            " is missing");
            }
        }
    }
}

const std::string&
CliqueSchedule::GetName() const
{
    return m_name;
}

uint32_t
CliqueSchedule::GetNRounds() const
{
    return static_cast<uint32_t>(m_rounds.size());
}

const CliqueSchedule::Round&
CliqueSchedule::GetRound(uint32_t k) const
{
    if (m_rounds.empty())
    {
        throw std::out_of_range("schedule '" + m_name + "' has no rounds");
    }
    return m_rounds[k % m_rounds.size()];
}

const std::vector<CliqueSchedule::Round>&
CliqueSchedule::GetRounds() const
{
    return m_rounds;
}

std::string
CliqueSchedule::ToString(const WanTopology& topo) const
{
    std::ostringstream s;
    for (size_t k = 0; k < m_rounds.size(); ++k)
    {
        if (k > 0)
        {
            s << " | ";
        }
        for (size_t c = 0; c < m_rounds[k].size(); ++c)
        {
            s << (c > 0 ? " {" : "{");
            for (size_t i = 0; i < m_rounds[k][c].size(); ++i)
            {
                s << (i > 0 ? "," : "") << topo.GetCity(m_rounds[k][c][i]).code;
            }
            s << "}";
        }
    }
    return s.str();
}

std::string
CliqueSchedule::ToJson(const WanTopology& topo) const
{
    using nlohmann::json;
    json rounds = json::array();
    for (const auto& r : m_rounds)
    {
        json round = json::array();
        for (const auto& c : r)
        {
            json clique = json::array();
            for (auto v : c)
            {
                clique.push_back(topo.GetCity(v).code);
            }
            round.push_back(clique);
        }
        rounds.push_back(round);
    }
    return json{{"name", m_name}, {"rounds", rounds}}.dump(2);
}

} // namespace ns3
