/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-loss-estimator.h"
#include "ns3/wan-parity-sizer.h"

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The rate a sender sizes its parity for: the worst receiver's upper
 * Wilson bound over the window's reports, by hand.
 */
class LossEstimatorTestCase : public WanTestCase
{
  public:
    LossEstimatorTestCase()
        : WanTestCase("loss estimator: the worst receiver's upper bound over the window")
    {
    }

  private:
    /// @return the least r for blocks of 112 at epsilon 1e-3 and the round's estimate
    static uint32_t Sized(const WanLossEstimator& loss, uint32_t round, uint32_t maxParities)
    {
        return WanParitySizer::Parities(112, loss.GetEstimate(round)->rate, 1e-3, maxParities);
    }

    void DoCheck() override
    {
        // 0 of n: the upper bound is z^2 / (n + z^2).
        const double z = 1.959963984540054;
        NS_TEST_EXPECT_MSG_EQ_TOL(WanLossEstimator::WilsonUpper(0, 112, z),
                                  z * z / (112 + z * z),
                                  1e-12,
                                  "0 of 112");
        // 14 of 224 (computed apart from the formula).
        NS_TEST_EXPECT_MSG_EQ_TOL(WanLossEstimator::WilsonUpper(14, 224, z),
                                  0.10216124512994304,
                                  1e-12,
                                  "14 of 224");

        WanLossEstimator loss(2, 0.95);
        NS_TEST_EXPECT_MSG_EQ(loss.GetEstimate(0).has_value(), false, "no report yet");
        loss.AddReport(0, 7, 112, 6); // receiver 7, two blocks of round 0
        loss.AddReport(0, 7, 112, 8);
        loss.AddReport(0, 9, 112, 2); // receiver 9
        loss.AddReport(1, 7, 112, 0);
        loss.AddReport(3, 9, 112, 50);

        // Round 1: round 0 only; receiver 7 (14 of 224) is the worse.
        auto e = loss.GetEstimate(1);
        NS_TEST_EXPECT_MSG_EQ(e.has_value(), true, "round 0's reports");
        NS_TEST_EXPECT_MSG_EQ_TOL(e->rate, 0.10216124512994304, 1e-12, "receiver 7's bound");
        NS_TEST_EXPECT_MSG_EQ(e->receivers, 2, "two receivers");
        NS_TEST_EXPECT_MSG_EQ(e->chunks, 336, "three blocks of 112");
        NS_TEST_EXPECT_MSG_EQ(e->erasures, 16, "6 + 8 + 2");
        NS_TEST_EXPECT_MSG_EQ(Sized(loss, 1, 112), 26, "r for 10.2%");
        // Round 2: rounds 0 and 1: receiver 7 has 14 of 336, receiver 9 2 of 112.
        e = loss.GetEstimate(2);
        NS_TEST_EXPECT_MSG_EQ_TOL(e->rate, 0.06871538249388234, 1e-12, "14 of 336");
        NS_TEST_EXPECT_MSG_EQ(Sized(loss, 2, 112), 19, "r for 6.9%");
        // Round 3: rounds 1 and 2: receiver 7's block without loss only
        // (round 3's own report does not count for it).
        e = loss.GetEstimate(3);
        NS_TEST_EXPECT_MSG_EQ(e->receivers, 1, "receiver 7 alone");
        NS_TEST_EXPECT_MSG_EQ_TOL(e->rate, z * z / (112 + z * z), 1e-12, "0 of 112");
        NS_TEST_EXPECT_MSG_EQ(Sized(loss, 3, 112), 11, "r for 3.3%");
        // Round 4: receiver 9's 50 of 112: beyond what 112 rows reach, capped.
        NS_TEST_EXPECT_MSG_EQ(Sized(loss, 4, 112), 112, "capped");
        NS_TEST_EXPECT_MSG_EQ(Sized(loss, 4, 40), 40, "capped lower");
        // Bursts: blocks of 10 with 0, 0, 0 and 4 erasures vary more than a
        // binomial's at p = 0.1: rho = ((1 + 1 + 1 + 9) - 4 x 0.9) / (4 x
        // 90 x 0.09) = 8.4 / 32.4.
        WanLossEstimator bursty(1, 0.95);
        for (uint32_t x : {0, 0, 0, 4})
        {
            bursty.AddReport(0, 1, 10, x);
        }
        const auto b = bursty.GetEstimate(1);
        NS_TEST_EXPECT_MSG_EQ(b->blocks, 4, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(b->dispersion, 8.4 / 32.4, 1e-12, "");
        // As many erasures spread evenly (1 a block): less than a binomial's
        // spread, taken as independent.
        WanLossEstimator even(1, 0.95);
        for (int k = 0; k < 4; ++k)
        {
            even.AddReport(0, 1, 10, 1);
        }
        NS_TEST_EXPECT_MSG_EQ(even.GetEstimate(1)->dispersion, 0, "");
        NS_TEST_EXPECT_MSG_EQ(e->dispersion, 0, "one block: no spread to measure");

        // At confidence 0, the measured rate: 14 of 224 for receiver 7.
        WanLossEstimator measured(2, 0);
        measured.AddReport(0, 7, 224, 14);
        measured.AddReport(0, 9, 112, 2);
        NS_TEST_EXPECT_MSG_EQ_TOL(measured.GetEstimate(1)->rate, 0.0625, 1e-12, "14 of 224");
        NS_TEST_EXPECT_MSG_EQ(e->blocks, 1, "round 3's window: one block");
        // Round 6: rounds 4 and 5 reported nothing.
        NS_TEST_EXPECT_MSG_EQ(loss.GetEstimate(6).has_value(), false, "window past the reports");
        // A prior sizes such a round (a first one): its rate, no receivers,
        // independent erasures; r = 2 for 0.1% (Poisson about 0.114: P(X > 1)
        // about 6.4e-3, P(X > 2) about 2.5e-4).
        loss.SetPrior(1e-3);
        const auto prior = loss.GetEstimate(6);
        NS_TEST_EXPECT_MSG_EQ(prior.has_value(), true, "the prior");
        NS_TEST_EXPECT_MSG_EQ(prior->rate, 1e-3, "");
        NS_TEST_EXPECT_MSG_EQ(prior->receivers, 0, "");
        NS_TEST_EXPECT_MSG_EQ(prior->dispersion, 0, "");
        NS_TEST_EXPECT_MSG_EQ(Sized(loss, 6, 40), 2, "r for the prior's 0.1%");
        NS_TEST_EXPECT_MSG_EQ_TOL(loss.GetEstimate(1)->rate,
                                  0.10216124512994304,
                                  1e-12,
                                  "reports first: the prior does not count");
        loss.SetPrior(-1);
        NS_TEST_EXPECT_MSG_EQ(loss.GetEstimate(6).has_value(), false, "no prior again");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible estimator parameters and reports are refused in one line.
 */
class LossEstimatorBadInputTestCase : public WanTestCase
{
  public:
    LossEstimatorBadInputTestCase()
        : WanTestCase("loss estimator: impossible parameters refused")
    {
    }

  private:
    void DoCheck() override
    {
        auto e = ErrorOf([] { WanLossEstimator(0, 0.95); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "a window of 0 rounds"), true, e);
        e = ErrorOf([] { WanLossEstimator(2, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "confidence must be from 0 to less than 1 (got 1)"),
                              true,
                              e);
        WanLossEstimator loss(2, 0.9);
        e = ErrorOf([&] { loss.AddReport(0, 1, 10, 11); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "11 erasures of 10 chunks"), true, e);
        e = ErrorOf([&] { loss.SetPrior(1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "loss estimate: prior rate"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-loss-estimator test suite.
 */
class WanLossEstimatorTestSuite : public TestSuite
{
  public:
    WanLossEstimatorTestSuite()
        : TestSuite("wan-training-loss-estimator", Type::UNIT)
    {
        AddTestCase(new LossEstimatorTestCase);
        AddTestCase(new LossEstimatorBadInputTestCase);
    }
};

/// The suite's instance.
static WanLossEstimatorTestSuite g_wanLossEstimatorTestSuite;
