/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/nstime.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-collective-training.h"
#include "ns3/wan-training-loop.h"

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @param members the sync's members
 * @param seconds its time
 * @param complete whether it completed
 * @return a sync of the ring all-reduce as WanCollectiveExperiment reports it
 */
WanCollectiveResult
Sync(const std::vector<uint32_t>& members, double seconds, bool complete = true)
{
    WanCollectiveResult sync;
    sync.kind = "ring all-reduce";
    sync.members = members;
    sync.complete = complete;
    sync.exact = complete;
    sync.seconds = seconds;
    return sync;
}

/**
 * @param round its number
 * @param cliques each clique's members
 * @param seconds its time
 * @return a round of a schedule on today's network
 */
WanCollectiveRound
Round(uint32_t round, const std::vector<std::vector<uint32_t>>& cliques, double seconds)
{
    WanCollectiveRound r;
    r.round = round;
    for (const auto& members : cliques)
    {
        r.cliques.push_back(Sync(members, seconds));
    }
    r.complete = true;
    r.exact = true;
    r.seconds = seconds;
    return r;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The mixing matrices by hand. Three islands, {0, 1} averaging and 2
 * alone: rows (1/2, 1/2, 0), (1/2, 1/2, 0), (0, 0, 1); no group: the
 * identity; a sync of all three in the ring's order (2, 0, 1): every entry
 * 1/3, the round's time 250 ms (measured and mixed), the received matrix the
 * same, the run exact and feasible; a schedule's two rounds of 0.4 and 0.6 s
 * ({0, 1} then {1, 2}): their matrices in turn, the run's T the slower. A
 * sync that ran out of time makes the run infeasible, with the reason, and
 * the training loop refuses it with that reason. Refused: island 3 of 3, an
 * island in two groups.
 */
class CollectiveMixingTestCase : public WanTestCase
{
  public:
    CollectiveMixingTestCase()
        : WanTestCase("mixing matrices and round times by hand; incomplete syncs; refusals")
    {
    }

  private:
    void DoCheck() override
    {
        const WanMatrix pair{{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0, 1}};
        NS_TEST_EXPECT_MSG_EQ((WanCollectiveTraining::Averaging(3, {{0, 1}}) == pair), true, "");
        const WanMatrix identity{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        NS_TEST_EXPECT_MSG_EQ((WanCollectiveTraining::Averaging(3, {}) == identity), true, "");

        const auto run = WanCollectiveTraining::AsRun(3, Sync({2, 0, 1}, 0.25));
        NS_TEST_EXPECT_MSG_EQ(run.feasible, true, "");
        NS_TEST_EXPECT_MSG_EQ(run.exact, true, "");
        NS_TEST_EXPECT_MSG_EQ(run.schedule, "ring all-reduce", "");
        NS_TEST_ASSERT_MSG_EQ(run.rounds.size(), 1, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(run.rounds[0].mixedMs, 250, 1e-9, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(run.rounds[0].measuredMs, 250, 1e-9, "");
        for (const auto& row : run.rounds[0].mixing)
        {
            for (double w : row)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(w, 1.0 / 3, 1e-15, "W = J");
            }
        }
        NS_TEST_EXPECT_MSG_EQ((run.rounds[0].mixingReceived == run.rounds[0].mixing),
                              true,
                              "nothing late");

        const auto schedule =
            WanCollectiveTraining::AsRun("pairs",
                                         3,
                                         {Round(0, {{0, 1}}, 0.4), Round(1, {{1, 2}}, 0.6)});
        NS_TEST_ASSERT_MSG_EQ(schedule.rounds.size(), 2, "");
        NS_TEST_EXPECT_MSG_EQ((schedule.rounds[0].mixing == pair), true, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(schedule.rounds[1].mixing[0][0], 1, 1e-15, "0 alone");
        NS_TEST_EXPECT_MSG_EQ_TOL(schedule.rounds[1].mixing[2][1], 0.5, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(schedule.mixedMs, 600, 1e-9, "the slower round");

        const auto late = WanCollectiveTraining::AsRun(3, Sync({0, 1, 2}, 0, false));
        NS_TEST_EXPECT_MSG_EQ(late.feasible, false, "");
        NS_TEST_EXPECT_MSG_EQ(late.reason,
                              "round 1 of the collective did not complete before its time limit",
                              "");
        WanTrainingLoop loop;
        auto e = ErrorOf([&] { loop.Train(late); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "did not complete before its time limit"), true, e);
        e = ErrorOf([] { WanCollectiveTraining::Averaging(3, {{0, 3}}); });
        NS_TEST_EXPECT_MSG_EQ(e, "collective training: island 3 of 3", e);
        e = ErrorOf([] { WanCollectiveTraining::Averaging(3, {{0, 1}, {1, 2}}); });
        NS_TEST_EXPECT_MSG_EQ(e, "collective training: island 1 in two groups of a round", e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The training loop over an all-reduce every round (quadratic
 * workload, 9 islands, 30 rounds, 10 ms of compute per local step): every
 * round ends with the islands agreeing (consensus distance below 1e-20), the
 * clock at round k is k x (compute + sync) exactly, and the time to target is
 * the rounds to target times that; a sync twice as long reaches the target
 * after the same rounds, later by the rounds times the difference; a schedule
 * of pairs (0, 1) reaches it after more rounds than the all-reduce.
 */
class CollectiveTrainingTestCase : public WanTestCase
{
  public:
    CollectiveTrainingTestCase()
        : WanTestCase("time to target over all-reduce rounds: agreement, clock, rounds")
    {
    }

  private:
    /// @return the loop: quadratic, 30 rounds, 10 ms per local step
    static WanTrainingLoop Loop()
    {
        WanTrainingLoop loop;
        loop.SetWorkload("quadratic");
        loop.SetAttribute("Rounds", UintegerValue(30));
        loop.SetAttribute("ComputeTime", TimeValue(MilliSeconds(10)));
        return loop;
    }

    void DoCheck() override
    {
        const std::vector<uint32_t> all{0, 1, 2, 3, 4, 5, 6, 7, 8};
        const auto fast = Loop().Train(WanCollectiveTraining::AsRun(9, Sync(all, 0.5)));
        const double round = fast.computeS + 0.5;
        for (const auto& record : fast.history)
        {
            if (record.round > 0)
            {
                NS_TEST_EXPECT_MSG_LT(record.consensusDistance, 1e-20, "they agree");
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(record.timeS, record.round * round, 1e-9, "the clock");
        }
        NS_TEST_ASSERT_MSG_GT(fast.roundsToTarget, 0, "the target is reached");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.timeToTargetS,
                                  fast.roundsToTarget * round,
                                  1e-9,
                                  "rounds to target x (compute + sync)");
        const auto slow = Loop().Train(WanCollectiveTraining::AsRun(9, Sync(all, 1.0)));
        NS_TEST_EXPECT_MSG_EQ(slow.roundsToTarget, fast.roundsToTarget, "the same rounds");
        NS_TEST_EXPECT_MSG_EQ_TOL(slow.timeToTargetS - fast.timeToTargetS,
                                  fast.roundsToTarget * 0.5,
                                  1e-9,
                                  "later by the rounds x 0.5 s");
        const auto pairs =
            Loop().Train(WanCollectiveTraining::AsRun("pairs", 9, {Round(0, {{0, 1}}, 0.5)}));
        NS_TEST_EXPECT_MSG_EQ(
            (pairs.roundsToTarget < 0 || pairs.roundsToTarget > fast.roundsToTarget),
            true,
            "a pair's average mixes less than everyone's");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The WanCollectiveTraining test suite.
 */
class WanCollectiveTrainingTestSuite : public TestSuite
{
  public:
    WanCollectiveTrainingTestSuite()
        : TestSuite("wan-training-collective-training", Type::UNIT)
    {
        AddTestCase(new CollectiveMixingTestCase);
        AddTestCase(new CollectiveTrainingTestCase);
    }
};

/// The suite's one instance.
static WanCollectiveTrainingTestSuite g_wanCollectiveTrainingTestSuite;
