/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EXPERIMENT_REPORT_H
#define WAN_EXPERIMENT_REPORT_H

#include "wan-experiment-result.h"
#include "wan-training-loop.h"

#include "ns3/wan-round-counters.h"
#include "ns3/wan-topology.h"

#include <map>
#include <ostream>
#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The text form of a packet-level run's results (what
 * nine-city-cliques prints under each simulated schedule).
 */
class WanExperimentReport
{
  public:
    /**
     * @param round a round's result
     * @return its islands' counters summed
     */
    static WanRoundCounters Total(const WanRoundResult& round);
    /**
     * @param result a run's measurements
     * @param topo the topology it ran on (for city codes)
     * @return the measurements as text: per round the planner's and the
     *         measured T, partial sums and retransmissions; per island the
     *         bytes in and out; evictions by cause and peak HBM
     */
    static std::string Format(const WanExperimentResult& result, const WanTopology& topo);

    /**
     * @param training training over a run's rounds (WanTrainingLoop)
     * @return it as text: rounds and simulated time, the loss at the
     *         islands' models from start to end against f*, and when the
     *         target was reached
     */
    static std::string FormatTraining(const WanTrainingRunResult& training);

  private:
    /// Writes each round's line; @return each city's counters over the rounds
    static std::map<uint32_t, WanRoundCounters> FormatRounds(const WanExperimentResult& result,
                                                             std::ostream& s);
    /// Writes the bytes per city, evictions, sums and mixing.
    static void FormatTotals(const WanExperimentResult& result,
                             const WanTopology& topo,
                             const std::map<uint32_t, WanRoundCounters>& perCity,
                             std::ostream& s);
    /// Writes losses, control plane, PIM and the faults as the network handled them.
    static void FormatEvents(const WanExperimentResult& result, std::ostream& s);
};

} // namespace ns3

#endif /* WAN_EXPERIMENT_REPORT_H */
