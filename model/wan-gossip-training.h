/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_GOSSIP_TRAINING_H
#define WAN_GOSSIP_TRAINING_H

#include "mixing-analysis.h"
#include "wan-training-workload.h"

#include <cstdint>
#include <gsl/gsl_rng.h>
#include <memory>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief How the islands train between two averagings.
 */
struct WanGossipSettings
{
    double stepSize{0.1};    //!< eta, non-negative
    uint32_t localSteps{1};  //!< tau, gradient steps per round on each island
    double initialSpread{1}; //!< standard deviation of the random initial models
    /// Standard deviation of a stochastic gradient's noise per coordinate
    /// (0: full gradients)
    double gradientNoise{0};
    uint64_t seed{1}; //!< seed of the initial models and of the gradients' noise
};

/**
 * @ingroup wan-training
 * @brief The state of training after a round (or before the first).
 */
struct WanTrainingRecord
{
    uint32_t round{0};   //!< rounds done (0: the initial models)
    double timeS{0};     //!< simulated wall-clock time at its end, seconds
    double loss{0};      //!< f(xbar) = (1 / N) sum_i f_i(xbar)
    double localLoss{0}; //!< (1 / N) sum_i f_i(x_i)
    /// (1 / N) sum_i f(x_i), f = (1 / N) sum_j f_j: the global objective at
    /// each island's own model, averaged (what a model taken from any
    /// island scores; for the quadratic, loss + (lambda / 2) consensusDistance)
    double modelLoss{0};
    double consensusDistance{0}; //!< (1 / N) sum_i ||x_i - xbar||^2
};

/**
 * @ingroup wan-training
 * @brief Decentralised SGD over N islands: each round, tau gradient steps
 * of size eta on every island, then every island takes the row of the
 * round's (realised) mixing matrix W: x_i <- sum_j W_ij x_j.
 *
 * The gradient steps are the workload's full local gradients, plus, with
 * gradientNoise sigma, independent normal noise of standard deviation
 * sigma per coordinate and step (drawn from its own mt19937 stream, seeded
 * with the seed + 0x9E3779B9, island by island and step by step), so a
 * seed (the workload's and the models') fixes the whole run. The initial
 * models are drawn island by island from GSL's mt19937 (gsl_rng_set with
 * the seed), normal with mean 0 and standard deviation initialSpread per
 * coordinate, unless given.
 *
 * Each round is recorded with the simulated wall-clock time the caller
 * passes (compute time plus the round's measured time): the loss at the
 * average model xbar = (1 / N) sum_i x_i (the global objective, which the
 * time to a target loss reads), the mean of the islands' local losses at
 * their own models, and the consensus distance.
 *
 * For the quadratic without heterogeneity (c_i = c) the deviations
 * x_i - xbar contract, period after period, by GetContractionRate.
 */
class WanGossipTraining
{
  public:
    /**
     * @brief Random initial models.
     * @param workload the local losses
     * @param settings eta, tau, the initial spread and the seed
     *        (std::invalid_argument when out of range)
     */
    WanGossipTraining(WanTrainingWorkload workload, WanGossipSettings settings);
    /**
     * @brief Given initial models.
     * @param workload the local losses
     * @param settings eta and tau (initialSpread and seed unused)
     * @param initialModels x_i, one per island, of the workload's dimension
     */
    WanGossipTraining(WanTrainingWorkload workload,
                      WanGossipSettings settings,
                      const std::vector<std::vector<double>>& initialModels);

    /**
     * @brief Runs one round and records it.
     * @param mixing the round's N x N mixing matrix: non-negative, each row
     *        summing to 1 within 1e-9 (std::invalid_argument otherwise)
     * @param computeS the simulated compute time of the local steps, seconds
     * @param roundS the round's measured (network) time, seconds
     * @return the round's record
     */
    WanTrainingRecord RunRound(const WanMatrix& mixing, double computeS, double roundS);
    /**
     * @brief Runs one round that carries late arrivals to the next (the
     * quorum policy): the islands average with `mixing` (what arrived in
     * time), and at the next round each island adds the difference its late
     * arrivals make to this round's average, computed on the models sent
     * this round: x <- W' y' + (R - W) y, with y this round's sent models,
     * R this round's `received`, W' and y' the next round's.  Over the two
     * rounds the late contributions count as if waited for, one round
     * stale; with R = W it is RunRound without carry.
     * @param mixing what the islands averaged (row-stochastic, as above)
     * @param received what they averaged had they held everything received
     *        by the end (row-stochastic, as above)
     * @param computeS the simulated compute time, seconds
     * @param roundS the round's measured time, seconds
     * @return the round's record
     */
    WanTrainingRecord RunRound(const WanMatrix& mixing,
                               const WanMatrix& received,
                               double computeS,
                               double roundS);

    /** @return the workload */
    const WanTrainingWorkload& GetWorkload() const;
    /** @return one record per round, after the initial models' (round 0) */
    const std::vector<WanTrainingRecord>& GetHistory() const;
    /**
     * @param island i
     * @return x_i
     */
    std::vector<double> GetModel(uint32_t island) const;
    /** @return xbar */
    std::vector<double> GetAverageModel() const;
    /**
     * @param target a loss
     * @param atIslands false: read `loss` (at the average model); true:
     *        read `modelLoss` (at the islands' own models)
     * @return the simulated time of the first record whose loss is at or
     *         below the target; nothing if none
     */
    std::optional<double> GetTimeToLoss(double target, bool atIslands = false) const;
    /**
     * @param target a loss
     * @param atIslands as in GetTimeToLoss
     * @return the first record whose loss is at or below the target;
     *         nothing if none
     */
    std::optional<WanTrainingRecord> GetFirstAtLoss(double target, bool atIslands = false) const;

    /**
     * @brief The theoretical per-period contraction of the islands'
     * deviations from their mean, for the quadratic without heterogeneity.
     *
     * With M = W_P ... W_1 (W_1 applied first) and J = 1 1^T / N, the rate is
     * r = rho((I - J) M) |1 - eta lambda|^(tau P), rho the spectral radius.
     * (I - J) M is the period's action on the deviations: for row-stochastic
     * W, its spectrum is M's with the consensus eigenvalue 1 (eigenvector 1)
     * replaced by 0; for doubly-stochastic W it is M - J. The root of the
     * consensus distance falls by r per period asymptotically, the distance
     * itself by r^2.
     * @param period W_1 ... W_P, row-stochastic N x N matrices
     * @param stepSize eta (0: the mixing alone)
     * @param curvature lambda
     * @param localSteps tau
     * @return r; bad input throws std::invalid_argument
     */
    static double GetContractionRate(const std::vector<WanMatrix>& period,
                                     double stepSize,
                                     double curvature,
                                     uint32_t localSteps);

  private:
    /// Throws std::invalid_argument unless the settings are in range; opens
    /// the gradients' noise stream.
    void CheckSettings();
    /// Appends the record of the current models at the given time.
    void Record(double timeS);

    WanTrainingWorkload m_workload; //!< the local losses
    WanGossipSettings m_settings;   //!< eta, tau
    std::vector<double> m_models;   //!< x_i, N x d row-major
    /// The gradients' noise (null without): copies share the stream
    std::shared_ptr<gsl_rng> m_noise;
    std::vector<WanTrainingRecord> m_history; //!< the records
    std::vector<double> m_carried;            //!< R - W of the last round, N x N (empty: none)
    std::vector<double> m_carriedModels;      //!< the models sent in that round, N x d
};

} // namespace ns3

#endif /* WAN_GOSSIP_TRAINING_H */
