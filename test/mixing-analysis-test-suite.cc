/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/mixing-analysis.h"
#include "ns3/test.h"

#include <cmath>
#include <map>

using namespace ns3;
using namespace ns3::wantest;

/**
 * \ingroup wan-training-tests
 * \brief A two-island pair mixes fully in one round: A = 1.
 */
class PairMixingTestCase : public TestCase
{
  public:
    PairMixingTestCase()
        : TestCase("two-island pair: one round mixes fully")
    {
    }

  private:
    void DoRun() override
    {
        CliqueSchedule pair("pair", {{{0, 1}}});
        auto m = MixingAnalysis::FromSchedule(pair, 2);
        auto w = m.GetMixingMatrix(0);
        NS_TEST_EXPECT_MSG_EQ(w[0][1], 0.5, "W = 1/2 everywhere");
        auto curve = m.GetSurvivalCurve(0, 2);
        NS_TEST_EXPECT_MSG_EQ(curve[0], 1.0, "newborn error 1");
        NS_TEST_EXPECT_MSG_EQ(curve[1], 0.0, "mixed after one round");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetAverageDisagreement(), 1.0, 1e-15, "A = 1");
        MixingOptions noNewborn;
        noNewborn.includeNewborn = false;
        NS_TEST_EXPECT_MSG_EQ_TOL(
            MixingAnalysis::FromSchedule(pair, 2, noNewborn).GetAverageDisagreement(),
            0.0,
            1e-15,
            "A = 0 without the h = 0 term");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Three islands, alternating pairs {0,1} and {1,2}: Phi and S by hand.
 */
class LinePairsMixingTestCase : public TestCase
{
  public:
    LinePairsMixingTestCase()
        : TestCase("three-island alternating pairs: diffusion and survival by hand")
    {
    }

  private:
    void DoRun() override
    {
        CliqueSchedule s("line", {{{0, 1}, {2}}, {{1, 2}, {0}}});
        auto m = MixingAnalysis::FromSchedule(s, 3);
        // Phi(0, 2) = W(1) W(0): rows (1/2, 1/2, 0), (1/4, 1/4, 1/2), (1/4, 1/4, 1/2).
        auto phi = m.GetDiffusion(0, 2);
        NS_TEST_EXPECT_MSG_EQ_TOL(phi[0][0], 0.5, 1e-15, "Phi_00");
        NS_TEST_EXPECT_MSG_EQ_TOL(phi[1][0], 0.25, 1e-15, "Phi_10");
        NS_TEST_EXPECT_MSG_EQ_TOL(phi[2][2], 0.5, 1e-15, "Phi_22");
        NS_TEST_EXPECT_MSG_EQ_TOL(phi[0][2], 0.0, 1e-15, "Phi_02");
        // e_j = sum_i |Phi_ij - 1/3| / (4/3).  h = 1: columns (1/2,1/2,0) give
        // 1/2, column (0,0,1) gives 1; h = 2: 1/4, 1/4, 1/2.
        auto curve = m.GetSurvivalCurve(0, 2);
        NS_TEST_EXPECT_MSG_EQ_TOL(curve[0], 1.0, 1e-15, "S(0)");
        NS_TEST_EXPECT_MSG_EQ_TOL(curve[1], 2.0 / 3, 1e-15, "S(1)");
        NS_TEST_EXPECT_MSG_EQ_TOL(curve[2], 1.0 / 3, 1e-15, "S(2)");
        // Born before round 1 instead: W(0) first applies {1,2}.
        auto other = m.GetSurvivalCurve(1, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(other[1], 2.0 / 3, 1e-15, "S_1(1), by symmetry");
        auto mean = m.GetMeanSurvivalCurve(2);
        NS_TEST_EXPECT_MSG_EQ_TOL(mean[2], 1.0 / 3, 1e-15, "mean of the symmetric phases");
        double a = m.GetAverageDisagreement();
        NS_TEST_EXPECT_MSG_GT(a, 1 + 2.0 / 3 + 1.0 / 3, "A exceeds its first three terms");
        NS_TEST_EXPECT_MSG_LT(a, 1e3, "and is finite");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Properties on the nine-city schedules: Phi columns sum to 1, survival
 * never rises, all-to-all has A = 1, the mixing order of the paper.
 */
class NineCityMixingTestCase : public TestCase
{
  public:
    NineCityMixingTestCase()
        : TestCase("nine-city schedules: conservation, monotone survival, ranking")
    {
    }

  private:
    void DoRun() override
    {
        auto topo = WanTopology::NineCity();
        std::map<std::string, double> area;
        for (const auto& name : CliqueSchedule::BuiltinNames())
        {
            auto m = MixingAnalysis::FromSchedule(CliqueSchedule::Builtin(name, topo), 9);
            for (uint32_t p = 0; p < m.GetPeriod(); ++p)
            {
                auto phi = m.GetDiffusion(p, 5);
                for (uint32_t j = 0; j < 9; ++j)
                {
                    double column = 0;
                    for (uint32_t i = 0; i < 9; ++i)
                    {
                        column += phi[i][j];
                    }
                    NS_TEST_EXPECT_MSG_EQ_TOL(column, 1.0, 1e-12, name << ": nothing lost");
                }
                auto curve = m.GetSurvivalCurve(p, 40);
                for (size_t h = 1; h < curve.size(); ++h)
                {
                    NS_TEST_EXPECT_MSG_LT_OR_EQ(curve[h],
                                                curve[h - 1] + 1e-12,
                                                name << ": survival never rises");
                }
            }
            area[name] = m.GetAverageDisagreement();
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(area["all-to-all"], 1.0, 1e-12, "all-to-all: A = 1");
        NS_TEST_EXPECT_MSG_LT(area["triangles"], area["regional"], "triangles mix 2nd");
        NS_TEST_EXPECT_MSG_LT(area["regional"], area["pairs"], "regional 3rd, pairs 4th");
        NS_TEST_EXPECT_MSG_LT(area["all-to-all"], area["triangles"], "all-to-all 1st");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Conventions: a schedule that never mixes, forgetting, targets, and
 * invalid matrices.
 */
class MixingConventionsTestCase : public TestCase
{
  public:
    MixingConventionsTestCase()
        : TestCase("never-mixing schedule, forgetting, targets, bad input")
    {
    }

  private:
    void DoRun() override
    {
        // Regions only: an update never leaves its region of three, so its error
        // stays at (3 (1/3 - 1/9) + 6/9) / (16/9) = 3/4.
        CliqueSchedule regions("regions", {{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}}});
        MixingOptions bounded;
        bounded.maxRounds = 200;
        auto never = MixingAnalysis::FromSchedule(regions, 9, bounded);
        NS_TEST_EXPECT_MSG_EQ_TOL(never.GetSurvivalCurve(0, 3)[3], 0.75, 1e-12, "stuck at 3/4");
        NS_TEST_EXPECT_MSG_EQ(std::isinf(never.GetAverageDisagreement()), true, "A = infinity");
        // With rho = 1/2: A = 1 + 3/4 (1/2 + 1/4 + ...) = 7/4.
        MixingOptions forget;
        forget.forgetting = 0.5;
        NS_TEST_EXPECT_MSG_EQ_TOL(
            MixingAnalysis::FromSchedule(regions, 9, forget).GetAverageDisagreement(),
            1.75,
            1e-9,
            "forgetting makes A finite");
        // Raw L1 error (no normalisation): newborn error of a pair is 2 (1 - 1/2).
        MixingOptions raw;
        raw.normalise = false;
        CliqueSchedule pair("pair", {{{0, 1}}});
        NS_TEST_EXPECT_MSG_EQ_TOL(
            MixingAnalysis::FromSchedule(pair, 2, raw).GetAverageDisagreement(),
            1.0,
            1e-15,
            "raw newborn error 1 for N = 2");
        // Non-uniform target (3/4, 1/4) with uniform averaging never converges.
        MixingOptions target;
        target.target = {0.75, 0.25};
        target.maxRounds = 50;
        auto skewed = MixingAnalysis::FromSchedule(pair, 2, target);
        // e_0(1) = (|1/2 - 3/4| + |1/2 - 1/4|) / (2 (1 - 3/4)) = 1.
        NS_TEST_EXPECT_MSG_EQ_TOL(skewed.GetSurvivalCurve(0, 1)[1],
                                  (1.0 + 0.5 / 1.5) / 2,
                                  1e-12,
                                  "mean of e_0 = 1 and e_1 = 1/3");

        auto bad = [](std::vector<WanMatrix> w, MixingOptions o = {}) {
            return ErrorOf([&] { MixingAnalysis(w, o); });
        };
        std::string e = bad({{{0.5, 0.5}, {0.2, 0.8}}});
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "not doubly stochastic"), true, e);
        e = bad({{{1.5, -0.5}, {-0.5, 1.5}}});
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "negative"), true, e);
        e = bad({{{1, 0}, {0, 1}}, {{1}}});
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "W(1) is not 2 x 2"), true, e);
        MixingOptions zero;
        zero.forgetting = 0;
        e = bad({{{1, 0}, {0, 1}}}, zero);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "forgetting discount must be in (0, 1]"), true, e);
        MixingOptions wrong;
        wrong.target = {0.5, 0.6};
        e = bad({{{1, 0}, {0, 1}}}, wrong);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "target shares must be 2 numbers summing to 1"), true, e);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The wan-training-mixing test suite.
 */
class MixingAnalysisTestSuite : public TestSuite
{
  public:
    MixingAnalysisTestSuite()
        : TestSuite("wan-training-mixing", Type::UNIT)
    {
        AddTestCase(new PairMixingTestCase);
        AddTestCase(new LinePairsMixingTestCase);
        AddTestCase(new NineCityMixingTestCase);
        AddTestCase(new MixingConventionsTestCase);
    }
};

/// The suite's instance.
static MixingAnalysisTestSuite g_mixingAnalysisTestSuite;
