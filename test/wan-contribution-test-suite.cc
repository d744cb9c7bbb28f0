/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/test.h"
#include "ns3/wan-contribution.h"

using namespace ns3;

/**
 * \ingroup wan-training-tests
 * \brief The encoding: value x (chunk + 1), and the exact sum of a clique's
 * peers over all chunks, by hand.
 */
class ContributionEncodingTestCase : public TestCase
{
  public:
    ContributionEncodingTestCase()
        : TestCase("contribution value x (chunk + 1) and the expected sum")
    {
    }

  private:
    void DoRun() override
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
 * \ingroup wan-training-tests
 * \brief The wan-training-contribution test suite.
 */
class WanContributionTestSuite : public TestSuite
{
  public:
    WanContributionTestSuite()
        : TestSuite("wan-training-contribution", Type::UNIT)
    {
        AddTestCase(new ContributionEncodingTestCase);
    }
};

/// The suite's instance.
static WanContributionTestSuite g_wanContributionTestSuite;
