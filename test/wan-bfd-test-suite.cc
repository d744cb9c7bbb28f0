/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/error-model.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wan-bfd-application.h"
#include "ns3/wan-bfd-header.h"
#include "ns3/wan-bfd-helper.h"
#include "ns3/wan-bfd-session.h"
#include "ns3/wan-network-helper.h"

#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// A session with 10 ms intervals, multiplier 3.
WanBfdSession
Session(uint32_t discriminator)
{
    WanBfdSession::Config c;
    c.myDiscriminator = discriminator;
    return WanBfdSession(c);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The control packet in RFC 5880's wire format, and the packets a
 * receiver must refuse.
 */
class BfdHeaderTestCase : public WanTestCase
{
  public:
    BfdHeaderTestCase()
        : WanTestCase("control packet: RFC 5880 bytes, back, and refusals")
    {
    }

  private:
    void DoCheck() override
    {
        WanBfdHeader h;
        h.state = WanBfdHeader::UP;
        h.diagnostic = WanBfdHeader::NEIGHBOR_DOWN;
        h.final = true;
        h.detectMultiplier = 3;
        h.myDiscriminator = 0x01020304;
        h.yourDiscriminator = 7;
        h.desiredMinTxUs = 10000;
        h.requiredMinRxUs = 20000;
        const auto bytes = SerializedBytes(h);
        // version 1 << 5 | diag 3; Up (3) << 6 | F (0x10); mult 3; length 24.
        const std::vector<uint8_t> expected{0x23, 0xd0, 3,    24,   1, 2, 3,    4,    0, 0, 0, 7,
                                            0,    0,    0x27, 0x10, 0, 0, 0x4e, 0x20, 0, 0, 0, 0};
        NS_TEST_EXPECT_MSG_EQ((bytes == expected), true, "the 24 bytes");
        WanBfdHeader back;
        NS_TEST_EXPECT_MSG_EQ(DeserializeBytes(bytes, back), 24, "read");
        NS_TEST_EXPECT_MSG_EQ(back.state, WanBfdHeader::UP, "state");
        NS_TEST_EXPECT_MSG_EQ(back.diagnostic, WanBfdHeader::NEIGHBOR_DOWN, "diagnostic");
        NS_TEST_EXPECT_MSG_EQ(back.final && !back.poll, true, "F, not P");
        NS_TEST_EXPECT_MSG_EQ(back.myDiscriminator, 0x01020304u, "my");
        NS_TEST_EXPECT_MSG_EQ(back.yourDiscriminator, 7u, "your");
        NS_TEST_EXPECT_MSG_EQ(back.desiredMinTxUs, 10000u, "tx");
        NS_TEST_EXPECT_MSG_EQ(back.requiredMinRxUs, 20000u, "rx");

        // Each refusal starts from the hand-written bytes.
        auto version = expected;
        version[0] = 0x43;
        auto length = expected;
        length[3] = 48;
        auto auth = expected;
        auth[1] |= 0x04;
        auto mult = expected;
        mult[2] = 0;
        auto mine = expected;
        mine[4] = mine[5] = mine[6] = mine[7] = 0;
        auto shortPacket = expected;
        shortPacket.resize(20);
        for (const auto& bad : {version, length, auth, mult, mine, shortPacket})
        {
            WanBfdHeader kept;
            kept.detectMultiplier = 9;
            NS_TEST_EXPECT_MSG_EQ(DeserializeBytes(bad, kept), 0, "refused");
            NS_TEST_EXPECT_MSG_EQ(int(kept.detectMultiplier), 9, "unchanged");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Two ends come up through the three-way handshake, and one that
 * stops hearing the other declares the session down after the detection
 * time, not before.
 */
class BfdSessionTestCase : public WanTestCase
{
  public:
    BfdSessionTestCase()
        : WanTestCase("session: three-way handshake, detection time, intervals")
    {
    }

  private:
    void DoCheck() override
    {
        auto a = Session(1);
        auto b = Session(2);
        auto got = b.Receive(a.MakePacket(), MilliSeconds(0));
        NS_TEST_EXPECT_MSG_EQ(got, true, "A's Down");
        NS_TEST_EXPECT_MSG_EQ(b.GetState(), WanBfdHeader::INIT, "B: Down -> Init");
        got = a.Receive(b.MakePacket(), MilliSeconds(1));
        NS_TEST_EXPECT_MSG_EQ(got, true, "B's Init");
        NS_TEST_EXPECT_MSG_EQ(a.GetState(), WanBfdHeader::UP, "A: Down -> Up");
        got = b.Receive(a.MakePacket(), MilliSeconds(2));
        NS_TEST_EXPECT_MSG_EQ(got, true, "A's Up");
        NS_TEST_EXPECT_MSG_EQ(b.GetState(), WanBfdHeader::UP, "B: Init -> Up");

        // B's Init advertised the 1 s of an end not yet Up: A waits 3 s; once
        // B's first packet as Up arrives, 10 ms each way, multiplier 3: 30 ms.
        NS_TEST_EXPECT_MSG_EQ(a.GetDetectionTime(), Seconds(3), "3 x max(10 ms, 1 s)");
        got = a.Receive(b.MakePacket(), MilliSeconds(3));
        NS_TEST_EXPECT_MSG_EQ(got, true, "B's Up");
        NS_TEST_EXPECT_MSG_EQ(a.GetDetectionTime(), MilliSeconds(30), "3 x 10 ms");
        NS_TEST_EXPECT_MSG_EQ(a.GetTransmitInterval(0), MilliSeconds(10), "no cut");
        NS_TEST_EXPECT_MSG_EQ(a.GetTransmitInterval(0.5), MicroSeconds(8750), "12.5% cut");
        auto detected = b.CheckDetection(MicroSeconds(31999));
        NS_TEST_EXPECT_MSG_EQ(detected, false, "29.999 ms: alive");
        detected = b.CheckDetection(MilliSeconds(32));
        NS_TEST_EXPECT_MSG_EQ(detected, true, "30 ms: down");
        NS_TEST_EXPECT_MSG_EQ(b.GetState(), WanBfdHeader::DOWN, "Down");
        NS_TEST_EXPECT_MSG_EQ(b.GetDiagnostic(), WanBfdHeader::DETECTION_TIME, "why");
        detected = b.CheckDetection(MilliSeconds(100));
        NS_TEST_EXPECT_MSG_EQ(detected, false, "once");

        // B is down: it sends Down, and A (Up) follows: neighbour signalled down.
        NS_TEST_EXPECT_MSG_EQ(b.MakePacket().yourDiscriminator, 0u, "B forgot A");
        NS_TEST_EXPECT_MSG_EQ(b.MakePacket().desiredMinTxUs, 1000000u, "1 s while not Up");
        NS_TEST_EXPECT_MSG_EQ(b.GetTransmitInterval(0), Seconds(1), "1 s while not Up");
        got = a.Receive(b.MakePacket(), MilliSeconds(40));
        NS_TEST_EXPECT_MSG_EQ(got, false, "Up: a packet that does not know A is discarded");
        auto down = b.MakePacket();
        down.yourDiscriminator = 1;
        got = a.Receive(down, MilliSeconds(41));
        NS_TEST_EXPECT_MSG_EQ(got, true, "B's Down, for A");
        NS_TEST_EXPECT_MSG_EQ(a.GetState(), WanBfdHeader::DOWN, "A: Up -> Down");
        NS_TEST_EXPECT_MSG_EQ(a.GetDiagnostic(), WanBfdHeader::NEIGHBOR_DOWN, "why");

        // Another session's packet, and slower remote ends.
        auto c = Session(3);
        auto other = a.MakePacket();
        other.yourDiscriminator = 99;
        got = c.Receive(other, MilliSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(got, false, "not for C");
        auto slow = a.MakePacket();
        slow.desiredMinTxUs = 50000;
        slow.detectMultiplier = 5;
        slow.yourDiscriminator = 0;
        got = c.Receive(slow, MilliSeconds(50));
        NS_TEST_EXPECT_MSG_EQ(got, true, "heard");
        NS_TEST_EXPECT_MSG_EQ(c.GetDetectionTime(), MilliSeconds(250), "5 x max(10, 50) ms");

        WanBfdSession::Config bad;
        bad.detectMultiplier = 0;
        auto e = ErrorOf([&] { WanBfdSession s(bad); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "multiplier must be at least 1"), true, e);
        bad = WanBfdSession::Config{};
        bad.desiredMinTx = Seconds(0);
        e = ErrorOf([&] { WanBfdSession s(bad); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "desired minimum transmit interval must be"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief BFD on the routers of a line A-B-C (10 and 20 ms): every session
 * comes up; cutting A-B (its devices drop everything they receive, and no
 * component is told) brings both of its ends down within the detection time,
 * and B-C stays up; when the link carries packets again its sessions come
 * back.
 */
class BfdLinkCutTestCase : public WanTestCase
{
  public:
    BfdLinkCutTestCase()
        : WanTestCase("routers: a cut link detected within the detection time, nothing else")
    {
    }

  private:
    /// A session's transition, as the trace sources report it.
    struct Event
    {
        double at;          //!< when, seconds
        bool up;            //!< came up (false: went down)
        Ipv4Address from;   //!< this end's address
        uint8_t diagnostic; //!< RFC 5880 diagnostic
    };

    static void Record(std::vector<Event>* events,
                       bool up,
                       Ipv4Address local,
                       Ipv4Address,
                       uint8_t diagnostic)
    {
        events->push_back({Simulator::Now().GetSeconds(), up, local, diagnostic});
    }

    /// Makes both devices of a core link drop (rate 1) or pass (rate 0) everything.
    static void Cut(Ptr<RateErrorModel> a, Ptr<RateErrorModel> b, double rate)
    {
        a->SetRate(rate);
        b->SetRate(rate);
    }

    void DoCheck() override
    {
        Ipv4AddressGenerator::Reset();
        WanNetworkHelper net(LineTopology({"A", "B", "C"}, {10, 20}));
        net.Install();
        WanBfdHelper bfd;
        bfd.SetAttribute("DesiredMinTx", TimeValue(MilliSeconds(10)));
        bfd.SetAttribute("RequiredMinRx", TimeValue(MilliSeconds(10)));
        auto apps = bfd.Install(net);
        WanBfdHelper::AssignStreams(apps, 7);
        NS_TEST_ASSERT_MSG_EQ(apps.GetN(), 3, "one per router");
        std::vector<Event> events;
        for (uint32_t c = 0; c < 3; ++c)
        {
            apps.Get(c)->TraceConnectWithoutContext("SessionUp",
                                                    MakeBoundCallback(&Record, &events, true));
            apps.Get(c)->TraceConnectWithoutContext("SessionDown",
                                                    MakeBoundCallback(&Record, &events, false));
        }
        std::vector<Ptr<RateErrorModel>> models;
        for (const auto& [from, to] : {std::pair{0u, 1u}, std::pair{1u, 0u}})
        {
            auto model = CreateObject<RateErrorModel>();
            model->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            model->SetRate(0);
            net.GetCoreDevice(from, to)->SetAttribute("ReceiveErrorModel", PointerValue(model));
            models.push_back(model);
        }
        Simulator::Schedule(Seconds(3), &Cut, models[0], models[1], 1.0);
        Simulator::Schedule(Seconds(5), &Cut, models[0], models[1], 0.0);
        Simulator::Stop(Seconds(8));
        Simulator::Run();

        uint32_t upBefore = 0;
        uint32_t downAB = 0;
        uint32_t upAfter = 0;
        for (const auto& e : events)
        {
            if (e.at < 3)
            {
                upBefore += e.up ? 1 : 0;
                NS_TEST_EXPECT_MSG_EQ(e.up, true, "nothing goes down before the cut");
            }
            else if (!e.up)
            {
                ++downAB;
                NS_TEST_EXPECT_MSG_EQ(int(e.diagnostic), 1, "detection time expired");
                // The last packet arrived at most one interval (10 ms) before
                // the cut: detected 20 to 30 ms after it.
                NS_TEST_EXPECT_MSG_GT_OR_EQ(e.at, 3.020, "not before 2 intervals of silence");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(e.at, 3.030, "within the detection time");
            }
            else
            {
                ++upAfter;
                NS_TEST_EXPECT_MSG_GT(e.at, 5, "back once the link carries packets");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(upBefore, 4, "A-B and B-C, both ends");
        NS_TEST_EXPECT_MSG_EQ(downAB, 2, "both ends of A-B, and only they");
        NS_TEST_EXPECT_MSG_EQ(upAfter, 2, "both ends of A-B again");
        Simulator::Destroy();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief BFD control packets and sessions (WanBfdHeader, WanBfdSession).
 */
class WanBfdTestSuite : public TestSuite
{
  public:
    WanBfdTestSuite()
        : TestSuite("wan-training-bfd", Type::UNIT)
    {
        AddTestCase(new BfdHeaderTestCase);
        AddTestCase(new BfdSessionTestCase);
        AddTestCase(new BfdLinkCutTestCase);
    }
};

/// The suite's one instance.
static WanBfdTestSuite g_wanBfdTestSuite;
