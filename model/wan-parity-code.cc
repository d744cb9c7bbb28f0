/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parity-code.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

WanParityCode::WanParityCode(uint32_t chunks,
                             uint32_t block,
                             uint32_t parities,
                             uint32_t sent,
                             Layout layout)
    : m_chunks(chunks),
      m_block(block),
      m_parities(block > 0 ? parities : 0),
      m_sent(block > 0 ? (sent == 0 ? parities : sent) : 0),
      m_layout(layout)
{
    if (chunks >= PARITY_FLAG)
    {
        throw std::invalid_argument("parity code: " + std::to_string(chunks) +
                                    " chunks, at most 2^31 - 1");
    }
    if (block > 0 &&
        (parities == 0 || parities > block || static_cast<uint64_t>(block) + parities > MAX_LENGTH))
    {
        throw std::invalid_argument(
            "parity code: " + std::to_string(parities) + " parity chunks per block of " +
            std::to_string(block) + ", need 1 to " + std::to_string(block) + " and at most " +
            std::to_string(MAX_LENGTH) + " chunks with the block (the MDS code's length)");
    }
    if (m_sent > m_parities)
    {
        throw std::invalid_argument("parity code: " + std::to_string(sent) +
                                    " parity chunks sent per block, at most the code's " +
                                    std::to_string(parities));
    }
    if (block > 0)
    {
        m_mds = std::make_shared<const WanMdsCode>(block, parities);
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
WanParityCode::GetSent() const
{
    return m_sent;
}

WanParityCode::Layout
WanParityCode::GetLayout() const
{
    return m_layout;
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
    return m_chunks / m_block * m_sent + std::min(rest, m_sent);
}

uint32_t
WanParityCode::GetStreamLength() const
{
    return m_chunks + GetParityChunks();
}

uint32_t
WanParityCode::SlotChunk(uint32_t slot) const
{
    if (m_block == 0 || (m_layout == TRAILING && slot < m_chunks))
    {
        return slot;
    }
    if (m_layout == TRAILING)
    {
        // Row by row over the blocks; a short last block may send fewer rows.
        const uint32_t blocks = GetBlocks();
        const uint32_t lastRows = BlockParities(blocks - 1);
        const uint32_t p = slot - m_chunks;
        uint32_t row = p / blocks;
        uint32_t block = p % blocks;
        if (row >= lastRows)
        {
            const uint32_t q = p - lastRows * blocks;
            row = lastRows + q / (blocks - 1);
            block = q % (blocks - 1);
        }
        return PARITY_FLAG | (block * m_parities + row);
    }
    const uint32_t span = m_block + m_sent;
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
    return m_block == 0 || m_layout == TRAILING ? chunk : chunk + chunk / m_block * m_sent;
}

uint32_t
WanParityCode::GetBlocks() const
{
    return m_block == 0 ? 0 : (m_chunks + m_block - 1) / m_block;
}

uint32_t
WanParityCode::BlockOf(uint32_t chunk) const
{
    return chunk / m_block;
}

uint32_t
WanParityCode::BlockOfGroup(uint32_t group) const
{
    return group / m_parities;
}

uint32_t
WanParityCode::RowOf(uint32_t group) const
{
    return group % m_parities;
}

std::vector<uint32_t>
WanParityCode::BlockChunks(uint32_t block) const
{
    std::vector<uint32_t> chunks;
    if (m_block == 0)
    {
        return chunks;
    }
    const uint64_t begin = static_cast<uint64_t>(block) * m_block;
    const uint64_t end = std::min<uint64_t>(begin + m_block, m_chunks);
    for (uint64_t c = begin; c < end; ++c)
    {
        chunks.push_back(static_cast<uint32_t>(c));
    }
    return chunks;
}

uint32_t
WanParityCode::BlockSize(uint32_t block) const
{
    const uint64_t begin = static_cast<uint64_t>(block) * m_block;
    return begin >= m_chunks ? 0
                             : static_cast<uint32_t>(std::min<uint64_t>(m_block, m_chunks - begin));
}

uint32_t
WanParityCode::BlockParities(uint32_t block) const
{
    return std::min(BlockSize(block), m_sent);
}

uint32_t
WanParityCode::LastGroup(uint32_t block) const
{
    return block * m_parities + std::max(BlockParities(block), 1u) - 1;
}

std::vector<uint32_t>
WanParityCode::GroupChunks(uint32_t group) const
{
    if (m_block == 0 || RowOf(group) >= std::min(BlockSize(BlockOfGroup(group)), m_parities))
    {
        return {}; // an unused group of the short last block
    }
    return BlockChunks(BlockOfGroup(group));
}

WanGaloisRing::Element
WanParityCode::Encode(uint32_t group, const ValueOf& value) const
{
    WanGaloisRing::Element parity = WanGaloisRing::Zero();
    const uint32_t row = RowOf(group);
    const uint32_t begin = BlockOfGroup(group) * m_block;
    for (uint32_t c : GroupChunks(group))
    {
        parity = WanGaloisRing::Add(parity,
                                    WanGaloisRing::Scale(m_mds->GetCoefficient(row, c - begin),
                                                         static_cast<uint64_t>(value(c))));
    }
    return parity;
}

const WanMdsCode&
WanParityCode::GetMds() const
{
    if (!m_mds)
    {
        throw std::logic_error("parity code: no code without parity");
    }
    return *m_mds;
}

uint32_t
WanParityCode::BlockEnd(uint32_t group) const
{
    const uint32_t block = group / m_parities;
    return std::min<uint64_t>(static_cast<uint64_t>(block + 1) * m_block, m_chunks) - 1;
}

uint32_t
WanParityCode::SlotOfGroup(uint32_t group) const
{
    const uint32_t block = BlockOfGroup(group);
    const uint32_t row = RowOf(group);
    if (m_layout == INTERLEAVED)
    {
        return block * (m_block + m_sent) + BlockSize(block) + row;
    }
    const uint32_t blocks = GetBlocks();
    const uint32_t lastRows = BlockParities(blocks - 1);
    if (row < lastRows)
    {
        return m_chunks + row * blocks + block;
    }
    return m_chunks + lastRows * blocks + (row - lastRows) * (blocks - 1) + block;
}

uint32_t
WanParityCode::DataBefore(uint32_t group) const
{
    return m_layout == INTERLEAVED ? BlockEnd(group) : m_chunks - 1;
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
