/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-contribution.h"

#include <limits>

using namespace ns3;

/**
 * @ingroup wan-training-tests
 * @brief The encoding: value x (chunk + 1), and the exact sum of a clique's
 * peers over all chunks, by hand.
 */
class ContributionEncodingTestCase : public WanTestCase
{
  public:
    ContributionEncodingTestCase()
        : WanTestCase("contribution value x (chunk + 1) and the expected sum")
    {
    }

  private:
    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ(WanContribution::IslandValue(0), 1, "city 0");
        NS_TEST_EXPECT_MSG_EQ(WanContribution::IslandValue(8), 9, "city 8");
        NS_TEST_EXPECT_MSG_EQ(WanContribution::Value(3, 0), 3, "chunk 0");
        NS_TEST_EXPECT_MSG_EQ(WanContribution::Value(3, 99), 300, "chunk 99");
        // Peers of values 1 and 3 over 100 chunks: 4 x 5050.
        NS_TEST_EXPECT_MSG_EQ(WanContribution::ExpectedSum({1, 3}, 100), 20200, "two peers");
        // Values 2, 5, 7 over 3 chunks: 14 x 6.
        NS_TEST_EXPECT_MSG_EQ(WanContribution::ExpectedSum({2, 5, 7}, 3), 84, "three peers");
        NS_TEST_EXPECT_MSG_EQ(WanContribution::ExpectedSum({}, 3), 0, "no peer");
        double sum = 0;
        for (uint32_t c = 0; c < 3; ++c)
        {
            for (double v : {2.0, 5.0, 7.0})
            {
                sum += WanContribution::Value(v, c);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(WanContribution::IsExact(sum, 9, {2, 5, 7}, 3), true, "exact");
        NS_TEST_EXPECT_MSG_EQ(WanContribution::IsExact(sum + 7, 10, {2, 5, 7}, 3),
                              false,
                              "a contribution twice");
        NS_TEST_EXPECT_MSG_EQ(WanContribution::IsExact(sum, 8, {2, 5, 7}, 3),
                              false,
                              "the count is short");
        NS_TEST_EXPECT_MSG_EQ(WanContribution::IsExact(sum - 2, 9, {2, 5, 7}, 3),
                              false,
                              "a wrong value");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wire's fixed-point integers: 16 fractional bits, rounding, and
 * wrap-around sums that subtract back exactly.
 */
class ContributionFixedPointTestCase : public WanTestCase
{
  public:
    ContributionFixedPointTestCase()
        : WanTestCase("fixed-point values: 16 fractional bits, wrap-around sums")
    {
    }

  private:
    void DoCheck() override
    {
        using C = WanContribution;
        NS_TEST_EXPECT_MSG_EQ(C::ToFixed(1), 65536, "one");
        NS_TEST_EXPECT_MSG_EQ(C::ToFixed(-2.75), -180224, "negative, exact");
        NS_TEST_EXPECT_MSG_EQ(C::ToFixed(1.0 / 3), 21845, "rounded to the nearest 2^-16");
        NS_TEST_EXPECT_MSG_EQ(C::FromFixed(C::ToFixed(300)), 300, "an integer comes back");
        // 2^47 is the largest magnitude that fits: 2^47 x 2^16 = 2^63 wraps.
        NS_TEST_EXPECT_MSG_EQ(C::ToFixed(140737488355328.0),
                              std::numeric_limits<int64_t>::min(),
                              "out of range wraps");
        const int64_t big = std::numeric_limits<int64_t>::max();
        const int64_t sum = C::Add(C::Add(big, big), C::ToFixed(5));
        NS_TEST_EXPECT_MSG_EQ(sum, C::ToFixed(5) - 2, "2 x max wraps to -2");
        NS_TEST_EXPECT_MSG_EQ(C::Subtract(C::Subtract(sum, big), big), C::ToFixed(5), "and back");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-contribution test suite.
 */
class WanContributionTestSuite : public TestSuite
{
  public:
    WanContributionTestSuite()
        : TestSuite("wan-training-contribution", Type::UNIT)
    {
        AddTestCase(new ContributionEncodingTestCase);
        AddTestCase(new ContributionFixedPointTestCase);
    }
};

/// The suite's instance.
static WanContributionTestSuite g_wanContributionTestSuite;
