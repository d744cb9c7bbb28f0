/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/clique-schedule.h"
#include "ns3/config.h"
#include "ns3/error-model.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-raw-socket-factory.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/ppp-header.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/test.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wan-multicast-route-helper.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-pim-helper.h"
#include "ns3/wan-pim-router.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// A multicast route as a comparable value: origin, group, input, outputs.
using RouteKey = std::tuple<Ipv4Address, Ipv4Address, uint32_t, std::vector<uint32_t>>;

/// The multicast routes of a node, in a set.
std::set<RouteKey>
MulticastRoutes(Ptr<Node> node)
{
    auto routing = Ipv4StaticRoutingHelper().GetStaticRouting(node->GetObject<Ipv4>());
    std::set<RouteKey> routes;
    for (uint32_t i = 0; i < routing->GetNMulticastRoutes(); ++i)
    {
        const auto r = routing->GetMulticastRoute(i);
        std::vector<uint32_t> out;
        for (uint32_t o = 0; o < r.GetNOutputInterfaces(); ++o)
        {
            out.push_back(r.GetOutputInterface(o));
        }
        std::sort(out.begin(), out.end());
        routes.insert(std::make_tuple(r.GetOrigin(), r.GetGroup(), r.GetInputInterface(), out));
    }
    return routes;
}

/// The PIM application of router c.
Ptr<WanPimRouter>
Router(const ApplicationContainer& apps, uint32_t c)
{
    return DynamicCast<WanPimRouter>(apps.Get(c));
}

/// Records when a router's forwarding for a group changes.
struct ForwardingLog
{
    std::vector<std::tuple<double, uint32_t, uint32_t>> changes; //!< time, input, outputs

    static void Record(ForwardingLog* log, Ipv4Address, Ipv4Address, uint32_t in, uint32_t out)
    {
        log->changes.emplace_back(Simulator::Now().GetSeconds(), in, out);
    }
};

/// Counts packets a device sends.
void
CountTx(uint32_t* n, Ptr<const Packet>)
{
    ++*n;
}

/**
 * @ingroup wan-training-tests
 * @brief Records the reason of every message a PIM router drops.
 * @param router the router's application
 * @param reasons where the reasons go, in order
 */
void
RecordDrops(Ptr<Application> router, std::vector<std::string>& reasons)
{
    router->TraceConnectWithoutContext(
        "Drop",
        MakeBoundCallback(
            +[](std::vector<std::string>* r, Ptr<const Packet>, const std::string& why) {
                r->push_back(why);
            },
            &reasons));
}

/**
 * @ingroup wan-training-tests
 * @brief A receive error model that loses chosen PIM messages on purpose:
 * the first `joins` Join/Prunes that join a source and the first `acks`
 * Join-Acks to arrive.
 */
class PimLoss : public ErrorModel
{
  public:
    uint32_t joins{0};   //!< Join/Prunes with joins still to lose
    uint32_t acks{0};    //!< Join-Acks still to lose
    uint32_t dropped{0}; //!< messages lost so far

  private:
    bool DoCorrupt(Ptr<Packet> packet) override
    {
        auto copy = packet->Copy();
        PppHeader ppp;
        Ipv4Header ip;
        WanPimHeader message;
        if (copy->RemoveHeader(ppp) == 0 || ppp.GetProtocol() != 0x0021 ||
            copy->RemoveHeader(ip) == 0 || ip.GetProtocol() != WanPimHeader::kProtocol ||
            copy->PeekHeader(message) == 0)
        {
            return false;
        }
        const bool join = message.GetType() == WanPimHeader::JOIN_PRUNE &&
                          !message.GetGroups().empty() &&
                          !message.GetGroups().front().joins.empty();
        uint32_t* left =
            join ? &joins : (message.GetType() == WanPimHeader::JOIN_ACK ? &acks : nullptr);
        if (left == nullptr || *left == 0)
        {
            return false;
        }
        --*left;
        ++dropped;
        return true;
    }

    void DoReset() override
    {
    }
};

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The multicast routes that PIM joins program equal those that
 * WanMulticastRouteHelper::InstallTree installs from the planner's trees
 * (same routers, same RPF input interfaces, same branches), on the nine
 * cities (the triangles' cliques and all-to-all) and on random WANs.
 */
class PimRouterTreesTestCase : public WanTestCase
{
  public:
    PimRouterTreesTestCase()
        : WanTestCase("routes programmed by PIM joins equal the planner's trees")
    {
    }

  private:
    void Check(const WanTopology& topo,
               const std::vector<std::vector<uint32_t>>& cliques,
               const std::string& name)
    {
        // Two copies of one WAN, apart: the same addresses in each.
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper planned(topo);
        planned.Install();
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper joined(topo);
        joined.Install();
        auto pim = WanPimHelper().Install(joined);
        uint32_t round = 0;
        for (const auto& clique : cliques)
        {
            for (uint32_t source : clique)
            {
                const auto group = WanNetworkHelper::GroupAddress(round, source);
                WanMulticastRouteHelper(planned).InstallTree(source, clique, group, false);
                WanMulticastRouteHelper(joined).InstallEdgeRoutes(source, clique, group, false);
                for (uint32_t r : clique)
                {
                    if (r != source)
                    {
                        Router(pim, r)->JoinLocal(joined.GetIslandAddress(source), group);
                    }
                }
            }
            ++round;
        }
        const auto messages = WanPimHelper::Converge(pim);
        NS_TEST_EXPECT_MSG_GT(messages, 0, name << ": messages exchanged");
        uint32_t routes = 0;
        for (uint32_t c = 0; c < topo.GetNCities(); ++c)
        {
            const auto want = MulticastRoutes(planned.GetRouters().Get(c));
            routes += want.size();
            NS_TEST_EXPECT_MSG_EQ((MulticastRoutes(joined.GetRouters().Get(c)) == want),
                                  true,
                                  name << ": router " << topo.GetCity(c).code);
            NS_TEST_EXPECT_MSG_EQ((MulticastRoutes(joined.GetEdges().Get(c)) ==
                                   MulticastRoutes(planned.GetEdges().Get(c))),
                                  true,
                                  name << ": edge node " << topo.GetCity(c).code);
            NS_TEST_EXPECT_MSG_EQ(Router(pim, c)->GetMessagesDropped(), 0, name << ": no drops");
        }
        NS_TEST_EXPECT_MSG_GT(routes, 0, name << ": some routes to compare");
    }

    void DoCheck() override
    {
        const auto nine = WanTopology::NineCity();
        Check(nine, TrianglesAndAll(nine), "nine cities");
        for (uint32_t seed : {1u, 2u})
        {
            const auto random = WanTopology::RandomGeometric(16, 4, seed);
            std::vector<uint32_t> everyone;
            for (uint32_t c = 0; c < random.GetNCities(); ++c)
            {
                everyone.push_back(c);
            }
            Check(random, {everyone, {0, 5, 11, 15}}, "random seed " + std::to_string(seed));
        }
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief On the wire, on a line A - B - C of 10 ms links: a Join from C's
 * edge reaches B after 10 ms and A after 20 ms, and the stream of A's island
 * then reaches C's edge; a leave prunes the branch hop by hop at once; state
 * that is no longer refreshed (C stops) expires after the Join holdtime.
 */
class PimRouterWireTestCase : public WanTestCase
{
  public:
    PimRouterWireTestCase()
        : WanTestCase("joins and prunes on the wire; state expires without refresh")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = LineTopology({"A", "B", "C"}, {10, 10});
        WanNetworkHelper net(topo);
        net.Install();
        WanPimHelper helper;
        helper.SetAttribute("HelloPeriod", TimeValue(Seconds(1)));
        helper.SetAttribute("HelloHoldtime", TimeValue(Seconds(10)));
        helper.SetAttribute("JoinPeriod", TimeValue(Seconds(1)));
        helper.SetAttribute("JoinHoldtime", TimeValue(Seconds(3)));
        auto pim = helper.Install(net);
        pim.Start(Seconds(0));
        Router(pim, 2)->SetStopTime(Seconds(3.5)); // C stops refreshing
        const auto s = net.GetIslandAddress(0);
        const auto g = WanNetworkHelper::GroupAddress(1, 0);
        WanMulticastRouteHelper(net).InstallEdgeRoutes(0, {0, 2}, g, false);
        std::vector<ForwardingLog> logs(3);
        for (uint32_t c = 0; c < 3; ++c)
        {
            pim.Get(c)->TraceConnectWithoutContext(
                "Forwarding",
                MakeBoundCallback(&ForwardingLog::Record, &logs[c]));
        }
        auto router = Router(pim, 2);
        Simulator::Schedule(Seconds(0.5), &WanPimRouter::JoinLocal, router, s, g);
        Simulator::Schedule(Seconds(2), &WanPimRouter::LeaveLocal, router, s, g);
        Simulator::Schedule(Seconds(3), &WanPimRouter::JoinLocal, router, s, g);
        // A's island sends to G at 0.51 s (before the joins reach A) and at
        // 1 s (after): only the second reaches C's edge.
        auto socket = Socket::CreateSocket(net.GetIslands().Get(0), UdpSocketFactory::GetTypeId());
        socket->Connect(InetSocketAddress(g, 9));
        for (double t : {0.51, 1.0})
        {
            Simulator::Schedule(Seconds(t), [socket]() { socket->Send(Create<Packet>(100)); });
        }
        uint32_t toEdgeC = 0;
        net.GetAccessDevices(2).Get(3)->TraceConnectWithoutContext(
            "MacTx",
            MakeBoundCallback(&CountTx, &toEdgeC));
        Simulator::Stop(Seconds(8));
        Simulator::Run();

        // A: removed when B's prune arrives at 2.02 s, back at 3.02 s, removed
        // when B's state, no longer refreshed by C, expires and B prunes.
        NS_TEST_ASSERT_MSG_EQ(logs[0].changes.size(), 4, "A programmed, removed, again, removed");
        const double join = 0.5;
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<0>(logs[2].changes[0]), join, 1e-9, "C at once");
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<0>(logs[1].changes[0]),
                                  join + 0.010,
                                  1e-6,
                                  "B one link later");
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<0>(logs[0].changes[0]),
                                  join + 0.020,
                                  1e-6,
                                  "A two links later");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(logs[0].changes[0]), 1, "A forwards on one branch");
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<0>(logs[0].changes[1]),
                                  2.020,
                                  1e-6,
                                  "the leave prunes A 20 ms later");
        NS_TEST_EXPECT_MSG_EQ(std::get<2>(logs[0].changes[1]), 0, "removed");
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<0>(logs[0].changes[2]), 3.020, 1e-6, "joined again");
        // C's last Join left at 3.0 s (its periodic one would be at 4.0 s):
        // B's interface towards C expires 3 s after it arrived, at 3.01 s.
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<0>(logs[1].changes.back()),
                                  6.010,
                                  1e-6,
                                  "B's state expires a holdtime after the last Join");
        NS_TEST_EXPECT_MSG_EQ_TOL(std::get<0>(logs[0].changes[3]), 6.020, 1e-6, "and B prunes A");
        NS_TEST_EXPECT_MSG_EQ(toEdgeC, 1, "the stream reaches C once its tree is joined");
        for (uint32_t c = 0; c < 3; ++c)
        {
            NS_TEST_EXPECT_MSG_EQ(Router(pim, c)->GetMessagesDropped(), 0, "nothing dropped");
            NS_TEST_EXPECT_MSG_EQ(Router(pim, c)->GetState().GetNEntries(),
                                  (c == 2 ? 1 : 0),
                                  "no state left upstream (C keeps its members)");
        }
        // Hellos every second on each interface, Joins/Prunes on top.
        NS_TEST_EXPECT_MSG_GT(Router(pim, 1)->GetMessagesSent(), 16, "B's Hellos and Joins");
        NS_TEST_EXPECT_MSG_GT(Router(pim, 0)->GetMessagesReceived(), 8, "A hears B");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Messages that are not well-formed PIM, or not acceptable, are
 * dropped and counted, and leave the state as it was.
 */
class PimRouterMalformedTestCase : public WanTestCase
{
  public:
    PimRouterMalformedTestCase()
        : WanTestCase("malformed and unacceptable PIM messages are dropped and counted")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = LineTopology({"A", "B"}, {10});
        WanNetworkHelper net(topo);
        net.Install();
        auto pim = WanPimHelper().Install(net);
        pim.Start(Seconds(0));
        std::vector<std::string> reasons;
        RecordDrops(pim.Get(1), reasons);
        // A second raw socket on A's link to B sends what A's PIM would not.
        auto a = net.GetRouters().Get(0);
        auto socket = Socket::CreateSocket(a, Ipv4RawSocketFactory::GetTypeId());
        socket->SetAttribute("Protocol", UintegerValue(WanPimHeader::kProtocol));
        socket->BindToNetDevice(net.GetCoreDevice(0, 1));
        auto send = [socket](std::vector<uint8_t> bytes) {
            socket->SendTo(Create<Packet>(bytes.data(), bytes.size()),
                           0,
                           InetSocketAddress(WanPimHeader::AllPimRouters(), 0));
        };
        const auto bToA = net.GetCoreAddress(1, 0);
        auto hello = SerializedBytes(WanPimHeader::Hello(105));
        auto corrupt = hello;
        corrupt.back() ^= 0x01;
        const auto asm_ = SerializedBytes(
            WanPimHeader::JoinPrune(bToA,
                                    210,
                                    {{Ipv4Address("239.1.1.1"), {net.GetIslandAddress(0)}, {}}}));
        const auto elsewhere = SerializedBytes(WanPimHeader::JoinPrune(
            Ipv4Address("10.99.99.99"),
            210,
            {{WanNetworkHelper::GroupAddress(0, 0), {net.GetIslandAddress(0)}, {}}}));
        Simulator::Schedule(Seconds(0.1), [send]() { send({0x20, 0x00, 0x00}); });
        Simulator::Schedule(Seconds(0.2), [send, corrupt]() { send(corrupt); });
        Simulator::Schedule(Seconds(0.3), [send, asm_]() { send(asm_); });
        Simulator::Schedule(Seconds(0.4), [send, elsewhere]() { send(elsewhere); });
        Simulator::Schedule(Seconds(0.5), [&pim]() {
            Router(pim, 1)->Deliver(Ipv4Address("10.99.99.98"), WanPimHeader::Hello(105));
        });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        NS_TEST_ASSERT_MSG_EQ(reasons.size(), 5, "five messages dropped");
        NS_TEST_EXPECT_MSG_EQ(Router(pim, 1)->GetMessagesDropped(), 5, "and counted");
        NS_TEST_EXPECT_MSG_EQ(reasons[0], "shorter than the PIM header", "too short");
        NS_TEST_EXPECT_MSG_EQ(reasons[1], "wrong checksum", "checksum");
        NS_TEST_EXPECT_MSG_EQ(reasons[2], "PIM-SSM join for group outside 232.0.0.0/8", "ASM");
        NS_TEST_EXPECT_MSG_EQ(reasons[3], "Join/Prune for another upstream router", "not for B");
        NS_TEST_EXPECT_MSG_EQ(reasons[4], "not from a PIM neighbour", "a stranger");
        NS_TEST_EXPECT_MSG_EQ(Router(pim, 1)->GetState().GetNEntries(), 0, "no state made");
        NS_TEST_EXPECT_MSG_EQ(MulticastRoutes(net.GetRouters().Get(1)).empty(), true, "no routes");
        NS_TEST_EXPECT_MSG_EQ(Router(pim, 1)->GetMessagesReceived(), 1, "A's own Hello accepted");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A - B over 10 ms where only B runs PIM, so that A says only what a
 * test delivers for it: B's drop reasons, A's address towards B, and A's Join
 * of B's island's tree (B the upstream router, on the A-B link).
 */
struct OnlyBRunsPim
{
    WanNetworkHelper net{LineTopology({"A", "B"}, {10})}; //!< the network
    ApplicationContainer pim;                             //!< the routers' PIM
    std::vector<std::string> reasons;                     //!< B's drops
    Ipv4Address aToB;                                     //!< A's address on A-B
    WanPimHeader join;                                    //!< A's Join to B

    OnlyBRunsPim()
    {
        net.Install();
        pim = WanPimHelper().Install(net);
        pim.Get(1)->SetStartTime(Seconds(0));
        pim.Get(0)->SetStartTime(Seconds(100));
        RecordDrops(pim.Get(1), reasons);
        aToB = net.GetCoreAddress(0, 1);
        join = WanPimHeader::JoinPrune(
            net.GetCoreAddress(1, 0),
            210,
            {{WanNetworkHelper::GroupAddress(0, 1), {net.GetIslandAddress(1)}, {}}});
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A well-formed Join/Prune from a router that has not said Hello is
 * dropped and makes no state (RFC 7761, 4.5); the same message after its
 * Hello joins.
 */
class PimRouterJoinNeedsHelloTestCase : public WanTestCase
{
  public:
    PimRouterJoinNeedsHelloTestCase()
        : WanTestCase("a Join-Prune message counts only from a router that said Hello")
    {
    }

  private:
    void DoCheck() override
    {
        OnlyBRunsPim ab;
        auto& pim = ab.pim;
        const auto& reasons = ab.reasons;
        const auto aToB = ab.aToB;
        const auto join = ab.join;
        uint32_t entriesBefore = 99;
        Simulator::Schedule(Seconds(0.1), [&]() { Router(pim, 1)->Deliver(aToB, join); });
        Simulator::Schedule(Seconds(0.2), [&]() {
            entriesBefore = Router(pim, 1)->GetState().GetNEntries();
            Router(pim, 1)->Deliver(aToB, WanPimHeader::Hello(105));
        });
        Simulator::Schedule(Seconds(0.3), [&]() { Router(pim, 1)->Deliver(aToB, join); });
        Simulator::Stop(Seconds(1));
        Simulator::Run();
        const auto entries = Router(pim, 1)->GetState().GetNEntries();
        const auto dropped = Router(pim, 1)->GetMessagesDropped();
        const auto received = Router(pim, 1)->GetMessagesReceived();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(Nth(reasons, 0), "Join/Prune from a router without a Hello", "why");
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 1, "one message dropped");
        NS_TEST_EXPECT_MSG_EQ(entriesBefore, 0, "no state before the Hello");
        NS_TEST_EXPECT_MSG_EQ(entries, 1, "joined after it");
        NS_TEST_EXPECT_MSG_EQ(dropped, 1, "counted");
        NS_TEST_EXPECT_MSG_EQ(received, 2, "the Hello and the Join");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A neighbour lasts the holdtime its own Hello advertised (RFC 7761,
 * 4.3.2): A's Hello of 1 s lets its Join in at 0.6 s and not at 1.5 s; a
 * Hello of holdtime 0 (a router leaving) ends it at once.
 */
class PimRouterHelloHoldtimeTestCase : public WanTestCase
{
  public:
    PimRouterHelloHoldtimeTestCase()
        : WanTestCase("a PIM neighbour expires by the holdtime its Hello advertised, 0 at once")
    {
    }

  private:
    void DoCheck() override
    {
        OnlyBRunsPim ab;
        auto& pim = ab.pim;
        const auto& reasons = ab.reasons;
        const auto aToB = ab.aToB;
        const auto join = ab.join;
        auto deliver = [&pim, aToB](double at, const WanPimHeader& h) {
            Simulator::Schedule(Seconds(at),
                                [&pim, aToB, h]() { Router(pim, 1)->Deliver(aToB, h); });
        };
        deliver(0.1, WanPimHeader::Hello(1));
        deliver(0.6, join); // 0.5 s into the holdtime: accepted
        deliver(1.5, join); // 0.4 s after it lapsed: dropped
        deliver(2.0, WanPimHeader::Hello(105));
        deliver(2.1, join); // accepted
        deliver(2.2, WanPimHeader::Hello(0));
        deliver(2.3, join); // A left: dropped
        Simulator::Stop(Seconds(3));
        Simulator::Run();
        const auto received = Router(pim, 1)->GetMessagesReceived();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(reasons.size(), 2, "the Joins after 1.1 s and after the holdtime 0");
        NS_TEST_EXPECT_MSG_EQ(Nth(reasons, 0), "Join/Prune from a router without a Hello", "");
        NS_TEST_EXPECT_MSG_EQ(Nth(reasons, 1), "Join/Prune from a router without a Hello", "");
        NS_TEST_EXPECT_MSG_EQ(received, 5, "three Hellos and two Joins");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A triggered Join lost on purpose, on a line A - B - C of 10 ms
 * links: C's edge joins A's island's tree at 0.5 s and B's Join to A is
 * lost.  With JoinRetryPeriod 100 ms (the default) B sends it again at
 * 0.61 s, A programs its route at 0.62 s and the stream that A's island
 * sends at 1 s (the round's start) reaches C's edge.  With the period 0
 * (RFC 7761 alone: the old behaviour) A has no route until B's periodic Join
 * at 60.51 s, and the round's stream does not reach C.  A lost Join-Ack costs
 * one Join sent again (joined already: nothing changes).
 */
class PimRouterLostJoinTestCase : public WanTestCase
{
  public:
    PimRouterLostJoinTestCase()
        : WanTestCase("a lost triggered Join: sent again until confirmed, the "
                      "tree there in time")
    {
    }

  private:
    /// What one run shows.
    struct Outcome
    {
        std::vector<double> programmedA; //!< when A programmed (S,G)
        uint32_t toEdgeC{0};             //!< stream packets delivered to C's edge
        uint64_t retriesB{0};            //!< B's retries
        uint64_t retriesC{0};            //!< C's retries
        uint32_t lost{0};                //!< messages lost on purpose
    };

    Outcome Run(Time retry, uint32_t lostJoins, uint32_t lostAcks)
    {
        const auto topo = LineTopology({"A", "B", "C"}, {10, 10});
        WanNetworkHelper net(topo);
        net.Install();
        WanPimHelper helper;
        helper.SetAttribute("JoinRetryPeriod", TimeValue(retry));
        auto pim = helper.Install(net);
        pim.Start(Seconds(0));
        auto loss = CreateObject<PimLoss>();
        loss->joins = lostJoins;
        net.GetCoreDevice(0, 1)->SetAttribute("ReceiveErrorModel", PointerValue(loss));
        auto ackLoss = CreateObject<PimLoss>();
        ackLoss->acks = lostAcks;
        net.GetCoreDevice(2, 1)->SetAttribute("ReceiveErrorModel", PointerValue(ackLoss));
        const auto s = net.GetIslandAddress(0);
        const auto g = WanNetworkHelper::GroupAddress(1, 0);
        WanMulticastRouteHelper(net).InstallEdgeRoutes(0, {0, 2}, g, false);
        ForwardingLog logA;
        pim.Get(0)->TraceConnectWithoutContext("Forwarding",
                                               MakeBoundCallback(&ForwardingLog::Record, &logA));
        Simulator::Schedule(Seconds(0.5), &WanPimRouter::JoinLocal, Router(pim, 2), s, g);
        auto socket = Socket::CreateSocket(net.GetIslands().Get(0), UdpSocketFactory::GetTypeId());
        socket->Connect(InetSocketAddress(g, 9));
        Simulator::Schedule(Seconds(1), [socket]() { socket->Send(Create<Packet>(100)); });
        Outcome o;
        net.GetAccessDevices(2).Get(3)->TraceConnectWithoutContext(
            "MacTx",
            MakeBoundCallback(&CountTx, &o.toEdgeC));
        Simulator::Stop(Seconds(2));
        Simulator::Run();
        for (const auto& change : logA.changes)
        {
            o.programmedA.push_back(std::get<0>(change));
        }
        o.retriesB = Router(pim, 1)->GetRetries();
        o.retriesC = Router(pim, 2)->GetRetries();
        o.lost = loss->dropped + ackLoss->dropped;
        Simulator::Destroy();
        return o;
    }

    void DoCheck() override
    {
        const auto retried = Run(MilliSeconds(100), 1, 0);
        NS_TEST_EXPECT_MSG_EQ(retried.lost, 1, "B's triggered Join lost");
        NS_TEST_ASSERT_MSG_EQ(retried.programmedA.size(), 1, "A programs (S,G) once");
        NS_TEST_EXPECT_MSG_EQ_TOL(retried.programmedA[0],
                                  0.5 + 0.010 + 0.100 + 0.010,
                                  1e-6,
                                  "B sends it again 100 ms later: A at 0.62 s");
        NS_TEST_EXPECT_MSG_EQ(retried.retriesB, 1, "one retry at B");
        NS_TEST_EXPECT_MSG_EQ(retried.retriesC, 0, "C's Join confirmed at once");
        NS_TEST_EXPECT_MSG_EQ(retried.toEdgeC, 1, "the round's stream reaches C");

        const auto once = Run(Seconds(0), 1, 0);
        NS_TEST_EXPECT_MSG_EQ(once.lost, 1, "B's triggered Join lost");
        NS_TEST_EXPECT_MSG_EQ(once.programmedA.size(), 0, "no tree at A before the round");
        NS_TEST_EXPECT_MSG_EQ(once.retriesB, 0, "nothing sent again");
        NS_TEST_EXPECT_MSG_EQ(once.toEdgeC, 0, "the round's stream does not reach C");

        const auto ackLost = Run(MilliSeconds(100), 0, 1);
        NS_TEST_EXPECT_MSG_EQ(ackLost.lost, 1, "B's Join-Ack to C lost");
        NS_TEST_EXPECT_MSG_EQ(ackLost.retriesC, 1, "C sends its Join again");
        NS_TEST_ASSERT_MSG_EQ(ackLost.programmedA.size(), 1, "A programmed once");
        NS_TEST_EXPECT_MSG_EQ_TOL(ackLost.programmedA[0], 0.52, 1e-6, "at once");
        NS_TEST_EXPECT_MSG_EQ(ackLost.toEdgeC, 1, "the stream reaches C");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Timers that PIM cannot carry are refused with a one-line error.
 */
class PimRouterTimersTestCase : public WanTestCase
{
  public:
    PimRouterTimersTestCase()
        : WanTestCase("holdtimes that are not whole seconds are refused")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = LineTopology({"A", "B"}, {10});
        WanNetworkHelper net(topo);
        net.Install();
        WanPimHelper helper;
        helper.SetAttribute("JoinHoldtime", TimeValue(MilliSeconds(1500)));
        auto pim = helper.Install(net);
        const auto error = ErrorOf([&]() {
            Router(pim, 1)->JoinLocal(net.GetIslandAddress(0), Ipv4Address("232.0.0.1"));
        });
        NS_TEST_EXPECT_MSG_EQ(error,
                              "WanPimRouter: JoinHoldtime must be whole seconds from 1 to 65535 "
                              "(PIM carries holdtimes in seconds)",
                              "refused");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Trees built by PIM joins, a round ahead, cost the rounds nothing:
 * with no fault the round times and sums are those of the planner's static
 * trees (triangles at 0 GB, all-to-all at 32 GB), and the PIM messages are
 * counted.
 */
class PimTreesNoFaultTestCase : public WanTestCase
{
  public:
    PimTreesNoFaultTestCase()
        : WanTestCase(
              "trees joined a round ahead: round times and sums as with the planner's trees")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        for (double hbm : {0.0, 32e9})
        {
            PlannerConfig config;
            config.hbmBytes = hbm;
            const auto schedule = hbm > 0 ? CliqueScheduleBuiltins::AllToAll(topo)
                                          : CliqueScheduleBuiltins::Triangles(topo);
            std::vector<WanExperimentResult> results;
            for (const std::string mode : {"planner", "pim"})
            {
                CliqueExperimentHelper experiment(topo, config);
                experiment.SetScale(1000);
                experiment.SetRounds(4);
                experiment.SetTreeBuilding(mode);
                results.push_back(experiment.Run(schedule));
            }
            const auto& planned = results[0];
            const auto& joined = results[1];
            const std::string name = schedule.GetName();
            NS_TEST_ASSERT_MSG_EQ(joined.rounds.size(), planned.rounds.size(), name);
            for (uint32_t k = 0; k < planned.rounds.size(); ++k)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(joined.rounds[k].measuredMs,
                                          planned.rounds[k].measuredMs,
                                          planned.rounds[k].measuredMs * 0.005,
                                          name << " round " << k << " within 0.5%");
            }
            NS_TEST_EXPECT_MSG_EQ(joined.exact, true, name << ": every sum exact");
            NS_TEST_EXPECT_MSG_EQ(planned.pimPackets, 0, name << ": no PIM with static trees");
            NS_TEST_EXPECT_MSG_GT(joined.pimPackets, 100, name << ": PIM messages counted");
            NS_TEST_EXPECT_MSG_GT(joined.pimBytes, joined.pimPackets * 10, name << ": and bytes");
            // A Join crosses the WAN in at most its longest path (< 200 ms),
            // long before the next round starts.
            NS_TEST_EXPECT_MSG_GT(joined.pimJoinMs, 10, name << ": joins take time");
            NS_TEST_EXPECT_MSG_LT(joined.pimJoinMs, 200, name << ": a path's latency at most");
            NS_TEST_EXPECT_MSG_GT(joined.pimSlackMs, 300, name << ": ready before the round");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A link fails mid-round and nobody is told: BFD declares it, unicast
 * reconverges, and PIM moves every tree with state to the new RPF
 * neighbours (Join on the new, Prune on the old), within detection +
 * convergence + one join propagation; the later rounds run on time and every
 * sum is exact.
 */
class PimTreesLinkFailureTestCase : public WanTestCase
{
  public:
    PimTreesLinkFailureTestCase()
        : WanTestCase("link NYC-LON fails mid-round: PIM moves the trees after BFD and SPF")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(1000);
        experiment.SetRounds(5);
        experiment.SetRecovery("early");
        experiment.SetFaultDetection("bfd");
        experiment.SetTreeBuilding("pim");
        experiment.AddLinkFault("NYC", "LON", 0.9, 100);
        auto r = experiment.Run(CliqueScheduleBuiltins::Triangles(topo));
        NS_TEST_ASSERT_MSG_EQ(r.routeChanges.size(), 1, "down");
        const auto& down = r.routeChanges[0];
        NS_TEST_EXPECT_MSG_LT(down.detectedS, 0.9 + 0.04, "within 3 x 10 ms (+ BFD jitter)");
        // The moved trees: Joins from the routers whose RPF neighbour changed
        // travel new paths (a transatlantic detour at most).
        NS_TEST_EXPECT_MSG_GT(down.joinedS, down.convergedS + 0.01, "joins take time");
        NS_TEST_EXPECT_MSG_LT(down.joinedS, down.convergedS + 0.3, "one join propagation");
        for (uint32_t k = 2; k < r.rounds.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_LT(r.rounds[k].measuredMs,
                                  r.rounds[k].plannedMs * 1.1,
                                  "round " << k << " on the moved trees, on time");
        }
        NS_TEST_EXPECT_MSG_EQ(r.exact, true, "every sum exact");
        NS_TEST_EXPECT_MSG_GT(r.controlPackets, 10000, "BFD counted");
        NS_TEST_EXPECT_MSG_GT(r.pimPackets, 100, "PIM counted");
        auto e = ErrorOf([&]() { experiment.SetTreeBuilding("flooding"); });
        NS_TEST_EXPECT_MSG_EQ(e, "unknown tree building \"flooding\" (expected planner or pim)", e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief PIM router test suite.
 */
class WanPimRouterTestSuite : public TestSuite
{
  public:
    WanPimRouterTestSuite()
        : TestSuite("wan-training-pim-router", Type::UNIT)
    {
        AddTestCase(new PimRouterTreesTestCase);
        AddTestCase(new PimRouterWireTestCase);
        AddTestCase(new PimRouterMalformedTestCase);
        AddTestCase(new PimRouterJoinNeedsHelloTestCase);
        AddTestCase(new PimRouterHelloHoldtimeTestCase);
        AddTestCase(new PimRouterLostJoinTestCase);
        AddTestCase(new PimRouterTimersTestCase);
        AddTestCase(new PimTreesNoFaultTestCase);
        AddTestCase(new PimTreesLinkFailureTestCase);
    }
};

/// Registers the suite.
static WanPimRouterTestSuite g_wanPimRouterTestSuite;
