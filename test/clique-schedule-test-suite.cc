/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/clique-schedule.h"
#include "ns3/test.h"
#include "ns3/wan-topology.h"

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The groups of islands that a period's cliques connect.
 */
class GroupsTestCase : public WanTestCase
{
  public:
    GroupsTestCase()
        : WanTestCase("groups of islands that the rounds connect; the largest clique")
    {
    }

  private:
    void DoCheck() override
    {
        using Labels = std::vector<uint32_t>;
        // Six islands: {0,3} and {4,5} in round 1, {3,5} and {1} in round 2.
        std::vector<CliqueSchedule::Round> rounds{{{0, 3}, {1}, {2}, {4, 5}},
                                                  {{0}, {1}, {2}, {3, 5}, {4}}};
        NS_TEST_EXPECT_MSG_EQ((CliqueSchedule::Groups(rounds, 6) == Labels{0, 1, 2, 0, 0, 0}),
                              true,
                              "{0,3,4,5} {1} {2}, each labelled by its smallest island");
        NS_TEST_EXPECT_MSG_EQ((CliqueSchedule::Groups({rounds[1]}, 6) == Labels{0, 1, 2, 3, 4, 3}),
                              true,
                              "round 2 alone");
        NS_TEST_EXPECT_MSG_EQ(CliqueSchedule("two", rounds).GetLargestClique(), 2, "pairs");
        rounds.push_back({{0, 1, 2}, {3}, {4}, {5}});
        NS_TEST_EXPECT_MSG_EQ(CliqueSchedule("three", rounds).GetLargestClique(), 3, "a triangle");
        NS_TEST_EXPECT_MSG_EQ((CliqueSchedule::Groups(rounds, 6) == Labels(6, 0)),
                              true,
                              "a third round joins every island");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Alignment span of a triangle, by hand.
 */
class AlignmentSpanTestCase : public WanTestCase
{
  public:
    AlignmentSpanTestCase()
        : WanTestCase("alignment span of a pair and a triangle")
    {
    }

  private:
    void DoCheck() override
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
 * @ingroup wan-training-tests
 * @brief Schedule files: round trip and malformed schedules.
 */
class ScheduleFileTestCase : public WanTestCase
{
  public:
    ScheduleFileTestCase()
        : WanTestCase("schedule files: round trip and clear errors")
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

    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        auto triangles = CliqueScheduleBuiltins::Triangles(topo);
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
        std::string unknown = ErrorOf([&] { CliqueScheduleBuiltins::Make("rings", line); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(unknown, "unknown schedule 'rings'"), true, unknown);
        std::string direct =
            ErrorOf([&] { CliqueSchedule("x", {{{0, 1}, {1, 2}}}).Validate(line); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(direct, "island B appears twice"), true, direct);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-schedule test suite.
 */
class CliqueScheduleTestSuite : public TestSuite
{
  public:
    CliqueScheduleTestSuite()
        : TestSuite("wan-training-schedule", Type::UNIT)
    {
        AddTestCase(new GroupsTestCase);
        AddTestCase(new AlignmentSpanTestCase);
        AddTestCase(new ScheduleFileTestCase);
    }
};

/// The suite's instance.
static CliqueScheduleTestSuite g_cliqueScheduleTestSuite;
