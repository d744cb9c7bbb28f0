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
#include "ns3/wan-core-link-monitor.h"
#include "ns3/wan-experiment-plan.h"
#include "ns3/wan-network-helper.h"

#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// A plan of two rounds of 0.5 s each: windows [0, 0.5) and [0.5, 1) s.
WanExperimentPlan
TwoRounds()
{
    WanExperimentPlan plan;
    plan.rounds.resize(2);
    plan.rounds[0].start = 0;
    plan.rounds[0].deadline = 0.5;
    plan.rounds[1].round = 1;
    plan.rounds[1].start = 0.5;
    plan.rounds[1].deadline = 0.5;
    return plan;
}

/// Sends `count` UDP packets of `bytes` from island `from` to island `to` (port 9) at `at`.
void
SendAt(const WanNetworkHelper& net, uint32_t from, uint32_t to, double at, uint32_t count)
{
    auto socket = Socket::CreateSocket(net.GetIslands().Get(from), UdpSocketFactory::GetTypeId());
    socket->Connect(InetSocketAddress(net.GetIslandAddress(to), 9));
    Simulator::Schedule(Seconds(at), [socket, count] {
        for (uint32_t k = 0; k < count; ++k)
        {
            socket->Send(Create<Packet>(1000));
        }
    });
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief WanCoreLinkMonitor, by hand on two islands A and B: 3 packets of
 * 1000 bytes from A to B in round 1's window, 2 in round 2's and 1 after
 * both.  The A-B direction counts 3 and 2 packets of 1030 bytes each (UDP
 * 8, IP 20, PPP 2), B-A none; at scale 10 the bytes are multiplied back by
 * 10 and the packets are not.  Merging a saved copy doubles the counts; a
 * save with more rounds than the plan is refused.
 */
class CoreLinkCountsTestCase : public WanTestCase
{
  public:
    CoreLinkCountsTestCase()
        : WanTestCase("packets and bytes per round and direction, by hand; save and merge")
    {
    }

  private:
    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B"}, {10}));
        net.Install();
        const auto plan = TwoRounds();
        WanCoreLinkMonitor monitor(plan);
        monitor.Watch(net);
        auto sink = Socket::CreateSocket(net.GetIslands().Get(1), UdpSocketFactory::GetTypeId());
        sink->Bind(InetSocketAddress(Ipv4Address::GetAny(), 9)); // no ICMP back
        SendAt(net, 0, 1, 0.1, 3);
        SendAt(net, 0, 1, 0.7, 2);
        SendAt(net, 0, 1, 1.2, 1);
        Simulator::Run();
        Simulator::Destroy();

        const WanHop ab{0, 1};
        const WanHop ba{1, 0};
        WanRoundResult first;
        WanRoundResult second;
        monitor.Fill(0, 1, first);
        monitor.Fill(1, 1, second);
        NS_TEST_EXPECT_MSG_EQ(first.corePackets.at(ab), 3, "round 1: three packets A-B");
        NS_TEST_EXPECT_MSG_EQ(first.coreBytes.at(ab), 3 * 1030, "1000 + UDP 8 + IP 20 + PPP 2");
        NS_TEST_EXPECT_MSG_EQ(first.corePackets.at(ba), 0, "nothing B-A");
        NS_TEST_EXPECT_MSG_EQ(second.corePackets.at(ab), 2, "round 2: two packets");
        NS_TEST_EXPECT_MSG_EQ(first.coreQueueDrops.at(ab), 0, "no drops");
        NS_TEST_EXPECT_MSG_EQ(first.coreLost.at(ab), 0, "no losses");
        WanRoundResult scaled;
        monitor.Fill(0, 10, scaled);
        NS_TEST_EXPECT_MSG_EQ(scaled.coreBytes.at(ab), 3 * 1030 * 10, "bytes times the scale");
        NS_TEST_EXPECT_MSG_EQ(scaled.corePackets.at(ab), 3, "packets as simulated");

        // Another rank's counts (here: a save of these) add up.
        monitor.Merge(monitor.Save());
        WanRoundResult doubled;
        monitor.Fill(1, 1, doubled);
        NS_TEST_EXPECT_MSG_EQ(doubled.corePackets.at(ab), 4, "2 + 2 packets");
        NS_TEST_EXPECT_MSG_EQ(doubled.coreBytes.at(ab), 4 * 1030, "their bytes");
        WanExperimentPlan one;
        one.rounds.resize(1);
        WanCoreLinkMonitor shorter(one);
        const auto e = ErrorOf([&] { shorter.Merge(monitor.Save()); });
        NS_TEST_EXPECT_MSG_EQ(e.empty(), false, "a save with more rounds than the plan");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The WanCoreLinkMonitor test suite.
 */
class WanCoreLinkMonitorTestSuite : public TestSuite
{
  public:
    WanCoreLinkMonitorTestSuite()
        : TestSuite("wan-training-core-link-monitor", Type::UNIT)
    {
        AddTestCase(new CoreLinkCountsTestCase);
    }
};

/// The suite's one instance.
static WanCoreLinkMonitorTestSuite g_wanCoreLinkMonitorTestSuite;
