/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TIME_TO_TARGET_PREDICTOR_H
#define WAN_TIME_TO_TARGET_PREDICTOR_H

#include "mixing-analysis.h"
#include "wan-training-workload.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One round of a schedule as the predictor takes it: what the
 * islands average and how long the network takes.
 */
struct WanPredictorRound
{
    WanMatrix mixing;  //!< W_r, doubly stochastic N x N
    double seconds{0}; //!< T_r, the round's network time, seconds (non-negative)
};

/**
 * @ingroup wan-training
 * @brief How the islands train between two averagings, and what it costs.
 */
struct WanPredictorTraining
{
    double stepSize{0.1};   //!< eta: eta x curvature in (0, 2)
    uint32_t localSteps{1}; //!< H, gradient steps between two averagings (at least 1)
    double computeS{0};     //!< C, compute time of one local step, seconds (non-negative)
};

/**
 * @ingroup wan-training
 * @brief A quadratic workload's first two moments, for the exact recursion:
 * f_i(x) = (lambda / 2) ||x - c_i||^2, stochastic gradients with noise of
 * variance `noise` per coordinate, initial models of the given means and of
 * variance `initialVariance` per coordinate, independent.
 */
struct WanQuadraticMoments
{
    std::vector<std::vector<double>> centres;      //!< c_i, N of dimension d
    double curvature{1};                           //!< lambda, positive
    double noise{0};                               //!< sigma^2, non-negative
    std::vector<std::vector<double>> initialMeans; //!< E x_i(0), N of dimension d
    double initialVariance{0};                     //!< Var x_i(0) per coordinate
};

/**
 * @ingroup wan-training
 * @brief A workload's constants, for the closed form: the quadratic model
 * of its losses about the optimum x*.
 */
struct WanWorkloadConstants
{
    uint32_t islands{1};   //!< N, at least 1
    uint32_t dimension{1}; //!< d, at least 1
    double curvature{1};   //!< lambda, positive: the global Hessian's mean eigenvalue at x*
    double noise{0};       //!< sigma^2, a stochastic gradient's variance per coordinate
    /// zeta^2 = (1 / N) sum_i ||c_i - x*||^2, c_i the islands' optima in the
    /// quadratic model (c_i - x* = -grad f_i(x*) / lambda)
    double heterogeneity{0};
    double initialMean{0};   //!< ||xbar(0) - x*||^2, the initial average's distance
    double initialSpread{0}; //!< (1 / N) sum_i ||x_i(0) - xbar(0)||^2

    /**
     * @brief The constants of a workload with given initial models.
     * Quadratic: its lambda and optima, exact.  Logistic: lambda the mean
     * eigenvalue of the global loss's Hessian at x* (central differences of
     * the gradient), c_i - x* = -grad f_i(x*) / lambda.
     * @param workload the local losses
     * @param initialModels x_i(0), one per island
     * @param noise sigma^2 (the workloads' gradients are exact: 0)
     * @return the constants; bad input throws std::invalid_argument
     */
    static WanWorkloadConstants Of(const WanTrainingWorkload& workload,
                                   const std::vector<std::vector<double>>& initialModels,
                                   double noise = 0);
};

/**
 * @ingroup wan-training
 * @brief What the predictor says of a schedule and a target.
 */
struct WanPrediction
{
    bool reachable{false}; //!< the target is reached (false: the schedule settles above it)
    uint64_t rounds{0};    //!< rounds to the target (reachable only)
    double seconds{0};     //!< time to the target: rounds x H x C plus their T_r (reachable only)
    double initialGap{0};  //!< the gap before the first round
    double floorGap{0};    //!< the least gap over a period once the schedule has settled
};

/**
 * @ingroup wan-training
 * @brief Predicts how many rounds, and how much time, decentralised
 * training on a schedule takes to bring the gap to a target: the global loss
 * at the islands' own models above its minimum, (1 / N) sum_i f(x_i) - f*
 * (what WanTrainingLoop's time to target reads).
 *
 * Each round, every island takes H gradient steps of size eta, then the
 * islands average with the round's W_r (doubly stochastic); the period's
 * rounds repeat.  With a = (1 - eta lambda)^H, y_i = x_i - x* and g_i = c_i
 * - x*, H steps on f_i make y_i <- a y_i + (1 - a) g_i + e_i, e_i the steps'
 * noise, of variance s^2 = eta^2 sigma^2 sum_{k < H} (1 - eta lambda)^(2k)
 * per coordinate.
 *
 * - **Exact** (quadratics): the mean M (N x d) and the islands' covariance S
 *   (N x N, the same for every coordinate) run through each round, M <- W (a
 *   M + (1 - a) G), S <- W (a^2 S + s^2 I) W^T, and the expected gap is
 *   (lambda / 2N) (||M||_F^2 + d tr S).  Exact in expectation (and, without
 *   noise and with S = 0, exactly WanGossipTraining's modelLoss - f*).
 * - **Isotropic moments** (any workload, through its constants): the
 *   exact recursion's second moments with the optima and the initial
 *   models known only by their spreads, isotropic over the islands and
 *   coordinates: per coordinate, the optima's deviations G of covariance
 *   Gamma = (N zeta^2 / (d (N - 1))) (I - J), the models' second moment K
 *   and their covariance with G, L (0 at the start); each round K <- W (a^2
 *   K + a (1 - a)(L + L^T) + (1 - a)^2 Gamma + s^2 I) W^T, L <- W (a L + (1
 *   - a) Gamma), and the gap is (lambda d / 2N) tr K.  For a quadratic
 *   whose optima are drawn isotropically (WanTrainingWorkload's random
 *   ones) it is the exact recursion averaged over the draw.
 * - **Closed form** (any workload, through its constants): the gap splits
 *   into the average model's part, independent of the schedule for doubly
 *   stochastic W, (lambda / 2)(a^2r m0 + d s^2 (1 - a^2r) / (N (1 - a^2))),
 *   and the islands' disagreement, (lambda / 2) D_r with
 *   D_r = D0 (a q)^2r + zeta^2 ((1 - a) q / (1 - a q))^2 (1 - (a q)^r)^2 +
 *   d s^2 (1 / n_eff - 1 / N) (1 - (a q)^2r) / (1 - a^2), where q^2 is the
 *   consensus rate per round (the squared spectral norm of the period's
 *   deviation product prod (W_r - J), to the power 1 / P), and n_eff the
 *   effective number of neighbours (Vogels et al., NeurIPS 2022): the
 *   stationary noise variance of an island's model is s^2 / (n_eff (1 -
 *   a^2)), from the period's Lyapunov equation S = (W - J)(a^2 S + I)(W -
 *   J)^T solved by iteration.  A schedule that averages exactly (W = J) has
 *   q = 0 and n_eff = N: the topology term vanishes.
 *
 * The floor: a target gap at or below what exact averaging every round
 * settles at (lambda d s^2 / (2 N (1 - a^2)); 0 without noise) is refused; a
 * target the schedule itself settles above is reported unreachable.
 */
class WanTimeToTargetPredictor
{
  public:
    /**
     * @param period the schedule's rounds, at least one, each W doubly
     *        stochastic and of one size, each T_r non-negative
     * @param training eta, H and C
     * @throws std::invalid_argument naming the problem
     */
    WanTimeToTargetPredictor(std::vector<WanPredictorRound> period, WanPredictorTraining training);

    /**
     * @param moments the quadratic's optima, curvature, noise and initial models
     * @param rounds rounds to predict
     * @return the expected gap before the first round and after each, rounds + 1 values
     */
    std::vector<double> ExactGaps(const WanQuadraticMoments& moments, uint64_t rounds) const;
    /**
     * @param moments as for ExactGaps
     * @param targetGap the gap to reach, above the floor
     * @return rounds and time to it, or unreachable
     */
    WanPrediction Exact(const WanQuadraticMoments& moments, double targetGap) const;

    /**
     * @param constants the workload's constants
     * @param rounds rounds to predict
     * @return the gap before the first round and after each, rounds + 1 values
     */
    std::vector<double> ClosedFormGaps(const WanWorkloadConstants& constants,
                                       uint64_t rounds) const;
    /**
     * @param constants the workload's constants
     * @param targetGap the gap to reach, above the floor
     * @return rounds and time to it, or unreachable
     */
    WanPrediction ClosedForm(const WanWorkloadConstants& constants, double targetGap) const;

    /**
     * @param constants the workload's constants
     * @param rounds rounds to predict
     * @return the isotropic moment recursion's gap before the first round
     *         and after each, rounds + 1 values
     */
    std::vector<double> MomentGaps(const WanWorkloadConstants& constants, uint64_t rounds) const;
    /**
     * @param constants the workload's constants
     * @param targetGap the gap to reach, above the floor
     * @return rounds and time to it by the isotropic moment recursion, or unreachable
     */
    WanPrediction Moments(const WanWorkloadConstants& constants, double targetGap) const;

    /** @return q^2, the consensus rate per round (0: exact averaging, 1: none) */
    double GetConsensusRate() const;
    /**
     * @param curvature lambda
     * @return n_eff, from 1 (no averaging) to N (exact averaging), for the
     *         training's a at this curvature
     */
    double GetEffectiveNeighbours(double curvature) const;
    /**
     * @param curvature lambda
     * @param noise sigma^2
     * @param islands N
     * @param dimension d
     * @return the gap exact averaging settles at, lambda d s^2 / (2 N (1 - a^2))
     */
    double GetFloorGap(double curvature, double noise, uint32_t islands, uint32_t dimension) const;
    /** @return the period's rounds */
    uint32_t GetPeriod() const;
    /**
     * @param rounds rounds done
     * @return their time: rounds x H x C plus the T_r of the rounds in turn
     */
    double SecondsOf(uint64_t rounds) const;

  private:
    /// @return the moments' dimension d, refusing moments that do not fit
    uint32_t Dimension(const WanQuadraticMoments& moments) const;
    /// The exact recursion's gaps, until the target or settled (targetGap
    /// negative: `rounds` rounds).
    std::vector<double> ExactRun(const WanQuadraticMoments& moments,
                                 double targetGap,
                                 uint64_t rounds) const;
    /// Refuses constants that do not fit the schedule or are out of range.
    void CheckConstants(const WanWorkloadConstants& constants) const;
    /// The isotropic moment recursion's gaps, as ExactRun.
    std::vector<double> MomentsRun(const WanWorkloadConstants& constants,
                                   double targetGap,
                                   uint64_t rounds) const;
    /// The closed form's gaps, as ExactRun.
    std::vector<double> ClosedFormRun(const WanWorkloadConstants& constants,
                                      double targetGap,
                                      uint64_t rounds) const;
    /// A gap sequence's prediction for a target (the floor checked by the caller).
    WanPrediction Predict(const std::vector<double>& gaps, double targetGap) const;
    /// @return a = (1 - eta lambda)^H, refusing eta lambda outside (0, 2)
    double Contraction(double curvature) const;
    /// @return s^2 / sigma^2, the H steps' noise variance per unit of sigma^2
    double NoiseGain(double curvature) const;
    /// Refuses a target gap at or below the floor.
    void CheckTarget(double targetGap, double floor) const;

    std::vector<WanPredictorRound> m_period; //!< the schedule's rounds
    WanPredictorTraining m_training;         //!< eta, H, C
    uint32_t m_islands{0};                   //!< N
    double m_consensusRate{1};               //!< q^2 per round
};

} // namespace ns3

#endif /* WAN_TIME_TO_TARGET_PREDICTOR_H */
