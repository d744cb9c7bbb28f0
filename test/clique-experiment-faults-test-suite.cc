/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/mixing-analysis.h"
#include "ns3/test.h"

#include <sstream>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief A link goes down and comes back: the trees avoid it meanwhile and use
 * it again afterwards; the rounds in between are re-planned or failed.
 */
class LinkFaultTestCase : public WanTestCase
{
  public:
    LinkFaultTestCase()
        : WanTestCase("link NYC-LON down then up: re-planned or failed rounds, trees avoid it")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        // Rounds alternate regional (k even) and cross-regional (k odd)
        // triangles, every 598.5 ms (T 544.07 ms + 10%); the cross-regional
        // trees use NYC-LON.  Down at 1.25 s, up at 2.0 s: rounds k = 2, 3.
        // A re-planned round slower than that keeps its own guard and the
        // rounds after it wait, so every round has the network to itself.
        //
        // Planned round times.  Regional triangles do not use NYC-LON: 507.76 ms
        // (in {NYC,LAX,BUE} NYC starts 53.88 ms late so that its stream and
        // LAX's reach BUE together, at 53.88 + 53.88 ms, then 400 ms of 1 GB at
        // 20 Gbps), also when re-planned.  Cross-regional {NYC,AMS,SIN}
        // {LAX,LON,SEO} {BUE,FRA,TYO}: 544.07 ms with the link.  Without it
        // Europe is reached over TYO-SIN-FRA, and six streams cross TYO->LAX
        // (SIN and AMS to NYC, LON and SEO to LAX, TYO and FRA to BUE), so every
        // clique runs at 100/6 Gbps: 480 ms for 1 GB.  In {BUE,FRA,TYO} the
        // paths are BUE-FRA 236.53, BUE-TYO 138.10 and FRA-TYO 98.43 ms; with
        // no FPGA memory each receiver's arrivals coincide, which fixes the
        // offsets up to a shift: TYO starts at 236.53 - 98.43 = 138.10 ms and
        // BUE's streams arrive at 138.10 + 138.10 = 276.20 ms, so T = 756.20 ms.
        const double regionalMs = 507.76;
        const double crossMs = 544.07;
        const double detourMs = 756.20;
        for (const std::string policy : {"replan", "fail"})
        {
            CliqueExperimentHelper experiment(topo, PlannerConfig{});
            experiment.SetScale(1000);
            experiment.SetRecovery("accept"); // the data's packets alone
            experiment.SetRounds(6);
            // Known in advance, trees from the planner: the comparison whose
            // rounds are planned around the outage before they start.
            experiment.SetFaultDetection("oracle");
            experiment.SetTreeBuilding("planner");
            experiment.SetFaultPolicy(policy);
            experiment.AddLinkFault("NYC", "LON", 1.25, 2.0);
            auto r = experiment.Run(triangles);
            NS_TEST_EXPECT_MSG_EQ(r.rounds.size(), 6, "six rounds");
            if (r.rounds.size() != 6)
            {
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(r.exact, true, policy << ": the rounds run are exact");
            NS_TEST_EXPECT_MSG_GT(r.rounds[1].faultLinkPackets, 0, "cross round before: used");
            NS_TEST_EXPECT_MSG_GT(r.rounds[5].faultLinkPackets, 0, "cross round after: used again");
            NS_TEST_EXPECT_MSG_EQ(r.rounds[3].faultLinkPackets, 0, "cross round during: avoided");
            NS_TEST_EXPECT_MSG_EQ(r.rounds[2].faultLinkPackets, 0, "nothing during the outage");
            // A round runs at its planned rates and offsets; it ends when the
            // last contribution reaches its island, a little after the last byte
            // reaches the FPGA (the post-aggregation hop): within 2% of T, never
            // before it.
            auto expectRoundTime = [this, &policy](const WanRoundResult& round, double plannedMs) {
                NS_TEST_EXPECT_MSG_EQ_TOL(round.plannedMs,
                                          plannedMs,
                                          0.005,
                                          policy << ": round " << round.round << " planned");
                NS_TEST_EXPECT_MSG_GT_OR_EQ(round.measuredMs,
                                            plannedMs,
                                            policy << ": round " << round.round << " not early");
                NS_TEST_EXPECT_MSG_LT(round.measuredMs,
                                      plannedMs * 1.02,
                                      policy << ": round " << round.round << " on time");
            };
            for (uint32_t k : {0u, 1u, 4u, 5u})
            {
                NS_TEST_EXPECT_MSG_EQ(r.rounds[k].failed, false, "unaffected round " << k);
                NS_TEST_EXPECT_MSG_EQ(r.rounds[k].note, "", "as planned");
                expectRoundTime(r.rounds[k], k % 2 == 0 ? regionalMs : crossMs);
            }
            for (uint32_t k : {2u, 3u})
            {
                const auto& round = r.rounds[k];
                if (policy == "replan")
                {
                    NS_TEST_EXPECT_MSG_EQ(round.failed, false, "re-planned round " << k);
                    NS_TEST_EXPECT_MSG_EQ(round.note, "re-planned without NYC-LON", "note");
                    expectRoundTime(round, k % 2 == 0 ? regionalMs : detourMs);
                }
                else
                {
                    NS_TEST_EXPECT_MSG_EQ(round.failed, true, "failed round " << k);
                    NS_TEST_EXPECT_MSG_EQ(round.note, "failed: link NYC-LON down", "note");
                }
            }
            if (policy == "fail")
            {
                // Two rounds without mixing: A grows past the schedule's 1.75.
                NS_TEST_EXPECT_MSG_GT(r.disagreement, 1.75, "failed rounds cost mixing");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The same link fails mid-round with detection (SetFaultDetection
 * "bfd"): nothing is planned around it in advance; BFD declares it down
 * within 3 x 10 ms, the routes change after the flooding and SPF delays, the
 * round in flight recovers its losses by (early) requests, and the rounds that
 * start after the notification are re-planned around the link, until BFD
 * brings it back.
 */
class DetectedLinkFaultTestCase : public WanTestCase
{
  public:
    DetectedLinkFaultTestCase()
        : WanTestCase("link NYC-LON fails mid-round, detected by BFD: later rounds re-planned")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(1000);
        experiment.SetRounds(6);
        experiment.SetRecovery("early");
        experiment.SetFaultDetection("bfd");
        experiment.SetBfd(MilliSeconds(10), 3);
        // Round 1 (cross-regional, over NYC-LON) runs from 598.5 ms to 1.14 s.
        experiment.AddLinkFault("NYC", "LON", 0.9, 2.0);
        auto r = experiment.Run(CliqueScheduleBuiltins::Triangles(topo));
        NS_TEST_ASSERT_MSG_EQ(r.rounds.size(), 6, "six rounds");
        NS_TEST_ASSERT_MSG_EQ(r.routeChanges.size(), 2, "down, then back");
        const auto& down = r.routeChanges[0];
        NS_TEST_EXPECT_MSG_EQ(down.link, "NYC-LON", "the link");
        NS_TEST_EXPECT_MSG_EQ(down.up, false, "down first");
        NS_TEST_EXPECT_MSG_EQ(down.eventS, 0.9, "broke at 0.9 s");
        NS_TEST_EXPECT_MSG_GT(down.detectedS, 0.9, "declared only after it broke");
        NS_TEST_EXPECT_MSG_LT(down.detectedS, 0.9 + 0.04, "within 3 x 10 ms (+ BFD jitter)");
        NS_TEST_EXPECT_MSG_GT(down.convergedS, down.detectedS + 0.05, "flooding + 50 ms SPF");
        NS_TEST_EXPECT_MSG_EQ(down.replannedFrom, 2, "from the next round boundary");
        NS_TEST_EXPECT_MSG_GT(down.resumedS, down.convergedS, "its start, after the notification");
        // Had PIM moved the trees (joined on the old routes before the round),
        // the joins of the routers whose RPF neighbour changed would travel
        // new paths of at most a transatlantic detour: done in under 300 ms.
        NS_TEST_EXPECT_MSG_GT(down.joinedS, down.convergedS + 0.01, "joins take time");
        NS_TEST_EXPECT_MSG_LT(down.joinedS, down.convergedS + 0.3, "a path's latency at most");
        NS_TEST_EXPECT_MSG_GT(r.rounds[1].faultLinkLost, 100, "the broken link lost round 1's");
        // Nothing was known before: the round in flight ran as planned, lost
        // what crossed the link and got it back by re-requests.
        NS_TEST_EXPECT_MSG_EQ(r.rounds[1].note, "", "round 1 was not told");
        NS_TEST_EXPECT_MSG_GT(r.rounds[1].measuredMs, r.rounds[1].plannedMs * 1.1, "it paid");
        uint64_t requested = 0;
        for (const auto& i : r.rounds[1].islands)
        {
            requested += i.requested;
        }
        NS_TEST_EXPECT_MSG_GT(requested, 0, "round 1's losses were re-requested");
        // Rounds 2 and 3 start after the notification: re-planned (round 3,
        // cross-regional, over the detour: 756.20 ms, as with the oracle),
        // and within 10% of their T (round 1's last repairs still cross
        // their start), so their trees no longer cross the broken link.
        for (uint32_t k : {2u, 3u})
        {
            NS_TEST_EXPECT_MSG_EQ(
                Mentions(r.rounds[k].note, "re-planned without NYC-LON (detected at"),
                true,
                r.rounds[k].note);
            NS_TEST_EXPECT_MSG_LT(r.rounds[k].measuredMs,
                                  r.rounds[k].plannedMs * 1.1,
                                  "round " << k << " on time");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(r.rounds[3].plannedMs, 756.20, 0.005, "the detour");
        const auto& back = r.routeChanges[1];
        NS_TEST_EXPECT_MSG_EQ(back.up, true, "back");
        NS_TEST_EXPECT_MSG_GT(back.detectedS, 2.0, "only after it was mended");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(back.replannedFrom, 4, "a later boundary");
        if (back.replannedFrom >= 0 && back.replannedFrom < 6)
        {
            const auto& k = back.replannedFrom;
            NS_TEST_EXPECT_MSG_EQ(Mentions(r.rounds[k].note, "with NYC-LON back"),
                                  true,
                                  r.rounds[k].note);
        }
        NS_TEST_EXPECT_MSG_EQ(r.exact, true, "every sum exact");
        // The same outage known in advance: no round pays for it.
        CliqueExperimentHelper oracle(topo, PlannerConfig{});
        oracle.SetScale(1000);
        oracle.SetRounds(6);
        oracle.SetRecovery("early");
        oracle.SetFaultDetection("oracle");
        oracle.AddLinkFault("NYC", "LON", 0.9, 2.0);
        auto o = oracle.Run(CliqueScheduleBuiltins::Triangles(topo));
        NS_TEST_EXPECT_MSG_EQ(o.routeChanges.empty(), true, "no detection");
        NS_TEST_EXPECT_MSG_EQ(o.controlPackets, 0, "and no control traffic");
        // A packet per 10 ms (less up to 25% jitter) at both ends of every
        // core link, while the run lasts (seconds).
        NS_TEST_EXPECT_MSG_GT(r.controlPackets, 10000, "BFD counted");
        NS_TEST_EXPECT_MSG_EQ(r.controlBytes, r.controlPackets * 24, "24 bytes each");
        NS_TEST_EXPECT_MSG_EQ(o.rounds[1].note, "re-planned without NYC-LON", "told in advance");

        auto e = ErrorOf([&]() { experiment.SetFaultDetection("psychic"); });
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(e, "unknown fault detection \"psychic\" (expected oracle or bfd)"),
            true,
            e);
        e = ErrorOf([&]() { experiment.SetBfd(MicroSeconds(10), 3); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "BFD interval must be from 1 to 10000 ms (got 0.01 ms)"),
                              true,
                              e);
        e = ErrorOf([&]() { experiment.SetBfd(MilliSeconds(10), 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "BFD detect multiplier must be from 1 to 255 (got 0)"),
                              true,
                              e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief An FPGA fails: its island still receives every contribution through
 * the bypass.
 */
class FpgaFaultTestCase : public WanTestCase
{
  public:
    FpgaFaultTestCase()
        : WanTestCase("FPGA failure: every contribution arrives through the bypass")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        // Before the first round: the bypass delivers NYC's streams.  Two
        // unaggregated streams at the clique rate overload NYC's ingress, so
        // its queue drops some: re-requests repair them.
        CliqueExperimentHelper before(topo, PlannerConfig{});
        before.SetScale(1000);
        before.SetRecovery("rerequest");
        before.AddFpgaFault("NYC", 0);
        auto r = before.Run(triangles);
        NS_TEST_EXPECT_MSG_EQ(r.rounds.size(), 2, "one period");
        NS_TEST_EXPECT_MSG_EQ(r.exact, true, "every island exact, NYC through the bypass");
        const uint32_t nyc = topo.FindCity("NYC");
        for (const auto& round : r.rounds)
        {
            for (const auto& i : round.islands)
            {
                if (i.city == nyc)
                {
                    NS_TEST_EXPECT_MSG_EQ(i.delivered, i.expected, "NYC got them all");
                    // Two peers' streams in, unaggregated: twice the bytes.
                    NS_TEST_EXPECT_MSG_GT(i.bytesIn, 1.9e9, "two streams in");
                }
            }
        }

        // In the middle of round 1: what the FPGA held is re-requested.
        CliqueExperimentHelper during(topo, PlannerConfig{});
        during.SetScale(1000);
        during.SetRecovery("rerequest");
        during.AddFpgaFault("NYC", 0.3);
        auto d = during.Run(triangles);
        NS_TEST_EXPECT_MSG_EQ(d.exact, true, "exact after a mid-round failure");
        NS_TEST_EXPECT_MSG_EQ(d.rounds.size(), 2, "one period");
        uint64_t requested = 0;
        if (!d.rounds.empty())
        {
            for (const auto& i : d.rounds[0].islands)
            {
                requested += i.city == nyc ? i.requested : 0;
            }
        }
        NS_TEST_EXPECT_MSG_GT(requested, 0, "the lost slots were re-requested");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief BFD under heavy loss declares a bridge down (a false alarm): the
 * network looks cut in two.  The run goes on: unicast routes leave the cut-off
 * island out, the rounds after the notification fail with the partition in
 * their note, and no error ends the run.
 */
class DetectedPartitionTestCase : public WanTestCase
{
  public:
    DetectedPartitionTestCase()
        : WanTestCase("BFD declares a bridge down under loss: later rounds fail, the run goes on")
    {
    }

  private:
    void DoCheck() override
    {
        // A - B - C on 10 ms links that lose 30% of their packets: the BFD
        // sessions come up, then three packets in a row are lost (one chance
        // in 37 every 10 ms) and an end looks cut off.
        const auto topo = LineTopology({"A", "B", "C"}, {10, 10});
        WanLinkImpairment loss;
        loss.lossRate = 0.3;
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetImpairment(WanNetworkHelper::CORE, loss);
        experiment.SetScale(1000);
        experiment.SetRounds(10);
        experiment.SetRecovery("accept");
        experiment.SetFaultDetection("bfd");
        WanExperimentResult r;
        const auto error =
            ErrorOf([&] { r = experiment.Run(CliqueScheduleBuiltins::Triangles(topo)); });
        NS_TEST_ASSERT_MSG_EQ(error, "", "the run ends without an error");
        NS_TEST_ASSERT_MSG_EQ(r.rounds.size(), 10, "ten rounds");
        NS_TEST_EXPECT_MSG_GT(r.routeChanges.size(), 0, "BFD declared B-C down");
        uint32_t partitioned = 0;
        for (const auto& round : r.rounds)
        {
            if (round.failed)
            {
                NS_TEST_EXPECT_MSG_EQ(Mentions(round.note, "the network is partitioned"),
                                      true,
                                      round.note);
                ++partitioned;
            }
        }
        std::ostringstream seen;
        for (const auto& c : r.routeChanges)
        {
            seen << c.link << (c.up ? " up " : " down ") << c.convergedS << " s from round "
                 << c.replannedFrom << "; ";
        }
        for (const auto& round : r.rounds)
        {
            seen << "round " << round.round << ": " << round.note << "; ";
        }
        NS_TEST_EXPECT_MSG_GT(partitioned, 0, "a round after the notice failed: " << seen.str());
    }
};

/**
 * @ingroup wan-training-tests
 * @brief An FPGA fails mid-round with fault detection: nobody is told; its
 * heartbeats stop, the edge's watchdog misses three (10 ms apart) and only
 * then bypasses it; what was lost before is recovered by early requests.
 */
class DetectedFpgaFaultTestCase : public WanTestCase
{
  public:
    DetectedFpgaFaultTestCase()
        : WanTestCase("FPGA failure detected by missed heartbeats, then bypassed")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(1000);
        experiment.SetRecovery("early");
        experiment.SetFaultDetection("bfd");
        experiment.SetBfd(MilliSeconds(10), 3);
        experiment.AddFpgaFault("NYC", 0.3);
        auto r = experiment.Run(CliqueScheduleBuiltins::Triangles(topo));
        NS_TEST_ASSERT_MSG_EQ(r.fpgaFailures.size(), 1, "one failure detected");
        const auto& f = r.fpgaFailures[0];
        NS_TEST_EXPECT_MSG_EQ(f.city, "NYC", "the city");
        NS_TEST_EXPECT_MSG_EQ(f.failedS, 0.3, "failed at 0.3 s");
        // The last heartbeat came at most 10 ms before it failed; the
        // watchdog checks every 10 ms and acts on the third miss.
        NS_TEST_EXPECT_MSG_GT(f.detectedS, 0.3 + 0.02, "not before two checks without one");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(f.detectedS, 0.3 + 0.04 + 1e-9, "by the third");
        NS_TEST_EXPECT_MSG_EQ(r.exact, true, "every sum exact");
        const uint32_t nyc = topo.FindCity("NYC");
        uint64_t requested = 0;
        for (const auto& i : r.rounds.at(0).islands)
        {
            requested += i.city == nyc ? i.requested : 0;
        }
        NS_TEST_EXPECT_MSG_GT(requested, 0, "what was lost before the bypass was asked for");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief An island leaves and rejoins: its cliques run without it, and the
 * mixing of the rounds run accounts for it.
 */
class IslandAbsenceTestCase : public WanTestCase
{
  public:
    IslandAbsenceTestCase()
        : WanTestCase("island away for a round: cliques run without it, A grows")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(1000);
        experiment.SetRounds(4);
        experiment.AddIslandAbsence("SIN", 0, 0);
        auto r = experiment.Run(triangles);
        NS_TEST_EXPECT_MSG_EQ(r.exact, true, "the others' sums exact");
        NS_TEST_EXPECT_MSG_EQ(r.rounds.size(), 4, "four rounds");
        if (r.rounds.size() != 4)
        {
            return;
        }
        NS_TEST_EXPECT_MSG_EQ(r.rounds[0].note, "SIN away", "round 1 without SIN");
        NS_TEST_EXPECT_MSG_EQ(r.rounds[1].note, "", "back in round 2");
        const uint32_t sin = topo.FindCity("SIN");
        bool sinInRound1 = false;
        for (const auto& i : r.rounds[0].islands)
        {
            sinInRound1 = sinInRound1 || i.city == sin;
        }
        NS_TEST_EXPECT_MSG_EQ(sinInRound1, false, "SIN exchanged nothing in round 1");
        // Four rounds of triangles with SIN away once mix worse than triangles.
        double a =
            MixingAnalysis::FromSchedule(triangles, topo.GetNCities()).GetAverageDisagreement();
        NS_TEST_EXPECT_MSG_GT(r.disagreement, a, "A accounts for the absence");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible faults are refused with clear errors.
 */
class FaultBadInputTestCase : public WanTestCase
{
  public:
    FaultBadInputTestCase()
        : WanTestCase("faults on unknown links, impossible times and policies")
    {
    }

  private:
    void DoCheck() override
    {
        CliqueExperimentHelper e(WanTopology::NineCity(), PlannerConfig{});
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { e.AddLinkFault("NYC", "TYO", 1, 2); }),
                                       "no link between NYC and TYO"),
                              true,
                              "unknown link");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { e.AddLinkFault("NYC", "XXX", 1, 2); }), "XXX"),
            true,
            "unknown city");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { e.AddLinkFault("NYC", "BUE", 1, 2); }),
                                       "without link NYC-BUE"),
                              true,
                              "a link whose loss disconnects BUE");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { e.AddLinkFault("NYC", "LON", 2, 1); }), "come back later"),
            true,
            "up before down");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { e.SetFaultPolicy("ignore"); }),
                                       "unknown fault policy \"ignore\""),
                              true,
                              "policy");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { e.AddFpgaFault("NYC", -1); }), "the time must be >= 0"),
            true,
            "negative time");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { e.AddIslandAbsence("SIN", 3, 1); }),
                                       "last round 1 before first round 3"),
                              true,
                              "absence");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The faults test suite.
 */
class CliqueExperimentFaultsTestSuite : public TestSuite
{
  public:
    CliqueExperimentFaultsTestSuite()
        : TestSuite("wan-training-faults", Type::UNIT)
    {
        AddTestCase(new LinkFaultTestCase);
        AddTestCase(new DetectedLinkFaultTestCase);
        AddTestCase(new FpgaFaultTestCase);
        AddTestCase(new DetectedFpgaFaultTestCase);
        AddTestCase(new DetectedPartitionTestCase);
        AddTestCase(new IslandAbsenceTestCase);
        AddTestCase(new FaultBadInputTestCase);
    }
};

/// The suite's static instance.
static CliqueExperimentFaultsTestSuite g_cliqueExperimentFaultsTestSuite;
