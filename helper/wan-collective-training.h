/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_COLLECTIVE_TRAINING_H
#define WAN_COLLECTIVE_TRAINING_H

#include "wan-collective-experiment.h"
#include "wan-collective-schedule-experiment.h"
#include "wan-experiment-result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Today's collectives as rounds the training loop takes
 * (WanTrainingLoop::Train), so that time to target compares them with the
 * paper's system on the same workload, compute time and local steps.
 *
 * A collective over TCP is exact and complete or not done: every member
 * ends with the average of every member's state. A sync among some islands
 * is therefore the mixing matrix that averages them (W = J over the members:
 * each weighs each 1 / n), the others keeping their state; a round of a
 * schedule on today's network is that for each of its cliques at once (a
 * singleton keeps its own). The round's time is the collective's measured
 * time (the slowest clique's), which the loop adds to the compute time of
 * the local steps (WanTrainingLoop's LocalSteps and ComputeTime: H steps
 * between syncs, DiLoCo-style; a payload of fewer bits per parameter is a
 * smaller D, WanCollectiveExperiment::SetPayload). Nothing arrives late:
 * the received matrix is the mixing matrix, so "quorum" equals "wait".
 */
class WanCollectiveTraining
{
  public:
    /**
     * @param nIslands the topology's islands
     * @param sync one sync of a collective (WanCollectiveExperiment::Run),
     *        repeated every round of the training
     * @return a run of one round: infeasible, with the reason, when the sync
     *         did not complete before its time limit
     * @throws std::invalid_argument for a member outside the islands
     */
    static WanExperimentResult AsRun(uint32_t nIslands, const WanCollectiveResult& sync);
    /**
     * @param schedule the schedule's name, for the result
     * @param nIslands the topology's islands
     * @param rounds the rounds of a schedule on today's network
     *        (WanCollectiveScheduleExperiment::Run), taken in turn
     * @return a run of those rounds: infeasible, with the reason, when one
     *         did not complete (or there are none)
     * @throws std::invalid_argument for a member outside the islands or in
     *         two cliques of a round
     */
    static WanExperimentResult AsRun(const std::string& schedule,
                                     uint32_t nIslands,
                                     const std::vector<WanCollectiveRound>& rounds);

    /**
     * @param nIslands the islands
     * @param groups the groups that average, each among its members
     * @return the mixing matrix: each group's members weigh each other
     *         1 / its size, an island in no group keeps its state
     * @throws std::invalid_argument for a member outside the islands or in
     *         two groups
     */
    static WanMatrix Averaging(uint32_t nIslands, const std::vector<std::vector<uint32_t>>& groups);
};

} // namespace ns3

#endif /* WAN_COLLECTIVE_TRAINING_H */
