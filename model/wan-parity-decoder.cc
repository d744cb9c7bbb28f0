/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parity-decoder.h"

#include "wan-contribution.h"

namespace ns3
{

WanParityDecoder::WanParityDecoder(const WanParityCode& code, const WanSourceSet& positions)
    : m_code(code),
      m_positionSet(positions),
      m_groups(code.GetGroups())
{
    positions.ForEach([this](uint32_t p) { m_positions.push_back(p); });
}

void
WanParityDecoder::AddData(uint32_t chunk, int64_t value)
{
    if (m_code.IsEnabled() && chunk < m_code.GetChunks())
    {
        auto& g = m_groups[m_code.GroupOf(chunk)];
        g.data = WanContribution::Add(g.data, value);
    }
}

bool
WanParityDecoder::AddParity(uint32_t group, const WanSourceSet& sources, int64_t value)
{
    if (group >= m_groups.size() || sources.IsEmpty())
    {
        return false;
    }
    auto& g = m_groups[group];
    bool inside = true;
    sources.ForEach([&](uint32_t p) { inside = inside && m_positionSet.Test(p); });
    if (!inside || g.sources.Intersects(sources))
    {
        return false;
    }
    g.sources |= sources;
    g.parity = WanContribution::Add(g.parity, value);
    return true;
}

bool
WanParityDecoder::HasParity(uint32_t group) const
{
    return group < m_groups.size() && !m_groups[group].sources.IsEmpty();
}

std::optional<WanParityDecoder::Rebuilt>
WanParityDecoder::Rebuild(uint32_t group, const Holds& holds) const
{
    if (!HasParity(group))
    {
        return std::nullopt;
    }
    const auto& g = m_groups[group];
    std::optional<Rebuilt> found;
    for (uint32_t c : m_code.GroupChunks(group))
    {
        WanSourceSet lacking;
        for (uint32_t p : m_positions)
        {
            const bool held = holds(c, p);
            const bool inParity = g.sources.Test(p);
            if (held && !inParity)
            {
                return std::nullopt; // the data holds what the parity lacks
            }
            if (!held && inParity)
            {
                lacking.Set(p);
            }
        }
        if (lacking.IsEmpty())
        {
            continue;
        }
        if (found)
        {
            return std::nullopt; // two chunks short: one equation, two unknowns
        }
        found = Rebuilt{c, lacking, 0};
    }
    if (found)
    {
        found->value = WanContribution::Subtract(g.parity, g.data);
    }
    return found;
}

const WanParityCode&
WanParityDecoder::GetCode() const
{
    return m_code;
}

} // namespace ns3
