/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-contribution-ledger.h"
#include "ns3/wan-measured-mixing.h"

#include <cmath>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief An island's realised weights from the chunks it averaged: 1 / |C|
 * exactly without loss, and by hand when chunks lack contributions.
 */
class MeasuredWeightsTestCase : public WanTestCase
{
  public:
    MeasuredWeightsTestCase()
        : WanTestCase("realised weights: one over the clique size without loss, by hand with gaps")
    {
    }

  private:
    void DoCheck() override
    {
        // 112 chunks, each with both peers of a triangle: 1/3 each, exactly.
        const auto full = WanMeasuredMixing::Weights({{2, {112, 112, 112}}}, 3, 1);
        for (double w : full)
        {
            NS_TEST_EXPECT_MSG_EQ(w, 1.0 / 3, "the planned weight, bit for bit");
        }
        // 4 chunks, the last without position 2: 3 chunks at 1/3, one at 1/2.
        // w_0 = w_1 = 3 / (3 x 4) + 1 / (2 x 4) = 3/8, w_2 = 3 / 12 = 1/4.
        const auto gap = WanMeasuredMixing::Weights({{1, {1, 1, 0}}, {2, {3, 3, 3}}}, 3, 0);
        NS_TEST_EXPECT_MSG_EQ_TOL(gap[0], 3.0 / 8, 1e-15, "itself");
        NS_TEST_EXPECT_MSG_EQ_TOL(gap[1], 3.0 / 8, 1e-15, "the peer it always heard");
        NS_TEST_EXPECT_MSG_EQ_TOL(gap[2], 1.0 / 4, 1e-15, "the peer it missed once");

        // From a ledger (a clique of 4, position 1, 4 chunks): chunks 0 and 1
        // complete, chunk 2 without position 2, chunk 3 with nothing.
        WanContributionLedger l;
        l.AddRound(0, 4, 4, 1);
        l.Offer(0, 0, WanSourceSet::FromPositions({0, 2, 3}), 3, 0, false);
        l.Offer(0, 1, WanSourceSet::FromPositions({0, 3}), 2, 0, false);
        l.OfferOne(0, 1, 2, 0, false);
        l.Offer(0, 2, WanSourceSet::FromPositions({0, 3}), 2, 0, false);
        // w_0 = w_3 = 2/16 + 1/12 = 5/24, w_1 = 2/16 + 1/12 + 1/4 = 11/24, w_2 = 2/16.
        const auto w = WanMeasuredMixing::Weights(l.GetAccount(0).averaged, 4, 1);
        const std::vector<double> expected{5.0 / 24, 11.0 / 24, 3.0 / 24, 5.0 / 24};
        for (size_t p = 0; p < 4; ++p)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(w[p], expected[p], 1e-15, "position " << p);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A round's realised matrix: a missing contribution changes its
 * receiver's row only, islands that did not mix keep their state, and A of
 * the matrices rises above the planned one.
 */
class MeasuredMatrixTestCase : public WanTestCase
{
  public:
    MeasuredMatrixTestCase()
        : WanTestCase("realised matrix: a missing contribution changes one row, A rises")
    {
    }

  private:
    void DoCheck() override
    {
        // Islands 0, 2 and 3 of four in one clique; island 1 alone.
        const std::vector<uint32_t> clique{0, 2, 3};
        WanMeasuredMixing lossless(4, 1);
        WanMeasuredMixing lossy(4, 1);
        for (uint32_t p = 0; p < 3; ++p)
        {
            lossless.SetRow(0, clique, p, {{2, {5, 5, 5}}});
            // Island 0 (position 0) never got island 3's contribution.
            lossy.SetRow(0,
                         clique,
                         p,
                         p == 0 ? WanHeldHistogram{{1, {5, 5, 0}}}
                                : WanHeldHistogram{{2, {5, 5, 5}}});
        }
        const double third = 1.0 / 3;
        const WanMatrix planned{{third, 0, third, third},
                                {0, 1, 0, 0},
                                {third, 0, third, third},
                                {third, 0, third, third}};
        NS_TEST_EXPECT_MSG_EQ((lossless.GetMatrix(0) == planned), true, "the planned matrix");
        auto realised = planned;
        realised[0] = {0.5, 0, 0.5, 0};
        NS_TEST_EXPECT_MSG_EQ((lossy.GetMatrix(0) == realised), true, "row 0 without island 3");
        // Island 1 never mixes: neither analysis agrees on one state.
        NS_TEST_EXPECT_MSG_EQ(std::isinf(lossless.Analyse().GetAverageDisagreement()),
                              true,
                              "island 1 apart");

        // Three islands, one clique: A = 1 without loss, 58/45 when island 0
        // misses island 2 (see the wan-training-mixing suite).
        WanMeasuredMixing three(3, 1);
        WanMeasuredMixing threeLossy(3, 1);
        for (uint32_t p = 0; p < 3; ++p)
        {
            three.SetRow(0, {0, 1, 2}, p, {{2, {7, 7, 7}}});
            threeLossy.SetRow(0,
                              {0, 1, 2},
                              p,
                              p == 0 ? WanHeldHistogram{{1, {7, 7, 0}}}
                                     : WanHeldHistogram{{2, {7, 7, 7}}});
        }
        NS_TEST_EXPECT_MSG_EQ(three.Analyse().GetAverageDisagreement(), 1.0, "A = 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(threeLossy.Analyse().GetAverageDisagreement(),
                                  58.0 / 45,
                                  1e-12,
                                  "A = 58/45");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Histograms that do not fit the clique, and rounds or islands out
 * of range, are refused with a clear message.
 */
class MeasuredRefusalTestCase : public WanTestCase
{
  public:
    MeasuredRefusalTestCase()
        : WanTestCase("histograms that do not fit, rounds and islands out of range")
    {
    }

  private:
    void DoCheck() override
    {
        auto weights = [](const WanHeldHistogram& h, uint32_t members, uint32_t position) {
            return ErrorOf([&] { WanMeasuredMixing::Weights(h, members, position); });
        };
        std::string e = weights({{2, {1, 1, 1}}}, 3, 3);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "position 3 outside a clique of 3"), true, e);
        e = weights({}, 3, 0);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "hold no chunk"), true, e);
        e = weights({{3, {1, 1, 1}}}, 3, 0);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "with 3 peers do not fit a clique of 3"), true, e);
        e = weights({{1, {1, 1}}}, 3, 0);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "do not fit a clique of 3"), true, e);
        e = weights({{1, {1, 2, 0}}}, 3, 0);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "position 1 is held by more chunks"), true, e);
        e = weights({{1, {2, 1, 0}}}, 3, 0);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "hold 1 contributions, not 1 each"), true, e);

        WanMeasuredMixing m(3, 2);
        e = ErrorOf([&] { m.SetRow(2, {0, 1}, 0, {{1, {1, 1}}}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "round 2 outside the 2 measured"), true, e);
        e = ErrorOf([&] { m.SetRow(0, {0, 3}, 0, {{1, {1, 1}}}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "island 3 outside the 3 measured"), true, e);
        e = ErrorOf([&] { m.GetMatrix(5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "round 5 outside"), true, e);
        e = ErrorOf([] { WanMeasuredMixing(0, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "at least one island and one round"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-measured-mixing test suite.
 */
class WanMeasuredMixingTestSuite : public TestSuite
{
  public:
    WanMeasuredMixingTestSuite()
        : TestSuite("wan-training-measured-mixing", Type::UNIT)
    {
        AddTestCase(new MeasuredWeightsTestCase);
        AddTestCase(new MeasuredMatrixTestCase);
        AddTestCase(new MeasuredRefusalTestCase);
    }
};

/// The suite's instance.
static WanMeasuredMixingTestSuite g_wanMeasuredMixingTestSuite;
