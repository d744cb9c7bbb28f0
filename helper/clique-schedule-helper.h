/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_SCHEDULE_HELPER_H
#define CLIQUE_SCHEDULE_HELPER_H

#include "ns3/clique-schedule.h"
#include "ns3/mixing-analysis.h"
#include "ns3/object-factory.h"
#include "ns3/round-planner.h"
#include "ns3/schedule-evaluator.h"
#include "ns3/schedule-optimizer.h"
#include "ns3/wan-topology.h"

#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One setting of a capability sweep: the network's capabilities with
 * one dimension changed.
 */
struct CapabilitySetting
{
    std::string dimension; //!< e.g. "hbm_gb"
    std::string value;     //!< e.g. "32"
    PlannerConfig config;  //!< the capabilities
};

/**
 * @ingroup wan-training
 * @brief The optimizer's answer for one capability setting.
 */
struct SweepRow
{
    CapabilitySetting setting; //!< what was optimised for
    OptimizerResult result;    //!< what was found
};

/**
 * @ingroup wan-training
 * @brief The entry point to schedules: the built-in ones, schedule files,
 * evaluation, and "optimise for this topology and these capabilities",
 * one setting or a sweep of them.
 *
 * The optimizer is created through an ObjectFactory, so its attributes
 * (MaxPeriod, MaxCliqueSize, Seed, Evaluations, ...) are set with
 * SetOptimizerAttribute.
 */
class CliqueScheduleHelper
{
  public:
    /// The nine-city topology with the planner's default capabilities.
    CliqueScheduleHelper();
    /**
     * @param topo the network
     * @param config capabilities and payload
     */
    CliqueScheduleHelper(const WanTopology& topo, const PlannerConfig& config);

    /** @param topo the network (validated) */
    void SetTopology(const WanTopology& topo);
    /** @return the network */
    const WanTopology& GetTopology() const;
    /** @param config capabilities and payload */
    void SetPlannerConfig(const PlannerConfig& config);
    /** @return capabilities and payload */
    const PlannerConfig& GetPlannerConfig() const;
    /** @param options conventions of A */
    void SetMixingOptions(const MixingOptions& options);
    /**
     * @param name an attribute of ns3::ScheduleOptimizer
     * @param value its value
     */
    void SetOptimizerAttribute(const std::string& name, const AttributeValue& value);
    /**
     * @param objective what Optimize minimises instead of J: the predicted
     *        time to target (ScheduleOptimizer::SetTimeObjective); unset: J
     */
    void SetTimeObjective(const ScheduleTimeObjective& objective);

    /**
     * @param name one of BuiltinNames()
     * @return that schedule on the helper's topology
     */
    CliqueSchedule Builtin(const std::string& name) const;
    /** @return the built-in schedules, in the paper's order */
    std::vector<CliqueSchedule> Builtins() const;
    /**
     * @return the names of the built-in schedules, in the paper's order
     *         (CliqueScheduleBuiltins::Names(), the one list of them)
     */
    static std::vector<std::string> BuiltinNames();
    /**
     * @param path a schedule file (JSON)
     * @return the schedule, validated against the topology
     */
    CliqueSchedule Load(const std::string& path) const;
    /**
     * @param schedule a schedule
     * @param path the JSON file to write (Load reads it back)
     */
    void Save(const CliqueSchedule& schedule, const std::string& path) const;
    /**
     * @param schedule a schedule
     * @return its T, A and J under the helper's capabilities
     */
    ScheduleEvaluation Evaluate(const CliqueSchedule& schedule) const;

    /** @return the best schedule for the helper's capabilities */
    OptimizerResult Optimize() const;
    /**
     * @param config capabilities and payload
     * @return the best schedule for them
     */
    OptimizerResult Optimize(const PlannerConfig& config) const;

    /**
     * @brief The default sweep around the helper's capabilities: FPGA memory
     * 0 to 32 GB, access 10 to 100 Gbps, core 25 to 400 Gbps, payload 0.25 to
     * 4 GB, and multicast or FPGA aggregation off, one dimension at a time.
     * @return the settings
     */
    std::vector<CapabilitySetting> DefaultSweep() const;
    /**
     * @param dimension "hbm_gb", "access_gbps", "core_gbps", "payload_gb",
     *        "multicast" or "aggregation"
     * @param values the values ("on"/"off" for the switches)
     * @return one setting per value around the helper's capabilities;
     *         unknown dimensions and bad values throw std::invalid_argument
     */
    std::vector<CapabilitySetting> Settings(const std::string& dimension,
                                            const std::vector<std::string>& values) const;
    /**
     * @param settings capability settings
     * @param progress called after each setting with (done, total), or empty
     * @return the optimizer's answer for each
     */
    std::vector<SweepRow> Sweep(const std::vector<CapabilitySetting>& settings,
                                const std::function<void(size_t, size_t)>& progress = {}) const;

    /**
     * @param rows a sweep
     * @return an aligned text table, one row per setting, the schedules below
     */
    std::string FormatSweep(const std::vector<SweepRow>& rows) const;
    /**
     * @param rows a sweep
     * @return CSV, one line per setting
     */
    std::string SweepToCsv(const std::vector<SweepRow>& rows) const;
    /**
     * @param rows a sweep
     * @return JSON: the settings, results and schedules
     */
    std::string SweepToJson(const std::vector<SweepRow>& rows) const;
    /**
     * @param path a file ending in .csv or .json
     * @param rows a sweep
     */
    void WriteSweep(const std::string& path, const std::vector<SweepRow>& rows) const;

  private:
    WanTopology m_topo;           //!< network
    PlannerConfig m_config;       //!< capabilities
    MixingOptions m_mixing;       //!< conventions of A
    ObjectFactory m_optimizer;    //!< ScheduleOptimizer with its attributes
    ScheduleTimeObjective m_time; //!< the optimizer's time objective (unset: J)
};

} // namespace ns3

#endif /* CLIQUE_SCHEDULE_HELPER_H */
