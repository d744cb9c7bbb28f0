/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-gossip-training.h"
#include "ns3/wan-time-to-target-predictor.h"

#include <cmath>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// The two islands' mixing of the hand-computed cases: each keeps 3/4.
WanMatrix
TwoIslandMixing()
{
    return {{0.75, 0.25}, {0.25, 0.75}};
}

/// Two islands, optima +1 and -1, initial models 2 and 0, lambda 1.
WanQuadraticMoments
TwoIslandMoments(double noise)
{
    WanQuadraticMoments m;
    m.centres = {{1}, {-1}};
    m.curvature = 1;
    m.noise = noise;
    m.initialMeans = {{2}, {0}};
    return m;
}

/// Nine islands in two rounds of three cliques of three: rows, then columns.
std::vector<WanPredictorRound>
NineIslandPeriod(double first, double second)
{
    std::vector<WanPredictorRound> period(2);
    period[0].seconds = first;
    period[1].seconds = second;
    for (auto& round : period)
    {
        round.mixing.assign(9, std::vector<double>(9, 0));
    }
    for (uint32_t i = 0; i < 9; ++i)
    {
        for (uint32_t j = 0; j < 9; ++j)
        {
            period[0].mixing[i][j] = i / 3 == j / 3 ? 1.0 / 3 : 0;
            period[1].mixing[i][j] = i % 3 == j % 3 ? 1.0 / 3 : 0;
        }
    }
    return period;
}

/**
 * @param workload a random quadratic of nine islands
 * @param training its gossip training, before the first round
 * @param noise the gradients' noise variance sigma^2
 * @return the moments of the exact recursion: its optima, curvature and
 *         noise, the training's initial models (no variance)
 */
WanQuadraticMoments
MomentsOf(const WanTrainingWorkload& workload, const WanGossipTraining& training, double noise)
{
    WanQuadraticMoments m;
    m.curvature = workload.GetCurvature();
    m.noise = noise;
    for (uint32_t i = 0; i < workload.GetNIslands(); ++i)
    {
        m.centres.push_back(workload.GetCentre(i));
        m.initialMeans.push_back(training.GetModel(i));
    }
    return m;
}

/// The gossip training of the cases against it: eta 0.3, H 2, noise and seed.
WanGossipSettings
GossipOf(double noise, uint64_t seed)
{
    WanGossipSettings settings;
    settings.stepSize = 0.3;
    settings.localSteps = 2;
    settings.gradientNoise = noise;
    settings.seed = seed;
    return settings;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Two islands, one quadratic: the moment recursion by hand.
 */
class PredictorByHandTestCase : public WanTestCase
{
  public:
    PredictorByHandTestCase()
        : WanTestCase("predictor: two islands, the moment recursion by hand")
    {
    }

  private:
    void DoCheck() override
    {
        // eta 0.5, H 1: a = 1/2.  y <- W (y / 2 + g / 2), g = (1, -1).
        WanPredictorTraining training;
        training.stepSize = 0.5;
        training.computeS = 0.1;
        const WanTimeToTargetPredictor p({{TwoIslandMixing(), 0.2}}, training);
        const auto gaps = p.ExactGaps(TwoIslandMoments(0), 3);
        NS_TEST_ASSERT_MSG_EQ(gaps.size(), 4, "rounds 0 to 3");
        // y0 = (2, 0); y1 = W (1.5, -0.5) = (1, 0); y2 = W (1, -0.5) =
        // (0.625, -0.125); y3 = W (0.8125, -0.5625) = (0.46875, -0.21875);
        // the gap is (1 / 4) ||y||^2.
        NS_TEST_EXPECT_MSG_EQ_TOL(gaps[0], 1, 1e-12, "before the first round");
        NS_TEST_EXPECT_MSG_EQ_TOL(gaps[1], 0.25, 1e-12, "round 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(gaps[2], 0.1015625, 1e-12, "round 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(gaps[3], 0.06689453125, 1e-12, "round 3");

        const auto reached = p.Exact(TwoIslandMoments(0), 0.1);
        NS_TEST_EXPECT_MSG_EQ(reached.reachable, true, "0.1 is reached");
        NS_TEST_EXPECT_MSG_EQ(reached.rounds, 3, "in round 3");
        NS_TEST_EXPECT_MSG_EQ_TOL(reached.seconds, 3 * (0.1 + 0.2), 1e-12, "3 x (C + T)");
        // Settled: the disagreement d = y_1 solves d = (d / 2 + 1 / 2) / 2,
        // d = 1/3, so the gap settles at (1 / 4)(2 / 9) = 1 / 18.
        const auto never = p.Exact(TwoIslandMoments(0), 0.05);
        NS_TEST_EXPECT_MSG_EQ(never.reachable, false, "0.05 is below the schedule's floor");
        NS_TEST_EXPECT_MSG_EQ_TOL(never.floorGap, 1.0 / 18, 1e-9, "settles at 1/18");
        NS_TEST_EXPECT_MSG_EQ_TOL(never.initialGap, 1, 1e-12, "from 1");

        // Noise of variance 1: s^2 = 1/4, S1 = W W^T / 4 of trace 0.3125.
        const auto noisy = p.ExactGaps(TwoIslandMoments(1), 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(noisy[1], 0.25 + 0.3125 / 4, 1e-12, "noise's variance");
        // Exact averaging settles at lambda d s^2 / (2 N (1 - a^2)) = 1/12.
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetFloorGap(1, 1, 2, 1), 1.0 / 12, 1e-12, "the floor");

        // W - J = P / 2 (P the projector off the average): q^2 = 1/4; the
        // Lyapunov equation S = (P / 2)(S / 4 + I)(P / 2) gives S = (4 / 15)
        // P, so n_eff = 2 / (1 + (3 / 4)(4 / 15)) = 5 / 3.
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetConsensusRate(), 0.25, 1e-12, "q^2");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetEffectiveNeighbours(1), 5.0 / 3, 1e-9, "n_eff");
    }
};

/**
 * @brief The isotropic moments by hand: with two islands every spread is
 * isotropic, so they are the exact recursion averaged over the optima's
 * sign (which cancels the initial models' covariance with them).
 */
class PredictorIsotropicMomentsTestCase : public WanTestCase
{
  public:
    PredictorIsotropicMomentsTestCase()
        : WanTestCase("predictor: isotropic moments, the exact recursion averaged over the draw")
    {
    }

  private:
    void DoCheck() override
    {
        WanPredictorTraining training;
        training.stepSize = 0.5;
        training.localSteps = 3;
        const WanTimeToTargetPredictor p({{TwoIslandMixing(), 1}}, training);
        auto plus = TwoIslandMoments(1);
        auto minus = plus;
        minus.centres = {{-1}, {1}};
        const auto up = p.ExactGaps(plus, 12);
        const auto down = p.ExactGaps(minus, 12);
        WanWorkloadConstants c;
        c.islands = 2;
        c.noise = 1;
        c.heterogeneity = 1; // |c_i - 0|^2 = 1
        c.initialMean = 1;   // xbar(0) = 1
        c.initialSpread = 1; // x_i(0) = 1 +- 1
        const auto moments = p.MomentGaps(c, 12);
        for (size_t r = 0; r <= 12; ++r)
        {
            const double mean = (up[r] + down[r]) / 2;
            NS_TEST_EXPECT_MSG_EQ_TOL(moments.at(r), mean, 1e-12 * mean, "round " << r);
        }
        NS_TEST_EXPECT_MSG_EQ((up[3] != down[3]), true, "the sign matters to one draw");
    }
};

/**
 * @brief A schedule that averages exactly: the topology term vanishes, and
 * the closed form is the exact recursion.
 */
class PredictorExactAveragingTestCase : public WanTestCase
{
  public:
    PredictorExactAveragingTestCase()
        : WanTestCase("predictor: exact averaging, the topology term vanishes")
    {
    }

  private:
    void DoCheck() override
    {
        const WanMatrix average(3, std::vector<double>(3, 1.0 / 3));
        WanPredictorTraining training;
        training.stepSize = 0.2;
        training.localSteps = 3;
        training.computeS = 0.05;
        const WanTimeToTargetPredictor p({{average, 0.5}}, training);
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetConsensusRate(), 0, 1e-12, "q = 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetEffectiveNeighbours(2), 3, 1e-9, "n_eff = N");

        WanQuadraticMoments m;
        m.centres = {{1, 0}, {-2, 1}, {4, 2}};
        m.curvature = 2;
        m.noise = 0.3;
        m.initialMeans = {{0, 0}, {1, -1}, {3, 5}};
        const auto workload = WanTrainingWorkload::Quadratic(m.centres, m.curvature);
        const auto c = WanWorkloadConstants::Of(workload, m.initialMeans, m.noise);
        // x* = (1, 1): the optima lie (0, -1), (-3, 0) and (3, 1) from it.
        NS_TEST_EXPECT_MSG_EQ_TOL(c.heterogeneity, (1.0 + 9 + 10) / 3, 1e-12, "zeta^2");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.initialMean, 1.0 / 9 + 1.0 / 9, 1e-12, "||xbar(0) - x*||^2");
        const auto exact = p.ExactGaps(m, 20);
        const auto closed = p.ClosedFormGaps(c, 20);
        const auto moments = p.MomentGaps(c, 20);
        for (size_t r = 0; r < exact.size(); ++r)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(closed.at(r), exact[r], 1e-12 * exact[r], "round " << r);
            NS_TEST_EXPECT_MSG_EQ_TOL(moments.at(r), exact[r], 1e-12 * exact[r], "round " << r);
        }
        // After a round only the average's part is left: a = 0.6^3.
        const double a2 = std::pow(0.6, 6);
        const double s2 = 0.04 * 0.3 * (1 + 0.36 + 0.36 * 0.36);
        const double mean = c.initialMean * a2 + 2 * s2 / 3;
        NS_TEST_EXPECT_MSG_EQ_TOL(exact[1], mean, 1e-12, "lambda / 2 x the average's part");
        const double floor = 2 * 2 * s2 / (2 * 3 * (1 - a2));
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetFloorGap(2, 0.3, 3, 2), floor, 1e-12, "the floor");
        const auto at = p.ClosedForm(c, 1.5 * floor);
        NS_TEST_EXPECT_MSG_EQ(at.reachable, true, "1.5 x the floor is reached");
        NS_TEST_EXPECT_MSG_EQ(at.rounds, p.Exact(m, 1.5 * floor).rounds, "as the recursion says");
        NS_TEST_EXPECT_MSG_EQ_TOL(at.seconds, at.rounds * (3 * 0.05 + 0.5), 1e-12, "H C + T");
    }
};

/**
 * @brief Without noise the recursion is the training itself:
 * WanGossipTraining's modelLoss - f*, round by round, and its time to target.
 */
class PredictorAgainstTrainingTestCase : public WanTestCase
{
  public:
    PredictorAgainstTrainingTestCase()
        : WanTestCase("predictor: the recursion is the gossip training without noise")
    {
    }

  private:
    void DoCheck() override
    {
        WanQuadraticSettings q;
        q.heterogeneity = 1;
        q.seed = 7;
        const auto workload = WanTrainingWorkload::RandomQuadratic(q);
        WanGossipTraining training(workload, GossipOf(0, 11));
        const auto m = MomentsOf(workload, training, 0);
        const auto period = NineIslandPeriod(0.3, 0.7);
        WanPredictorTraining t;
        t.stepSize = 0.3;
        t.localSteps = 2;
        t.computeS = 0.01;
        const WanTimeToTargetPredictor p(period, t);
        const auto gaps = p.ExactGaps(m, 12);
        const double best = workload.GetMinimumLoss();
        for (uint32_t r = 1; r <= 12; ++r)
        {
            const auto& round = period[(r - 1) % 2];
            const auto record = training.RunRound(round.mixing, 0.02, round.seconds);
            NS_TEST_EXPECT_MSG_EQ_TOL(record.modelLoss - best,
                                      gaps[r],
                                      1e-9 * gaps[r],
                                      "round " << r);
        }
        const double target = 0.5 * (gaps[1] + gaps[2]);
        const auto predicted = p.Exact(m, target);
        NS_TEST_EXPECT_MSG_EQ(predicted.rounds, 2, "between rounds 1 and 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(predicted.seconds,
                                  training.GetTimeToLoss(best + target, true).value(),
                                  1e-12,
                                  "the training's time to target");
        // Constants of the workload: lambda 1, zeta^2 the optima's spread.
        const auto c = WanWorkloadConstants::Of(workload, m.initialMeans);
        NS_TEST_EXPECT_MSG_EQ_TOL(c.initialMean + c.initialSpread,
                                  gaps[0] * 2,
                                  1e-12,
                                  "the initial gap is lambda / 2 (mean + spread)");
        NS_TEST_EXPECT_MSG_EQ_TOL(p.GetConsensusRate(), 0, 1e-12, "rows then columns average");
    }
};

/**
 * @brief With stochastic gradients the recursion is the training's
 * expectation: a model of 2000 coordinates averages the noise out.
 */
class PredictorNoisyTrainingTestCase : public WanTestCase
{
  public:
    PredictorNoisyTrainingTestCase()
        : WanTestCase("predictor: the recursion is the noisy training's expectation")
    {
    }

  private:
    void DoCheck() override
    {
        WanQuadraticSettings q;
        q.dimension = 2000;
        q.heterogeneity = 0.5;
        q.seed = 3;
        const auto workload = WanTrainingWorkload::RandomQuadratic(q);
        WanGossipTraining training(workload, GossipOf(1, 5));
        const auto m = MomentsOf(workload, training, 1);
        const auto period = NineIslandPeriod(1, 1);
        WanPredictorTraining t;
        t.stepSize = 0.3;
        t.localSteps = 2;
        const auto gaps = WanTimeToTargetPredictor(period, t).ExactGaps(m, 10);
        const double best = workload.GetMinimumLoss();
        for (uint32_t r = 1; r <= 10; ++r)
        {
            const auto record = training.RunRound(period[(r - 1) % 2].mixing, 0, 1);
            NS_TEST_EXPECT_MSG_EQ_TOL(record.modelLoss - best,
                                      gaps[r],
                                      0.03 * gaps[r],
                                      "round " << r);
        }
    }
};

/**
 * @brief Logistic regression's constants: lambda from the Hessian's trace,
 * the optima's spread from the gradients at x*.
 */
class PredictorLogisticConstantsTestCase : public WanTestCase
{
  public:
    PredictorLogisticConstantsTestCase()
        : WanTestCase("predictor: a logistic workload's constants")
    {
    }

  private:
    void DoCheck() override
    {
        WanLogisticSettings s;
        s.islands = 2;
        s.features = 1;
        s.samplesPerIsland = 8;
        s.regularisation = 0.5;
        const auto workload = WanTrainingWorkload::Logistic(s);
        const auto best = workload.GetMinimiser();
        std::vector<double> g;
        workload.GlobalGradient(best, g);
        NS_TEST_EXPECT_MSG_EQ_TOL(std::hypot(g[0], g[1]), 0, 1e-9, "x* is the minimiser");
        const auto c = WanWorkloadConstants::Of(workload, {best, best});
        // Each sample adds at most (1 / 4) a a^T to the Hessian: lambda is
        // between mu and mu + (1 / 4) mean ||a||^2 / d.
        const bool inRange = c.curvature > 0.5 && c.curvature < 0.5 + 2;
        NS_TEST_EXPECT_MSG_EQ(inRange, true, "lambda " << c.curvature);
        std::vector<double> g0;
        workload.Gradient(0, best, g0);
        // Two islands: g_1 = -g_0 at x*, so zeta^2 = ||g_0||^2 / lambda^2.
        NS_TEST_EXPECT_MSG_EQ_TOL(c.heterogeneity,
                                  (g0[0] * g0[0] + g0[1] * g0[1]) / (c.curvature * c.curvature),
                                  1e-9,
                                  "zeta^2");
        NS_TEST_EXPECT_MSG_EQ_TOL(c.initialMean + c.initialSpread, 0, 1e-15, "starting at x*");
    }
};

/**
 * @brief Bad input refused in one line, an unreachable target reported.
 */
class PredictorBadInputTestCase : public WanTestCase
{
  public:
    PredictorBadInputTestCase()
        : WanTestCase("predictor: impossible input refused")
    {
    }

  private:
    void DoCheck() override
    {
        WanPredictorTraining t;
        const WanMatrix rows{{0.5, 0.5}, {1, 0}}; // row stochastic only
        auto e = ErrorOf([&] { WanTimeToTargetPredictor({{rows, 1}}, t); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "is not doubly stochastic"), true, e);
        e = ErrorOf([&] { WanTimeToTargetPredictor({}, t); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "a period of 0 rounds"), true, e);
        auto bad = t;
        bad.computeS = -1;
        e = ErrorOf([&] { WanTimeToTargetPredictor({{TwoIslandMixing(), 1}}, bad); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "compute time -1 s per local step"), true, e);
        bad = t;
        bad.localSteps = 0;
        e = ErrorOf([&] { WanTimeToTargetPredictor({{TwoIslandMixing(), 1}}, bad); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "0 local steps"), true, e);
        e = ErrorOf([&] { WanTimeToTargetPredictor({{TwoIslandMixing(), -2}}, t); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "round 1 takes -2 s"), true, e);

        t.stepSize = 0.5;
        const WanTimeToTargetPredictor p({{TwoIslandMixing(), 1}}, t);
        e = ErrorOf([&] { p.Exact(TwoIslandMoments(1), 0.05); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "a target gap of 0.05 is at or below the floor"),
                              true,
                              e);
        e = ErrorOf([&] { p.Exact(TwoIslandMoments(0), 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "at or below the floor exact averaging settles at (0)"),
                              true,
                              e);
        auto steep = TwoIslandMoments(0);
        steep.curvature = 4;
        e = ErrorOf([&] { p.ExactGaps(steep, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "step size x curvature is 2"), true, e);
        auto three = TwoIslandMoments(0);
        three.centres.push_back({0});
        e = ErrorOf([&] { p.ExactGaps(three, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "3 optima for 2 islands"), true, e);
        WanWorkloadConstants c;
        c.islands = 2;
        c.heterogeneity = -1;
        e = ErrorOf([&] { p.ClosedFormGaps(c, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "heterogeneity -1"), true, e);
        // Reported, not refused: above exact averaging's floor, below this
        // schedule's.
        c.heterogeneity = 1;
        c.initialSpread = 1;
        const auto never = p.ClosedForm(c, 1e-3);
        NS_TEST_EXPECT_MSG_EQ(never.reachable, false, "unreachable");
        NS_TEST_EXPECT_MSG_EQ_TOL(never.floorGap, 1.0 / 18, 1e-9, "(1 / 2)(1 / 3)^2");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-time-to-target-predictor test suite.
 */
class WanTimeToTargetPredictorTestSuite : public TestSuite
{
  public:
    WanTimeToTargetPredictorTestSuite()
        : TestSuite("wan-training-time-to-target-predictor", Type::UNIT)
    {
        AddTestCase(new PredictorByHandTestCase);
        AddTestCase(new PredictorIsotropicMomentsTestCase);
        AddTestCase(new PredictorExactAveragingTestCase);
        AddTestCase(new PredictorAgainstTrainingTestCase);
        AddTestCase(new PredictorNoisyTrainingTestCase);
        AddTestCase(new PredictorLogisticConstantsTestCase);
        AddTestCase(new PredictorBadInputTestCase);
    }
};

/// The suite's instance.
static WanTimeToTargetPredictorTestSuite g_wanTimeToTargetPredictorTestSuite;
