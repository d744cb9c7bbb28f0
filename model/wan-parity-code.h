/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARITY_CODE_H
#define WAN_PARITY_CODE_H

#include "wan-galois-ring.h"
#include "wan-mds-code.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The layout and the code of an island's stream with parity chunks:
 * which chunk each send slot carries, and what each parity chunk holds.
 *
 * The data chunks are cut into blocks of `block` chunks (the last block may
 * be shorter).  Each block is followed on the stream by `parities` parity
 * chunks (fewer when the last block has fewer chunks), the parity symbols
 * of a systematic MDS erasure code over GR(2^64, 8) (WanMdsCode): parity j
 * of a block is the sum over its chunks i of G[j][i] v_i, v_i the chunk's
 * fixed-point value (WanContribution) as a ring element, so any `parities`
 * of the block's data chunks lost are rebuilt from the rest
 * (WanParityDecoder).  Row 0 of G is all ones: one parity per block is the
 * plain wrap-around sum.  The code is linear over the ring and the ring's
 * addition is the FPGA's word-wise wrap-around sum, so the FPGA sums parity
 * chunks like any chunk (their symbol's 8 words, WanChunkHeader) and the sum
 * over the senders is the parity of the merged chunks.
 *
 * A parity group is parity row j of block b, numbered b x parities + j; its
 * chunk index on the wire is PARITY_FLAG | group, so the FPGA keys and sums
 * it like any chunk, while order-based loss detection skips it.  A block
 * and its parities span at most 256 chunks (the code's length limit).
 *
 * A stream may send fewer parity rows than the code has (`sent`, sized
 * per round from the loss its receivers measured, WanLossEstimator): the
 * groups keep their numbers (b x parities + j), the stream carries rows 0
 * to sent - 1 of each block, and a receiver rebuilds with whatever rows
 * came, since a row's coefficients do not depend on how many are sent.
 *
 * Two layouts (Layout): INTERLEAVED sends each block's rows right after
 * the block's data; TRAILING sends every data chunk first, in order, then
 * the rows, row by row over the blocks (row 0 of every block, then row 1,
 * ...), so that the data arrive as they would without parity and a lossless
 * round ends when its data do, while a block with one erasure is rebuilt
 * after the first sweep of rows.
 *
 * Without parity (the default-constructed code, or block 0) the stream is
 * the data chunks in order.
 */
class WanParityCode
{
  public:
    /// Marks a parity chunk's index (data chunk indices stay below it).
    static constexpr uint32_t PARITY_FLAG = 0x80000000u;
    /// Most chunks a block and its parities span (the code's length).
    static constexpr uint32_t MAX_LENGTH = 256;
    /// Reads a data chunk's fixed-point value.
    using ValueOf = std::function<int64_t(uint32_t chunk)>;

    /// Where a stream's parity rows go.
    enum Layout
    {
        INTERLEAVED, //!< each block's rows after the block's data
        TRAILING,    //!< every row after all the data, row by row over the blocks
    };

    /// A stream without parity.
    WanParityCode() = default;
    /**
     * @param chunks data chunks per state, below PARITY_FLAG
     * @param block data chunks per block (0: no parity)
     * @param parities the code's parity rows per block, 1 to block, and
     *        block + parities at most MAX_LENGTH (ignored when block is 0)
     * @param sent parity rows the stream carries per block, 1 to parities
     *        (0: all of them)
     * @param layout where the rows go on the stream
     * @throws std::invalid_argument naming the bad value
     */
    WanParityCode(uint32_t chunks,
                  uint32_t block,
                  uint32_t parities,
                  uint32_t sent = 0,
                  Layout layout = INTERLEAVED);

    /** @return true when the stream carries parity chunks */
    bool IsEnabled() const;
    /** @return data chunks per state */
    uint32_t GetChunks() const;
    /** @return data chunks per block (0: no parity) */
    uint32_t GetBlock() const;
    /** @return the code's parity rows per full block (groups are numbered by it) */
    uint32_t GetParities() const;
    /** @return parity rows the stream carries per full block */
    uint32_t GetSent() const;
    /** @return where the rows go on the stream */
    Layout GetLayout() const;
    /** @return parity groups, empty ones of a short last block included */
    uint32_t GetGroups() const;
    /** @return parity chunks on the stream (rows sent of non-empty groups) */
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
    /** @return blocks (the last may be short) */
    uint32_t GetBlocks() const;
    /**
     * @param chunk a data chunk
     * @return its block
     */
    uint32_t BlockOf(uint32_t chunk) const;
    /**
     * @param group a parity group
     * @return the block it covers
     */
    uint32_t BlockOfGroup(uint32_t group) const;
    /**
     * @param group a parity group
     * @return its row of the code (0 to parities - 1)
     */
    uint32_t RowOf(uint32_t group) const;
    /**
     * @param block a block
     * @return its data chunks, ascending
     */
    std::vector<uint32_t> BlockChunks(uint32_t block) const;
    /**
     * @param block a block
     * @return the parity chunks sent after it (min(sent, its size))
     */
    uint32_t BlockParities(uint32_t block) const;
    /**
     * @param block a block
     * @return its data chunks (fewer than the block for the last one)
     */
    uint32_t BlockSize(uint32_t block) const;
    /**
     * @param block a block
     * @return its last parity group, the last chunk of it on the stream
     */
    uint32_t LastGroup(uint32_t block) const;
    /**
     * @param group a parity group
     * @return the data chunks its parity covers: its whole block, ascending
     */
    std::vector<uint32_t> GroupChunks(uint32_t group) const;
    /**
     * @param group a parity group
     * @param value each data chunk's value (fixed point)
     * @return the group's parity symbol: sum over the block's chunks i of
     *         G[row][i] value(i)
     */
    WanGaloisRing::Element Encode(uint32_t group, const ValueOf& value) const;
    /**
     * @return the MDS code of a full block (k = block, r = parities);
     *         a short last block is the same code with its missing chunks
     *         taken as 0.  Only when enabled.
     */
    const WanMdsCode& GetMds() const;
    /**
     * @param group a parity group
     * @return the last data chunk of its block
     */
    uint32_t BlockEnd(uint32_t group) const;
    /**
     * @param group a parity group whose row is sent
     * @return the send slot that carries it
     */
    uint32_t SlotOfGroup(uint32_t group) const;
    /**
     * @param group a parity group whose row is sent
     * @return the last data chunk sent before it: its block's last
     *         (INTERLEAVED) or the stream's (TRAILING)
     */
    uint32_t DataBefore(uint32_t group) const;
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
    uint32_t m_chunks{0};                    //!< data chunks
    uint32_t m_block{0};                     //!< data chunks per block (0: none)
    uint32_t m_parities{0};                  //!< the code's parity rows per full block
    uint32_t m_sent{0};                      //!< parity rows sent per full block
    Layout m_layout{INTERLEAVED};            //!< where the rows go
    std::shared_ptr<const WanMdsCode> m_mds; //!< the code (shared by copies)
};

} // namespace ns3

#endif /* WAN_PARITY_CODE_H */
