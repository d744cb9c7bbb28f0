/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/round-planner.h"
#include "ns3/test.h"
#include "ns3/wan-agreement-check.h"
#include "ns3/wan-topology-generator.h"
#include "ns3/wan-training-compat.h"

#include <sstream>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// @return what disagrees with the planner, with no warning of its own,
/// among the built-in schedules on the WAN ("" when nothing)
std::string
Disagreements(const WanTopology& topo, const std::string& label)
{
    std::ostringstream s;
    for (const auto& row : WanAgreementCheck().Run(topo, label))
    {
        if (row.verdict == "DISAGREES" || (row.feasible && !row.exact))
        {
            s << label << " " << row.schedule << ": planned " << row.plannedMs << " ms, measured "
              << row.measuredMs << " ms, scale lag " << row.scaleLagMs << " ms, exact " << row.exact
              << "; ";
        }
    }
    return s.str();
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The long, contended WAN: a ring of 24 islands whose all-to-all
 * sends 23 streams into every edge port.  The planner counts them (the
 * port's 400 Gbps / 23 binds, not the 20 Gbps access) and the packet level
 * agrees: every sum exact, T within 2%.
 */
class RingAgreementTestCase : public WanTestCase
{
  public:
    RingAgreementTestCase()
        : WanTestCase("ring of 24 with chords: every schedule agrees with the planner")
    {
    }

  private:
    void DoCheck() override
    {
        // Every core link at 400 Gbps, so that no link binds before the port.
        WanTopologyGenerator::Settings settings;
        settings.kind = WanTopologyGenerator::RING;
        settings.cities = 24;
        settings.seed = 5;
        settings.capacitiesBps = {400e9};
        const auto topo = WanTopologyGenerator::Generate(settings);
        const auto rows = WanAgreementCheck().Run(topo, "ring-24-5");
        NS_TEST_ASSERT_MSG_EQ(rows.size(), 4, "pairs, regional, triangles, all-to-all");
        const auto& all = rows[3];
        NS_TEST_EXPECT_MSG_EQ(all.schedule, "all-to-all", "last");
        NS_TEST_EXPECT_MSG_EQ(all.hbmGB, 32, "all-to-all needs memory");
        // 1 GB at 400 / 23 Gbps: 460 ms of serialization after the last first byte.
        NS_TEST_EXPECT_MSG_GT(all.plannedMs, 460, "the port binds");
        for (const auto& row : rows)
        {
            NS_TEST_EXPECT_MSG_EQ(row.verdict,
                                  "agrees",
                                  row.schedule << ": planned " << row.plannedMs << " ms, measured "
                                               << row.measuredMs << " ms, lag " << row.scaleLagMs
                                               << " ms, exact " << row.exact);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A chain of 16: the longest paths (15 hops), so the scale's store and
 * forward is the largest part of the difference.
 */
class ChainAgreementTestCase : public WanTestCase
{
  public:
    ChainAgreementTestCase()
        : WanTestCase("chain of 16: every schedule agrees or is warned of")
    {
    }

  private:
    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ(
            Disagreements(GeneratedWan(WanTopologyGenerator::CHAIN, 16, 2), "chain-16-2"),
            "",
            "every schedule agrees or is warned of");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The two ends of a 70-island chain exchange their states: each
 * stream crosses 70 routers (and both edge nodes), more than ns-3's default
 * TTL of 64 lets through, so the network's nodes must send with a larger one.
 */
class LongPathTestCase : public WanTestCase
{
  public:
    LongPathTestCase()
        : WanTestCase("a pair 69 hops apart: every contribution arrives (TTL)")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = GeneratedWan(WanTopologyGenerator::CHAIN, 70, 4);
        NS_TEST_ASSERT_MSG_EQ(topo.GetPath(0, 69).size(), 70, "69 core hops");
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(10000);
        CliqueSchedule::Round round{{0, 69}};
        for (uint32_t c = 1; c < 69; ++c)
        {
            round.push_back({c}); // the islands between stay out
        }
        const auto r = experiment.Run(CliqueSchedule("ends", {round}));
        NS_TEST_ASSERT_MSG_EQ(r.rounds.size(), 1, "one round");
        uint64_t expected = 0;
        uint64_t delivered = 0;
        for (const auto& island : r.rounds[0].islands)
        {
            expected += island.expected;
            delivered += island.delivered;
        }
        NS_TEST_EXPECT_MSG_EQ(expected, 2 * 12, "100 KB: 12 chunks each way");
        NS_TEST_EXPECT_MSG_EQ(delivered, expected, "every one delivered");
        NS_TEST_EXPECT_MSG_EQ(r.exact, true, "sums exact");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Successive chunks that overlap in the 7-slot line-rate table keep
 * slots of their own (DetourTopology, 0 GB, scale 1000, one round of
 * {A,B,C}).  With 100 Gbps direct links the planner's skew at A and C is
 * 3.60 us, exactly a chunk's time at 20 Gbps; at A, C's chunk k (over the
 * detour) and B's chunk k + 1 reach A's edge port together, one waits a
 * frame time, and chunk k is still open when chunk k + 1 arrives.  With
 * 400 Gbps the planner's skew is 4.14 us, beyond a chunk's time.  A slot
 * hashed from the whole chunk identifier put such neighbours in one slot
 * one time in seven: 46 conflict evictions, and the extra partial sums
 * queued on A's and C's full ingress (509 ms measured against 415 ms
 * planned).  Taken in turn from a base slot, they never share one.
 */
class OverlappingChunksAgreementTestCase : public WanTestCase
{
  public:
    OverlappingChunksAgreementTestCase()
        : WanTestCase("chunks overlapping in the line-rate table: no conflict, T as planned")
    {
    }

  private:
    void DoCheck() override
    {
        const CliqueSchedule::Round round{{0, 1, 2}, {3}, {4}};
        for (double directBps : {100e9, 400e9})
        {
            const auto topo = DetourTopology(directBps);
            const std::string what =
                directBps < 200e9 ? "100 Gbps direct links" : "400 Gbps direct links";
            const auto plan = RoundPlanner(topo, PlannerConfig{}).PlanRound(round);
            NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, what);
            NS_TEST_EXPECT_MSG_EQ_TOL(plan.roundTime, 0.415, 1e-9, what << ": 15 + 400 ms");
            const double skewUs = directBps < 200e9 ? 3.6 : 4.14;
            NS_TEST_EXPECT_MSG_EQ_TOL(plan.cliques[0].skewSeconds[0] * 1e6,
                                      skewUs,
                                      1e-9,
                                      what << ": skew at A");
            NS_TEST_EXPECT_MSG_EQ(plan.warnings.size(), 0, what << ": nothing to warn of");

            CliqueExperimentHelper experiment(topo, PlannerConfig{});
            experiment.SetScale(1000);
            experiment.SetRecovery("accept"); // the data's chunks alone
            const auto r = experiment.Run(CliqueSchedule("detour", {round}));
            NS_TEST_ASSERT_MSG_EQ(r.rounds.size(), 1, what);
            NS_TEST_EXPECT_MSG_EQ(r.evictions.at("conflict"), 0, what << ": no conflict");
            // 112 chunks (1 MB at scale 1000) at each of the three receivers.
            NS_TEST_EXPECT_MSG_EQ(r.evictions.at("completion"), 336, what << ": all complete");
            NS_TEST_EXPECT_MSG_EQ(r.exact, true, what << ": sums exact");
            WanAgreementRow row;
            WanAgreementCheck::Judge(r, 0.02, row);
            NS_TEST_EXPECT_MSG_EQ(row.verdict,
                                  "agrees",
                                  what << ": planned " << row.plannedMs << " ms, measured "
                                       << row.measuredMs << " ms, lag " << row.scaleLagMs << " ms");
            NS_TEST_EXPECT_MSG_LT(row.excessPercent, 1.2, what << ": the headers and little else");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The verdict, by hand: a round planned at 500 ms with 4 ms of scale
 * lag agrees up to 514 ms (2% + 4 ms) and down to 490 ms; beyond, it
 * disagrees unless the planner warned of it; an inexact sum never agrees.
 */
class JudgeTestCase : public WanTestCase
{
  public:
    JudgeTestCase()
        : WanTestCase("verdicts by hand: 2% plus the scale lag, both ways")
    {
    }

  private:
    static std::string Verdict(double measuredMs, bool exact, bool warned)
    {
        WanExperimentResult result;
        result.exact = exact;
        WanRoundResult r;
        r.plannedMs = 500;
        r.scaleLagMs = 4;
        r.measuredMs = measuredMs;
        if (warned)
        {
            r.warnings.emplace_back("arrivals differ");
        }
        result.rounds.push_back(r);
        result.scaleLagMs = 4;
        WanAgreementRow row;
        WanAgreementCheck::Judge(result, 0.02, row);
        return row.verdict;
    }

    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ(Verdict(500, true, false), "agrees", "as planned");
        NS_TEST_EXPECT_MSG_EQ(Verdict(513.9, true, false), "agrees", "2% + 4 ms");
        NS_TEST_EXPECT_MSG_EQ(Verdict(514.1, true, false), "DISAGREES", "beyond");
        NS_TEST_EXPECT_MSG_EQ(Verdict(490.1, true, false), "agrees", "2% early");
        NS_TEST_EXPECT_MSG_EQ(Verdict(489.9, true, false), "DISAGREES", "earlier");
        NS_TEST_EXPECT_MSG_EQ(Verdict(600, true, true), "warned", "the planner said so");
        NS_TEST_EXPECT_MSG_EQ(Verdict(500, false, false), "DISAGREES", "a sum not exact");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([] { WanAgreementCheck(1000, 0); }),
                              "the tolerance must be between 0 and 1 (got 0)",
                              "tolerance");
        // The nine cities' pairs: the headers the planner does not count
        // (0.7%) are all that is left once the scale lag is taken off.
        const auto row =
            WanAgreementCheck().RunSchedule(WanTopology::NineCity(), "nine-city", "pairs");
        NS_TEST_EXPECT_MSG_EQ(row.verdict, "agrees", "within 2%");
        NS_TEST_EXPECT_MSG_GT(row.excessPercent, 0.3, "headers");
        NS_TEST_EXPECT_MSG_LT(row.excessPercent, 1.2, "and little else");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief One WAN of each shape at 32 to 40 cities (EXTENSIVE: a few minutes).
 */
class ShapesAgreementTestCase : public WanTestCase
{
  public:
    ShapesAgreementTestCase()
        : WanTestCase("one WAN of each shape, 32 to 40 cities")
    {
    }

  private:
    void DoCheck() override
    {
        for (auto [kind, cities] : {std::pair{WanTopologyGenerator::RING, 40u},
                                    std::pair{WanTopologyGenerator::GRID, 36u},
                                    std::pair{WanTopologyGenerator::GEOMETRIC, 32u},
                                    std::pair{WanTopologyGenerator::CHAIN, 40u}})
        {
            const auto label = WanTopologyGenerator::KindName(kind) + "-" + std::to_string(cities);
            NS_TEST_EXPECT_MSG_EQ(Disagreements(GeneratedWan(kind, cities, 11), label),
                                  "",
                                  "every schedule agrees or is warned of");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Suite of WanAgreementCheck on generated WANs.
 */
class WanAgreementCheckTestSuite : public TestSuite
{
  public:
    WanAgreementCheckTestSuite()
        : TestSuite("wan-training-agreement", Type::SYSTEM)
    {
        AddTestCase(new RingAgreementTestCase);
        AddTestCase(new ChainAgreementTestCase);
        AddTestCase(new JudgeTestCase);
        AddTestCase(new LongPathTestCase);
        AddTestCase(new OverlappingChunksAgreementTestCase);
        AddTestCase(new ShapesAgreementTestCase, wancompat::Extensive<TestCase>);
    }
};

/// The suite's one instance.
static WanAgreementCheckTestSuite g_wanAgreementCheckTestSuite;
