/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-gossip-training.h"
#include "ns3/wan-training-loop.h"

#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// 1/3, a triangle's weight.
constexpr double kThird = 1.0 / 3;

/**
 * @return a hand-made run of three islands and two rounds: round 1 all
 *         three averaged everything in 100 ms; in round 2 island 0 averaged
 *         at its deadline, 200 ms, without island 2's contribution, which
 *         arrived later, and island 1 never averaged
 */
WanExperimentResult
HandResult()
{
    WanExperimentResult r;
    r.schedule = "hand";
    r.feasible = true;
    const WanMatrix all(3, std::vector<double>(3, kThird));
    WanRoundResult first;
    first.round = 0;
    first.mixedMs = 100;
    first.mixing = all;
    first.mixingReceived = all;
    WanRoundResult second;
    second.round = 1;
    second.mixedMs = std::numeric_limits<double>::infinity();
    second.mixing = {{0.5, 0.5, 0}, {0, 1, 0}, {kThird, kThird, kThird}};
    second.mixingReceived = {{kThird, kThird, kThird}, {0, 1, 0}, {kThird, kThird, kThird}};
    for (double mixedMs : {200.0, -1.0, 150.0})
    {
        WanIslandRoundResult island;
        island.mixedMs = mixedMs;
        second.islands.push_back(island);
    }
    r.rounds = {first, second};
    return r;
}

/**
 * @param policy "wait" or "quorum"
 * @param rounds training rounds
 * @return the loop of the hand cases: 50 ms per local step, two steps
 */
WanTrainingLoop
HandLoop(const std::string& policy, uint32_t rounds)
{
    WanTrainingLoop loop;
    loop.SetPolicy(policy);
    loop.SetAttribute("Rounds", UintegerValue(rounds));
    loop.SetAttribute("ComputeTime", TimeValue(MilliSeconds(50)));
    loop.SetAttribute("LocalSteps", UintegerValue(2));
    return loop;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The loop over a hand-made run: the packet rounds taken in turn,
 * each round's time (compute plus when its slowest island that averaged
 * did), the weight carried under the quorum (1/3 of island 0's row in round
 * 2: 1/9 per island), the target from f* and TargetGap, and the two
 * policies the same where nothing arrived late.
 */
class TrainingLoopHandTestCase : public WanTestCase
{
  public:
    TrainingLoopHandTestCase()
        : WanTestCase("a hand-made run: rounds in turn, times, carried weight, target")
    {
    }

  private:
    void DoCheck() override
    {
        const auto result = HandResult();
        const auto wait = HandLoop("wait", 5).Train(result);
        const auto quorum = HandLoop("quorum", 5).Train(result);
        NS_TEST_EXPECT_MSG_EQ(wait.policy, "wait", "policy");
        NS_TEST_EXPECT_MSG_EQ(quorum.policy, "quorum", "policy");
        NS_TEST_EXPECT_MSG_EQ(wait.workload, "quadratic", "the default workload");
        NS_TEST_EXPECT_MSG_EQ_TOL(wait.computeS, 0.1, 1e-12, "two steps of 50 ms");
        NS_TEST_EXPECT_MSG_EQ((wait.packetRounds == std::vector<uint32_t>{1, 2, 1, 2, 1}),
                              true,
                              "the packet rounds in turn");
        NS_TEST_ASSERT_MSG_EQ(wait.history.size(), 6, "round 0 and five rounds");
        // 0.1 + 0.1, + 0.1 + 0.2 (island 0; island 1 never averaged), ...
        const std::vector<double> times{0, 0.2, 0.5, 0.7, 1.0, 1.2};
        for (size_t k = 0; k < times.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(wait.history[k].timeS, times[k], 1e-12, "round " << k);
            NS_TEST_EXPECT_MSG_EQ_TOL(quorum.history[k].timeS, times[k], 1e-12, "round " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(wait.carriedWeight, 0, "wait carries nothing");
        // Rounds 2 and 4 carry 1/3 of island 0's row: (2 / 5) (1/3) / 3.
        NS_TEST_EXPECT_MSG_EQ_TOL(quorum.carriedWeight, 2.0 / 45, 1e-12, "quorum");
        NS_TEST_EXPECT_MSG_EQ(wait.history[1].modelLoss, quorum.history[1].modelLoss, "round 1");
        NS_TEST_EXPECT_MSG_NE(wait.history[3].modelLoss,
                              quorum.history[3].modelLoss,
                              "the carry changes round 3");

        // The target: f* + TargetGap (initial - f*).
        const auto& start = wait.history.front();
        NS_TEST_EXPECT_MSG_EQ_TOL(wait.minimumLoss,
                                  HandLoop("wait", 1).MakeWorkload(3).GetMinimumLoss(),
                                  1e-12,
                                  "f*");
        NS_TEST_EXPECT_MSG_EQ_TOL(wait.targetLoss,
                                  wait.minimumLoss + 0.05 * (start.modelLoss - wait.minimumLoss),
                                  1e-12,
                                  "the default gap, 5%");
        auto whole = HandLoop("wait", 2);
        whole.SetAttribute("TargetGap", DoubleValue(1));
        const auto reached = whole.Train(result);
        NS_TEST_EXPECT_MSG_EQ(reached.roundsToTarget, 0, "gap 1: reached at the start");
        NS_TEST_EXPECT_MSG_EQ(reached.timeToTargetS, 0, "at time 0");
        auto none = HandLoop("wait", 2);
        none.SetAttribute("TargetGap", DoubleValue(0));
        const auto never = none.Train(result);
        NS_TEST_EXPECT_MSG_EQ(never.roundsToTarget, -1, "gap 0 in two rounds: never");
        NS_TEST_EXPECT_MSG_EQ(never.timeToTargetS, -1, "never");

        // Where nothing came late the policies are one.
        auto onTime = result;
        onTime.rounds[1].mixingReceived = onTime.rounds[1].mixing;
        const auto a = HandLoop("wait", 4).Train(onTime);
        const auto b = HandLoop("quorum", 4).Train(onTime);
        for (size_t k = 0; k < a.history.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(a.history[k].modelLoss, b.history[k].modelLoss, "round " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(b.carriedWeight, 0, "nothing carried");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The workload and the initial models follow ns-3's run number: the
 * same run gives the same training bit for bit, another run another one.
 */
class TrainingLoopRunNumberTestCase : public WanTestCase
{
  public:
    TrainingLoopRunNumberTestCase()
        : WanTestCase("RngRun: the same run trains the same, another differs")
    {
    }

  private:
    void DoCheck() override
    {
        const auto result = HandResult();
        const uint64_t run = RngSeedManager::GetRun();
        const auto one = HandLoop("quorum", 4).Train(result);
        const auto again = HandLoop("quorum", 4).Train(result);
        RngSeedManager::SetRun(run + 1);
        const auto other = HandLoop("quorum", 4).Train(result);
        RngSeedManager::SetRun(run);
        for (size_t k = 0; k < one.history.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(one.history[k].modelLoss, again.history[k].modelLoss, "same");
        }
        NS_TEST_EXPECT_MSG_NE(one.history[0].modelLoss, other.history[0].modelLoss, "other run");

        WanTrainingLoop logistic;
        logistic.SetWorkload("logistic");
        const auto t = logistic.Train(result);
        NS_TEST_EXPECT_MSG_EQ(t.workload, "logistic", "workload");
        NS_TEST_EXPECT_MSG_EQ(t.history.size(), 3, "Rounds 0: the two packet rounds");
        NS_TEST_EXPECT_MSG_LT(t.history.back().modelLoss, t.history.front().modelLoss, "falls");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief At packet level, lossless pairs on the nine cities (scale 1000):
 * the consensus distance of the quadratic without heterogeneity contracts,
 * period after period of the realised mixing, by the rate of the product of
 * the run's matrices within 5%; and with the round guard at 0 and jitter
 * on the core, islands give up at the deadline what then comes late: their
 * rows of the received matrix are the planned 1/2, their rows of the
 * averaged one are not.
 */
class TrainingLoopPacketTestCase : public WanTestCase
{
  public:
    TrainingLoopPacketTestCase()
        : WanTestCase("packet level, pairs: contraction of the realised mixing; late arrivals")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        const auto pairs = CliqueScheduleBuiltins::Make("pairs", topo);
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(1000);
        const auto result = experiment.Run(pairs);
        NS_TEST_ASSERT_MSG_EQ(result.feasible, true, "pairs run");
        std::vector<WanMatrix> period;
        for (const auto& round : result.rounds)
        {
            period.push_back(round.mixing);
        }
        const double eta = 0.05;
        const double theory = WanGossipTraining::GetContractionRate(period, eta, 1, 1);
        const auto periods = static_cast<uint32_t>(20 * period.size());
        WanTrainingLoop loop;
        loop.SetAttribute("Heterogeneity", DoubleValue(0));
        loop.SetAttribute("StepSize", DoubleValue(eta));
        loop.SetAttribute("Rounds", UintegerValue(periods));
        const auto t = loop.Train(result);
        const auto& h = t.history;
        const size_t p = period.size();
        const double measured =
            std::pow(h[20 * p].consensusDistance / h[10 * p].consensusDistance, 1.0 / 20);
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, theory, 0.05 * theory, "per-period contraction");
        NS_TEST_EXPECT_MSG_LT(theory, 1.0, "it contracts");

        // Late arrivals: no guard, 2 ms of jitter on the core links.
        CliqueExperimentHelper late(topo, PlannerConfig{});
        late.SetScale(1000);
        late.SetRecovery("accept"); // what came late stays late: nothing asked for
        late.SetRounds(2);
        late.SetRoundGuard(0);
        WanLinkImpairment jitter;
        jitter.jitterSeconds = 0.002;
        late.SetImpairment(WanNetworkHelper::CORE, jitter);
        const auto lr = late.Run(pairs);
        uint32_t lateIslands = 0;
        for (const auto& round : lr.rounds)
        {
            for (const auto& island : round.islands)
            {
                if (island.mixing.size() != 2)
                {
                    continue;
                }
                for (const auto& [city, weight] : island.mixingReceived)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(weight, 0.5, 1e-12, "received: everything, lossless");
                }
                const bool wasLate = !island.lateChunks.empty();
                lateIslands += wasLate ? 1 : 0;
                NS_TEST_EXPECT_MSG_EQ((island.mixing != island.mixingReceived),
                                      wasLate,
                                      "the rows differ where chunks came late");
            }
        }
        NS_TEST_EXPECT_MSG_GT(lateIslands, 0, "some islands had late chunks");
        CheckQuorum(topo, pairs);
    }

    /**
     * @brief 5% loss on the core, early recovery: the quorum's islands (who
     * average at the deadline) see the same network as those who wait (the
     * same counts, the same arrivals by the end), average no later, and
     * carry something only where they averaged earlier; elsewhere they
     * average alike.
     * @param topo the nine cities
     * @param pairs the schedule
     */
    void CheckQuorum(const WanTopology& topo, const CliqueSchedule& pairs)
    {
        const auto run = [&](bool quorum) {
            CliqueExperimentHelper experiment(topo, PlannerConfig{});
            experiment.SetScale(1000);
            experiment.SetRounds(2);
            experiment.SetRecovery("early");
            experiment.SetAverageAtDeadline(quorum);
            WanLinkImpairment loss;
            loss.lossRate = 0.05;
            experiment.SetImpairment(WanNetworkHelper::CORE, loss);
            experiment.SetStream(11);
            return experiment.Run(pairs);
        };
        const auto wait = run(false);
        const auto quorum = run(true);
        uint32_t repairedLate = 0;
        for (size_t k = 0; k < wait.rounds.size(); ++k)
        {
            for (size_t i = 0; i < wait.rounds[k].islands.size(); ++i)
            {
                const auto& w = wait.rounds[k].islands[i];
                const auto& q = quorum.rounds[k].islands[i];
                NS_TEST_EXPECT_MSG_EQ(q.delivered, w.delivered, "the same network");
                NS_TEST_EXPECT_MSG_EQ(q.recovered, w.recovered, "the same repairs");
                NS_TEST_EXPECT_MSG_EQ((q.mixingReceived == w.mixingReceived),
                                      true,
                                      "the same arrivals by the end");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(q.mixedMs, w.mixedMs, "the quorum averages no later");
                const bool earlier = q.mixedMs < w.mixedMs;
                const bool carried = q.mixing != q.mixingReceived;
                repairedLate += carried ? 1 : 0;
                if (carried)
                {
                    NS_TEST_EXPECT_MSG_EQ(earlier, true, "carried only where it averaged earlier");
                }
                if (!earlier)
                {
                    NS_TEST_EXPECT_MSG_EQ((q.mixing == w.mixing), true, "averaged alike");
                }
            }
        }
        NS_TEST_EXPECT_MSG_GT(repairedLate, 0, "some repairs came after the deadline");
        NS_TEST_EXPECT_MSG_LT(quorum.mixedMs, wait.mixedMs, "the quorum's rounds are shorter");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Bad input is refused in one line naming the problem.
 */
class TrainingLoopBadInputTestCase : public WanTestCase
{
  public:
    TrainingLoopBadInputTestCase()
        : WanTestCase("bad input: one line naming the problem")
    {
    }

  private:
    void DoCheck() override
    {
        WanExperimentResult infeasible;
        infeasible.schedule = "pairs";
        infeasible.reason = "no T";
        WanExperimentResult empty;
        empty.schedule = "pairs";
        empty.feasible = true;
        auto ragged = HandResult();
        ragged.rounds[1].mixingReceived.pop_back();
        auto stochastic = HandResult();
        stochastic.rounds[1].mixingReceived[0][0] = 1;
        WanTrainingLoop loop;
        const std::vector<std::pair<std::string, std::string>> cases{
            {ErrorOf([&] { loop.Train(infeasible); }),
             "training loop: schedule pairs was not run (no T)"},
            {ErrorOf([&] { loop.Train(empty); }), "training loop: schedule pairs ran no rounds"},
            {ErrorOf([&] { loop.Train(ragged); }),
             "training loop: round 2 of hand has a received matrix of 2 rows (need 3)"},
            {ErrorOf([&] { HandLoop("quorum", 2).Train(stochastic); }),
             "gossip training: received matrix of round 2 is not row-stochastic: row 0 sums "
             "to 1.66666666667 (need 1 within 1e-9)"},
            {ErrorOf([&] { loop.SetWorkload("cubic"); }),
             "unknown workload \"cubic\" (expected quadratic or logistic)"},
            {ErrorOf([&] { loop.SetPolicy("hope"); }),
             "unknown training policy \"hope\" (expected wait or quorum)"},
        };
        for (const auto& [error, expected] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(error, expected, "refused, one line");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The training loop's test suite.
 */
class WanTrainingLoopTestSuite : public TestSuite
{
  public:
    WanTrainingLoopTestSuite()
        : TestSuite("wan-training-training-loop", Type::UNIT)
    {
        AddTestCase(new TrainingLoopHandTestCase);
        AddTestCase(new TrainingLoopRunNumberTestCase);
        AddTestCase(new TrainingLoopPacketTestCase);
        AddTestCase(new TrainingLoopBadInputTestCase);
    }
};

/// The suite's static instance.
static WanTrainingLoopTestSuite g_wanTrainingLoopTestSuite;
