/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-collective-experiment.h"
#include "ns3/wan-scale-check.h"

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief One sync of each collective on the triangle (A-B 10, A-C 20, B-C
 * 25 ms; 20 Gbps access), D = 3 MB (336 chunks of 8936 bytes), counted by
 * hand. The ring (segments of 112 chunks) sends 4 steps x 112 records per
 * member: 3 x 448 records. The parameter server is at A (every access
 * alike, A's farthest worker the nearest, 20 ms): each worker sends its 336
 * records, A 2 x 336 sums: 4 x 336 records, A the most out and in
 * (2 x 336). Lossless: no retransmission; every sum exact.
 */
class CollectiveLosslessTestCase : public WanTestCase
{
  public:
    CollectiveLosslessTestCase()
        : WanTestCase("collective experiment: ring and server on the triangle, bytes by hand")
    {
    }

  private:
    void DoCheck() override
    {
        WanCollectiveExperiment experiment(TriangleTopology());
        experiment.SetPayload(3e6);
        const uint64_t record = 8936;
        const auto ring = experiment.Run(WanCollectiveExperiment::RING);
        NS_TEST_EXPECT_MSG_EQ(ring.kind, "ring all-reduce", "");
        NS_TEST_EXPECT_MSG_EQ(ring.complete, true, "");
        NS_TEST_EXPECT_MSG_EQ(ring.exact, true, "");
        NS_TEST_EXPECT_MSG_EQ(ring.members.size(), 3, "");
        NS_TEST_EXPECT_MSG_EQ(ring.bytes, 3 * 448 * record, "");
        NS_TEST_EXPECT_MSG_EQ(ring.maxEgressBytes, 448 * record, "");
        NS_TEST_EXPECT_MSG_EQ(ring.retransmissions, 0, "lossless");
        NS_TEST_EXPECT_MSG_GT(ring.seconds, 4 * 0.010, "at least 4 steps of the shortest link");
        const auto ps = experiment.Run(WanCollectiveExperiment::PARAMETER_SERVER);
        NS_TEST_EXPECT_MSG_EQ(ps.server, 0, "A");
        NS_TEST_EXPECT_MSG_EQ(ps.exact, true, "");
        NS_TEST_EXPECT_MSG_EQ(ps.bytes, 4 * 336 * record, "");
        NS_TEST_EXPECT_MSG_EQ(ps.maxEgressBytes, 2 * 336 * record, "the server");
        NS_TEST_EXPECT_MSG_EQ(ps.maxIngressBytes, 2 * 336 * record, "the server");
        NS_TEST_EXPECT_MSG_EQ(ps.retransmissions, 0, "lossless");
        NS_TEST_EXPECT_MSG_GT(ps.seconds, 2 * 0.020, "to C and back, 20 ms each way");
        const auto line = WanCollectiveExperiment::Format(ps, TriangleTopology());
        NS_TEST_EXPECT_MSG_EQ(line.rfind("parameter server over TCP (A, B, C; server A): ", 0),
                              0,
                              line);
        // The Internet's MTU: the same records, exact, in segments of 1448
        // bytes instead of 8948, so over four times the events.
        WanCollectiveExperiment internet(TriangleTopology());
        internet.SetPayload(3e6);
        internet.SetMtu(1500);
        const auto small = internet.Run(WanCollectiveExperiment::RING);
        NS_TEST_EXPECT_MSG_EQ(small.exact, true, "MTU 1500");
        NS_TEST_EXPECT_MSG_EQ(small.bytes, ring.bytes, "the same records");
        NS_TEST_EXPECT_MSG_GT(small.events, 4 * ring.events, "segments of 1448 bytes");
        NS_TEST_EXPECT_MSG_EQ(ring.warnings.size(), 0, "full scale: nothing to warn of");
        NS_TEST_EXPECT_MSG_EQ(ps.warnings.size(), 0, "full scale: nothing to warn of");
        // At a scale, both collectives say their times are not scale-free.
        experiment.SetScale(10);
        for (auto kind : {WanCollectiveExperiment::RING, WanCollectiveExperiment::PARAMETER_SERVER})
        {
            const auto scaled = experiment.Run(kind);
            NS_TEST_ASSERT_MSG_EQ(scaled.warnings.size(), 1, scaled.kind);
            NS_TEST_EXPECT_MSG_EQ(scaled.warnings[0], WanScaleCheck::TcpAtScale(10), scaled.kind);
            const auto text = WanCollectiveExperiment::Format(scaled, TriangleTopology());
            NS_TEST_EXPECT_MSG_NE(text.find("\n  warning: TCP at scale 10: "),
                                  std::string::npos,
                                  text);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief 1% loss on every core link: TCP repairs it, so both collectives
 * still complete exact, with the same record bytes as lossless (records are
 * counted once, when the application hands them to TCP) and retransmissions;
 * a time limit too short leaves the sync incomplete, said so.
 */
class CollectiveLossTestCase : public WanTestCase
{
  public:
    CollectiveLossTestCase()
        : WanTestCase("collective experiment: 1% core loss, exact with retransmissions")
    {
    }

  private:
    void DoCheck() override
    {
        WanCollectiveExperiment experiment(TriangleTopology());
        experiment.SetPayload(3e6);
        WanLinkImpairment loss;
        loss.lossRate = 0.01;
        experiment.SetImpairment(WanNetworkHelper::CORE, loss);
        for (auto kind : {WanCollectiveExperiment::RING, WanCollectiveExperiment::PARAMETER_SERVER})
        {
            const auto r = experiment.Run(kind);
            NS_TEST_EXPECT_MSG_EQ(r.exact, true, r.kind);
            NS_TEST_EXPECT_MSG_EQ(r.bytes,
                                  (kind == WanCollectiveExperiment::RING ? 3 * 448 : 4 * 336) *
                                      8936ULL,
                                  r.kind);
            NS_TEST_EXPECT_MSG_GT(r.retransmissions, 0, r.kind);
            NS_TEST_EXPECT_MSG_EQ(r.refused, 0, r.kind);
        }
        experiment.SetTimeLimit(0.030);
        const auto cut = experiment.Run(WanCollectiveExperiment::RING);
        NS_TEST_EXPECT_MSG_EQ(cut.complete, false, "4 steps of at least 10 ms");
        NS_TEST_EXPECT_MSG_EQ(cut.seconds, 0, "");
        const auto line = WanCollectiveExperiment::Format(cut, TriangleTopology());
        NS_TEST_EXPECT_MSG_NE(line.find("): incomplete at the time limit, "),
                              std::string::npos,
                              line);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Bad collectives and settings refused in one line.
 */
class CollectiveBadInputTestCase : public WanTestCase
{
  public:
    CollectiveBadInputTestCase()
        : WanTestCase("collective experiment: bad names and settings refused")
    {
    }

  private:
    void DoCheck() override
    {
        auto e = ErrorOf([] { WanCollectiveExperiment::Parse("allreduce"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "unknown collective 'allreduce'"), true, e);
        NS_TEST_EXPECT_MSG_EQ(WanCollectiveExperiment::Parse("ps"),
                              WanCollectiveExperiment::PARAMETER_SERVER,
                              "");
        WanCollectiveExperiment experiment(TriangleTopology());
        e = ErrorOf([&] { experiment.SetScale(0.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "collective scale"), true, e);
        e = ErrorOf([&] { experiment.SetMtu(575); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "MTU must be at least 576 bytes (got 575)"), true, e);
        e = ErrorOf([&] { experiment.SetTimeLimit(0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "collective time limit"), true, e);
        e = ErrorOf([&] { experiment.Run(WanCollectiveExperiment::RING, {0, 5}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "no city 5"), true, e);
        e = ErrorOf([&] { experiment.SetCoreQueue("red", 10); });
        NS_TEST_EXPECT_MSG_EQ(e.empty(), false, "an unknown queue disc");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-collective-experiment test suite.
 */
class WanCollectiveExperimentTestSuite : public TestSuite
{
  public:
    WanCollectiveExperimentTestSuite()
        : TestSuite("wan-training-collective-experiment", Type::UNIT)
    {
        AddTestCase(new CollectiveLosslessTestCase);
        AddTestCase(new CollectiveLossTestCase);
        AddTestCase(new CollectiveBadInputTestCase);
    }
};

/// The suite's one instance.
static WanCollectiveExperimentTestSuite g_wanCollectiveExperimentTestSuite;
