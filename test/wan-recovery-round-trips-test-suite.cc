/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/nstime.h"
#include "ns3/test.h"
#include "ns3/wan-recovery-round-trips.h"
#include "ns3/wan-training-compat.h"

using namespace ns3;

/**
 * @ingroup wan-training-tests
 * @brief A negative time in seconds without undefined behaviour (the repair
 * wait is negative when a repair beats the planned round trip; ns-3.37's
 * Time::GetSeconds shifts a negative integer left, which the sanitizer
 * build reports): wancompat::Seconds gives what GetSeconds gives where the
 * shift behaves, for negative, zero and positive times.
 */
class NegativeSecondsTestCase : public WanTestCase
{
  public:
    NegativeSecondsTestCase()
        : WanTestCase("negative times in seconds: the same figures, no undefined behaviour")
    {
    }

  private:
    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ(wancompat::ToSeconds(MilliSeconds(-16)),
                              -MilliSeconds(16).GetSeconds(),
                              "-16 ms: the negation of 16 ms, bit for bit");
        NS_TEST_EXPECT_MSG_EQ_TOL(wancompat::ToSeconds(MilliSeconds(-16)), -0.016, 1e-15, "-16 ms");
        NS_TEST_EXPECT_MSG_EQ_TOL(wancompat::ToSeconds(NanoSeconds(-1)), -1e-9, 1e-18, "-1 ns");
        NS_TEST_EXPECT_MSG_EQ(wancompat::ToSeconds(Time(0)), 0.0, "0");
        NS_TEST_EXPECT_MSG_EQ(wancompat::ToSeconds(MilliSeconds(134)),
                              MilliSeconds(134).GetSeconds(),
                              "positive: GetSeconds");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The hop's round trip from NACKs and QUERYs to their answers, each
 * timed from its first message.
 */
class HopRoundTripTestCase : public WanTestCase
{
  public:
    HopRoundTripTestCase()
        : WanTestCase("the hop's round trip: first NACK or QUERY to its answer")
    {
    }

  private:
    void DoCheck() override
    {
        WanRecoveryRoundTrips t;
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetNackInterval(0.001), 0.001, 1e-15, "nothing measured");
        NS_TEST_EXPECT_MSG_EQ(t.Resent(7, MilliSeconds(2)), false, "never NACKed");
        // Sequence 7 NACKed at 1 and 3 ms, resent at 5 ms: 4 ms from the first.
        t.Nacked(7, MilliSeconds(1));
        t.Nacked(7, MilliSeconds(3));
        NS_TEST_EXPECT_MSG_EQ(t.Resent(7, MilliSeconds(5)), true, "");
        NS_TEST_EXPECT_MSG_EQ(t.Resent(7, MilliSeconds(6)), false, "answered once");
        NS_TEST_EXPECT_MSG_EQ(t.GetHopRtt().GetSamples(), 1, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetHopRtt().GetMean(), 0.004, 1e-15, "");
        // 4 + 4 x 2 ms = 12 ms, above a 1 ms NackDelay and below a 20 ms one.
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetNackInterval(0.001), 0.012, 1e-15, "the round trip");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetNackInterval(0.020), 0.020, 1e-15, "the NackDelay");
        // A QUERY for round 2's chunk 5 at 10 ms answered at 12 ms: 2 ms, so
        // deviation 2 + (|2 - 4| - 2) / 4 = 2 ms, mean 4 - 2 / 8 = 3.75 ms.
        t.Queried(2, 5, MilliSeconds(10));
        t.Queried(2, 5, MilliSeconds(11));
        NS_TEST_EXPECT_MSG_EQ(t.Answered(2, 6, MilliSeconds(12)), false, "another chunk");
        NS_TEST_EXPECT_MSG_EQ(t.Answered(3, 5, MilliSeconds(12)), false, "another round");
        NS_TEST_EXPECT_MSG_EQ(t.Answered(2, 5, MilliSeconds(12)), true, "");
        NS_TEST_EXPECT_MSG_EQ(t.Answered(2, 5, MilliSeconds(13)), false, "answered once");
        NS_TEST_EXPECT_MSG_EQ(t.GetHopRtt().GetSamples(), 2, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetHopRtt().GetMean(), 0.00375, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetHopRtt().GetDeviation(), 0.002, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetNackInterval(0.001), 0.01175, 1e-15, "3.75 + 8 ms");
        NS_TEST_EXPECT_MSG_EQ(t.GetRepairWait().GetSamples(), 0, "the hop is not a repair");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The repair wait beyond the path's round trip, from first requests
 * only (Karn), and the allowance it gives a request's timeout.
 */
class RepairWaitTestCase : public WanTestCase
{
  public:
    RepairWaitTestCase()
        : WanTestCase("the repair wait: first requests only, less the round trip")
    {
    }

  private:
    void DoCheck() override
    {
        WanRecoveryRoundTrips t;
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetRepairAllowance(), 0, 1e-15, "nothing measured");
        const Time rtt = MilliSeconds(40);
        // Asked at 10 ms, repaired at 70 ms over a 40 ms round trip: 20 ms
        // queued at the sender; mean 20, deviation 10, bound 60 ms.
        t.Requested(1, 4, 2, MilliSeconds(10));
        NS_TEST_EXPECT_MSG_EQ(t.Repaired(1, 4, 1, MilliSeconds(60), rtt), false, "another sender");
        NS_TEST_EXPECT_MSG_EQ(t.Repaired(1, 4, 2, MilliSeconds(70), rtt), true, "");
        NS_TEST_EXPECT_MSG_EQ(t.Repaired(1, 4, 2, MilliSeconds(75), rtt), false, "measured once");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetRepairWait().GetMean(), 0.020, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetRepairAllowance(), 0.060, 1e-15, "20 + 4 x 10 ms");
        // A request repeated before its repair: the repair is not a sample.
        t.Requested(1, 5, 2, MilliSeconds(100));
        t.Repeated(1, 5, 2);
        NS_TEST_EXPECT_MSG_EQ(t.Repaired(1, 5, 2, MilliSeconds(900), rtt), false, "Karn");
        NS_TEST_EXPECT_MSG_EQ(t.GetRepairWait().GetSamples(), 1, "");
        // A request noted again restarts its clock: asked at 100 and 110 ms,
        // repaired at 134 ms, -16 ms; deviation 10 + (36 - 10) / 4 = 16.5 ms,
        // mean 20 - 36 / 8 = 15.5 ms, bound 81.5 ms.
        t.Requested(1, 6, 0, MilliSeconds(100));
        t.Requested(1, 6, 0, MilliSeconds(110));
        NS_TEST_EXPECT_MSG_EQ(t.Repaired(1, 6, 0, MilliSeconds(134), rtt), true, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetRepairWait().GetMean(), 0.0155, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetRepairWait().GetDeviation(), 0.0165, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(t.GetRepairAllowance(), 0.0815, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ(t.GetHopRtt().GetSamples(), 0, "a repair is not the hop");

        // Repairs faster than the round trip planned: the allowance stays 0.
        // Four samples of -30 ms: deviation 15 x 0.75^3 = 6.328125 ms, bound
        // -30 + 25.3125 = -4.6875 ms.
        WanRecoveryRoundTrips fast;
        for (uint32_t c = 0; c < 4; ++c)
        {
            fast.Requested(1, c, 0, MilliSeconds(10));
            fast.Repaired(1, c, 0, MilliSeconds(20), MilliSeconds(40));
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.GetRepairWait().GetBound(), -0.0046875, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(fast.GetRepairAllowance(), 0, 1e-15, "never below 0");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief How long an island's recovery messages take to be answered.
 */
class WanRecoveryRoundTripsTestSuite : public TestSuite
{
  public:
    WanRecoveryRoundTripsTestSuite()
        : TestSuite("wan-training-recovery-round-trips", Type::UNIT)
    {
        AddTestCase(new HopRoundTripTestCase);
        AddTestCase(new RepairWaitTestCase);
        AddTestCase(new NegativeSecondsTestCase);
    }
};

/// The suite's one instance.
static WanRecoveryRoundTripsTestSuite g_wanRecoveryRoundTripsTestSuite;
