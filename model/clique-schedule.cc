/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule.h"

#include "wan-topology.h"
#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueSchedule");

namespace
{

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

std::vector<uint32_t>
CliqueSchedule::Groups(const std::vector<Round>& rounds, uint32_t n)
{
    std::vector<uint32_t> parent(n);
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&parent](uint32_t x) {
        while (parent[x] != x)
        {
            x = parent[x] = parent[parent[x]];
        }
        return x;
    };
    for (const auto& round : rounds)
    {
        for (const auto& clique : round)
        {
            for (size_t k = 1; k < clique.size(); ++k)
            {
                // The smaller root stays, so every root is its group's smallest island.
                auto a = find(clique[0]);
                auto b = find(clique[k]);
                parent[std::max(a, b)] = std::min(a, b);
            }
        }
    }
    std::vector<uint32_t> group(n);
    for (uint32_t v = 0; v < n; ++v)
    {
        group[v] = find(v);
    }
    return group;
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
try
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
                    throw std::invalid_argument(where + " names unknown island '" +
                                                wantext::Printable(s) + "'");
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
catch (const std::invalid_argument& e)
{
    // Names from the file may hold any character: the refusal stays one line.
    throw wantext::OneLine(e);
}

void
CliqueSchedule::Validate(const WanTopology& topo) const
{
    const uint32_t n = topo.GetNCities();
    if (m_rounds.empty())
    {
        throw std::invalid_argument("schedule '" + wantext::Printable(m_name) + "' has no rounds");
    }
    for (uint32_t k = 0; k < m_rounds.size(); ++k)
    {
        std::string where =
            "schedule '" + wantext::Printable(m_name) + "' round " + std::to_string(k + 1);
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
        throw std::out_of_range("schedule '" + wantext::Printable(m_name) + "' has no rounds");
    }
    return m_rounds[k % m_rounds.size()];
}

const std::vector<CliqueSchedule::Round>&
CliqueSchedule::GetRounds() const
{
    return m_rounds;
}

size_t
CliqueSchedule::GetLargestClique() const
{
    size_t largest = 0;
    for (const auto& r : m_rounds)
    {
        for (const auto& c : r)
        {
            largest = std::max(largest, c.size());
        }
    }
    return largest;
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
