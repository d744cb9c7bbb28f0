/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_LOOP_H
#define WAN_TRAINING_LOOP_H

#include "wan-experiment-result.h"

#include "ns3/nstime.h"
#include "ns3/object-base.h"
#include "ns3/wan-gossip-training.h"
#include "ns3/wan-training-workload.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Training driven by a packet-level run (WanTrainingLoop::Train).
 */
struct WanTrainingRunResult
{
    std::string workload;  //!< "quadratic" or "logistic"
    std::string policy;    //!< "wait" or "quorum"
    double computeS{0};    //!< compute time of each round's local steps, seconds
    double minimumLoss{0}; //!< f*, the least global loss (WanTrainingWorkload::GetMinimumLoss)
    double targetLoss{0};  //!< f* + TargetGap x (modelLoss of round 0 - f*)
    double timeToTargetS{
        -1}; //!< simulated time when modelLoss first reached the target (-1: never)
    int64_t roundsToTarget{-1};             //!< rounds done by then (-1: never)
    std::vector<WanTrainingRecord> history; //!< round 0 (the initial models), then each round
    /// per training round (history[k + 1]), the packet round (1 = first) whose
    /// mixing and time it took: the packet rounds in turn, again from the
    /// first when the training runs longer
    std::vector<uint32_t> packetRounds;
    /// weight carried to the next round, per island and round on average:
    /// sum_ij max(0, R_ij - W_ij) / N over the rounds (0 under "wait")
    double carriedWeight{0};
};

/**
 * @ingroup wan-training
 * @brief The training part of the pipeline: decentralised SGD
 * (WanGossipTraining) on a workload, over the rounds a packet-level run
 * delivered (CliqueExperimentHelper::Run).
 *
 * Training round k takes packet round k mod R (R rounds were simulated):
 * its realised mixing matrix (what each island averaged, WanMeasuredMixing:
 * the partial sums and the given-up contributions as they happened) and its
 * time, the compute time of the local steps plus the round's measured time
 * (WanRoundResult::mixedMs, when the slowest island averaged; islands that
 * never averaged keep their state and do not count in it).
 *
 * Policies:
 * - "wait": the islands average what they held when they averaged; with a
 *   recovery that repairs (rerequest, early, coded, coded+early) that is
 *   everything, however long it takes.
 * - "quorum": the islands average what arrived within the grace window
 *   and carry the rest to the next round.  Run the packet level with
 *   recovery "accept": an island gives up what is missing at its deadline,
 *   T x (1 + RoundGuard), the guard being the grace window; what arrives
 *   after it (WanRoundResult::mixingReceived) is applied one round late
 *   (WanGossipTraining::RunRound with `received`); what the network lost
 *   is never applied.
 *
 * The workload and the initial models are drawn from Seed and ns-3's run
 * number (RngRun): seed = Seed x 1000003 + run, so a run's training is
 * reproducible and independent runs differ.  Time to target reads the
 * global loss at the islands' own models (WanTrainingRecord::modelLoss),
 * which counts their disagreement: the loss at their average alone does not
 * depend on the mixing for a quadratic averaged doubly-stochastically.
 */
class WanTrainingLoop : public ObjectBase
{
  public:
    /// The workload (attribute Workload).
    enum Workload
    {
        QUADRATIC, //!< random isotropic quadratics (WanTrainingWorkload::RandomQuadratic)
        LOGISTIC   //!< logistic regression (WanTrainingWorkload::Logistic)
    };

    /// What islands average (attribute Policy).
    enum Policy
    {
        WAIT,  //!< what they held when they averaged
        QUORUM //!< that, and what arrived later, one round late
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    WanTrainingLoop();

    /**
     * @brief Sets the Workload attribute by name.
     * @param name "quadratic" or "logistic" (std::invalid_argument otherwise)
     */
    void SetWorkload(const std::string& name);
    /**
     * @brief Sets the Policy attribute by name.
     * @param name "wait" or "quorum" (std::invalid_argument otherwise)
     */
    void SetPolicy(const std::string& name);

    /**
     * @param nIslands N
     * @return the workload the attributes, Seed and RngRun describe
     */
    WanTrainingWorkload MakeWorkload(uint32_t nIslands) const;

    /**
     * @param nIslands N
     * @return the training Train runs, before its first round: the
     *         workload, the initial models and the gradients' noise that
     *         the attributes, Seed and RngRun describe
     */
    WanGossipTraining MakeTraining(uint32_t nIslands) const;

    /**
     * @brief Trains over a packet-level run's rounds.
     * @param result a feasible run with at least one round, its matrices
     *        N x N (std::invalid_argument otherwise, naming the problem)
     * @return the training's records and time to target
     */
    WanTrainingRunResult Train(const WanExperimentResult& result) const;

  private:
    /// @return the seed of the workload and models: Seed and RngRun
    uint64_t Seed() const;
    /// @return the compute time of a round's local steps, seconds
    double ComputeSeconds() const;

    Workload m_workload;    //!< the local losses
    Policy m_policy;        //!< what islands average
    uint32_t m_rounds;      //!< training rounds (0: the packet rounds)
    Time m_computeTime;     //!< compute time per local step
    double m_stepSize;      //!< eta
    uint32_t m_localSteps;  //!< tau
    uint32_t m_dimension;   //!< quadratic: d
    double m_heterogeneity; //!< quadratic: spread of the optima
    double m_initialSpread; //!< spread of the initial models
    double m_gradientNoise; //!< standard deviation of the gradients' noise
    double m_skew;          //!< logistic: class 1's share at island 0
    double m_targetGap;     //!< share of the initial gap to f* left at the target
    uint64_t m_seed;        //!< base seed
};

} // namespace ns3

#endif /* WAN_TRAINING_LOOP_H */
