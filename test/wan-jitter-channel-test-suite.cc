/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/enum.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wan-jitter-channel.h"
#include "ns3/wan-link-impairment.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-training-compat.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @param jitter the extra-delay random variable
 * @param reorder the Reorder attribute
 * @return a channel of the independent model (5 ms)
 */
Ptr<WanJitterChannel>
IndependentChannel(Ptr<RandomVariableStream> jitter, bool reorder)
{
    auto channel = CreateObject<WanJitterChannel>();
    channel->SetAttribute("Delay", TimeValue(MilliSeconds(5)));
    channel->SetAttribute("Model", EnumValue(WanJitterChannel::INDEPENDENT));
    channel->SetAttribute("Jitter", PointerValue(jitter));
    channel->SetAttribute("Reorder", BooleanValue(reorder));
    return channel;
}

/**
 * @ingroup wan-training-tests
 * @param stdDev the delay process's StdDev
 * @param tau its CorrelationTime
 * @return a channel of the correlated model (5 ms), exponential delays
 */
Ptr<WanJitterChannel>
CorrelatedChannel(Time stdDev, Time tau)
{
    ObjectFactory process("ns3::WanDelayProcess");
    process.Set("StdDev", TimeValue(stdDev));
    process.Set("CorrelationTime", TimeValue(tau));
    auto channel = CreateObject<WanJitterChannel>();
    channel->SetAttribute("Delay", TimeValue(MilliSeconds(5)));
    channel->SetAttribute("DelayProcess", ObjectFactoryValue(process));
    return channel;
}

/**
 * @ingroup wan-training-tests
 * @brief Two nodes on a WanJitterChannel; packets of 100 bytes sent at fixed
 * times, their arrival recorded.
 */
class JitterLink
{
  public:
    /**
     * @param jitter the extra-delay random variable
     * @param reorder the Reorder attribute
     */
    JitterLink(Ptr<RandomVariableStream> jitter, bool reorder)
        : JitterLink(IndependentChannel(jitter, reorder))
    {
    }

    /// @param channel the channel, not yet attached
    explicit JitterLink(Ptr<WanJitterChannel> channel)
        : m_channel(channel)
    {
        m_streams = m_channel->AssignStreams(11);
        for (auto& d : m_devices)
        {
            auto node = CreateObject<Node>();
            d = CreateObject<PointToPointNetDevice>();
            d->SetAddress(Mac48Address::Allocate());
            d->SetDataRate(DataRate("10Gbps"));
            d->SetQueue(CreateObject<DropTailQueue<Packet>>());
            node->AddDevice(d);
            d->Attach(m_channel);
        }
        m_devices[1]->SetReceiveCallback(MakeCallback(&JitterLink::Receive, this));
        m_channel->TraceConnectWithoutContext("Hold", MakeCallback(&JitterLink::Hold, this));
    }

    /**
     * @param count packets
     * @param interval time between sends
     */
    void Send(uint32_t count, Time interval)
    {
        for (uint32_t k = 0; k < count; ++k)
        {
            Simulator::Schedule(interval * k, &JitterLink::SendOne, this);
        }
        Simulator::Run();
        Simulator::Destroy();
    }

    /// @return extra delays (arrival - send - transmission - Delay), seconds, in send order
    std::vector<double> Extras() const
    {
        std::vector<double> extras;
        // 102 bytes (100 + PPP header) at 10 Gbps.
        const double tx = 102 * 8 / 10e9;
        for (const auto& [uid, sent] : m_sent)
        {
            extras.push_back(m_arrived.at(uid) - sent - tx - 5e-3);
        }
        return extras;
    }

    /// @return packets that arrived before one sent earlier
    uint32_t Overtakes() const
    {
        uint32_t overtakes = 0;
        for (size_t k = 1; k < m_order.size(); ++k)
        {
            overtakes += m_order[k] < m_order[k - 1] ? 1 : 0;
        }
        return overtakes;
    }

    /// @return packets received
    size_t Received() const
    {
        return m_order.size();
    }

    /// @return the mean time a packet was held for FIFO order, seconds (all packets)
    double MeanHold() const
    {
        return m_held / m_sent.size();
    }

    /// @return the channel
    Ptr<WanJitterChannel> Channel() const
    {
        return m_channel;
    }

    /// @return the random streams the channel used
    int64_t Streams() const
    {
        return m_streams;
    }

  private:
    void SendOne()
    {
        auto p = Create<Packet>(100);
        m_sent[p->GetUid()] = Simulator::Now().GetSeconds();
        m_devices[0]->Send(p, m_devices[1]->GetBroadcast(), 0x0800);
    }

    void Hold(Ptr<const Packet>, Time held)
    {
        m_held += held.GetSeconds();
    }

    bool Receive(Ptr<NetDevice>, Ptr<const Packet> p, uint16_t, const Address&)
    {
        m_arrived[p->GetUid()] = Simulator::Now().GetSeconds();
        m_order.push_back(p->GetUid());
        return true;
    }

    Ptr<WanJitterChannel> m_channel;                     //!< the channel
    std::array<Ptr<PointToPointNetDevice>, 2> m_devices; //!< sender, receiver
    std::map<uint64_t, double> m_sent;                   //!< uid -> send time
    std::map<uint64_t, double> m_arrived;                //!< uid -> arrival time
    std::vector<uint64_t> m_order;                       //!< uids in arrival order
    double m_held{0};                                    //!< FIFO hold, seconds, summed
    int64_t m_streams{0};                                //!< streams the channel used
};

/// @return mean and standard deviation
std::pair<double, double>
MeanAndSpread(const std::vector<double>& x)
{
    double mean = 0;
    for (double v : x)
    {
        mean += v / x.size();
    }
    double var = 0;
    for (double v : x)
    {
        var += (v - mean) * (v - mean) / (x.size() - 1);
    }
    return {mean, std::sqrt(var)};
}

/**
 * @ingroup wan-training-tests
 * @brief The extra delay follows the configured distribution.
 */
class JitterDistributionTestCase : public WanTestCase
{
  public:
    JitterDistributionTestCase()
        : WanTestCase("extra delay: mean and spread of exponential and uniform jitter")
    {
    }

  private:
    void DoCheck() override
    {
        // Packets 20 ms apart never queue, so FIFO order changes nothing.
        auto exponential = CreateObject<ExponentialRandomVariable>();
        exponential->SetAttribute("Mean", DoubleValue(1e-3));
        exponential->SetAttribute("Bound", DoubleValue(0));
        JitterLink a(exponential, false);
        a.Send(20000, MilliSeconds(20));
        NS_TEST_ASSERT_MSG_EQ(a.Received(), 20000, "all delivered");
        auto [mean, sd] = MeanAndSpread(a.Extras());
        // Exponential: mean = sd = 1 ms; 20000 samples give ~0.7% standard error.
        NS_TEST_EXPECT_MSG_EQ_TOL(mean, 1e-3, 0.03e-3, "exponential mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(sd, 1e-3, 0.05e-3, "exponential spread");

        auto uniform = CreateObject<UniformRandomVariable>();
        uniform->SetAttribute("Min", DoubleValue(2e-3));
        uniform->SetAttribute("Max", DoubleValue(4e-3));
        JitterLink b(uniform, false);
        b.Send(20000, MilliSeconds(20));
        auto extras = b.Extras();
        auto [umean, usd] = MeanAndSpread(extras);
        NS_TEST_EXPECT_MSG_EQ_TOL(umean, 3e-3, 0.03e-3, "uniform mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(usd, 2e-3 / std::sqrt(12.0), 0.03e-3, "uniform spread");
        double lo = *std::min_element(extras.begin(), extras.end());
        double hi = *std::max_element(extras.begin(), extras.end());
        NS_TEST_EXPECT_MSG_GT_OR_EQ(lo, 2e-3 - 1e-9, "within [2, 4] ms");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(hi, 4e-3 + 1e-9, "within [2, 4] ms");

        // No jitter: Delay + transmission (81.6 ns, kept to the nanosecond).
        JitterLink c(CreateObject<ConstantRandomVariable>(), false);
        c.Send(100, MilliSeconds(1));
        auto [cmean, csd] = MeanAndSpread(c.Extras());
        NS_TEST_EXPECT_MSG_EQ_TOL(cmean, 0, 1e-9, "no extra delay");
        NS_TEST_EXPECT_MSG_EQ_TOL(csd, 0, 1e-12, "no spread");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief FIFO mode never reorders; reorder mode does.
 */
class JitterOrderTestCase : public WanTestCase
{
  public:
    JitterOrderTestCase()
        : WanTestCase("FIFO order is kept unless reordering is allowed")
    {
    }

  private:
    void DoCheck() override
    {
        // Packets 10 us apart with 1 ms of jitter: most draws would overtake.
        for (bool reorder : {false, true})
        {
            auto exponential = CreateObject<ExponentialRandomVariable>();
            exponential->SetAttribute("Mean", DoubleValue(1e-3));
            JitterLink link(exponential, reorder);
            link.Send(5000, MicroSeconds(10));
            NS_TEST_ASSERT_MSG_EQ(link.Received(), 5000, "all delivered");
            if (reorder)
            {
                NS_TEST_EXPECT_MSG_GT(link.Overtakes(), 1000, "packets overtake");
            }
            else
            {
                NS_TEST_EXPECT_MSG_EQ(link.Overtakes(), 0, "FIFO never reorders");
                auto extras = link.Extras();
                NS_TEST_EXPECT_MSG_GT_OR_EQ(*std::min_element(extras.begin(), extras.end()),
                                            -1e-12,
                                            "never early");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Correlated model: FIFO by itself when the delay changes slower
 * than packets leave (dt >> 2 sigma^2 / tau), packets held otherwise.
 */
class CorrelatedOrderTestCase : public WanTestCase
{
  public:
    CorrelatedOrderTestCase()
        : WanTestCase("correlated model: in order by itself when slow, held when fast")
    {
    }

  private:
    void DoCheck() override
    {
        // sigma 1 ms, tau 1 s: 2 sigma^2 / tau = 2 us, packets 100 us apart.
        JitterLink slow(CorrelatedChannel(MilliSeconds(1), Seconds(1)));
        slow.Send(20000, MicroSeconds(100));
        NS_TEST_ASSERT_MSG_EQ(slow.Received(), 20000, "all delivered");
        NS_TEST_EXPECT_MSG_EQ(slow.Streams(), 3, "three streams");
        NS_TEST_EXPECT_MSG_EQ(slow.Channel()->GetPackets(), 20000, "packets counted");
        NS_TEST_EXPECT_MSG_EQ(slow.Channel()->GetHeldPackets(), 0, "none held");
        NS_TEST_EXPECT_MSG_EQ(slow.Overtakes(), 0, "in order");
        auto extras = slow.Extras();
        NS_TEST_EXPECT_MSG_GT(*std::max_element(extras.begin(), extras.end()),
                              0.5e-3,
                              "the delay varies");

        // tau 10 ms: 2 sigma^2 / tau = 200 us, packets 10 us apart.
        JitterLink fast(CorrelatedChannel(MilliSeconds(1), MilliSeconds(10)));
        fast.Send(5000, MicroSeconds(10));
        NS_TEST_ASSERT_MSG_EQ(fast.Received(), 5000, "all delivered");
        NS_TEST_EXPECT_MSG_GT(fast.Channel()->GetHeldPackets(), 1000, "packets held");
        NS_TEST_EXPECT_MSG_EQ(fast.Overtakes(), 0, "still in order");
        extras = fast.Extras();
        NS_TEST_EXPECT_MSG_GT_OR_EQ(*std::min_element(extras.begin(), extras.end()),
                                    -1e-12,
                                    "never early");

        // The same process without holding would reorder them.
        auto loose = CorrelatedChannel(MilliSeconds(1), MilliSeconds(10));
        loose->SetAttribute("Reorder", BooleanValue(true));
        JitterLink unordered(loose);
        unordered.Send(5000, MicroSeconds(10));
        NS_TEST_EXPECT_MSG_GT(unordered.Overtakes(), 1000, "the raw process reorders");
        NS_TEST_EXPECT_MSG_EQ(unordered.Channel()->GetHeldPackets(), 0, "nothing held");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The FIFO hold at rising packet rates: the same under the
 * correlated model (its envelope is a function of time; 46, 45 and 48 us
 * for sigma 1 ms and tau 10 ms), growing with the rate under independent
 * draws (the running maximum of more draws).
 */
class JitterHoldRateTestCase : public WanTestCase
{
  public:
    JitterHoldRateTestCase()
        : WanTestCase("FIFO hold: the same at any packet rate when correlated, growing when "
                      "independent")
    {
    }

  private:
    void DoCheck() override
    {
        std::vector<double> correlated;
        std::vector<double> independent;
        // Half a second at each spacing: 5000 to 250000 packets.
        for (auto spacing : {MicroSeconds(100), MicroSeconds(10), MicroSeconds(2)})
        {
            const auto count = static_cast<uint32_t>(std::lround(0.5 / spacing.GetSeconds()));
            JitterLink c(CorrelatedChannel(MilliSeconds(1), MilliSeconds(10)));
            c.Send(count, spacing);
            correlated.push_back(c.MeanHold());
            auto exponential = CreateObject<ExponentialRandomVariable>();
            exponential->SetAttribute("Mean", DoubleValue(1e-3));
            JitterLink i(exponential, false);
            i.Send(count, spacing);
            independent.push_back(i.MeanHold());
        }
        // sigma 1 ms, tau 10 ms: at most sigma^2 / tau = 0.1 ms.
        for (size_t k = 0; k < correlated.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_LT(correlated[k], 0.2e-3, "correlated hold, spacing #" << k);
        }
        const std::string held = "correlated mean holds " + std::to_string(correlated[0]) + ", " +
                                 std::to_string(correlated[1]) + ", " +
                                 std::to_string(correlated[2]) + " s";
        NS_TEST_EXPECT_MSG_EQ_TOL(correlated[2], correlated[0], 0.005e-3, held);
        NS_TEST_EXPECT_MSG_GT(correlated[2], 0.03e-3, held);
        // Independent: about sigma (ln(sigma / spacing) - 0.42), 1.9 to 5.8 ms.
        NS_TEST_EXPECT_MSG_GT(independent[0], 1e-3, "independent hold at 100 us");
        NS_TEST_EXPECT_MSG_GT(independent[1], independent[0] + 1.5e-3, "grows at 10 us");
        NS_TEST_EXPECT_MSG_GT(independent[2], independent[1] + 1e-3, "grows at 2 us");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Nine cities, triangles with 32 GB of FPGA memory, 1 ms of
 * correlated jitter (exponential, 10 ms correlation time) on every core
 * link, two rounds: the inflation of the mean round time against the
 * jitter-free run at the same scale agrees within 1 percentage point at
 * the scales given (100 and 1000 by default; 10 as well in the EXTENSIVE
 * case, which takes about two minutes), as the delay is a function of time
 * and not of the packet count.
 */
class JitterScaleTestCase : public WanTestCase
{
  public:
    /**
     * @param scales the time-preserving scales to compare
     */
    JitterScaleTestCase(std::vector<double> scales)
        : WanTestCase("correlated jitter: the same round-time inflation at scales" +
                      ScaleList(scales)),
          m_scales(std::move(scales))
    {
    }

  private:
    /**
     * @param scale the time-preserving scale
     * @param jitter with 1 ms of correlated jitter on the core, or none
     * @return the measured T of each round, ms
     */
    std::vector<double> RoundTimes(double scale, bool jitter)
    {
        const auto topo = WanTopology::NineCity();
        PlannerConfig config;
        config.hbmBytes = 32e9;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(scale);
        experiment.SetRounds(2);
        experiment.SetStream(1000);
        if (jitter)
        {
            WanLinkImpairment imp;
            imp.jitterSeconds = 1e-3;
            experiment.SetImpairment(WanNetworkHelper::CORE, imp);
        }
        const auto r = experiment.Run(CliqueScheduleBuiltins::Triangles(topo));
        NS_TEST_EXPECT_MSG_EQ(r.exact, true, "scale " << scale << ": sums exact");
        std::vector<double> times;
        for (const auto& round : r.rounds)
        {
            times.push_back(round.measuredMs);
        }
        return times;
    }

    void DoCheck() override
    {
        // The inflation of the mean round time (both rounds of the period):
        // a round's own figure also carries the chance of where the delay
        // process peaks in it (about 0.25 percentage points, one standard
        // deviation, between streams), the mean of two rounds less of it.
        std::vector<double> inflation; // percent, per scale
        std::ostringstream figures;
        for (double scale : m_scales)
        {
            const auto base = RoundTimes(scale, false);
            const auto jittery = RoundTimes(scale, true);
            NS_TEST_ASSERT_MSG_EQ(jittery.size(), 2, "two rounds");
            figures << " scale " << scale << ":";
            for (size_t k = 0; k < base.size(); ++k)
            {
                figures << " " << 100 * (jittery[k] / base[k] - 1) << "%";
                // Every packet crosses a core link: 1 ms later on average.
                NS_TEST_EXPECT_MSG_GT(jittery[k] - base[k],
                                      1.0,
                                      "scale " << scale << ", round " << k + 1);
            }
            const double sum = std::accumulate(base.begin(), base.end(), 0.0);
            inflation.push_back(100 *
                                (std::accumulate(jittery.begin(), jittery.end(), 0.0) / sum - 1));
            figures << " (mean " << inflation.back() << "%)";
        }
        const auto [lo, hi] = std::minmax_element(inflation.begin(), inflation.end());
        NS_TEST_EXPECT_MSG_LT_OR_EQ(*hi - *lo, 1.0, "inflation per round" << figures.str());
    }

    std::vector<double> m_scales; //!< the scales compared
};

/**
 * @ingroup wan-training-tests
 * @brief Independent model with ReverseJitter: each direction draws from its
 * own stream, so one direction's delays do not depend on the other's packets
 * (what lets the ranks of a distributed run draw apart); without it both
 * draw from one stream.
 */
class JitterDirectionStreamsTestCase : public WanTestCase
{
  public:
    JitterDirectionStreamsTestCase()
        : WanTestCase("independent jitter: with ReverseJitter each direction its own stream")
    {
    }

  private:
    /**
     * @param reverse set ReverseJitter
     * @param both send from both devices in turn (else from device 0 only)
     * @return the extra delays of device 0's ten packets, seconds
     */
    std::vector<double> Forward(bool reverse, bool both)
    {
        auto uniform = [] {
            auto u = CreateObject<UniformRandomVariable>();
            u->SetAttribute("Max", DoubleValue(0.01));
            return u;
        };
        auto channel = IndependentChannel(uniform(), true);
        if (reverse)
        {
            channel->SetAttribute("ReverseJitter", PointerValue(uniform()));
        }
        const int64_t streams = channel->AssignStreams(11);
        std::array<Ptr<PointToPointNetDevice>, 2> devices;
        for (auto& d : devices)
        {
            auto node = CreateObject<Node>();
            d = CreateObject<PointToPointNetDevice>();
            node->AddDevice(d);
            d->Attach(channel);
        }
        m_extras.clear();
        channel->TraceConnectWithoutContext(
            "Jitter",
            MakeCallback(&JitterDirectionStreamsTestCase::Extra, this));
        for (uint32_t k = 0; k < 10; ++k)
        {
            m_forward = Create<Packet>(100);
            channel->TransmitStart(m_forward, devices[0], Time(0));
            if (both)
            {
                channel->TransmitStart(Create<Packet>(100), devices[1], Time(0));
            }
        }
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(streams, (reverse ? 4 : 3), "streams used");
        return m_extras;
    }

    /// Jitter trace: records the extra delay of device 0's packets.
    void Extra(Ptr<const Packet> p, Time extra)
    {
        if (p == m_forward)
        {
            m_extras.push_back(extra.GetSeconds());
        }
    }

    Ptr<const Packet> m_forward;  //!< device 0's last packet
    std::vector<double> m_extras; //!< its extra delays, seconds

    void DoCheck() override
    {
        const auto alone = Forward(true, false);
        const auto together = Forward(true, true);
        NS_TEST_ASSERT_MSG_EQ(alone.size(), 10, "ten forward packets");
        NS_TEST_EXPECT_MSG_EQ((alone == together), true, "own stream: the same delays");
        NS_TEST_EXPECT_MSG_GT(alone[0], 0, "a delay drawn");
        NS_TEST_EXPECT_MSG_EQ((Forward(false, false) == Forward(false, true)),
                              false,
                              "one stream: the reverse packets take draws");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The jitter channel's test suite.
 */
class WanJitterChannelTestSuite : public TestSuite
{
  public:
    WanJitterChannelTestSuite()
        : TestSuite("wan-training-jitter", Type::UNIT)
    {
        AddTestCase(new JitterDistributionTestCase);
        AddTestCase(new JitterOrderTestCase);
        AddTestCase(new CorrelatedOrderTestCase);
        AddTestCase(new JitterHoldRateTestCase);
        AddTestCase(new JitterScaleTestCase({100, 1000}));
        // Scale 10 alone takes about two minutes of packet-level simulation.
        AddTestCase(new JitterScaleTestCase({10, 100, 1000}), wancompat::Extensive<TestCase>);
        AddTestCase(new JitterDirectionStreamsTestCase);
    }
};

/// The suite's static instance.
static WanJitterChannelTestSuite g_wanJitterChannelTestSuite;
