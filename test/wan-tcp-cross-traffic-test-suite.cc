/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-hybla.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-collective-experiment.h"
#include "ns3/wan-cross-traffic-helper.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-tcp-bulk-sender.h"
#include "ns3/wan-tcp-bulk-sink.h"
#include "ns3/wan-tcp-cross-traffic-helper.h"
#include "ns3/wan-topology.h"

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// Payload bytes a sink received from `from` on.
struct Window
{
    Time from;         //!< where counting begins
    uint64_t bytes{0}; //!< bytes since
};

/**
 * @param window the count
 * @param packet bytes received
 */
void
CountAfter(Window* window, Ptr<const Packet> packet, const Address&)
{
    if (Simulator::Now() >= window->from)
    {
        window->bytes += packet->GetSize();
    }
}

/**
 * @param queue the core queue (WanNetworkHelper::SetCoreQueue)
 * @return islands A and B joined by 10 ms of 100 Gbps, at scale 1000 (100 Mbps)
 */
WanNetworkHelper
TwoRouters(const std::string& queue = "fq-codel")
{
    Ipv4AddressGenerator::Reset();
    WanNetworkHelper net(LineTopology({"A", "B"}, {10}));
    net.SetScale(1000);
    net.SetCoreQueue(queue, 1000);
    net.Install();
    return net;
}

/// Payload bytes per second a connection can carry at most on A-B as simulated.
constexpr double kGoodput = 100e6 / 8 * 8948 / 9002;

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The buffers by hand on A-B (100 Mbps as simulated, 10 ms, MTU 9000):
 * the round trip 20 ms plus one frame of 9002 bytes (0.72016 ms), the
 * product 12.5 MB/s x 20.72016 ms = 259002 bytes, a send buffer of twice
 * that, 518004; the sink's receive buffer 2 x 518004 + 2 x 8948 = 1053904,
 * plus 1053904 / 16384 = 64 for the window scale's rounding, 1053968;
 * segments of 9000 - 52 = 8948. Two flows per direction: 2 sinks, 4
 * senders. Refused: 65 connections, a type that is not a congestion control.
 */
class TcpCrossTrafficBuffersTestCase : public WanTestCase
{
  public:
    TcpCrossTrafficBuffersTestCase()
        : WanTestCase("buffers and segments by hand; refusals")
    {
    }

  private:
    void DoCheck() override
    {
        auto net = TwoRouters();
        NS_TEST_EXPECT_MSG_EQ_TOL(WanTcpCrossTrafficHelper::BandwidthDelayProduct(net, 0, 1),
                                  259002,
                                  0.5,
                                  "12.5 MB/s x 20.72016 ms");
        WanTcpCrossTrafficHelper traffic;
        NS_TEST_EXPECT_MSG_EQ(traffic.Install(net, Seconds(1), {}).GetN(), 0, "none by default");
        traffic.SetFlows(2, TcpNewReno::GetTypeId());
        const auto apps = traffic.Install(net, Seconds(1), {});
        NS_TEST_EXPECT_MSG_EQ(apps.GetN(), 2 + 4, "a sink per router, 2 senders per direction");
        UintegerValue value;
        apps.Get(0)->GetAttribute("ReceiveBuffer", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 1053968, "the sink's receive buffer");
        apps.Get(0)->GetAttribute("SegmentSize", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 8948, "the sink's segments");
        apps.Get(2)->GetAttribute("SendBuffer", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 518004, "twice the product");
        apps.Get(2)->GetAttribute("SegmentSize", value);
        NS_TEST_EXPECT_MSG_EQ(value.Get(), 8948, "the sender's segments");
        TypeIdValue congestion;
        apps.Get(5)->GetAttribute("CongestionControl", congestion);
        NS_TEST_EXPECT_MSG_EQ(congestion.Get(), TcpNewReno::GetTypeId(), "the one set");
        Simulator::Destroy();

        auto e = ErrorOf([&] { traffic.SetFlows(65, TcpNewReno::GetTypeId()); });
        NS_TEST_EXPECT_MSG_EQ(e,
                              "TCP cross traffic: connections per direction must be from 0 to 64 "
                              "connections (got 65 connections)",
                              e);
        e = ErrorOf([&] { traffic.SetFlows(1, TcpSocket::GetTypeId()); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "ns3::TcpSocket is not a TCP congestion control"),
                              true,
                              e);
        NS_TEST_EXPECT_MSG_EQ(traffic.GetFlows(), 2, "a refused setting changes nothing");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief What CUBIC connections carry on A-B (100 Mbps as simulated, at most
 * 99.40 Mbit/s of payload in frames of 9002 bytes), counted at A's sink
 * from 1 s to 3 s, as shares of that:
 * - one connection B to A alone, with the helper's buffers, fills the link:
 *   over 95% (measured 99.99%);
 * - with a connection A to B too, each is held to 70 to 90% (measured 80%:
 *   its ACKs wait behind the other direction's segments in the device's
 *   drop-tail queue and come back bunched, two-way traffic's ACK
 *   compression, and its send buffer of twice the product is then less
 *   than what the longer round trip needs); four per direction fill it
 *   again, over 95% (measured 100%);
 * - beside UDP bursts that take 50% of the link on average
 *   (WanCrossTrafficHelper), through a drop-tail FIFO core queue, four
 *   connections back off to what the bursts leave, 50% within 10 points
 *   (measured 48%);
 * - with ns-3's default send buffer, 131072 bytes, a connection is capped at
 *   the whole segments it holds per round trip, 14 x 8948 bytes / 20.72 ms =
 *   48.4 Mbit/s, within 5% (measured 46.9).
 */
class TcpCrossTrafficShareTestCase : public WanTestCase
{
  public:
    TcpCrossTrafficShareTestCase()
        : WanTestCase("fills the link, backs off beside UDP bursts, capped by default buffers")
    {
    }

  private:
    /// A run's settings.
    struct Settings
    {
        uint32_t flows{1};             //!< connections per direction
        bool twoWay{true};             //!< whether A to B sends too
        double udp{0};                 //!< UDP bursts' share (0: none)
        std::string queue{"fq-codel"}; //!< the core queue
        uint32_t sendBuffer{0};        //!< send buffers (0: the helper's)
    };

    /**
     * @param settings the run
     * @return the payload rate A's sink received from 1 s to 3 s, as a
     *         share of the most the link carries
     */
    static double Run(const Settings& settings)
    {
        auto net = TwoRouters(settings.queue);
        WanTcpCrossTrafficHelper traffic;
        traffic.SetFlows(settings.flows, TcpCubic::GetTypeId());
        const auto apps = traffic.Install(net, Seconds(3), {});
        // The sinks of A and B, then A to B's senders, then B to A's.
        for (uint32_t i = 2; i < apps.GetN(); ++i)
        {
            if (settings.sendBuffer > 0)
            {
                apps.Get(i)->SetAttribute("SendBuffer", UintegerValue(settings.sendBuffer));
            }
            if (!settings.twoWay && i < 2 + settings.flows)
            {
                apps.Get(i)->SetStartTime(Seconds(4)); // after the run
            }
        }
        WanCrossTrafficHelper bursts;
        if (settings.udp > 0)
        {
            bursts.SetTraffic(settings.udp, 1472, 10);
            WanCrossTrafficHelper::AssignStreams(bursts.Install(net, Seconds(3), {}), 11);
        }
        Window window{Seconds(1)};
        apps.Get(0)->TraceConnectWithoutContext("Rx", MakeBoundCallback(&CountAfter, &window));
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        Simulator::Destroy();
        return window.bytes / 2.0 / kGoodput;
    }

    void DoCheck() override
    {
        Settings alone;
        alone.twoWay = false;
        NS_TEST_EXPECT_MSG_GT(Run(alone), 0.95, "one connection alone fills the link");
        const double twoWay = Run(Settings{});
        NS_TEST_EXPECT_MSG_GT(twoWay, 0.7, "two-way, one connection each");
        NS_TEST_EXPECT_MSG_LT(twoWay, 0.9, "held by ACK compression");
        Settings four;
        four.flows = 4;
        NS_TEST_EXPECT_MSG_GT(Run(four), 0.95, "four per direction fill it");
        four.udp = 0.5;
        four.queue = "fifo";
        NS_TEST_EXPECT_MSG_EQ_TOL(Run(four), 0.5, 0.1, "what the bursts leave");
        Settings small;
        small.sendBuffer = 131072;
        const double rtt = 0.020 + 8.0 * 9002 / 100e6;
        NS_TEST_EXPECT_MSG_EQ_TOL(Run(small) * kGoodput / (14 * 8948 / rtt),
                                  1,
                                  0.05,
                                  "default buffers: their whole segments per round trip");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Nothing lost or counted twice: a WanTcpBulkSender with MaxBytes
 * 3,000,001 (335 segments of 8948 bytes and one of 5421) from A's router to
 * a WanTcpBulkSink on B's hands over and delivers exactly 3,000,001 bytes,
 * then closes; one connection accepted; on a lossless link nothing is sent
 * again.
 */
class TcpBulkExactTestCase : public WanTestCase
{
  public:
    TcpBulkExactTestCase()
        : WanTestCase("MaxBytes delivered exactly, once")
    {
    }

  private:
    void DoCheck() override
    {
        auto net = TwoRouters();
        auto sink = CreateObject<WanTcpBulkSink>();
        sink->SetAttribute("SegmentSize", UintegerValue(8948));
        sink->SetAttribute("ReceiveBuffer", UintegerValue(2000000));
        net.GetRouters().Get(1)->AddApplication(sink);
        auto sender = CreateObject<WanTcpBulkSender>();
        sender->SetAttribute("Remote",
                             AddressValue(InetSocketAddress(net.GetCoreAddress(1, 0), 5301)));
        sender->SetAttribute("SegmentSize", UintegerValue(8948));
        sender->SetAttribute("SendBuffer", UintegerValue(600000));
        sender->SetAttribute("MaxBytes", UintegerValue(3000001));
        net.GetRouters().Get(0)->AddApplication(sender);
        sink->SetStartTime(Seconds(0));
        sender->SetStartTime(Seconds(0.1));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(sender->IsConnected(), true, "connected");
        NS_TEST_EXPECT_MSG_EQ(sender->GetBytesSent(), 3000001, "handed over");
        NS_TEST_EXPECT_MSG_EQ(sink->GetBytesReceived(), 3000001, "delivered");
        NS_TEST_EXPECT_MSG_EQ(sink->GetConnections(), 1, "one connection");
        NS_TEST_EXPECT_MSG_EQ(sender->GetRetransmissions(), 0, "nothing sent again");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A WanTcpBulkSender's CongestionControl governs its own connection:
 * one connection from A's router to B's over 1% random loss on A-B (100
 * Mbps as simulated, 50 ms one way), 20 s counted after 1 s. NewReno grows
 * its window by a segment a round trip and halves it at each loss, held
 * under a quarter of the link; Hybla grows it (RTT / 25 ms)^2 = 16 times as
 * fast and carries over twice as much (measured 8.65 and 24.2 Mbit/s). With the router's default
 * socket type Hybla, the sender's NewReno still governs: the same bytes as with the default
 * NewReno, to the byte (the same loss draws).
 */
class TcpBulkCongestionControlTestCase : public WanTestCase
{
  public:
    TcpBulkCongestionControlTestCase()
        : WanTestCase("the sender's congestion control governs its connection")
    {
    }

  private:
    /**
     * @param control the sender's CongestionControl
     * @param routerDefault the sending router's default socket type
     * @return payload bytes B's sink received from 1 s to 21 s
     */
    static uint64_t Delivered(TypeId control, TypeId routerDefault)
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B"}, {50}));
        net.SetScale(1000);
        WanLinkImpairment loss;
        loss.lossRate = 0.01;
        net.SetImpairment(WanNetworkHelper::CORE, loss);
        net.Install();
        net.AssignStreams(1); // the same loss draws in every run
        net.GetRouters().Get(0)->GetObject<TcpL4Protocol>()->SetAttribute(
            "SocketType",
            TypeIdValue(routerDefault));
        auto sink = CreateObject<WanTcpBulkSink>();
        sink->SetAttribute("SegmentSize", UintegerValue(8948));
        sink->SetAttribute("ReceiveBuffer", UintegerValue(8000000));
        net.GetRouters().Get(1)->AddApplication(sink);
        Window window{Seconds(1)};
        sink->TraceConnectWithoutContext("Rx", MakeBoundCallback(&CountAfter, &window));
        auto sender = CreateObject<WanTcpBulkSender>();
        sender->SetAttribute("Remote",
                             AddressValue(InetSocketAddress(net.GetCoreAddress(1, 0), 5301)));
        sender->SetAttribute("SegmentSize", UintegerValue(8948));
        sender->SetAttribute("SendBuffer", UintegerValue(4000000));
        sender->SetAttribute("CongestionControl", TypeIdValue(control));
        net.GetRouters().Get(0)->AddApplication(sender);
        sink->SetStartTime(Seconds(0));
        sender->SetStartTime(Seconds(0.1));
        Simulator::Stop(Seconds(21));
        Simulator::Run();
        Simulator::Destroy();
        return window.bytes;
    }

    void DoCheck() override
    {
        const auto newReno = TcpNewReno::GetTypeId();
        const auto hybla = TcpHybla::GetTypeId();
        const uint64_t reno = Delivered(newReno, newReno);
        const uint64_t fast = Delivered(hybla, newReno);
        NS_TEST_EXPECT_MSG_GT(reno, 0, "NewReno carries something");
        NS_TEST_EXPECT_MSG_LT(reno * 8 / 20.0, 25e6, "NewReno: held by the loss");
        NS_TEST_EXPECT_MSG_GT(fast, 2 * reno, "Hybla grows 16 times as fast");
        NS_TEST_EXPECT_MSG_EQ(Delivered(newReno, hybla), reno, "the sender's own control governs");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The elastic traffic in both systems' runs. Triangles, one round on
 * the nine cities at scale 1000 (oracle detection, planner trees, so NYC->LON
 * carries no training): with one CUBIC connection per core link direction
 * the sums stay exact, NYC->LON carries the connection's bytes, over 60% of
 * the link over the round's window (0 without it), the round takes longer
 * than without it, and the result counts what the sinks received (over the
 * NYC->LON share alone). The ring all-reduce over TCP (3 GB on the triangle
 * A, B, C, at scale 1000) stays exact and takes longer beside it, and counts it too.
 * Refused: a congestion control no type is named.
 */
class TcpCrossTrafficExperimentTestCase : public WanTestCase
{
  public:
    TcpCrossTrafficExperimentTestCase()
        : WanTestCase("in the island rounds and the TCP collectives: exact, slower, counted")
    {
    }

  private:
    /**
     * @param flows connections per direction
     * @return triangles' round
     */
    static WanExperimentResult RunTriangles(uint32_t flows)
    {
        const auto topo = WanTopology::NineCity();
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(1000);
        experiment.SetRounds(1);
        experiment.SetFaultDetection("oracle");
        experiment.SetTreeBuilding("planner");
        experiment.SetTcpCrossTraffic(flows, "ns3::TcpCubic");
        return experiment.Run(CliqueScheduleBuiltins::Make("triangles", topo));
    }

    /**
     * @param flows connections per direction
     * @return the ring's sync
     */
    static WanCollectiveResult RunRing(uint32_t flows)
    {
        WanCollectiveExperiment experiment(TriangleTopology());
        experiment.SetScale(1000);
        experiment.SetPayload(3e9);
        experiment.SetTcpCrossTraffic(flows);
        return experiment.Run(WanCollectiveExperiment::RING);
    }

    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        const WanHop nycLon{topo.FindCity("NYC"), topo.FindCity("LON")};
        const auto quiet = RunTriangles(0);
        const auto busy = RunTriangles(1);
        NS_TEST_ASSERT_MSG_EQ(busy.rounds.size(), 1, "one round");
        NS_TEST_EXPECT_MSG_EQ(busy.exact, true, "sums exact beside it");
        NS_TEST_EXPECT_MSG_EQ(quiet.rounds[0].coreBytes.at(nycLon), 0, "no training on NYC->LON");
        NS_TEST_EXPECT_MSG_EQ(quiet.crossTcpBytes, 0, "none without it");
        // The round's window: T (1 + 10%) = 507.76 x 1.1 ms, at 100 Mbps.
        const double window = 100e9 / 1000 / 8 * 0.50776 * 1.1;
        const auto nycLonBytes = busy.rounds[0].coreBytes.at(nycLon);
        NS_TEST_EXPECT_MSG_GT(nycLonBytes / window, 0.6, "the connection's share of NYC->LON");
        NS_TEST_EXPECT_MSG_GT(busy.rounds[0].measuredMs,
                              quiet.rounds[0].measuredMs,
                              "the round takes longer");
        NS_TEST_EXPECT_MSG_GT(busy.crossTcpBytes, nycLonBytes, "every sink's bytes counted");
        const auto quietRing = RunRing(0);
        const auto busyRing = RunRing(1);
        NS_TEST_EXPECT_MSG_EQ(busyRing.exact, true, "the ring's sums exact beside it");
        NS_TEST_EXPECT_MSG_GT(busyRing.seconds, quietRing.seconds, "and slower");
        NS_TEST_EXPECT_MSG_EQ(quietRing.crossTcpBytes, 0, "");
        NS_TEST_EXPECT_MSG_GT(busyRing.crossTcpBytes, 0, "counted");
        const auto e = ErrorOf([] {
            CliqueExperimentHelper(WanTopology::NineCity(), PlannerConfig{})
                .SetTcpCrossTraffic(1, "ns3::TcpNope");
        });
        NS_TEST_EXPECT_MSG_EQ(
            e,
            "TCP cross traffic: no type named ns3::TcpNope (a congestion control such as "
            "ns3::TcpCubic)",
            e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The WanTcpCrossTrafficHelper, WanTcpBulkSender and WanTcpBulkSink
 * test suite.
 */
class WanTcpCrossTrafficTestSuite : public TestSuite
{
  public:
    WanTcpCrossTrafficTestSuite()
        : TestSuite("wan-training-tcp-cross-traffic", Type::UNIT)
    {
        AddTestCase(new TcpCrossTrafficBuffersTestCase);
        AddTestCase(new TcpCrossTrafficShareTestCase);
        AddTestCase(new TcpBulkExactTestCase);
        AddTestCase(new TcpBulkCongestionControlTestCase);
        AddTestCase(new TcpCrossTrafficExperimentTestCase);
    }
};

/// The suite's one instance.
static WanTcpCrossTrafficTestSuite g_wanTcpCrossTrafficTestSuite;
