/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULE_TIME_OBJECTIVE_H
#define SCHEDULE_TIME_OBJECTIVE_H

#include "clique-schedule.h"
#include "schedule-evaluator.h"
#include "wan-time-to-target-predictor.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The schedule optimizer's time-to-target objective: a schedule's
 * predicted time to a target gap (WanTimeToTargetPredictor's isotropic
 * moments from a workload's constants), each round averaging uniformly in
 * its cliques (MixingAnalysis::UniformMixing) and lasting the planner's T.
 */
class ScheduleTimeObjective
{
  public:
    /// No objective: the optimizer minimises J.
    ScheduleTimeObjective() = default;
    /**
     * @param constants the workload's constants (WanWorkloadConstants::Of, or set)
     * @param training eta, H and C
     * @param targetGap the gap to reach, above the floor exact averaging
     *        settles at
     * @throws std::invalid_argument naming the problem
     */
    ScheduleTimeObjective(const WanWorkloadConstants& constants,
                          const WanPredictorTraining& training,
                          double targetGap);

    /** @return true when an objective is set */
    bool IsSet() const;
    /**
     * @param rounds the period's rounds, each a partition of the islands
     * @param roundTimeMs T, the planner's round time, ms
     * @return the predicted rounds and time to the target, or unreachable
     */
    WanPrediction Predict(const std::vector<CliqueSchedule::Round>& rounds,
                          double roundTimeMs) const;
    /**
     * @param rounds the period's rounds
     * @param evaluation their evaluation (ScheduleEvaluator::Evaluate)
     * @return the prediction with the evaluation's T, or unreachable when
     *         the schedule is infeasible or never mixes
     */
    WanPrediction Predict(const std::vector<CliqueSchedule::Round>& rounds,
                          const ScheduleEvaluation& evaluation) const;
    /** @return the target gap */
    double GetTargetGap() const;

  private:
    bool m_set{false};                //!< an objective was given
    WanWorkloadConstants m_constants; //!< the workload's constants
    WanPredictorTraining m_training;  //!< eta, H, C
    double m_targetGap{0};            //!< the gap to reach
};

} // namespace ns3

#endif /* SCHEDULE_TIME_OBJECTIVE_H */
