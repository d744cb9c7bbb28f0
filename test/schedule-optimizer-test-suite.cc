/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/clique-schedule-helper.h"
#include "ns3/double.h"
#include "ns3/schedule-evaluator.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/schedule-space.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cmath>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @param search "exhaustive" or "annealing"
 * @param maxPeriod period bound
 * @param seed annealing seed
 * @param evaluations annealing steps
 * @return a configured optimizer
 */
Ptr<ScheduleOptimizer>
MakeOptimizer(const std::string& search,
              uint32_t maxPeriod,
              uint32_t seed = 1,
              uint32_t evaluations = 4000)
{
    auto o = CreateObject<ScheduleOptimizer>();
    o->SetAttribute("Search", StringValue(search));
    o->SetAttribute("MaxPeriod", UintegerValue(maxPeriod));
    o->SetAttribute("Seed", UintegerValue(seed));
    o->SetAttribute("Evaluations", UintegerValue(evaluations));
    return o;
}

/**
 * @return the 15 distinct schedules of three islands with periods 1 and 2,
 *         written out: each of the 5 partitions alone, and each pair of them
 */
std::vector<std::vector<CliqueSchedule::Round>>
ThreeIslandSchedules()
{
    CliqueSchedule::Round none{{0}, {1}, {2}};
    CliqueSchedule::Round ab{{0, 1}, {2}};
    CliqueSchedule::Round ac{{0, 2}, {1}};
    CliqueSchedule::Round bc{{0}, {1, 2}};
    CliqueSchedule::Round abc{{0, 1, 2}};
    std::vector<CliqueSchedule::Round> letters{none, ab, ac, bc, abc};
    std::vector<std::vector<CliqueSchedule::Round>> out;
    for (size_t a = 0; a < letters.size(); ++a)
    {
        out.push_back({letters[a]});
        for (size_t b = a + 1; b < letters.size(); ++b)
        {
            out.push_back({letters[a], letters[b]});
        }
    }
    return out;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief On three islands the exhaustive search visits every distinct
 * schedule once and returns the least J, checked against a hand-made list.
 */
class OptimizerExhaustiveTestCase : public WanTestCase
{
  public:
    OptimizerExhaustiveTestCase()
        : WanTestCase("exhaustive search on three islands: every schedule once, the least J")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = TriangleTopology();
        for (bool aggregation : {true, false})
        {
            PlannerConfig config;
            config.aggregation = aggregation;
            config.hbmBytes = 32e9;
            auto result = MakeOptimizer("exhaustive", 2)->Optimize(topo, config);
            NS_TEST_EXPECT_MSG_EQ(result.method, "exhaustive", "enumerated");
            // 5 partitions: 5 + (25 - 5) / 2 = 15 schedules, each evaluated once.
            NS_TEST_EXPECT_MSG_EQ(result.spaceSize, 15, "15 schedules");
            NS_TEST_EXPECT_MSG_EQ(result.distinct, 15, "each once");
            NS_TEST_EXPECT_MSG_EQ(result.coverage, 1, "all of it");
            NS_TEST_EXPECT_MSG_EQ(result.roundsPlanned, 5, "5 distinct rounds");

            // The same minimum from an explicit list of the 15 schedules.
            ScheduleEvaluator evaluator(topo, config);
            double best = std::numeric_limits<double>::infinity();
            const auto schedules = ThreeIslandSchedules();
            NS_TEST_ASSERT_MSG_EQ(schedules.size(), 15, "the list");
            for (const auto& rounds : schedules)
            {
                best = std::min(best, evaluator.Evaluate(rounds).objective);
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(result.evaluation.objective,
                                      best,
                                      1e-9 * best,
                                      "least J, aggregation " << aggregation);
            NS_TEST_EXPECT_MSG_EQ(result.evaluation.feasible, true, "feasible");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief With the time-to-target objective the exhaustive search returns
 * the least predicted time of the 15 schedules on three islands, and
 * reports the J of what it found.
 */
class OptimizerTimeObjectiveTestCase : public WanTestCase
{
  public:
    OptimizerTimeObjectiveTestCase()
        : WanTestCase("time-to-target objective: the least predicted time of the 15 schedules")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = TriangleTopology();
        PlannerConfig config;
        config.hbmBytes = 32e9;
        WanWorkloadConstants c;
        c.islands = 3;
        c.dimension = 10;
        c.heterogeneity = 0.5;
        c.initialMean = 1;
        c.initialSpread = 2;
        c.noise = 0.1;
        WanPredictorTraining training;
        training.localSteps = 5;
        training.computeS = 0.2;
        const ScheduleTimeObjective time(c, training, 0.05);
        auto o = MakeOptimizer("exhaustive", 2);
        o->SetTimeObjective(time);
        const auto result = o->Optimize(topo, config);
        NS_TEST_EXPECT_MSG_EQ(result.distinct, 15, "each once");

        ScheduleEvaluator evaluator(topo, config);
        double best = std::numeric_limits<double>::infinity();
        double leastJ = best;
        for (const auto& rounds : ThreeIslandSchedules())
        {
            const auto e = evaluator.Evaluate(rounds);
            if (e.feasible && std::isfinite(e.objective))
            {
                leastJ = std::min(leastJ, e.objective);
                const auto p = time.Predict(rounds, e.roundTimeMs);
                best = p.reachable ? std::min(best, p.seconds) : best;
            }
        }
        NS_TEST_ASSERT_MSG_EQ(result.predicted.reachable, true, "reached");
        NS_TEST_EXPECT_MSG_EQ_TOL(result.predicted.seconds, best, 1e-9 * best, "least time");
        NS_TEST_EXPECT_MSG_EQ_TOL(result.evaluation.objective,
                                  evaluator.Evaluate(result.schedule).objective,
                                  1e-9,
                                  "its J, reported");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(result.evaluation.objective, leastJ, "J is not minimised");
        // Without the objective: the least J, and no prediction.
        const auto plain = MakeOptimizer("exhaustive", 2)->Optimize(topo, config);
        NS_TEST_EXPECT_MSG_EQ_TOL(plain.evaluation.objective, leastJ, 1e-9 * leastJ, "least J");
        NS_TEST_EXPECT_MSG_EQ(plain.predicted.reachable, false, "no time objective");

        // Where they part: four islands with memory, no heterogeneity, so
        // every schedule that mixes needs about as many rounds.  J takes
        // all-to-all (its A of 1); the time takes two rounds of pairs with
        // a shorter T, 16.34 s against all-to-all's 16.382 s predicted.
        const auto four = WanTopology::RandomGeometric(4, 2, 7);
        c.islands = 4;
        c.heterogeneity = 0;
        training.computeS = 1;
        const ScheduleTimeObjective flat(c, training, 0.05);
        auto byTime = MakeOptimizer("exhaustive", 2);
        byTime->SetTimeObjective(flat);
        const auto t = byTime->Optimize(four, config);
        const auto j = MakeOptimizer("exhaustive", 2)->Optimize(four, config);
        NS_TEST_EXPECT_MSG_EQ(j.schedule.GetLargestClique(), 4, "J: all-to-all");
        NS_TEST_EXPECT_MSG_EQ(t.schedule.GetLargestClique(), 2, "time: pairs");
        const auto allToAll = flat.Predict(j.schedule.GetRounds(), j.evaluation.roundTimeMs);
        NS_TEST_EXPECT_MSG_LT(t.predicted.seconds, allToAll.seconds, "faster to the target");
        NS_TEST_EXPECT_MSG_GT(t.evaluation.objective, j.evaluation.objective, "at a larger J");
        // A target below exact averaging's floor is refused when set.
        const auto e = ErrorOf([&] { ScheduleTimeObjective(c, training, 1e-9); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "is at or below the floor"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The annealing finds the optimum that enumeration finds, on small
 * synthetic topologies with and without FPGA memory.
 */
class OptimizerAnnealingTestCase : public WanTestCase
{
  public:
    OptimizerAnnealingTestCase()
        : WanTestCase("annealing finds the exhaustive optimum on N = 4, 5 and 6")
    {
    }

  private:
    void DoCheck() override
    {
        struct Case
        {
            uint32_t n;
            uint32_t regions;
            uint32_t maxPeriod;
            double hbmBytes;
        };

        for (const auto& c : {Case{4, 2, 3, 0},
                              Case{5, 2, 2, 0},
                              Case{5, 2, 2, 32e9},
                              Case{6, 3, 2, 0},
                              Case{6, 3, 1, 32e9}})
        {
            auto topo = WanTopology::RandomGeometric(c.n, c.regions, 7);
            PlannerConfig config;
            config.hbmBytes = c.hbmBytes;
            auto exact = MakeOptimizer("exhaustive", c.maxPeriod)->Optimize(topo, config);
            auto anneal = MakeOptimizer("annealing", c.maxPeriod, 3, 6000)->Optimize(topo, config);
            NS_TEST_EXPECT_MSG_EQ(anneal.method, "annealing", "annealed");
            NS_TEST_EXPECT_MSG_EQ(exact.evaluation.feasible, true, "a feasible optimum");
            NS_TEST_EXPECT_MSG_LT(anneal.distinct, exact.distinct, "did not enumerate");
            NS_TEST_EXPECT_MSG_EQ_TOL(anneal.evaluation.objective,
                                      exact.evaluation.objective,
                                      1e-9 * exact.evaluation.objective,
                                      "N = " << c.n << ", P <= " << c.maxPeriod << ", HBM "
                                             << c.hbmBytes / 1e9
                                             << " GB: " << anneal.schedule.ToString(topo) << " vs "
                                             << exact.schedule.ToString(topo));
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Nine cities: never worse than the best built-in schedule, bounds
 * respected, same seed same result.
 */
class OptimizerNineCityTestCase : public WanTestCase
{
  public:
    OptimizerNineCityTestCase()
        : WanTestCase("nine cities: at least as good as the paper's schedules, bounds, seeds")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        for (double hbm : {0.0, 32e9})
        {
            PlannerConfig config;
            config.hbmBytes = hbm;
            auto result = MakeOptimizer("auto", 3, 1, 3000)->Optimize(topo, config);
            NS_TEST_EXPECT_MSG_EQ(result.method, "annealing", "too large to enumerate");
            ScheduleEvaluator evaluator(topo, config);
            double bestBuiltin = std::numeric_limits<double>::infinity();
            for (const auto& name : CliqueScheduleBuiltins::Names())
            {
                bestBuiltin = std::min(
                    bestBuiltin,
                    evaluator.Evaluate(CliqueScheduleBuiltins::Make(name, topo)).objective);
            }
            NS_TEST_EXPECT_MSG_LT_OR_EQ(result.evaluation.objective,
                                        bestBuiltin,
                                        "HBM " << hbm / 1e9 << " GB");
            NS_TEST_EXPECT_MSG_EQ_TOL(result.builtin.objective,
                                      bestBuiltin,
                                      1e-9 * bestBuiltin,
                                      "the best built-in is reported");
            // The reported figures are the schedule's own.
            auto again = evaluator.Evaluate(result.schedule);
            NS_TEST_EXPECT_MSG_EQ_TOL(again.objective,
                                      result.evaluation.objective,
                                      1e-9 * again.objective,
                                      "J of the returned schedule");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(result.schedule.GetNRounds(), 3, "period bound");
        }

        // Bounds: at most 3 islands per clique, at most 2 rounds.
        auto bounded = MakeOptimizer("annealing", 2, 5, 2000);
        bounded->SetAttribute("MaxCliqueSize", UintegerValue(3));
        auto r1 = bounded->Optimize(topo, PlannerConfig{});
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r1.schedule.GetLargestClique(), 3, "clique bound");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(r1.schedule.GetNRounds(), 2, "period bound");
        r1.schedule.Validate(topo);
        NS_TEST_EXPECT_MSG_EQ(r1.spaceSize,
                              ScheduleSpace::CountSchedules(12644, 2),
                              "space of cliques up to 3");
        NS_TEST_EXPECT_MSG_EQ(r1.partitions, 12644, "partitions of 9 in cliques up to 3");

        // Same seed, same walk; the trace reports each improvement.
        auto r2 = MakeOptimizer("annealing", 2, 5, 2000);
        r2->SetAttribute("MaxCliqueSize", UintegerValue(3));
        r2->TraceConnectWithoutContext("Improvement",
                                       MakeCallback(&OptimizerNineCityTestCase::Improved, this));
        auto again = r2->Optimize(topo, PlannerConfig{});
        NS_TEST_EXPECT_MSG_EQ(again.schedule.ToString(topo),
                              r1.schedule.ToString(topo),
                              "same seed");
        NS_TEST_EXPECT_MSG_EQ(again.steps, r1.steps, "same walk");
        NS_TEST_EXPECT_MSG_EQ(again.distinct, r1.distinct, "same walk");
        NS_TEST_EXPECT_MSG_GT(m_improvements, 0, "improvements traced");
        NS_TEST_EXPECT_MSG_EQ(m_decreasing, true, "each improvement is better");
        NS_TEST_EXPECT_MSG_EQ(m_last, again.evaluation.objective, "the last one is the result");
    }

    /**
     * @param objective J of the new best schedule
     * @param step schedules visited
     */
    void Improved(double objective, uint64_t step)
    {
        ++m_improvements;
        m_decreasing = m_decreasing && (objective <= m_last || std::isinf(m_last)) && step > 0;
        m_last = objective;
    }

    uint32_t m_improvements{0};                             //!< traced improvements
    double m_last{std::numeric_limits<double>::infinity()}; //!< last traced J
    bool m_decreasing{true};                                //!< each better than the one before
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible bounds and settings are refused with clear errors.
 */
class OptimizerBadInputTestCase : public WanTestCase
{
  public:
    OptimizerBadInputTestCase()
        : WanTestCase("bad bounds and settings of the optimizer")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        auto run = [&topo](const std::string& name, const AttributeValue& value) {
            return ErrorOf([&]() {
                auto o = CreateObject<ScheduleOptimizer>();
                o->SetAttribute(name, value);
                o->Optimize(topo, PlannerConfig{});
            });
        };
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(run("MaxPeriod", UintegerValue(0)), "period bound must be at least 1"),
            true,
            "period 0");
        NS_TEST_EXPECT_MSG_EQ(Mentions(run("MaxCliqueSize", UintegerValue(10)),
                                       "clique-size bound 10 is larger than the 9 islands"),
                              true,
                              "clique larger than N");
        NS_TEST_EXPECT_MSG_EQ(Mentions(run("MaxCliqueSize", UintegerValue(1)),
                                       "clique-size bound must be at least 2"),
                              true,
                              "singletons only");
        // An unknown name is refused when it is set, before any run.
        CliqueScheduleHelper helper;
        const std::string unknown =
            ErrorOf([&helper]() { helper.SetOptimizerAttribute("Search", StringValue("greedy")); });
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(unknown,
                     "unknown search \"greedy\" (expected auto or exhaustive or annealing)"),
            true,
            unknown);
        NS_TEST_EXPECT_MSG_EQ(Mentions(run("Search", StringValue("exhaustive")), "is too large"),
                              true,
                              "enumerating nine cities");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(run("FinalTemperature", DoubleValue(0)), "initial > final > 0"),
            true,
            "temperatures");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([]() { WanTopology::RandomGeometric(1, 1, 1); }), "at least 2 cities"),
            true,
            "one city");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([]() { WanTopology::RandomGeometric(8, 9, 1); }),
                                       "1 to 8 regions (got 9)"),
                              true,
                              "too many regions");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Synthetic topologies: deterministic, connected, with their regions,
 * and written as JSON that reads back.
 */
class SyntheticTopologyTestCase : public WanTestCase
{
  public:
    SyntheticTopologyTestCase()
        : WanTestCase("random geometric WANs: same seed same network, JSON round trip")
    {
    }

  private:
    void DoCheck() override
    {
        auto a = WanTopology::RandomGeometric(16, 4, 11);
        auto b = WanTopology::RandomGeometric(16, 4, 11);
        auto c = WanTopology::RandomGeometric(16, 4, 12);
        NS_TEST_EXPECT_MSG_EQ(a.ToJson(), b.ToJson(), "same seed");
        NS_TEST_EXPECT_MSG_NE(a.ToJson(), c.ToJson(), "another seed");
        NS_TEST_EXPECT_MSG_EQ(a.GetNCities(), 16, "cities");
        NS_TEST_EXPECT_MSG_EQ(a.GetRegions().size(), 4, "regions");
        NS_TEST_EXPECT_MSG_EQ(a.GetCity(0).code, "C01", "codes");
        // A spanning tree (15 links) plus nearest neighbours, at most 16 x 2 more.
        NS_TEST_EXPECT_MSG_GT_OR_EQ(a.GetLinks().size(), 15, "connected");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(a.GetLinks().size(), 15 + 32, "sparse");
        auto back = WanTopology::FromJson(a.ToJson());
        NS_TEST_EXPECT_MSG_EQ(back.GetLinks().size(), a.GetLinks().size(), "same links");
        NS_TEST_EXPECT_MSG_EQ(back.GetCity(15).region, a.GetCity(15).region, "same regions");
        for (uint32_t i = 0; i < 16; ++i)
        {
            for (uint32_t j = 0; j < 16; ++j)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(back.GetPathDelay(i, j),
                                          a.GetPathDelay(i, j),
                                          1e-12,
                                          "same latencies");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The schedule optimizer's test suite.
 */
class ScheduleOptimizerTestSuite : public TestSuite
{
  public:
    ScheduleOptimizerTestSuite()
        : TestSuite("wan-training-optimizer", Type::UNIT)
    {
        AddTestCase(new OptimizerExhaustiveTestCase);
        AddTestCase(new OptimizerTimeObjectiveTestCase);
        AddTestCase(new OptimizerAnnealingTestCase);
        AddTestCase(new OptimizerNineCityTestCase);
        AddTestCase(new OptimizerBadInputTestCase);
        AddTestCase(new SyntheticTopologyTestCase);
    }
};

/// The suite's static instance.
static ScheduleOptimizerTestSuite g_scheduleOptimizerTestSuite;
