/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARITY_CODE_H
#define WAN_PARITY_CODE_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The layout of an island's stream with parity chunks: which chunk
 * each send slot carries, and which data chunks each parity chunk covers.
 *
 * The data chunks are cut into blocks of `block` chunks (the last block may
 * be shorter).  Each block is followed on the stream by `parities` parity
 * chunks (fewer when the last block has fewer chunks); parity j of a block
 * covers the block's chunks at offsets j, j + parities, j + 2 parities, ...
 * (interleaved, so that a burst of up to `parities` consecutive losses hits
 * each parity group once).  A parity group is numbered block x parities +
 * j; its chunk index on the wire is PARITY_FLAG | group, so the FPGA keys
 * and sums it like any chunk, while order-based loss detection skips it.
 *
 * A parity chunk's value is the wrap-around fixed-point sum of the group's
 * contributions (WanContribution::Add): summed by the FPGA over the senders,
 * it is the sum of the group's merged chunks, and one lost merged chunk per
 * group is their difference (WanParityDecoder).
 *
 * Without parity (the default-constructed code, or block 0) the stream is
 * the data chunks in order.
 */
class WanParityCode
{
  public:
    /// Marks a parity chunk's index (data chunk indices stay below it).
    static constexpr uint32_t PARITY_FLAG = 0x80000000u;

    /// A stream without parity.
    WanParityCode() = default;
    /**
     * @param chunks data chunks per state, below PARITY_FLAG
     * @param block data chunks per block (0: no parity)
     * @param parities parity chunks per block, 1 to block (ignored when
     *        block is 0)
     * @throws std::invalid_argument naming the bad value
     */
    WanParityCode(uint32_t chunks, uint32_t block, uint32_t parities);

    /** @return true when the stream carries parity chunks */
    bool IsEnabled() const;
    /** @return data chunks per state */
    uint32_t GetChunks() const;
    /** @return data chunks per block (0: no parity) */
    uint32_t GetBlock() const;
    /** @return parity chunks per full block */
    uint32_t GetParities() const;
    /** @return parity groups, empty ones of a short last block included */
    uint32_t GetGroups() const;
    /** @return parity chunks on the stream (non-empty groups) */
    uint32_t GetParityChunks() const;
    /** @return send slots: data chunks plus parity chunks */
    uint32_t GetStreamLength() const;
    /**
     * @param slot a send slot, below GetStreamLength()
     * @return the data chunk it carries, or PARITY_FLAG | group
     */
    uint32_t SlotChunk(uint32_t slot) const;
    /**
     * @param chunk a data chunk
     * @return the slot that carries it
     */
    uint32_t SlotOf(uint32_t chunk) const;
    /**
     * @param chunk a data chunk
     * @return its parity group
     */
    uint32_t GroupOf(uint32_t chunk) const;
    /**
     * @param group a parity group
     * @return its data chunks, ascending (empty for an unused group)
     */
    std::vector<uint32_t> GroupChunks(uint32_t group) const;
    /**
     * @param group a parity group
     * @return the last data chunk of its block, after which its parity is sent
     */
    uint32_t BlockEnd(uint32_t group) const;
    /**
     * @param chunk a chunk index from the wire
     * @return true when it names a parity group
     */
    static bool IsParity(uint32_t chunk);
    /**
     * @param chunk a parity chunk's index
     * @return its group
     */
    static uint32_t GroupOfParity(uint32_t chunk);

  private:
    uint32_t m_chunks{0};   //!< data chunks
    uint32_t m_block{0};    //!< data chunks per block (0: none)
    uint32_t m_parities{0}; //!< parity chunks per full block
};

} // namespace ns3

#endif /* WAN_PARITY_CODE_H */
