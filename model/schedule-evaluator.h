/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULE_EVALUATOR_H
#define SCHEDULE_EVALUATOR_H

#include "clique-schedule.h"
#include "mixing-analysis.h"
#include "round-planner.h"
#include "wan-topology.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The figures of merit of one schedule: T, A and J = T x A.
 */
struct ScheduleEvaluation
{
    bool feasible{false};   //!< every round has a round time
    bool mixes{false};      //!< the union of the period's cliques connects every island
    uint32_t components{0}; //!< groups of islands that the period's cliques connect
    double roundTimeMs{std::numeric_limits<double>::infinity()};  //!< T (slowest round)
    double disagreement{std::numeric_limits<double>::infinity()}; //!< A
    double objective{std::numeric_limits<double>::infinity()};    //!< J = T x A, ms-error
    uint32_t bindingRound{0};      //!< slowest (or first infeasible) round
    std::string binding;           //!< what sets T, or why the schedule is infeasible
    double requiredMemoryBytes{0}; //!< when infeasible: the least FPGA memory that would do
    double misalignedBytes{0}; //!< when infeasible: least total memory, all rounds and receivers
    double peakMemoryBytes{0}; //!< when feasible: the largest memory any receiver uses
};

/**
 * @ingroup wan-training
 * @brief Evaluates schedules on one network: the round planner's T, the
 * mixing analysis' A, and J = T x A.
 *
 * Rounds are planned independently (T is the slowest round's time), so the
 * evaluator plans each distinct round once and keeps the result; a search
 * that revisits rounds pays only for the mixing analysis.  A is computed for
 * feasible schedules whose cliques connect every island over the period;
 * otherwise it is infinite (with no forgetting, such a schedule never mixes).
 * Evaluate is the one place where J = T x A is computed: the helpers and the
 * optimizer take T, A and J from it.
 */
class ScheduleEvaluator
{
  public:
    /// A round as a restricted growth string: label[i] = index of island i's
    /// clique, cliques numbered in order of their smallest island.
    using RoundKey = std::vector<uint16_t>;

    /**
     * @param topo the network
     * @param config capabilities and payload (checked by the round planner)
     * @param mixing conventions of A
     */
    ScheduleEvaluator(const WanTopology& topo,
                      const PlannerConfig& config,
                      const MixingOptions& mixing = {});

    /**
     * @param schedule a schedule; it is validated against the topology
     * @return its evaluation
     */
    ScheduleEvaluation Evaluate(const CliqueSchedule& schedule);
    /**
     * @param rounds the period's rounds, each a partition of the islands
     *        (not validated)
     * @return their evaluation
     */
    ScheduleEvaluation Evaluate(const std::vector<CliqueSchedule::Round>& rounds);

    /**
     * @param rounds the period's rounds, each a partition of the islands
     * @return A of the rounds under the mixing conventions, whether or not
     *         they are feasible; infinite when they never mix (their cliques
     *         never connect every island and there is no forgetting)
     */
    double Disagreement(const std::vector<CliqueSchedule::Round>& rounds) const;

    /**
     * @param round a partition of the islands
     * @return its plan's feasibility, time and binding constraint (cached)
     */
    const RoundPlan& PlanRound(const CliqueSchedule::Round& round);

    /** @return the number of distinct rounds planned so far */
    uint64_t GetRoundsPlanned() const;
    /** @return the number of Evaluate calls so far */
    uint64_t GetEvaluations() const;
    /** @return the network (with the configuration's overrides) */
    const WanTopology& GetTopology() const;
    /** @return the planner configuration */
    const PlannerConfig& GetPlannerConfig() const;
    /** @return the mixing conventions */
    const MixingOptions& GetMixingOptions() const;

    /**
     * @param round a partition of n islands
     * @param n number of islands
     * @return its restricted growth string
     */
    static RoundKey KeyOf(const CliqueSchedule::Round& round, uint32_t n);
    /**
     * @param key a restricted growth string
     * @return the round: cliques ascending, ordered by their smallest island
     */
    static CliqueSchedule::Round RoundOf(const RoundKey& key);
    /**
     * @param rounds the period's rounds
     * @param n number of islands
     * @return the number of groups of islands that the union of the cliques
     *         connects (1: every island meets every other, indirectly)
     */
    static uint32_t Components(const std::vector<CliqueSchedule::Round>& rounds, uint32_t n);

  private:
    RoundPlanner m_planner;                             //!< T of a round
    MixingOptions m_mixing;                             //!< conventions of A
    std::unordered_map<std::string, RoundPlan> m_plans; //!< planned rounds by key
    uint64_t m_evaluations{0};                          //!< Evaluate calls
};

} // namespace ns3

#endif /* SCHEDULE_EVALUATOR_H */
