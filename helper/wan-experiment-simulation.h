/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EXPERIMENT_SIMULATION_H
#define WAN_EXPERIMENT_SIMULATION_H

#include "ns3/nstime.h"
#include "ns3/wan-experiment-plan.h"

#include <chrono>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Runs the simulator through a plan: until the last round's deadline
 * and the room its repairs need, following the plan when rounds are
 * re-planned during the run, and reporting progress on standard error.
 */
class WanExperimentSimulation
{
  public:
    /**
     * @param plan the plan run (kept by reference: re-planning moves its end)
     * @param progressSeconds print the simulated time, the rounds done and
     *        the events so far at most this often (wall-clock seconds; 0: never)
     */
    WanExperimentSimulation(const WanExperimentPlan& plan, double progressSeconds);

    /**
     * @brief Runs the simulator until every round and its repairs are over.
     * @param repairRoom how long after the last round's deadline repairs go on
     * @param followPlan the last round may move (re-planned during the run):
     *        the stop follows it
     */
    void Run(Time repairRoom, bool followPlan);
    /// @return the events the simulation executed, less the progress reports'
    uint64_t GetModelEvents() const;

  private:
    /// Stops the run once the (possibly re-planned) last round and its repairs are over.
    void StopWhenDone(Time slack);
    /**
     * @brief Prints the progress when the interval has passed, and checks
     * again a hundredth of a round period later.
     * @param end when the run stops
     * @param last when progress was printed last (wall clock)
     */
    void ReportProgress(Time end, std::chrono::steady_clock::time_point last);
    /// @return how many rounds of the plan have ended by now
    uint64_t RoundsDone() const;

    const WanExperimentPlan& m_plan; //!< the plan run
    double m_progressSeconds;        //!< wall-clock interval of progress reports (0: none)
    uint64_t m_progressEvents{0};    //!< events of the progress reports
};

} // namespace ns3

#endif /* WAN_EXPERIMENT_SIMULATION_H */
