/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/mixing-analysis.h"
#include "ns3/test.h"

#include <cmath>
#include <string>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @param accessLoss loss rate of the access links
 * @return two rounds of triangles at scale 1000 (no FPGA memory), missing
 *         contributions given up once the last chunk is overdue
 */
WanExperimentResult
RunTriangles(double accessLoss)
{
    const auto topo = WanTopology::NineCity();
    CliqueExperimentHelper experiment(topo, PlannerConfig{});
    experiment.SetScale(1000);
    experiment.SetRounds(2);
    experiment.SetRecovery("accept");
    WanLinkImpairment loss;
    loss.lossRate = accessLoss;
    experiment.SetImpairment(WanNetworkHelper::ACCESS, loss);
    return experiment.Run(CliqueScheduleBuiltins::Make("triangles", topo));
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Without loss the islands average exactly as planned: each holds
 * its peers' contributions to all 112 chunks, weighs each member 1/3, and
 * A, T and J measured are the planned A and the measured round time.
 */
class LosslessMixingTestCase : public WanTestCase
{
  public:
    LosslessMixingTestCase()
        : WanTestCase("without loss: realised mixing is the planned one, A measured = A planned")
    {
    }

  private:
    void DoCheck() override
    {
        const auto r = RunTriangles(0);
        NS_TEST_ASSERT_MSG_EQ(r.rounds.size(), 2, "two rounds");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.disagreementMeasured, r.disagreement, 1e-12, "A measured");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.disagreement, 1.75, 1e-9, "A of triangles");
        NS_TEST_EXPECT_MSG_EQ(r.consensusSkew, 0.0, "every island weighs the same");
        const auto topo = WanTopology::NineCity();
        const auto schedule = CliqueScheduleBuiltins::Make("triangles", topo);
        double slowest = 0;
        for (const auto& round : r.rounds)
        {
            NS_TEST_EXPECT_MSG_EQ(
                (round.mixing == MixingAnalysis::UniformMixing(schedule.GetRound(round.round), 9)),
                true,
                "round " << round.round << ": the planned matrix, bit for bit");
            NS_TEST_ASSERT_MSG_EQ(round.islands.size(), 9, "every island");
            for (const auto& i : round.islands)
            {
                NS_TEST_EXPECT_MSG_EQ(i.held.size(), 3, "a triangle");
                for (const auto& [city, chunks] : i.held)
                {
                    NS_TEST_EXPECT_MSG_EQ(chunks, 112, "every chunk holds " << city);
                    NS_TEST_EXPECT_MSG_EQ(i.mixing.at(city), 1.0 / 3, "weight of " << city);
                }
                NS_TEST_EXPECT_MSG_EQ(i.mixedMs, i.completionMs, "averaged when complete");
            }
            NS_TEST_EXPECT_MSG_EQ(round.mixedMs, round.measuredMs, "the slowest island");
            slowest = std::max(slowest, round.measuredMs);
        }
        NS_TEST_EXPECT_MSG_EQ(r.mixedMs, slowest, "T measured: the slowest round");
        NS_TEST_EXPECT_MSG_EQ(r.objective, r.plannedMs * r.disagreement, "J planned");
        NS_TEST_EXPECT_MSG_EQ(r.objectiveMeasured, r.mixedMs * r.disagreementMeasured, "J");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Access loss with "accept": each island's held counts account for
 * exactly what it gave up, it weighs itself more when it missed something,
 * it averages at the deadline, and A measured rises with the loss rate.
 */
class LossyMixingTestCase : public WanTestCase
{
  public:
    LossyMixingTestCase()
        : WanTestCase("access loss accepted: held counts match what was given up, A measured rises")
    {
    }

  private:
    void DoCheck() override
    {
        double previous = 1.75; // A planned
        for (double loss : {0.001, 0.01, 0.05})
        {
            const auto r = RunTriangles(loss);
            NS_TEST_EXPECT_MSG_EQ_TOL(r.disagreement, 1.75, 1e-9, "A planned stays");
            NS_TEST_EXPECT_MSG_GT(r.disagreementMeasured, previous, "loss " << loss);
            NS_TEST_EXPECT_MSG_GT(r.consensusSkew, 0, "loss " << loss);
            previous = r.disagreementMeasured;
            // Rounds start T (1 + 10%) = 598.477 ms apart; islands that gave
            // contributions up averaged once their last chunk was overdue:
            // after the planned T of their clique, before that deadline.
            NS_TEST_EXPECT_MSG_LT(r.mixedMs, 598.477, "T measured: before the deadline");
            NS_TEST_EXPECT_MSG_GT(r.mixedMs, 544.07, "and after the schedule's T");
            NS_TEST_EXPECT_MSG_EQ(r.objectiveMeasured, r.mixedMs * r.disagreementMeasured, "J");
            for (const auto& round : r.rounds)
            {
                CheckIslands(round, loss);
            }
        }
    }

    /// Checks every island's held counts, row and time against its counters.
    void CheckIslands(const WanRoundResult& round, double loss)
    {
        for (const auto& i : round.islands)
        {
            uint64_t lacking = 0;
            double sum = 0;
            for (const auto& [city, chunks] : i.held)
            {
                lacking += 112 - chunks;
                sum += i.mixing.at(city);
                if (i.givenUp == 0)
                {
                    NS_TEST_EXPECT_MSG_EQ(i.mixing.at(city), 1.0 / 3, "nothing missed");
                }
            }
            if (i.givenUp > 0) // it weighs itself 1/2 or 1 in the chunks it lacks
            {
                NS_TEST_EXPECT_MSG_GT(i.mixing.at(i.city), 1.0 / 3, "island " << i.city);
            }
            NS_TEST_EXPECT_MSG_EQ(lacking, i.givenUp, "loss " << loss << ", island " << i.city);
            NS_TEST_EXPECT_MSG_EQ_TOL(sum, 1.0, 1e-12, "a row sums to 1");
            if (i.givenUp > 0)
            {
                NS_TEST_EXPECT_MSG_LT(i.mixedMs, 598.477, "averaged before the deadline");
                NS_TEST_EXPECT_MSG_EQ(i.completionMs, -1, "never complete");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-clique-experiment-mixing test suite.
 */
class CliqueExperimentMixingTestSuite : public TestSuite
{
  public:
    CliqueExperimentMixingTestSuite()
        : TestSuite("wan-training-clique-experiment-mixing", Type::UNIT)
    {
        AddTestCase(new LosslessMixingTestCase);
        AddTestCase(new LossyMixingTestCase);
    }
};

/// The suite's instance.
static CliqueExperimentMixingTestSuite g_cliqueExperimentMixingTestSuite;
