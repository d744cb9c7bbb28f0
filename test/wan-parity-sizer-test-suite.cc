/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-parity-sizer.h"

#include <cmath>
#include <limits>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The binomial tail by hand and the least r that reaches a failure
 * probability.
 */
class ParitySizerTestCase : public WanTestCase
{
  public:
    ParitySizerTestCase()
        : WanTestCase("parity sizing: the binomial tail by hand, the least r")
    {
    }

  private:
    void DoCheck() override
    {
        // P(X > 1), X ~ Bin(3, 1/2): (3 + 1) / 8.
        NS_TEST_EXPECT_MSG_EQ_TOL(WanParitySizer::FailureProbability(3, 1, 0.5), 0.5, 1e-12, "");
        // P(X > 2), X ~ Bin(4, 0.1): 4 x 0.1^3 x 0.9 + 0.1^4 = 0.0037.
        NS_TEST_EXPECT_MSG_EQ_TOL(WanParitySizer::FailureProbability(4, 2, 0.1), 0.0037, 1e-12, "");
        // P(X > 1), X ~ Bin(29, 0.01): 1 - 0.99^29 - 29 x 0.01 x 0.99^28.
        const double tail = 1 - std::pow(0.99, 29) - 29 * 0.01 * std::pow(0.99, 28);
        NS_TEST_EXPECT_MSG_EQ_TOL(WanParitySizer::FailureProbability(29, 1, 0.01),
                                  tail,
                                  1e-12,
                                  "0.034");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::FailureProbability(10, 3, 0), 0, "no loss");

        // The least r with the tail at most 1e-3 (computed exactly apart).
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(28, 0.001, 1e-3, 228), 1, "0.1%");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(28, 0.01, 1e-3, 228), 3, "1%");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(28, 0.05, 1e-3, 228), 7, "5%");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(32, 0.077, 1e-3, 224), 9, "7.7%");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(128, 0.01, 1e-3, 128), 6, "k 128, 1%");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(28, 0.01, 1e-6, 228), 5, "1e-6");
        // r - 1 misses epsilon, r reaches it.
        NS_TEST_EXPECT_MSG_GT(WanParitySizer::FailureProbability(30, 2, 0.01), 1e-3, "r 2");
        NS_TEST_EXPECT_MSG_LT(WanParitySizer::FailureProbability(31, 3, 0.01), 1e-3, "r 3");
        // On the boundary: a tail exactly epsilon reaches it ("at most").
        // k 1, q 1/2: P(Bin(2, 1/2) > 1) = 1/4, P(Bin(3, 1/2) > 2) = 1/8.
        const double quarter = WanParitySizer::FailureProbability(2, 1, 0.5);
        NS_TEST_EXPECT_MSG_EQ_TOL(quarter, 0.25, 1e-15, "");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(1, 0.5, quarter, 5), 1, "tail == epsilon");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Reaches(1, 0.5, quarter, 1), true, "");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(1, 0.5, std::nextafter(quarter, 0.0), 5),
                              2,
                              "just below");
        const double atThree = WanParitySizer::FailureProbability(31, 3, 0.01);
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(28, 0.01, atThree, 228), 3, "");
        // Capped: 30% loss over 200 chunks needs more than 56.
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(200, 0.3, 1e-3, 56), 56, "capped");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Reaches(200, 0.3, 1e-3, 56), false, "not reached");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Reaches(28, 0.05, 1e-3, 228), true, "reached");

        // Correlated erasures: beta-binomial, alpha = q (1 / rho - 1),
        // beta = (1 - q) (1 / rho - 1).  q 1/2, rho 1/3: alpha = beta = 1,
        // uniform over 0..4: P(X > 1) = 3/5.
        NS_TEST_EXPECT_MSG_EQ_TOL(WanParitySizer::FailureProbability(4, 1, 0.5, 1.0 / 3),
                                  0.6,
                                  1e-12,
                                  "");
        // q 0.1, rho 0.1: alpha 0.9, beta 8.1; P(2) + P(3) over 9 x 10 x 11.
        NS_TEST_EXPECT_MSG_EQ_TOL(WanParitySizer::FailureProbability(3, 1, 0.1, 0.1),
                                  (3 * 0.9 * 1.9 * 8.1 + 0.9 * 1.9 * 2.9) / 990,
                                  1e-12,
                                  "");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::FailureProbability(29, 1, 0.01, 0),
                              WanParitySizer::FailureProbability(29, 1, 0.01),
                              "rho 0: the binomial's");
        // Bursts need more parity for the same rate (computed apart).
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(112, 0.06, 1e-3, 112), 17, "independent");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(112, 0.06, 1e-3, 112, 0.005), 22, "");
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(112, 0.06, 1e-3, 112, 0.02), 34, "");
        auto e = ErrorOf([] { WanParitySizer::FailureProbability(4, 1, 0.1, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "erasure correlation must be from 0 to less than 1"),
                              true,
                              e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible sizing parameters are refused in one line.
 */
class ParitySizerBadInputTestCase : public WanTestCase
{
  public:
    ParitySizerBadInputTestCase()
        : WanTestCase("parity sizing: impossible parameters refused")
    {
    }

  private:
    void DoCheck() override
    {
        const double nan = std::numeric_limits<double>::quiet_NaN();
        auto e = ErrorOf([] { WanParitySizer::FailureProbability(4, 4, 0.1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "4 parities of 4 chunks"), true, e);
        e = ErrorOf([] { WanParitySizer::FailureProbability(4, 1, 1.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "erasure rate must be from 0 to 1 (got 1.5)"), true, e);
        e = ErrorOf([&] { WanParitySizer::Parities(28, nan, 1e-3, 10); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "erasure rate must be from 0 to less than 1 (got nan)"),
                              true,
                              e);
        e = ErrorOf([] { WanParitySizer::Parities(28, 1, 1e-3, 10); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "from 0 to less than 1 (got 1)"), true, e);
        e = ErrorOf([] { WanParitySizer::Parities(28, 0.01, 0, 10); });
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(e, "failure probability must be above 0 and below 1 (got 0)"),
            true,
            e);
        e = ErrorOf([] { WanParitySizer::Parities(0, 0.01, 1e-3, 10); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "0 data chunks"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-parity-sizer test suite.
 */
class WanParitySizerTestSuite : public TestSuite
{
  public:
    WanParitySizerTestSuite()
        : TestSuite("wan-training-parity-sizer", Type::UNIT)
    {
        AddTestCase(new ParitySizerTestCase);
        AddTestCase(new ParitySizerBadInputTestCase);
    }
};

/// The suite's instance.
static WanParitySizerTestSuite g_wanParitySizerTestSuite;
