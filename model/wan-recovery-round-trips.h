/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RECOVERY_ROUND_TRIPS_H
#define WAN_RECOVERY_ROUND_TRIPS_H

#include "wan-mean-deviation.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <utility>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief How long an island's recovery messages take to be answered: its
 * NACKs and QUERYs on the hop to its FPGA, and its REQUESTs to its peers.
 *
 * It notes when each message left and, when its answer arrives, averages the
 * delay as RFC 6298 averages round trips (WanMeanDeviation):
 *
 * - the hop's round trip: from the first NACK of a MERGED sequence number to
 *   its resend, and from a QUERY to the FPGA's answer (a NACK or QUERY
 *   repeated before the answer keeps its first time);
 * - the repair wait: from the first REQUEST for a sender's contribution to a
 *   chunk to that sender's REPAIR, less the path's round trip (what the
 *   sender's queue and pacer added).  A repeated REQUEST forgets the time of
 *   the first: its REPAIR cannot be told from the first's, so it is not
 *   measured (Karn).
 *
 * It sends and schedules nothing: it is told the time of each event.
 */
class WanRecoveryRoundTrips
{
  public:
    /**
     * @brief A REQUEST for a contribution left for the first time.
     * @param round the round
     * @param chunk the chunk
     * @param position the sender asked (its clique position)
     * @param now when
     */
    void Requested(uint32_t round, uint32_t chunk, uint32_t position, Time now);
    /**
     * @brief A REQUEST for a contribution left again: its REPAIR will not be
     * measured (Karn).
     * @param round the round
     * @param chunk the chunk
     * @param position the sender asked
     */
    void Repeated(uint32_t round, uint32_t chunk, uint32_t position);
    /**
     * @brief A REPAIR arrived.
     * @param round the round
     * @param chunk the chunk
     * @param position its sender
     * @param now when
     * @param roundTrip the path's round trip to that sender, taken off the sample
     * @return true when it was a sample of the repair wait (its request was
     *         sent once and not answered before)
     */
    bool Repaired(uint32_t round, uint32_t chunk, uint32_t position, Time now, Time roundTrip);
    /**
     * @brief A NACK for a MERGED sequence number left.
     * @param sequence the sequence number
     * @param now when (only the first NACK of a sequence number counts)
     */
    void Nacked(uint32_t sequence, Time now);
    /**
     * @brief A MERGED packet arrived.
     * @param sequence its sequence number
     * @param now when
     * @return true when it answered a NACK (a sample of the hop's round trip)
     */
    bool Resent(uint32_t sequence, Time now);
    /**
     * @brief A QUERY for a chunk left for the FPGA.
     * @param round the round
     * @param chunk the chunk
     * @param now when (only the first QUERY still unanswered counts)
     */
    void Queried(uint32_t round, uint32_t chunk, Time now);
    /**
     * @brief The FPGA's answer to a QUERY arrived.
     * @param round the round
     * @param chunk the chunk
     * @param now when
     * @return true when a QUERY was waiting for it (a sample of the hop's round trip)
     */
    bool Answered(uint32_t round, uint32_t chunk, Time now);

    /** @return the hop's round trip measured so far, seconds */
    const WanMeanDeviation& GetHopRtt() const;
    /** @return the repair wait beyond the round trip measured so far, seconds */
    const WanMeanDeviation& GetRepairWait() const;
    /**
     * @param nackDelay the least wait before a gap is NACKed again, seconds
     * @return how long to wait before NACKing a gap again, seconds: its
     *         resend's round trip as measured (mean + 4 deviations), at
     *         least nackDelay
     */
    double GetNackInterval(double nackDelay) const;
    /**
     * @return what to allow for a sender's queue in a request's timeout,
     *         seconds: the repair wait's mean + 4 deviations, at least 0
     */
    double GetRepairAllowance() const;

  private:
    /// (round, chunk, position) -> when its first REQUEST left
    std::map<std::tuple<uint32_t, uint32_t, uint32_t>, Time> m_requestedAt;
    std::map<uint32_t, Time> m_nackedAt;                       //!< sequence -> first NACK
    std::map<std::pair<uint32_t, uint32_t>, Time> m_queriedAt; //!< (round, chunk) -> QUERY
    WanMeanDeviation m_hopRtt;                                 //!< NACK/QUERY to answer, s
    WanMeanDeviation m_repairWait; //!< repair wait beyond the round trip, s
};

} // namespace ns3

#endif /* WAN_RECOVERY_ROUND_TRIPS_H */
