/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-tcp-test-utils.h"
#include "wan-training-test-utils.h"

#include "ns3/clique-schedule.h"
#include "ns3/config.h"
#include "ns3/test.h"
#include "ns3/wan-collective-experiment.h"
#include "ns3/wan-collective-schedule-experiment.h"

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// Bytes of a record (the application's ChunkBytes).
constexpr uint64_t kRecord = 8936;

/**
 * @return the line A - C - D - B, 5 ms and 20 Gbps a link, 20 Gbps access:
 * A's path to B crosses C-D
 */
WanTopology
LineTopology()
{
    WanTopology topo;
    for (const char* c : {"A", "B", "C", "D"})
    {
        topo.AddCity({c, c, "r", 0, 0, 20e9, 20e9});
    }
    topo.AddLink("A", "C", 0.005, 20e9);
    topo.AddLink("C", "D", 0.005, 20e9);
    topo.AddLink("D", "B", 0.005, 20e9);
    topo.Validate();
    return topo;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The schedule of pairs on the triangle (A-B 10, A-C 20, B-C 25 ms;
 * 20 Gbps access), D = 6 MB (672 chunks), a ring all-reduce in each pair,
 * by hand. A pair's ring is 2 steps of D / 2 (336 records each way a
 * step): 4 x 336 records a round, 2 x 336 by each island. With the
 * initial window over the product, a pair's time is two one-way latencies
 * plus D / 2 at 20 Gbps (1.2 ms): round 1 {A,B} 21.2 ms, round 2 {A,C}
 * 41.2 ms, round 3 {B,C} 51.2 ms, within 2%; mean 37.9 ms. Lossless: exact, no
 * retransmission. The singleton of each round runs nothing.
 */
class CollectiveSchedulePairsTestCase : public WanTestCase
{
  public:
    CollectiveSchedulePairsTestCase()
        : WanTestCase("collective schedule: pairs on the triangle, times and bytes by hand")
    {
    }

  private:
    void DoCheck() override
    {
        SetLineRateTcp();
        const auto topo = TriangleTopology();
        WanCollectiveExperiment experiment(topo);
        experiment.SetPayload(6e6);
        const CliqueSchedule pairs("pairs", {{{0, 1}, {2}}, {{0, 2}, {1}}, {{1, 2}, {0}}});
        WanCollectiveScheduleExperiment runner(experiment);
        const auto rounds = runner.Run(WanCollectiveExperiment::RING, pairs, 3);
        NS_TEST_ASSERT_MSG_EQ(rounds.size(), 3, "");
        const std::vector<double> byHand{0.0212, 0.0412, 0.0512};
        for (uint32_t k = 0; k < 3; ++k)
        {
            const auto& r = rounds[k];
            NS_TEST_EXPECT_MSG_EQ(r.round, k, "");
            NS_TEST_EXPECT_MSG_EQ(r.cliques.size(), 1, "the singleton runs nothing");
            NS_TEST_EXPECT_MSG_EQ(r.complete, true, "round " << k);
            NS_TEST_EXPECT_MSG_EQ(r.exact, true, "round " << k);
            NS_TEST_EXPECT_MSG_EQ(r.bytes, 4 * 336 * kRecord, "round " << k);
            NS_TEST_EXPECT_MSG_EQ(r.maxEgressBytes, 2 * 336 * kRecord, "round " << k);
            NS_TEST_EXPECT_MSG_EQ(r.retransmissions, 0, "lossless");
            NS_TEST_EXPECT_MSG_EQ_TOL(r.seconds, byHand[k], byHand[k] * 0.02, "round " << k);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(WanCollectiveScheduleExperiment::MeanSeconds(rounds),
                                  (0.0212 + 0.0412 + 0.0512) / 3,
                                  0.002,
                                  "");
        const auto text = WanCollectiveScheduleExperiment::Format(rounds, topo);
        NS_TEST_EXPECT_MSG_NE(text.find("round 3: 5"), std::string::npos, text);
        NS_TEST_EXPECT_MSG_NE(text.find("exact True, slowest {B,C}"), std::string::npos, text);
        NS_TEST_EXPECT_MSG_NE(text.find("mean round 37."), std::string::npos, text);
        // A warning every clique of every round carries is printed once, under
        // the first round.
        auto warned = rounds;
        for (auto& r : warned)
        {
            r.cliques[0].warnings = {"at the scale"};
        }
        const auto once = WanCollectiveScheduleExperiment::Format(warned, topo);
        NS_TEST_EXPECT_MSG_EQ(once.find("warning: at the scale"),
                              once.find("\n", once.find("round 1: ")) + 3,
                              once);
        NS_TEST_EXPECT_MSG_EQ(once.find("warning: at the scale", once.find("round 2: ")),
                              std::string::npos,
                              once);
        Config::Reset();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The cliques of a round share the network: on the line A - C - D -
 * B (5 ms, 20 Gbps a link), the pair {A,B} crosses C-D, which the pair
 * {C,D} also sends on, so {A,B} beside {C,D} takes longer than alone (by
 * hand alone: 2 x 15 ms + D / 2 at 20 Gbps, 6.0 ms with D = 30 MB (3358
 * chunks): 36 ms, within 2%); each clique's sums stay exact and its bytes
 * are its own (4 x 1679 records). A city in two
 * groups, one member and 0 rounds are refused in one line.
 */
class CollectiveScheduleContentionTestCase : public WanTestCase
{
  public:
    CollectiveScheduleContentionTestCase()
        : WanTestCase("collective schedule: cliques of a round contend; bad groups refused")
    {
    }

  private:
    void DoCheck() override
    {
        SetLineRateTcp();
        WanCollectiveExperiment experiment(LineTopology());
        experiment.SetPayload(30e6);
        const auto alone = experiment.Run(WanCollectiveExperiment::RING, {0, 1});
        NS_TEST_EXPECT_MSG_EQ_TOL(alone.seconds, 0.036, 0.036 * 0.02, "by hand");
        const auto both = experiment.RunGroups(WanCollectiveExperiment::RING, {{0, 1}, {2, 3}});
        NS_TEST_ASSERT_MSG_EQ(both.size(), 2, "");
        NS_TEST_EXPECT_MSG_GT(both[0].seconds, alone.seconds * 1.05, "C-D shared");
        for (const auto& r : both)
        {
            NS_TEST_EXPECT_MSG_EQ(r.exact, true, "");
            NS_TEST_EXPECT_MSG_EQ(r.bytes, 4 * 1679 * kRecord, "its own records");
        }
        auto e =
            ErrorOf([&] { experiment.RunGroups(WanCollectiveExperiment::RING, {{0, 1}, {1, 2}}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "collective: city B in two groups"), true, e);
        e = ErrorOf([&] { experiment.Run(WanCollectiveExperiment::PARAMETER_SERVER, {2}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "collective: 1 member(s), need at least 2"), true, e);
        const CliqueSchedule one("one", {{{0, 1}, {2, 3}}});
        WanCollectiveScheduleExperiment runner(experiment);
        e = ErrorOf([&] { runner.Run(WanCollectiveExperiment::RING, one, 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "collective schedule one: 0 rounds, need at least 1"),
                              true,
                              e);
        Config::Reset();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-collective-schedule test suite.
 */
class WanCollectiveScheduleTestSuite : public TestSuite
{
  public:
    WanCollectiveScheduleTestSuite()
        : TestSuite("wan-training-collective-schedule", Type::UNIT)
    {
        AddTestCase(new CollectiveSchedulePairsTestCase);
        AddTestCase(new CollectiveScheduleContentionTestCase);
    }
};

/// The suite's one instance.
static WanCollectiveScheduleTestSuite g_wanCollectiveScheduleTestSuite;
