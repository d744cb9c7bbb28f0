/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-line-clique-fixture.h"
#include "wan-training-test-utils.h"

#include "ns3/enum.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/wan-training-compat.h"

#include <map>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

const uint32_t kChunks = LineClique::kChunks; //!< chunks per island
const uint32_t kChunkBytes = 8936;            //!< payload per chunk
const uint32_t kWireBytes = 8972;             //!< UDP payload per packet (header included)

/// Builds a chunk header's packet of 100 payload bytes.
Ptr<Packet>
ChunkPacket(WanChunkHeader::Kind kind,
            uint32_t round,
            uint16_t clique,
            uint32_t chunk,
            const std::vector<uint32_t>& positions,
            double value,
            uint32_t sequence = 0)
{
    WanChunkHeader h;
    h.SetKind(kind);
    h.SetRound(round);
    h.SetClique(clique);
    h.SetChunk(chunk);
    h.SetSequence(sequence);
    h.SetExpected(2);
    h.SetValue(value);
    if (kind == WanChunkHeader::MERGED)
    {
        std::vector<bool> sources(3, false);
        for (auto p : positions)
        {
            sources[p] = true;
        }
        h.SetSources(sources);
        h.SetContributions(static_cast<uint16_t>(positions.size()));
    }
    else
    {
        h.SetPosition(static_cast<uint16_t>(positions.at(0)));
    }
    auto p = Create<Packet>(100);
    p->AddHeader(h);
    return p;
}

/// Counts the packets an application drops, by reason.
struct DropCounter
{
    std::map<std::string, uint32_t> byReason; //!< reason -> packets

    /// The Drop sink.
    void Count(Ptr<const Packet>, const std::string& reason)
    {
        ++byReason[reason];
    }
};

/// Keeps the RoundEnd reports of an island.
struct RoundEndLog
{
    std::vector<WanIslandRecord> records; //!< every report, in order

    /// The RoundEnd sink.
    void Keep(const WanIslandRecord& record)
    {
        records.push_back(record);
    }
};

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief With FPGAs: exact sums, one merged stream in, and the round time
 * the planner computed within one packet time.
 */
class IslandAggregatedRoundTestCase : public WanTestCase
{
  public:
    IslandAggregatedRoundTestCase()
        : WanTestCase("three-island line with FPGAs: exact sums, one stream in, planner's T")
    {
    }

  private:
    void DoCheck() override
    {
        LineClique run({});
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
            const auto rec = run.islands[i]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(i), "exact sum at " << i);
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, 2 * kChunks, "each peer's chunk once");
            NS_TEST_EXPECT_MSG_EQ(rec.expected, 2 * kChunks, "peers x chunks");
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
 * @ingroup wan-training-tests
 * @brief Without FPGAs: the same sums, |C|-1 streams in.
 */
class IslandUnaggregatedRoundTestCase : public WanTestCase
{
  public:
    IslandUnaggregatedRoundTestCase()
        : WanTestCase("three-island line without FPGAs: same sums, two streams in")
    {
    }

  private:
    void DoCheck() override
    {
        LineCliqueOptions o;
        o.aggregation = false;
        LineClique run(o);
        for (uint32_t i = 0; i < 3; ++i)
        {
            const auto rec = run.islands[i]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(i), "exact sum at " << i);
            NS_TEST_EXPECT_MSG_EQ(rec.packetsIn, 2 * kChunks, "every peer's chunk arrives");
            NS_TEST_EXPECT_MSG_EQ(rec.bytesIn,
                                  2 * uint64_t(kChunks) * kWireBytes,
                                  "|C|-1 = 2 streams in");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Packets dropped on the post-aggregation hop come back through NACK
 * and resend; the sum stays exact.
 */
class IslandResendTestCase : public WanTestCase
{
  public:
    IslandResendTestCase()
        : WanTestCase("drops after the FPGA are repaired by NACK and resend")
    {
    }

  private:
    void DoCheck() override
    {
        LineCliqueOptions o;
        o.dropsAtB = {5, 50, 51};
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact sum after repair");
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, 2 * kChunks, "nothing lost or doubled");
        NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 3, "three resent packets");
        NS_TEST_EXPECT_MSG_GT_OR_EQ(rec.nacks, 3, "at least one NACK per gap");
        NS_TEST_EXPECT_MSG_EQ(run.fpgas[1]->GetResent(), rec.nacks, "every NACK answered");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief NACKs every 2 us, faster than a resend comes back: the FPGA resends
 * the same MERGED packet several times and each copy must count once.
 */
class IslandShortNackDelayTestCase : public WanTestCase
{
  public:
    IslandShortNackDelayTestCase()
        : WanTestCase("NACKs every 2 us: repeated resends count once, the sum stays exact")
    {
    }

  private:
    void DoCheck() override
    {
        LineCliqueOptions o;
        o.dropsAtB = {5, 50, 51};
        o.nackDelay = MicroSeconds(2);
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        // B's peers A (value 1) and C (value 3): 4 x (1 + ... + 100) = 20200.
        NS_TEST_EXPECT_MSG_EQ(rec.sum, 20200, "exact sum despite repeated resends");
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, 2 * kChunks, "each contribution once");
        NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 3, "three gaps filled");
        NS_TEST_EXPECT_MSG_GT(run.fpgas[1]->GetResent(), 3, "the FPGA resent some twice");
        NS_TEST_EXPECT_MSG_EQ(rec.discarded, 0, "the copies never reach the ledger");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A scripted stream into island B (position 1 of a clique of three,
 * no peers' addresses, three chunks): reordered and resent MERGED packets,
 * a DATA and a REPAIR that repeat what a sum held, and packets it cannot
 * use.  Each contribution counts once, the sum is exact, the rest is
 * dropped and reported.
 */
class IslandScriptedStreamTestCase : public WanTestCase
{
  public:
    IslandScriptedStreamTestCase()
        : WanTestCase("scripted stream: resends, reordering and bad packets; the sum stays exact")
    {
    }

  private:
    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B"}, {10}));
        net.Install();
        auto app = CreateObject<WanIslandApplication>();
        app->SetAttribute("ChunkBytes", UintegerValue(100));
        app->SetAttribute("NackDelay", TimeValue(MilliSeconds(50)));
        WanIslandRound r;
        r.round = 0;
        r.clique = 4;
        r.sender = 1;
        r.start = Seconds(0.1);
        r.rate = DataRate("1Gbps");
        r.payloadBytes = 300; // 3 chunks
        r.peers = 2;
        r.position = 1;
        r.value = 2;
        app->AddRound(r);
        net.GetIslands().Get(1)->AddApplication(app);
        DropCounter drops;
        RoundEndLog ends;
        app->TraceConnectWithoutContext("Drop", MakeCallback(&DropCounter::Count, &drops));
        app->TraceConnectWithoutContext("RoundEnd", MakeCallback(&RoundEndLog::Keep, &ends));

        // Peers at positions 0 (value 1) and 2 (value 3): chunk c holds 1 x (c + 1)
        // and 3 x (c + 1).
        using K = WanChunkHeader;
        std::vector<Ptr<Packet>> script = {
            ChunkPacket(K::MERGED, 0, 4, 0, {0, 2}, 4, 0),
            ChunkPacket(K::MERGED, 0, 4, 2, {0}, 3, 2),    // seq 1 is late
            ChunkPacket(K::MERGED, 0, 4, 1, {0, 2}, 8, 1), // fills the gap
            ChunkPacket(K::MERGED, 0, 4, 1, {0, 2}, 8, 1), // resent
            ChunkPacket(K::MERGED, 0, 4, 0, {0, 2}, 4, 0), // resent after the window passed
            ChunkPacket(K::MERGED, 0, 4, 2, {2}, 9, 3),    // completes the round
            ChunkPacket(K::MERGED, 0, 4, 2, {0}, 3, 4),    // a new number, a repeated sum
            ChunkPacket(K::DATA, 0, 4, 0, {2}, 3),         // a repeat of what seq 0 held
            ChunkPacket(K::REPAIR, 0, 4, 1, {0}, 2),       // likewise
            ChunkPacket(K::MERGED, 0, 5, 0, {0}, 1, 5),    // wrong clique
            ChunkPacket(K::MERGED, 0, 4, 3, {0}, 4, 6),    // chunk out of range
            ChunkPacket(K::MERGED, 9, 4, 0, {0}, 1, 7),    // unplanned round
            ChunkPacket(K::DATA, 0, 4, 0, {1}, 2),         // its own position
            Create<Packet>(10),                            // not a chunk header
            ChunkPacket(K::NACK, 0, 4, 0, {0}, 0),         // not for an island
        };
        std::vector<uint8_t> unknownKind(36, 0);
        unknownKind[0] = 9;
        script.push_back(Create<Packet>(unknownKind.data(), 36));
        // A sum of one contribution whose 3-position bitmap names nobody.
        WanChunkHeader nobody;
        nobody.SetKind(K::MERGED);
        nobody.SetClique(4);
        nobody.SetSequence(8);
        nobody.SetExpected(2);
        nobody.SetContributions(1);
        nobody.SetSources(std::vector<bool>(3, false));
        nobody.SetValue(1);
        script.push_back(Create<Packet>(100));
        script.back()->AddHeader(nobody);

        auto edge = net.GetEdges().Get(1);
        auto tx = Socket::CreateSocket(edge, UdpSocketFactory::GetTypeId());
        UintegerValue mergedPort;
        app->GetAttribute("MergedPort", mergedPort);
        tx->Connect(
            InetSocketAddress(net.GetIslandAddress(1), static_cast<uint16_t>(mergedPort.Get())));
        for (size_t k = 0; k < script.size(); ++k)
        {
            Simulator::Schedule(Seconds(0.2) + MicroSeconds(10 * k),
                                [tx, p = script[k]]() { tx->Send(p); });
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();

        const auto rec = app->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.sum, 24, "(1 + 3) x (1 + 2 + 3)");
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, 6, "each contribution once");
        NS_TEST_EXPECT_MSG_EQ(rec.expected, 6, "2 peers x 3 chunks");
        NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 1, "one gap filled");
        NS_TEST_EXPECT_MSG_EQ(rec.partialSums, 2, "two sums of one contribution");
        NS_TEST_EXPECT_MSG_EQ(rec.discarded, 3, "three repeats discarded");
        NS_TEST_EXPECT_MSG_EQ(rec.nacks, 0, "the gap filled before a NACK");
        NS_TEST_EXPECT_MSG_EQ(rec.dropped, 4, "wrong clique, chunk 3, own position, nobody");
        const std::map<std::string, uint32_t> reasons = {{"wrong clique", 1},
                                                         {"chunk out of range", 1},
                                                         {"unplanned round", 1},
                                                         {"bad sources", 2},
                                                         {"malformed", 2},
                                                         {"unexpected kind", 1}};
        NS_TEST_EXPECT_MSG_EQ((drops.byReason == reasons), true, "every bad packet reported");
        // Reported when it completed, then after each of the 3 repeats and
        // the 4 drops of round 0.
        NS_TEST_EXPECT_MSG_EQ(ends.records.size(), 8, "RoundEnd at completion and after");
        NS_TEST_EXPECT_MSG_EQ(ends.records.front().delivered, 6, "complete when reported");
        NS_TEST_EXPECT_MSG_EQ(ends.records.back().dropped, rec.dropped, "the last is the record");
        NS_TEST_EXPECT_MSG_EQ(ends.records.back().discarded, 3, "the last is the record");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The last MERGED packet is lost (no later packet shows the gap): at
 * the deadline ACCEPT gives its two contributions up, REREQUEST asks A and C
 * for the chunk and the sum is exact again.
 */
class IslandDeadlineTestCase : public WanTestCase
{
  public:
    IslandDeadlineTestCase()
        : WanTestCase("a lost tail: given up with accept, recovered with rerequest")
    {
    }

  private:
    void DoCheck() override
    {
        LineCliqueOptions o;
        o.dropsAtB = {99};
        o.deadline = Seconds(0.8);
        o.peerIslands = true;
        {
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, 198, "the last chunk's two are missing");
            NS_TEST_EXPECT_MSG_EQ(rec.givenUp, 2, "given up");
            NS_TEST_EXPECT_MSG_EQ((rec.givenUpChunks == std::set<uint32_t>{99}), true, "chunk 99");
            NS_TEST_EXPECT_MSG_EQ(rec.sum, 20200 - 4 * 100, "without 1 x 100 and 3 x 100");
            NS_TEST_EXPECT_MSG_EQ(rec.requested, 0, "nothing asked");
            NS_TEST_EXPECT_MSG_EQ(rec.completion.IsZero(), true, "never complete");
        }
        o.recovery = "rerequest";
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, "all in");
        NS_TEST_EXPECT_MSG_EQ(rec.sum, 20200, "exact");
        NS_TEST_EXPECT_MSG_EQ(rec.requested, 2, "two contributions asked for");
        NS_TEST_EXPECT_MSG_EQ(rec.requests, 2, "one REQUEST each");
        NS_TEST_EXPECT_MSG_EQ(rec.recovered, 2, "both recovered");
        NS_TEST_EXPECT_MSG_EQ(rec.givenUp, 0, "nothing given up");
        NS_TEST_EXPECT_MSG_EQ(rec.late, 0, "nothing late unasked");
        NS_TEST_EXPECT_MSG_EQ(run.islands[0]->GetRecord(0).repairsSent, 1, "A repaired once");
        NS_TEST_EXPECT_MSG_EQ(run.islands[2]->GetRecord(0).repairsSent, 1, "C repaired once");
        NS_TEST_EXPECT_MSG_GT((rec.completion - rec.start).GetSeconds(), 0.8, "after the deadline");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Recovery is an enum attribute checked when set; AddRound refuses
 * rounds that cannot work.
 */
class IslandConfigurationTestCase : public WanTestCase
{
  public:
    IslandConfigurationTestCase()
        : WanTestCase("Recovery checked when set; bad rounds refused by AddRound")
    {
    }

  private:
    void DoCheck() override
    {
        auto app = CreateObject<WanIslandApplication>();
        // ns-3 asserts on an unknown enum name: names from users are checked first.
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([]() {
                         wancompat::RequireEnumName(WanIslandApplication::GetTypeId(),
                                                    "Recovery",
                                                    "pray",
                                                    "recovery policy");
                     }),
                     "unknown recovery policy \"pray\" (expected accept or rerequest or early)"),
            true,
            "an unknown policy is refused before it is set");
        NS_TEST_EXPECT_MSG_EQ(app->SetAttributeFailSafe("Recovery", StringValue("rerequest")),
                              true,
                              "rerequest");
        NS_TEST_EXPECT_MSG_EQ(app->SetAttributeFailSafe("MaxNacks", UintegerValue(0)),
                              false,
                              "MaxNacks at least 1");
        WanIslandRound r;
        r.rate = DataRate("1Gbps");
        r.payloadBytes = 1000;
        r.peers = 2;
        r.position = 3;
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { app->AddRound(r); }), "position 3 outside a clique of 3"),
            true,
            "position outside the clique");
        r.peers = 65535;
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { app->AddRound(r); }),
                     "a clique of 65536 islands; the chunk header names at most 65535 sources"),
            true,
            "a clique wider than the header's bitmap");
        r.peers = 2;
        r.position = 2;
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { app->AddRound(r); }),
                                       "re-requests need the island of every peer"),
                              true,
                              "rerequest without addresses");
        app->SetAttribute("Recovery", EnumValue(WanIslandApplication::ACCEPT));
        app->AddRound(r);
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { app->AddRound(r); }), "planned twice"),
                              true,
                              "a round twice");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { app->GetRecord(1); }), "not planned"),
                              true,
                              "no record of an unplanned round");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A round re-planned before it starts takes its new times; what must
 * stay (clique, position, payload) and unknown rounds are refused.
 */
class IslandReplaceRoundTestCase : public WanTestCase
{
  public:
    IslandReplaceRoundTestCase()
        : WanTestCase("ReplaceRound: new times before the start, the clique kept")
    {
    }

  private:
    void DoCheck() override
    {
        auto app = CreateObject<WanIslandApplication>();
        WanIslandRound r;
        r.round = 4;
        r.payloadBytes = 100000;
        r.rate = DataRate("1Gbps");
        r.start = Seconds(2);
        app->AddRound(r);
        auto later = r;
        later.start = Seconds(3);
        later.rate = DataRate("500Mbps");
        app->ReplaceRound(later);
        NS_TEST_EXPECT_MSG_EQ(app->GetRecord(4).start, Seconds(3), "the new start");
        auto moved = later;
        moved.position = 1;
        moved.peers = 1;
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { app->ReplaceRound(moved); }),
                                       "island round 4: a re-plan keeps the clique, the "
                                       "position and the payload"),
                              true,
                              "the clique stays");
        auto unknown = later;
        unknown.round = 5;
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { app->ReplaceRound(unknown); }),
                                       "island round 5 was not planned: nothing to re-plan"),
                              true,
                              "unknown round");
        Simulator::Schedule(Seconds(3.5), [&]() {
            NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { app->ReplaceRound(later); }),
                                           "island round 4 has started"),
                                  true,
                                  "too late");
        });
        Simulator::Run();
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-island test suite.
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
        AddTestCase(new IslandShortNackDelayTestCase);
        AddTestCase(new IslandScriptedStreamTestCase);
        AddTestCase(new IslandDeadlineTestCase);
        AddTestCase(new IslandConfigurationTestCase);
        AddTestCase(new IslandReplaceRoundTestCase);
    }
};

/// The suite's instance.
static WanIslandApplicationTestSuite g_wanIslandApplicationTestSuite;
