/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULE_OPTIMIZER_H
#define SCHEDULE_OPTIMIZER_H

#include "clique-schedule.h"
#include "schedule-evaluator.h"
#include "schedule-time-objective.h"

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief What the schedule optimizer found, and how much it looked at.
 */
struct OptimizerResult
{
    CliqueSchedule schedule;       //!< the best schedule found
    ScheduleEvaluation evaluation; //!< its T, A and J
    std::string method;            //!< "exhaustive" or "annealing"
    uint64_t steps{0};             //!< schedules visited (repeats included)
    uint64_t distinct{0};          //!< distinct schedules evaluated
    double spaceSize{0};           //!< distinct schedules in the search space
    double coverage{0};            //!< distinct / spaceSize
    uint64_t roundsPlanned{0};     //!< distinct rounds planned
    double partitions{0};          //!< partitions of the islands within the clique bound
    double seconds{0};             //!< wall-clock time of the search
    std::string bestBuiltin;       //!< best built-in schedule within the bounds ("" if none)
    ScheduleEvaluation builtin;    //!< its evaluation
    /// with a time objective: the schedule's predicted time to target
    /// (unreachable otherwise)
    WanPrediction predicted;
    WanPrediction builtinPredicted; //!< the same for the best built-in schedule
};

/**
 * @ingroup wan-training
 * @brief Searches periodic rotating-clique schedules for the least
 * J = T x A under the round planner's feasibility.
 *
 * The space (ScheduleSpace): schedules of period 1 to MaxPeriod whose
 * rounds partition the islands into cliques of at most MaxCliqueSize
 * islands.  Two schedules that differ by a rotation of the period, or that
 * repeat a shorter period, have the same T and A and count once, so the
 * space is the set of Lyndon words of length up to MaxPeriod over the
 * partitions.
 *
 * When the space has at most ExhaustiveLimit schedules (and Search is "auto"
 * or "exhaustive") every schedule is evaluated, so the result is the optimum.
 * Otherwise seeded simulated annealing (GSL's gsl_siman_solve) minimises
 * ln J in Restarts walks that share the Evaluations, the first from the best
 * built-in schedule within the bounds, the others from random schedules of
 * pairs and triangles, with the
 * local moves: swap two islands between cliques, move an island to another
 * clique or to its own, merge two cliques, split a clique, add a round, drop
 * a round, and move a round to another place of the period.  Infeasible
 * schedules, and schedules whose cliques never connect every island, get an
 * energy above every feasible one that still decreases with the FPGA memory
 * the receivers lack in total and with the number of groups of islands that
 * never meet, so the walk finds its way to feasible schedules.  The best schedule
 * ever evaluated is returned; it is never worse than the built-in schedules
 * within the bounds, which are evaluated first.  A given Seed gives the same
 * result.
 */
class ScheduleOptimizer : public Object
{
  public:
    /// How the space is searched (attribute Search).
    enum SearchMethod
    {
        AUTO,       //!< enumerate spaces up to ExhaustiveLimit, anneal larger ones
        EXHAUSTIVE, //!< enumerate (refused when the space is too large)
        ANNEALING,  //!< simulated annealing
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    ScheduleOptimizer();

    /**
     * @param topo the network
     * @param config capabilities and payload
     * @param mixing conventions of A
     * @return the best schedule found; invalid bounds or settings throw
     *         std::invalid_argument
     */
    OptimizerResult Optimize(const WanTopology& topo,
                             const PlannerConfig& config,
                             const MixingOptions& mixing = {});

    /**
     * @brief Minimise the predicted time to target instead of J (an unset
     * objective: J again).  The result reports both.
     * @param objective the workload's constants, the training and the target
     */
    void SetTimeObjective(const ScheduleTimeObjective& objective);

    /**
     * TracedCallback signature for a new best schedule.
     * @param [in] objective its J, ms-error, or its predicted time to
     *        target, ms (infinite: unreachable), with a time objective
     * @param [in] step the number of schedules visited so far
     */
    typedef void (*ImprovementCallback)(double objective, uint64_t step);

  private:
    /**
     * @param n number of islands
     * @return the clique-size bound; invalid bounds or settings throw
     *         std::invalid_argument
     */
    uint32_t CheckSettings(uint32_t n) const;

    uint32_t m_maxPeriod;         //!< largest period
    uint32_t m_maxCliqueSize;     //!< largest clique (0: N)
    uint32_t m_seed;              //!< random seed of the search
    uint32_t m_evaluations;       //!< annealing steps
    uint32_t m_restarts;          //!< annealing walks
    double m_exhaustiveLimit;     //!< largest space that is enumerated
    SearchMethod m_search{AUTO};  //!< how the space is searched
    double m_initialTemperature;  //!< annealing temperature, in ln J
    double m_finalTemperature;    //!< annealing stops below this
    bool m_startFromBuiltin;      //!< anneal from the best built-in schedule
    ScheduleTimeObjective m_time; //!< time to target (unset: J)

    /// A new best schedule was found.
    TracedCallback<double, uint64_t> m_improvement;
};

} // namespace ns3

#endif /* SCHEDULE_OPTIMIZER_H */
