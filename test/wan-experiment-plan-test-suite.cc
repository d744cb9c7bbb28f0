/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/mixing-analysis.h"
#include "ns3/test.h"
#include "ns3/wan-experiment-plan.h"

#include <algorithm>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// @return true when a tree uses either direction of the link a-b
bool
UsesLink(const std::vector<WanHop>& tree, uint32_t a, uint32_t b)
{
    return std::any_of(tree.begin(), tree.end(), [a, b](const WanHop& h) {
        return (h.first == a && h.second == b) || (h.first == b && h.second == a);
    });
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Without faults every round takes the schedule's plan, a period
 * apart, with one stream per clique member.
 */
class PlanHealthyTestCase : public WanTestCase
{
  public:
    PlanHealthyTestCase()
        : WanTestCase("no faults: the schedule's plans, a period apart")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        const auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        WanExperimentPlanner planner(topo, PlannerConfig{});
        planner.SetRounds(4);
        const auto plan = planner.Plan(triangles);
        const auto scheduled = RoundPlanner(topo, PlannerConfig{}).Plan(triangles);
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "triangles are feasible");
        // T 544.07 ms (the cross-regional round), 10% between rounds.
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.roundTime, 0.54407, 1e-5, "T");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.period, 0.54407 * 1.1, 1e-5, "period");
        NS_TEST_ASSERT_MSG_EQ(plan.rounds.size(), 4, "four rounds");
        for (uint32_t k = 0; k < 4; ++k)
        {
            const auto& r = plan.rounds[k];
            NS_TEST_EXPECT_MSG_EQ(r.failed, false, "round " << k << " runs");
            NS_TEST_EXPECT_MSG_EQ(r.note, "", "as planned");
            NS_TEST_EXPECT_MSG_EQ_TOL(r.start, k * plan.period, 1e-12, "start");
            NS_TEST_EXPECT_MSG_EQ_TOL(r.deadline, plan.period, 1e-12, "deadline");
            NS_TEST_EXPECT_MSG_EQ(r.plan.roundTime,
                                  scheduled.rounds[k % 2].roundTime,
                                  "the schedule's plan of round " << k);
            NS_TEST_EXPECT_MSG_EQ(r.streams.size(), 9, "three triangles of three senders");
            for (const auto& s : r.streams)
            {
                NS_TEST_EXPECT_MSG_EQ(s.members.size(), 3, "a triangle");
                NS_TEST_EXPECT_MSG_EQ(s.members[s.position], s.sender, "position");
                const bool plannerTree = s.tree == topo.GetMulticastTree(s.sender, s.members);
                NS_TEST_EXPECT_MSG_EQ(plannerTree, true, "the planner's tree");
            }
        }
        // Triangles mix with A = 1.75 (the schedule's, as it runs unchanged).
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.disagreement, 1.75, 1e-9, "A of the rounds run");
        // Without FPGA memory a slot waits only half the gap between rounds.
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.slotTimeout, 0.54407 * 0.1 / 2, 1e-6, "slot timeout");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A link down from 1.25 s to 2.0 s overlaps rounds 2 and 3 (period
 * 598.5 ms): re-planned without it, or failed.
 */
class PlanLinkFaultTestCase : public WanTestCase
{
  public:
    PlanLinkFaultTestCase()
        : WanTestCase("link NYC-LON down: rounds 2 and 3 re-planned or failed")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        const uint32_t nyc = topo.FindCity("NYC");
        const uint32_t lon = topo.FindCity("LON");
        const auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        for (auto policy : {WanFaultPolicy::REPLAN, WanFaultPolicy::FAIL})
        {
            WanExperimentPlanner planner(topo, PlannerConfig{});
            planner.SetRounds(6);
            planner.SetFaultPolicy(policy);
            planner.AddLinkFault("NYC", "LON", 1.25, 2.0);
            const auto plan = planner.Plan(triangles);
            NS_TEST_ASSERT_MSG_EQ(plan.rounds.size(), 6, "six rounds");
            // Cross-regional rounds (odd) use NYC-LON when it is up.
            for (uint32_t k : {1u, 5u})
            {
                bool used = false;
                for (const auto& s : plan.rounds[k].streams)
                {
                    used = used || UsesLink(s.tree, nyc, lon);
                }
                NS_TEST_EXPECT_MSG_EQ(used, true, "round " << k << " uses NYC-LON");
            }
            for (uint32_t k : {0u, 1u, 4u, 5u})
            {
                NS_TEST_EXPECT_MSG_EQ(plan.rounds[k].note, "", "round " << k << " as planned");
            }
            for (uint32_t k : {2u, 3u})
            {
                const auto& r = plan.rounds[k];
                if (policy == WanFaultPolicy::REPLAN)
                {
                    NS_TEST_EXPECT_MSG_EQ(r.failed, false, "re-planned");
                    NS_TEST_EXPECT_MSG_EQ(r.note, "re-planned without NYC-LON", "note");
                    NS_TEST_ASSERT_MSG_EQ(r.routes.has_value(), true, "routes without the link");
                    NS_TEST_EXPECT_MSG_EQ(r.streams.size(), 9, "every triangle sends");
                    for (const auto& s : r.streams)
                    {
                        NS_TEST_EXPECT_MSG_EQ(UsesLink(s.tree, nyc, lon), false, "tree avoids it");
                    }
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(r.failed, true, "failed");
                    NS_TEST_EXPECT_MSG_EQ(r.note, "failed: link NYC-LON down", "note");
                    NS_TEST_EXPECT_MSG_EQ(r.streams.size(), 0, "nothing sent");
                    NS_TEST_EXPECT_MSG_EQ(r.ran.size(), 9, "nobody mixes");
                }
            }
            if (policy == WanFaultPolicy::REPLAN)
            {
                // The cross-regional round without NYC-LON takes T' = 756.2 ms,
                // more than the schedule's window of 598.5 ms: it keeps its
                // guard, and round 4 starts that much later.
                const auto& r3 = plan.rounds[3];
                NS_TEST_EXPECT_MSG_EQ_TOL(r3.plan.roundTime, 0.7562, 1e-4, "T' of round 3");
                NS_TEST_EXPECT_MSG_EQ_TOL(r3.deadline, r3.plan.roundTime * 1.1, 1e-12, "window");
                NS_TEST_EXPECT_MSG_EQ_TOL(plan.rounds[4].start,
                                          3 * plan.period + r3.plan.roundTime * 1.1,
                                          1e-12,
                                          "round 4 waits for round 3");
                NS_TEST_EXPECT_MSG_EQ_TOL(plan.rounds[2].deadline, plan.period, 1e-12, "faster");
            }
            if (policy == WanFaultPolicy::FAIL)
            {
                // Two rounds without mixing: A of the rounds run is larger.
                NS_TEST_EXPECT_MSG_GT(plan.disagreement, 1.75, "failed rounds mix less");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief An island away in round 0: its triangle runs as a pair, it alone.
 */
class PlanAbsenceTestCase : public WanTestCase
{
  public:
    PlanAbsenceTestCase()
        : WanTestCase("SIN away in round 0: its clique runs without it")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        const uint32_t sin = topo.FindCity("SIN");
        const auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        WanExperimentPlanner planner(topo, PlannerConfig{});
        planner.SetRounds(2);
        planner.AddIslandAbsence("SIN", 0, 0);
        const auto plan = planner.Plan(triangles);
        const auto& r0 = plan.rounds[0];
        NS_TEST_EXPECT_MSG_EQ(r0.note, "SIN away", "note");
        NS_TEST_EXPECT_MSG_EQ(r0.streams.size(), 8, "3 + 3 + 2 senders");
        for (const auto& s : r0.streams)
        {
            NS_TEST_EXPECT_MSG_NE(s.sender, sin, "SIN does not send");
        }
        NS_TEST_EXPECT_MSG_EQ(plan.rounds[1].streams.size(), 9, "back in round 1");
        std::vector<CliqueSchedule::Round> ran{r0.ran, plan.rounds[1].ran};
        const double a =
            MixingAnalysis::FromSchedule(CliqueSchedule("ran", ran), 9).GetAverageDisagreement();
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.disagreement, a, 1e-12, "A of the cliques that ran");
        NS_TEST_EXPECT_MSG_GT(plan.disagreement, 1.75, "mixes less than triangles");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible experiment parameters are refused with one clear line.
 */
class PlanBadInputTestCase : public WanTestCase
{
  public:
    PlanBadInputTestCase()
        : WanTestCase("impossible experiment parameters")
    {
    }

  private:
    void DoCheck() override
    {
        WanExperimentPlanner planner(WanTopology::NineCity(), PlannerConfig{});
        std::string e = ErrorOf([&] { planner.SetRounds(0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "rounds must be at least 1"), true, e);
        e = ErrorOf([&] { planner.SetRoundGuard(-0.1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "round guard must be zero or positive"), true, e);
        e = ErrorOf([&] { planner.AddLinkFault("NYC", "TYO", 1, 2); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "no link between NYC and TYO"), true, e);
        e = ErrorOf([&] { planner.AddLinkFault("NYC", "LON", 2, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "come back later"), true, e);
        e = ErrorOf([&] { planner.AddIslandAbsence("SIN", 3, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "last round 1 before first round 3"), true, e);
        e = ErrorOf([&] { WanExperimentPlanner::ParseFaultPolicy("retry"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "unknown fault policy \"retry\""), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-experiment-plan test suite.
 */
class WanExperimentPlanTestSuite : public TestSuite
{
  public:
    WanExperimentPlanTestSuite()
        : TestSuite("wan-training-experiment-plan", Type::UNIT)
    {
        AddTestCase(new PlanHealthyTestCase);
        AddTestCase(new PlanLinkFaultTestCase);
        AddTestCase(new PlanAbsenceTestCase);
        AddTestCase(new PlanBadInputTestCase);
    }
};

/// The suite's instance.
static WanExperimentPlanTestSuite g_wanExperimentPlanTestSuite;
