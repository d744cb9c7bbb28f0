/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/error-model.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/seq-ts-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/wan-bfd-helper.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-reconvergence-helper.h"

#include <stdexcept>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// A probe that crossed the WAN: when it was sent, and its one-way delay.
struct Probe
{
    double sent;  //!< seconds
    double delay; //!< seconds
};

/// Sends one probe (sequence number k) every millisecond until `end`.
void
SendProbe(Ptr<Socket> socket, uint32_t k, double end)
{
    SeqTsHeader h;
    h.SetSeq(k);
    auto p = Create<Packet>(100);
    p->AddHeader(h);
    socket->Send(p);
    if (Simulator::Now().GetSeconds() + 1e-3 < end)
    {
        Simulator::Schedule(MilliSeconds(1), &SendProbe, socket, k + 1, end);
    }
}

/// Records every probe received.
void
ReceiveProbes(std::vector<Probe>* probes, Ptr<Socket> socket)
{
    while (auto p = socket->Recv())
    {
        SeqTsHeader h;
        p->RemoveHeader(h);
        probes->push_back({h.GetTs().GetSeconds(), (Simulator::Now() - h.GetTs()).GetSeconds()});
    }
}

/// Makes both receiving devices of a core link drop (1) or pass (0) everything.
void
Cut(Ptr<RateErrorModel> a, Ptr<RateErrorModel> b, double rate)
{
    a->SetRate(rate);
    b->SetRate(rate);
}

/// Keeps a notified routing change.
void
RecordChange(std::vector<WanReconvergenceHelper::Change>* changes,
             const WanReconvergenceHelper::Change& change)
{
    changes->push_back(change);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Triangle A-B (10 ms), A-C (20 ms), B-C (25 ms); probes from island A
 * to island C every millisecond.  A-C is cut at 1 s without telling anyone:
 * BFD (10 ms x 3) detects it, the failure floods (35 ms: A's farthest router
 * without the link is C, via B) and after the 50 ms SPF delay the routes go
 * around it, so the probes arrive again, 15 ms later than before.  When the
 * link heals at 2 s its sessions come up, and the routes come back the same
 * way.
 */
class ReconvergenceTestCase : public WanTestCase
{
  public:
    ReconvergenceTestCase()
        : WanTestCase("a cut link: detected by BFD, routed around after flooding and SPF, back")
    {
    }

  private:
    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(TriangleTopology());
        net.Install();
        WanBfdHelper bfd;
        bfd.SetAttribute("DesiredMinTx", TimeValue(MilliSeconds(10)));
        bfd.SetAttribute("RequiredMinRx", TimeValue(MilliSeconds(10)));
        auto apps = bfd.Install(net);
        WanBfdHelper::AssignStreams(apps, 11);
        WanReconvergenceHelper reconvergence(net);
        reconvergence.Watch(apps);
        std::vector<WanReconvergenceHelper::Change> notified;
        reconvergence.SetChangeCallback(MakeBoundCallback(&RecordChange, &notified));
        NS_TEST_EXPECT_MSG_EQ(reconvergence.FloodingDelay(0, 2), MilliSeconds(35), "A to C via B");
        NS_TEST_EXPECT_MSG_EQ(reconvergence.FloodingDelay(2, 0), MilliSeconds(35), "C to A via B");

        std::vector<Ptr<RateErrorModel>> models;
        for (const auto& [from, to] : {std::pair{0u, 2u}, std::pair{2u, 0u}})
        {
            auto model = CreateObject<RateErrorModel>();
            model->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            model->SetRate(0);
            net.GetCoreDevice(from, to)->SetAttribute("ReceiveErrorModel", PointerValue(model));
            models.push_back(model);
        }
        auto rx = Socket::CreateSocket(net.GetIslands().Get(2), UdpSocketFactory::GetTypeId());
        rx->Bind(InetSocketAddress(Ipv4Address::GetAny(), 7000));
        std::vector<Probe> probes;
        rx->SetRecvCallback(MakeBoundCallback(&ReceiveProbes, &probes));
        auto tx = Socket::CreateSocket(net.GetIslands().Get(0), UdpSocketFactory::GetTypeId());
        tx->Connect(InetSocketAddress(net.GetIslandAddress(2), 7000));
        Simulator::Schedule(Seconds(0.5), &SendProbe, tx, 0, 3.0);
        Simulator::Schedule(Seconds(1), &Cut, models[0], models[1], 1.0);
        Simulator::Schedule(Seconds(2), &Cut, models[0], models[1], 0.0);
        Simulator::Stop(Seconds(3.5));
        Simulator::Run();

        const auto& changes = reconvergence.GetChanges();
        NS_TEST_ASSERT_MSG_EQ(changes.size(), 2, "down, then up");
        NS_TEST_EXPECT_MSG_EQ(notified.size(), 2, "each notified");
        const auto& down = changes[0];
        NS_TEST_EXPECT_MSG_EQ(down.up, false, "");
        NS_TEST_EXPECT_MSG_EQ(down.a * 10 + down.b, 2, "the link A-C");
        NS_TEST_EXPECT_MSG_GT(down.detected.GetSeconds(), 1.0, "only after the cut");
        NS_TEST_EXPECT_MSG_LT(down.detected.GetSeconds(), 1.04, "within 3 x 10 ms (+ jitter)");
        NS_TEST_EXPECT_MSG_EQ(down.converged - down.detected,
                              MilliSeconds(85),
                              "flooding 35 ms + SPF 50 ms");
        const auto& up = changes[1];
        NS_TEST_EXPECT_MSG_EQ(up.up, true, "");
        NS_TEST_EXPECT_MSG_GT(up.detected.GetSeconds(), 2.0, "only after it heals");
        NS_TEST_EXPECT_MSG_EQ(up.converged - up.detected, MilliSeconds(85), "");

        // Probes: 20 ms (A-C) before the cut, none until the routes change,
        // 35 ms (A-B-C) after, 20 ms again once the link is back.
        uint32_t direct = 0;
        uint32_t around = 0;
        for (const auto& p : probes)
        {
            const bool viaB = p.delay > 0.030;
            NS_TEST_EXPECT_MSG_EQ((p.sent < 0.98 || p.sent >= down.converged.GetSeconds()),
                                  true,
                                  "nothing crosses while the routes still use the cut link");
            if (p.sent < 0.98 || p.sent > up.converged.GetSeconds())
            {
                NS_TEST_EXPECT_MSG_EQ(viaB, false, "direct at " << p.sent);
                ++direct;
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(viaB, true, "around at " << p.sent);
                ++around;
            }
        }
        const double outage = down.converged.GetSeconds() - 0.98;
        NS_TEST_EXPECT_MSG_GT(around, 0, "");
        // One probe a millisecond: all but those sent into the outage arrive.
        NS_TEST_EXPECT_MSG_EQ_TOL(static_cast<double>(probes.size()),
                                  2500 - outage * 1000,
                                  2,
                                  "lost: the outage's probes only");
        // 480 probes before the cut; BFD sends once a second while a session
        // is down (RFC 5880), so the link is back only some seconds later.
        NS_TEST_EXPECT_MSG_GT(direct, 480, "before the cut and after the repair");
        NS_TEST_EXPECT_MSG_LT(up.detected.GetSeconds(), 3.5, "back within the run");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief An impossible SPF delay, or ranks for another number of cities, is
 * refused with a message.
 */
class ReconvergenceRefusesTestCase : public WanTestCase
{
  public:
    ReconvergenceRefusesTestCase()
        : WanTestCase("a negative or huge SPF delay, or a partition of other cities, is refused")
    {
    }

  private:
    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(TriangleTopology());
        net.Install();
        WanReconvergenceHelper reconvergence(net);
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { reconvergence.SetSpfDelay(MilliSeconds(-1)); }),
                     "SPF delay -1 ms must be from 0 to 10000 ms"),
            true,
            "negative");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { reconvergence.SetSpfDelay(Seconds(11)); }), "SPF delay"),
            true,
            "too long");
        NS_TEST_EXPECT_MSG_EQ(reconvergence.GetSpfDelay(), MilliSeconds(50), "unchanged");
        const uint32_t devices = net.GetRouters().Get(0)->GetNDevices();
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&]() { reconvergence.Distribute({0, 1}); }),
                              "reconvergence: 2 ranks given for 3 cities",
                              "a rank per city");
        NS_TEST_EXPECT_MSG_EQ(net.GetRouters().Get(0)->GetNDevices(),
                              devices,
                              "refused before a notice device is added");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Unicast reconvergence after BFD detection.
 */
class WanReconvergenceTestSuite : public TestSuite
{
  public:
    WanReconvergenceTestSuite()
        : TestSuite("wan-training-reconvergence", Type::UNIT)
    {
        AddTestCase(new ReconvergenceTestCase);
        AddTestCase(new ReconvergenceRefusesTestCase);
    }
};

/// The suite's instance.
static WanReconvergenceTestSuite g_wanReconvergenceTestSuite;
