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
 * @ingroup wan-training
 * @brief A schedule of rotating cliques: a period of rounds, each a partition
 * of the islands into disjoint cliques.
 *
 * Islands are city indices of a WanTopology.  A clique of one island is a
 * singleton that keeps its own state for the round.  The built-in schedules
 * (pairs, regional, triangles, all-to-all) are built by
 * CliqueScheduleBuiltins (Make, Names), which builds on this class.
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
     * @param name the schedule's name
     * @param rounds the period's rounds
     */
    CliqueSchedule(std::string name, std::vector<Round> rounds);

    /**
     * @brief Loads a schedule file (JSON) and validates it against a topology.
     *
     * Format: {"name": "...", "rounds": [[["NYC", "LAX"], ["BUE"], ...], ...]}:
     * each round a list of cliques, each clique a list of city codes.  An island
     * the file leaves out of a round is an error, not a singleton.
     * @param path the file
     * @param topo the topology whose cities the file names
     * @return the schedule
     */
    static CliqueSchedule LoadFile(const std::string& path, const WanTopology& topo);
    /**
     * @param text a JSON document in the LoadFile format
     * @param topo the topology
     * @return the validated schedule
     */
    static CliqueSchedule FromJson(const std::string& text, const WanTopology& topo);

    /**
     * @brief Checks that every round partitions the topology's islands: each
     * island in exactly one clique, no unknown island, no empty clique.
     * Throws std::invalid_argument naming the round and island otherwise.
     * @param topo the topology
     */
    void Validate(const WanTopology& topo) const;

    /** @return the schedule's name */
    const std::string& GetName() const;
    /** @return the number of rounds in the period */
    uint32_t GetNRounds() const;
    /**
     * @param k round index, taken modulo the period
     * @return the round
     */
    const Round& GetRound(uint32_t k) const;
    /** @return all rounds */
    const std::vector<Round>& GetRounds() const;
    /** @return the number of islands of the largest clique of any round */
    size_t GetLargestClique() const;

    /**
     * @param topo the topology
     * @return e.g. "{NYC,LAX,BUE} {LON,AMS,FRA} | {NYC,LON} ..."
     */
    std::string ToString(const WanTopology& topo) const;
    /**
     * @param topo the topology
     * @return a JSON document that FromJson reads back
     */
    std::string ToJson(const WanTopology& topo) const;

    /**
     * @brief The latency span a clique needs to align all arrivals without
     * FPGA memory: the T - D/r of the clique alone (no contention), computed by
     * the same rule as the round planner.  Used to choose triangles.
     * @param topo the topology
     * @param clique the clique
     * @return seconds
     */
    static double AlignmentSpan(const WanTopology& topo, const Clique& clique);

    /**
     * @brief The groups of islands that a period's cliques connect: two
     * islands are in one group when a chain of cliques of the rounds joins
     * them.  A schedule mixes (its A is finite) when there is one group.
     * @param rounds the period's rounds, each a partition of islands 0..n-1
     * @param n number of islands
     * @return for each island, the smallest island of its group
     */
    static std::vector<uint32_t> Groups(const std::vector<Round>& rounds, uint32_t n);

  private:
    std::string m_name;          //!< name
    std::vector<Round> m_rounds; //!< rounds of the period
};

} // namespace ns3

#endif /* CLIQUE_SCHEDULE_H */
