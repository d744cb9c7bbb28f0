/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-agreement-check.h"

#include "clique-experiment-helper.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/log.h"
#include "ns3/wan-training-text.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanAgreementCheck");

WanAgreementCheck::WanAgreementCheck(double scale, double tolerance, uint32_t rounds)
    : m_scale(wantext::RequireAtLeast(scale, 1, "scale")),
      m_tolerance(tolerance),
      m_rounds(rounds)
{
    if (!(tolerance > 0 && tolerance < 1))
    {
        throw std::invalid_argument("the tolerance must be between 0 and 1 (got " +
                                    wantext::Num(tolerance) + ")");
    }
    if (rounds < 1)
    {
        throw std::invalid_argument("the check needs at least one round");
    }
}

std::vector<WanAgreementRow>
WanAgreementCheck::Run(const WanTopology& topo, const std::string& label) const
{
    std::vector<WanAgreementRow> rows;
    for (const auto& name : CliqueScheduleBuiltins::Names())
    {
        rows.push_back(RunSchedule(topo, label, name));
    }
    return rows;
}

WanAgreementRow
WanAgreementCheck::RunSchedule(const WanTopology& topo,
                               const std::string& label,
                               const std::string& schedule) const
{
    NS_LOG_FUNCTION(this << label << schedule);
    WanAgreementRow row;
    row.wan = label;
    row.cities = topo.GetNCities();
    row.schedule = schedule;
    const auto clique = CliqueScheduleBuiltins::Make(schedule, topo);
    for (double hbm : {0.0, CliqueScheduleBuiltins::GetAmpleMemory()})
    {
        PlannerConfig config;
        config.hbmBytes = hbm;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(m_scale);
        experiment.SetRounds(m_rounds);
        experiment.SetRecovery("accept"); // the planner plans the data alone: no parity
        const auto result = experiment.Run(clique);
        row.hbmGB = hbm / 1e9;
        row.feasible = result.feasible;
        row.reason = result.reason;
        if (result.feasible)
        {
            Judge(result, m_tolerance, row);
            return row;
        }
    }
    row.verdict = "infeasible";
    return row;
}

void
WanAgreementCheck::Judge(const WanExperimentResult& result, double tolerance, WanAgreementRow& row)
{
    row.exact = result.exact;
    row.scaleLagMs = result.scaleLagMs;
    row.excessPercent = -100;
    row.shortPercent = -100;
    bool within = true;
    for (const auto& r : result.rounds)
    {
        ++row.rounds;
        row.warnings += static_cast<uint32_t>(r.warnings.size());
        const double excess = 100 * (r.measuredMs - r.plannedMs - r.scaleLagMs) / r.plannedMs;
        const double shortfall = 100 * (r.plannedMs - r.measuredMs) / r.plannedMs;
        if (r.plannedMs >= row.plannedMs)
        {
            row.plannedMs = r.plannedMs;
            row.measuredMs = r.measuredMs;
        }
        row.excessPercent = std::max(row.excessPercent, excess);
        row.shortPercent = std::max(row.shortPercent, shortfall);
        within = within && !r.failed && excess <= 100 * tolerance && shortfall <= 100 * tolerance;
    }
    if (within && row.exact)
    {
        row.verdict = "agrees";
    }
    else
    {
        row.verdict = row.warnings > 0 ? "warned" : "DISAGREES";
    }
}

} // namespace ns3
