/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_OVERDUE_CLOCK_H
#define WAN_OVERDUE_CLOCK_H

#include "wan-mean-deviation.h"

#include <cstdint>
#include <utility>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief When each chunk of a round should be complete at an island, and
 * which chunks are overdue now: the plan's arrival times plus a margin from
 * the lateness the island measures.
 *
 * Times are seconds after the round start.  The plan says when the first bit
 * of the last peer's stream arrives (`firstArrival`) and the packet time of
 * the clique rate (`period`), so chunk c should be complete at
 * Expected(c) = firstArrival + (c + 1) x period.  Each first-time
 * completion is a lateness sample (its time minus Expected), averaged as
 * RFC 6298 averages round trips (WanMeanDeviation).  A chunk is overdue once Expected + Margin has
 * passed, Margin = max(floor, mean + 4 x deviation): the structural lateness
 * (store-and-forward, the post-aggregation hop) and the measured jitter, or
 * `floor` (a few packet times) when that is larger or nothing was measured.
 *
 * TakeOverdue hands out each chunk once, in order: a cursor moves past the
 * chunks whose time has come.
 */
class WanOverdueClock
{
  public:
    /**
     * @param firstArrival planned arrival of the first bit of the latest
     *        stream, seconds after the round start (>= 0)
     * @param period packet time at the clique rate, seconds (> 0)
     * @param chunks chunks per state (>= 1)
     * @param floor smallest margin, seconds (>= 0)
     * Refused with std::invalid_argument when out of range.
     */
    WanOverdueClock(double firstArrival, double period, uint32_t chunks, double floor);

    /**
     * @param chunk a chunk index
     * @return when it should be complete, seconds after the round start
     */
    double GetExpected(uint32_t chunk) const;
    /** @return chunks per state */
    uint32_t GetChunks() const;
    /**
     * @brief Takes a lateness sample: a chunk completed by its first
     * transmissions.
     * @param chunk the chunk
     * @param completion when, seconds after the round start
     */
    void Observe(uint32_t chunk, double completion);
    /** @return the margin past Expected after which a chunk is overdue, seconds */
    double GetMargin() const;
    /** @return the lateness measured so far, seconds */
    const WanMeanDeviation& GetLateness() const;
    /**
     * @param now seconds after the round start
     * @return [first, end): the chunks that became overdue by now and were
     *         not handed out before (first == end: none)
     */
    std::pair<uint32_t, uint32_t> TakeOverdue(double now);
    /** @return when the next chunk becomes overdue at the present margin (infinity: none left) */
    double GetNextDue() const;

  private:
    double m_first;              //!< planned first arrival of the latest stream
    double m_period;             //!< packet time
    uint32_t m_chunks;           //!< chunks per state
    double m_floor;              //!< smallest margin
    WanMeanDeviation m_lateness; //!< lateness measured
    uint32_t m_cursor{0};        //!< first chunk not handed out
};

} // namespace ns3

#endif /* WAN_OVERDUE_CLOCK_H */
