/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-time-objective.h"

#include "mixing-analysis.h"

#include <cmath>

namespace ns3
{

ScheduleTimeObjective::ScheduleTimeObjective(const WanWorkloadConstants& constants,
                                             const WanPredictorTraining& training,
                                             double targetGap)
    : m_set(true),
      m_constants(constants),
      m_training(training),
      m_targetGap(targetGap)
{
    // Checks the constants, the training and the target once, on exact
    // averaging (the fastest any schedule can do).
    const uint32_t n = constants.islands;
    WanTimeToTargetPredictor({{WanMatrix(n, std::vector<double>(n, 1.0 / n)), 0}}, training)
        .Moments(constants, targetGap);
}

bool
ScheduleTimeObjective::IsSet() const
{
    return m_set;
}

WanPrediction
ScheduleTimeObjective::Predict(const std::vector<CliqueSchedule::Round>& rounds,
                               double roundTimeMs) const
{
    std::vector<WanPredictorRound> period;
    for (const auto& round : rounds)
    {
        period.push_back(
            {MixingAnalysis::UniformMixing(round, m_constants.islands), roundTimeMs / 1e3});
    }
    return WanTimeToTargetPredictor(period, m_training).Moments(m_constants, m_targetGap);
}

WanPrediction
ScheduleTimeObjective::Predict(const std::vector<CliqueSchedule::Round>& rounds,
                               const ScheduleEvaluation& evaluation) const
{
    return evaluation.feasible && std::isfinite(evaluation.objective)
               ? Predict(rounds, evaluation.roundTimeMs)
               : WanPrediction{};
}

double
ScheduleTimeObjective::GetTargetGap() const
{
    return m_targetGap;
}

} // namespace ns3
