/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-helper.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief Built-in schedules, files and evaluation through the helper.
 */
class ScheduleHelperBasicsTestCase : public WanTestCase
{
  public:
    ScheduleHelperBasicsTestCase()
        : WanTestCase("built-in schedules, save and load, evaluation")
    {
    }

  private:
    void DoCheck() override
    {
        CliqueScheduleHelper helper;
        auto all = helper.Builtins();
        NS_TEST_ASSERT_MSG_EQ(all.size(), 4, "four built-in schedules");
        NS_TEST_EXPECT_MSG_EQ(all[2].GetName(), "triangles", "paper's order");

        // Triangles at 1 GB, 20 Gbps, no FPGA memory: BUE->TYO arrives at
        // 144.07 ms, then 400 ms of serialization; A = 1.75 (hand-computed in
        // the mixing suite), so J = 544.07 x 1.75.
        auto e = helper.Evaluate(helper.Builtin("triangles"));
        NS_TEST_EXPECT_MSG_EQ(e.feasible, true, "feasible");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.roundTimeMs, 544.07, 0.01, "T");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.disagreement, 1.75, 1e-9, "A");
        NS_TEST_EXPECT_MSG_EQ_TOL(e.objective, e.roundTimeMs * 1.75, 1e-9, "J = T x A");
        NS_TEST_EXPECT_MSG_EQ(e.components, 1, "connects every island");

        // All-to-all without memory: infeasible, with the memory it lacks.
        auto a2a = helper.Evaluate(helper.Builtin("all-to-all"));
        NS_TEST_EXPECT_MSG_EQ(a2a.feasible, false, "infeasible at 0 GB");
        NS_TEST_EXPECT_MSG_EQ_TOL(a2a.requiredMemoryBytes, 0.157281e9, 1e6, "needs 0.157 GB");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(a2a.misalignedBytes, a2a.requiredMemoryBytes, "total >= max");

        // Round trip through a file.
        std::string path = CreateTempDirFilename("wan-training-schedule.json");
        helper.Save(all[2], path);
        auto back = helper.Load(path);
        NS_TEST_EXPECT_MSG_EQ(back.ToString(helper.GetTopology()),
                              all[2].ToString(helper.GetTopology()),
                              "same rounds");
        std::remove(path.c_str());

        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { helper.Load("/no/such/schedule.json"); }),
                                       "/no/such/schedule.json"),
                              true,
                              "missing schedule file");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { helper.Builtin("hexagons"); }), "hexagons"),
                              true,
                              "unknown schedule");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([]() { WanTopology::LoadFile("/no/such/topology.json"); }),
                     "topology file '/no/such/topology.json'"),
            true,
            "unknown topology file");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Sweeps: settings, one optimisation per setting, the files.
 */
class ScheduleHelperSweepTestCase : public WanTestCase
{
  public:
    ScheduleHelperSweepTestCase()
        : WanTestCase("capability sweeps: settings, results and files")
    {
    }

  private:
    void DoCheck() override
    {
        CliqueScheduleHelper helper(TriangleTopology(), PlannerConfig{});
        helper.SetOptimizerAttribute("MaxPeriod", UintegerValue(2));
        auto settings = helper.Settings("aggregation", {"on", "off"});
        auto more = helper.Settings("hbm_gb", {"0", "32"});
        settings.insert(settings.end(), more.begin(), more.end());
        NS_TEST_ASSERT_MSG_EQ(settings.size(), 4, "4 settings");
        NS_TEST_EXPECT_MSG_EQ(settings[1].config.aggregation, false, "off");
        NS_TEST_EXPECT_MSG_EQ(settings[3].config.hbmBytes, 32e9, "32 GB");

        size_t calls = 0;
        auto rows = helper.Sweep(settings, [&calls](size_t done, size_t total) {
            calls = done;
            NS_ASSERT(total == 4);
        });
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 4, "one row per setting");
        NS_TEST_EXPECT_MSG_EQ(calls, 4, "progress after each");
        for (const auto& row : rows)
        {
            NS_TEST_EXPECT_MSG_EQ(row.result.method, "exhaustive", "3 islands: enumerated");
            NS_TEST_EXPECT_MSG_EQ(row.result.distinct, 15, "every schedule");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(row.result.evaluation.objective,
                                        row.result.builtin.objective,
                                        "never worse than the built-in schedules");
        }
        // Without aggregation, each receiver of a triangle takes two full
        // streams through its 20 Gbps access: the all-to-all triangle slows to
        // 10 Gbps, so J grows.
        NS_TEST_EXPECT_MSG_GT(rows[1].result.evaluation.objective,
                              rows[0].result.evaluation.objective,
                              "aggregation helps");

        auto csv = helper.SweepToCsv(rows);
        NS_TEST_EXPECT_MSG_EQ(std::count(csv.begin(), csv.end(), '\n'), 5, "header + 4 lines");
        NS_TEST_EXPECT_MSG_EQ(csv.rfind("dimension,value,feasible,schedule,", 0), 0, "header");
        auto json = nlohmann::json::parse(helper.SweepToJson(rows));
        NS_TEST_EXPECT_MSG_EQ(json["rows"].size(), 4, "JSON rows");
        NS_TEST_EXPECT_MSG_EQ(json["rows"][1]["value"].get<std::string>(), "off", "value");
        NS_TEST_EXPECT_MSG_EQ_TOL(json["rows"][0]["objective_ms_error"].get<double>(),
                                  rows[0].result.evaluation.objective,
                                  1e-6,
                                  "J in the file");
        // The schedule in the JSON loads back.
        std::string path = CreateTempDirFilename("wan-training-best.json");
        {
            std::ofstream out(path);
            out << json["rows"][0]["schedule"].dump();
        }
        auto loaded = helper.Load(path);
        NS_TEST_EXPECT_MSG_EQ(loaded.ToString(helper.GetTopology()),
                              rows[0].result.schedule.ToString(helper.GetTopology()),
                              "schedule from the sweep file");
        std::remove(path.c_str());
        auto text = helper.FormatSweep(rows);
        NS_TEST_EXPECT_MSG_NE(text.find("aggregation=off"), std::string::npos, "table");

        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { helper.Settings("colour", {"1"}); }),
                                       "unknown sweep dimension \"colour\""),
                              true,
                              "unknown dimension");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { helper.Settings("hbm_gb", {"lots"}); }),
                                       "hbm_gb: 'lots' is not a number"),
                              true,
                              "not a number");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { helper.Settings("hbm_gb", {"-1"}); }),
                                       "hbm_gb must be from 0 to 1000 GB (got -1 GB)"),
                              true,
                              "negative memory");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { helper.Settings("core_gbps", {"100", "1e300"}); }),
                     "core_gbps must be from 0.001 to 100000 Gbps (got 1e+300 Gbps)"),
            true,
            "capacity out of range");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { helper.Settings("payload_gb", {"2000"}); }),
                     "payload_gb (in bytes) must be from 1 to 1e+12 bytes (got 2e+12 bytes)"),
            true,
            "payload out of range");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { helper.Settings("multicast", {"maybe"}); }),
                                       "is not on or off"),
                              true,
                              "not a switch");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { helper.WriteSweep("sweep.txt", rows); }),
                                       "must end in .csv or .json"),
                              true,
                              "file type");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The paper's qualitative result, and beyond it: the optimum moves
 * with the network, and under some capabilities it beats all four of the
 * paper's schedules.
 */
class ScheduleHelperShiftTestCase : public WanTestCase
{
  public:
    ScheduleHelperShiftTestCase()
        : WanTestCase("nine cities: the optimum shifts with FPGA memory and core capacity")
    {
    }

  private:
    void DoCheck() override
    {
        CliqueScheduleHelper helper;
        auto rows = helper.Sweep(helper.Settings("hbm_gb", {"0", "32"}));
        auto more = helper.Sweep(helper.Settings("core_gbps", {"25"}));
        rows.insert(rows.end(), more.begin(), more.end());
        // Without memory, period-2 triangles at T = 544.07 ms and A = 1.75
        // (triangles itself, or a tie): all-to-all cannot align.
        NS_TEST_EXPECT_MSG_EQ_TOL(rows[0].result.evaluation.objective,
                                  544.07 * 1.75,
                                  0.02,
                                  "J at 0 GB");
        NS_TEST_EXPECT_MSG_EQ(rows[0].result.bestBuiltin, "triangles", "paper: triangles");
        // With 32 GB, all-to-all (A = 1, T = 797.3 ms) is the best of the
        // paper's four, and the optimum uses large cliques too.
        NS_TEST_EXPECT_MSG_EQ(rows[1].result.bestBuiltin, "all-to-all", "paper: all-to-all");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(rows[1].result.evaluation.objective,
                                    rows[1].result.builtin.objective,
                                    "at least as good as all-to-all");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(rows[1].result.evaluation.peakMemoryBytes, 32e9, "fits");
        NS_TEST_EXPECT_MSG_GT(rows[1].result.evaluation.peakMemoryBytes, 0, "uses the memory");
        // At 25 Gbps core links the optimizer beats every built-in schedule by
        // more than 10%.
        NS_TEST_EXPECT_MSG_LT(rows[2].result.evaluation.objective,
                              0.9 * rows[2].result.builtin.objective,
                              "better than the paper's four: "
                                  << rows[2].result.schedule.ToString(helper.GetTopology()));
        NS_TEST_EXPECT_MSG_EQ(rows[2].result.schedule.GetName(), "optimised", "a new schedule");

        // The optimised schedule, saved and loaded, runs at packet level as planned.
        std::string path = CreateTempDirFilename("wan-training-optimised.json");
        helper.Save(rows[2].result.schedule, path);
        auto loaded = helper.Load(path);
        std::remove(path.c_str());
        CliqueExperimentHelper experiment(helper.GetTopology(), rows[2].setting.config);
        experiment.SetScale(100);
        experiment.SetRecovery("accept"); // as planned: the data alone
        auto run = experiment.Run(loaded);
        NS_TEST_ASSERT_MSG_EQ(run.feasible, true, "planned");
        NS_TEST_EXPECT_MSG_EQ(run.exact, true, "every island's sums exact");
        double slowest = 0;
        for (const auto& r : run.rounds)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(r.measuredMs, r.plannedMs, 0.02 * r.plannedMs, "round");
            slowest = std::max(slowest, r.plannedMs);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(slowest,
                                  rows[2].result.evaluation.roundTimeMs,
                                  1e-6,
                                  "the optimizer's T is the planner's");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The schedule helper's test suite.
 */
class CliqueScheduleHelperTestSuite : public TestSuite
{
  public:
    CliqueScheduleHelperTestSuite()
        : TestSuite("wan-training-schedule-helper", Type::UNIT)
    {
        AddTestCase(new ScheduleHelperBasicsTestCase);
        AddTestCase(new ScheduleHelperSweepTestCase);
        AddTestCase(new ScheduleHelperShiftTestCase);
    }
};

/// The suite's static instance.
static CliqueScheduleHelperTestSuite g_cliqueScheduleHelperTestSuite;
