/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-packet-trace-helper.h"
#include "ns3/wan-training-compat.h"

#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// Opens a UDP socket on port 9 of island `city` (what it receives waits there).
void
Listen(const WanNetworkHelper& net, uint32_t city)
{
    auto socket = Socket::CreateSocket(net.GetIslands().Get(city), UdpSocketFactory::GetTypeId());
    socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9));
}

/// Sends one UDP packet of `bytes` from island `city` to `to` (port 9) at time 0.
void
SendOne(const WanNetworkHelper& net, uint32_t city, Ipv4Address to, uint32_t bytes)
{
    auto socket = Socket::CreateSocket(net.GetIslands().Get(city), UdpSocketFactory::GetTypeId());
    socket->Connect(InetSocketAddress(to, 9));
    Simulator::Schedule(Seconds(0), [socket, bytes] { socket->Send(Create<Packet>(bytes)); });
}

/**
 * @ingroup wan-training-tests
 * @brief Packet traces: which devices a selection names, ns-3's file names,
 * one pcap record (PPP) per packet sent or received, and bad selections.
 */
class TraceSelectionFilesTestCase : public WanTestCase
{
  public:
    TraceSelectionFilesTestCase()
        : WanTestCase("packet traces: selections, file names, pcap records")
    {
    }

  private:
    /**
     * @brief Traces the islands of a three-island line while island A sends
     * 1000 bytes to island C; the network is gone (its files closed) on return.
     * @param prefix the trace files' prefix
     * @return per island, its files' name without the extension
     */
    static std::vector<std::string> SendTraced(const std::string& prefix)
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B", "C"}, {10, 20}));
        net.Install();
        WanPacketTraceHelper::EnablePcap(net,
                                         prefix,
                                         WanPacketTraceHelper(net.GetTopology()).Parse("post"));
        Listen(net, 2);
        SendOne(net, 0, net.GetIslandAddress(2), 1000);
        Simulator::Run();
        Simulator::Destroy();
        std::vector<std::string> names;
        for (uint32_t c = 0; c < 3; ++c)
        {
            // ns-3's names: prefix-<node>-<device>; device 0 is the loopback.
            names.push_back(prefix + "-" + std::to_string(net.GetIslands().Get(c)->GetId()) + "-1");
        }
        return names;
    }

    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B", "C"}, {10, 20}));
        net.Install();
        const WanPacketTraceHelper traces(net.GetTopology());
        auto count = [&net, &traces](const std::string& items) {
            return WanPacketTraceHelper::GetDevices(net, traces.Parse(items)).GetN();
        };
        // Two core links (2 devices each); per city an access and an edge link
        // (4 devices); B, in the middle, also has both core links' ends.
        NS_TEST_EXPECT_MSG_EQ(count("core"), 4, "both ends of every core link");
        NS_TEST_EXPECT_MSG_EQ(count("access"), 12, "both links of every city");
        NS_TEST_EXPECT_MSG_EQ(count("post"), 3, "every island's device");
        NS_TEST_EXPECT_MSG_EQ(count("B"), 6, "B's router, edge node and island");
        NS_TEST_EXPECT_MSG_EQ(count("A"), 5, "A has one core link");
        NS_TEST_EXPECT_MSG_EQ(count("core, B"), 8, "each device once");
        NS_TEST_EXPECT_MSG_EQ(count("core,access,post"), 16, "every device");

        // One 1000-byte packet from island A to island C: the islands' pcap
        // files hold its sending (A) and its arrival (C): 1000 B + UDP 8 +
        // IP 20 + PPP 2.  (ASCII traces need packet printing enabled before
        // the first packet of the process, which earlier cases have sent;
        // test/python/test_pcap.py checks them through the programs.)
        const std::string prefix = CreateTempDirFilename("trace");
        const auto names = SendTraced(prefix);
        const std::vector<std::vector<uint32_t>> expected{{1030}, {}, {1030}};
        for (uint32_t c = 0; c < 3; ++c)
        {
            uint32_t linkType = 0;
            const auto records = PcapRecordLengths(names[c] + ".pcap", linkType);
            NS_TEST_EXPECT_MSG_EQ(linkType, wancompat::kPcapLinkTypePpp, names[c] << ".pcap: PPP");
            NS_TEST_EXPECT_MSG_EQ((records == expected[c]), true, names[c] << ".pcap");
        }

        std::string e = ErrorOf([&] { traces.Parse("core,XYZ"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "cannot trace \"XYZ\""), true, e);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "(A, B, C)"), true, e);
        e = ErrorOf([&] { traces.Parse("Core"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "neither a link class (core, access, post)"), true, e);
        e = ErrorOf([&] { traces.Parse(" , "); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "no links to trace"), true, e);
        e = ErrorOf([&] { WanPacketTraceHelper::CheckPrefix(""); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "the trace file prefix is empty"), true, e);
        e = ErrorOf([&] { WanPacketTraceHelper::CheckPrefix(prefix + "-none/x"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "-none'"), true, e);
        WanNetworkHelper fresh(LineTopology({"A", "B"}, {1}));
        e = ErrorOf([&] {
            WanPacketTraceHelper::GetDevices(fresh,
                                             WanPacketTraceHelper(fresh.GetTopology()).Parse("A"));
        });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "Install must come before traces"), true, e);
    }
};

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The WanPacketTraceHelper test suite.
 */
class WanPacketTraceHelperTestSuite : public TestSuite
{
  public:
    WanPacketTraceHelperTestSuite()
        : TestSuite("wan-training-packet-trace", Type::UNIT)
    {
        AddTestCase(new TraceSelectionFilesTestCase);
    }
};

/// The suite's one instance.
static WanPacketTraceHelperTestSuite g_wanPacketTraceHelperTestSuite;
