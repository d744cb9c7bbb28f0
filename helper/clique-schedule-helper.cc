/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-schedule-helper.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/wan-training-compat.h"
#include "ns3/wan-training-text.h"

#include <cctype>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueScheduleHelper");

namespace
{

/// @return "on"/"off" as a switch; throws otherwise
bool
ParseSwitch(const std::string& dimension, const std::string& value)
{
    if (value == "on" || value == "true" || value == "1")
    {
        return true;
    }
    if (value == "off" || value == "false" || value == "0")
    {
        return false;
    }
    throw std::invalid_argument(dimension + " value \"" + value + "\" is not on or off");
}

/// @return the value as a number in the range; throws naming the dimension otherwise
double
ParseNumber(const std::string& dimension, const std::string& value, const wantext::Range& range)
{
    return range.Check(wantext::ParseNumber(value, dimension), dimension);
}

/// @return the improvement of J over the best built-in schedule, percent
double
GainPercent(const OptimizerResult& r)
{
    const double best = r.evaluation.objective;
    const double builtin = r.builtin.objective;
    if (!std::isfinite(best))
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    return std::isfinite(builtin) ? 100 * (1 - best / builtin)
                                  : std::numeric_limits<double>::infinity();
}

} // namespace

CliqueScheduleHelper::CliqueScheduleHelper()
    : CliqueScheduleHelper(WanTopology::NineCity(), PlannerConfig{})
{
}

CliqueScheduleHelper::CliqueScheduleHelper(const WanTopology& topo, const PlannerConfig& config)
{
    m_optimizer.SetTypeId(ScheduleOptimizer::GetTypeId());
    SetTopology(topo);
    SetPlannerConfig(config);
}

void
CliqueScheduleHelper::SetTopology(const WanTopology& topo)
{
    topo.Validate();
    m_topo = topo;
}

const WanTopology&
CliqueScheduleHelper::GetTopology() const
{
    return m_topo;
}

void
CliqueScheduleHelper::SetPlannerConfig(const PlannerConfig& config)
{
    RoundPlanner(m_topo, config); // checks the values now
    m_config = config;
}

const PlannerConfig&
CliqueScheduleHelper::GetPlannerConfig() const
{
    return m_config;
}

void
CliqueScheduleHelper::SetMixingOptions(const MixingOptions& options)
{
    m_mixing = options;
}

void
CliqueScheduleHelper::SetOptimizerAttribute(const std::string& name, const AttributeValue& value)
{
    // A name for an enum attribute (Search) is checked here, with a clear
    // error, since ns-3 asserts on an unknown one.
    const auto* text = dynamic_cast<const StringValue*>(&value);
    TypeId::AttributeInformation info;
    if (text && ScheduleOptimizer::GetTypeId().LookupAttributeByName(name, &info) &&
        info.checker->GetValueTypeName().rfind("ns3::EnumValue", 0) == 0)
    {
        std::string what = name;
        what[0] = static_cast<char>(std::tolower(what[0]));
        wancompat::RequireEnumName(ScheduleOptimizer::GetTypeId(), name, text->Get(), what);
    }
    m_optimizer.Set(name, value);
}

CliqueSchedule
CliqueScheduleHelper::Builtin(const std::string& name) const
{
    return CliqueScheduleBuiltins::Make(name, m_topo);
}

std::vector<std::string>
CliqueScheduleHelper::BuiltinNames()
{
    return CliqueScheduleBuiltins::Names();
}

std::vector<CliqueSchedule>
CliqueScheduleHelper::Builtins() const
{
    std::vector<CliqueSchedule> all;
    for (const auto& name : BuiltinNames())
    {
        all.push_back(Builtin(name));
    }
    return all;
}

CliqueSchedule
CliqueScheduleHelper::Load(const std::string& path) const
{
    return CliqueSchedule::LoadFile(path, m_topo);
}

void
CliqueScheduleHelper::Save(const CliqueSchedule& schedule, const std::string& path) const
{
    schedule.Validate(m_topo);
    wantext::WriteFile(path, schedule.ToJson(m_topo) + "\n");
}

ScheduleEvaluation
CliqueScheduleHelper::Evaluate(const CliqueSchedule& schedule) const
{
    return ScheduleEvaluator(m_topo, m_config, m_mixing).Evaluate(schedule);
}

OptimizerResult
CliqueScheduleHelper::Optimize() const
{
    return Optimize(m_config);
}

void
CliqueScheduleHelper::SetTimeObjective(const ScheduleTimeObjective& objective)
{
    m_time = objective;
}

OptimizerResult
CliqueScheduleHelper::Optimize(const PlannerConfig& config) const
{
    auto optimizer = m_optimizer.Create<ScheduleOptimizer>();
    optimizer->SetTimeObjective(m_time);
    return optimizer->Optimize(m_topo, config, m_mixing);
}

std::vector<CapabilitySetting>
CliqueScheduleHelper::Settings(const std::string& dimension,
                               const std::vector<std::string>& values) const
{
    std::vector<CapabilitySetting> settings;
    for (const auto& value : values)
    {
        CapabilitySetting s{dimension, value, m_config};
        if (dimension == "hbm_gb")
        {
            s.config.hbmBytes = ParseNumber(dimension, value, wantext::bounds::kHbmGB) * 1e9;
        }
        else if (dimension == "access_gbps")
        {
            s.config.accessBps = ParseNumber(dimension, value, wantext::bounds::kRateGbps) * 1e9;
        }
        else if (dimension == "core_gbps")
        {
            s.config.coreCapacityBps =
                ParseNumber(dimension, value, wantext::bounds::kRateGbps) * 1e9;
        }
        else if (dimension == "payload_gb")
        {
            s.config.payloadBytes =
                wantext::bounds::kPayloadBytes.Check(wantext::ParseNumber(value, dimension) * 1e9,
                                                     dimension + " (in bytes)");
        }
        else if (dimension == "multicast")
        {
            s.config.multicast = ParseSwitch(dimension, value);
        }
        else if (dimension == "aggregation")
        {
            s.config.aggregation = ParseSwitch(dimension, value);
        }
        else
        {
            throw std::invalid_argument("unknown sweep dimension \"" + dimension +
                                        "\" (expected hbm_gb, access_gbps, core_gbps, "
                                        "payload_gb, multicast or aggregation)");
        }
        RoundPlanner(m_topo, s.config); // an impossible value fails here, not mid-sweep
        settings.push_back(s);
    }
    return settings;
}

std::vector<CapabilitySetting>
CliqueScheduleHelper::DefaultSweep() const
{
    std::vector<CapabilitySetting> all;
    for (const auto& [dimension, values] :
         std::vector<std::pair<std::string, std::vector<std::string>>>{
             {"hbm_gb", {"0", "1", "2", "4", "8", "16", "32"}},
             {"access_gbps", {"10", "20", "40", "100"}},
             {"core_gbps", {"25", "50", "100", "400"}},
             {"payload_gb", {"0.25", "1", "4"}},
             {"multicast", {"off"}},
             {"aggregation", {"off"}}})
    {
        auto s = Settings(dimension, values);
        all.insert(all.end(), s.begin(), s.end());
    }
    return all;
}

std::vector<SweepRow>
CliqueScheduleHelper::Sweep(const std::vector<CapabilitySetting>& settings,
                            const std::function<void(size_t, size_t)>& progress) const
{
    std::vector<SweepRow> rows;
    for (const auto& s : settings)
    {
        NS_LOG_INFO("optimising for " << s.dimension << " = " << s.value);
        rows.push_back({s, Optimize(s.config)});
        if (progress)
        {
            progress(rows.size(), settings.size());
        }
    }
    return rows;
}

std::string
CliqueScheduleHelper::FormatSweep(const std::vector<SweepRow>& rows) const
{
    std::ostringstream s;
    s << std::left << std::setw(18) << "setting" << std::setw(11) << "best" << std::right
      << std::setw(9) << "T ms" << std::setw(8) << "A" << std::setw(10) << "J ms-err"
      << "  " << std::left << std::setw(12) << "paper best" << std::right << std::setw(10)
      << "J ms-err" << std::setw(8) << "gain"
      << "  " << std::left << std::setw(11) << "search" << std::right << std::setw(10) << "coverage"
      << std::setw(8) << "s"
      << "\n";
    for (const auto& row : rows)
    {
        const auto& r = row.result;
        const auto gain = GainPercent(r);
        std::ostringstream coverage;
        coverage << std::setprecision(2) << r.coverage;
        s << std::left << std::setw(18) << (row.setting.dimension + "=" + row.setting.value)
          << std::setw(11) << r.schedule.GetName() << std::right << std::setw(9)
          << wantext::Fixed(r.evaluation.roundTimeMs, 1) << std::setw(8)
          << wantext::Fixed(r.evaluation.disagreement, 3) << std::setw(10)
          << wantext::Fixed(r.evaluation.objective, 0) << "  " << std::left << std::setw(12)
          << (r.bestBuiltin.empty() ? "-" : r.bestBuiltin) << std::right << std::setw(10)
          << wantext::Fixed(r.builtin.objective, 0) << std::setw(8)
          << (std::isnan(gain)   ? "-"
              : std::isinf(gain) ? "new"
                                 : wantext::Fixed(gain, 1) + "%")
          << "  " << std::left << std::setw(11) << r.method << std::right << std::setw(10)
          << coverage.str() << std::setw(8) << wantext::Fixed(r.seconds, 1) << "\n";
    }
    s << "\nBest schedules (rounds separated by |):\n";
    for (const auto& row : rows)
    {
        s << "  " << std::left << std::setw(18) << (row.setting.dimension + "=" + row.setting.value)
          << row.result.schedule.ToString(m_topo) << "\n";
        if (!row.result.evaluation.feasible)
        {
            s << "  " << std::setw(18) << ""
              << "infeasible: " << row.result.evaluation.binding << "\n";
        }
    }
    return s.str();
}

std::string
CliqueScheduleHelper::SweepToCsv(const std::vector<SweepRow>& rows) const
{
    std::ostringstream s;
    s << std::setprecision(10);
    s << "dimension,value,feasible,schedule,period,round_time_ms,disagreement,objective_ms_error,"
         "paper_best,paper_best_objective_ms_error,gain_percent,search,steps,distinct,space,"
         "coverage,seconds,binding,cliques\n";
    for (const auto& row : rows)
    {
        const auto& r = row.result;
        auto number = [](double x) {
            std::ostringstream n;
            n << std::setprecision(10) << x;
            return std::isfinite(x) ? n.str() : std::string();
        };
        s << wantext::CsvCell(row.setting.dimension) << "," << wantext::CsvCell(row.setting.value)
          << "," << (r.evaluation.feasible ? 1 : 0) << "," << wantext::CsvCell(r.schedule.GetName())
          << "," << r.schedule.GetNRounds() << "," << number(r.evaluation.roundTimeMs) << ","
          << number(r.evaluation.disagreement) << "," << number(r.evaluation.objective) << ","
          << wantext::CsvCell(r.bestBuiltin) << "," << number(r.builtin.objective) << ","
          << number(GainPercent(r)) << "," << r.method << "," << r.steps << "," << r.distinct << ","
          << number(r.spaceSize) << "," << number(r.coverage) << "," << number(r.seconds) << ","
          << wantext::CsvCell(r.evaluation.binding) << ","
          << wantext::CsvCell(r.schedule.ToString(m_topo)) << "\n";
    }
    return s.str();
}

std::string
CliqueScheduleHelper::SweepToJson(const std::vector<SweepRow>& rows) const
{
    using nlohmann::json;
    json doc;
    doc["topology_cities"] = m_topo.GetNCities();
    doc["rows"] = json::array();
    for (const auto& row : rows)
    {
        const auto& r = row.result;
        doc["rows"].push_back(
            {{"dimension", row.setting.dimension},
             {"value", row.setting.value},
             {"feasible", r.evaluation.feasible},
             {"round_time_ms", wantext::JsonNumber(r.evaluation.roundTimeMs)},
             {"disagreement", wantext::JsonNumber(r.evaluation.disagreement)},
             {"objective_ms_error", wantext::JsonNumber(r.evaluation.objective)},
             {"binding", r.evaluation.binding},
             {"paper_best", r.bestBuiltin},
             {"paper_best_objective_ms_error", wantext::JsonNumber(r.builtin.objective)},
             {"gain_percent", wantext::JsonNumber(GainPercent(r))},
             {"search", r.method},
             {"steps", r.steps},
             {"distinct", r.distinct},
             {"space", wantext::JsonNumber(r.spaceSize)},
             {"coverage", wantext::JsonNumber(r.coverage)},
             {"seconds", r.seconds},
             {"schedule", json::parse(r.schedule.ToJson(m_topo))}});
    }
    return doc.dump(2) + "\n";
}

void
CliqueScheduleHelper::WriteSweep(const std::string& path, const std::vector<SweepRow>& rows) const
{
    if (!wantext::EndsWith(path, ".csv") && !wantext::EndsWith(path, ".json"))
    {
        throw std::invalid_argument("sweep file '" + path + "' must end in .csv or .json");
    }
    wantext::WriteFile(path,
                       wantext::EndsWith(path, ".csv") ? SweepToCsv(rows) : SweepToJson(rows));
}

} // namespace ns3
