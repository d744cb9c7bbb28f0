/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-mean-deviation.h"
#include "ns3/wan-overdue-clock.h"

#include <cmath>
#include <limits>
#include <stdexcept>

using namespace ns3;

/**
 * @ingroup wan-training-tests
 * @brief RFC 6298's averages, worked by hand.
 */
class MeanDeviationTestCase : public WanTestCase
{
  public:
    MeanDeviationTestCase()
        : WanTestCase("mean and mean deviation follow RFC 6298 by hand")
    {
    }

  private:
    void DoCheck() override
    {
        WanMeanDeviation m;
        NS_TEST_EXPECT_MSG_EQ(m.GetSamples(), 0, "");
        NS_TEST_EXPECT_MSG_EQ(m.GetBound(), 0, "nothing measured");
        m.Observe(-0.008); // first: mean -8 ms, deviation 4 ms
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetMean(), -0.008, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetDeviation(), 0.004, 1e-15, "|x| / 2");
        m.Observe(0.008); // dev += (16 - 4) / 4 = 7 ms; mean += 16 / 8 = -6 ms
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetDeviation(), 0.007, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetMean(), -0.006, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetBound(), 0.022, 1e-15, "-6 + 4 x 7 ms");
        NS_TEST_EXPECT_MSG_EQ(m.GetSamples(), 2, "");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Planned completion times, the margin from measured lateness, and
 * each chunk handed out once when overdue, the tail included.
 */
class OverdueClockTestCase : public WanTestCase
{
  public:
    OverdueClockTestCase()
        : WanTestCase("chunks are overdue at plan + margin, each once, the tail too")
    {
    }

  private:
    void DoCheck() override
    {
        // Latest stream's first bit at 50 ms, 2 ms packets, 5 chunks, floor 4 ms.
        WanOverdueClock clock(0.050, 0.002, 5, 0.004);
        NS_TEST_EXPECT_MSG_EQ(clock.GetChunks(), 5, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(clock.GetExpected(0), 0.052, 1e-15, "one packet in");
        NS_TEST_EXPECT_MSG_EQ_TOL(clock.GetExpected(4), 0.060, 1e-15, "the tail");
        NS_TEST_EXPECT_MSG_EQ_TOL(clock.GetMargin(), 0.004, 1e-15, "the floor, unmeasured");
        NS_TEST_EXPECT_MSG_EQ_TOL(clock.GetNextDue(), 0.056, 1e-15, "chunk 0 at 52 + 4 ms");

        auto none = clock.TakeOverdue(0.0559);
        NS_TEST_EXPECT_MSG_EQ(none.first, none.second, "nothing overdue yet");
        auto first = clock.TakeOverdue(0.0585);
        NS_TEST_EXPECT_MSG_EQ(first.first, 0, "");
        NS_TEST_EXPECT_MSG_EQ(first.second, 2, "chunks 0 and 1 (due 56 and 58 ms)");
        auto again = clock.TakeOverdue(0.0585);
        NS_TEST_EXPECT_MSG_EQ(again.first, again.second, "handed out once");

        // Chunk 2 completed 3 ms late, chunk 3 5 ms late: mean 3.25 ms,
        // deviation 1.5 + (2 - 1.5) / 4 = 1.625 ms, bound 9.75 ms.
        clock.Observe(2, 0.059);
        NS_TEST_EXPECT_MSG_EQ(clock.GetLateness().GetSamples(), 1, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(clock.GetMargin(), 0.009, 1e-15, "3 + 4 x 1.5 = 9 ms");
        clock.Observe(3, 0.063);
        NS_TEST_EXPECT_MSG_EQ_TOL(clock.GetLateness().GetMean(), 0.00325, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(clock.GetMargin(), 0.00975, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(clock.GetNextDue(), 0.06575, 1e-12, "chunk 2: 56 + 9.75 ms");

        // The tail needs no later packet: time alone makes it overdue.
        auto rest = clock.TakeOverdue(std::numeric_limits<double>::infinity());
        NS_TEST_EXPECT_MSG_EQ(rest.first, 2, "");
        NS_TEST_EXPECT_MSG_EQ(rest.second, 5, "up to the last chunk");
        NS_TEST_EXPECT_MSG_EQ(std::isinf(clock.GetNextDue()), true, "none left");

        // Early completions never pull the margin under the floor.
        WanOverdueClock early(0, 0.001, 3, 0.002);
        early.Observe(0, 0.0005); // 0.5 ms early: mean -0.5, deviation 0.25 ms
        NS_TEST_EXPECT_MSG_EQ_TOL(early.GetMargin(), 0.002, 1e-15, "the floor");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible clocks are refused with a message.
 */
class OverdueClockRefusesTestCase : public WanTestCase
{
  public:
    OverdueClockRefusesTestCase()
        : WanTestCase("an impossible clock is refused")
    {
    }

  private:
    void DoCheck() override
    {
        const double inf = std::numeric_limits<double>::infinity();
        auto refused = [](double first, double period, uint32_t chunks, double floor) {
            try
            {
                WanOverdueClock(first, period, chunks, floor);
            }
            catch (const std::invalid_argument&)
            {
                return true;
            }
            return false;
        };
        NS_TEST_EXPECT_MSG_EQ(refused(-1, 0.001, 1, 0), true, "negative arrival");
        NS_TEST_EXPECT_MSG_EQ(refused(inf, 0.001, 1, 0), true, "infinite arrival");
        NS_TEST_EXPECT_MSG_EQ(refused(0, 0, 1, 0), true, "no packet time");
        NS_TEST_EXPECT_MSG_EQ(refused(0, 0.001, 0, 0), true, "no chunk");
        NS_TEST_EXPECT_MSG_EQ(refused(0, 0.001, 1, -1), true, "negative floor");
        NS_TEST_EXPECT_MSG_EQ(refused(0, 0.001, 1, 0), false, "a fine clock");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief When chunks are overdue at an island.
 */
class WanOverdueClockTestSuite : public TestSuite
{
  public:
    WanOverdueClockTestSuite()
        : TestSuite("wan-training-overdue-clock", Type::UNIT)
    {
        AddTestCase(new MeanDeviationTestCase);
        AddTestCase(new OverdueClockTestCase);
        AddTestCase(new OverdueClockRefusesTestCase);
    }
};

/// The suite's one instance.
static WanOverdueClockTestSuite g_wanOverdueClockTestSuite;
