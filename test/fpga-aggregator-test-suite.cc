/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wan-multicast-route-helper.h"
#include "ns3/wan-network-helper.h"

#include <map>
#include <set>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// What one island received from its FPGA.
struct IslandInbox
{
    std::map<uint32_t, double> sum;     //!< chunk -> sum of partial sums
    std::map<uint32_t, uint32_t> count; //!< chunk -> contributions
    std::set<uint32_t> sequences;       //!< sequence numbers seen
    uint32_t duplicates{0};             //!< packets with a seen sequence
    std::vector<Time> arrivals;         //!< when each packet came

    /// Receive callback: adds each new partial sum once.
    void Receive(Ptr<Socket> socket)
    {
        while (auto p = socket->Recv())
        {
            WanChunkHeader h;
            p->RemoveHeader(h);
            arrivals.push_back(Simulator::Now());
            if (!sequences.insert(h.GetSequence()).second)
            {
                ++duplicates;
                continue;
            }
            sum[h.GetChunk()] += h.GetValue();
            count[h.GetChunk()] += h.GetContributions();
        }
    }
};

/// Contribution of island s to chunk c: exact in binary.
double
Value(uint32_t s, uint32_t c)
{
    return (s + 1) * 1000.0 + c;
}

/// A clique of the three islands of a line, with an FPGA at each edge.
struct CliqueBench
{
    static const uint32_t kChunks = 20; //!< chunks per island

    WanNetworkHelper net{LineTopology({"A", "B", "C"}, {10, 20})}; //!< network
    std::vector<Ptr<FpgaAggregator>> fpga;                         //!< per city
    IslandInbox inbox[3];                                          //!< per city
    uint16_t dataPort{0};                                          //!< the aggregators' DataPort
    uint16_t islandPort{0};                                        //!< the aggregators' IslandPort

    /**
     * @brief Builds the network, trees and aggregators; islands in `senders` send.
     * @param hbmBytes each FPGA's HbmBytes
     * @param senders the islands that send
     * @param inLine each FPGA's InLine
     */
    CliqueBench(uint64_t hbmBytes, const std::vector<uint32_t>& senders, bool inLine = true)
    {
        Ipv4AddressGenerator::Reset();
        net.Install();
        for (uint32_t s = 0; s < 3; ++s)
        {
            WanMulticastRouteHelper(net).InstallTree(s,
                                                     {0, 1, 2},
                                                     WanNetworkHelper::GroupAddress(0, s),
                                                     false);
        }
        for (uint32_t c = 0; c < 3; ++c)
        {
            auto app = CreateObject<FpgaAggregator>();
            app->SetAttribute("Island", Ipv4AddressValue(net.GetIslandAddress(c)));
            app->SetAttribute("HbmBytes", UintegerValue(hbmBytes));
            app->SetAttribute("InLine", BooleanValue(inLine));
            net.GetEdges().Get(c)->AddApplication(app);
            fpga.push_back(app);
            UintegerValue port;
            app->GetAttribute("DataPort", port);
            dataPort = static_cast<uint16_t>(port.Get());
            app->GetAttribute("IslandPort", port);
            islandPort = static_cast<uint16_t>(port.Get());
            auto rx = Socket::CreateSocket(net.GetIslands().Get(c), UdpSocketFactory::GetTypeId());
            rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), islandPort));
            rx->SetRecvCallback(MakeCallback(&IslandInbox::Receive, &inbox[c]));
        }
        for (auto s : senders)
        {
            auto tx = Socket::CreateSocket(net.GetIslands().Get(s), UdpSocketFactory::GetTypeId());
            tx->Connect(InetSocketAddress(WanNetworkHelper::GroupAddress(0, s), dataPort));
            for (uint32_t c = 0; c < kChunks; ++c)
            {
                Simulator::Schedule(MicroSeconds(c + 1), [tx, s, c] {
                    WanChunkHeader h;
                    h.SetRound(0);
                    h.SetSender(s);
                    h.SetChunk(c);
                    h.SetExpected(2);
                    h.SetValue(Value(s, c));
                    auto p = Create<Packet>(1000);
                    p->AddHeader(h);
                    tx->Send(p);
                });
            }
        }
    }

    /// The exact total island `i` must end with for chunk `c`.
    double Expected(uint32_t i, uint32_t c, const std::vector<uint32_t>& senders) const
    {
        double total = 0;
        for (auto s : senders)
        {
            total += (s != i) ? Value(s, c) : 0;
        }
        return total;
    }
};

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief With ample HBM, every chunk completes and each island gets the exact
 * sum of its peers' contributions in one packet per chunk.
 */
class AggregatorCompletionTestCase : public WanTestCase
{
  public:
    AggregatorCompletionTestCase()
        : WanTestCase("ample HBM: one merged packet per chunk, exact sums")
    {
    }

  private:
    void DoCheck() override
    {
        CliqueBench bench(1e9, {0, 1, 2});
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        for (uint32_t i = 0; i < 3; ++i)
        {
            const auto* table = bench.fpga[i]->GetSlotTable();
            NS_TEST_EXPECT_MSG_EQ(table->GetEvictions(FpgaEviction::COMPLETION),
                                  CliqueBench::kChunks,
                                  "every chunk completes");
            NS_TEST_EXPECT_MSG_EQ(table->GetEvictions(FpgaEviction::CONFLICT), 0, "no conflict");
            NS_TEST_EXPECT_MSG_EQ(bench.fpga[i]->GetForwarded(),
                                  CliqueBench::kChunks,
                                  "one stream to the island");
            for (uint32_t c = 0; c < CliqueBench::kChunks; ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(bench.inbox[i].sum[c],
                                      bench.Expected(i, c, {0, 1, 2}),
                                      "exact sum");
                NS_TEST_EXPECT_MSG_EQ(bench.inbox[i].count[c], 2, "each peer once");
            }
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief One slot forces conflicts; no HBM forces timeouts; the sums stay
 * exact either way.
 */
class AggregatorEvictionTestCase : public WanTestCase
{
  public:
    AggregatorEvictionTestCase()
        : WanTestCase("conflicts and timeouts forward partial sums, totals stay exact")
    {
    }

  private:
    void Run(uint64_t hbm, FpgaEviction expectedCause)
    {
        CliqueBench bench(hbm, {0, 1, 2});
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        for (uint32_t i = 0; i < 3; ++i)
        {
            const auto* table = bench.fpga[i]->GetSlotTable();
            NS_TEST_EXPECT_MSG_GT(table->GetEvictions(expectedCause),
                                  0,
                                  "cause " << FpgaEvictionName(expectedCause) << " at island "
                                           << i);
            for (uint32_t c = 0; c < CliqueBench::kChunks; ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(bench.inbox[i].sum[c],
                                      bench.Expected(i, c, {0, 1, 2}),
                                      "exact sum despite " << FpgaEvictionName(expectedCause));
                NS_TEST_EXPECT_MSG_EQ(bench.inbox[i].count[c], 2, "each peer once");
            }
        }
        Simulator::Destroy();
    }

    void DoCheck() override
    {
        // One 9000-byte slot: the peers' streams arrive 10 ms apart at B, so
        // each new chunk evicts the previous one.
        Run(9000, FpgaEviction::CONFLICT);
        // No HBM: a 5 us window; contributions 10 ms apart never meet.
        Run(0, FpgaEviction::TIMEOUT);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A NACK is answered from the resend buffer with the same packet.
 */
class AggregatorResendTestCase : public WanTestCase
{
  public:
    AggregatorResendTestCase()
        : WanTestCase("a NACK is answered from the resend buffer")
    {
    }

  private:
    void DoCheck() override
    {
        CliqueBench bench(1e9, {0, 1, 2});
        auto island = bench.net.GetIslands().Get(1);
        auto nack = Socket::CreateSocket(island, UdpSocketFactory::GetTypeId());
        nack->Connect(InetSocketAddress(bench.net.GetEdgeAddress(1), bench.dataPort));
        for (uint32_t seq : {3u, 1000000u})
        {
            Simulator::Schedule(Seconds(0.5), [nack, seq] {
                WanChunkHeader h;
                h.SetKind(WanChunkHeader::NACK);
                h.SetSequence(seq);
                auto p = Create<Packet>(0);
                p->AddHeader(h);
                nack->Send(p);
            });
        }
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(bench.fpga[1]->GetResent(), 1, "one resend");
        NS_TEST_EXPECT_MSG_EQ(bench.fpga[1]->GetUnanswerableNacks(), 1, "one NACK too late");
        NS_TEST_EXPECT_MSG_EQ(bench.inbox[1].duplicates, 1, "the island got seq 3 again");
        NS_TEST_EXPECT_MSG_EQ(bench.inbox[1].sequences.size(), CliqueBench::kChunks, "all seqs");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Packets the FPGA cannot use are dropped and reported, by reason;
 * the slot table sees only what it can sum, and PeakOccupancy follows it.
 */
class AggregatorDropTestCase : public WanTestCase
{
  public:
    AggregatorDropTestCase()
        : WanTestCase("bad packets are dropped and reported; PeakOccupancy follows the table")
    {
    }

  private:
    /// Counts drops by reason.
    void Drop(Ptr<const Packet>, const std::string& reason)
    {
        ++m_drops[reason];
    }

    /// Keeps the last peak reported.
    void Peak(uint64_t, uint64_t peak)
    {
        m_peak = peak;
    }

    /// @return a DATA-like header's packet
    static Ptr<Packet> MakePacket(WanChunkHeader::Kind kind, uint16_t expected, uint16_t position)
    {
        WanChunkHeader h;
        h.SetKind(kind);
        h.SetExpected(expected);
        h.SetPosition(position);
        h.SetChunk(position);
        auto p = Create<Packet>(1000);
        p->AddHeader(h);
        return p;
    }

    void DoCheck() override
    {
        CliqueBench bench(1e9, {});
        auto fpga = bench.fpga[0];
        fpga->TraceConnectWithoutContext("Drop", MakeCallback(&AggregatorDropTestCase::Drop, this));
        fpga->TraceConnectWithoutContext("PeakOccupancy",
                                         MakeCallback(&AggregatorDropTestCase::Peak, this));
        // From island B to A's edge: the FPGA of A sees them as its peers'.
        auto tx =
            Socket::CreateSocket(bench.net.GetIslands().Get(1), UdpSocketFactory::GetTypeId());
        tx->Connect(InetSocketAddress(bench.net.GetEdgeAddress(0), bench.dataPort));
        std::vector<uint8_t> unknown(36, 0);
        unknown[0] = 7;
        const std::vector<Ptr<Packet>> script = {
            MakePacket(WanChunkHeader::DATA, 2, 1),   // summed: one slot
            MakePacket(WanChunkHeader::DATA, 2, 2),   // summed: a second slot (chunk 2)
            Create<Packet>(20),                       // malformed
            Create<Packet>(unknown.data(), 36),       // malformed: kind 7
            MakePacket(WanChunkHeader::MERGED, 2, 1), // unexpected kind
            MakePacket(WanChunkHeader::REPAIR, 2, 1), // a repair it did not ask for
            MakePacket(WanChunkHeader::DATA, 0, 0),   // no contributions expected
            MakePacket(WanChunkHeader::DATA, 2, 3),   // position 3 in a clique of 3
        };
        for (size_t k = 0; k < script.size(); ++k)
        {
            Simulator::Schedule(MicroSeconds(10 * (k + 1)), [tx, p = script[k]]() { tx->Send(p); });
        }
        // They arrive 10 ms later (the A-B link); the FPGA fails in between.
        Simulator::Schedule(MilliSeconds(50), &FpgaAggregator::Fail, fpga);
        Simulator::Schedule(MilliSeconds(60),
                            [tx]() { tx->Send(MakePacket(WanChunkHeader::DATA, 2, 1)); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        const std::map<std::string, uint32_t> expected = {{"malformed", 2},
                                                          {"unexpected kind", 1},
                                                          {"unrequested repair", 1},
                                                          {"no contributions expected", 1},
                                                          {"bad sources", 1},
                                                          {"failed", 1}};
        NS_TEST_EXPECT_MSG_EQ((m_drops == expected), true, "every bad packet, by reason");
        NS_TEST_EXPECT_MSG_EQ(fpga->GetSlotTable()->GetOccupancy(), 2, "two slots held");
        NS_TEST_EXPECT_MSG_EQ(fpga->GetSlotTable()->GetPeakOccupancy(), 2, "peak two");
        NS_TEST_EXPECT_MSG_EQ(m_peak, 2, "PeakOccupancy reported it");
        NS_TEST_EXPECT_MSG_EQ(fpga->GetForwarded(), 0, "nothing complete, nothing forwarded");
        Simulator::Destroy();
    }

    std::map<std::string, uint32_t> m_drops; //!< drops by reason
    uint64_t m_peak{0};                      //!< last peak reported
};

/**
 * @ingroup wan-training-tests
 * @brief In line (the edge routing's tap) or through its socket, an FPGA sums
 * the same packets at the same instants; in line, its edge node's stack
 * delivers none of the inbound streams, and what is not for DataPort still
 * reaches the node's sockets.
 */
class AggregatorInLineTestCase : public WanTestCase
{
  public:
    AggregatorInLineTestCase()
        : WanTestCase("in line or through its socket: the same sums at the same instants")
    {
    }

  private:
    /// What one run saw.
    struct Seen
    {
        std::vector<Time> arrivals[3]; //!< MERGED arrivals per island
        uint32_t localDeliveries[3]{}; //!< datagrams the edges' stacks delivered
        uint32_t otherPort[3]{};       //!< datagrams to another port, per edge socket
        uint64_t forwarded[3]{};       //!< MERGED packets per FPGA
    };

    /// Counts a datagram the stack delivered.
    static void Delivered(uint32_t* count, const Ipv4Header&, Ptr<const Packet>, uint32_t)
    {
        ++*count;
    }

    /// Counts what a socket received.
    static void Received(uint32_t* count, Ptr<Socket> socket)
    {
        while (socket->Recv())
        {
            ++*count;
        }
    }

    Seen Run(bool inLine)
    {
        CliqueBench bench(1e9, {0, 1, 2}, inLine);
        Seen seen;
        const uint16_t otherPort = bench.dataPort + 1;
        for (uint32_t c = 0; c < 3; ++c)
        {
            auto edge = bench.net.GetEdges().Get(c);
            edge->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "LocalDeliver",
                MakeBoundCallback(&Delivered, &seen.localDeliveries[c]));
            auto other = Socket::CreateSocket(edge, UdpSocketFactory::GetTypeId());
            other->Bind(InetSocketAddress(Ipv4Address::GetAny(), otherPort));
            other->SetRecvCallback(MakeBoundCallback(&Received, &seen.otherPort[c]));
        }
        // One datagram on A's tree to another port: B's and C's edges deliver it.
        auto tx =
            Socket::CreateSocket(bench.net.GetIslands().Get(0), UdpSocketFactory::GetTypeId());
        tx->Connect(InetSocketAddress(WanNetworkHelper::GroupAddress(0, 0), otherPort));
        Simulator::Schedule(MilliSeconds(1), [tx] { tx->Send(Create<Packet>(100)); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        for (uint32_t i = 0; i < 3; ++i)
        {
            seen.arrivals[i] = bench.inbox[i].arrivals;
            seen.forwarded[i] = bench.fpga[i]->GetForwarded();
            for (uint32_t c = 0; c < CliqueBench::kChunks; ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(bench.inbox[i].sum[c],
                                      bench.Expected(i, c, {0, 1, 2}),
                                      "exact sum, in line " << inLine);
                NS_TEST_EXPECT_MSG_EQ(bench.inbox[i].count[c], 2, "each peer once");
            }
        }
        Simulator::Destroy();
        return seen;
    }

    void DoCheck() override
    {
        const auto socket = Run(false);
        const auto inLine = Run(true);
        for (uint32_t i = 0; i < 3; ++i)
        {
            NS_TEST_EXPECT_MSG_EQ(inLine.forwarded[i], CliqueBench::kChunks, "one per chunk");
            NS_TEST_EXPECT_MSG_EQ(socket.forwarded[i], CliqueBench::kChunks, "one per chunk");
            NS_TEST_EXPECT_MSG_EQ((inLine.arrivals[i] == socket.arrivals[i]),
                                  true,
                                  "island " << i << ": the same packets at the same instants");
            NS_TEST_EXPECT_MSG_EQ(inLine.arrivals[i].size(), CliqueBench::kChunks, "all came");
            // Through the socket the stack delivers both peers' 20 chunks and
            // the datagram to the other port (not at A, its source's edge).
            const uint32_t other = i == 0 ? 0 : 1;
            NS_TEST_EXPECT_MSG_EQ(socket.localDeliveries[i],
                                  2 * CliqueBench::kChunks + other,
                                  "through the socket, edge " << i);
            NS_TEST_EXPECT_MSG_EQ(inLine.localDeliveries[i],
                                  other,
                                  "in line the stack delivers only the other port's, edge " << i);
            NS_TEST_EXPECT_MSG_EQ(inLine.otherPort[i], other, "another port reaches its socket");
            NS_TEST_EXPECT_MSG_EQ(socket.otherPort[i], other, "another port reaches its socket");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-aggregator test suite.
 */
class FpgaAggregatorTestSuite : public TestSuite
{
  public:
    FpgaAggregatorTestSuite()
        : TestSuite("wan-training-aggregator", Type::UNIT)
    {
        AddTestCase(new AggregatorCompletionTestCase);
        AddTestCase(new AggregatorEvictionTestCase);
        AddTestCase(new AggregatorResendTestCase);
        AddTestCase(new AggregatorDropTestCase);
        AddTestCase(new AggregatorInLineTestCase);
    }
};

/// The suite's instance.
static FpgaAggregatorTestSuite g_fpgaAggregatorTestSuite;
