/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parity-decoder.h"

#include "wan-contribution.h"

#include <optional>
#include <stdexcept>

namespace ns3
{

WanParityDecoder::WanParityDecoder(const WanParityCode& code, const WanSourceSet& positions)
    : m_code(code),
      m_positionSet(positions),
      m_data(code.IsEnabled() ? code.GetChunks() : 0, 0),
      m_parity(code.GetGroups(), WanGaloisRing::Zero()),
      m_sources(code.GetGroups()),
      m_arrived(code.IsEnabled() ? code.GetChunks() : 0)
{
    positions.ForEach([this](uint32_t p) { m_positions.push_back(p); });
}

void
WanParityDecoder::AddData(uint32_t chunk, int64_t value)
{
    if (chunk < m_data.size())
    {
        m_data[chunk] = WanContribution::Add(m_data[chunk], value);
    }
}

void
WanParityDecoder::NoteArrival(uint32_t chunk, const WanSourceSet& sources)
{
    if (chunk < m_arrived.size())
    {
        m_arrived[chunk] |= sources;
    }
}

WanParityDecoder::Tally
WanParityDecoder::Count() const
{
    Tally t;
    if (m_positions.empty())
    {
        return t; // the island's own place among per-peer decoders
    }
    auto whole = [this](const WanSourceSet& s) {
        bool all = true;
        for (uint32_t p : m_positions)
        {
            all = all && s.Test(p);
        }
        return all;
    };
    for (uint32_t b = 0; b < m_code.GetBlocks(); ++b)
    {
        const auto chunks = m_code.BlockChunks(b);
        const uint32_t rows = m_code.BlockParities(b);
        uint64_t data = 0;
        uint64_t parity = 0;
        for (uint32_t c : chunks)
        {
            data += whole(m_arrived[c]) ? 0 : 1;
        }
        for (uint32_t j = 0; j < rows; ++j)
        {
            parity += whole(m_sources[b * m_code.GetParities() + j]) ? 0 : 1;
        }
        ++t.blocks;
        t.symbols += chunks.size() + rows;
        t.erasures += data + parity;
        t.short_ += data + parity > rows && data > 0 ? 1 : 0;
    }
    return t;
}

const char*
WanParityDecoder::Refusal(uint32_t group, const WanSourceSet& sources) const
{
    if (group >= m_sources.size() || sources.IsEmpty() || m_code.GroupChunks(group).empty())
    {
        return "unexpected parity";
    }
    bool inside = true;
    sources.ForEach([&](uint32_t p) { inside = inside && m_positionSet.Test(p); });
    if (!inside)
    {
        return "parity from outside the clique";
    }
    return m_sources[group].Intersects(sources) ? "repeated parity" : nullptr;
}

bool
WanParityDecoder::AddParity(uint32_t group,
                            const WanSourceSet& sources,
                            const WanGaloisRing::Element& symbol)
{
    if (Refusal(group, sources) != nullptr)
    {
        return false;
    }
    m_sources[group] |= sources;
    m_parity[group] = WanGaloisRing::Add(m_parity[group], symbol);
    return true;
}

bool
WanParityDecoder::HasParity(uint32_t group) const
{
    return group < m_sources.size() && !m_sources[group].IsEmpty();
}

std::vector<WanParityDecoder::Rebuilt>
WanParityDecoder::Rebuild(uint32_t block, const Holds& holds) const
{
    if (!m_code.IsEnabled() || block >= m_code.GetBlocks())
    {
        return {};
    }
    // The parities received, grouped by the senders they hold: only parities
    // over one same set of senders make one system of equations.
    const uint32_t first = block * m_code.GetParities();
    std::vector<bool> used(m_code.BlockParities(block), false);
    for (uint32_t j = 0; j < used.size(); ++j)
    {
        if (used[j] || !HasParity(first + j))
        {
            continue;
        }
        std::vector<uint32_t> rows;
        for (uint32_t l = j; l < used.size(); ++l)
        {
            if (!used[l] && m_sources[first + l] == m_sources[first + j])
            {
                used[l] = true;
                rows.push_back(first + l);
            }
        }
        auto rebuilt = Solve(block, rows, holds);
        if (!rebuilt.empty())
        {
            return rebuilt;
        }
    }
    return {};
}

std::vector<WanParityDecoder::Rebuilt>
WanParityDecoder::Solve(uint32_t block, const std::vector<uint32_t>& rows, const Holds& holds) const
{
    const WanSourceSet& in = m_sources[rows.front()];
    const auto chunks = m_code.BlockChunks(block);
    std::vector<Rebuilt> lacking;
    for (uint32_t c : chunks)
    {
        WanSourceSet missing;
        for (uint32_t p : m_positions)
        {
            const bool held = holds(c, p);
            const bool inParity = in.Test(p);
            if (held && !inParity)
            {
                return {}; // the data holds what these parities lack
            }
            if (!held && inParity)
            {
                missing.Set(p);
            }
        }
        if (!missing.IsEmpty())
        {
            lacking.push_back(Rebuilt{c, missing, 0});
        }
    }
    if (lacking.empty() || lacking.size() > rows.size())
    {
        return {}; // nothing short, or more unknowns than equations
    }
    // Each parity less the held data's share is the parity of the missing
    // contributions alone: the held chunks count as 0 in the system.
    const WanMdsCode& mds = m_code.GetMds();
    const uint32_t begin = chunks.front();
    std::vector<std::optional<WanMdsCode::Symbol>> data(mds.GetDataSymbols(),
                                                        WanMdsCode::Symbol{WanGaloisRing::Zero()});
    for (const auto& l : lacking)
    {
        data[l.chunk - begin].reset();
    }
    std::vector<std::optional<WanMdsCode::Symbol>> parity(mds.GetParitySymbols());
    for (size_t n = 0; n < lacking.size(); ++n)
    {
        const uint32_t group = rows[n];
        auto owed =
            WanGaloisRing::Sub(m_parity[group],
                               m_code.Encode(group, [this](uint32_t c) { return m_data[c]; }));
        parity[m_code.RowOf(group)] = WanMdsCode::Symbol{owed};
    }
    const auto solved = mds.Decode(data, parity);
    for (auto& l : lacking)
    {
        const auto& symbol = solved[l.chunk - begin].front();
        if (!WanGaloisRing::IsInteger(symbol))
        {
            return {}; // not a value: the sums do not fit together
        }
        l.value = static_cast<int64_t>(symbol[0]);
    }
    return lacking;
}

const WanParityCode&
WanParityDecoder::GetCode() const
{
    return m_code;
}

} // namespace ns3
