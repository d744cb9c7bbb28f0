/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RING_ALL_REDUCE_H
#define WAN_RING_ALL_REDUCE_H

#include "wan-collective-record.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One member's part of a ring all-reduce, as the collectives of
 * today's data-parallel training run it (reduce-scatter, then all-gather):
 * the logic, without sockets, that WanRingApplication carries over TCP.
 *
 * N members in ring order each hold a value for each of C chunks (the model
 * state). The chunks are cut into N segments, segment g the chunks from
 * floor(g C / N) to floor((g + 1) C / N). In step s (0 to 2(N - 1) - 1) the
 * member at position i sends segment (i - s) mod N to the next member: at
 * step 0 its own values, later what it received at step s - 1 from the
 * previous member, with its own value added while the steps reduce (s up to
 * N - 2) and as it came while they gather. A chunk is forwarded as soon as
 * it arrives (pipelined within a step), so a member's steps overlap. After
 * step N - 2 a member holds the whole sum of segment (i + 1) mod N; after the
 * last step, of every segment. Sums are fixed-point integers added with
 * wrap-around (WanContribution), exact in any order.
 *
 * A chunk reaches a member at most once while the steps reduce and once
 * while they gather (at the step whose segment holds it): a record that
 * repeats one, or names a chunk outside the segment its step carries, is
 * refused, so a run that completes has lost and counted twice nothing.
 */
class WanRingAllReduce
{
  public:
    /// A chunk's value on its way: what one record on the wire carries.
    using Record = WanCollectiveRecord;

    /**
     * @param members N, at least 2
     * @param position this member's place in the ring, below N
     * @param own this member's value of each chunk (C = its size, at least 1)
     * @throws std::invalid_argument naming the bad value
     */
    WanRingAllReduce(uint32_t members, uint32_t position, std::vector<int64_t> own);

    /** @return N */
    uint32_t GetMembers() const;
    /** @return C */
    uint32_t GetChunks() const;
    /** @return the steps, 2(N - 1) */
    uint32_t GetSteps() const;
    /**
     * @param segment a segment, below N
     * @return its first chunk and one past its last
     */
    std::pair<uint32_t, uint32_t> Segment(uint32_t segment) const;
    /**
     * @param step a step
     * @param position a member
     * @return the segment that member sends at that step
     */
    uint32_t SegmentSent(uint32_t step, uint32_t position) const;

    /** @return step 0's records: this member's own segment, in chunk order */
    std::vector<Record> Start() const;
    /**
     * @brief A record from the previous member.
     * @param record what came
     * @return the record to send on (none after the last step)
     * @throws std::invalid_argument when it repeats a chunk already received
     *         or names a step or chunk that does not fit (a corrupt stream)
     */
    std::vector<Record> Receive(const Record& record);

    /** @return true when the sum of every chunk is held */
    bool IsComplete() const;
    /** @return chunks whose whole sum is held */
    uint32_t GetDone() const;
    /** @return the sums (valid where held: all of them once complete) */
    const std::vector<int64_t>& GetSums() const;

  private:
    /**
     * @brief Holds a chunk's whole sum.
     * @param chunk the chunk
     * @param sum its sum
     */
    void Hold(uint32_t chunk, int64_t sum);

    uint32_t m_members;           //!< N
    uint32_t m_position;          //!< this member
    std::vector<int64_t> m_own;   //!< own values
    std::vector<int64_t> m_sums;  //!< whole sums held
    std::vector<bool> m_reduced;  //!< per chunk: received while reducing
    std::vector<bool> m_gathered; //!< per chunk: received while gathering
    uint32_t m_done{0};           //!< whole sums held
};

} // namespace ns3

#endif /* WAN_RING_ALL_REDUCE_H */
