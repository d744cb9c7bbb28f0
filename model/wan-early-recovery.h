/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EARLY_RECOVERY_H
#define WAN_EARLY_RECOVERY_H

#include "wan-overdue-clock.h"

#include "ns3/nstime.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The early-recovery bookkeeping of one round at an island: which
 * chunks are overdue, what has been asked for each, and how long to wait
 * for the answers (WanIslandApplication's Recovery early; with accept, only
 * when the last chunk is overdue).
 *
 * A chunk is overdue in two ways.  In the middle of a stream, order tells: a
 * cursor per sender (clique position) follows its arrivals, and when its
 * chunk c arrives, its chunks up to c - reorderWindow that the island lacks
 * are overdue (Reveal).  At the tail (the last reorderWindow chunks), where
 * nothing later comes, time does: the WanOverdueClock hands out the chunks
 * past their planned completion plus the margin (TakeTailOverdue), and at the
 * deadline every chunk still incomplete is overdue (PassDeadline).  The
 * clock's lateness samples are the chunks completed in order by their first
 * transmissions (ObserveCompletion).
 *
 * Each overdue chunk is handled once (MarkOverdue) and counts as an ask
 * still running until its requests end (EndAsk); the round may finish once
 * its deadline has passed and no ask runs (CanFinish).  Through an FPGA the
 * island first QUERYs it; while the FPGA repairs the chunk
 * (StartFpgaRepair), its senders are not asked.  AskPeers then decides, for
 * one attempt, which senders to REQUEST the chunk from and how long to wait
 * for their REPAIRs: twice the path latency, the senders' repair queues
 * (this island's requests to them still open), the margin and the repair
 * wait measured beyond that, doubled from the second attempt on (Karn).
 *
 * Times of the plan are seconds after the round start, as the clock's; the
 * class sends and schedules nothing.
 */
class WanEarlyRecovery
{
  public:
    /// What AskPeers decided for one attempt at a chunk.
    enum class PeerAction
    {
        SKIP,   //!< nothing: the senders were asked already, or the FPGA repairs it
        DONE,   //!< the chunk's asks are over (it is whole, or requests are spent)
        WAIT,   //!< no sender is due yet: try the same attempt after the timeout
        REQUEST //!< request it from `positions`, then try the next attempt after the timeout
    };

    /// AskPeers' decision.
    struct PeerAsk
    {
        PeerAction action{PeerAction::SKIP}; //!< what to do
        std::vector<uint32_t> positions;     //!< REQUEST: the senders to ask
        Time timeout;                        //!< WAIT, REQUEST: when to try again
    };

    /// What a request's timeout depends on besides the round's bookkeeping.
    struct RequestCost
    {
        Time packetTime;           //!< a chunk's wire time at the round's stream rate
        double repairBudget{1};    //!< share of that rate the senders' repairs use (> 0)
        double repairAllowance{0}; //!< repair wait measured beyond the round trip, s (>= 0)
    };

    /**
     * @param clock when each chunk of the round should be complete
     * @param members clique members, this island included (>= 1)
     * @param reorderWindow chunks a sender's later arrival must lead by to
     *        make an earlier one overdue (>= 1)
     * @param peerDelays by position, the one-way latency from each member
     *        (empty: unknown, taken as 0)
     * Refused with std::invalid_argument when out of range.
     */
    WanEarlyRecovery(const WanOverdueClock& clock,
                     uint32_t members,
                     uint32_t reorderWindow,
                     std::vector<Time> peerDelays = {});

    /** @return the round's overdue clock */
    const WanOverdueClock& GetClock() const;
    /** @return the clock's margin past a chunk's planned completion, seconds */
    double GetMargin() const;
    /** @return the first tail chunk: from there on no later chunk reveals a loss */
    uint32_t GetTail() const;

    /**
     * @brief A chunk was completed by first transmissions: a lateness sample
     * for the clock when it completes in order and was not handled as overdue.
     * @param chunk the chunk
     * @param completion when, seconds after the round start
     * @return true when it was a sample
     */
    bool ObserveCompletion(uint32_t chunk, double completion);
    /**
     * @brief A sender's chunk arrived: its chunks reorderWindow places back
     * or more are due.
     * @param position the sender (out of the clique: nothing is due)
     * @param chunk the chunk that arrived
     * @param holds whether the island holds the sender's contribution to a chunk
     * @return the chunks that became overdue (not held, not handled before), in order
     */
    std::vector<uint32_t> Reveal(uint32_t position,
                                 uint32_t chunk,
                                 const std::function<bool(uint32_t)>& holds);
    /**
     * @brief Takes the chunks the clock finds overdue by now; of those, the
     * tail's are overdue (earlier ones are left to Reveal).
     * @param now seconds after the round start
     * @param complete whether a chunk is complete
     * @return the tail chunks that became overdue (incomplete, not handled before)
     */
    std::vector<uint32_t> TakeTailOverdue(double now,
                                          const std::function<bool(uint32_t)>& complete);
    /**
     * @brief For Recovery accept: takes the chunks the clock finds overdue by now.
     * @param now seconds after the round start
     * @return true when the last chunk is overdue: what is missing will not
     *         come in time
     */
    bool LastOverdue(double now);
    /**
     * @brief The round's deadline has passed: every chunk still incomplete is
     * overdue, and no check of the clock follows.
     * @param complete whether a chunk is complete
     * @return the chunks that became overdue: those the clock had not handed
     *         out, in order, then the earlier ones no later arrival revealed
     */
    std::vector<uint32_t> PassDeadline(const std::function<bool(uint32_t)>& complete);
    /** @return true once PassDeadline was called */
    bool IsDeadlinePassed() const;
    /**
     * @param start the round start
     * @param now the present time
     * @param spacing the least time from now to the next check
     * @return when to check the clock next: when its next chunk is due, at
     *         least `spacing` from now (none: no chunk left, or the deadline
     *         has passed)
     */
    std::optional<Time> GetNextCheck(Time start, Time now, Time spacing) const;

    /**
     * @brief Handles a chunk as overdue: once, and as an ask still running.
     * @param chunk the chunk
     */
    void MarkOverdue(uint32_t chunk);
    /**
     * @param chunk a chunk
     * @return true when it was handled as overdue
     */
    bool IsOverdue(uint32_t chunk) const;
    /// One chunk's asks are over (it is whole, or its requests are spent).
    void EndAsk();
    /// Every chunk's asks are over (the deadline's last check).
    void AbandonAsks();
    /** @return the chunks whose asks still run */
    uint32_t GetPendingAsks() const;
    /** @return true when the round may end: its deadline has passed and no ask runs */
    bool CanFinish() const;
    /**
     * @param blockEnd the last data chunk sent before the block's last parity
     *        (its block's last, or the stream's when the rows trail)
     * @param parities send slots from that data chunk to the parity
     * @param packetSeconds a chunk's wire time, seconds
     * @param start the round start
     * @param now the present time
     * @return how long until the block's parity should have come: the
     *         block's last chunk's planned completion, the parity chunks and
     *         the margin (zero when that has passed)
     */
    Time GetParityWait(uint32_t blockEnd,
                       uint32_t parities,
                       double packetSeconds,
                       Time start,
                       Time now) const;

    /**
     * @brief The FPGA said it repairs a chunk itself.
     * @param chunk the chunk
     * @return true when it was not repairing it already (a re-QUERY is due)
     */
    bool StartFpgaRepair(uint32_t chunk);
    /**
     * @brief The FPGA's repair of a chunk is over (its sum came, or it
     * stopped).
     * @param chunk the chunk
     * @return true when it was repairing it
     */
    bool EndFpgaRepair(uint32_t chunk);
    /**
     * @param chunk a chunk
     * @return true while the FPGA repairs it
     */
    bool IsFpgaRepairing(uint32_t chunk) const;
    /**
     * @param attempt re-QUERYs sent before (0 for the first)
     * @return the wait before the next re-QUERY while the FPGA repairs: two
     *         margins, doubled per attempt up to 16 times
     */
    Time GetQueryBackoff(uint32_t attempt) const;

    /**
     * @brief Decides one attempt at asking a chunk's senders.
     * @param chunk the chunk
     * @param attempt requests made for it before
     * @param lacking the senders whose contributions it lacks
     * @param maxRequests requests per chunk before it is given up
     * @param cost what the timeout is made of
     * @return SKIP on a first attempt when its senders were asked already or
     *         the FPGA repairs it; DONE when nothing lacks or the requests are
     *         spent; WAIT when no lacking sender is due yet (neither revealed
     *         by a later arrival, nor at the tail, nor past the deadline);
     *         otherwise REQUEST from those due
     */
    PeerAsk AskPeers(uint32_t chunk,
                     uint32_t attempt,
                     const std::vector<uint32_t>& lacking,
                     uint32_t maxRequests,
                     const RequestCost& cost);
    /**
     * @param positions the senders asked
     * @param attempt requests made before
     * @param cost what it is made of
     * @return how long to wait for their repairs: twice the largest latency,
     *         the largest queue of this island's open requests at one of
     *         them (each a packet time at the repair budget), the margin and
     *         the repair allowance; doubled from the second attempt on
     */
    Time GetRequestTimeout(const std::vector<uint32_t>& positions,
                           uint32_t attempt,
                           const RequestCost& cost) const;
    /**
     * @brief A REPAIR arrived: one request to its sender less is open.
     * @param position the sender
     */
    void RepairArrived(uint32_t position);
    /**
     * @param position a sender
     * @return this island's requests to it still open
     */
    uint32_t GetOutstanding(uint32_t position) const;
    /**
     * @param chunk a chunk
     * @return true when its senders were asked (or are about to be)
     */
    bool ArePeersAsked(uint32_t chunk) const;
    /**
     * @param position a sender
     * @return the path's round trip to it (twice its latency; 0 unknown)
     */
    Time GetRoundTrip(uint32_t position) const;

  private:
    WanOverdueClock m_clock;             //!< when chunks are overdue by time
    uint32_t m_window;                   //!< reorder window
    std::vector<Time> m_peerDelays;      //!< position -> one-way latency (or empty)
    std::vector<bool> m_overdue;         //!< chunk -> handled as overdue
    std::vector<bool> m_peersAsked;      //!< chunk -> its senders were asked
    std::vector<bool> m_fpgaRepairing;   //!< chunk -> the FPGA said it repairs it
    std::vector<uint32_t> m_cursor;      //!< position -> first chunk not yet due
    std::vector<uint32_t> m_outstanding; //!< position -> its repairs still awaited
    uint32_t m_inOrder{0};               //!< one past the last chunk completed in order
    uint32_t m_pendingAsks{0};           //!< chunks whose asks still run
    bool m_deadlinePassed{false};        //!< PassDeadline was called
};

} // namespace ns3

#endif /* WAN_EARLY_RECOVERY_H */
