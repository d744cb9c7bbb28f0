/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_SCHEDULE_H
#define CLIQUE_SCHEDULE_H

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

class WanTopology;

/**
 * \ingroup wan-training
 * \brief A schedule of rotating cliques: a period of rounds, each a partition
 * of the islands into disjoint cliques.
 *
 * Islands are city indices of a WanTopology.  A clique of one island is a
 * singleton that keeps its own state for the round.
 *
 * Built-in schedules, defined from the topology's regions:
 * - **pairs**: the minimum spanning tree of the core graph by latency (it
 *   minimises the longest pair), edge-coloured into matchings; one round per
 *   colour, unmatched islands are singletons.
 * - **regional**: round 1, the regions' own cliques (each region split into
 *   triangles when it has more than three islands); round 2, one gateway pair
 *   per pair of regions (the lowest-latency pair of still unmatched islands),
 *   the other islands singletons.
 * - **triangles**: round 1, regional triangles (each region partitioned into
 *   triangles); round 2, cross-regional triangles (three islands of three
 *   different regions), chosen to minimise the largest triangle's alignment
 *   span; a remainder of one or two islands forms a singleton or pair.
 * - **all-to-all**: one round, one clique of every island.
 */
class CliqueSchedule
{
  public:
    /// A clique: island indices, ascending.
    using Clique = std::vector<uint32_t>;
    /// A round: a partition of the islands into cliques.
    using Round = std::vector<Clique>;

    CliqueSchedule() = default;
    /**
     * \param name the schedule's name
     * \param rounds the period's rounds
     */
    CliqueSchedule(std::string name, std::vector<Round> rounds);

    /**
     * \param topo the topology
     * \return the pairs schedule
     */
    static CliqueSchedule Pairs(const WanTopology& topo);
    /**
     * \param topo the topology
     * \return the regional schedule
     */
    static CliqueSchedule Regional(const WanTopology& topo);
    /**
     * \param topo the topology
     * \return the rotating triangles schedule
     */
    static CliqueSchedule Triangles(const WanTopology& topo);
    /**
     * \param topo the topology
     * \return the all-to-all schedule
     */
    static CliqueSchedule AllToAll(const WanTopology& topo);
    /**
     * \param name "pairs", "regional", "triangles" or "all-to-all"
     * \param topo the topology
     * \return that built-in schedule; throws std::invalid_argument otherwise
     */
    static CliqueSchedule Builtin(const std::string& name, const WanTopology& topo);
    /** \return the names of the built-in schedules, in the paper's order */
    static std::vector<std::string> BuiltinNames();

    /**
     * \brief Loads a schedule file (JSON) and validates it against a topology.
     *
     * Format: {"name": "...", "rounds": [[["NYC", "LAX"], ["BUE"], ...], ...]}:
     * each round a list of cliques, each clique a list of city codes.  An island
     * the file leaves out of a round is an error, not a singleton.
     * \param path the file
     * \param topo the topology whose cities the file names
     * \return the schedule
     */
    static CliqueSchedule LoadFile(const std::string& path, const WanTopology& topo);
    /**
     * \param text a JSON document in the LoadFile format
     * \param topo the topology
     * \return the validated schedule
     */
    static CliqueSchedule FromJson(const std::string& text, const WanTopology& topo);

    /**
     * \brief Checks that every round partitions the topology's islands: each
     * island in exactly one clique, no unknown island, no empty clique.
     * Throws std::invalid_argument naming the round and island otherwise.
     * \param topo the topology
     */
    void Validate(const WanTopology& topo) const;

    /** \return the schedule's name */
    const std::string& GetName() const;
    /** \return the number of rounds in the period */
    uint32_t GetNRounds() const;
    /**
     * \param k round index, taken modulo the period
     * \return the round
     */
    const Round& GetRound(uint32_t k) const;
    /** \return all rounds */
    const std::vector<Round>& GetRounds() const;

    /**
     * \param topo the topology
     * \return e.g. "{NYC,LAX,BUE} {LON,AMS,FRA} | {NYC,LON} ..."
     */
    std::string ToString(const WanTopology& topo) const;
    /**
     * \param topo the topology
     * \return a JSON document that FromJson reads back
     */
    std::string ToJson(const WanTopology& topo) const;

    /**
     * \brief The latency span a clique needs to align all arrivals without
     * FPGA memory: the T - D/r of the clique alone (no contention), computed by
     * the same rule as the round planner.  Used to choose triangles.
     * \param topo the topology
     * \param clique the clique
     * \return seconds
     */
    static double AlignmentSpan(const WanTopology& topo, const Clique& clique);

  private:
    std::string m_name;          //!< name
    std::vector<Round> m_rounds; //!< rounds of the period
};

} // namespace ns3

#endif /* CLIQUE_SCHEDULE_H */
