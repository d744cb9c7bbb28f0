/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-early-recovery.h"

#include <set>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

using Chunks = std::vector<uint32_t>;
using PeerAction = WanEarlyRecovery::PeerAction;

/**
 * @return a round of 8 chunks at an island of a clique of 3: the latest
 *         stream's first bit at 50 ms, 2 ms packets, a 4 ms margin floor,
 *         a reorder window of 3 (the tail: chunks 5 to 7), and latencies of
 *         0, 20 and 30 ms from positions 0 (this island), 1 and 2
 */
WanEarlyRecovery
EightChunks()
{
    return WanEarlyRecovery(WanOverdueClock(0.050, 0.002, 8, 0.004),
                            3,
                            3,
                            {Time(0), MilliSeconds(20), MilliSeconds(30)});
}

/**
 * @param chunks the chunks a predicate says yes to
 * @return the predicate
 */
std::function<bool(uint32_t)>
In(std::set<uint32_t> chunks)
{
    return [chunks = std::move(chunks)](uint32_t c) { return chunks.count(c) > 0; };
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief In the middle of a stream, order tells: a sender's chunk c + 3
 * makes its chunks up to c overdue, once each, unless held.
 */
class RecoveryRevealTestCase : public WanTestCase
{
  public:
    RecoveryRevealTestCase()
        : WanTestCase("a later arrival reveals a sender's missing chunks, each once")
    {
    }

  private:
    void DoCheck() override
    {
        auto e = EightChunks();
        NS_TEST_EXPECT_MSG_EQ(e.GetTail(), 5, "8 chunks - a window of 3");
        // Position 1 holds chunks 1 and 3, position 2 chunks 0 and 3.
        const auto holds1 = In({1, 3});
        const auto holds2 = In({0, 3});
        NS_TEST_EXPECT_MSG_EQ((e.Reveal(1, 2, holds1) == Chunks{}), true, "within the window");
        NS_TEST_EXPECT_MSG_EQ((e.Reveal(1, 3, holds1) == Chunks{0}), true, "3 reveals 0");
        e.MarkOverdue(0);
        NS_TEST_EXPECT_MSG_EQ(e.IsOverdue(0), true, "");
        NS_TEST_EXPECT_MSG_EQ((e.Reveal(1, 4, holds1) == Chunks{}), true, "chunk 1 is held");
        NS_TEST_EXPECT_MSG_EQ((e.Reveal(1, 6, holds1) == Chunks{2}), true, "2 and 3 due, 3 held");
        NS_TEST_EXPECT_MSG_EQ((e.Reveal(1, 5, holds1) == Chunks{}), true, "late: nothing new");
        // Position 2's cursor is its own; chunk 0 was handled already.
        NS_TEST_EXPECT_MSG_EQ((e.Reveal(2, 7, holds2) == Chunks{1, 2, 4}), true, "0 to 4");
        NS_TEST_EXPECT_MSG_EQ((e.Reveal(3, 7, holds2) == Chunks{}), true, "not in the clique");
        NS_TEST_EXPECT_MSG_EQ(e.GetPendingAsks(), 1, "chunk 0's ask runs");
        NS_TEST_EXPECT_MSG_EQ(e.CanFinish(), false, "before the deadline");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief At the tail time tells: the clock's chunks past plan + margin are
 * overdue from the tail on, and the next check is when the next one is due.
 * Completions in order are lateness samples that widen the margin.
 */
class RecoveryTailTestCase : public WanTestCase
{
  public:
    RecoveryTailTestCase()
        : WanTestCase("the tail is overdue by the clock; in-order completions set its margin")
    {
    }

  private:
    void DoCheck() override
    {
        auto e = EightChunks();
        const Time start = Seconds(1);
        // Chunk c is overdue at 50 + 2 (c + 1) + 4 ms: chunk 0 at 56 ms.
        auto next = e.GetNextCheck(start, start, Time(0));
        NS_TEST_EXPECT_MSG_EQ(next.value_or(Time(0)), MilliSeconds(1056), "chunk 0 due");
        next = e.GetNextCheck(start, MilliSeconds(1055), MilliSeconds(2));
        NS_TEST_EXPECT_MSG_EQ(next.value_or(Time(0)), MilliSeconds(1057), "2 ms from now");
        NS_TEST_EXPECT_MSG_EQ((e.TakeTailOverdue(0.0555, In({})) == Chunks{}), true, "none yet");
        // At 66.5 ms chunks 0 to 5 are past due; only 5 is the tail's.
        NS_TEST_EXPECT_MSG_EQ((e.TakeTailOverdue(0.0665, In({})) == Chunks{5}), true, "");
        e.MarkOverdue(5);
        next = e.GetNextCheck(start, start, Time(0));
        NS_TEST_EXPECT_MSG_EQ(next.value_or(Time(0)), MilliSeconds(1068), "chunk 6 due");
        // Chunk 6 is complete, 7 is not.
        NS_TEST_EXPECT_MSG_EQ((e.TakeTailOverdue(0.0701, In({6})) == Chunks{7}), true, "");
        NS_TEST_EXPECT_MSG_EQ(e.GetNextCheck(start, start, Time(0)).has_value(), false, "all out");

        // Lateness samples (chunk c expected at 52 + 2c ms), in order only.
        auto m = EightChunks();
        NS_TEST_EXPECT_MSG_EQ(m.ObserveCompletion(0, 0.053), true, "1 ms late");
        NS_TEST_EXPECT_MSG_EQ(m.ObserveCompletion(0, 0.054), false, "again");
        // 1.5 ms late: mean 1 + 0.5 / 8 = 1.0625 ms, deviation 0.5 ms.
        NS_TEST_EXPECT_MSG_EQ(m.ObserveCompletion(2, 0.0575), true, "");
        NS_TEST_EXPECT_MSG_EQ(m.ObserveCompletion(1, 0.0600), false, "behind chunk 2");
        m.MarkOverdue(3);
        NS_TEST_EXPECT_MSG_EQ(m.ObserveCompletion(3, 0.0610), false, "handled as overdue");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetMargin(), 0.004, 1e-15, "bound 3.0625 ms: the floor");
        // 10 ms late: deviation 0.5 + (8.9375 - 0.5) / 4 = 2.609375 ms, mean
        // 1.0625 + 8.9375 / 8 = 2.1796875 ms, margin 12.6171875 ms.
        NS_TEST_EXPECT_MSG_EQ(m.ObserveCompletion(4, 0.070), true, "");
        NS_TEST_EXPECT_MSG_EQ(m.GetClock().GetLateness().GetSamples(), 3, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetMargin(), 0.0126171875, 1e-15, "the measured bound");
        // Chunk 5 is now overdue at 62 + 12.617 ms, not at 66 ms.
        NS_TEST_EXPECT_MSG_EQ((m.TakeTailOverdue(0.0745, In({})) == Chunks{}), true, "");
        NS_TEST_EXPECT_MSG_EQ((m.TakeTailOverdue(0.0747, In({})) == Chunks{5}), true, "");

        // Recovery accept asks only whether the last chunk is overdue (of 3
        // chunks, chunk 2 at 50 + 2 x 3 + 4 = 60 ms).
        WanEarlyRecovery a(WanOverdueClock(0.050, 0.002, 3, 0.004), 2, 3);
        NS_TEST_EXPECT_MSG_EQ(a.GetTail(), 0, "a stream shorter than the window is all tail");
        NS_TEST_EXPECT_MSG_EQ(a.LastOverdue(0.0599), false, "");
        NS_TEST_EXPECT_MSG_EQ(a.LastOverdue(0.0601), true, "");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief At the deadline every incomplete chunk not yet handled is overdue,
 * the clock's first; the round may end once no ask runs.
 */
class EarlyDeadlineTestCase : public WanTestCase
{
  public:
    EarlyDeadlineTestCase()
        : WanTestCase("at the deadline the rest is overdue; the round ends when no ask runs")
    {
    }

  private:
    void DoCheck() override
    {
        auto e = EightChunks();
        // At 66.5 ms the clock has handed out 0 to 5 (5 is overdue).
        NS_TEST_EXPECT_MSG_EQ((e.TakeTailOverdue(0.0665, In({})) == Chunks{5}), true, "");
        e.MarkOverdue(5);
        e.MarkOverdue(2); // revealed by order
        NS_TEST_EXPECT_MSG_EQ(e.IsDeadlinePassed(), false, "");
        // Complete: 0, 3, 6.  Left: 7 (the clock's), then 1 and 4.
        const auto due = e.PassDeadline(In({0, 3, 6}));
        NS_TEST_EXPECT_MSG_EQ((due == Chunks{7, 1, 4}), true, "the clock's first, then the rest");
        NS_TEST_EXPECT_MSG_EQ(e.IsDeadlinePassed(), true, "");
        NS_TEST_EXPECT_MSG_EQ(e.GetNextCheck(Seconds(1), Seconds(1), Time(0)).has_value(),
                              false,
                              "no clock check after the deadline");
        for (uint32_t c : due)
        {
            e.MarkOverdue(c);
        }
        NS_TEST_EXPECT_MSG_EQ(e.GetPendingAsks(), 5, "2, 5, 7, 1, 4");
        e.EndAsk();
        e.EndAsk();
        NS_TEST_EXPECT_MSG_EQ(e.CanFinish(), false, "three asks run");
        e.AbandonAsks();
        NS_TEST_EXPECT_MSG_EQ(e.CanFinish(), true, "");
        e.EndAsk();
        NS_TEST_EXPECT_MSG_EQ(e.GetPendingAsks(), 0, "never below zero");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Which senders are asked for a chunk, when, and how long the
 * island waits for their repairs.
 */
class EarlyAskPeersTestCase : public WanTestCase
{
  public:
    EarlyAskPeersTestCase()
        : WanTestCase("senders are asked once due; timeouts of latency, queue, margin and wait")
    {
    }

  private:
    void DoCheck() override
    {
        auto e = EightChunks();
        // 2 ms packets, repairs at half the rate (4 ms each), 1 ms measured
        // beyond the round trip; the margin is the 4 ms floor.
        const WanEarlyRecovery::RequestCost cost{MilliSeconds(2), 0.5, 0.001};
        e.Reveal(1, 5, In({})); // position 1's chunks 0 to 2 are due
        // Chunk 1 lacks positions 1 and 2: only 1 is due (2 may be on its way).
        auto ask = e.AskPeers(1, 0, {1, 2}, 5, cost);
        NS_TEST_EXPECT_MSG_EQ((ask.action == PeerAction::REQUEST), true, "");
        NS_TEST_EXPECT_MSG_EQ((ask.positions == Chunks{1}), true, "the sender revealed");
        NS_TEST_EXPECT_MSG_EQ(e.GetOutstanding(1), 1, "");
        // 2 x 20 ms + 1 queued x 2 / 0.5 ms + 4 ms margin + 1 ms wait.
        NS_TEST_EXPECT_MSG_EQ(ask.timeout, MilliSeconds(49), "40 + 4 + 4 + 1 ms");
        NS_TEST_EXPECT_MSG_EQ((e.AskPeers(1, 0, {1, 2}, 5, cost).action == PeerAction::SKIP),
                              true,
                              "asked already");
        ask = e.AskPeers(1, 1, {1, 2}, 5, cost);
        NS_TEST_EXPECT_MSG_EQ(ask.timeout, MilliSeconds(98), "doubled on the second attempt");
        NS_TEST_EXPECT_MSG_EQ(e.GetOutstanding(1), 1, "a repeat opens no request");
        ask = e.AskPeers(1, 2, {1, 2}, 5, cost);
        NS_TEST_EXPECT_MSG_EQ(ask.timeout, MilliSeconds(98), "doubled once only");

        // Chunk 3 lacks positions 1 and 2: position 1's cursor stands at 3
        // (its chunk 6 has not come), so neither is due: wait, over both.
        ask = e.AskPeers(3, 0, {1, 2}, 5, cost);
        NS_TEST_EXPECT_MSG_EQ((ask.action == PeerAction::WAIT), true, "");
        NS_TEST_EXPECT_MSG_EQ(ask.timeout, MilliSeconds(69), "2 x 30 + 1 queued x 4 + 4 + 1 ms");
        NS_TEST_EXPECT_MSG_EQ(e.ArePeersAsked(3), false, "the first request is still to come");
        ask = e.AskPeers(3, 1, {2}, 5, cost);
        NS_TEST_EXPECT_MSG_EQ((ask.action == PeerAction::WAIT), true, "");
        NS_TEST_EXPECT_MSG_EQ(ask.timeout, MilliSeconds(65), "2 x 30 + 0 queued + 4 + 1 ms");
        NS_TEST_EXPECT_MSG_EQ(e.ArePeersAsked(3), true, "a later attempt keeps it started");

        // A tail chunk: every lacking sender is due.
        ask = e.AskPeers(6, 0, {1, 2}, 5, cost);
        NS_TEST_EXPECT_MSG_EQ((ask.positions == Chunks{1, 2}), true, "the tail");
        // Position 1 has 2 requests open now: 2 x 30 + 2 x 4 + 4 + 1 ms.
        NS_TEST_EXPECT_MSG_EQ(ask.timeout, MilliSeconds(73), "the larger latency and queue");
        e.RepairArrived(1);
        e.RepairArrived(1);
        e.RepairArrived(1);
        e.RepairArrived(9); // not in the clique
        NS_TEST_EXPECT_MSG_EQ(e.GetOutstanding(1), 0, "never below zero");
        NS_TEST_EXPECT_MSG_EQ(e.GetRequestTimeout({1, 2}, 0, cost), MilliSeconds(69), "60+4+4+1");

        // Done: nothing lacking, or the requests spent.
        e.MarkOverdue(6);
        e.MarkOverdue(7);
        NS_TEST_EXPECT_MSG_EQ((e.AskPeers(6, 5, {1, 2}, 5, cost).action == PeerAction::DONE),
                              true,
                              "5 of 5 requests made");
        NS_TEST_EXPECT_MSG_EQ((e.AskPeers(7, 0, {}, 5, cost).action == PeerAction::DONE),
                              true,
                              "whole");
        NS_TEST_EXPECT_MSG_EQ(e.GetPendingAsks(), 0, "both asks over");

        // Past the deadline every lacking sender is due.
        e.PassDeadline(In({0, 1, 2, 3, 4, 5, 6, 7}));
        ask = e.AskPeers(4, 0, {2}, 5, cost);
        NS_TEST_EXPECT_MSG_EQ((ask.positions == Chunks{2}), true, "past the deadline");
        NS_TEST_EXPECT_MSG_EQ(e.GetRoundTrip(2), MilliSeconds(60), "");
        NS_TEST_EXPECT_MSG_EQ(e.GetRoundTrip(0), Time(0), "");

        // Without latencies, the queue, margin and wait alone.
        WanEarlyRecovery n(WanOverdueClock(0.050, 0.002, 8, 0.004), 3, 3);
        NS_TEST_EXPECT_MSG_EQ(n.GetRoundTrip(1), Time(0), "unknown");
        NS_TEST_EXPECT_MSG_EQ(n.AskPeers(6, 0, {1}, 5, cost).timeout, MilliSeconds(9), "4 + 4 + 1");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The FPGA's repair holds the senders' requests; re-QUERYs back off;
 * a chunk with parity waits for its block's parity.
 */
class EarlyFpgaParityTestCase : public WanTestCase
{
  public:
    EarlyFpgaParityTestCase()
        : WanTestCase("the FPGA's repair holds requests; re-queries back off; parity is awaited")
    {
    }

  private:
    void DoCheck() override
    {
        auto e = EightChunks();
        const WanEarlyRecovery::RequestCost cost{MilliSeconds(2), 1, 0};
        NS_TEST_EXPECT_MSG_EQ(e.StartFpgaRepair(6), true, "");
        NS_TEST_EXPECT_MSG_EQ(e.StartFpgaRepair(6), false, "repairing already");
        NS_TEST_EXPECT_MSG_EQ(e.IsFpgaRepairing(6), true, "");
        NS_TEST_EXPECT_MSG_EQ((e.AskPeers(6, 0, {1}, 5, cost).action == PeerAction::SKIP),
                              true,
                              "the FPGA repairs it");
        NS_TEST_EXPECT_MSG_EQ(e.ArePeersAsked(6), false, "");
        NS_TEST_EXPECT_MSG_EQ(e.EndFpgaRepair(6), true, "");
        NS_TEST_EXPECT_MSG_EQ(e.EndFpgaRepair(6), false, "over already");
        NS_TEST_EXPECT_MSG_EQ((e.AskPeers(6, 0, {1}, 5, cost).action == PeerAction::REQUEST),
                              true,
                              "then the senders");
        // Two margins (2 x 4 ms), doubled per attempt up to 16 times.
        NS_TEST_EXPECT_MSG_EQ(e.GetQueryBackoff(0), MilliSeconds(8), "");
        NS_TEST_EXPECT_MSG_EQ(e.GetQueryBackoff(1), MilliSeconds(16), "");
        NS_TEST_EXPECT_MSG_EQ(e.GetQueryBackoff(3), MilliSeconds(64), "");
        NS_TEST_EXPECT_MSG_EQ(e.GetQueryBackoff(4), MilliSeconds(128), "");
        NS_TEST_EXPECT_MSG_EQ(e.GetQueryBackoff(9), MilliSeconds(128), "at most 16 x");
        // A block ending at chunk 3 (planned at 58 ms) with 2 parity chunks
        // of 2 ms and the 4 ms margin: the parity is due at 66 ms.
        const Time start = Seconds(1);
        NS_TEST_EXPECT_MSG_EQ(e.GetParityWait(3, 2, 0.002, start, MilliSeconds(1060)),
                              MilliSeconds(6),
                              "");
        NS_TEST_EXPECT_MSG_EQ(e.GetParityWait(3, 2, 0.002, start, MilliSeconds(1070)),
                              Time(0),
                              "passed");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible bookkeeping is refused with a message.
 */
class EarlyRefusesTestCase : public WanTestCase
{
  public:
    EarlyRefusesTestCase()
        : WanTestCase("early recovery without members, window or matching latencies is refused")
    {
    }

  private:
    void DoCheck() override
    {
        const WanOverdueClock clock(0, 0.001, 4, 0);
        auto error = [&](uint32_t members, uint32_t window, std::vector<Time> delays) {
            return ErrorOf([&] { WanEarlyRecovery(clock, members, window, delays); });
        };
        NS_TEST_EXPECT_MSG_EQ(Mentions(error(0, 3, {}), "member"), true, "no member");
        NS_TEST_EXPECT_MSG_EQ(Mentions(error(2, 0, {}), "reorder window"), true, "no window");
        NS_TEST_EXPECT_MSG_EQ(Mentions(error(3, 3, {Time(0)}), "1 latencies for a clique of 3"),
                              true,
                              "");
        NS_TEST_EXPECT_MSG_EQ(error(2, 3, {Time(0), MilliSeconds(5)}), "", "a fine round");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The early-recovery bookkeeping of one round at an island.
 */
class WanEarlyRecoveryTestSuite : public TestSuite
{
  public:
    WanEarlyRecoveryTestSuite()
        : TestSuite("wan-training-early-recovery", Type::UNIT)
    {
        AddTestCase(new RecoveryRevealTestCase);
        AddTestCase(new RecoveryTailTestCase);
        AddTestCase(new EarlyDeadlineTestCase);
        AddTestCase(new EarlyAskPeersTestCase);
        AddTestCase(new EarlyFpgaParityTestCase);
        AddTestCase(new EarlyRefusesTestCase);
    }
};

/// The suite's one instance.
static WanEarlyRecoveryTestSuite g_wanEarlyRecoveryTestSuite;
