/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_SEQUENCE_TRACKER_H
#define WAN_SEQUENCE_TRACKER_H

#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The receiving end of a sequenced hop (the FPGA's MERGED stream to
 * its island): which sequence numbers arrived, which are gaps to ask for
 * again, and which arrivals are copies of a packet already received.
 *
 * Sequence numbers start at 0.  The window begins at the lowest number not
 * yet received; numbers below it were received (or abandoned, below), so a
 * packet below the window is a duplicate however long ago the original came.
 * A number above the highest received so far turns every number in between
 * into a gap, and so does ExpectBelow (the sender's count) for the numbers
 * above it.  TakeNacksDue() returns the gaps to ask for now (not those asked
 * for less than an interval ago); a gap asked for `maxNacks` times is
 * abandoned (left to the round's deadline): the window
 * moves past it, and should it still arrive it is taken once.  One arrival
 * opens at most 65536 gaps: numbers further below it (a corrupt sequence
 * number, or a loss no resend buffer could repair) are written off.
 */
class WanSequenceTracker
{
  public:
    /// What an arrival is.
    enum class Arrival
    {
        FIRST,      //!< a number neither received nor asked for: a first copy
        GAP_FILLED, //!< a gap that was being asked for: a resent (or late) first copy
        DUPLICATE   //!< a copy of a number already received
    };

    /**
     * @param maxNacks NACKs per gap before it is abandoned, >= 1
     */
    explicit WanSequenceTracker(uint32_t maxNacks = 20);

    /**
     * @param maxNacks NACKs per gap before it is abandoned, >= 1
     */
    void SetMaxNacks(uint32_t maxNacks);
    /** @return NACKs per gap before it is abandoned */
    uint32_t GetMaxNacks() const;

    /**
     * @param sequence the number of an arriving packet
     * @return whether it is a first copy (and whether it filled a gap) or a
     *         duplicate
     */
    Arrival Receive(uint32_t sequence);
    /**
     * @brief One NACK attempt for every gap due: gaps asked for `maxNacks`
     * times before are abandoned instead, and a gap asked for less than
     * `interval` ago is left alone this time (its resend may still be on the
     * way).
     * @param now the time, seconds
     * @param interval least time between two NACKs of one gap, seconds
     * @return the gaps to ask for now, ascending
     */
    std::vector<uint32_t> TakeNacksDue(double now, double interval);
    /**
     * @brief The sender says it has sent every number below `next`: those
     * above the highest received are gaps now (the tail of the stream, which
     * no later arrival could reveal).  Over a FIFO hop this holds as soon as
     * the news arrives behind the packets it counts.
     * @param next one past the highest number sent
     * @return the gaps it opened
     */
    uint32_t ExpectBelow(uint32_t next);

    /** @return true while some gap waits to be asked for */
    bool HasGaps() const;
    /** @return the gaps still asked for, ascending */
    std::vector<uint32_t> GetGaps() const;
    /** @return the lowest number not yet received (nor abandoned) */
    uint64_t GetWindowStart() const;
    /** @return gaps abandoned so far */
    uint64_t GetAbandoned() const;

  private:
    /// Moves the window start past what was received or abandoned.
    void Advance();

    uint32_t m_maxNacks;                 //!< NACKs per gap
    uint64_t m_next{0};                  //!< window start
    uint64_t m_end{0};                   //!< one past the highest number received
    std::set<uint64_t> m_received;       //!< received numbers in [m_next, m_end)
    std::map<uint64_t, uint32_t> m_gaps; //!< gap -> NACKs sent for it
    std::map<uint64_t, double> m_asked;  //!< gap -> when it was last asked for (TakeNacksDue)
    std::set<uint64_t> m_abandoned;      //!< gaps given up that may still arrive
    uint64_t m_abandonedCount{0};        //!< gaps abandoned so far
};

} // namespace ns3

#endif /* WAN_SEQUENCE_TRACKER_H */
