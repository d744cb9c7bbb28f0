/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-tcp-test-utils.h"
#include "wan-training-test-utils.h"

#include "ns3/config.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-parameter-server-application.h"
#include "ns3/wan-parameter-server-helper.h"
#include "ns3/wan-parameter-server.h"

#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @brief Islands A, B, C: B, the server's city, with a 100 Gbps access
 * link, A and C with 20 Gbps, joined to B by 10 ms links of 100 Gbps (A-C
 * 30 ms, so nothing goes that way).
 * @return the topology
 */
WanTopology
StarTopology()
{
    WanTopology topo;
    topo.AddCity({"A", "A", "r", 0, 0, 20e9, 20e9});
    topo.AddCity({"B", "B", "r", 0, 0, 100e9, 100e9});
    topo.AddCity({"C", "C", "r", 0, 0, 20e9, 20e9});
    topo.AddLink("A", "B", 0.010, 100e9);
    topo.AddLink("B", "C", 0.010, 100e9);
    topo.AddLink("A", "C", 0.030, 100e9);
    topo.Validate();
    return topo;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The exchange's logic by hand, in memory: 3 members, the server at
 * position 1, 2 chunks, member m's value of chunk c (m + 1)(c + 1). The
 * workers send their 2 values each; the server answers chunk c with
 * 6 (c + 1) only when the second worker's value of it is in (the first
 * gives nothing), so 2 sums, each to both workers; every member then holds
 * 6 and 12, each chunk counted once. Refused: a value twice, a worker's
 * record from another worker, a sum sent to the server, a chunk beyond C,
 * bad positions.
 */
class ParameterServerLogicTestCase : public WanTestCase
{
  public:
    ParameterServerLogicTestCase()
        : WanTestCase("parameter server by hand: sums when the last value is in, refusals")
    {
    }

  private:
    void DoCheck() override
    {
        auto own = [](uint32_t m) { return std::vector<int64_t>{(m + 1) * 1, (m + 1) * 2}; };
        WanParameterServer w0(3, 1, 0, own(0));
        WanParameterServer server(3, 1, 1, own(1));
        WanParameterServer w2(3, 1, 2, own(2));
        NS_TEST_EXPECT_MSG_EQ(server.IsServer(), true, "");
        NS_TEST_EXPECT_MSG_EQ(server.Start().size(), 0, "the server sends nothing first");
        const auto from0 = w0.Start();
        const auto from2 = w2.Start();
        NS_TEST_EXPECT_MSG_EQ(from0.size(), 2, "");
        NS_TEST_EXPECT_MSG_EQ(from0.at(1).value, 2, "");
        const auto first = server.Receive(0, from0.at(0));
        NS_TEST_EXPECT_MSG_EQ(first.size(), 0, "one value of 3 in");
        const auto second = server.Receive(0, from0.at(1));
        NS_TEST_EXPECT_MSG_EQ(second.size(), 0, "");
        NS_TEST_EXPECT_MSG_EQ(server.GetDone(), 0, "");
        auto e = ErrorOf([&] { server.Receive(0, from0.at(1)); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "chunk 1 came twice from member 0"), true, e);
        std::vector<WanParameterServer::Record> sums;
        for (const auto& r : from2)
        {
            for (const auto& s : server.Receive(2, r))
            {
                sums.push_back(s);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(sums.size(), 2, "one sum per chunk");
        NS_TEST_EXPECT_MSG_EQ(sums.at(0).value, 6, "1 + 2 + 3");
        NS_TEST_EXPECT_MSG_EQ(sums.at(1).value, 12, "2 + 4 + 6");
        NS_TEST_EXPECT_MSG_EQ(sums.at(1).step, 1, "");
        NS_TEST_EXPECT_MSG_EQ(server.IsComplete(), true, "");
        for (auto* worker : {&w0, &w2})
        {
            for (const auto& s : sums)
            {
                const auto onward = worker->Receive(1, s);
                NS_TEST_EXPECT_MSG_EQ(onward.size(), 0, "a worker sends nothing on");
            }
            NS_TEST_EXPECT_MSG_EQ(worker->IsComplete(), true, "");
            NS_TEST_EXPECT_MSG_EQ(worker->GetSums().at(0) + worker->GetSums().at(1), 18, "");
        }
        e = ErrorOf([&] { w0.Receive(1, sums.at(0)); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "chunk 0 came twice from member 1"), true, e);
        e = ErrorOf([&] { w0.Receive(2, sums.at(0)); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "from member 2, which does not send to member 0"),
                              true,
                              e);
        WanParameterServer fresh(3, 1, 1, own(1));
        e = ErrorOf([&] { fresh.Receive(0, sums.at(0)); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "step 1 at the server (it takes in step 0)"), true, e);
        e = ErrorOf([&] { fresh.Receive(0, {0, 2, 1}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "chunk 2 of 2"), true, e);
        e = ErrorOf([&] { fresh.Receive(1, {0, 0, 1}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "from member 1, which does not send to member 1"),
                              true,
                              e);
        NS_TEST_EXPECT_MSG_EQ(fresh.GetDone(), 0, "nothing refused was counted");
        e = ErrorOf([] { WanParameterServer(1, 0, 0, {1}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "1 member(s), need at least 2"), true, e);
        e = ErrorOf([] { WanParameterServer(3, 3, 0, {1}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "position 3 among 3 members"), true, e);
        e = ErrorOf([] { WanParameterServer(3, 0, 1, {}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "no chunk"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The exchange over ns-3's TCP, the server at B (StarTopology),
 * D = 30 MB in chunks of 8936 bytes (3358 chunks): every member completes
 * with every sum exact; each worker sends its 3358 records and gets 3358
 * sums, the server sends 2 x 3358 (the incast the ring avoids: twice D in
 * and out of its access link) and nothing again (lossless). With the initial
 * window over the path's bandwidth-delay product, by hand: a worker's D at
 * its 20 Gbps access takes 12.0 ms, the server's 100 Gbps is no bottleneck
 * for the two workers' 40 Gbps, and each sum goes back as its last value
 * comes in, so a worker holds the last sum after 10 ms there, 12 ms of
 * serialisation and 10 ms back: 32.0 ms, within 2%; the server completes
 * when the last value is in, 22.0 ms.
 */
class ParameterServerTcpTestCase : public WanTestCase
{
  public:
    ParameterServerTcpTestCase()
        : WanTestCase("parameter server over TCP: 3 islands, exact, bytes and time by hand")
    {
    }

  private:
    void DoCheck() override
    {
        WanNetworkHelper net(StarTopology());
        net.Install();
        WanParameterServerHelper ps(net);
        ps.SetPayload(30e6);
        NS_TEST_EXPECT_MSG_EQ(ps.ChooseServer({0, 1, 2}), 1, "B, the widest access");
        auto apps = ps.Install({0, 1, 2}, 1);
        NS_TEST_EXPECT_MSG_EQ(ps.GetWarnings().size(), 0, "buffers twice the product");
        SetLineRateTcp();
        apps.Start(Seconds(0));
        apps.Stop(Seconds(5));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        const uint64_t record = 8936;
        const std::vector<uint64_t> sent{3358 * record, 2 * 3358 * record, 3358 * record};
        const std::vector<double> seconds{0.032, 0.022, 0.032};
        for (uint32_t i = 0; i < 3; ++i)
        {
            auto app = DynamicCast<WanParameterServerApplication>(apps.Get(i));
            NS_TEST_EXPECT_MSG_EQ(app->IsExact(), true, "member " << i);
            NS_TEST_EXPECT_MSG_EQ(app->GetBytesSent(), sent.at(i), "member " << i);
            NS_TEST_EXPECT_MSG_EQ(app->GetBytesReceived(), sent.at(2 - i), "member " << i);
            NS_TEST_EXPECT_MSG_EQ(app->GetRetransmissions(), 0, "lossless");
            NS_TEST_EXPECT_MSG_EQ(app->GetRefused(), 0, "");
            NS_TEST_EXPECT_MSG_EQ_TOL(app->GetDuration().GetSeconds(),
                                      seconds.at(i),
                                      seconds.at(i) * 0.02,
                                      "member " << i);
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible exchanges refused in one line: one member, a city the
 * topology does not have, a city twice, a server that is not a member.
 */
class ParameterServerBadInputTestCase : public WanTestCase
{
  public:
    ParameterServerBadInputTestCase()
        : WanTestCase("parameter server: bad members and servers refused")
    {
    }

  private:
    void DoCheck() override
    {
        WanNetworkHelper net(StarTopology());
        net.Install();
        WanParameterServerHelper ps(net);
        auto e = ErrorOf([&] { ps.Install({1}, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "parameter server: 1 member(s), need at least 2"),
                              true,
                              e);
        e = ErrorOf([&] { ps.Install({0, 7}, 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "no city 7 (the topology has 3)"), true, e);
        e = ErrorOf([&] { ps.Install({0, 2, 0}, 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "city A twice among the members"), true, e);
        e = ErrorOf([&] { ps.Install({0, 2}, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "the server, city 1, is not a member"), true, e);
        e = ErrorOf([&] { ps.ChooseServer({2}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "1 member(s)"), true, e);
        e = ErrorOf([&] { ps.SetScale(0.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "parameter server scale"), true, e);
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Receive buffers over twice the senders' send buffers, by hand, and
 * the exchange exact under 5% loss on every core link. The server at A on
 * the triangle (A-B 10, A-C 20 ms, 20 Gbps access): a frame's store and
 * forward on the path is 8.28 us (two accesses 3.6 us each, two edge ports
 * 0.18 us, a 100 Gbps link 0.72 us), so the products are 2.5 GB/s x
 * (20 ms + 8.28 us) = 50020700 bytes to B and 2.5 GB/s x (40 ms + 8.28 us) =
 * 100020700 bytes to C. A's send buffer is twice the larger (200041400), B's
 * and C's twice their own (100041400, 200041400); every receive buffer is
 * over twice its largest sender's, 2 x 200041400 + 17896 bytes and 1/16384
 * of it: 400125116 (twice the product alone, B's 100041400, let A's window
 * reach B's, which ns-3 before 3.41 crashes on under loss, issue #991).
 */
class ParameterServerBuffersTestCase : public WanTestCase
{
  public:
    ParameterServerBuffersTestCase()
        : WanTestCase("parameter server: receive buffers over the senders', exact at 5% loss")
    {
    }

  private:
    void DoCheck() override
    {
        WanNetworkHelper net(TriangleTopology());
        WanLinkImpairment loss;
        loss.lossRate = 0.05;
        net.SetImpairment(WanNetworkHelper::CORE, loss);
        net.Install();
        net.AssignStreams(1);
        WanParameterServerHelper ps(net);
        ps.SetPayload(3e6);
        auto apps = ps.Install({0, 1, 2}, 0);
        const std::vector<uint64_t> send{200041400, 100041400, 200041400};
        const uint64_t need = 2 * 200041400ULL + 17896;
        for (uint32_t i = 0; i < 3; ++i)
        {
            UintegerValue sent;
            UintegerValue received;
            apps.Get(i)->GetAttribute("SendBuffer", sent);
            apps.Get(i)->GetAttribute("ReceiveBuffer", received);
            NS_TEST_EXPECT_MSG_EQ(sent.Get(), send[i], "member " << i);
            NS_TEST_EXPECT_MSG_EQ(received.Get(), need + (need >> 14), "member " << i);
        }
        NS_TEST_EXPECT_MSG_EQ(ps.GetWarnings().size(), 0, "");
        apps.Start(Seconds(0));
        apps.Stop(Seconds(60));
        Simulator::Stop(Seconds(60));
        Simulator::Run();
        uint64_t retransmissions = 0;
        for (uint32_t i = 0; i < 3; ++i)
        {
            auto app = DynamicCast<WanParameterServerApplication>(apps.Get(i));
            NS_TEST_EXPECT_MSG_EQ(app->IsExact(), true, "member " << i);
            retransmissions += app->GetRetransmissions();
        }
        NS_TEST_EXPECT_MSG_GT(retransmissions, 0, "5% loss");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-parameter-server test suite.
 */
class WanParameterServerTestSuite : public TestSuite
{
  public:
    WanParameterServerTestSuite()
        : TestSuite("wan-training-parameter-server", Type::UNIT)
    {
        AddTestCase(new ParameterServerLogicTestCase);
        AddTestCase(new ParameterServerTcpTestCase);
        AddTestCase(new ParameterServerBuffersTestCase);
        AddTestCase(new ParameterServerBadInputTestCase);
    }
};

/// The suite's one instance.
static WanParameterServerTestSuite g_wanParameterServerTestSuite;
