/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/schedule-comparison-helper.h"
#include "ns3/test.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The paper's qualitative results on the nine-city topology.
 */
class PaperTableTestCase : public WanTestCase
{
  public:
    PaperTableTestCase()
        : WanTestCase("nine-city table: the paper's qualitative results")
    {
    }

  private:
    void DoCheck() override
    {
        ScheduleComparisonHelper helper;
        auto rows = helper.Compare({0, 32e9});
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 8, "four schedules x two memory sizes");
        std::map<std::string, ScheduleComparisonRow> none;
        std::map<std::string, ScheduleComparisonRow> hbm;
        for (const auto& r : rows)
        {
            (r.hbmBytes == 0 ? none : hbm)[r.schedule] = r;
        }
        // Without FPGA memory.
        NS_TEST_EXPECT_MSG_LT(none["pairs"].roundTimeMs,
                              none["regional"].roundTimeMs,
                              "pairs fastest");
        NS_TEST_EXPECT_MSG_LT(none["regional"].roundTimeMs,
                              none["triangles"].roundTimeMs,
                              "regional second");
        NS_TEST_EXPECT_MSG_EQ(none["all-to-all"].feasible, false, "all-to-all infeasible");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(none["all-to-all"].reason, "cannot be aligned without FPGA memory"),
            true,
            none["all-to-all"].reason);
        // An infeasible row still shows A; its binding is the reason, named
        // by schedule and round.  A feasible row's binding is its slowest
        // round's, as the planner words it.
        NS_TEST_EXPECT_MSG_EQ_TOL(none["all-to-all"].disagreement, 1.0, 1e-12, "A shown");
        NS_TEST_EXPECT_MSG_EQ(std::isinf(none["all-to-all"].objective), true, "no J");
        NS_TEST_EXPECT_MSG_EQ(
            none["all-to-all"].reason.rfind("all-to-all round 1: arrivals at ", 0),
            0,
            none["all-to-all"].reason);
        NS_TEST_EXPECT_MSG_EQ(none["all-to-all"].binding, none["all-to-all"].reason, "binding");
        NS_TEST_EXPECT_MSG_EQ(none["pairs"].reason, "", "no reason when feasible");
        NS_TEST_EXPECT_MSG_EQ(
            none["pairs"].binding.rfind("{NYC,BUE}: BUE->NYC arrives at 53.88 ms, then 400.00 ms",
                                        0),
            0,
            none["pairs"].binding);
        NS_TEST_EXPECT_MSG_EQ_TOL(none["triangles"].objective,
                                  544.07 * 1.75,
                                  1e-2,
                                  "J = T x A (544.07 ms x 1.75)");
        NS_TEST_EXPECT_MSG_LT(none["triangles"].objective, none["regional"].objective, "J");
        NS_TEST_EXPECT_MSG_LT(none["triangles"].objective, none["pairs"].objective, "J");
        // Hand-checkable round times: pairs = NYC-BUE 53.88 + 400 ms; regional =
        // Americas triangle span 107.76 + 400 ms; triangles = {BUE,FRA,TYO} span
        // (BUE-TYO 138.10 + FRA-TYO 98.43 - BUE-FRA 92.46) + 400 ms.
        NS_TEST_EXPECT_MSG_EQ_TOL(none["pairs"].roundTimeMs, 453.88, 1e-3, "pairs T");
        NS_TEST_EXPECT_MSG_EQ_TOL(none["regional"].roundTimeMs, 507.76, 1e-3, "regional T");
        NS_TEST_EXPECT_MSG_EQ_TOL(none["triangles"].roundTimeMs, 544.07, 1e-3, "triangles T");
        // With 32 GB.
        NS_TEST_ASSERT_MSG_EQ(hbm["all-to-all"].feasible, true, "all-to-all feasible");
        for (const char* s : {"pairs", "regional", "triangles"})
        {
            NS_TEST_EXPECT_MSG_LT(hbm["all-to-all"].objective, hbm[s].objective, "best J: " << s);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(hbm[s].roundTimeMs,
                                        none[s].roundTimeMs + 1e-9,
                                        "memory never slows a schedule: " << s);
        }
        // BUE-SIN 157.29 ms, then 1 GB at 100 Gbps / 8 streams (NYC->BUE).
        NS_TEST_EXPECT_MSG_EQ_TOL(hbm["all-to-all"].roundTimeMs, 797.29, 1e-3, "all-to-all T");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(hbm["all-to-all"].binding, "link NYC->BUE 100 Gbps / 8 streams"),
            true,
            hbm["all-to-all"].binding);
        NS_TEST_EXPECT_MSG_EQ_TOL(hbm["all-to-all"].disagreement, 1.0, 1e-12, "A = 1");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(hbm["all-to-all"].peakMemoryBytes, 32e9, "within 32 GB");
        NS_TEST_EXPECT_MSG_GT(hbm["all-to-all"].peakMemoryBytes, 0, "and uses some");

        auto sync = helper.CompareSynchronous(0.25, 1.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(sync.idleFraction, 0.8, 0.01, "GPUs idle about 80%");
        NS_TEST_EXPECT_MSG_EQ_TOL(sync.maxSpeedup, 5.0, 0.15, "about 5x");
        NS_TEST_EXPECT_MSG_EQ_TOL(sync.fullOverlapStalenessMs, 1000, 30, "from about 1 s");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Switches change the table the way the model says.
 */
class SwitchesTestCase : public WanTestCase
{
  public:
    SwitchesTestCase()
        : WanTestCase("multicast and aggregation switches")
    {
    }

  private:
    void DoCheck() override
    {
        ScheduleComparisonHelper helper;
        helper.SetSchedules({CliqueScheduleBuiltins::Triangles(helper.GetTopology())});
        double base = helper.Compare({0})[0].roundTimeMs;
        PlannerConfig unicast;
        unicast.multicast = false;
        helper.SetPlannerConfig(unicast);
        // Two copies per sender halve the clique rate: 800 ms of serialization.
        NS_TEST_EXPECT_MSG_EQ_TOL(helper.Compare({0})[0].roundTimeMs,
                                  base + 400,
                                  1e-6,
                                  "no multicast: +400 ms");
        // And LON's packet-level skew in round 2 (5.76 us) is reported under
        // the table at 0 GB, not at 32 GB.
        const auto rows = helper.Compare({0, 32e9});
        NS_TEST_EXPECT_MSG_EQ(rows[0].warnings.size(), 1, "0 GB: LON");
        NS_TEST_EXPECT_MSG_EQ(rows[1].warnings.size(), 0, "32 GB: none");
        const auto table = helper.FormatTable(rows, helper.CompareSynchronous(0.25, 1));
        NS_TEST_EXPECT_MSG_NE(table.find("\nwarning: triangles at 0 GB, round 2: arrivals at LON "
                                         "in {LAX,LON,SEO} differ by 5.76 us"),
                              std::string::npos,
                              table);
        NS_TEST_EXPECT_MSG_NE(helper.ToJson(rows, helper.CompareSynchronous(0.25, 1))
                                  .find("\"round 2: arrivals at LON in {LAX,LON,SEO}"),
                              std::string::npos,
                              "JSON rows carry the warnings");
        PlannerConfig noFpga;
        noFpga.aggregation = false;
        helper.SetPlannerConfig(noFpga);
        auto row = helper.Compare({0})[0];
        NS_TEST_EXPECT_MSG_EQ(row.feasible, true, "no alignment needed without aggregation");
        NS_TEST_EXPECT_MSG_GT(row.roundTimeMs, base + 300, "ingress carries two streams");
        std::string e = ErrorOf([&] {
            PlannerConfig bad;
            bad.payloadBytes = -1;
            helper.SetPlannerConfig(bad);
        });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "payload must be positive"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief CSV and JSON output carry the table.
 */
class OutputTestCase : public WanTestCase
{
  public:
    OutputTestCase()
        : WanTestCase("CSV and JSON output")
    {
    }

  private:
    void DoCheck() override
    {
        ScheduleComparisonHelper helper;
        auto rows = helper.Compare({0, 32e9});
        auto sync = helper.CompareSynchronous(0.25, 1.0);
        std::istringstream csv(ScheduleComparisonHelper::ToCsv(rows));
        std::string line;
        std::getline(csv, line);
        NS_TEST_EXPECT_MSG_EQ(line.rfind("schedule,hbm_gb,feasible,round_time_ms,", 0), 0, line);
        std::getline(csv, line);
        NS_TEST_EXPECT_MSG_EQ(line.rfind("pairs,0,1,453.88,", 0), 0, line);
        int n = 1;
        while (std::getline(csv, line))
        {
            ++n;
        }
        NS_TEST_EXPECT_MSG_EQ(n, 8, "eight data rows");
        std::string json = helper.ToJson(rows, sync);
        NS_TEST_EXPECT_MSG_NE(json.find("\"round_time_ms\": null"),
                              std::string::npos,
                              "infeasible");
        NS_TEST_EXPECT_MSG_NE(json.find("\"synchronous_sgd\""), std::string::npos, "sync block");

        const std::string path = CreateTempDirFilename("wan-training-table.csv");
        helper.Write(path, rows, sync);
        std::ifstream in(path);
        std::getline(in, line);
        NS_TEST_EXPECT_MSG_EQ(line.rfind("schedule,", 0), 0, "file written");
        std::filesystem::remove(path);
        std::string e = ErrorOf([&] { helper.Write("/tmp/table.txt", rows, sync); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "must end in .csv or .json"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-comparison test suite.
 */
class ScheduleComparisonTestSuite : public TestSuite
{
  public:
    ScheduleComparisonTestSuite()
        : TestSuite("wan-training-comparison", Type::UNIT)
    {
        AddTestCase(new PaperTableTestCase);
        AddTestCase(new SwitchesTestCase);
        AddTestCase(new OutputTestCase);
    }
};

/// The suite's instance.
static ScheduleComparisonTestSuite g_scheduleComparisonTestSuite;
