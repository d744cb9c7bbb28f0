/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/ipv4-address-generator.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wan-cross-traffic-helper.h"
#include "ns3/wan-network-helper.h"

#include <map>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief WanCrossTrafficHelper on two islands A and B joined by a 100 Gbps
 * link at scale 1000 (100 Mbps as simulated), 30% for 2 s: a sender per
 * link direction, and each direction's device carries 30% of its capacity
 * in bytes within 15% (bursts of 10 packets on average, exponential on and
 * off times); the same streams give the same bytes; none without traffic;
 * out-of-range settings refused, each with its range.
 */
class CrossTrafficHelperShareTestCase : public WanTestCase
{
  public:
    CrossTrafficHelperShareTestCase()
        : WanTestCase("the background share of each core direction; refusals")
    {
    }

  private:
    /// Counts the bytes each core direction starts to send.
    static void Count(std::map<WanHop, uint64_t>* bytes, WanHop hop, Ptr<const Packet> packet)
    {
        (*bytes)[hop] += packet->GetSize();
    }

    /// @return the bytes each direction sent in 2 s of `utilisation` background traffic
    static std::map<WanHop, uint64_t> Run(double utilisation, uint32_t* senders)
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B"}, {10}));
        net.SetScale(1000);
        net.Install();
        WanCrossTrafficHelper traffic;
        traffic.SetTraffic(utilisation, 1472, 10);
        const auto apps = traffic.Install(net, Seconds(2), {});
        WanCrossTrafficHelper::AssignStreams(apps, 7);
        *senders = apps.GetN();
        std::map<WanHop, uint64_t> bytes;
        for (const auto& hop : {WanHop{0, 1}, WanHop{1, 0}})
        {
            net.GetCoreDevice(hop.first, hop.second)
                ->TraceConnectWithoutContext("PhyTxBegin", MakeBoundCallback(&Count, &bytes, hop));
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        Simulator::Destroy();
        return bytes;
    }

    void DoCheck() override
    {
        uint32_t senders = 0;
        const auto bytes = Run(0.3, &senders);
        NS_TEST_EXPECT_MSG_EQ(senders, 2, "one sender per link direction");
        const double capacity = 100e9 / 1000 / 8 * 2; // bytes in 2 s as simulated
        for (const auto& hop : {WanHop{0, 1}, WanHop{1, 0}})
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(bytes.at(hop) / capacity, 0.3, 0.3 * 0.15, "30% of it");
        }
        uint32_t again = 0;
        NS_TEST_EXPECT_MSG_EQ((Run(0.3, &again) == bytes),
                              true,
                              "the same streams, the same bytes");
        const auto none = Run(0, &again);
        NS_TEST_EXPECT_MSG_EQ(again, 0, "no senders without traffic");
        NS_TEST_EXPECT_MSG_EQ(none.size(), 0, "nothing sent");

        WanCrossTrafficHelper traffic;
        auto e = ErrorOf([&] { traffic.SetTraffic(1, 1472, 10); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "utilisation must be in [0, 1) (got 1)"), true, e);
        e = ErrorOf([&] { traffic.SetTraffic(0.3, 63, 10); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "packets must be 64 to 8972 bytes (got 63)"), true, e);
        e = ErrorOf([&] { traffic.SetTraffic(0.3, 1472, 0.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "a burst must average at least 1 packet (got 0.5)"),
                              true,
                              e);
        NS_TEST_EXPECT_MSG_EQ(traffic.GetUtilisation(), 0, "a refused setting changes nothing");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The WanCrossTrafficHelper test suite.
 */
class WanCrossTrafficTestSuite : public TestSuite
{
  public:
    WanCrossTrafficTestSuite()
        : TestSuite("wan-training-cross-traffic", Type::UNIT)
    {
        AddTestCase(new CrossTrafficHelperShareTestCase);
    }
};

/// The suite's one instance.
static WanCrossTrafficTestSuite g_wanCrossTrafficTestSuite;
