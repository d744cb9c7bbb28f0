/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/error-model.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/round-planner.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-network-helper.h"

#include <set>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// Drops the packets with the given arrival numbers (0 = first) on a device.
class DropNthErrorModel : public ErrorModel
{
  public:
    /// \param drops arrival numbers to drop
    explicit DropNthErrorModel(std::set<uint32_t> drops)
        : m_drops(std::move(drops))
    {
    }

    uint32_t m_dropped{0}; //!< packets dropped

  private:
    bool DoCorrupt(Ptr<Packet>) override
    {
        bool drop = m_drops.count(m_seen++) > 0;
        m_dropped += drop ? 1 : 0;
        return drop;
    }

    void DoReset() override
    {
    }

    std::set<uint32_t> m_drops; //!< arrival numbers to drop
    uint32_t m_seen{0};         //!< arrivals so far
};

const uint32_t kChunks = 100;      //!< chunks per island
const uint32_t kChunkBytes = 8936; //!< payload per chunk
const uint32_t kWireBytes = 8972;  //!< UDP payload per packet (header included)

/// One clique round of the three islands of a line, at packet level.
struct LineClique
{
    WanTopology topo = LineTopology({"A", "B", "C"}, {10, 20}); //!< topology
    WanNetworkHelper net{topo};                                 //!< network
    RoundPlan plan;                                             //!< the planner's round
    std::vector<Ptr<WanIslandApplication>> islands;             //!< per city
    std::vector<Ptr<FpgaAggregator>> fpgas;                     //!< per city (aggregation)

    /// Builds and plans; the FPGAs run when `aggregation` is set.
    LineClique(bool aggregation, const std::set<uint32_t>& dropsAtB = {})
    {
        Ipv4AddressGenerator::Reset();
        PlannerConfig config;
        config.payloadBytes = kChunks * kChunkBytes;
        config.aggregation = aggregation;
        plan = RoundPlanner(topo, config).PlanRound({{0, 1, 2}});
        net.Install();
        const auto& clique = plan.cliques[0];
        for (uint32_t c = 0; c < 3; ++c)
        {
            auto group = WanNetworkHelper::GroupAddress(0, c);
            net.InstallMulticastTree(c, {0, 1, 2}, group, !aggregation);
            auto app = CreateObject<WanIslandApplication>();
            app->SetAttribute("Fpga", Ipv4AddressValue(net.GetEdgeAddress(c)));
            WanIslandRound r;
            r.round = 0;
            r.sender = static_cast<uint16_t>(c);
            r.start = Seconds(0.1);
            r.offset = Seconds(clique.offsets[c]);
            r.rate = DataRate(static_cast<uint64_t>(clique.rateBps));
            r.payloadBytes = kChunks * kChunkBytes;
            r.destinations = {InetSocketAddress(group, 9000)};
            r.peers = 2;
            r.value = c + 1;
            app->AddRound(r);
            net.GetIslands().Get(c)->AddApplication(app);
            islands.push_back(app);
            if (aggregation)
            {
                auto fpga = CreateObject<FpgaAggregator>();
                fpga->SetAttribute("Island", Ipv4AddressValue(net.GetIslandAddress(c)));
                fpga->SetAttribute("HbmBytes", UintegerValue(1000000000));
                net.GetEdges().Get(c)->AddApplication(fpga);
                fpgas.push_back(fpga);
            }
        }
        if (!dropsAtB.empty())
        {
            auto em = CreateObject<DropNthErrorModel>(dropsAtB);
            net.GetAccessDevices(1).Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
    }

    ~LineClique()
    {
        Simulator::Destroy();
    }

    /// Sum island i must end with: its peers' values x (1 + 2 + ... + chunks).
    static double ExpectedSum(uint32_t i)
    {
        double perChunk = 0;
        for (uint32_t s = 0; s < 3; ++s)
        {
            perChunk += (s != i) ? s + 1 : 0;
        }
        return perChunk * kChunks * (kChunks + 1) / 2;
    }
};

} // namespace

/**
 * \ingroup wan-training-tests
 * \brief With FPGAs: exact sums, one merged stream in, and the round time
 * the planner computed within one packet time.
 */
class IslandAggregatedRoundTestCase : public TestCase
{
  public:
    IslandAggregatedRoundTestCase()
        : TestCase("three-island line with FPGAs: exact sums, one stream in, planner's T")
    {
    }

  private:
    void DoRun() override
    {
        LineClique run(true);
        // Wire time of one packet at the 20 Gbps access rate.
        const double packetTime = (kWireBytes + 30) * 8 / 20e9;
        // The planner's D/r counts payload only; on the wire each chunk also
        // carries 66 header bytes: (8972 + 30) / 8936 of the serialization.
        const double wireSerialization =
            run.plan.cliques[0].serialization * (kWireBytes + 30) / kChunkBytes;
        const double expectedT =
            run.plan.roundTime - run.plan.cliques[0].serialization + wireSerialization;
        double slowest = 0;
        for (uint32_t i = 0; i < 3; ++i)
        {
            const auto& rec = run.islands[i]->GetRecords().at(0);
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(i), "exact sum at " << i);
            NS_TEST_EXPECT_MSG_EQ(rec.contributions, 2 * kChunks, "each peer's chunk once");
            NS_TEST_EXPECT_MSG_EQ(rec.packetsIn, kChunks, "one merged packet per chunk");
            NS_TEST_EXPECT_MSG_EQ(rec.bytesIn, uint64_t(kChunks) * kWireBytes, "one stream in");
            NS_TEST_EXPECT_MSG_EQ(rec.bytesOut, uint64_t(kChunks) * kWireBytes, "one copy out");
            NS_TEST_EXPECT_MSG_EQ(rec.partialSums, 0, "every chunk completes in the FPGA");
            NS_TEST_EXPECT_MSG_EQ(rec.completion.IsZero(), false, "round completes");
            slowest = std::max(slowest, (rec.completion - rec.start).GetSeconds());
        }
        // The last merged packet leaves the FPGA when the last chunk is in and
        // crosses the access link: one packet time (plus the per-hop
        // store-and-forward of the fast core and edge links).
        NS_TEST_EXPECT_MSG_GT_OR_EQ(slowest, expectedT, "not before the planner's T");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(slowest, expectedT + 2 * packetTime, "within a packet time");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Without FPGAs: the same sums, |C|-1 streams in.
 */
class IslandUnaggregatedRoundTestCase : public TestCase
{
  public:
    IslandUnaggregatedRoundTestCase()
        : TestCase("three-island line without FPGAs: same sums, two streams in")
    {
    }

  private:
    void DoRun() override
    {
        LineClique run(false);
        for (uint32_t i = 0; i < 3; ++i)
        {
            const auto& rec = run.islands[i]->GetRecords().at(0);
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(i), "exact sum at " << i);
            NS_TEST_EXPECT_MSG_EQ(rec.packetsIn, 2 * kChunks, "every peer's chunk arrives");
            NS_TEST_EXPECT_MSG_EQ(rec.bytesIn,
                                  2 * uint64_t(kChunks) * kWireBytes,
                                  "|C|-1 = 2 streams in");
        }
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Packets dropped on the post-aggregation hop come back through NACK
 * and resend; the sum stays exact.
 */
class IslandResendTestCase : public TestCase
{
  public:
    IslandResendTestCase()
        : TestCase("drops after the FPGA are repaired by NACK and resend")
    {
    }

  private:
    void DoRun() override
    {
        LineClique run(true, {5, 50, 51});
        const auto& rec = run.islands[1]->GetRecords().at(0);
        NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact sum after repair");
        NS_TEST_EXPECT_MSG_EQ(rec.contributions, 2 * kChunks, "nothing lost or doubled");
        NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 3, "three resent packets");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(rec.nacks, 3, "at least one NACK per gap");
        NS_TEST_EXPECT_MSG_EQ(run.fpgas[1]->GetResent(), rec.nacks, "every NACK answered");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The wan-training-island test suite.
 */
class WanIslandApplicationTestSuite : public TestSuite
{
  public:
    WanIslandApplicationTestSuite()
        : TestSuite("wan-training-island", Type::UNIT)
    {
        AddTestCase(new IslandAggregatedRoundTestCase);
        AddTestCase(new IslandUnaggregatedRoundTestCase);
        AddTestCase(new IslandResendTestCase);
    }
};

/// The suite's instance.
static WanIslandApplicationTestSuite g_wanIslandApplicationTestSuite;
