/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_COLLECTIVE_SCHEDULE_EXPERIMENT_H
#define WAN_COLLECTIVE_SCHEDULE_EXPERIMENT_H

#include "wan-collective-experiment.h"

#include "ns3/clique-schedule.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One round of a clique schedule on today's network: what each
 * clique's collective measured, and the round's figures.
 */
struct WanCollectiveRound
{
    uint32_t round{0};                        //!< the round, from 0
    std::vector<WanCollectiveResult> cliques; //!< per clique of two or more islands
    bool complete{false};                     //!< every clique completed before the limit
    bool exact{false};                        //!< and every sum is exact
    double seconds{0};                        //!< the round's time: its slowest clique's
    uint64_t bytes{0};                        //!< record bytes all islands sent
    uint64_t maxEgressBytes{0};               //!< the most any island sent
    uint64_t retransmissions{0};              //!< TCP segments sent again
};

/**
 * @ingroup wan-training
 * @brief Runs a rotating-clique schedule on today's network: in each round,
 * one of today's collectives over TCP among each clique's islands (a ring
 * all-reduce or a parameter server per clique), every clique at once on one
 * network (WanCollectiveExperiment::RunGroups), so the paper's schedules can
 * be measured without multicast and FPGAs, as the paper's two halves stand
 * apart. A singleton keeps its own state and sends nothing.
 *
 * Each round is its own simulation, as WanCollectiveExperiment runs one
 * sync: its connections are opened before the round begins, and their
 * congestion windows start afresh (a rotation changes the peers; the
 * connections of a clique that recurs a period later would, in Linux,
 * restart from the initial window after idling longer than their
 * retransmission timeout). Round k draws its loss and jitter from streams
 * of its own: the first stream (SetStream) plus k x 10^6.
 */
class WanCollectiveScheduleExperiment
{
  public:
    /// Random streams a round may use (see the class).
    static constexpr int64_t STREAMS_PER_ROUND = 1000000;

    /**
     * @param experiment the network and TCP settings of every round (copied)
     */
    explicit WanCollectiveScheduleExperiment(const WanCollectiveExperiment& experiment);

    /// @param stream the first random stream of round 0
    void SetStream(int64_t stream);

    /**
     * @param kind the collective in each clique
     * @param schedule the schedule, valid on the experiment's topology
     * @param rounds how many rounds, from the period's first (> 0)
     * @return per round, what it measured
     * @throws std::invalid_argument for 0 rounds
     */
    std::vector<WanCollectiveRound> Run(WanCollectiveExperiment::Kind kind,
                                        const CliqueSchedule& schedule,
                                        uint32_t rounds) const;

    /**
     * @param rounds a run's rounds
     * @return the mean round time, seconds (0 when a round is incomplete)
     */
    static double MeanSeconds(const std::vector<WanCollectiveRound>& rounds);

    /**
     * @param rounds a run's rounds
     * @param topo their topology
     * @return a line per round (its time, bytes, retransmissions, exactness,
     * its slowest clique) and the mean
     */
    static std::string Format(const std::vector<WanCollectiveRound>& rounds,
                              const WanTopology& topo);

  private:
    WanCollectiveExperiment m_experiment; //!< every round's settings
    int64_t m_stream{1};                  //!< round 0's first stream
};

} // namespace ns3

#endif /* WAN_COLLECTIVE_SCHEDULE_EXPERIMENT_H */
