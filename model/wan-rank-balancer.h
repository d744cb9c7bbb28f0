/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RANK_BALANCER_H
#define WAN_RANK_BALANCER_H

#include "round-planner.h"
#include "wan-experiment-plan.h"
#include "wan-topology.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Cities to ranks by the work a packet-level run plans for them: the
 * "balanced" partition of a distributed run (WanMpiHelper::Partition).
 *
 * In ns-3 the work of a packet-level run is packets handled: a device
 * sending a packet and a device receiving one are each an event, and a
 * city's router, edge node and island run on one rank.  PlannedLoad counts,
 * from the plan alone (no simulator), what each round's streams make each
 * city's nodes handle, in units of one stream's packets (every stream
 * carries D), and which core link directions carry how many streams.  A
 * stream crossing between ranks costs both ranks more (the packet is
 * serialized, sent by MPI and rebuilt): kCrossingWork units per stream on
 * each side.  A round takes as long as its busiest rank (the conservative
 * synchronisers keep the ranks within a lookahead of each other), so Cost
 * is, summed over the rounds, the busiest rank's work; Balance finds the
 * partition of least cost, the largest lookahead among equals.  Plain C++:
 * tests drive it directly.
 */
class WanRankBalancer
{
  public:
    /// What a plan makes the cities handle.
    struct Load
    {
        /// Per round, per city: the packets its nodes handle, in streams.
        std::vector<std::vector<uint64_t>> work;
        /// Per round: the loaded core link directions and their streams.
        std::vector<std::vector<WanLinkLoad>> links;
    };

    /// Work per stream and side when a stream crosses between ranks (5).
    static const uint64_t kCrossingWork;

    /**
     * @brief The planned work of every city in every round run.
     *
     * For each sender: its pacing (1) and its copies (1 with a multicast
     * tree, one per peer without), each sent by the island, received and
     * sent by the edge node and received by the router (4 per copy).  For
     * each receiver: each peer's stream sent by its router and received by
     * its edge node (2 per peer), then to the island one merged stream (2)
     * with aggregation, or each stream (2 per peer) without.  For each loaded
     * core link direction: its streams, sent at one end and received at the
     * other.
     * @param plan the experiment's plan
     * @param nCities the number of cities
     * @param aggregation whether edge FPGAs sum the inbound streams
     * @return the load (failed rounds left out)
     * @throws std::invalid_argument for a plan naming a city beyond nCities
     */
    static Load PlannedLoad(const WanExperimentPlan& plan, uint32_t nCities, bool aggregation);

    /**
     * @param topo the topology
     * @param rankOf per city its rank
     * @return the smallest one-way delay of a core link between two ranks,
     *         seconds (infinity when no link is cut): the lookahead of
     *         conservative synchronisation
     */
    static double Lookahead(const WanTopology& topo, const std::vector<uint32_t>& rankOf);

    /**
     * @param load the planned load
     * @param rankOf per city its rank
     * @param ranks the number of ranks
     * @return per round, per rank: its cities' work plus kCrossingWork per
     *         stream on each cut link direction with an end on the rank
     */
    static std::vector<std::vector<uint64_t>> RankWork(const Load& load,
                                                       const std::vector<uint32_t>& rankOf,
                                                       uint32_t ranks);

    /**
     * @param load the planned load
     * @param rankOf per city its rank
     * @param ranks the number of ranks
     * @return the sum over the rounds of the busiest rank's work (RankWork)
     */
    static uint64_t Cost(const Load& load, const std::vector<uint32_t>& rankOf, uint32_t ranks);

    /**
     * @brief Cities to ranks at the least Cost, every rank running a city.
     *
     * Every assignment is tried while there are at most 2^16 of them up to
     * relabelling the ranks (ranks^(cities - 1): nine cities on up to four
     * ranks), the largest lookahead (shortest cut core link) among those of
     * least cost, then the first in the search order.  Beyond that, from the
     * given start, single cities move or pairs swap ranks while that lowers
     * the cost (a local optimum).
     * @param topo the topology
     * @param ranks the number of ranks, 1 to the number of cities
     * @param load the planned load (PlannedLoad on this topology)
     * @param start a partition to improve on when the search is not
     *        exhaustive (per city its rank, every rank used)
     * @return per city its rank
     * @throws std::invalid_argument for a load or start of another number of
     *         cities, or a number of ranks out of range
     */
    static std::vector<uint32_t> Balance(const WanTopology& topo,
                                         uint32_t ranks,
                                         const Load& load,
                                         const std::vector<uint32_t>& start);

  private:
    /// @return the least-cost assignment, trying every one up to relabelling
    static std::vector<uint32_t> Exhaustive(const WanTopology& topo,
                                            uint32_t ranks,
                                            const Load& load);
    /// @return a local optimum: single moves and swaps from `start` while they lower the cost
    static std::vector<uint32_t> LocalSearch(uint32_t ranks,
                                             const Load& load,
                                             const std::vector<uint32_t>& start);
};

} // namespace ns3

#endif /* WAN_RANK_BALANCER_H */
