/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/mixing-analysis.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-gossip-training.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-training-workload.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @param schedule a schedule of the nine cities
 * @return its planned (uniform clique) mixing matrices, one per round
 */
std::vector<WanMatrix>
PlannedMixing(const CliqueSchedule& schedule)
{
    const auto analysis = MixingAnalysis::FromSchedule(schedule, 9);
    std::vector<WanMatrix> period;
    for (uint32_t k = 0; k < analysis.GetPeriod(); ++k)
    {
        period.push_back(analysis.GetMixingMatrix(k));
    }
    return period;
}

/**
 * @param n N
 * @return the N x N identity: no mixing
 */
WanMatrix
Identity(uint32_t n)
{
    WanMatrix w(n, std::vector<double>(n, 0.0));
    for (uint32_t i = 0; i < n; ++i)
    {
        w[i][i] = 1;
    }
    return w;
}

/// The quadratic of the contraction measurements: lambda 1, no heterogeneity.
constexpr double kCurvature = 1;
/// Its step size: 0.95 of each deviation is left after a local step.
constexpr double kStepSize = 0.05;

/**
 * @brief Runs the quadratic of nine islands in 10 dimensions, no
 * heterogeneity, over a period of mixing matrices repeated.
 * @param period W_1 ... W_P
 * @param warmup periods run before the contraction is measured
 * @param measured periods over which it is measured
 * @return the measured per-period contraction of the root consensus
 *         distance: (Xi_end / Xi_start)^(1 / (2 K)) over the K measured
 *         periods after the warm-up
 */
double
MeasuredContraction(const std::vector<WanMatrix>& period, uint32_t warmup, uint32_t measured)
{
    WanQuadraticSettings quadratic;
    quadratic.curvature = kCurvature;
    quadratic.seed = 7;
    WanGossipSettings settings;
    settings.stepSize = kStepSize;
    settings.seed = 8;
    WanGossipTraining training(WanTrainingWorkload::RandomQuadratic(quadratic), settings);
    double start = 0;
    for (uint32_t p = 0; p < warmup + measured; ++p)
    {
        if (p == warmup)
        {
            start = training.GetHistory().back().consensusDistance;
        }
        for (const auto& w : period)
        {
            training.RunRound(w, 0, 0);
        }
    }
    const double end = training.GetHistory().back().consensusDistance;
    return std::pow(end / start, 1.0 / (2 * measured));
}

/**
 * @param period the nine cities' pairs schedule's matrices
 * @return them as islands that lost contributions average them: in every
 *         round the lower island of each pair lost half of its partner's
 *         chunks and weighs itself 3/4, the partner 1/4 (WanMeasuredMixing's
 *         convention); rows still sum to 1, columns do not
 */
std::vector<WanMatrix>
Lossy(std::vector<WanMatrix> period)
{
    for (auto& w : period)
    {
        for (uint32_t i = 0; i < w.size(); ++i)
        {
            for (uint32_t j = i + 1; j < w.size(); ++j)
            {
                if (w[i][j] > 0)
                {
                    w[i][i] = 0.75;
                    w[i][j] = 0.25;
                }
            }
        }
    }
    return period;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Three islands in two dimensions by hand: two rounds of two local
 * steps, a doubly and a row-stochastic mixing matrix; the records, the time
 * to a target loss, and the contraction rate of two periods.
 */
class GossipHandComputedTestCase : public WanTestCase
{
  public:
    GossipHandComputedTestCase()
        : WanTestCase("three islands by hand: records of two rounds, time to target, rates")
    {
    }

  private:
    void DoCheck() override
    {
        // f_i(x) = (2 / 2) ||x - c_i||^2, c = (0, 0), (4, 0), (0, 8); eta =
        // 1/4, tau = 2: each local step leaves half of x - c_i, two leave a
        // quarter: x <- c_i + (x - c_i) / 4.
        const auto workload = WanTrainingWorkload::Quadratic({{0, 0}, {4, 0}, {0, 8}}, 2);
        WanGossipSettings settings;
        settings.stepSize = 0.25;
        settings.localSteps = 2;
        WanGossipTraining training(workload, settings, {{4, 4}, {0, 4}, {4, 0}});
        // Round 0: xbar = (8/3, 8/3); ||xbar - c_i||^2 = 128/9, 80/9, 320/9:
        // loss 176/9; ||x_i - c_i||^2 = 32, 32, 80: local loss 48;
        // ||x_i - xbar||^2 = 32/9, 80/9, 80/9: consensus distance 64/9.
        CheckRecord(training.GetHistory().at(0), {0, 0, 176.0 / 9, 48, 64.0 / 9});
        // Round 1: local steps give (1, 1), (3, 1), (1, 6); W1 averages the
        // pair {0, 1}, island 2 alone: (2, 1), (2, 1), (1, 6). xbar = (5/3,
        // 8/3); ||xbar - c_i||^2 = 89/9, 113/9, 281/9: loss 161/9;
        // ||x_i - c_i||^2 = 5, 5, 5: local loss 5; ||x_i - xbar||^2 = 26/9,
        // 26/9, 104/9: consensus distance 52/9. Time 0.1 + 0.25 s.
        const WanMatrix w1{{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0, 1}};
        const auto first = training.RunRound(w1, 0.1, 0.25);
        CheckRecord(first, {1, 0.35, 161.0 / 9, 5, 52.0 / 9});
        // Round 2: local steps give (1/2, 1/4), (7/2, 1/4), (1/4, 15/2); W2
        // is row-stochastic (columns 3/4, 1/2, 7/4): island 0 averages with
        // 2, island 1 keeps half and takes a quarter of 0 and 2: (3/8, 31/8),
        // (31/16, 33/16), (1/4, 15/2). xbar = (41/48, 215/48);
        // ||xbar - c_i||^2 = (47906, 69026, 30242) / 2304: loss 24529/1152;
        // ||x_i - c_i||^2 = 970/64, 2178/256, 5/16: local loss 1023/128;
        // ||x_i - xbar||^2 = (1370, 16160, 21866) / 2304: 3283/576.
        const WanMatrix w2{{0.5, 0, 0.5}, {0.25, 0.5, 0.25}, {0, 0, 1}};
        const auto second = training.RunRound(w2, 0.1, 0.5);
        CheckRecord(second, {2, 0.95, 24529.0 / 1152, 1023.0 / 128, 3283.0 / 576});
        NS_TEST_EXPECT_MSG_EQ(training.GetHistory().size(), 3, "three records");
        const auto model = training.GetModel(1);
        NS_TEST_EXPECT_MSG_EQ_TOL(model.at(0), 31.0 / 16, 1e-12, "x_1");
        NS_TEST_EXPECT_MSG_EQ_TOL(model.at(1), 33.0 / 16, 1e-12, "x_1");

        // The loss at xbar: 19.56, 17.89, 21.29.
        NS_TEST_EXPECT_MSG_EQ(training.GetTimeToLoss(20).value_or(-1), 0, "at the start");
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetTimeToLoss(18).value_or(-1),
                                  0.35,
                                  1e-12,
                                  "after round 1");
        NS_TEST_EXPECT_MSG_EQ(training.GetTimeToLoss(17).has_value(), false, "never");

        // Rates, |1 - eta lambda|^(tau P) = (1/2)^4. Pairs {0, 1} then {1, 2}:
        // M = [1/2 1/2 0; 1/4 1/4 1/2; 1/4 1/4 1/2], eigenvalues 1, 0 (two
        // equal rows) and its trace less 1, 1/4: 1/64. W1 then W2: M = [1/4
        // 1/4 1/2; 3/8 3/8 1/4; 0 0 1], eigenvalues 1, 0 (two equal columns)
        // and 5/8: 5/128.
        const WanMatrix other{{1, 0, 0}, {0, 0.5, 0.5}, {0, 0.5, 0.5}};
        NS_TEST_EXPECT_MSG_EQ_TOL(WanGossipTraining::GetContractionRate({w1, other}, 0.25, 2, 2),
                                  1.0 / 64,
                                  1e-12,
                                  "two pairs");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanGossipTraining::GetContractionRate({w1, w2}, 0.25, 2, 2),
                                  5.0 / 128,
                                  1e-12,
                                  "row-stochastic");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanGossipTraining::GetContractionRate({w1, w2}, 0, 2, 2),
                                  5.0 / 8,
                                  1e-12,
                                  "the mixing alone");
    }

    /// A record's expected figures.
    struct Expected
    {
        uint32_t round;           //!< rounds done
        double timeS;             //!< simulated time
        double loss;              //!< at xbar
        double localLoss;         //!< mean at x_i
        double consensusDistance; //!< (1 / N) sum ||x_i - xbar||^2
    };

    /**
     * @param r a record
     * @param e what it should say
     */
    void CheckRecord(const WanTrainingRecord& r, const Expected& e)
    {
        NS_TEST_EXPECT_MSG_EQ(r.round, e.round, "round");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.timeS, e.timeS, 1e-12, "round " << e.round << ": time");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.loss, e.loss, 1e-12, "round " << e.round << ": loss");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.localLoss,
                                  e.localLoss,
                                  1e-12,
                                  "round " << e.round << ": local loss");
        NS_TEST_EXPECT_MSG_EQ_TOL(r.consensusDistance,
                                  e.consensusDistance,
                                  1e-12,
                                  "round " << e.round << ": consensus distance");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The quadratic without heterogeneity on the nine cities, lossless
 * (each schedule's planned matrices): the measured per-period contraction
 * of the consensus distance is the theoretical rate within 5% for pairs,
 * regional, an optimizer schedule and a lossy row-stochastic pairs; for
 * triangles and all-to-all, whose periods average exactly (rate 0), it is
 * below 1e-6.
 */
class GossipContractionTestCase : public WanTestCase
{
  public:
    GossipContractionTestCase()
        : WanTestCase("nine cities, lossless: measured contraction = theoretical rate within 5%")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        for (const auto& name : CliqueScheduleBuiltins::Names())
        {
            Check(name, PlannedMixing(CliqueScheduleBuiltins::Make(name, topo)));
        }
        Check("pairs, lossy", Lossy(PlannedMixing(CliqueScheduleBuiltins::Pairs(topo))));

        // Two optimizer schedules (300 annealing steps, a quarter of a
        // second each): the best of period up to 3, and the best of pairs.
        for (uint32_t largest : {0, 2})
        {
            auto optimizer = CreateObject<ScheduleOptimizer>();
            optimizer->SetAttribute("Search", StringValue("annealing"));
            optimizer->SetAttribute("MaxPeriod", UintegerValue(3));
            optimizer->SetAttribute("MaxCliqueSize", UintegerValue(largest));
            optimizer->SetAttribute("Evaluations", UintegerValue(300));
            const auto best = optimizer->Optimize(topo, PlannerConfig{});
            Check(largest == 0 ? "optimised" : "optimised pairs", PlannedMixing(best.schedule));
        }
    }

    /**
     * @param name the schedule's name, for the messages
     * @param period its mixing matrices
     */
    void Check(const std::string& name, const std::vector<WanMatrix>& period)
    {
        const double theory =
            WanGossipTraining::GetContractionRate(period, kStepSize, kCurvature, 1);
        // A period that averages exactly leaves rounding errors (1e-16 of
        // the models) after its first run: measure that one.
        const bool exact = theory < 1e-9;
        const double measured =
            exact ? MeasuredContraction(period, 0, 1) : MeasuredContraction(period, 10, 10);
        if (exact)
        {
            NS_TEST_EXPECT_MSG_LT(measured, 1e-6, name << ": the period averages exactly");
        }
        else
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(measured, theory, 0.05 * theory, name);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Logistic regression on nine islands whose shares are skewed (90% of
 * class 1 at the first, 10% at the last): the gradient is the loss's
 * (central differences); the loss at the average model falls, at every
 * round with all-to-all mixing (gradient descent on the global objective),
 * and ends lower with all-to-all than with no mixing.
 */
class GossipLogisticTestCase : public WanTestCase
{
  public:
    GossipLogisticTestCase()
        : WanTestCase("logistic regression, skewed shares: loss falls, all-to-all beats no mixing")
    {
    }

  private:
    void DoCheck() override
    {
        const auto workload = WanTrainingWorkload::Logistic(WanLogisticSettings{});
        const double first = workload.GetPositiveShare(0);
        const double last = workload.GetPositiveShare(8);
        NS_TEST_EXPECT_MSG_GT(first, 0.7, "island 0 mostly class 1");
        NS_TEST_EXPECT_MSG_LT(last, 0.3, "island 8 mostly class -1");
        NS_TEST_EXPECT_MSG_EQ(workload.GetDimension(), 3, "two features and the bias");
        CheckGradient(workload);

        const auto topo = WanTopology::NineCity();
        const auto all = PlannedMixing(CliqueScheduleBuiltins::AllToAll(topo)).at(0);
        const auto mixed = Train(workload, all);
        const auto alone = Train(workload, Identity(9));
        uint32_t rises = 0;
        for (size_t r = 1; r < mixed.size(); ++r)
        {
            rises += mixed[r].loss > mixed[r - 1].loss ? 1 : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(rises, 0, "all-to-all: the loss never rises");
        NS_TEST_EXPECT_MSG_LT(mixed.back().loss, mixed.front().loss, "all-to-all: falls");
        NS_TEST_EXPECT_MSG_LT(alone.back().loss, alone.front().loss, "no mixing: falls");
        NS_TEST_EXPECT_MSG_LT_OR_EQ(mixed.back().loss, alone.back().loss, "mixing helps");
        NS_TEST_EXPECT_MSG_LT(mixed.back().consensusDistance, 1e-20, "all-to-all agrees");
        NS_TEST_EXPECT_MSG_GT(alone.back().consensusDistance, 1e-3, "alone, they disagree");
    }

    /**
     * @param workload the local losses
     * @param mixing the matrix of every round
     * @return the history of 100 rounds, eta = 0.5, one local step
     */
    static std::vector<WanTrainingRecord> Train(const WanTrainingWorkload& workload,
                                                const WanMatrix& mixing)
    {
        WanGossipSettings settings;
        settings.stepSize = 0.5;
        WanGossipTraining training(workload, settings);
        for (uint32_t r = 0; r < 100; ++r)
        {
            training.RunRound(mixing, 1, 0.5);
        }
        return training.GetHistory();
    }

    /**
     * @brief Each island's gradient against central differences of its loss.
     * @param workload the local losses
     */
    void CheckGradient(const WanTrainingWorkload& workload)
    {
        const std::vector<double> x{0.3, -0.7, 0.2};
        std::vector<double> gradient;
        double worst = 0;
        for (uint32_t i = 0; i < workload.GetNIslands(); ++i)
        {
            workload.Gradient(i, x, gradient);
            for (uint32_t k = 0; k < x.size(); ++k)
            {
                auto up = x;
                auto down = x;
                up[k] += 1e-6;
                down[k] -= 1e-6;
                const double difference = (workload.Loss(i, up) - workload.Loss(i, down)) / 2e-6;
                worst = std::max(worst, std::abs(difference - gradient.at(k)));
            }
        }
        NS_TEST_EXPECT_MSG_LT(worst, 1e-7, "gradient = central differences");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Two runs with the same seeds give bit-identical histories and
 * models, for both workloads; another seed of the initial models or of the
 * workload gives another history.
 */
class GossipDeterminismTestCase : public WanTestCase
{
  public:
    GossipDeterminismTestCase()
        : WanTestCase("same seeds, bit-identical histories; another seed, another history")
    {
    }

  private:
    void DoCheck() override
    {
        const auto period = PlannedMixing(CliqueScheduleBuiltins::Pairs(WanTopology::NineCity()));
        for (bool logistic : {false, true})
        {
            const std::string kind = logistic ? "logistic" : "quadratic";
            const auto a = Run(logistic, 1, 1, period);
            const auto b = Run(logistic, 1, 1, period);
            NS_TEST_EXPECT_MSG_EQ(Differences(a, b), 0, kind << ": same seeds");
            const auto otherStart = Run(logistic, 1, 2, period);
            NS_TEST_EXPECT_MSG_EQ(Differences(a, otherStart),
                                  a.size(),
                                  kind << ": another seed of the models");
            const auto otherData = Run(logistic, 2, 1, period);
            NS_TEST_EXPECT_MSG_EQ(Differences(a, otherData),
                                  a.size(),
                                  kind << ": another seed of the workload");
        }
    }

    /**
     * @param logistic the logistic workload (else heterogeneous quadratics)
     * @param dataSeed the workload's seed
     * @param modelSeed the initial models' seed
     * @param period the mixing matrices, run for 20 rounds
     * @return the history
     */
    static std::vector<WanTrainingRecord> Run(bool logistic,
                                              uint64_t dataSeed,
                                              uint64_t modelSeed,
                                              const std::vector<WanMatrix>& period)
    {
        WanLogisticSettings data;
        data.seed = dataSeed;
        WanQuadraticSettings quadratic;
        quadratic.heterogeneity = 1;
        quadratic.seed = dataSeed;
        WanGossipSettings settings;
        settings.seed = modelSeed;
        settings.localSteps = 3;
        WanGossipTraining training(logistic ? WanTrainingWorkload::Logistic(data)
                                            : WanTrainingWorkload::RandomQuadratic(quadratic),
                                   settings);
        for (uint32_t r = 0; r < 20; ++r)
        {
            training.RunRound(period[r % period.size()], 0.2, 0.3);
        }
        return training.GetHistory();
    }

    /**
     * @param a a history
     * @param b another, as long
     * @return the records whose loss, local loss or consensus distance
     *         differ in any bit
     */
    static size_t Differences(const std::vector<WanTrainingRecord>& a,
                              const std::vector<WanTrainingRecord>& b)
    {
        size_t differ = a.size() == b.size() ? 0 : a.size();
        for (size_t r = 0; r < std::min(a.size(), b.size()); ++r)
        {
            differ += a[r].loss != b[r].loss || a[r].localLoss != b[r].localLoss ||
                              a[r].consensusDistance != b[r].consensusDistance ||
                              a[r].timeS != b[r].timeS
                          ? 1
                          : 0;
        }
        return differ;
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Bad input is refused with one line naming the problem.
 */
class GossipBadInputTestCase : public WanTestCase
{
  public:
    GossipBadInputTestCase()
        : WanTestCase("bad input: sizes, non-stochastic W, step size, islands, times, seeds")
    {
    }

  private:
    void DoCheck() override
    {
        const auto workload = WanTrainingWorkload::Quadratic({{0}, {1}, {2}}, 1);
        const WanGossipSettings settings;
        WanGossipTraining training(workload, settings, {{0}, {0}, {0}});
        const WanMatrix w{{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0, 1}};
        WanGossipSettings negative;
        negative.stepSize = -0.1;
        WanGossipSettings spread;
        spread.initialSpread = -1;
        const std::vector<std::pair<std::string, std::string>> cases{
            {ErrorOf([&] { training.RunRound(Identity(2), 0, 0); }),
             "gossip training: mixing matrix of round 1 is not 3 x 3 (it has 2 rows of 2)"},
            {ErrorOf([&] { training.RunRound({{1, 0, 0}, {0, 1}, {0, 0, 1}}, 0, 0); }),
             "gossip training: mixing matrix of round 1 is not 3 x 3 (it has 3 rows of 3)"},
            {ErrorOf(
                 [&] { training.RunRound({{0.5, 0.5, 0}, {0.5, 0.5, 1e-8}, {0, 0, 1}}, 0, 0); }),
             "gossip training: mixing matrix of round 1 is not row-stochastic: row 1 sums to "
             "1.00000001 (need 1 within 1e-9)"},
            {ErrorOf([&] { training.RunRound({{1.5, -0.5, 0}, {0.5, 0.5, 0}, {0, 0, 1}}, 0, 0); }),
             "gossip training: mixing matrix of round 1 has entry -0.5 at row 0, column 1 "
             "(need non-negative numbers)"},
            {ErrorOf([&] { training.RunRound(w, -1, 0); }),
             "gossip training: compute time -1 s (need a non-negative number)"},
            {ErrorOf([&] { training.RunRound(w, 0, NAN); }),
             "gossip training: round time nan s (need a non-negative number)"},
            {ErrorOf([&] { WanGossipTraining t(workload, negative); }),
             "gossip training: step size -0.1 (need a non-negative number)"},
            {ErrorOf([&] { WanGossipTraining t(workload, spread); }),
             "gossip training: initial spread -1 (need a non-negative number)"},
            {ErrorOf([&] { WanGossipTraining t(workload, settings, {{0}, {0}}); }),
             "gossip training: 2 initial models for 3 islands"},
            {ErrorOf([&] { WanGossipTraining t(workload, settings, {{0}, {0, 1}, {0}}); }),
             "gossip training: initial model 1 has 2 numbers, expected 1"},
            {ErrorOf([&] { training.GetTimeToLoss(NAN); }),
             "gossip training: target loss nan (need a number)"},
            {ErrorOf([] { WanGossipTraining::GetContractionRate({}, 0.1, 1, 1); }),
             "gossip training: a period of 0 mixing matrices (need at least 1)"},
            {ErrorOf([&] { WanGossipTraining::GetContractionRate({w, Identity(2)}, 0.1, 1, 1); }),
             "gossip training: mixing matrix 2 of the period is not 3 x 3 (it has 2 rows of 2)"},
            {ErrorOf([&] { WanGossipTraining::GetContractionRate({w}, -1, 1, 1); }),
             "gossip training: step size -1 (need a non-negative number)"},
            {ErrorOf([] { WanTrainingWorkload::Quadratic({}, 1); }),
             "training workload: 0 islands (need at least 1)"},
            {ErrorOf([] { WanTrainingWorkload::Quadratic({{0}, {1, 2}}, 1); }),
             "training workload: centre 1 has 2 numbers, centre 0 has 1"},
            {ErrorOf([] { WanTrainingWorkload::Quadratic({{0}}, 0); }),
             "training workload: curvature 0 (need a positive number)"},
        };
        for (const auto& [error, expected] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(error, expected, "refused, one line");
        }
        CheckSettingsRefused();
        const auto after = training.GetHistory().size();
        NS_TEST_EXPECT_MSG_EQ(after, 1, "a refused round is not recorded");
    }

    /// The workloads' random settings out of range.
    void CheckSettingsRefused()
    {
        WanQuadraticSettings islands;
        islands.islands = 0;
        WanQuadraticSettings spread;
        spread.heterogeneity = -1;
        WanLogisticSettings flips;
        flips.flippedLabels = 1.5;
        WanLogisticSettings skew;
        skew.skew = -0.1;
        WanLogisticSettings samples;
        samples.samplesPerIsland = 0;
        const std::vector<std::pair<std::string, std::string>> cases{
            {ErrorOf([&] { WanTrainingWorkload::RandomQuadratic(islands); }),
             "training workload: 0 islands (need at least 1)"},
            {ErrorOf([&] { WanTrainingWorkload::RandomQuadratic(spread); }),
             "training workload: heterogeneity -1 (need a non-negative number)"},
            {ErrorOf([&] { WanTrainingWorkload::Logistic(flips); }),
             "training workload: flipped-label share 1.5 (need 0 to 1)"},
            {ErrorOf([&] { WanTrainingWorkload::Logistic(skew); }),
             "training workload: class skew -0.1 (need 0 to 1)"},
            {ErrorOf([&] { WanTrainingWorkload::Logistic(samples); }),
             "training workload: 0 samples per island (need at least 1)"},
        };
        for (const auto& [error, expected] : cases)
        {
            NS_TEST_EXPECT_MSG_EQ(error, expected, "refused");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The quorum's carry by hand, three islands in one dimension, no
 * local steps (eta 0): island 0 averages without island 2's contribution,
 * which arrives late; one round later the difference it makes is applied,
 * and the models are those of having waited for it.  Also the modelLoss
 * field and f*, the least global loss.
 */
class GossipCarryTestCase : public WanTestCase
{
  public:
    GossipCarryTestCase()
        : WanTestCase("three islands by hand: a late contribution carried to the next round")
    {
    }

  private:
    void DoCheck() override
    {
        // f_i(x) = (1 / 2) (x - c_i)^2, c = 0, 3, 6: f* at x = 3,
        // (9 + 0 + 9) / 6 = 3.
        const auto workload = WanTrainingWorkload::Quadratic({{0}, {3}, {6}}, 1);
        NS_TEST_EXPECT_MSG_EQ_TOL(workload.GetMinimumLoss(), 3, 1e-12, "f*");
        WanGossipSettings settings;
        settings.stepSize = 0;
        WanGossipTraining training(workload, settings, {{3}, {0}, {0}});
        // Round 0: f(3) = 3, f(0) = (0 + 9 + 36) / 6 = 7.5: modelLoss
        // (3 + 7.5 + 7.5) / 3 = 6.
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetHistory().at(0).modelLoss, 6, 1e-12, "modelLoss");
        // Round 1: everyone in one clique; island 0 averaged without 2:
        // (3 + 0) / 2 = 1.5; the others all three: 1.  Had island 0 held
        // everything: 1.
        const double third = 1.0 / 3;
        const WanMatrix mixing{{0.5, 0.5, 0}, {third, third, third}, {third, third, third}};
        const WanMatrix received{{third, third, third},
                                 {third, third, third},
                                 {third, third, third}};
        training.RunRound(mixing, received, 0, 0.1);
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetModel(0).at(0), 1.5, 1e-12, "averaged without 2");
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetModel(1).at(0), 1, 1e-12, "averaged all");
        // Round 2, no mixing: island 0 adds (1/3 - 1/2) 3 + (1/3 - 1/2) 0 +
        // (1/3 - 0) 0 = -1/2 to 1.5: 1, as had it waited.
        const WanMatrix alone{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
        training.RunRound(alone, 0, 0.1);
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetModel(0).at(0), 1, 1e-12, "carried: as if waited");
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetModel(2).at(0), 1, 1e-12, "island 2 unchanged");
        // Round 3: nothing is carried twice.
        training.RunRound(alone, 0, 0.1);
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetModel(0).at(0), 1, 1e-12, "carried once");

        // Without the carry island 0 stays at 1.5.
        WanGossipTraining waited(workload, settings, {{3}, {0}, {0}});
        waited.RunRound(mixing, 0, 0.1);
        waited.RunRound(alone, 0, 0.1);
        NS_TEST_EXPECT_MSG_EQ_TOL(waited.GetModel(0).at(0), 1.5, 1e-12, "no carry");
        // Round 1: f(1.5) = (2.25 + 2.25 + 20.25) / 6 = 4.125: modelLoss
        // (4.125 + 5 + 5) / 3 = 113/24; all at 1 after round 2: f(1) =
        // (1 + 4 + 25) / 6 = 5.  Time 0.1 s per round.
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetHistory().at(1).modelLoss,
                                  113.0 / 24,
                                  1e-12,
                                  "modelLoss");
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetHistory().back().modelLoss, 5, 1e-12, "modelLoss");
        NS_TEST_EXPECT_MSG_EQ_TOL(training.GetTimeToLoss(4.8, true).value_or(-1),
                                  0.1,
                                  1e-12,
                                  "modelLoss 4.8 at round 1");
        NS_TEST_EXPECT_MSG_EQ(training.GetTimeToLoss(4.7, true).has_value(), false, "never");
        NS_TEST_EXPECT_MSG_EQ(training.GetTimeToLoss(5).value_or(-1), 0, "at xbar = 1: 5");

        // Logistic: f* is the least of the global loss, where its gradient vanishes.
        const auto logistic = WanTrainingWorkload::Logistic(WanLogisticSettings{});
        const double best = logistic.GetMinimumLoss();
        NS_TEST_EXPECT_MSG_LT(best, logistic.GlobalLoss({0, 0, 0}), "below the loss at 0");
        std::vector<double> x(3, 0);
        std::vector<double> g;
        for (int step = 0; step < 20000; ++step) // plain gradient descent, far
        {
            logistic.GlobalGradient(x, g);
            for (size_t k = 0; k < x.size(); ++k)
            {
                x[k] -= 0.5 * g[k];
            }
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(best, logistic.GlobalLoss(x), 1e-9, "gradient descent agrees");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Stochastic gradients: the noise's variance, and its stream fixed
 * by the seed.
 */
class GossipGradientNoiseTestCase : public WanTestCase
{
  public:
    GossipGradientNoiseTestCase()
        : WanTestCase("gossip training: stochastic gradients' noise, by its seed")
    {
    }

  private:
    /// @return one island's model after one step of size 1/2 from its optimum 0
    static std::vector<double> OneStep(double noise, uint64_t seed)
    {
        const uint32_t d = 20000;
        WanGossipSettings s;
        s.stepSize = 0.5;
        s.gradientNoise = noise;
        s.seed = seed;
        WanGossipTraining t(WanTrainingWorkload::Quadratic({std::vector<double>(d, 0)}, 1),
                            s,
                            {std::vector<double>(d, 0)});
        t.RunRound({{1}}, 0, 0);
        return t.GetModel(0);
    }

    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ((OneStep(0, 1) == std::vector<double>(20000, 0)),
                              true,
                              "full gradients at the optimum stay there");
        const auto x = OneStep(2, 1);
        double variance = 0;
        for (double v : x)
        {
            variance += v * v / x.size();
        }
        // eta^2 sigma^2 = 1; the estimate's standard deviation is sqrt(2 /
        // 20000) = 1%.
        NS_TEST_EXPECT_MSG_EQ_TOL(variance, 1, 0.05, "eta^2 sigma^2");
        NS_TEST_EXPECT_MSG_EQ((OneStep(2, 1) == x), true, "the same seed, the same noise");
        NS_TEST_EXPECT_MSG_EQ((OneStep(2, 2) == x), false, "another seed, other noise");
        WanGossipSettings bad;
        bad.gradientNoise = -1;
        const auto e = ErrorOf(
            [&] { WanGossipTraining(WanTrainingWorkload::Quadratic({{0}}, 1), bad, {{0}}); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "gradient noise -1"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The gossip training's test suite.
 */
class WanGossipTrainingTestSuite : public TestSuite
{
  public:
    WanGossipTrainingTestSuite()
        : TestSuite("wan-training-gossip-training", Type::UNIT)
    {
        AddTestCase(new GossipHandComputedTestCase);
        AddTestCase(new GossipCarryTestCase);
        AddTestCase(new GossipContractionTestCase);
        AddTestCase(new GossipLogisticTestCase);
        AddTestCase(new GossipDeterminismTestCase);
        AddTestCase(new GossipBadInputTestCase);
        AddTestCase(new GossipGradientNoiseTestCase);
    }
};

/// The suite's static instance.
static WanGossipTrainingTestSuite g_wanGossipTrainingTestSuite;
