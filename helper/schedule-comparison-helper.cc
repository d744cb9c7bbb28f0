/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-comparison-helper.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/log.h"
#include "ns3/staleness-model.h"
#include "ns3/wan-training-text.h"

#include <cmath>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleComparisonHelper");

ScheduleComparisonHelper::ScheduleComparisonHelper()
{
    SetTopology(WanTopology::NineCity());
}

void
ScheduleComparisonHelper::SetTopology(const WanTopology& topo)
{
    topo.Validate();
    m_topo = topo;
    m_schedules.clear();
    for (const auto& name : CliqueScheduleBuiltins::Names())
    {
        m_schedules.push_back(CliqueScheduleBuiltins::Make(name, m_topo));
    }
}

const WanTopology&
ScheduleComparisonHelper::GetTopology() const
{
    return m_topo;
}

void
ScheduleComparisonHelper::SetPlannerConfig(const PlannerConfig& config)
{
    RoundPlanner check(m_topo, config); // validates
    m_config = config;
}

const PlannerConfig&
ScheduleComparisonHelper::GetPlannerConfig() const
{
    return m_config;
}

void
ScheduleComparisonHelper::SetMixingOptions(const MixingOptions& options)
{
    m_mixing = options;
}

void
ScheduleComparisonHelper::SetSchedules(const std::vector<CliqueSchedule>& schedules)
{
    for (const auto& s : schedules)
    {
        s.Validate(m_topo);
    }
    m_schedules = schedules;
}

const std::vector<CliqueSchedule>&
ScheduleComparisonHelper::GetSchedules() const
{
    return m_schedules;
}

std::vector<ScheduleComparisonRow>
ScheduleComparisonHelper::Compare(const std::vector<double>& hbmBytes) const
{
    NS_LOG_FUNCTION(this);
    std::vector<ScheduleComparisonRow> rows;
    for (double hbm : hbmBytes)
    {
        PlannerConfig config = m_config;
        config.hbmBytes = hbm;
        ScheduleEvaluator evaluator(m_topo, config, m_mixing);
        for (const auto& s : m_schedules)
        {
            rows.push_back(Row(evaluator, s));
        }
    }
    return rows;
}

ScheduleComparisonRow
ScheduleComparisonHelper::Row(ScheduleEvaluator& evaluator, const CliqueSchedule& s) const
{
    const auto e = evaluator.Evaluate(s);
    // The binding round's own plan (planned and kept by Evaluate).
    const auto& binding = evaluator.PlanRound(s.GetRound(e.bindingRound));
    ScheduleComparisonRow row;
    row.schedule = s.GetName();
    row.cliques = s.ToString(m_topo);
    row.period = s.GetNRounds();
    row.hbmBytes = evaluator.GetPlannerConfig().hbmBytes;
    row.feasible = e.feasible;
    if (!e.feasible)
    {
        row.reason =
            s.GetName() + " round " + std::to_string(e.bindingRound + 1) + ": " + binding.reason;
    }
    row.roundTimeMs = e.roundTimeMs;
    // A also when there is no round time, to show what the schedule would mix.
    row.disagreement = e.feasible ? e.disagreement : evaluator.Disagreement(s.GetRounds());
    row.objective = e.objective;
    row.binding = e.feasible ? binding.binding : row.reason;
    row.peakMemoryBytes = e.peakMemoryBytes;
    for (uint32_t k = 0; e.feasible && k < s.GetNRounds(); ++k)
    {
        for (const auto& w : evaluator.PlanRound(s.GetRound(k)).warnings)
        {
            row.warnings.push_back("round " + std::to_string(k + 1) + ": " + w);
        }
    }
    return row;
}

SynchronousComparison
ScheduleComparisonHelper::CompareSynchronous(double computeSeconds, double stalenessSeconds) const
{
    RoundPlanner planner(m_topo, m_config); // applies the rate overrides
    double exchange =
        StalenessModel::AllReduceSeconds(planner.GetTopology(), m_config.payloadBytes);
    StalenessModel model(computeSeconds, exchange);
    SynchronousComparison c;
    c.exchangeMs = exchange * 1e3;
    c.computeMs = computeSeconds * 1e3;
    c.idleFraction = model.GetIdleFraction();
    c.stalenessMs = stalenessSeconds * 1e3;
    c.speedup = model.GetSpeedup(stalenessSeconds);
    c.fullOverlapStalenessMs = model.GetFullOverlapStaleness() * 1e3;
    c.maxSpeedup = 1 / (1 - c.idleFraction);
    return c;
}

std::string
ScheduleComparisonHelper::FormatTable(const std::vector<ScheduleComparisonRow>& rows,
                                      const SynchronousComparison& sync) const
{
    std::ostringstream s;
    s << std::left << std::setw(12) << "schedule" << std::right << std::setw(8) << "HBM GB"
      << std::setw(10) << "feasible" << std::setw(10) << "T ms" << std::setw(8) << "A"
      << std::setw(12) << "J ms-err"
      << "  binding\n";
    for (const auto& r : rows)
    {
        s << std::left << std::setw(12) << r.schedule << std::right << std::setw(8)
          << wantext::Num(r.hbmBytes / 1e9) << std::setw(10) << (r.feasible ? "yes" : "no")
          << std::setw(10) << wantext::Fixed(r.roundTimeMs, 1) << std::setw(8)
          << wantext::Fixed(r.disagreement, 3) << std::setw(12) << wantext::Fixed(r.objective, 0)
          << "  " << r.binding << "\n";
    }
    for (const auto& r : rows)
    {
        for (const auto& w : r.warnings)
        {
            s << "warning: " << r.schedule << " at " << wantext::Num(r.hbmBytes / 1e9) << " GB, "
              << w << "\n";
        }
    }
    s << "\nSynchronous SGD (all-reduce every step): exchange "
      << wantext::Fixed(sync.exchangeMs, 0) << " ms, compute " << wantext::Fixed(sync.computeMs, 0)
      << " ms per step -> GPUs idle " << wantext::Fixed(100 * sync.idleFraction, 0)
      << "% of the time.\n"
      << "Tolerating " << wantext::Fixed(sync.stalenessMs, 0)
      << " ms of staleness: " << wantext::Fixed(sync.speedup, 2) << "x faster (full "
      << wantext::Fixed(sync.maxSpeedup, 2) << "x from "
      << wantext::Fixed(sync.fullOverlapStalenessMs, 0) << " ms of staleness).\n";
    return s.str();
}

std::string
ScheduleComparisonHelper::ToCsv(const std::vector<ScheduleComparisonRow>& rows)
{
    std::ostringstream s;
    s << std::setprecision(10);
    s << "schedule,hbm_gb,feasible,round_time_ms,disagreement,objective_ms_error,"
         "peak_memory_gb,period,binding,cliques\n";
    for (const auto& r : rows)
    {
        s << wantext::CsvCell(r.schedule) << "," << r.hbmBytes / 1e9 << "," << (r.feasible ? 1 : 0)
          << ",";
        if (r.feasible)
        {
            s << r.roundTimeMs;
        }
        s << ",";
        if (std::isfinite(r.disagreement))
        {
            s << r.disagreement;
        }
        s << ",";
        if (r.feasible)
        {
            s << r.objective;
        }
        s << "," << r.peakMemoryBytes / 1e9 << "," << r.period << "," << wantext::CsvCell(r.binding)
          << "," << wantext::CsvCell(r.cliques) << "\n";
    }
    return s.str();
}

std::string
ScheduleComparisonHelper::ToJson(const std::vector<ScheduleComparisonRow>& rows,
                                 const SynchronousComparison& sync) const
{
    using nlohmann::json;
    json doc;
    doc["parameters"] = {
        {"payload_bytes", m_config.payloadBytes},
        {"multicast", m_config.multicast},
        {"aggregation", m_config.aggregation},
        {"access_gbps_override",
         m_config.accessBps ? wantext::JsonNumber(*m_config.accessBps / 1e9) : nullptr},
        {"core_gbps_override",
         m_config.coreCapacityBps ? wantext::JsonNumber(*m_config.coreCapacityBps / 1e9) : nullptr},
        {"islands", m_topo.GetNCities()},
        {"core_links", m_topo.GetLinks().size()}};
    doc["rows"] = json::array();
    for (const auto& r : rows)
    {
        doc["rows"].push_back({{"schedule", r.schedule},
                               {"cliques", r.cliques},
                               {"period", r.period},
                               {"hbm_gb", r.hbmBytes / 1e9},
                               {"feasible", r.feasible},
                               {"reason", r.reason},
                               {"round_time_ms", wantext::JsonNumber(r.roundTimeMs)},
                               {"disagreement", wantext::JsonNumber(r.disagreement)},
                               {"objective_ms_error", wantext::JsonNumber(r.objective)},
                               {"peak_memory_gb", r.peakMemoryBytes / 1e9},
                               {"binding", r.binding},
                               {"warnings", r.warnings}});
    }
    doc["synchronous_sgd"] = {{"exchange_ms", sync.exchangeMs},
                              {"compute_ms", sync.computeMs},
                              {"idle_fraction", sync.idleFraction},
                              {"staleness_ms", sync.stalenessMs},
                              {"speedup", sync.speedup},
                              {"full_overlap_staleness_ms", sync.fullOverlapStalenessMs},
                              {"max_speedup", sync.maxSpeedup}};
    return doc.dump(2);
}

void
ScheduleComparisonHelper::CheckOutputPath(const std::string& path)
{
    wantext::CheckOutputPath(path, "output file");
}

void
ScheduleComparisonHelper::Write(const std::string& path,
                                const std::vector<ScheduleComparisonRow>& rows,
                                const SynchronousComparison& sync) const
{
    CheckOutputPath(path);
    std::string text = wantext::EndsWith(path, ".csv") ? ToCsv(rows) : ToJson(rows, sync);
    wantext::WriteFile(path, text);
}

} // namespace ns3
