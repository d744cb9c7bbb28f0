/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/double.h"
#include "ns3/drop-tail-queue.h"
#include "ns3/mac48-address.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/random-variable-stream.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wan-jitter-channel.h"

#include <cmath>
#include <map>
#include <vector>

using namespace ns3;

/**
 * \ingroup wan-training-tests
 * \brief Two nodes on a WanJitterChannel; packets of 100 bytes sent at fixed
 * times, their arrival recorded.
 */
class JitterLink
{
  public:
    /**
     * \param jitter the extra-delay random variable
     * \param reorder the Reorder attribute
     */
    JitterLink(Ptr<RandomVariableStream> jitter, bool reorder)
    {
        m_channel = CreateObject<WanJitterChannel>();
        m_channel->SetAttribute("Delay", TimeValue(MilliSeconds(5)));
        m_channel->SetAttribute("Jitter", PointerValue(jitter));
        m_channel->SetAttribute("Reorder", BooleanValue(reorder));
        m_channel->AssignStreams(11);
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
    }

    /**
     * \param count packets
     * \param interval time between sends
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

    /// \return extra delays (arrival - send - transmission - Delay), seconds, in send order
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

    /// \return packets that arrived before one sent earlier
    uint32_t Overtakes() const
    {
        uint32_t overtakes = 0;
        for (size_t k = 1; k < m_order.size(); ++k)
        {
            overtakes += m_order[k] < m_order[k - 1] ? 1 : 0;
        }
        return overtakes;
    }

    /// \return packets received
    size_t Received() const
    {
        return m_order.size();
    }

  private:
    void SendOne()
    {
        auto p = Create<Packet>(100);
        m_sent[p->GetUid()] = Simulator::Now().GetSeconds();
        m_devices[0]->Send(p, m_devices[1]->GetBroadcast(), 0x0800);
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
};

/// \return mean and standard deviation
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
 * \ingroup wan-training-tests
 * \brief The extra delay follows the configured distribution.
 */
class JitterDistributionTestCase : public TestCase
{
  public:
    JitterDistributionTestCase()
        : TestCase("extra delay: mean and spread of exponential and uniform jitter")
    {
    }

  private:
    void DoRun() override
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
 * \ingroup wan-training-tests
 * \brief FIFO mode never reorders; reorder mode does.
 */
class JitterOrderTestCase : public TestCase
{
  public:
    JitterOrderTestCase()
        : TestCase("FIFO order is kept unless reordering is allowed")
    {
    }

  private:
    void DoRun() override
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
 * \ingroup wan-training-tests
 * \brief The jitter channel's test suite.
 */
class WanJitterChannelTestSuite : public TestSuite
{
  public:
    WanJitterChannelTestSuite()
        : TestSuite("wan-training-jitter", Type::UNIT)
    {
        AddTestCase(new JitterDistributionTestCase);
        AddTestCase(new JitterOrderTestCase);
    }
};

/// The suite's static instance.
static WanJitterChannelTestSuite g_wanJitterChannelTestSuite;
