/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/config.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv4-l3-protocol.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/trace-helper.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wan-edge-routing.h"
#include "ns3/wan-multicast-route-helper.h"
#include "ns3/wan-network-helper.h"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

const uint16_t kPort = 9000;

/// Receptions per node id, and the time of the last one.
struct Receptions
{
    std::map<uint32_t, uint32_t> count; //!< packets per node id
    Time last;                          //!< time of the last packet

    /// Socket receive callback.
    void Receive(Ptr<Socket> socket)
    {
        while (socket->Recv())
        {
            ++count[socket->GetNode()->GetId()];
            last = Simulator::Now();
        }
    }
};

/// Opens a UDP socket on every island, counting into `rx`.
void
ListenOnIslands(const WanNetworkHelper& net, Receptions& rx)
{
    for (uint32_t c = 0; c < net.GetIslands().GetN(); ++c)
    {
        auto socket = Socket::CreateSocket(net.GetIslands().Get(c), UdpSocketFactory::GetTypeId());
        socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
        socket->SetRecvCallback(MakeCallback(&Receptions::Receive, &rx));
    }
}

/// Sends one UDP packet of `bytes` from island `city` to `to` at time 0.
void
SendOne(const WanNetworkHelper& net, uint32_t city, Ipv4Address to, uint32_t bytes)
{
    auto socket = Socket::CreateSocket(net.GetIslands().Get(city), UdpSocketFactory::GetTypeId());
    socket->Connect(InetSocketAddress(to, kPort));
    Simulator::Schedule(Seconds(0), [socket, bytes] { socket->Send(Create<Packet>(bytes)); });
}

/// Counts the packets each core device finishes transmitting.
struct LinkCopies
{
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> copies; //!< (from, to) -> packets

    /// Hooks every core device of the network.
    void Watch(const WanNetworkHelper& net)
    {
        for (const auto& l : net.GetTopology().GetLinks())
        {
            for (auto [from, to] : {std::make_pair(l.a, l.b), std::make_pair(l.b, l.a)})
            {
                copies[{from, to}] = 0;
                net.GetCoreDevice(from, to)->TraceConnectWithoutContext(
                    "PhyTxEnd",
                    MakeCallback(&LinkCopies::Count, this).Bind(from, to));
            }
        }
    }

    /// PhyTxEnd callback (bound to the link direction).
    void Count(uint32_t from, uint32_t to, Ptr<const Packet>)
    {
        ++copies[{from, to}];
    }
};

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The three-island line: one unicast packet's delivery time by hand.
 */
class NetworkDeliveryTestCase : public WanTestCase
{
  public:
    NetworkDeliveryTestCase()
        : WanTestCase("three-island line: delivery time = latency + serialization per hop")
    {
    }

  private:
    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B", "C"}, {10, 20}));
        net.Install();
        NS_TEST_EXPECT_MSG_EQ(net.GetRouters().GetN(), 3, "a router per city");
        NS_TEST_EXPECT_MSG_EQ(net.GetIslands().GetN(), 3, "an island per city");
        Receptions rx;
        ListenOnIslands(net, rx);
        SendOne(net, 0, net.GetIslandAddress(2), 1000);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rx.count[net.GetIslands().Get(2)->GetId()], 1, "delivered once");
        // 1000 B + UDP 8 + IP 20 + PPP 2 = 1030 B = 8240 bit on six hops: two
        // access hops at 20 Gbps, two edge hops at 400 Gbps, two core hops at
        // 100 Gbps: 8240 x (2/20e9 + 2/400e9 + 2/100e9) s = 1.03 us, plus 30 ms.
        NS_TEST_EXPECT_MSG_EQ_TOL(rx.last.GetSeconds(), 0.030 + 1.03e-6, 2e-9, "arrival time");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Source-specific trees: one copy per tree link, one packet per
 * receiver, nothing elsewhere; on the nine-city topology too.
 */
class MulticastTreeTestCase : public WanTestCase
{
  public:
    MulticastTreeTestCase()
        : WanTestCase("multicast trees: one copy per tree link, each receiver once")
    {
    }

  private:
    void Check(const WanTopology& topo, uint32_t source, const std::vector<uint32_t>& receivers)
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(topo);
        net.Install();
        auto group = WanNetworkHelper::GroupAddress(1, source);
        WanMulticastRouteHelper(net).InstallTree(source, receivers, group, true);
        Receptions rx;
        ListenOnIslands(net, rx);
        LinkCopies links;
        links.Watch(net);
        SendOne(net, source, group, 8000);
        Simulator::Run();
        auto tree = topo.GetMulticastTree(source, receivers);
        for (const auto& [hop, n] : links.copies)
        {
            bool onTree =
                std::find(tree.begin(), tree.end(), WanHop(hop.first, hop.second)) != tree.end();
            uint32_t expected = onTree ? 1 : 0;
            NS_TEST_EXPECT_MSG_EQ(n,
                                  expected,
                                  topo.GetCity(hop.first).code << "->"
                                                               << topo.GetCity(hop.second).code);
        }
        for (uint32_t c = 0; c < topo.GetNCities(); ++c)
        {
            bool receiver =
                c != source && std::find(receivers.begin(), receivers.end(), c) != receivers.end();
            uint32_t expected = receiver ? 1 : 0;
            NS_TEST_EXPECT_MSG_EQ(rx.count[net.GetIslands().Get(c)->GetId()],
                                  expected,
                                  "island " << topo.GetCity(c).code);
        }
        Simulator::Destroy();
    }

    void DoCheck() override
    {
        Check(LineTopology({"A", "B", "C"}, {10, 20}), 0, {1, 2});
        auto nine = WanTopology::NineCity();
        Check(nine,
              nine.FindCity("NYC"),
              {nine.FindCity("LAX"),
               nine.FindCity("BUE"),
               nine.FindCity("TYO"),
               nine.FindCity("FRA")});
        Check(nine, nine.FindCity("SIN"), {nine.FindCity("SEO"), nine.FindCity("AMS")});
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Local delivery of multicast (WanEdgeRouting, static routing on
 * routers): a stream reaches the sockets of the receivers' edge nodes (their
 * FPGAs) and nothing else: not its own edge node, not the routers it
 * crosses; and no edge node when edge delivery is off.  An in-line tap on an
 * edge is offered the inbound stream (not its island's own) before the
 * node's sockets: what it takes no socket receives, what it declines the
 * socket does.
 */
class EdgeDeliveryTestCase : public WanTestCase
{
  public:
    EdgeDeliveryTestCase()
        : WanTestCase("multicast delivered locally at the receivers' edge nodes only")
    {
    }

  private:
    /// An in-line tap on an edge: counts what it is offered, takes it or not.
    struct Tap
    {
        bool take{false};    //!< take what it is offered
        uint32_t offered{0}; //!< packets offered

        /// WanEdgeRouting::InlineTap.
        bool Offer(Ptr<const Packet>, const Ipv4Header&)
        {
            ++offered;
            return take;
        }
    };

    /**
     * @param deliver edge delivery on
     * @param tap with a tap on A's and C's edges
     * @param take the taps take what they are offered
     */
    void Check(bool deliver, bool tap = false, bool take = false)
    {
        Ipv4AddressGenerator::Reset();
        const auto topo = LineTopology({"A", "B", "C"}, {10, 20});
        WanNetworkHelper net(topo);
        net.SetEdgeMulticastDelivery(deliver);
        net.Install();
        const auto group = WanNetworkHelper::GroupAddress(1, 0);
        WanMulticastRouteHelper(net).InstallTree(0, {0, 2}, group, false); // A to C, through B
        Tap taps[2];
        if (tap)
        {
            for (uint32_t k = 0; k < 2; ++k)
            {
                taps[k].take = take;
                auto edge = net.GetEdges().Get(2 * k); // A's, then C's
                DynamicCast<WanEdgeRouting>(edge->GetObject<Ipv4>()->GetRoutingProtocol())
                    ->SetInlineTap(MakeCallback(&Tap::Offer, &taps[k]));
            }
        }
        Receptions rx;
        for (const auto* nodes : {&net.GetEdges(), &net.GetRouters()})
        {
            for (uint32_t c = 0; c < nodes->GetN(); ++c)
            {
                auto socket = Socket::CreateSocket(nodes->Get(c), UdpSocketFactory::GetTypeId());
                socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), kPort));
                socket->SetRecvCallback(MakeCallback(&Receptions::Receive, &rx));
            }
        }
        SendOne(net, 0, group, 1000);
        Simulator::Run();
        NS_TEST_EXPECT_MSG_EQ(rx.count[net.GetEdges().Get(2)->GetId()],
                              (deliver && !take ? 1 : 0),
                              "C's edge node (its FPGA) gets the inbound stream");
        NS_TEST_EXPECT_MSG_EQ(taps[1].offered,
                              (deliver && tap ? 1 : 0),
                              "C's tap is offered the inbound stream first");
        NS_TEST_EXPECT_MSG_EQ(taps[0].offered, 0, "A's tap is not offered A's own stream");
        NS_TEST_EXPECT_MSG_EQ(rx.count[net.GetEdges().Get(0)->GetId()], 0, "not A's own");
        for (uint32_t c = 0; c < 3; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(rx.count[net.GetRouters().Get(c)->GetId()],
                                  0,
                                  "routers forward without delivering");
        }
        Simulator::Destroy();
    }

    void DoCheck() override
    {
        Check(true);
        Check(false);
        Check(true, true, true);  // taken: no socket receives it
        Check(true, true, false); // declined: the socket does
        Check(false, true, true); // no delivery: no tap is offered anything
    }
};

namespace
{

uint32_t g_forwarded = 0; //!< multicast forwarding callbacks seen

/// Counts a multicast forwarding decision.
void
CountForward(Ptr<Ipv4MulticastRoute>, Ptr<const Packet>, const Ipv4Header&)
{
    ++g_forwarded;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Reverse-path forwarding: the (S,G) route matches only on the
 * interface facing S.
 */
class ReversePathTestCase : public WanTestCase
{
  public:
    ReversePathTestCase()
        : WanTestCase("a packet on a non-RPF interface is dropped")
    {
    }

  private:
    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B", "C"}, {10, 20}));
        net.Install();
        auto group = WanNetworkHelper::GroupAddress(2, 0);
        WanMulticastRouteHelper(net).InstallTree(0, {1, 2}, group, false);
        auto routerB = net.GetRouters().Get(1);
        auto routing = Ipv4StaticRoutingHelper().GetStaticRouting(routerB->GetObject<Ipv4>());
        Ipv4Header header;
        header.SetSource(net.GetIslandAddress(0));
        header.SetDestination(group);
        auto packet = Create<Packet>(100);
        Ipv4RoutingProtocol::UnicastForwardCallback ucb;
        Ipv4RoutingProtocol::LocalDeliverCallback lcb;
        Ipv4RoutingProtocol::ErrorCallback ecb;
        auto mcb = MakeCallback(&CountForward);
        g_forwarded = 0;
        bool fromA =
            routing->RouteInput(packet, header, net.GetCoreDevice(1, 0), ucb, mcb, lcb, ecb);
        NS_TEST_EXPECT_MSG_EQ(fromA, true, "arriving from A (towards S): forwarded");
        NS_TEST_EXPECT_MSG_EQ(g_forwarded, 1, "one forwarding decision");
        bool fromC =
            routing->RouteInput(packet, header, net.GetCoreDevice(1, 2), ucb, mcb, lcb, ecb);
        NS_TEST_EXPECT_MSG_EQ(fromC, false, "arriving from C: no route, dropped");
        NS_TEST_EXPECT_MSG_EQ(g_forwarded, 1, "no forwarding");
        // ns-3's static multicast routes match the group and the input
        // interface (not the origin); the module gives every (round, source)
        // its own group, so a group without a tree has no state at all.
        header.SetDestination(WanNetworkHelper::GroupAddress(2, 1));
        bool noTree =
            routing->RouteInput(packet, header, net.GetCoreDevice(1, 0), ucb, mcb, lcb, ecb);
        NS_TEST_EXPECT_MSG_EQ(noTree, false, "a group without a tree: dropped");
        NS_TEST_EXPECT_MSG_EQ(g_forwarded, 1, "no forwarding");
        Simulator::Destroy();
    }
};

namespace
{

uint32_t g_delivered = 0;     //!< local deliveries seen
uint32_t g_deliveredIif = 99; //!< the interface of the last one

/// Counts a local delivery and its interface.
void
CountLocal(Ptr<const Packet>, const Ipv4Header&, uint32_t iif)
{
    ++g_delivered;
    g_deliveredIif = iif;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief A router delivers link-local multicast (224.0.0.0/24: PIM's
 * ALL-PIM-ROUTERS) locally, on the interface it came in by, and data
 * multicast never (WanRouterRouting).
 */
class RouterLinkLocalTestCase : public WanTestCase
{
  public:
    RouterLinkLocalTestCase()
        : WanTestCase("routers deliver link-local multicast locally, data multicast not")
    {
    }

  private:
    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B", "C"}, {10, 20}));
        net.Install();
        auto group = WanNetworkHelper::GroupAddress(2, 0);
        WanMulticastRouteHelper(net).InstallTree(0, {1, 2}, group, false);
        auto ipv4 = net.GetRouters().Get(1)->GetObject<Ipv4>();
        auto routing = ipv4->GetRoutingProtocol();
        const auto fromA = net.GetCoreDevice(1, 0);
        Ipv4Header header;
        header.SetSource(net.GetCoreAddress(0, 1));
        header.SetDestination(Ipv4Address("224.0.0.13"));
        header.SetProtocol(103);
        header.SetTtl(1);
        auto packet = Create<Packet>(30);
        Ipv4RoutingProtocol::UnicastForwardCallback ucb;
        Ipv4RoutingProtocol::ErrorCallback ecb;
        auto mcb = MakeCallback(&CountForward);
        Ipv4RoutingProtocol::LocalDeliverCallback lcb = MakeCallback(&CountLocal);
        g_delivered = 0;
        g_forwarded = 0;
        NS_TEST_EXPECT_MSG_EQ(routing->RouteInput(packet, header, fromA, ucb, mcb, lcb, ecb),
                              true,
                              "ALL-PIM-ROUTERS: taken");
        NS_TEST_EXPECT_MSG_EQ(g_delivered, 1, "delivered locally");
        NS_TEST_EXPECT_MSG_EQ(g_deliveredIif,
                              static_cast<uint32_t>(ipv4->GetInterfaceForDevice(fromA)),
                              "on the interface from A");
        NS_TEST_EXPECT_MSG_EQ(g_forwarded, 0, "never forwarded");
        // The stream of A's island: forwarded on its tree, not delivered.
        header.SetSource(net.GetIslandAddress(0));
        header.SetDestination(group);
        header.SetProtocol(17);
        header.SetTtl(64);
        NS_TEST_EXPECT_MSG_EQ(routing->RouteInput(packet, header, fromA, ucb, mcb, lcb, ecb),
                              true,
                              "the stream: taken");
        NS_TEST_EXPECT_MSG_EQ(g_forwarded, 1, "forwarded");
        NS_TEST_EXPECT_MSG_EQ(g_delivered, 1, "not delivered");
        // 224.0.1.1 is not link-local: no route, not delivered.
        header.SetDestination(Ipv4Address("224.0.1.1"));
        NS_TEST_EXPECT_MSG_EQ(routing->RouteInput(packet, header, fromA, ucb, mcb, lcb, ecb),
                              false,
                              "224.0.1.1: no route");
        NS_TEST_EXPECT_MSG_EQ(g_delivered, 1, "not delivered");
        Simulator::Destroy();
    }
};

namespace
{

/// The routers each test packet crossed, by packet (one packet per second).
struct RouterPaths
{
    std::vector<std::vector<uint32_t>> routers; //!< per packet, cities whose router forwarded it

    /// Ipv4L3Protocol UnicastForward sink of the router of `city`.
    static void Forward(RouterPaths* paths,
                        uint32_t city,
                        const Ipv4Header&,
                        Ptr<const Packet>,
                        uint32_t)
    {
        const auto k = static_cast<size_t>(Simulator::Now().GetSeconds());
        paths->routers.resize(std::max(paths->routers.size(), k + 1));
        paths->routers[k].push_back(city);
    }
};

/**
 * @brief Sends one packet per ordered pair of islands, a second apart, and
 * records the routers each crossed.
 * @param net the network (installed)
 * @param start first second to use (the number of pairs sent before)
 * @param pairs filled with the (from, to) pair of each packet, packet k at k seconds
 * @param paths the recorder (connected by this call on the first use)
 * @param rx receptions
 */
void
SendEveryPair(const WanNetworkHelper& net,
              uint32_t start,
              std::vector<std::pair<uint32_t, uint32_t>>& pairs,
              RouterPaths& paths)
{
    const uint32_t n = net.GetTopology().GetNCities();
    if (start == 0)
    {
        for (uint32_t c = 0; c < n; ++c)
        {
            net.GetRouters().Get(c)->GetObject<Ipv4L3Protocol>()->TraceConnectWithoutContext(
                "UnicastForward",
                MakeBoundCallback(&RouterPaths::Forward, &paths, c));
        }
    }
    for (uint32_t s = 0; s < n; ++s)
    {
        for (uint32_t d = 0; d < n; ++d)
        {
            if (s == d)
            {
                continue;
            }
            const auto at = static_cast<uint32_t>(pairs.size()); // packet k leaves at k s
            pairs.emplace_back(s, d);
            auto socket =
                Socket::CreateSocket(net.GetIslands().Get(s), UdpSocketFactory::GetTypeId());
            socket->Connect(InetSocketAddress(net.GetIslandAddress(d), kPort));
            Simulator::Schedule(Seconds(at), [socket] { socket->Send(Create<Packet>(100)); });
        }
    }
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Unicast packets cross the routers of the planner's path
 * (WanTopology::GetPath) for every ordered pair of islands, also while a
 * core link is down.
 */
class UnicastPathTestCase : public WanTestCase
{
  public:
    /**
     * @param name what topology
     * @param topo the topology
     * @param down a core link (a, b) to take down for a second pass, or a = b: none
     */
    UnicastPathTestCase(const std::string& name,
                        const WanTopology& topo,
                        std::pair<uint32_t, uint32_t> down = {0, 0})
        : WanTestCase("unicast packets follow the planner's paths: " + name),
          m_topo(topo),
          m_down(down)
    {
    }

  private:
    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(m_topo);
        net.Install();
        Receptions rx;
        ListenOnIslands(net, rx);
        RouterPaths paths;
        std::vector<std::pair<uint32_t, uint32_t>> pairs;
        SendEveryPair(net, 0, pairs, paths);
        const auto healthy = static_cast<uint32_t>(pairs.size());
        std::vector<WanTopology> expected(healthy, m_topo);
        if (m_down.first != m_down.second)
        {
            // Down for a pass, then up again for another.
            const auto a = m_down.first;
            const auto b = m_down.second;
            Simulator::Schedule(Seconds(healthy) - MilliSeconds(500),
                                &WanNetworkHelper::SetLinkUp,
                                &net,
                                a,
                                b,
                                false);
            SendEveryPair(net, healthy, pairs, paths);
            Simulator::Schedule(Seconds(2 * healthy) - MilliSeconds(500),
                                &WanNetworkHelper::SetLinkUp,
                                &net,
                                a,
                                b,
                                true);
            SendEveryPair(net, 2 * healthy, pairs, paths);
            auto without = m_topo.WithoutLink(m_topo.GetCity(a).code, m_topo.GetCity(b).code);
            expected.resize(2 * healthy, without);
            expected.resize(3 * healthy, m_topo);
        }
        Simulator::Run();
        uint32_t received = 0;
        for (const auto& [node, count] : rx.count)
        {
            received += count;
        }
        NS_TEST_ASSERT_MSG_EQ(received, pairs.size(), "every packet arrives");
        uint32_t differ = 0;
        for (uint32_t k = 0; k < pairs.size(); ++k)
        {
            const auto [s, d] = pairs[k];
            const auto want = expected[k].GetPath(s, d);
            const auto got = k < paths.routers.size() ? paths.routers[k] : std::vector<uint32_t>{};
            // The sender's router forwards too: the routers crossed are the whole path.
            if (got != want)
            {
                ++differ;
                std::string text;
                for (auto c : got)
                {
                    text += m_topo.GetCity(c).code + " ";
                }
                NS_TEST_EXPECT_MSG_EQ(text,
                                      "(the planner's path)",
                                      "packet " << k << " " << m_topo.GetCity(s).code << "->"
                                                << m_topo.GetCity(d).code);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(differ, 0, "ordered pairs whose packet left the planner's path");
        Simulator::Destroy();
    }

    WanTopology m_topo;                   //!< topology
    std::pair<uint32_t, uint32_t> m_down; //!< link taken down for a pass
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible network parameters are refused.
 */
class NetworkBadInputTestCase : public WanTestCase
{
  public:
    NetworkBadInputTestCase()
        : WanTestCase("impossible network parameters")
    {
    }

  private:
    void DoCheck() override
    {
        WanNetworkHelper net(LineTopology({"A", "B"}, {1}));
        std::string e = ErrorOf([&] { net.SetScale(0.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "scale must be at least 1"), true, e);
        e = ErrorOf([&] { net.SetEdgeRate(0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "edge rate must be positive"), true, e);
        e = ErrorOf([&] { net.SetMtu(100); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "MTU must be at least 576"), true, e);
        e = ErrorOf([&] {
            WanMulticastRouteHelper(net).InstallTree(0, {1}, Ipv4Address("232.0.0.1"), true);
        });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "Install must come before"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The core links' queue disc: ns-3's FqCoDel by default, a FIFO of
 * the asked size on request, the access links untouched; a bad kind refused.
 */
class CoreQueueTestCase : public WanTestCase
{
  public:
    CoreQueueTestCase()
        : WanTestCase("core queue: fq-codel by default, a FIFO of the asked size on request")
    {
    }

  private:
    /// @return the root queue disc on a device
    static Ptr<QueueDisc> Disc(Ptr<NetDevice> device)
    {
        return device->GetNode()->GetObject<TrafficControlLayer>()->GetRootQueueDiscOnDevice(
            device);
    }

    void DoCheck() override
    {
        // "fifo by default": the attributes, set as any ns-3 default.
        for (const std::string kind : {"fq-codel", "fifo", "fifo by default"})
        {
            Ipv4AddressGenerator::Reset();
            if (kind == "fifo by default")
            {
                Config::SetDefault("ns3::WanNetworkHelper::CoreQueue", StringValue("fifo"));
                Config::SetDefault("ns3::WanNetworkHelper::CoreQueuePackets", UintegerValue(100));
            }
            WanNetworkHelper net(LineTopology({"A", "B"}, {10}));
            Config::Reset();
            if (kind == "fifo")
            {
                net.SetCoreQueue("fifo", 100);
            }
            net.Install();
            const bool fifo = kind != "fq-codel";
            const std::string expected = fifo ? "ns3::FifoQueueDisc" : "ns3::FqCoDelQueueDisc";
            for (const auto& [from, to] : {std::pair{0u, 1u}, std::pair{1u, 0u}})
            {
                auto disc = Disc(net.GetCoreDevice(from, to));
                NS_TEST_ASSERT_MSG_NE(disc, nullptr, kind << ": a queue disc");
                NS_TEST_EXPECT_MSG_EQ(disc->GetInstanceTypeId().GetName(), expected, kind);
                if (fifo)
                {
                    NS_TEST_EXPECT_MSG_EQ(disc->GetMaxSize(),
                                          QueueSize("100p"),
                                          kind << ": its size");
                }
            }
            auto island = net.GetIslands().Get(0)->GetDevice(1);
            NS_TEST_EXPECT_MSG_EQ(Disc(island)->GetInstanceTypeId().GetName(),
                                  "ns3::FqCoDelQueueDisc",
                                  kind << ": access links keep ns-3's default");
            Simulator::Destroy();
        }
        WanNetworkHelper net(LineTopology({"A", "B"}, {10}));
        auto e = ErrorOf([&] { net.SetCoreQueue("red"); });
        NS_TEST_EXPECT_MSG_EQ(e, "unknown core queue \"red\" (expected fq-codel or fifo)", e);
        e = ErrorOf([&] { net.SetCoreQueue("fifo", 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "at least 1 packet"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-network test suite.
 */
class WanNetworkHelperTestSuite : public TestSuite
{
  public:
    WanNetworkHelperTestSuite()
        : TestSuite("wan-training-network", Type::UNIT)
    {
        AddTestCase(new NetworkDeliveryTestCase);
        AddTestCase(new MulticastTreeTestCase);
        AddTestCase(new RouterLinkLocalTestCase);
        AddTestCase(new EdgeDeliveryTestCase);
        AddTestCase(new ReversePathTestCase);
        AddTestCase(new NetworkBadInputTestCase);
        AddTestCase(new CoreQueueTestCase);
        const auto nine = WanTopology::NineCity();
        AddTestCase(new UnicastPathTestCase("nine cities, NYC-LON down for a while",
                                            nine,
                                            {nine.FindCity("NYC"), nine.FindCity("LON")}));
        // Equal latencies everywhere: many equally short paths, so the
        // routes must break ties as the planner does.
        WanTopology grid;
        for (uint32_t i = 0; i < 9; ++i)
        {
            WanCity city;
            city.code = "G" + std::to_string(i);
            city.ingressBps = city.egressBps = 20e9;
            grid.AddCity(city);
        }
        for (uint32_t i = 0; i < 9; ++i)
        {
            if (i % 3 < 2)
            {
                grid.AddLink("G" + std::to_string(i), "G" + std::to_string(i + 1), 0.01, 100e9);
            }
            if (i < 6)
            {
                grid.AddLink("G" + std::to_string(i), "G" + std::to_string(i + 3), 0.01, 100e9);
            }
        }
        AddTestCase(new UnicastPathTestCase("3 x 3 grid of equal latencies, G1-G4 down a while",
                                            grid,
                                            {1, 4}));
        for (uint32_t seed : {1, 2, 3})
        {
            AddTestCase(new UnicastPathTestCase("16 random cities, seed " + std::to_string(seed),
                                                WanTopology::RandomGeometric(16, 4, seed)));
        }
    }
};

/// The suite's instance.
static WanNetworkHelperTestSuite g_wanNetworkHelperTestSuite;
