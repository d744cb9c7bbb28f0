/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-tcp-test-utils.h"
#include "wan-training-test-utils.h"

#include "ns3/config.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-collective-application.h"
#include "ns3/wan-contribution.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-ring-all-reduce-helper.h"
#include "ns3/wan-ring-all-reduce.h"
#include "ns3/wan-ring-application.h"
#include "ns3/wan-scale-check.h"

#include <algorithm>
#include <deque>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @brief Runs a ring of `members` in memory: each member's records queue to
 * the next, delivered one at a time round the ring (records on one link in
 * order, as on a TCP connection).
 * @param members N
 * @param chunks C
 * @param sent per member, the records it sent (out)
 * @return the members, after the run
 */
std::vector<WanRingAllReduce>
RunInMemory(uint32_t members, uint32_t chunks, std::vector<uint32_t>& sent)
{
    std::vector<WanRingAllReduce> ring;
    std::vector<std::deque<WanRingAllReduce::Record>> link(members);
    for (uint32_t m = 0; m < members; ++m)
    {
        std::vector<int64_t> own(chunks);
        for (uint32_t c = 0; c < chunks; ++c)
        {
            own[c] = (m + 1) * (c + 1);
        }
        ring.emplace_back(members, m, own);
    }
    sent.assign(members, 0);
    for (uint32_t m = 0; m < members; ++m)
    {
        for (const auto& r : ring[m].Start())
        {
            link[m].push_back(r);
            ++sent[m];
        }
    }
    bool moved = true;
    while (moved)
    {
        moved = false;
        for (uint32_t m = 0; m < members; ++m)
        {
            if (link[m].empty())
            {
                continue;
            }
            const uint32_t next = (m + 1) % members;
            const auto r = link[m].front();
            link[m].pop_front();
            for (const auto& out : ring[next].Receive(r))
            {
                link[next].push_back(out);
                ++sent[next];
            }
            moved = true;
        }
    }
    return ring;
}

/**
 * @brief Six islands A to F in a ring, each joined to the next by a link of
 * `latency` at 100 Gbps, every access at `accessBps`.
 * @param latency one link's propagation delay, s
 * @param accessBps each island's ingress and egress
 * @return the topology
 */
WanTopology
UniformRing(double latency, double accessBps)
{
    WanTopology topo;
    const std::vector<std::string> names{"A", "B", "C", "D", "E", "F"};
    for (const auto& c : names)
    {
        topo.AddCity({c, c, "r", 0, 0, accessBps, accessBps});
    }
    for (size_t i = 0; i < names.size(); ++i)
    {
        topo.AddLink(names[i], names[(i + 1) % names.size()], latency, 100e9);
    }
    topo.Validate();
    return topo;
}

/// What a ring on UniformRing measured.
struct UniformRingRun
{
    double slowest{0};           //!< the slowest member's time, seconds
    bool exact{true};            //!< every member's sums exact
    uint64_t retransmissions{0}; //!< TCP segments sent again, all members
};

/**
 * @brief Runs a ring all-reduce of all six members of UniformRing, TCP at
 * line rate from its first window (SetLineRateTcp).
 * @param latency one link's propagation delay, s
 * @param accessBps each island's ingress and egress
 * @param payload D, bytes
 * @param sendBuffer the members' send buffers (0: the helper's)
 * @return what it measured
 */
UniformRingRun
MeasureUniformRing(double latency, double accessBps, double payload, uint32_t sendBuffer = 0)
{
    WanNetworkHelper net(UniformRing(latency, accessBps));
    net.Install();
    WanRingAllReduceHelper ring(net);
    ring.SetPayload(payload);
    if (sendBuffer > 0)
    {
        ring.SetAttribute("SendBuffer", UintegerValue(sendBuffer));
    }
    auto apps = ring.Install({0, 1, 2, 3, 4, 5});
    SetLineRateTcp();
    apps.Start(Seconds(0));
    apps.Stop(Seconds(5));
    Simulator::Stop(Seconds(5));
    Simulator::Run();
    UniformRingRun run;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        auto app = DynamicCast<WanRingApplication>(apps.Get(i));
        run.exact = run.exact && app->IsExact();
        run.retransmissions += app->GetRetransmissions();
        run.slowest = std::max(run.slowest, app->GetDuration().GetSeconds());
    }
    Simulator::Destroy();
    Config::Reset();
    return run;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The ring's logic by hand, in memory: 3 members, 7 chunks (segments
 * of 2, 2 and 3 chunks), member m's value of chunk c (m + 1)(c + 1): every
 * member ends with 6 (c + 1) for every chunk; member 0 sends segments 0, 2,
 * 1, 0 (9 records), member 1 segments 1, 0, 2, 1 (9), member 2 segments 2,
 * 1, 0, 2 (10): 4 steps of 7 chunks. Two members and one chunk each; a
 * record that repeats, or names a chunk its step does not carry, is refused.
 */
class RingLogicTestCase : public WanTestCase
{
  public:
    RingLogicTestCase()
        : WanTestCase("ring all-reduce by hand: segments, steps, exact sums, refusals")
    {
    }

  private:
    void DoCheck() override
    {
        std::vector<uint32_t> sent;
        const auto ring = RunInMemory(3, 7, sent);
        NS_TEST_EXPECT_MSG_EQ(ring.at(0).GetSteps(), 4, "2(N - 1)");
        NS_TEST_EXPECT_MSG_EQ(ring.at(0).Segment(0).second, 2, "7 x 1 / 3");
        NS_TEST_EXPECT_MSG_EQ(ring.at(0).Segment(2).first, 4, "7 x 2 / 3");
        NS_TEST_EXPECT_MSG_EQ(ring.at(0).SegmentSent(1, 0), 2, "step 1 of member 0");
        NS_TEST_EXPECT_MSG_EQ(sent.at(0), 9, "");
        NS_TEST_EXPECT_MSG_EQ(sent.at(1), 9, "");
        NS_TEST_EXPECT_MSG_EQ(sent.at(2), 10, "");
        for (const auto& member : ring)
        {
            NS_TEST_EXPECT_MSG_EQ(member.IsComplete(), true, "");
            NS_TEST_EXPECT_MSG_EQ(member.GetDone(), 7, "each chunk's sum held once");
            for (uint32_t c = 0; c < 7; ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(member.GetSums().at(c), 6 * (c + 1), "chunk " << c);
            }
        }
        const auto two = RunInMemory(2, 5, sent);
        NS_TEST_EXPECT_MSG_EQ(two.at(1).GetSums().at(4), 15, "3 x 5");
        NS_TEST_EXPECT_MSG_EQ(sent.at(0) + sent.at(1), 10, "2 steps of 5 chunks");
        const auto one = RunInMemory(4, 1, sent);
        NS_TEST_EXPECT_MSG_EQ(one.at(2).GetSums().at(0), 10, "one chunk, three empty segments");

        // Member 1 of 3 (7 chunks) hears member 0, which sends segment 0 at
        // step 0 and segment 2 at step 1.
        WanRingAllReduce m(3, 1, std::vector<int64_t>(7, 1));
        const auto onward = m.Receive({0, 1, 5});
        NS_TEST_EXPECT_MSG_EQ(onward.at(0).value, 6, "summed and sent on");
        NS_TEST_EXPECT_MSG_EQ(onward.at(0).step, 1, "");
        auto e = ErrorOf([&] { m.Receive({0, 1, 5}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "chunk 1 came twice while the ring reduced"), true, e);
        e = ErrorOf([&] { m.Receive({1, 1, 5}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "chunk 1 at step 1, whose segment is chunks 4 to 7"),
                              true,
                              e);
        e = ErrorOf([&] { m.Receive({4, 0, 5}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "step 4 in a ring of 4 steps"), true, e);
        NS_TEST_EXPECT_MSG_EQ(m.GetDone(), 0, "nothing whole yet");
        e = ErrorOf([] { WanRingAllReduce(1, 0, {1}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "1 member(s), need at least 2"), true, e);
        e = ErrorOf([] { WanRingAllReduce(3, 3, {1}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "position 3 in a ring of 3"), true, e);
        e = ErrorOf([] { WanRingAllReduce(3, 0, {}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "no chunk"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The ring over ns-3's TCP on three islands A, B, C joined in a ring
 * of 10 ms links (100 Gbps, 20 Gbps access), D = 30 MB in chunks of 8936
 * bytes (3358 chunks; segments of 1119, 1119, 1120): every member completes
 * with every sum exact, sends 4 steps of its segments' records and nothing
 * again (lossless). With the initial window over the path's bandwidth-delay
 * product (TCP at the access rate from the first segment), the chunks
 * pipeline through the steps: a member's time is, by hand, four steps of
 * 10 ms latency plus one segment of D / 3 at 20 Gbps (4.0 ms; the
 * egress, 4 / 3 x D in 16.0 ms, is not the bottleneck): 44.0 ms, within 2%.
 */
class RingTcpTestCase : public WanTestCase
{
  public:
    RingTcpTestCase()
        : WanTestCase("ring all-reduce over TCP: 3 islands, exact, bytes and time by hand")
    {
    }

  private:
    void DoCheck() override
    {
        WanNetworkHelper net(TriangleTopology(0.010, 0.010, 0.010));
        net.Install();
        WanRingAllReduceHelper ring(net);
        ring.SetPayload(30e6);
        NS_TEST_EXPECT_MSG_EQ_TOL(
            ring.BandwidthDelayProduct(0, 1),
            20e9 / 8 * (0.020 + 8.28e-6),
            1e-3,
            "20 Gbps x (20 ms + a frame on 2 accesses, 2 edge ports, 1 link)");
        auto apps = ring.Install({0, 1, 2});
        NS_TEST_EXPECT_MSG_EQ(ring.GetWarnings().size(), 0, "buffers twice the product");
        SetLineRateTcp();
        apps.Start(Seconds(0));
        apps.Stop(Seconds(5));
        Simulator::Stop(Seconds(5));
        Simulator::Run();
        const std::vector<uint32_t> records{1119 + 1120 + 1119 + 1119,
                                            1119 + 1119 + 1120 + 1119,
                                            1120 + 1119 + 1119 + 1120};
        for (uint32_t i = 0; i < 3; ++i)
        {
            auto app = DynamicCast<WanRingApplication>(apps.Get(i));
            NS_TEST_EXPECT_MSG_EQ(app->IsExact(), true, "member " << i);
            NS_TEST_EXPECT_MSG_EQ(app->GetBytesSent(), records.at(i) * 8936ULL, "member " << i);
            NS_TEST_EXPECT_MSG_EQ(app->GetRetransmissions(), 0, "lossless");
            NS_TEST_EXPECT_MSG_EQ(app->GetRefused(), 0, "");
            NS_TEST_EXPECT_MSG_EQ_TOL(app->GetDuration().GetSeconds(),
                                      0.044,
                                      0.044 * 0.02,
                                      "member " << i);
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief At a high scale frames are long: on the triangle with 5 ms links at
 * scale 10000 (2 Mbit/s at the access, 10 Mbit/s on the core, 40 Mbit/s at
 * the edge ports), a 9000-byte frame from A to B is stored and forwarded on
 * A's access (36 ms), A's edge port (1.8 ms), the core link (7.2 ms), B's edge
 * port (1.8 ms) and B's ingress (36 ms): 82.8 ms, beside 10 ms of
 * propagation both ways. The path's product is 250 kB/s x 92.8 ms = 23200
 * bytes, each send buffer twice that (46400 bytes, over the two-segment
 * floor of 17896), each receive buffer over twice its sender's: 2 x 46400 +
 * 17896 = 110696 bytes and 1/16384 of it for the window scale's rounding,
 * 110702; the ring completes exact without retransmissions (buffers of
 * twice the propagation's product, 5000 bytes, held the window below one
 * segment, which stalled TCP and tripped ns-3.37's assert in
 * TcpSocketBase::SendDataPacket).
 */
class RingHighScaleTestCase : public WanTestCase
{
  public:
    RingHighScaleTestCase()
        : WanTestCase("ring all-reduce over TCP at scale 10000: buffers with the frames, exact")
    {
    }

  private:
    void DoCheck() override
    {
        WanNetworkHelper net(TriangleTopology(0.005, 0.005, 0.005));
        net.SetScale(10000);
        net.Install();
        WanRingAllReduceHelper ring(net);
        ring.SetScale(10000);
        ring.SetPayload(1e9);
        NS_TEST_EXPECT_MSG_EQ_TOL(ring.BandwidthDelayProduct(0, 1), 23200, 1e-6, "");
        const auto floor = WanCollectiveApplication::MinimumBuffer(net.GetIslands().Get(0));
        NS_TEST_EXPECT_MSG_EQ(floor, 2 * 8948, "two segments at the 9000-byte MTU");
        auto apps = ring.Install({0, 1, 2});
        NS_TEST_ASSERT_MSG_EQ(ring.GetWarnings().size(), 1, "twice the products: the scale only");
        NS_TEST_EXPECT_MSG_EQ(ring.GetWarnings()[0], WanScaleCheck::TcpAtScale(10000), "");
        SetLineRateTcp();
        apps.Start(Seconds(0));
        apps.Stop(Seconds(20));
        Simulator::Stop(Seconds(20));
        Simulator::Run();
        for (uint32_t i = 0; i < 3; ++i)
        {
            auto app = DynamicCast<WanRingApplication>(apps.Get(i));
            UintegerValue send;
            UintegerValue receive;
            app->GetAttribute("SendBuffer", send);
            app->GetAttribute("ReceiveBuffer", receive);
            NS_TEST_EXPECT_MSG_EQ(send.Get(), 46400, "member " << i);
            NS_TEST_EXPECT_MSG_EQ(receive.Get(), 110702, "2 x 46400 + 17896, + 1/16384 of it");
            NS_TEST_EXPECT_MSG_EQ(app->IsExact(), true, "member " << i);
            NS_TEST_EXPECT_MSG_EQ(app->GetRetransmissions(), 0, "lossless");
        }
        Simulator::Destroy();
        Config::Reset();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The ring against its closed forms on a uniform ring of N = 6
 * islands, links of L = 10 ms, accesses of R = 20 Gbps, D = 6 MB, TCP at
 * line rate from its first window.  The chunks pipeline through the 2(N - 1)
 * steps: each step's first chunk is a link later than the step before, and
 * the last step ends one segment of D/N after its first chunk, so a member
 * completes at 2(N - 1) x L + D/N / R = 100 ms + 0.4 ms = 100.4 ms (measured
 * 100.48 ms), within 3%, while its egress (2(N - 1)/N x D / R = 4 ms) is not
 * the bottleneck.  The closed form of unpipelined steps, 2(N - 1)/N x D / R +
 * 2(N - 1) x L = 104 ms, adds the two: an upper bound the ring stays under.
 */
class RingClosedFormTestCase : public WanTestCase
{
  public:
    RingClosedFormTestCase()
        : WanTestCase("ring all-reduce over TCP on a uniform ring of 6: the pipelined closed form")
    {
    }

  private:
    /// @return the slowest member's time on the ring of `latency` and `accessBps`, D = 6 MB
    double Measure(double latency, double accessBps)
    {
        const auto run = MeasureUniformRing(latency, accessBps, 6e6);
        NS_TEST_EXPECT_MSG_EQ(run.exact, true, "every member exact");
        NS_TEST_EXPECT_MSG_EQ(run.retransmissions, 0, "lossless");
        return run.slowest;
    }

    void DoCheck() override
    {
        const double n = 6;
        const double bits = 6e6 * 8;
        const double latency = 0.010;
        const double rate = 20e9;
        const double pipelined = 2 * (n - 1) * latency + bits / n / rate;
        NS_TEST_EXPECT_MSG_EQ_TOL(pipelined, 0.1004, 1e-12, "100 ms + 0.4 ms");
        const double unpipelined = 2 * (n - 1) / n * bits / rate + 2 * (n - 1) * latency;
        NS_TEST_EXPECT_MSG_EQ_TOL(unpipelined, 0.104, 1e-12, "4 ms + 100 ms");
        const double measured = Measure(latency, rate);
        NS_TEST_EXPECT_MSG_EQ_TOL(measured, pipelined, 0.03 * pipelined, "the pipelined form");
        NS_TEST_EXPECT_MSG_LT(measured, unpipelined, "the unpipelined steps' upper bound");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Where the egress binds: a uniform ring of N = 6, links of L = 1 ms,
 * accesses of R = 2 Gbps, D = 30 MB, TCP at line rate from its first window.
 * The pipelined form is 2(N - 1)/N x D / R + L = 200 ms + 1 ms = 201 ms. With
 * the helper's buffers (a send buffer of twice the idle path's product, about
 * 1.04 MB) the ring takes over 15% longer (measured 248.0 ms, no
 * retransmission): every member's ingress queue fills with its predecessor's
 * segments, its successor's ACKs wait behind them (up to 100 frames of
 * 36 us), and a send buffer of twice the idle round trip's product then
 * holds less than the loaded round trip needs, so the egress idles two frame
 * times at a time (593 gaps of 70 to 80 us on A's egress, 45 ms in all). With
 * send buffers of 2 MB the ring meets the form within 3% (measured 202.9 ms).
 */
class RingEgressBoundTestCase : public WanTestCase
{
  public:
    RingEgressBoundTestCase()
        : WanTestCase("an egress-bound ring: held by its send buffers, the form with larger ones")
    {
    }

  private:
    /**
     * @param sendBuffer the members' send buffers (0: the helper's)
     * @return the slowest member's time, seconds
     */
    double Measure(uint32_t sendBuffer)
    {
        const auto run = MeasureUniformRing(0.001, 2e9, 30e6, sendBuffer);
        NS_TEST_EXPECT_MSG_EQ(run.exact, true, "every member exact");
        NS_TEST_EXPECT_MSG_EQ(run.retransmissions, 0, "lossless");
        return run.slowest;
    }

    void DoCheck() override
    {
        const double form = 2.0 * 5 / 6 * 30e6 * 8 / 2e9 + 0.001;
        NS_TEST_EXPECT_MSG_EQ_TOL(form, 0.201, 1e-12, "200 ms + 1 ms");
        NS_TEST_EXPECT_MSG_GT(Measure(0), 1.15 * form, "held by twice the idle path's product");
        NS_TEST_EXPECT_MSG_EQ_TOL(Measure(2000000), form, 0.03 * form, "the form with 2 MB");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible rings are refused in one line: one member, a city the
 * topology does not have, a city twice, no payload, a receive buffer below
 * two segments; 0 connections and
 * buffers of 0 bytes are out of the attributes' range.
 */
class RingBadInputTestCase : public WanTestCase
{
  public:
    RingBadInputTestCase()
        : WanTestCase("ring all-reduce: bad rings and settings refused")
    {
    }

  private:
    void DoCheck() override
    {
        WanNetworkHelper net(TriangleTopology());
        net.Install();
        WanRingAllReduceHelper ring(net);
        auto e = ErrorOf([&] { ring.Install({1}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "1 member(s), need at least 2"), true, e);
        e = ErrorOf([&] { ring.Install({0, 7}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "no city 7 (the topology has 3)"), true, e);
        e = ErrorOf([&] { ring.Install({0, 1, 0}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "city A twice among the members"), true, e);
        e = ErrorOf([&] { ring.SetPayload(0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "ring all-reduce payload"), true, e);
        ring.SetAttribute("ReceiveBuffer", UintegerValue(17895));
        e = ErrorOf([&] { ring.Install({0, 1}); });
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(e, "ReceiveBuffer 17895 bytes is below two segments (17896 bytes at A's MTU)"),
            true,
            e);
        auto app = CreateObject<WanRingApplication>();
        NS_TEST_EXPECT_MSG_EQ(app->SetAttributeFailSafe("Connections", UintegerValue(0)),
                              false,
                              "k = 0");
        NS_TEST_EXPECT_MSG_EQ(app->SetAttributeFailSafe("SendBuffer", UintegerValue(0)), false, "");
        NS_TEST_EXPECT_MSG_EQ(app->SetAttributeFailSafe("ChunkBytes", UintegerValue(15)),
                              false,
                              "shorter than a record's header");
        // The order from the topology: on the triangle (A-B 10, A-C 20,
        // B-C 25 ms) every ring has the same links.
        const auto order = WanRingAllReduceHelper::ChooseOrder(TriangleTopology(), {0, 1, 2});
        NS_TEST_EXPECT_MSG_EQ(order.size(), 3, "");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-ring-all-reduce test suite.
 */
class WanRingAllReduceTestSuite : public TestSuite
{
  public:
    WanRingAllReduceTestSuite()
        : TestSuite("wan-training-ring-all-reduce", Type::UNIT)
    {
        AddTestCase(new RingLogicTestCase);
        AddTestCase(new RingTcpTestCase);
        AddTestCase(new RingHighScaleTestCase);
        AddTestCase(new RingClosedFormTestCase);
        AddTestCase(new RingEgressBoundTestCase);
        AddTestCase(new RingBadInputTestCase);
    }
};

/// The suite's one instance.
static WanRingAllReduceTestSuite g_wanRingAllReduceTestSuite;
