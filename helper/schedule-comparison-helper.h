/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULE_COMPARISON_HELPER_H
#define SCHEDULE_COMPARISON_HELPER_H

#include "ns3/clique-schedule.h"
#include "ns3/mixing-analysis.h"
#include "ns3/round-planner.h"
#include "ns3/schedule-evaluator.h"
#include "ns3/wan-topology.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One row of the paper's table: a schedule at one FPGA memory size.
 */
struct ScheduleComparisonRow
{
    std::string schedule;      //!< schedule name
    std::string cliques;       //!< the schedule's rounds, as text
    uint32_t period{0};        //!< rounds in the period
    double hbmBytes{0};        //!< FPGA memory per receiver
    bool feasible{false};      //!< a round time exists
    std::string reason;        //!< why not
    double roundTimeMs{0};     //!< T (infinity when infeasible)
    double disagreement{0};    //!< A
    double objective{0};       //!< J = T x A, ms-error (infinity when infeasible)
    std::string binding;       //!< what sets T
    double peakMemoryBytes{0}; //!< largest FPGA memory any receiver uses
    /// The planner's warnings (SchedulePlan::warnings), when feasible
    std::vector<std::string> warnings;
};

/**
 * @ingroup wan-training
 * @brief The synchronous-SGD comparison.
 */
struct SynchronousComparison
{
    double exchangeMs{0};             //!< all-reduce time per step
    double computeMs{0};              //!< compute time per step
    double idleFraction{0};           //!< GPU idle share of synchronous SGD
    double stalenessMs{0};            //!< tolerated staleness
    double speedup{0};                //!< speedup at that staleness
    double fullOverlapStalenessMs{0}; //!< staleness for the full speedup
    double maxSpeedup{0};             //!< 1 / (1 - idle fraction)
};

/**
 * @ingroup wan-training
 * @brief Plans and scores schedules on a topology: the paper's table.
 *
 * For each schedule and each FPGA memory size: feasibility, T, A, J = T x A
 * (from ScheduleEvaluator) and what binds T; plus the synchronous-SGD
 * comparison.  Results go to text,
 * CSV or JSON.
 */
class ScheduleComparisonHelper
{
  public:
    /// Uses the nine-city topology, the four built-in schedules and the
    /// default planner and mixing conventions.
    ScheduleComparisonHelper();

    /**
     * @param topo the network; resets the schedules to its built-ins
     */
    void SetTopology(const WanTopology& topo);
    /** @return the network */
    const WanTopology& GetTopology() const;
    /**
     * @param config the planner's switches (its hbmBytes is replaced by each
     *        size given to Compare)
     */
    void SetPlannerConfig(const PlannerConfig& config);
    /** @return the planner's switches */
    const PlannerConfig& GetPlannerConfig() const;
    /**
     * @param options conventions of A
     */
    void SetMixingOptions(const MixingOptions& options);
    /**
     * @brief Replaces the schedules to compare.
     * @param schedules schedules valid for the topology
     */
    void SetSchedules(const std::vector<CliqueSchedule>& schedules);
    /** @return the schedules to compare */
    const std::vector<CliqueSchedule>& GetSchedules() const;

    /**
     * @param hbmBytes FPGA memory sizes, bytes
     * @return one row per schedule and size, sizes outermost
     */
    std::vector<ScheduleComparisonRow> Compare(const std::vector<double>& hbmBytes) const;

    /**
     * @param computeSeconds compute time per step
     * @param stalenessSeconds tolerated staleness
     * @return the synchronous-SGD comparison on the topology
     */
    SynchronousComparison CompareSynchronous(double computeSeconds, double stalenessSeconds) const;

    /**
     * @param rows table rows
     * @param sync the synchronous comparison
     * @return the table as aligned text
     */
    std::string FormatTable(const std::vector<ScheduleComparisonRow>& rows,
                            const SynchronousComparison& sync) const;
    /**
     * @param rows table rows
     * @return CSV text with a header row
     */
    static std::string ToCsv(const std::vector<ScheduleComparisonRow>& rows);
    /**
     * @param rows table rows
     * @param sync the synchronous comparison
     * @return a JSON document (infinite values as null)
     */
    std::string ToJson(const std::vector<ScheduleComparisonRow>& rows,
                       const SynchronousComparison& sync) const;
    /**
     * @brief Throws std::invalid_argument unless the path ends in ".csv" or
     * ".json".
     * @param path output file
     */
    static void CheckOutputPath(const std::string& path);
    /**
     * @brief Writes CSV (".csv") or JSON (".json"); other names throw.
     * @param path output file
     * @param rows table rows
     * @param sync the synchronous comparison
     */
    void Write(const std::string& path,
               const std::vector<ScheduleComparisonRow>& rows,
               const SynchronousComparison& sync) const;

  private:
    /**
     * @param evaluator T, A and J under one FPGA memory size
     * @param s a schedule
     * @return its row of the table
     */
    ScheduleComparisonRow Row(ScheduleEvaluator& evaluator, const CliqueSchedule& s) const;

    WanTopology m_topo;                      //!< network
    PlannerConfig m_config;                  //!< planner switches
    MixingOptions m_mixing;                  //!< conventions of A
    std::vector<CliqueSchedule> m_schedules; //!< schedules to compare
};

} // namespace ns3

#endif /* SCHEDULE_COMPARISON_HELPER_H */
