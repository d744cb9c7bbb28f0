/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule.h"
#include "ns3/test.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <set>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// "NYC-LAX" style names of the pairs of a schedule, in round order.
std::vector<std::string>
PairNames(const WanTopology& topo, const CliqueSchedule& s)
{
    std::vector<std::string> names;
    for (const auto& round : s.GetRounds())
    {
        for (const auto& c : round)
        {
            if (c.size() == 2)
            {
                names.push_back(topo.GetCity(c[0]).code + "-" + topo.GetCity(c[1]).code);
            }
        }
    }
    return names;
}

/// Codes of a clique, e.g. "NYC,LAX,BUE".
std::string
Codes(const WanTopology& topo, const CliqueSchedule::Clique& c)
{
    std::string s;
    for (auto v : c)
    {
        s += (s.empty() ? "" : ",") + topo.GetCity(v).code;
    }
    return s;
}

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief The built-in schedules on the nine-city topology.
 */
class BuiltinSchedulesTestCase : public TestCase
{
  public:
    BuiltinSchedulesTestCase()
        : TestCase("built-in schedules on the nine-city topology")
    {
    }

  private:
    void DoRun() override
    {
        auto topo = WanTopology::NineCity();
        for (const auto& name : CliqueSchedule::BuiltinNames())
        {
            auto s = CliqueSchedule::Builtin(name, topo);
            NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { s.Validate(topo); }), "", name << " is valid");
            NS_TEST_EXPECT_MSG_EQ(s.GetName(), name, "named");
        }

        // Pairs: the 8 edges of the minimum spanning tree by latency, each once,
        // in 3 matchings (NYC and TYO have three tree edges each).
        auto pairs = CliqueSchedule::Pairs(topo);
        NS_TEST_EXPECT_MSG_EQ(pairs.GetNRounds(), 3, "three matchings");
        auto names = PairNames(topo, pairs);
        std::set<std::string> got(names.begin(), names.end());
        std::set<std::string> mst{"NYC-LAX",
                                  "NYC-BUE",
                                  "NYC-LON",
                                  "LAX-TYO",
                                  "LON-AMS",
                                  "AMS-FRA",
                                  "TYO-SEO",
                                  "TYO-SIN"};
        NS_TEST_EXPECT_MSG_EQ(names.size(), 8, "eight pairs in the period");
        NS_TEST_EXPECT_MSG_EQ((got == mst), true, "the MST edges, each once");

        // Regional: the three regions, then one gateway pair per pair of regions.
        auto regional = CliqueSchedule::Regional(topo);
        NS_TEST_ASSERT_MSG_EQ(regional.GetNRounds(), 2, "two rounds");
        const auto& r1 = regional.GetRound(0);
        NS_TEST_ASSERT_MSG_EQ(r1.size(), 3, "three regional cliques");
        NS_TEST_EXPECT_MSG_EQ(Codes(topo, r1[0]), "NYC,LAX,BUE", "americas");
        NS_TEST_EXPECT_MSG_EQ(Codes(topo, r1[1]), "LON,AMS,FRA", "europe");
        NS_TEST_EXPECT_MSG_EQ(Codes(topo, r1[2]), "TYO,SEO,SIN", "asia");
        auto gateways = PairNames(topo, CliqueSchedule("r2", {regional.GetRound(1)}));
        std::set<std::string> g(gateways.begin(), gateways.end());
        NS_TEST_EXPECT_MSG_EQ((g == std::set<std::string>{"NYC-LON", "LAX-TYO", "FRA-SIN"}),
                              true,
                              "gateway pairs on the three cheapest inter-region links");
        NS_TEST_EXPECT_MSG_EQ(regional.GetRound(1).size(), 6, "three pairs, three singletons");

        // Triangles: regional triangles, then triangles of three regions.
        auto triangles = CliqueSchedule::Triangles(topo);
        NS_TEST_ASSERT_MSG_EQ(triangles.GetNRounds(), 2, "two rounds");
        NS_TEST_EXPECT_MSG_EQ((triangles.GetRound(0) == r1), true, "round 1 is regional");
        for (const auto& c : triangles.GetRound(1))
        {
            std::set<std::string> regions;
            for (auto v : c)
            {
                regions.insert(topo.GetCity(v).region);
            }
            NS_TEST_EXPECT_MSG_EQ(c.size(), 3, "a triangle");
            NS_TEST_EXPECT_MSG_EQ(regions.size(), 3, Codes(topo, c) << " spans three regions");
        }
        // The cross-regional partition minimises the largest alignment span.
        double worst = 0;
        for (const auto& c : triangles.GetRound(1))
        {
            worst = std::max(worst, CliqueSchedule::AlignmentSpan(topo, c));
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(worst, 0.14407, 1e-9, "largest span {BUE,FRA,TYO}");

        auto all = CliqueSchedule::AllToAll(topo);
        NS_TEST_EXPECT_MSG_EQ(all.GetNRounds(), 1, "one round");
        NS_TEST_EXPECT_MSG_EQ(all.GetRound(0).size(), 1, "one clique");
        NS_TEST_EXPECT_MSG_EQ(all.GetRound(0)[0].size(), 9, "of all nine");
        NS_TEST_EXPECT_MSG_EQ(all.GetRound(7)[0].size(), 9, "rounds repeat with the period");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Alignment span of a triangle, by hand.
 */
class AlignmentSpanTestCase : public TestCase
{
  public:
    AlignmentSpanTestCase()
        : TestCase("alignment span of a pair and a triangle")
    {
    }

  private:
    void DoRun() override
    {
        auto topo = TriangleTopology();
        // Sums of a vertex's two latencies: A 30, B 35, C 45 ms; K = 45; the
        // arrivals at each receiver meet at K minus the opposite side, the last
        // at 45 - 10 = 35 ms.
        NS_TEST_EXPECT_MSG_EQ_TOL(CliqueSchedule::AlignmentSpan(topo, {0, 1, 2}),
                                  0.035,
                                  1e-15,
                                  "triangle");
        NS_TEST_EXPECT_MSG_EQ_TOL(CliqueSchedule::AlignmentSpan(topo, {1, 2}),
                                  0.025,
                                  1e-15,
                                  "pair");
        NS_TEST_EXPECT_MSG_EQ(CliqueSchedule::AlignmentSpan(topo, {2}), 0, "singleton");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Schedule files: round trip and malformed schedules.
 */
class ScheduleFileTestCase : public TestCase
{
  public:
    ScheduleFileTestCase()
        : TestCase("schedule files: round trip and clear errors")
    {
    }

  private:
    void Expect(const WanTopology& topo, const std::string& json, const std::string& part)
    {
        std::string error = ErrorOf([&] { CliqueSchedule::FromJson(json, topo); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(error, part),
                              true,
                              "error '" << error << "' should mention '" << part << "'");
    }

    void DoRun() override
    {
        auto topo = WanTopology::NineCity();
        auto triangles = CliqueSchedule::Triangles(topo);
        auto back = CliqueSchedule::FromJson(triangles.ToJson(topo), topo);
        NS_TEST_EXPECT_MSG_EQ((back.GetRounds() == triangles.GetRounds()), true, "round trip");
        NS_TEST_EXPECT_MSG_EQ(back.GetName(), "triangles", "name kept");

        auto line = LineTopology({"A", "B", "C"}, {10, 20});
        auto s =
            CliqueSchedule::FromJson(R"({"rounds":[[["B","A"],["C"]],[["A","B","C"]]]})", line);
        NS_TEST_EXPECT_MSG_EQ(s.GetNRounds(), 2, "two rounds");
        NS_TEST_EXPECT_MSG_EQ(s.GetRound(0)[0][0], 0, "members sorted");
        NS_TEST_EXPECT_MSG_EQ(s.GetName(), "file", "default name");

        Expect(line, R"({"rounds":[[["A","B"],["B","C"]]]})", "round 1: island B appears twice");
        Expect(line, R"({"rounds":[[["A","B","C"]],[["A","B"]]]})", "round 2: island C is missing");
        Expect(line, R"({"rounds":[[["A","B","Q"]]]})", "round 1 names unknown island 'Q'");
        Expect(line, R"({"rounds":[[["A","B","C"],[]]]})", "has an empty clique");
        Expect(line, R"({"rounds":[]})", "non-empty \"rounds\" array");
        Expect(line, R"({"rounds":[[["A","B",3]]]})", "not a string");
        Expect(line, "[[", "does not parse");
        std::string missing = ErrorOf([&] { CliqueSchedule::LoadFile("/nonexistent.json", line); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(missing, "cannot open schedule file"), true, missing);
        std::string unknown = ErrorOf([&] { CliqueSchedule::Builtin("rings", line); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(unknown, "unknown schedule 'rings'"), true, unknown);
        std::string direct = ErrorOf([&] {
            CliqueSchedule("x", {{{0, 1}, {1, 2}}}).Validate(line);
        });
        NS_TEST_EXPECT_MSG_EQ(Mentions(direct, "island B appears twice"), true, direct);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The wan-training-schedule test suite.
 */
class CliqueScheduleTestSuite : public TestSuite
{
  public:
    CliqueScheduleTestSuite()
        : TestSuite("wan-training-schedule", Type::UNIT)
    {
        AddTestCase(new BuiltinSchedulesTestCase);
        AddTestCase(new AlignmentSpanTestCase);
        AddTestCase(new ScheduleFileTestCase);
    }
};

/// The suite's instance.
static CliqueScheduleTestSuite g_cliqueScheduleTestSuite;
