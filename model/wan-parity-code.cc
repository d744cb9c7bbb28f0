/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parity-code.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

WanParityCode::WanParityCode(uint32_t chunks, uint32_t block, uint32_t parities)
    : m_chunks(chunks),
      m_block(block),
      m_parities(block > 0 ? parities : 0)
{
    if (chunks >= PARITY_FLAG)
    {
        throw std::invalid_argument("parity code: " + std::to_string(chunks) +
                                    " chunks, at most 2^31 - 1");
    }
    if (block > 0 && (parities == 0 || parities > block))
    {
        throw std::invalid_argument("parity code: " + std::to_string(parities) +
                                    " parity chunks per block of " + std::to_string(block) +
                                    ", need 1 to " + std::to_string(block));
    }
}

bool
WanParityCode::IsEnabled() const
{
    return m_block > 0;
}

uint32_t
WanParityCode::GetChunks() const
{
    return m_chunks;
}

uint32_t
WanParityCode::GetBlock() const
{
    return m_block;
}

uint32_t
WanParityCode::GetParities() const
{
    return m_parities;
}

uint32_t
WanParityCode::GetGroups() const
{
    return m_block == 0 ? 0 : (m_chunks + m_block - 1) / m_block * m_parities;
}

uint32_t
WanParityCode::GetParityChunks() const
{
    if (m_block == 0)
    {
        return 0;
    }
    const uint32_t rest = m_chunks % m_block;
    return m_chunks / m_block * m_parities + std::min(rest, m_parities);
}

uint32_t
WanParityCode::GetStreamLength() const
{
    return m_chunks + GetParityChunks();
}

uint32_t
WanParityCode::SlotChunk(uint32_t slot) const
{
    if (m_block == 0)
    {
        return slot;
    }
    const uint32_t span = m_block + m_parities;
    const uint32_t full = m_chunks / m_block;
    uint32_t block = slot / span;
    uint32_t offset = slot % span;
    uint32_t size = m_block;
    if (block >= full)
    {
        // The short last block: its chunks, then min(parities, size) parities.
        block = full;
        offset = slot - full * span;
        size = m_chunks - full * m_block;
    }
    if (offset < size)
    {
        return block * m_block + offset;
    }
    return PARITY_FLAG | (block * m_parities + offset - size);
}

uint32_t
WanParityCode::SlotOf(uint32_t chunk) const
{
    return m_block == 0 ? chunk : chunk + chunk / m_block * m_parities;
}

uint32_t
WanParityCode::GroupOf(uint32_t chunk) const
{
    const uint32_t block = chunk / m_block;
    return block * m_parities + (chunk - block * m_block) % m_parities;
}

std::vector<uint32_t>
WanParityCode::GroupChunks(uint32_t group) const
{
    std::vector<uint32_t> chunks;
    if (m_block == 0)
    {
        return chunks;
    }
    const uint32_t block = group / m_parities;
    const uint32_t end = std::min<uint64_t>(static_cast<uint64_t>(block + 1) * m_block, m_chunks);
    for (uint64_t c = static_cast<uint64_t>(block) * m_block + group % m_parities; c < end;
         c += m_parities)
    {
        chunks.push_back(static_cast<uint32_t>(c));
    }
    return chunks;
}

uint32_t
WanParityCode::BlockEnd(uint32_t group) const
{
    const uint32_t block = group / m_parities;
    return std::min<uint64_t>(static_cast<uint64_t>(block + 1) * m_block, m_chunks) - 1;
}

bool
WanParityCode::IsParity(uint32_t chunk)
{
    return (chunk & PARITY_FLAG) != 0;
}

uint32_t
WanParityCode::GroupOfParity(uint32_t chunk)
{
    return chunk & ~PARITY_FLAG;
}

} // namespace ns3
