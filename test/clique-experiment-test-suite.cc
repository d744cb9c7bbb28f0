/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/config.h"
#include "ns3/enum.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/wan-training-compat.h"

#include <cmath>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief On the nine-city topology, lossless and without jitter, every
 * feasible schedule's measured round time is within 2% of the planner's,
 * and every island ends with exactly its peers' contributions.
 */
class PlannerAgreementTestCase : public WanTestCase
{
  public:
    PlannerAgreementTestCase()
        : WanTestCase("nine-city packet level within 2% of the planner, exact sums")
    {
    }

  private:
    void Check(const std::string& name, double hbmBytes)
    {
        auto topo = WanTopology::NineCity();
        PlannerConfig config;
        config.hbmBytes = hbmBytes;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(100);
        // The planner's data alone: the default recovery adds parity rows.
        experiment.SetRecovery("accept");
        auto result = experiment.Run(CliqueScheduleBuiltins::Make(name, topo));
        NS_TEST_ASSERT_MSG_EQ(result.feasible, true, name << " is feasible");
        NS_TEST_EXPECT_MSG_EQ(result.exact, true, name << ": every sum exact");
        for (const auto& r : result.rounds)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(r.measuredMs,
                                      r.plannedMs,
                                      0.02 * r.plannedMs,
                                      name << " round " << r.round << " (HBM " << hbmBytes / 1e9
                                           << " GB)");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(r.measuredMs, r.plannedMs * 0.999, "never early");
        }
    }

    void DoCheck() override
    {
        for (const char* name : {"pairs", "regional", "triangles"})
        {
            Check(name, 0);
        }
        Check("all-to-all", 32e9);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief What each technology buys: bytes on the access links.
 */
class BaselineBytesTestCase : public WanTestCase
{
  public:
    BaselineBytesTestCase()
        : WanTestCase("baselines: egress without multicast, ingress without FPGAs")
    {
    }

  private:
    /// Total bytes in and out of the islands in round 1 (cross triangles).
    std::pair<double, double> Bytes(bool multicast, bool aggregation)
    {
        auto topo = WanTopology::NineCity();
        PlannerConfig config;
        config.multicast = multicast;
        config.aggregation = aggregation;
        // Memory to spare: without multicast a sender's copies leave one packet
        // apart, which no line-rate window would absorb at this scale.
        config.hbmBytes = 32e9;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(1000);
        // The data's bytes alone: the default recovery adds parity with FPGA memory.
        experiment.SetRecovery("accept");
        auto result = experiment.Run(CliqueScheduleBuiltins::Triangles(topo));
        NS_TEST_EXPECT_MSG_EQ(result.exact, true, "exact sums");
        double in = 0;
        double out = 0;
        for (const auto& island : result.rounds.at(1).islands)
        {
            in += island.bytesIn;
            out += island.bytesOut;
        }
        return {in, out};
    }

    void DoCheck() override
    {
        auto both = Bytes(true, true);
        auto noMulticast = Bytes(false, true);
        auto noFpga = Bytes(true, false);
        // Triangles: each island has two peers.
        // Out: exact.  In: a hash conflict splits a chunk into two packets, so
        // allow 1%.
        NS_TEST_EXPECT_MSG_EQ_TOL(noMulticast.second / both.second, 2.0, 1e-9, "2 copies out");
        NS_TEST_EXPECT_MSG_EQ_TOL(noMulticast.first / both.first, 1.0, 0.01, "1 stream in");
        NS_TEST_EXPECT_MSG_EQ_TOL(noFpga.first / both.first, 2.0, 0.02, "2 streams in");
        NS_TEST_EXPECT_MSG_EQ_TOL(noFpga.second / both.second, 1.0, 1e-9, "1 copy out");
        // 9 islands x D (1 GB of payload plus 36 + 0 header bytes per 8936).
        NS_TEST_EXPECT_MSG_EQ_TOL(both.second, 9e9 * 8972 / 8936, 9e9 * 0.001, "9 x D out");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Without multicast the unicast copies take the planner's paths, so
 * every round of triangles is within 1% of the planner (scale 100, no FPGA
 * memory, as the example runs it).  The partial sums that remain are LON's in
 * round 2: SEO's copy to LON leaves second and crosses two more core links
 * than LAX's, a skew of about 5.7 us (at full scale) against the 5 us
 * line-rate window, so every chunk but the first times out once.
 */
class UnicastBaselineTestCase : public WanTestCase
{
  public:
    UnicastBaselineTestCase()
        : WanTestCase("no multicast: triangles within 1% of the planner, partial sums only at LON")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        PlannerConfig config;
        config.multicast = false;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(100);
        experiment.SetRecovery("accept"); // the planner's data alone
        auto result = experiment.Run(CliqueScheduleBuiltins::Triangles(topo));
        NS_TEST_ASSERT_MSG_EQ(result.rounds.size(), 2, "one period");
        NS_TEST_EXPECT_MSG_EQ(result.exact, true, "exact sums");
        for (const auto& r : result.rounds)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(r.measuredMs,
                                      r.plannedMs,
                                      0.01 * r.plannedMs,
                                      "round " << r.round);
            for (const auto& island : r.islands)
            {
                const bool lonRound2 = r.round == 1 && island.city == topo.FindCity("LON");
                const uint64_t partial = lonRound2 ? 1119 : 0;
                NS_TEST_EXPECT_MSG_EQ(island.partialSums,
                                      partial,
                                      "partial sums at " << topo.GetCity(island.city).code
                                                         << " in round " << r.round);
            }
            // The planner reports them.
            NS_TEST_EXPECT_MSG_EQ(r.warnings.size(), (r.round == 1 ? 1 : 0), "round " << r.round);
        }
        NS_TEST_EXPECT_MSG_EQ(Mentions(Nth(result.rounds.at(1).warnings, 0), "arrivals at LON in "),
                              true,
                              Nth(result.rounds.at(1).warnings, 0));
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The planner's packet-level skew and the FPGA's line-rate window
 * agree: on the line A-B-C without multicast, B's arrivals are one 20 Gbps
 * egress frame time apart (3.6 us; C's copy to B is its second).  With a
 * 3.5 us window (PlannerConfig::lineRateWindow, which the FPGAs take) the
 * planner warns of B and B gets partial sums; with 3.7 us neither.
 */
class LineRateWindowTestCase : public WanTestCase
{
  public:
    LineRateWindowTestCase()
        : WanTestCase("line-rate window: the planner's skew warning matches the FPGA's timeouts")
    {
    }

  private:
    /// Runs one round with the given window; returns its result.
    static WanRoundResult RunLine(double window)
    {
        auto topo = LineTopology({"A", "B", "C"}, {10, 20});
        PlannerConfig config;
        config.multicast = false;
        config.payloadBytes = 100 * 8936;
        config.lineRateWindow = window;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(1);
        auto result = experiment.Run(CliqueSchedule("line", {{{0, 1, 2}}}));
        NS_ABORT_MSG_UNLESS(result.rounds.size() == 1, "one round");
        NS_ABORT_MSG_UNLESS(result.exact, "exact sums");
        return result.rounds[0];
    }

    void DoCheck() override
    {
        const auto tight = RunLine(3.5e-6);
        NS_TEST_ASSERT_MSG_EQ(tight.warnings.size(), 1, "the planner warns of B");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(Nth(tight.warnings, 0), "arrivals at B in {A,B,C} differ by 3.60 us"),
            true,
            Nth(tight.warnings, 0));
        for (const auto& island : tight.islands)
        {
            NS_TEST_EXPECT_MSG_EQ(island.partialSums,
                                  (island.city == 1 ? 100 : 0),
                                  "3.5 us: partial sums at island " << island.city);
        }
        const auto wide = RunLine(3.7e-6);
        NS_TEST_EXPECT_MSG_EQ(wide.warnings.size(), 0, "nothing to report");
        for (const auto& island : wide.islands)
        {
            NS_TEST_EXPECT_MSG_EQ(island.partialSums, 0, "3.7 us: island " << island.city);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief An error inside Run leaves no simulation behind: the next run is
 * the same as on a fresh start.
 */
class RunCleanupTestCase : public WanTestCase
{
  public:
    RunCleanupTestCase()
        : WanTestCase("an error inside Run destroys the simulation it had begun")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        const auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        CliqueExperimentHelper reference(topo, PlannerConfig{});
        reference.SetScale(1000);
        const auto expected = reference.Run(triangles);
        // At a scale of 1e10 not one byte of the 1 GB is left to send: Run
        // throws after it has built the network and installed the islands.
        CliqueExperimentHelper failing(topo, PlannerConfig{});
        failing.SetScale(1e10);
        const std::string e = ErrorOf([&]() { failing.Run(triangles); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "leaves no payload to send"), true, e);
        NS_TEST_EXPECT_MSG_EQ(Simulator::Now().GetSeconds(), 0, "the clock starts afresh");
        const auto again = reference.Run(triangles);
        NS_TEST_EXPECT_MSG_EQ(again.events, expected.events, "the same run, event for event");
        NS_TEST_EXPECT_MSG_EQ(again.rounds.at(1).measuredMs,
                              expected.rounds.at(1).measuredMs,
                              "the same round time");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Packet traces of a run: a pcap file per island device, one record
 * per chunk sent and per sum received, and the same run as without them.
 */
class PacketTraceTestCase : public WanTestCase
{
  public:
    PacketTraceTestCase()
        : WanTestCase("packet traces: one pcap record per island packet, the run unchanged")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        const auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        CliqueExperimentHelper plain(topo, PlannerConfig{});
        plain.SetScale(1000);
        plain.SetRounds(1);
        plain.SetRecovery("accept"); // the data's packets alone
        const auto expected = plain.Run(triangles);
        CliqueExperimentHelper traced = plain;
        const std::string prefix = CreateTempDirFilename("run");
        traced.EnablePacketTraces(prefix, "", "post");
        const auto result = traced.Run(triangles);
        NS_TEST_EXPECT_MSG_EQ(result.events, expected.events, "the same run, event for event");
        // 1 GB / 1000 = 1e6 bytes in 8936-byte chunks: 112 chunks, each sent
        // once (one multicast copy) and received as one complete sum of the
        // two peers'.  Islands are nodes 18 to 26; device 0 is the loopback.
        for (uint32_t c = 0; c < 9; ++c)
        {
            const std::string name = prefix + "-" + std::to_string(18 + c) + "-1.pcap";
            uint32_t linkType = 0;
            const auto records = PcapRecordLengths(name, linkType).size();
            NS_TEST_EXPECT_MSG_EQ(linkType, wancompat::kPcapLinkTypePpp, name << ": PPP");
            NS_TEST_EXPECT_MSG_EQ(records, 2 * 112u, name);
        }
        const std::string e = ErrorOf([&]() { traced.EnablePacketTraces(prefix, "", "post,XYZ"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "cannot trace \"XYZ\""), true, e);
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { traced.EnablePacketTraces("", prefix + "-no/x", "core"); }),
                     "no folder"),
            true,
            "a missing folder");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief All-to-all among 40 synthetic cities with 32 GB, one round at
 * scale 1000: a clique wider than 32 sums exactly, every contribution
 * arrives once, and every MERGED header names its 39 or 40 positions.
 */
class WideCliqueTestCase : public WanTestCase
{
  public:
    WideCliqueTestCase()
        : WanTestCase("all-to-all of 40 islands: exact sums, every contribution once")
    {
    }

  private:
    void DoCheck() override
    {
        const uint32_t n = 40;
        const auto topo = WanTopology::RandomGeometric(n, 4, 1);
        PlannerConfig config;
        config.hbmBytes = 32e9;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(1000);
        experiment.SetRounds(1);
        experiment.SetRecovery("accept"); // the data's bytes alone: no parity
        const auto result = experiment.Run(CliqueScheduleBuiltins::Make("all-to-all", topo));
        NS_TEST_ASSERT_MSG_EQ(result.feasible, true, result.reason);
        NS_TEST_ASSERT_MSG_EQ(result.rounds.size(), 1, "one round");
        NS_TEST_EXPECT_MSG_EQ(result.exact, true, "every island's sum exact");
        // 1 GB / 1000 = 1e6 bytes: 112 chunks of 8936 bytes (the last 8104).
        const uint64_t chunks = 112;
        const auto& islands = result.rounds[0].islands;
        NS_TEST_ASSERT_MSG_EQ(islands.size(), n, "every island");
        uint64_t delivered = 0;
        for (const auto& island : islands)
        {
            delivered += island.delivered;
            NS_TEST_EXPECT_MSG_EQ(island.exact, true, "island " << island.city);
            NS_TEST_EXPECT_MSG_EQ(island.partialSums, 0, "complete sums only");
            // One MERGED packet per chunk with a 40-byte header (32 fixed,
            // 2 count, 5 bitmap bytes for 39 or 40 positions, padded); a
            // sum without its senders' names would carry 36.
            NS_TEST_EXPECT_MSG_EQ(island.bytesIn,
                                  1000 * (1000000 + chunks * 40),
                                  "island " << island.city);
        }
        NS_TEST_EXPECT_MSG_EQ(delivered, n * (n - 1) * chunks, "N x (N - 1) x chunks, once each");
        NS_TEST_EXPECT_MSG_EQ(result.evictions.at("completion"), n * chunks, "one sum a chunk");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Cross traffic at 70% of every core link direction: in round 1 of
 * triangles NYC->LON carries only background (0 bytes without it), its
 * bytes match 70% of 100 Gbps over the round's window, the queues fill and
 * drop packets, and the round takes longer than without it.
 */
class CrossTrafficTestCase : public WanTestCase
{
  public:
    CrossTrafficTestCase()
        : WanTestCase("cross traffic: its share of a link, queue drops, a slower round")
    {
    }

  private:
    static WanExperimentResult RunTriangles(double utilisation)
    {
        const auto topo = WanTopology::NineCity();
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(1000);
        experiment.SetRounds(1);
        // No BFD or PIM packets: a link no stream uses carries nothing but
        // the cross traffic.
        experiment.SetFaultDetection("oracle");
        experiment.SetTreeBuilding("planner");
        experiment.SetCrossTraffic(utilisation);
        return experiment.Run(CliqueScheduleBuiltins::Make("triangles", topo));
    }

    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        const WanHop nycLon{topo.FindCity("NYC"), topo.FindCity("LON")};
        const auto quiet = RunTriangles(0);
        const auto busy = RunTriangles(0.7);
        NS_TEST_ASSERT_MSG_EQ(busy.rounds.size(), 1, "one round");
        NS_TEST_EXPECT_MSG_EQ(quiet.rounds[0].coreBytes.at(nycLon), 0, "no training on NYC->LON");
        // The round's window: T (1 + 10%) = 507.76 x 1.1 ms, at 100 Gbps.
        const double expected = 0.7 * 100e9 / 8 * 0.50776 * 1.1;
        NS_TEST_EXPECT_MSG_EQ_TOL(double(busy.rounds[0].coreBytes.at(nycLon)),
                                  expected,
                                  0.15 * expected,
                                  "70% of the link, within 15% (bursts are random)");
        uint64_t drops = 0;
        for (const auto& [hop, n] : busy.rounds[0].coreQueueDrops)
        {
            drops += n;
        }
        uint64_t quietDrops = 0;
        for (const auto& [hop, n] : quiet.rounds[0].coreQueueDrops)
        {
            quietDrops += n;
        }
        NS_TEST_EXPECT_MSG_EQ(quietDrops, 0, "no drops without it");
        NS_TEST_EXPECT_MSG_GT(drops, 0, "the queues fill and drop");
        NS_TEST_EXPECT_MSG_GT(busy.rounds[0].measuredMs,
                              quiet.rounds[0].measuredMs + 5,
                              "queueing makes the round longer");
        const auto e = ErrorOf([] {
            CliqueExperimentHelper(WanTopology::NineCity(), PlannerConfig{}).SetCrossTraffic(1);
        });
        NS_TEST_EXPECT_MSG_EQ(e, "cross traffic: utilisation must be in [0, 1) (got 1)", e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The experiment's modes are attributes: their names listed once (the
 * checkers, which the setters, programs and scripts read), their defaults
 * set as any ns-3 default, and a mode set by Config::SetDefault reaches the
 * islands (coded: one parity per block of 32, by hand); the schedules'
 * default memory and NAME:GB.
 */
class ExperimentModesTestCase : public WanTestCase
{
  public:
    ExperimentModesTestCase()
        : WanTestCase("modes as attributes: names, defaults, Config::SetDefault reaches the run")
    {
    }

  private:
    void DoCheck() override
    {
        const auto tid = CliqueExperimentHelper::GetTypeId();
        const std::vector<std::string> policies{"accept",
                                                "rerequest",
                                                "early",
                                                "coded",
                                                "coded+early",
                                                "best"};
        NS_TEST_EXPECT_MSG_EQ((wancompat::EnumNames(tid, "Recovery") == policies),
                              true,
                              "policies");
        NS_TEST_EXPECT_MSG_EQ(wancompat::AttributeDefaultText(tid, "Recovery"), "best", "");
        NS_TEST_EXPECT_MSG_EQ(wancompat::AttributeDefaultText(tid, "FaultDetection"), "bfd", "");
        NS_TEST_EXPECT_MSG_EQ(wancompat::AttributeDefaultText(tid, "TreeBuilding"), "pim", "");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::RepairPolicy("coded"), "rerequest", "");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::RepairPolicy("coded+early"), "early", "");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::RepairPolicy("early"), "early", "");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::RepairPolicy("best"), "early", "");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::IsCoded("best"), false, "its own layout");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::IsCoded("coded+early"), true, "");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::IsCoded("early"), false, "");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::Repairs("accept"), false, "");
        NS_TEST_EXPECT_MSG_EQ(CliqueExperimentHelper::Repairs("coded"), true, "");

        const auto topo = WanTopology::NineCity();
        PlannerConfig config;
        config.hbmBytes = CliqueScheduleBuiltins::GetDefaultMemory("all-to-all");
        Config::SetDefault("ns3::CliqueExperimentHelper::Recovery", StringValue("coded"));
        Config::SetDefault("ns3::CliqueExperimentHelper::FaultDetection", StringValue("oracle"));
        CliqueExperimentHelper experiment(topo, config);
        Config::Reset();
        wancompat::EnumValueOf<CliqueExperimentHelper::FaultDetection> detection;
        experiment.GetAttribute("FaultDetection", detection);
        NS_TEST_EXPECT_MSG_EQ(detection.Get(), CliqueExperimentHelper::ORACLE, "set by default");
        experiment.SetFaultDetection("bfd");
        experiment.GetAttribute("FaultDetection", detection);
        NS_TEST_EXPECT_MSG_EQ(detection.Get(), CliqueExperimentHelper::BFD, "set by name");
        experiment.SetScale(1000);
        experiment.SetRounds(1);
        const auto r = experiment.Run(CliqueScheduleBuiltins::Make("all-to-all", topo));
        for (const auto& i : r.rounds.at(0).islands)
        {
            // 112 chunks per sender: 4 blocks of at most 32, one parity each.
            NS_TEST_EXPECT_MSG_EQ(i.paritySent, 4, "coded, by default: island " << i.city);
        }
        NS_TEST_EXPECT_MSG_EQ(r.exact, true, "every sum exact");

        auto e = ErrorOf([&] { experiment.SetTreeBuilding("flooding"); });
        NS_TEST_EXPECT_MSG_EQ(e, "unknown tree building \"flooding\" (expected planner or pim)", e);

        auto jittery = topo;
        NS_TEST_EXPECT_MSG_EQ(jittery.GetLargestOwnJitter(), 0, "no link names its jitter");
        WanLinkImpairment own;
        own.jitterSeconds = 0.002;
        jittery.SetLinkImpairment("NYC", "LON", own);
        NS_TEST_EXPECT_MSG_EQ(jittery.GetLargestOwnJitter(), 0.002, "NYC-LON's own 2 ms");

        NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::GetDefaultMemory("all-to-all"), 32e9, "");
        NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::GetDefaultMemory("triangles"), 0, "");
        NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::GetDefaultMemory("mine.json"), 0, "");
        const auto [name, memory] = CliqueScheduleBuiltins::SplitMemory("triangles:8");
        NS_TEST_EXPECT_MSG_EQ(name, "triangles", "");
        NS_TEST_EXPECT_MSG_EQ(memory, 8e9, "");
        NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::SplitMemory("all-to-all").second, 32e9, "");
        e = ErrorOf([&] { CliqueScheduleBuiltins::SplitMemory("pairs:2000"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "memory of pairs must be from 0 to 1000 GB"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-experiment test suite.
 */
class CliqueExperimentTestSuite : public TestSuite
{
  public:
    CliqueExperimentTestSuite()
        : TestSuite("wan-training-experiment", Type::UNIT)
    {
        AddTestCase(new PlannerAgreementTestCase);
        AddTestCase(new BaselineBytesTestCase);
        AddTestCase(new UnicastBaselineTestCase);
        AddTestCase(new LineRateWindowTestCase);
        AddTestCase(new RunCleanupTestCase);
        AddTestCase(new PacketTraceTestCase);
        AddTestCase(new WideCliqueTestCase);
        AddTestCase(new CrossTrafficTestCase);
        AddTestCase(new ExperimentModesTestCase);
    }
};

/// The suite's instance.
static CliqueExperimentTestSuite g_cliqueExperimentTestSuite;
