/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-measured-mixing.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/**
 * @brief Checks one group of a histogram: as wide as the clique, no
 * position held by more chunks than the group has, and h peers per chunk.
 * @param peers h
 * @param counts the group's counts by position
 * @param members the clique's size
 * @param position the island's own position
 */
void
CheckGroup(uint32_t peers, const std::vector<uint32_t>& counts, uint32_t members, uint32_t position)
{
    const std::string where = "held chunks with " + std::to_string(peers) + " peers";
    if (peers >= members || counts.size() != members)
    {
        throw std::invalid_argument(where + " do not fit a clique of " + std::to_string(members));
    }
    uint64_t held = 0;
    for (uint32_t p = 0; p < members; ++p)
    {
        if (counts[p] > counts[position])
        {
            throw std::invalid_argument(where + ": position " + std::to_string(p) +
                                        " is held by more chunks than the group has");
        }
        held += p == position ? 0 : counts[p];
    }
    if (held != static_cast<uint64_t>(peers) * counts[position])
    {
        throw std::invalid_argument(where + " hold " + std::to_string(held) +
                                    " contributions, not " + std::to_string(peers) + " each");
    }
}

} // namespace

WanMeasuredMixing::WanMeasuredMixing(uint32_t nIslands, uint32_t rounds)
{
    if (nIslands == 0 || rounds == 0)
    {
        throw std::invalid_argument("measured mixing needs at least one island and one round");
    }
    WanMatrix identity(nIslands, std::vector<double>(nIslands, 0.0));
    for (uint32_t i = 0; i < nIslands; ++i)
    {
        identity[i][i] = 1;
    }
    m_rounds.assign(rounds, identity);
}

std::vector<double>
WanMeasuredMixing::Weights(const WanHeldHistogram& averaged, uint32_t members, uint32_t position)
{
    if (position >= members)
    {
        throw std::invalid_argument("position " + std::to_string(position) +
                                    " outside a clique of " + std::to_string(members));
    }
    uint64_t chunks = 0;
    for (const auto& [peers, counts] : averaged)
    {
        CheckGroup(peers, counts, members, position);
        chunks += counts[position];
    }
    if (chunks == 0)
    {
        throw std::invalid_argument("an island's averaged chunks hold no chunk");
    }
    std::vector<double> w(members, 0.0);
    for (const auto& [peers, counts] : averaged)
    {
        // One division per term: without loss, C / (|C| C) is 1 / |C| exactly.
        const double perChunk = static_cast<double>(peers + 1) * static_cast<double>(chunks);
        for (uint32_t p = 0; p < members; ++p)
        {
            w[p] += counts[p] / perChunk;
        }
    }
    return w;
}

void
WanMeasuredMixing::SetRow(uint32_t round,
                          const std::vector<uint32_t>& members,
                          uint32_t position,
                          const WanHeldHistogram& averaged)
{
    CheckRound(round);
    auto& w = m_rounds[round];
    for (auto m : members)
    {
        if (m >= w.size())
        {
            throw std::invalid_argument("island " + std::to_string(m) + " outside the " +
                                        std::to_string(w.size()) + " measured");
        }
    }
    const auto weights = Weights(averaged, static_cast<uint32_t>(members.size()), position);
    auto& row = w[members[position]];
    std::fill(row.begin(), row.end(), 0.0);
    for (size_t p = 0; p < members.size(); ++p)
    {
        row[members[p]] = weights[p];
    }
}

void
WanMeasuredMixing::CheckRound(uint32_t round) const
{
    if (round >= m_rounds.size())
    {
        throw std::invalid_argument("round " + std::to_string(round) + " outside the " +
                                    std::to_string(m_rounds.size()) + " measured");
    }
}

const WanMatrix&
WanMeasuredMixing::GetMatrix(uint32_t round) const
{
    CheckRound(round);
    return m_rounds[round];
}

MixingAnalysis
WanMeasuredMixing::Analyse(MixingOptions options) const
{
    options.rowStochastic = true;
    return MixingAnalysis(m_rounds, std::move(options));
}

} // namespace ns3
