/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-stream-decoder.h"

#include "wan-parity-code.h"
#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaStreamDecoder");

FpgaStreamDecoder::Totals&
FpgaStreamDecoder::Totals::operator+=(const Block& block)
{
    blocks += 1;
    symbols += block.symbols;
    erasures += block.erasures;
    rebuilt += block.rebuilt;
    short_ += block.short_ ? 1 : 0;
    evicted += block.evicted ? 1 : 0;
    undecodable += block.undecodable ? 1 : 0;
    return *this;
}

const std::vector<FpgaStreamDecoder::Totals::Field>&
FpgaStreamDecoder::Totals::Fields()
{
    static const std::vector<Field> fields{{"blocks", &Totals::blocks},
                                           {"symbols", &Totals::symbols},
                                           {"erasures", &Totals::erasures},
                                           {"rebuilt", &Totals::rebuilt},
                                           {"short", &Totals::short_},
                                           {"evicted", &Totals::evicted},
                                           {"undecodable", &Totals::undecodable}};
    return fields;
}

FpgaStreamDecoder::FpgaStreamDecoder(uint32_t block,
                                     uint32_t parities,
                                     uint64_t capacity,
                                     double timeoutSeconds)
    : m_code(block, block, parities), // refuses a bad layout, with its values
      m_capacity(capacity),
      m_timeout(wantext::RequirePositive(timeoutSeconds, "stream decoding timeout", "s"))
{
    if (block == 0)
    {
        // A code of no block is no code (WanParityCode's "off"): nothing to
        // decode, and every chunk's block would be a division by 0.
        throw std::invalid_argument("stream decoding: blocks of 0 data chunks (need at least 1)");
    }
}

FpgaStreamDecoder::State*
FpgaStreamDecoder::Open(const Key& key, double now)
{
    if (m_closed.count(key) > 0)
    {
        return nullptr; // closed and reported: a late chunk is only summed
    }
    auto [it, added] = m_blocks.try_emplace(key);
    State& s = it->second;
    if (added)
    {
        s.held.assign(m_code.GetBlock(), false);
        s.opened = m_nextOpened++;
    }
    else
    {
        m_deadlines.erase({s.due, key});
    }
    s.due = now + m_timeout;
    m_deadlines.emplace(s.due, key);
    auto& stream = m_streamLast[StreamOf(key)];
    stream = std::max(stream, now);
    return &s;
}

FpgaStreamDecoder::Stream
FpgaStreamDecoder::StreamOf(const Key& key)
{
    return {std::get<0>(key), std::get<1>(key), std::get<2>(key)};
}

void
FpgaStreamDecoder::Remember(const Key& key)
{
    m_closed.insert(key);
    m_closedOrder.push_back(key);
    if (m_closedOrder.size() > CLOSED_MEMORY)
    {
        m_closed.erase(m_closedOrder.front());
        m_closedOrder.pop_front();
    }
}

bool
FpgaStreamDecoder::Reserve(const Key& key)
{
    State& self = m_blocks.at(key);
    while (m_buffered + 1 > m_capacity)
    {
        if (m_holding.empty())
        {
            break; // nothing to take (no capacity at all)
        }
        auto victimKey = m_holding.begin()->second;
        State& victim = m_blocks.at(victimKey);
        NS_LOG_LOGIC("HBM for decoding full: block " << std::get<3>(victimKey) << " of position "
                                                     << std::get<2>(victimKey) << " evicted");
        Free(victimKey, victim);
        victim.evicted = true;
    }
    if (m_buffered + 1 > m_capacity || self.evicted)
    {
        self.evicted = true;
        return false;
    }
    m_holding.emplace(self.opened, key);
    return true;
}

void
FpgaStreamDecoder::Free(const Key& key, State& state)
{
    m_buffered -= state.data.size() + state.parity.size();
    state.data.clear();
    state.parity.clear();
    m_holding.erase({state.opened, key});
}

FpgaStreamDecoder::Added
FpgaStreamDecoder::AddData(const FpgaChunkId& id,
                           uint32_t position,
                           int64_t value,
                           bool firstHand,
                           double now)
{
    const Key key{id.round, id.clique, position, m_code.BlockOf(id.chunk)};
    const uint32_t offset = id.chunk % m_code.GetBlock();
    Added added;
    State* open = Open(key, now);
    if (open == nullptr)
    {
        return added;
    }
    State& s = *open;
    if (s.held[offset])
    {
        added.repeat = true;
        return added;
    }
    s.held[offset] = true;
    s.firstHand += firstHand ? 1 : 0;
    if (!s.done && !s.evicted && Reserve(key))
    {
        s.data.emplace(offset, value);
        ++m_buffered;
        m_peak = std::max(m_peak, m_buffered);
        if (s.data.size() == m_code.GetBlock())
        {
            s.length = m_code.GetBlock();
        }
        // Complete, or the chunk that parities which came early (data
        // reordered behind them) were one short of.
        added.rebuilt = TryDecode(key, s);
    }
    return added;
}

std::vector<FpgaStreamDecoder::Rebuilt>
FpgaStreamDecoder::AddParity(const FpgaChunkId& id,
                             uint32_t position,
                             uint32_t length,
                             const WanGaloisRing::Element& symbol,
                             double now,
                             uint32_t rows)
{
    const uint32_t group = WanParityCode::GroupOfParity(id.chunk);
    const Key key{id.round, id.clique, position, m_code.BlockOfGroup(group)};
    const uint32_t row = m_code.RowOf(group);
    State* open = Open(key, now);
    if (open == nullptr)
    {
        return {};
    }
    State& s = *open;
    if (length >= 1 && length <= m_code.GetBlock())
    {
        s.length = length;
    }
    if (rows >= 1 && rows <= m_code.GetParities())
    {
        s.rows = rows;
    }
    if (++s.parities == 1)
    {
        const uint32_t chunks = s.length > 0 ? s.length : m_code.GetBlock();
        m_losses.push_back(Loss{id.round,
                                id.clique,
                                position,
                                std::get<3>(key),
                                chunks,
                                std::min(s.firstHand, chunks)});
    }
    if (s.done || s.evicted || s.parity.count(row) > 0 || !Reserve(key))
    {
        return {};
    }
    s.parity.emplace(row, symbol);
    ++m_buffered;
    m_peak = std::max(m_peak, m_buffered);
    return TryDecode(key, s);
}

std::vector<FpgaStreamDecoder::Rebuilt>
FpgaStreamDecoder::TryDecode(const Key& key, State& state)
{
    if (state.done || state.length == 0)
    {
        return {};
    }
    std::vector<uint32_t> missing;
    for (uint32_t i = 0; i < state.length; ++i)
    {
        if (!state.held[i])
        {
            missing.push_back(i);
        }
    }
    if (missing.empty())
    {
        state.done = true; // every data chunk came: the copies are not needed
        Free(key, state);
        return {};
    }
    if (missing.size() > state.parity.size())
    {
        return {}; // not yet: more parity may come
    }
    // The short last block is the full block's code with its absent chunks 0.
    const WanMdsCode::Symbol zero{WanGaloisRing::Zero()};
    std::vector<std::optional<WanMdsCode::Symbol>> data(m_code.GetBlock(), zero);
    for (const auto& [offset, value] : state.data)
    {
        data[offset] = WanMdsCode::Symbol{
            WanGaloisRing::Join(static_cast<uint64_t>(value), WanGaloisRing::Upper{})};
    }
    for (uint32_t i : missing)
    {
        data[i].reset();
    }
    std::vector<std::optional<WanMdsCode::Symbol>> parity(m_code.GetParities());
    for (const auto& [row, symbol] : state.parity)
    {
        parity[row] = WanMdsCode::Symbol{symbol};
    }
    const auto solved = m_code.GetMds().Decode(data, parity);
    std::vector<Rebuilt> out;
    for (uint32_t i : missing)
    {
        const auto& element = solved[i].front();
        if (!WanGaloisRing::IsInteger(element))
        {
            // Not a value: the copies do not fit together (a corrupted
            // chunk).  Counted, and left to the island.
            state.undecodable = true;
            NS_LOG_WARN("stream block " << std::get<3>(key) << " of position " << std::get<2>(key)
                                        << " does not decode to values");
            state.done = true;
            Free(key, state);
            return {};
        }
        const auto [round, clique, position, block] = key;
        out.push_back(Rebuilt{FpgaChunkId{round, clique, block * m_code.GetBlock() + i},
                              position,
                              static_cast<int64_t>(element[0])});
    }
    for (uint32_t i : missing)
    {
        state.held[i] = true;
    }
    state.rebuilt += static_cast<uint32_t>(missing.size());
    state.done = true;
    Free(key, state);
    NS_LOG_LOGIC("stream block " << std::get<3>(key) << " of position " << std::get<2>(key) << ": "
                                 << out.size() << " chunks rebuilt");
    return out;
}

FpgaStreamDecoder::Block
FpgaStreamDecoder::Close(const Key& key, const State& state)
{
    Block b;
    std::tie(b.round, b.clique, b.position, b.block) = key;
    // A block none of whose parity came and whose data did not all come has
    // an unknown length: it counts as a full block.
    const uint32_t length = state.length > 0 ? state.length : m_code.GetBlock();
    const uint32_t parities = std::min(state.rows > 0 ? state.rows : m_code.GetParities(), length);
    b.symbols = length + parities;
    const uint32_t arrived = std::min(state.firstHand, length) + std::min(state.parities, parities);
    b.erasures = b.symbols - arrived;
    b.rebuilt = state.rebuilt;
    b.short_ = b.erasures > parities;
    b.evicted = state.evicted;
    b.undecodable = state.undecodable;
    m_totals += b;
    return b;
}

std::vector<FpgaStreamDecoder::Loss>
FpgaStreamDecoder::TakeLosses()
{
    std::vector<Loss> out;
    out.swap(m_losses);
    return out;
}

std::vector<FpgaStreamDecoder::Block>
FpgaStreamDecoder::Expire(double now)
{
    std::vector<Block> out;
    while (!m_deadlines.empty() && m_deadlines.begin()->first <= now)
    {
        const Key key = m_deadlines.begin()->second;
        m_deadlines.erase(m_deadlines.begin());
        auto it = m_blocks.find(key);
        // Its stream still arrives (trailing rows come after the data): the
        // block waits for the stream to go idle.
        const double streamDue = m_streamLast.at(StreamOf(key)) + m_timeout;
        if (streamDue > now)
        {
            it->second.due = streamDue;
            m_deadlines.emplace(streamDue, key);
            continue;
        }
        Free(key, it->second);
        out.push_back(Close(key, it->second));
        m_blocks.erase(it);
        Remember(key);
        // The stream's last open block: forget when it last sent.
        const Stream stream = StreamOf(key);
        const auto next =
            m_blocks.lower_bound({std::get<0>(key), std::get<1>(key), std::get<2>(key), 0});
        if (next == m_blocks.end() || StreamOf(next->first) != stream)
        {
            m_streamLast.erase(stream);
        }
    }
    return out;
}

std::vector<FpgaStreamDecoder::Block>
FpgaStreamDecoder::Flush()
{
    std::vector<Block> out;
    for (auto& [key, state] : m_blocks)
    {
        Free(key, state);
        out.push_back(Close(key, state));
        Remember(key);
    }
    m_blocks.clear();
    m_deadlines.clear();
    m_streamLast.clear();
    return out;
}

double
FpgaStreamDecoder::GetNextExpiry() const
{
    return m_deadlines.empty() ? std::numeric_limits<double>::infinity()
                               : m_deadlines.begin()->first;
}

uint64_t
FpgaStreamDecoder::GetBuffered() const
{
    return m_buffered;
}

uint64_t
FpgaStreamDecoder::GetPeakBuffered() const
{
    return m_peak;
}

uint64_t
FpgaStreamDecoder::GetCapacity() const
{
    return m_capacity;
}

const FpgaStreamDecoder::Totals&
FpgaStreamDecoder::GetTotals() const
{
    return m_totals;
}

} // namespace ns3
