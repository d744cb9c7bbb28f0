/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/round-planner.h"
#include "ns3/test.h"

#include <cmath>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// Arrival time of sender jj's first byte at receiver ii of a clique plan.
double
Arrival(const WanTopology& topo, const CliquePlan& c, size_t jj, size_t ii)
{
    return c.offsets[jj] + topo.GetPathDelay(c.members[jj], c.members[ii]);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Two islands: T = latency + D / access rate.
 */
class PairPlanTestCase : public WanTestCase
{
  public:
    PairPlanTestCase()
        : WanTestCase("two-island pair: T = latency + serialization")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = LineTopology({"A", "B"}, {30});
        RoundPlanner planner(topo, PlannerConfig{});
        auto plan = planner.PlanRound({{0, 1}});
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "feasible");
        // 1 GB at 20 Gbps = 400 ms, plus 30 ms.
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.roundTime, 0.430, 1e-9, "T = 30 + 400 ms");
        NS_TEST_EXPECT_MSG_EQ(plan.cliques[0].rateBps, 20e9, "access-bound rate");
        NS_TEST_EXPECT_MSG_EQ(plan.cliques[0].rateBinding.find("egress A 20 Gbps"),
                              0,
                              "binding names the access link: " << plan.cliques[0].rateBinding);
        NS_TEST_EXPECT_MSG_EQ(plan.peakMemoryBytes, 0, "a pair needs no memory");
        NS_TEST_EXPECT_MSG_EQ(plan.links.size(), 2, "each direction carries one stream");
        NS_TEST_EXPECT_MSG_EQ(plan.links[0].streams, 1, "one stream");
        // Half the payload halves the serialization.
        PlannerConfig half;
        half.payloadBytes = 0.5e9;
        NS_TEST_EXPECT_MSG_EQ_TOL(RoundPlanner(topo, half).PlanRound({{0, 1}}).roundTime,
                                  0.230,
                                  1e-9,
                                  "T = 30 + 200 ms");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A three-island line as one clique: offsets that align arrivals
 * exactly without memory, and the shorter T that memory buys.
 */
class LineTrianglePlanTestCase : public WanTestCase
{
  public:
    LineTrianglePlanTestCase()
        : WanTestCase("three-island line: aligned offsets without memory, faster with memory")
    {
    }

  private:
    void DoCheck() override
    {
        // Latencies AB 10, BC 20, AC 30 ms.  Without memory: s_x = K - (sum of
        // x's latencies), K = max sum = 50 ms: s_A = 10, s_B = 20, s_C = 0 ms;
        // arrivals meet at 30 (at A), 20 (at B), 40 ms (at C); T = 440 ms.
        auto topo = LineTopology({"A", "B", "C"}, {10, 20});
        RoundPlanner planner(topo, PlannerConfig{});
        auto plan = planner.PlanRound({{0, 1, 2}});
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "feasible");
        const auto& c = plan.cliques[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.roundTime, 0.440, 1e-9, "T = 40 + 400 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.offsets[0], 0.010, 1e-9, "s_A");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.offsets[1], 0.020, 1e-9, "s_B");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.offsets[2], 0.000, 1e-9, "s_C");
        NS_TEST_EXPECT_MSG_EQ_TOL(Arrival(topo, c, 1, 0), Arrival(topo, c, 2, 0), 1e-9, "at A");
        NS_TEST_EXPECT_MSG_EQ_TOL(Arrival(topo, c, 0, 1), Arrival(topo, c, 2, 1), 1e-9, "at B");
        NS_TEST_EXPECT_MSG_EQ_TOL(Arrival(topo, c, 0, 2), Arrival(topo, c, 1, 2), 1e-9, "at C");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.peakMemoryBytes, 0, 1e3, "no memory used");
        // Multicast trees: A: A->B->C; B: B->A, B->C; C: C->B->A.  Each tree
        // puts one copy on each of its hops: 6 in all, 2 on B->C and on B->A.
        uint32_t total = 0;
        for (const auto& l : plan.links)
        {
            total += l.streams;
            bool shared = (l.from == 1 && l.to == 2) || (l.from == 1 && l.to == 0);
            uint32_t expected = shared ? 2 : 1;
            NS_TEST_EXPECT_MSG_EQ(l.streams, expected, "copies per link direction");
        }
        NS_TEST_EXPECT_MSG_EQ(total, 6, "two hops per tree, one copy each");
        NS_TEST_EXPECT_MSG_EQ(plan.links.size(), 4, "both directions of both links");

        // With ample memory: s_A = s_C = 0 (T = 30 + 400 ms), and the memory pass
        // puts s_B = 10 ms, leaving 10 ms of skew at A and B: 25 MB each.
        PlannerConfig ample;
        ample.hbmBytes = 32e9;
        auto fast = RoundPlanner(topo, ample).PlanRound({{0, 1, 2}});
        NS_TEST_ASSERT_MSG_EQ(fast.feasible, true, "feasible");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.roundTime, 0.430, 1e-9, "T = 30 + 400 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.cliques[0].offsets[1], 0.010, 1e-9, "s_B");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.cliques[0].memoryBytes[0], 25e6, 1e3, "A holds 10 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.cliques[0].memoryBytes[1], 25e6, 1e3, "B holds 10 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.cliques[0].memoryBytes[2], 0, 1e3, "C aligned");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.peakMemoryBytes, 25e6, 1e3, "peak 25 MB");

        // Memory between the two: 12.5 MB allows 5 ms of skew; T in between.
        PlannerConfig some;
        some.hbmBytes = 12.5e6;
        auto mid = RoundPlanner(topo, some).PlanRound({{0, 1, 2}});
        NS_TEST_EXPECT_MSG_GT(mid.roundTime, 0.430 + 1e-9, "slower than ample memory");
        NS_TEST_EXPECT_MSG_LT(mid.roundTime, 0.440 - 1e-9, "faster than none");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(mid.peakMemoryBytes, 12.5e6 + 1e3, "within the memory");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A real triangle graph: arrivals meet exactly, T by hand.
 */
class TrianglePlanTestCase : public WanTestCase
{
  public:
    TrianglePlanTestCase()
        : WanTestCase("triangle: offsets align arrivals exactly")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = TriangleTopology();
        auto plan = RoundPlanner(topo, PlannerConfig{}).PlanRound({{0, 1, 2}});
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "feasible");
        // K = 45 ms: s_A = 15, s_B = 10, s_C = 0; last arrival 35 ms (at C).
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.roundTime, 0.435, 1e-9, "T = 35 + 400 ms");
        const auto& c = plan.cliques[0];
        NS_TEST_EXPECT_MSG_EQ_TOL(c.offsets[0], 0.015, 1e-9, "s_A");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.offsets[1], 0.010, 1e-9, "s_B");
        for (size_t i = 0; i < 3; ++i)
        {
            std::vector<double> arrivals;
            for (size_t j = 0; j < 3; ++j)
            {
                if (j != i)
                {
                    arrivals.push_back(Arrival(topo, c, j, i));
                }
            }
            NS_TEST_EXPECT_MSG_EQ_TOL(arrivals[0], arrivals[1], 1e-9, "arrivals coincide");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(CliqueSchedule::AlignmentSpan(topo, {0, 1, 2}),
                                  plan.roundTime - c.serialization,
                                  1e-9,
                                  "the planner and the schedule builder agree");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Concurrent cliques share a link equally.
 */
class ContentionPlanTestCase : public WanTestCase
{
  public:
    ContentionPlanTestCase()
        : WanTestCase("contention: two pairs split a shared link, less a reserve")
    {
    }

  private:
    void DoCheck() override
    {
        // A-B-C-D, 10 ms each, core 30 Gbps.  Pairs {A,C} and {B,D} both cross
        // B->C (and C->B): 2 streams, 15 Gbps each, below the 20 Gbps access.
        auto topo = LineTopology({"A", "B", "C", "D"}, {10, 10, 10});
        PlannerConfig config;
        config.coreCapacityBps = 30e9;
        auto plan = RoundPlanner(topo, config).PlanRound({{0, 2}, {1, 3}});
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "feasible");
        for (const auto& c : plan.cliques)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(c.rateBps, 15e9, 1, "30 Gbps / 2 streams");
            NS_TEST_EXPECT_MSG_EQ(c.rateBinding, "link B->C 30 Gbps / 2 streams", "binding");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.roundTime, 0.020 + 8.0 / 15, 1e-9, "T = 20 ms + 8/15 s");
        // Alone, {A,C} runs at the access rate.
        auto alone = RoundPlanner(topo, config).PlanRound({{0, 2}, {1}, {3}});
        NS_TEST_EXPECT_MSG_EQ_TOL(alone.cliques[0].rateBps, 20e9, 1, "no contention");
        // A reserve of 40% for other traffic: 18 Gbps left, 9 each; alone,
        // 18 Gbps binds below the 20 Gbps access.
        config.coreReserve = 0.4;
        auto shared = RoundPlanner(topo, config).PlanRound({{0, 2}, {1, 3}});
        NS_TEST_EXPECT_MSG_EQ_TOL(shared.cliques[0].rateBps, 9e9, 1, "30 x 0.6 / 2");
        NS_TEST_EXPECT_MSG_EQ(shared.cliques[0].rateBinding,
                              "link B->C 30 Gbps x 0.6 / 2 streams",
                              "binding");
        alone = RoundPlanner(topo, config).PlanRound({{0, 2}, {1}, {3}});
        NS_TEST_EXPECT_MSG_EQ_TOL(alone.cliques[0].rateBps, 18e9, 1, "30 x 0.6");
        config.coreReserve = 1;
        const auto e = ErrorOf([&] { RoundPlanner(topo, config); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "core reserve must be"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The edge port (router to the FPGA's edge node) carries every stream
 * to a member: a clique of k runs at most at the port's rate / (k - 1).
 */
class EdgePortPlanTestCase : public WanTestCase
{
  public:
    EdgePortPlanTestCase()
        : WanTestCase("edge port: a clique of k shares it among k - 1 inbound streams")
    {
    }

  private:
    void DoCheck() override
    {
        // Four islands on a line (10 ms hops), 20 Gbps access, 100 Gbps core:
        // with the default 400 Gbps port, the access rate binds (three streams
        // in need 60 Gbps).
        auto topo = LineTopology({"A", "B", "C", "D"}, {10, 10, 10});
        PlannerConfig config;
        config.hbmBytes = 32e9;
        auto plan = RoundPlanner(topo, config).PlanRound({{0, 1, 2, 3}});
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "feasible");
        NS_TEST_EXPECT_MSG_EQ(plan.cliques[0].rateBps, 20e9, "access-bound");
        // A 45 Gbps port: three streams in at 15 Gbps each; 1 GB in 533.3 ms
        // after the last first byte (30 ms, D -> A): T = 563.3 ms.
        config.edgeBps = 45e9;
        plan = RoundPlanner(topo, config).PlanRound({{0, 1, 2, 3}});
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "feasible");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.cliques[0].rateBps, 15e9, 1, "port / 3");
        NS_TEST_EXPECT_MSG_EQ(plan.cliques[0].rateBinding,
                              "edge port 45 Gbps / 3 streams",
                              "the port binds");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.roundTime, 0.030 + 8.0 / 15, 1e-9, "T");
        // A pair sends one stream through each port: the access rate binds.
        config.edgeBps = 30e9;
        plan = RoundPlanner(topo, config).PlanRound({{0, 1}, {2, 3}});
        NS_TEST_EXPECT_MSG_EQ(plan.cliques[0].rateBps, 20e9, "one stream per port");
        config.edgeBps = 10e9;
        plan = RoundPlanner(topo, config).PlanRound({{0, 1}, {2, 3}});
        NS_TEST_EXPECT_MSG_EQ(plan.cliques[1].rateBinding, "edge port 10 Gbps", "pair");
        config.edgeBps = 0;
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { RoundPlanner(topo, config); }).find("edge port rate"),
                              0,
                              "a port of 0 Gbps is refused");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The baselines: no multicast splits egress, no FPGA splits ingress.
 */
class BaselinePlanTestCase : public WanTestCase
{
  public:
    BaselinePlanTestCase()
        : WanTestCase("baselines: unicast copies and unaggregated ingress")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = LineTopology({"A", "B", "C"}, {10, 20});
        PlannerConfig unicast;
        unicast.multicast = false;
        auto u = RoundPlanner(topo, unicast).PlanRound({{0, 1, 2}});
        NS_TEST_ASSERT_MSG_EQ(u.feasible, true, "feasible");
        NS_TEST_EXPECT_MSG_EQ_TOL(u.cliques[0].rateBps, 10e9, 1, "egress / 2 copies");
        NS_TEST_EXPECT_MSG_EQ_TOL(u.roundTime, 0.040 + 0.8, 1e-9, "aligned, 800 ms");
        // A's two copies (to B and to C) both cross A->B.
        for (const auto& l : u.links)
        {
            if (l.from == 0)
            {
                NS_TEST_EXPECT_MSG_EQ(l.streams, 2, "two unicast copies on A->B");
            }
        }

        PlannerConfig noFpga;
        noFpga.aggregation = false;
        auto n = RoundPlanner(topo, noFpga).PlanRound({{0, 1, 2}});
        NS_TEST_ASSERT_MSG_EQ(n.feasible, true, "no alignment needed");
        NS_TEST_EXPECT_MSG_EQ_TOL(n.cliques[0].rateBps, 10e9, 1, "ingress / 2 streams");
        NS_TEST_EXPECT_MSG_EQ(n.cliques[0].rateBinding, "ingress A 20 Gbps / 2 streams", "why");
        NS_TEST_EXPECT_MSG_EQ_TOL(n.roundTime, 0.030 + 0.8, 1e-9, "longest path + 800 ms");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief All-to-all on asymmetric latencies: infeasible without memory,
 * feasible with enough; the reported least memory is exact.
 */
class AllToAllMemoryTestCase : public WanTestCase
{
  public:
    AllToAllMemoryTestCase()
        : WanTestCase("all-to-all: infeasible without memory, feasible with enough")
    {
    }

  private:
    void DoCheck() override
    {
        // A line A-B-C-D of 10, 20, 40 ms: at C, A-B's spacing (10 ms) and
        // B-D's (60 ms) cannot both be matched, so four arrivals never align.
        auto topo = LineTopology({"A", "B", "C", "D"}, {10, 20, 40});
        CliqueSchedule all("all-to-all", {{{0, 1, 2, 3}}});
        auto none = RoundPlanner(topo, PlannerConfig{}).Plan(all);
        NS_TEST_EXPECT_MSG_EQ(none.feasible, false, "infeasible without memory");
        NS_TEST_EXPECT_MSG_EQ(Mentions(none.reason, "all-to-all round 1: arrivals at "),
                              true,
                              none.reason);
        NS_TEST_EXPECT_MSG_EQ(Mentions(none.reason, "cannot be aligned without FPGA memory"),
                              true,
                              none.reason);
        NS_TEST_EXPECT_MSG_EQ(std::isinf(none.roundTime), true, "no T");
        double needed = none.rounds[0].requiredMemoryBytes;
        NS_TEST_EXPECT_MSG_GT(needed, 0, "some memory is needed");

        PlannerConfig enough;
        enough.hbmBytes = needed * 1.001;
        auto ok = RoundPlanner(topo, enough).Plan(all);
        NS_TEST_EXPECT_MSG_EQ(ok.feasible, true, "the reported memory suffices");
        PlannerConfig short_;
        short_.hbmBytes = needed * 0.99;
        auto tight = RoundPlanner(topo, short_).Plan(all);
        NS_TEST_EXPECT_MSG_EQ(tight.feasible, false, "and is the least");
        NS_TEST_EXPECT_MSG_EQ(Mentions(tight.reason, "of FPGA memory, more than the"),
                              true,
                              tight.reason);

        // With 32 GB nothing needs aligning: T = longest path (70 ms) + 400 ms.
        PlannerConfig ample;
        ample.hbmBytes = 32e9;
        auto fast = RoundPlanner(topo, ample).Plan(all);
        NS_TEST_ASSERT_MSG_EQ(fast.feasible, true, "feasible with 32 GB");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.roundTime, 0.470, 1e-9, "T = 70 + 400 ms");
        NS_TEST_EXPECT_MSG_EQ(fast.rounds.size(), 1, "one round");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A jitter allowance costs r_c x allowance of FPGA memory at every
 * receiver of two or more streams, and nothing at a receiver of one.
 */
class JitterAllowanceTestCase : public WanTestCase
{
  public:
    JitterAllowanceTestCase()
        : WanTestCase("jitter allowance: r x allowance of memory per receiver of two streams")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = TriangleTopology();
        PlannerConfig config;
        config.jitterAllowance = 0.001; // 1 ms at 20 Gbps: 2.5 MB
        auto none = RoundPlanner(topo, config).PlanRound({{0, 1, 2}});
        NS_TEST_EXPECT_MSG_EQ(none.feasible, false, "no memory: infeasible");
        NS_TEST_EXPECT_MSG_EQ_TOL(none.requiredMemoryBytes, 2.5e6, 1, "20 Gbps x 1 ms");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(none.reason, "with a jitter allowance of 1.00 ms, cannot be aligned"),
            true,
            none.reason);

        // Exactly the allowance's memory: the arrivals stay aligned, T as without it.
        config.hbmBytes = 2.5e6 * (1 + 1e-9);
        auto just = RoundPlanner(topo, config).PlanRound({{0, 1, 2}});
        NS_TEST_ASSERT_MSG_EQ(just.feasible, true, just.reason);
        NS_TEST_EXPECT_MSG_EQ_TOL(just.roundTime, 0.435, 1e-9, "T = 35 + 400 ms");
        for (double bytes : just.cliques[0].memoryBytes)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(bytes, 2.5e6, 1, "each receiver: the allowance only");
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(just.peakMemoryBytes, 2.5e6, 1, "peak");

        // A pair's receiver has one stream: nothing to absorb, no memory.
        config.hbmBytes = 0;
        auto pair = RoundPlanner(topo, config).PlanRound({{0, 1}, {2}});
        NS_TEST_EXPECT_MSG_EQ(pair.feasible, true, "a pair needs no memory");
        NS_TEST_EXPECT_MSG_EQ(pair.peakMemoryBytes, 0, "none");

        config.jitterAllowance = -0.001;
        const auto e = ErrorOf([&] { RoundPlanner(topo, config); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "jitter allowance must be from 0 to 1000 ms"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The packet-level skew by hand on the line A-B-C (10 and 20 ms),
 * 9000-byte frames: 3.6 us per frame on a 20 Gbps egress, 0.72 us per
 * 100 Gbps core hop.  A sender's unicast copies leave in the clique's order,
 * one egress frame time apart; each hop adds a frame time.
 */
class PacketSkewTestCase : public WanTestCase
{
  public:
    PacketSkewTestCase()
        : WanTestCase("packet-level skew: copy order and store-and-forward hops, by hand")
    {
    }

  private:
    /// Checks a clique's skew at A, B and C, in us.
    void ExpectSkew(const RoundPlan& plan, std::vector<double> us, const std::string& what)
    {
        NS_TEST_ASSERT_MSG_EQ(plan.cliques[0].skewSeconds.size(), 3, what);
        for (size_t i = 0; i < plan.cliques[0].skewSeconds.size(); ++i)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(plan.cliques[0].skewSeconds[i] * 1e6,
                                      us[i],
                                      1e-9,
                                      what << ", receiver " << i);
        }
    }

    void DoCheck() override
    {
        auto topo = LineTopology({"A", "B", "C"}, {10, 20});
        const CliqueSchedule::Round round{{0, 1, 2}};
        // Unicast.  At A: B's first copy, 1 hop (3.6 + 0.72), C's first, 2 hops
        // (3.6 + 1.44).  At B: A's first, 1 hop (4.32); C's second, 1 hop
        // (7.2 + 0.72).  At C: A's second, 2 hops (8.64); B's second, 1 hop (7.92).
        PlannerConfig unicast;
        unicast.multicast = false;
        auto u = RoundPlanner(topo, unicast).PlanRound(round);
        ExpectSkew(u, {0.72, 3.6, 0.72}, "unicast");
        NS_TEST_EXPECT_MSG_EQ(u.warnings.size(), 0, "all within the 5 us window");
        // Multicast: one copy each, the hops only (a branch point sends at once).
        auto m = RoundPlanner(topo, PlannerConfig{}).PlanRound(round);
        ExpectSkew(m, {0.72, 0, 0.72}, "multicast");

        // A 10 Gbps access doubles the egress frame time: 7.2 us at B.
        unicast.accessBps = 10e9;
        auto slow = RoundPlanner(topo, unicast).PlanRound(round);
        NS_TEST_EXPECT_MSG_EQ(slow.feasible, true, "reported, not refused");
        ExpectSkew(slow, {0.72, 7.2, 0.72}, "10 Gbps access");
        NS_TEST_ASSERT_MSG_EQ(slow.warnings.size(), 1, "B only");
        NS_TEST_EXPECT_MSG_EQ(Mentions(Nth(slow.warnings, 0),
                                       "arrivals at B in {A,B,C} differ by 7.20 us at the "
                                       "packet level, more than the FPGA's 5.00 us line-rate "
                                       "window"),
                              true,
                              Nth(slow.warnings, 0));
        // r_c = 5 Gbps: 7.2 us is 4500 bytes in flight, one whole 9000-byte chunk.
        NS_TEST_EXPECT_MSG_EQ_TOL(slow.skewMemoryBytes, 9000, 1e-6, "one frame");
        NS_TEST_EXPECT_MSG_EQ(Mentions(Nth(slow.warnings, 0), "9000 bytes of FPGA memory"),
                              true,
                              Nth(slow.warnings, 0));
        // Half the frame halves every frame time: 3.6 us.
        unicast.frameBytes = 4500;
        ExpectSkew(RoundPlanner(topo, unicast).PlanRound(round), {0.36, 3.6, 0.36}, "4500 bytes");
        NS_TEST_EXPECT_MSG_EQ(RoundPlanner(topo, unicast).PlanRound(round).warnings.size(),
                              0,
                              "within the window");
        // With FPGA memory the FPGA waits: the skew is there, no warning.
        unicast.frameBytes = 9000;
        unicast.hbmBytes = 1e6;
        auto memory = RoundPlanner(topo, unicast).PlanRound(round);
        ExpectSkew(memory, {0.72, 7.2, 0.72}, "with memory");
        NS_TEST_EXPECT_MSG_EQ(memory.warnings.size(), 0, "memory absorbs it");
        // A window longer than the skew: nothing to report.
        unicast.hbmBytes = 0;
        unicast.lineRateWindow = 7.3e-6;
        NS_TEST_EXPECT_MSG_EQ(RoundPlanner(topo, unicast).PlanRound(round).warnings.size(),
                              0,
                              "7.2 us fits 7.3 us");

        // Multicast over 10 Gbps core links: 7.2 us per hop.  At A: B 1 hop,
        // C 2 hops; at C: A 2 hops (replicated at B without delay), B 1 hop.
        PlannerConfig slowCore;
        slowCore.coreCapacityBps = 10e9;
        auto tree = RoundPlanner(topo, slowCore).PlanRound(round);
        ExpectSkew(tree, {7.2, 0, 7.2}, "multicast, 10 Gbps core");
        NS_TEST_ASSERT_MSG_EQ(tree.warnings.size(), 2, "A and C");
        NS_TEST_EXPECT_MSG_EQ(Mentions(Nth(tree.warnings, 0), "arrivals at A in {A,B,C}"),
                              true,
                              Nth(tree.warnings, 0));
        NS_TEST_EXPECT_MSG_EQ(Mentions(Nth(tree.warnings, 1), "arrivals at C in {A,B,C}"),
                              true,
                              Nth(tree.warnings, 1));
        // Without FPGAs nothing waits: no skew, no warning.
        slowCore.aggregation = false;
        auto noFpga = RoundPlanner(topo, slowCore).PlanRound(round);
        NS_TEST_EXPECT_MSG_EQ(noFpga.cliques[0].skewSeconds.size(), 0, "no FPGA");
        NS_TEST_EXPECT_MSG_EQ(noFpga.warnings.size(), 0, "no FPGA");
        // A pair's receiver has one stream.
        auto pair = RoundPlanner(topo, PlannerConfig{}).PlanRound({{0, 2}, {1}});
        NS_TEST_EXPECT_MSG_EQ(pair.cliques[0].skewSeconds[0], 0, "one stream");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Nine cities, triangles without multicast: round 2 reports LON in
 * {LAX,LON,SEO}: LAX's first copy crosses LAX-NYC-LON, SEO's second
 * SEO-TYO-SIN-FRA-AMS-LON, 3.6 us + 3 x 0.72 us = 5.76 us, which the packet
 * level measures between 5.6 and 5.8 us.  With multicast nothing is reported.
 */
class NineCitySkewTestCase : public WanTestCase
{
  public:
    NineCitySkewTestCase()
        : WanTestCase("nine-city triangles: LON's 5.76 us without multicast, nothing with it")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        const auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        PlannerConfig config;
        config.multicast = false;
        auto plan = RoundPlanner(topo, config).Plan(triangles);
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "feasible: reported, not refused");
        NS_TEST_EXPECT_MSG_EQ(plan.rounds[0].warnings.size(), 0, "round 1 within the window");
        NS_TEST_ASSERT_MSG_EQ(plan.warnings.size(), 1, "one receiver in round 2");
        NS_TEST_EXPECT_MSG_EQ(Nth(plan.warnings, 0)
                                  .rfind("round 2: arrivals at LON in {LAX,LON,SEO} "
                                         "differ by 5.76 us at the packet level, "
                                         "more than the FPGA's 5.00 us line-rate "
                                         "window",
                                         0),
                              0,
                              Nth(plan.warnings, 0));
        const uint32_t lon = topo.FindCity("LON");
        for (const auto& c : plan.rounds[1].cliques)
        {
            for (size_t i = 0; i < c.skewSeconds.size(); ++i)
            {
                if (c.members[i] == lon)
                {
                    NS_TEST_EXPECT_MSG_EQ_TOL(c.skewSeconds[i], 5.76e-6, 1e-12, "3.6 + 3 x 0.72");
                }
            }
        }
        // The packet level's bracket: 5.7 us still too short, 5.8 us enough.
        config.lineRateWindow = 5.7e-6;
        NS_TEST_EXPECT_MSG_EQ(RoundPlanner(topo, config).Plan(triangles).warnings.size(),
                              1,
                              "5.7 us");
        config.lineRateWindow = 5.8e-6;
        NS_TEST_EXPECT_MSG_EQ(RoundPlanner(topo, config).Plan(triangles).warnings.size(),
                              0,
                              "5.8 us");

        auto multicast = RoundPlanner(topo, PlannerConfig{}).Plan(triangles);
        NS_TEST_EXPECT_MSG_EQ(multicast.warnings.size(), 0, "multicast: within the window");
        double widest = 0;
        for (const auto& r : multicast.rounds)
        {
            for (const auto& c : r.cliques)
            {
                for (double skew : c.skewSeconds)
                {
                    widest = std::max(widest, skew);
                }
            }
        }
        // LON in round 2 again: 5 hops from SEO, 2 from LAX.
        NS_TEST_EXPECT_MSG_EQ_TOL(widest, 2.16e-6, 1e-12, "3 x 0.72 us at most");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Without FPGA memory a stream's chunks take the line-rate table's
 * N slots in turn, so a receiver's skew beyond a chunk's time is absorbed
 * up to N chunk times.  DetourTopology(400 Gbps): 4.14 us of skew at A and
 * C, chunks every 3.6 us at 20 Gbps.  The default table (100 Gbps x 5 us:
 * 7 slots, 25.2 us) holds it; a 10 Gbps line rate leaves one slot
 * (6250 bytes in 5 us), which chunk k + 1 takes while chunk k is open; at
 * 20 Gbps two slots (7.2 us) hold it again.
 */
class LineRateTableSkewTestCase : public WanTestCase
{
  public:
    LineRateTableSkewTestCase()
        : WanTestCase("skew beyond a chunk's time: warned only beyond the line-rate table's slots")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = DetourTopology(400e9);
        const CliqueSchedule::Round round{{0, 1, 2}, {3}, {4}};
        PlannerConfig config;
        auto plan = RoundPlanner(topo, config).PlanRound(round);
        NS_TEST_ASSERT_MSG_EQ(plan.cliques[0].skewSeconds.size(), 3, "A, B, C");
        // At A: C over the detour, 3 x 1.44 us; B over A-B, 0.18 us.
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.cliques[0].skewSeconds[0] * 1e6, 4.14, 1e-9, "at A");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.cliques[0].skewSeconds[1] * 1e6, 0, 1e-9, "at B");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.cliques[0].skewSeconds[2] * 1e6, 4.14, 1e-9, "at C");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.cliques[0].rateBps, 20e9, 1, "access");
        NS_TEST_EXPECT_MSG_EQ(plan.warnings.size(), 0, "7 slots: 25.2 us");

        config.lineRateBps = 10e9;
        plan = RoundPlanner(topo, config).PlanRound(round);
        NS_TEST_ASSERT_MSG_EQ(plan.warnings.size(), 2, "A and C");
        NS_TEST_EXPECT_MSG_EQ(Nth(plan.warnings, 0),
                              "arrivals at A in {A,B,C} differ by 4.14 us at the packet level, "
                              "more than the FPGA's line-rate table holds at 20 Gbps (1 slot: "
                              "3.60 us): chunk k is still open when chunk k + 1 arrives in its "
                              "slot, and the conflict splits a chunk into partial sums (18000 "
                              "bytes of FPGA memory would absorb it)",
                              "the text");
        NS_TEST_EXPECT_MSG_EQ(Mentions(Nth(plan.warnings, 1), "arrivals at C in {A,B,C}"),
                              true,
                              Nth(plan.warnings, 1));
        // 4.14 us at 20 Gbps is 1.15 frames: two whole 9000-byte chunks.
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.skewMemoryBytes, 18000, 1e-6, "two frames");

        config.lineRateBps = 20e9;
        NS_TEST_EXPECT_MSG_EQ(RoundPlanner(topo, config).PlanRound(round).warnings.size(),
                              0,
                              "2 slots: 7.2 us");
        // With memory the slots live long: nothing to warn of.
        config.lineRateBps = 10e9;
        config.hbmBytes = 1e6;
        NS_TEST_EXPECT_MSG_EQ(RoundPlanner(topo, config).PlanRound(round).warnings.size(),
                              0,
                              "with memory");
        config.lineRateBps = 0;
        const auto e = ErrorOf([&] { RoundPlanner(topo, config); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "FPGA line rate"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Schedule T is the slowest round; bad parameters are refused.
 */
class SchedulePlanTestCase : public WanTestCase
{
  public:
    SchedulePlanTestCase()
        : WanTestCase("schedule T is the slowest round; impossible parameters refused")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = LineTopology({"A", "B", "C"}, {10, 20});
        CliqueSchedule s("two", {{{0, 1}, {2}}, {{1, 2}, {0}}});
        auto plan = RoundPlanner(topo, PlannerConfig{}).Plan(s);
        NS_TEST_ASSERT_MSG_EQ(plan.feasible, true, "feasible");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.rounds[0].roundTime, 0.410, 1e-9, "round 1: A-B");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.rounds[1].roundTime, 0.420, 1e-9, "round 2: B-C");
        NS_TEST_EXPECT_MSG_EQ_TOL(plan.roundTime, 0.420, 1e-9, "T = the slowest");
        NS_TEST_EXPECT_MSG_EQ(plan.bindingRound, 1, "set by round 2");
        NS_TEST_EXPECT_MSG_EQ(Mentions(plan.binding, "{B,C}: "), true, plan.binding);

        auto error = [&topo](PlannerConfig c) { return ErrorOf([&] { RoundPlanner(topo, c); }); };
        PlannerConfig c;
        c.payloadBytes = 0;
        std::string e = error(c);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "payload must be positive"), true, e);
        c = PlannerConfig{};
        c.payloadBytes = -5;
        NS_TEST_EXPECT_MSG_EQ(Mentions(error(c), "payload must be positive (got -5"),
                              true,
                              error(c));
        c = PlannerConfig{};
        c.hbmBytes = -1;
        NS_TEST_EXPECT_MSG_EQ(Mentions(error(c), "FPGA memory must be zero or positive"),
                              true,
                              error(c));
        c = PlannerConfig{};
        c.accessBps = 0;
        NS_TEST_EXPECT_MSG_EQ(Mentions(error(c), "access rate must be positive"), true, error(c));
        c = PlannerConfig{};
        c.coreCapacityBps = -1e9;
        NS_TEST_EXPECT_MSG_EQ(Mentions(error(c), "core capacity must be positive"), true, error(c));
        for (double window : {0.0, -5e-6, std::nan(""), 0.2})
        {
            c = PlannerConfig{};
            c.lineRateWindow = window;
            NS_TEST_EXPECT_MSG_EQ(
                Mentions(error(c), "line-rate window must be from 0.001 to 100000 us (got "),
                true,
                error(c));
        }
        for (double frame : {0.0, 63.0, 70000.0})
        {
            c = PlannerConfig{};
            c.frameBytes = frame;
            NS_TEST_EXPECT_MSG_EQ(Mentions(error(c), "frame size must be from 64 to 65535 bytes"),
                                  true,
                                  error(c));
        }
        std::string invalid = ErrorOf(
            [&] { RoundPlanner(topo, PlannerConfig{}).Plan(CliqueSchedule("x", {{{0, 1}}})); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(invalid, "island C is missing"), true, invalid);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-planner test suite.
 */
class RoundPlannerTestSuite : public TestSuite
{
  public:
    RoundPlannerTestSuite()
        : TestSuite("wan-training-planner", Type::UNIT)
    {
        AddTestCase(new PairPlanTestCase);
        AddTestCase(new LineTrianglePlanTestCase);
        AddTestCase(new TrianglePlanTestCase);
        AddTestCase(new ContentionPlanTestCase);
        AddTestCase(new BaselinePlanTestCase);
        AddTestCase(new EdgePortPlanTestCase);
        AddTestCase(new AllToAllMemoryTestCase);
        AddTestCase(new JitterAllowanceTestCase);
        AddTestCase(new PacketSkewTestCase);
        AddTestCase(new NineCitySkewTestCase);
        AddTestCase(new LineRateTableSkewTestCase);
        AddTestCase(new SchedulePlanTestCase);
    }
};

/// The suite's instance.
static RoundPlannerTestSuite g_roundPlannerTestSuite;
