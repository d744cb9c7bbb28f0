/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/mixing-analysis.h"
#include "ns3/test.h"

#include <cmath>
#include <map>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief A two-island pair mixes fully in one round: A = 1.
 */
class PairMixingTestCase : public WanTestCase
{
  public:
    PairMixingTestCase()
        : WanTestCase("two-island pair: one round mixes fully")
    {
    }

  private:
    void DoCheck() override
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
 * @ingroup wan-training-tests
 * @brief Three islands, alternating pairs {0,1} and {1,2}: Phi and S by hand.
 */
class LinePairsMixingTestCase : public WanTestCase
{
  public:
    LinePairsMixingTestCase()
        : WanTestCase("three-island alternating pairs: diffusion and survival by hand")
    {
    }

  private:
    void DoCheck() override
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
        // Each round halves the distance to 1/3 of the column that was just
        // averaged, so S_p(h) = (2/3) (1/2)^(h-1) for h >= 1 in both phases
        // (2/3, 1/3, 1/6, 1/12, ...), hence sum_{h>=1} S = 4/3 and
        // A = 1 + 4/3 = 7/3; with rho = 1/2 and no h = 0 term,
        // sum_{h>=1} (1/2)^h (2/3) (1/2)^(h-1) = (4/3) sum_{h>=1} (1/4)^h = 4/9.
        // The series stops below the 1e-12 tolerance: its tail is 2e-12 at most.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetAverageDisagreement(), 7.0 / 3, 1e-11, "A = 7/3");
        MixingOptions noNewborn;
        noNewborn.includeNewborn = false;
        NS_TEST_EXPECT_MSG_EQ_TOL(
            MixingAnalysis::FromSchedule(s, 3, noNewborn).GetAverageDisagreement(),
            4.0 / 3,
            1e-11,
            "A = 4/3 without the h = 0 term");
        noNewborn.forgetting = 0.5;
        NS_TEST_EXPECT_MSG_EQ_TOL(
            MixingAnalysis::FromSchedule(s, 3, noNewborn).GetAverageDisagreement(),
            4.0 / 9,
            1e-11,
            "A = 4/9 with rho = 1/2 and without the h = 0 term");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Three islands, a pair {0,1} then all three: A by hand with and
 * without the newborn term, with forgetting and with non-uniform targets.
 */
class NewbornOffMixingTestCase : public WanTestCase
{
  public:
    NewbornOffMixingTestCase()
        : WanTestCase("three islands, pair then all: A without the h = 0 term by hand")
    {
    }

  private:
    /// @return A of the schedule {0,1},{2} then {0,1,2} with these options
    static double Area(MixingOptions options)
    {
        CliqueSchedule s("pair-then-all", {{{0, 1}, {2}}, {{0, 1, 2}}});
        return MixingAnalysis::FromSchedule(s, 3, options).GetAverageDisagreement();
    }

    void DoCheck() override
    {
        // Uniform targets, e_j = sum_i |Phi_ij - 1/3| / (4/3).  Phase 0: after
        // the pair, columns (1/2,1/2,0) twice give e = 1/2 and (0,0,1) gives 1:
        // S_0(1) = 2/3; after the round of three everything is 1/3: S_0(h>=2) = 0.
        // Phase 1: S_1(h>=1) = 0.  A = ((1 + 2/3) + 1) / 2 = 4/3.
        MixingOptions options;
        NS_TEST_EXPECT_MSG_EQ_TOL(Area(options), 4.0 / 3, 1e-15, "A = 4/3");
        options.includeNewborn = false;
        NS_TEST_EXPECT_MSG_EQ_TOL(Area(options), 1.0 / 3, 1e-15, "(2/3) / 2 without h = 0");
        options.forgetting = 0.5;
        NS_TEST_EXPECT_MSG_EQ_TOL(Area(options), 1.0 / 6, 1e-15, "(1/2) (2/3) / 2 with rho");
        // Targets pi = (1/2, 1/4, 1/4): the newborn errors 2 (1 - pi_j) are 1,
        // 3/2, 3/2.  Phase 0, h = 1: column (1/2,1/2,0) is 0 + 1/4 + 1/4 = 1/2
        // away, e_0 = 1/2, e_1 = 1/3; column (0,0,1) is 1/2 + 1/4 + 3/4 = 3/2
        // away, e_2 = 1; S_0(1) = 11/18.  Uniform columns (1/3,1/3,1/3) are
        // 1/6 + 1/12 + 1/12 = 1/3 away: e = 1/3, 2/9, 2/9 and S = 7/27 at every
        // h >= 2 in phase 0 and h >= 1 in phase 1.  With rho = 1/2, no h = 0:
        // A = (1/2) [(1/2)(11/18) + (1/4 + 1/8 + ...)(7/27) + (1/2 + 1/4 + ...)(7/27)]
        //   = (1/2) [11/36 + 7/54 + 7/27] = 75/216 = 25/72.
        options.target = {0.5, 0.25, 0.25};
        NS_TEST_EXPECT_MSG_EQ_TOL(Area(options), 25.0 / 72, 1e-11, "targets, rho, no h = 0");
        options.includeNewborn = true;
        NS_TEST_EXPECT_MSG_EQ_TOL(Area(options), 1 + 25.0 / 72, 1e-11, "the same plus h = 0");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Properties on the nine-city schedules: Phi columns sum to 1, survival
 * never rises, all-to-all has A = 1, the mixing order of the paper.
 */
class NineCityMixingTestCase : public WanTestCase
{
  public:
    NineCityMixingTestCase()
        : WanTestCase("nine-city schedules: conservation, monotone survival, ranking")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        std::map<std::string, double> area;
        for (const auto& name : CliqueScheduleBuiltins::Names())
        {
            auto m = MixingAnalysis::FromSchedule(CliqueScheduleBuiltins::Make(name, topo), 9);
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
 * @ingroup wan-training-tests
 * @brief A of the nine-city schedules without the newborn term, with
 * forgetting and with non-uniform targets, against values computed apart.
 */
class NineCityNewbornOffTestCase : public WanTestCase
{
  public:
    NineCityNewbornOffTestCase()
        : WanTestCase("nine-city schedules: A without the h = 0 term, rho = 0.9, targets")
    {
    }

  private:
    void DoCheck() override
    {
        // Cities NYC LAX BUE LON AMS FRA TYO SEO SIN are 0..8; the built-in
        // rounds on the nine-city topology are
        //   pairs:     {0,1}{3,4}{6,7} | {0,2}{1,6}{4,5} | {0,3}{6,8} (others alone)
        //   regional:  {0,1,2}{3,4,5}{6,7,8} | {0,3}{1,6}{5,8} (others alone)
        //   triangles: {0,1,2}{3,4,5}{6,7,8} | {0,4,8}{1,3,7}{2,5,6}
        //   all-to-all: {0..8}.
        // The values come from Phi(p, h) = W(p+h-1) ... W(p), e_j and S_p(h) as
        // model.md defines them, summed in exact rational arithmetic until the
        // term falls below 1e-17 (a script apart from this module).
        // Closed forms: triangles S_p(1) = 3/4 and S_p(h>=2) = 0, so A = 7/4,
        // 3/4 without h = 0 and 0.9 x 3/4 = 0.675 with rho = 0.9.  Regional:
        // S_0 = 1, 3/4, 1/2, 3/8, 1/4, ... and S_1 = 1, 11/12, 1/2, 1/3, 1/4,
        // 1/6, ... (halving every two rounds), so A = (7/2 + 43/12) / 2 = 85/24.
        // Targets pi_i = (i + 1)/45 never mix (W is doubly stochastic, so Phi
        // tends to 1/9): a uniform column is sum_i |1/9 - pi_i| = 4/9 away,
        // S(h) tends to c = (10/9)(1/36 + ... + 1/44) = 0.25104941590249, and
        // all-to-all has A = c (0.9 + 0.81 + ...) = 9c without h = 0.  Triangles
        // with these targets: S_0(1) = 0.741820, S_1(1) = 0.753027, then c.
        struct Expected
        {
            const char* schedule;
            double all;        //!< A, rho = 1, with h = 0
            double noNewborn;  //!< A, rho = 1, without h = 0
            double forgetting; //!< A, rho = 0.9, without h = 0
            double targets;    //!< A, rho = 0.9, targets (i + 1)/45, without h = 0
        };

        const Expected table[] = {
            {"pairs", 11.02456463412324, 10.02456463412324, 3.987384320609264, 4.760238039792045},
            {"regional", 85.0 / 24, 61.0 / 24, 1.864600840336134, 3.203325445910669},
            {"triangles", 1.75, 0.75, 0.675, 2.706181436340107},
            {"all-to-all", 1, 0, 0, 2.259444743122386},
        };
        auto topo = WanTopology::NineCity();
        std::vector<double> targets;
        for (uint32_t i = 0; i < 9; ++i)
        {
            targets.push_back((i + 1) / 45.0);
        }
        for (const auto& e : table)
        {
            auto schedule = CliqueScheduleBuiltins::Make(e.schedule, topo);
            auto area = [&schedule](MixingOptions o) {
                return MixingAnalysis::FromSchedule(schedule, 9, o).GetAverageDisagreement();
            };
            // The series stop when a term falls below 1e-12; the tails left
            // are below 1e-10 (pairs shrink slowest, by about 0.83 a round).
            MixingOptions o;
            NS_TEST_EXPECT_MSG_EQ_TOL(area(o), e.all, 1e-9, e.schedule << ": A");
            o.includeNewborn = false;
            NS_TEST_EXPECT_MSG_EQ_TOL(area(o), e.noNewborn, 1e-9, e.schedule << ": no h = 0");
            o.forgetting = 0.9;
            NS_TEST_EXPECT_MSG_EQ_TOL(area(o), e.forgetting, 1e-9, e.schedule << ": rho = 0.9");
            o.target = targets;
            NS_TEST_EXPECT_MSG_EQ_TOL(area(o), e.targets, 1e-9, e.schedule << ": targets");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Conventions: a schedule that never mixes, forgetting, targets, and
 * invalid matrices.
 */
class MixingConventionsTestCase : public WanTestCase
{
  public:
    MixingConventionsTestCase()
        : WanTestCase("never-mixing schedule, forgetting, targets, bad input")
    {
    }

  private:
    void DoCheck() override
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
 * @ingroup wan-training-tests
 * @brief Row-stochastic mixing (an island that averaged without a peer):
 * the consensus, A and the skew by hand, and A unchanged for doubly-stochastic
 * matrices.
 */
class RowStochasticMixingTestCase : public WanTestCase
{
  public:
    RowStochasticMixingTestCase()
        : WanTestCase("row-stochastic mixing: consensus, A and skew by hand")
    {
    }

  private:
    void DoCheck() override
    {
        // Three islands in one clique; island 0 never hears island 2, so it
        // averages itself and island 1 only.
        const double third = 1.0 / 3;
        const WanMatrix w{{0.5, 0.5, 0}, {third, third, third}, {third, third, third}};
        MixingOptions rows;
        rows.rowStochastic = true;
        MixingAnalysis m({w}, rows);
        // c W = c: c_0 = c_1, c_2 = (c_1 + c_2) / 3, so c = (2/5, 2/5, 1/5).
        const auto c = m.GetConsensusShares(0);
        NS_TEST_EXPECT_MSG_EQ_TOL(c[0], 0.4, 1e-12, "c_0");
        NS_TEST_EXPECT_MSG_EQ_TOL(c[1], 0.4, 1e-12, "c_1");
        NS_TEST_EXPECT_MSG_EQ_TOL(c[2], 0.2, 1e-12, "c_2");
        NS_TEST_EXPECT_MSG_EQ(m.HasConsensus(), true, "one state in the end");
        // W - 1 c = u v with v = (1, 1, -2), u = (1/10, -1/15, -1/15), v u = 1/6:
        // Phi(h) - 1 c = (1/6)^(h-1) (W - 1 c).  Its columns' L1 norms are 7/30,
        // 7/30, 7/15, over newborn errors 1 + c_j = 7/5, 7/5, 6/5: S(1) = 13/54.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetSurvivalCurve(0, 2)[1], 13.0 / 54, 1e-12, "S(1)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetSurvivalCurve(0, 2)[2], 13.0 / 54 / 6, 1e-12, "S(2)");
        // A = 1 + (13/54) / (1 - 1/6) = 58/45; one clique without loss has A = 1.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetAverageDisagreement(), 58.0 / 45, 1e-12, "A = 58/45");
        // Skew: (|2/5 - 1/3| + |2/5 - 1/3| + |1/5 - 1/3|) / 2 = 2/15.
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetConsensusSkew(), 2.0 / 15, 1e-12, "skew 2/15");

        // Two rounds: one that mixes fully (1/3 everywhere), then the lossy one.
        // Born at phase 0, the first round mixes fully and W(1) keeps it
        // uniform: c(0) = 1/3 each; born at phase 1, Phi(2) = W(0) W(1) has rows
        // c(1) = (7/18, 7/18, 2/9), the column means of W(1).
        const WanMatrix full{{third, third, third}, {third, third, third}, {third, third, third}};
        MixingAnalysis two({full, w}, rows);
        NS_TEST_EXPECT_MSG_EQ_TOL(two.GetConsensusShares(0)[2], third, 1e-12, "c(0)_2");
        NS_TEST_EXPECT_MSG_EQ_TOL(two.GetConsensusShares(1)[0], 7.0 / 18, 1e-12, "c(1)_0");
        NS_TEST_EXPECT_MSG_EQ_TOL(two.GetConsensusShares(1)[2], 2.0 / 9, 1e-12, "c(1)_2");
        // S_1(1): columns of W(1) - c(1) have L1 norms 2/9, 2/9, 4/9 over
        // newborn errors 25/18, 25/18, 11/9: (4/25 + 4/25 + 4/11) / 3 = 188/825,
        // then 0; S_0(h) = 0 for h >= 1.  A = (1 + 1 + 188/825) / 2.
        NS_TEST_EXPECT_MSG_EQ_TOL(two.GetAverageDisagreement(),
                                  1 + 94.0 / 825,
                                  1e-12,
                                  "A over two phases");
        // Skew: 0 at phase 0, (1/18 + 1/18 + 1/9) / 2 = 1/9 at phase 1.
        NS_TEST_EXPECT_MSG_EQ_TOL(two.GetConsensusSkew(), 1.0 / 18, 1e-12, "mean skew");

        // Doubly stochastic matrices: the same A as without the option, bit for bit.
        CliqueSchedule s("alternating", {{{0, 1}, {2}}, {{0}, {1, 2}}});
        const auto plain = MixingAnalysis::FromSchedule(s, 3);
        const auto asRows = MixingAnalysis::FromSchedule(s, 3, rows);
        NS_TEST_EXPECT_MSG_EQ(asRows.GetAverageDisagreement(),
                              plain.GetAverageDisagreement(),
                              "A unchanged");
        NS_TEST_EXPECT_MSG_EQ(asRows.GetConsensusSkew(), 0.0, "no skew");

        // Islands 0 and 1 keep their state, island 2 takes their mean: no consensus.
        MixingAnalysis apart({{{1, 0, 0}, {0, 1, 0}, {0.5, 0.5, 0}}}, rows);
        NS_TEST_EXPECT_MSG_EQ(apart.HasConsensus(), false, "two states for ever");
        NS_TEST_EXPECT_MSG_EQ(std::isinf(apart.GetAverageDisagreement()), true, "A = infinity");
        NS_TEST_EXPECT_MSG_EQ(std::isnan(apart.GetConsensusSkew()), true, "no skew");

        auto error = [&](std::vector<WanMatrix> mixing, MixingOptions o) {
            return ErrorOf([&] { MixingAnalysis(mixing, o); });
        };
        std::string e = error({{{0.5, 0.4}, {0.5, 0.5}}}, rows);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "W(0) is not row stochastic (row 0 sums to 0.9)"),
                              true,
                              e);
        NS_TEST_EXPECT_MSG_EQ(error({w}, MixingOptions{}).empty(), false, "columns checked");
        auto targeted = rows;
        targeted.target = {0.5, 0.25, 0.25};
        e = error({w}, targeted);
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "non-uniform target shares need doubly-stochastic"),
                              true,
                              e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-mixing test suite.
 */
class MixingAnalysisTestSuite : public TestSuite
{
  public:
    MixingAnalysisTestSuite()
        : TestSuite("wan-training-mixing", Type::UNIT)
    {
        AddTestCase(new PairMixingTestCase);
        AddTestCase(new LinePairsMixingTestCase);
        AddTestCase(new NewbornOffMixingTestCase);
        AddTestCase(new NineCityMixingTestCase);
        AddTestCase(new NineCityNewbornOffTestCase);
        AddTestCase(new MixingConventionsTestCase);
        AddTestCase(new RowStochasticMixingTestCase);
    }
};

/// The suite's instance.
static MixingAnalysisTestSuite g_mixingAnalysisTestSuite;
