/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_SCHEDULE_BUILTINS_H
#define CLIQUE_SCHEDULE_BUILTINS_H

#include "clique-schedule.h"

#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class WanTopology;

/**
 * @ingroup wan-training
 * @brief The built-in schedules, defined from a topology's regions, and the
 * one list of their names that programs, helpers and scripts ask for.
 *
 * Every built-in schedule connects every island over its period (the union
 * of its rounds' cliques is connected) on any connected topology, whatever
 * the sizes of its regions, so its average disagreement A is finite.  A
 * *group* below is a set of islands that the rounds so far connect, directly
 * or through others; after the regional round, the groups are its cliques
 * (on the nine-city topology, the regions).
 *
 * - **pairs**: the minimum spanning tree of the core graph by latency (it
 *   minimises the longest pair), edge-coloured into matchings; one round per
 *   colour, unmatched islands are singletons.  The tree spans every island.
 * - **regional**: round 1, the regions' own cliques (each region split into
 *   triangles, plus a pair or singleton for the remainder, when it has more
 *   than three islands); then gateway rounds until one group is left.  A
 *   gateway round joins every two groups with one pair, the lowest-latency
 *   pair of still unmatched islands, cheapest first; the other islands are
 *   singletons.
 * - **triangles**: round 1, regional triangles as in regional; then
 *   cross-group rounds until one group is left: triangles of three islands
 *   of three different groups (of two when only two groups are left), chosen
 *   to minimise the largest triangle's alignment span, then the sum of spans;
 *   a remainder of one or two islands forms a singleton or pair.
 * - **all-to-all**: one round, one clique of every island.
 *
 * Partitions into triangles are searched exhaustively up to 15 islands, and
 * greedily (smallest span first, then the cheapest pairs of the islands
 * left) beyond, or when no partition of the required triangles exists.
 */
class CliqueScheduleBuiltins
{
  public:
    /** @return the names of the built-in schedules, in the paper's order */
    static std::vector<std::string> Names();
    /**
     * @param separator what goes between two names
     * @return the names joined, e.g. "pairs, regional, triangles, all-to-all"
     *         (for help texts and error messages)
     */
    static std::string JoinedNames(const std::string& separator = ", ");
    /**
     * @param name a schedule name
     * @return true when it names a built-in schedule
     */
    static bool IsBuiltin(const std::string& name);
    /**
     * @return the paper's FPGA memory per receiver, 32 GB (bytes): what a
     *         schedule that needs memory gets where none is named
     */
    static double GetAmpleMemory();
    /**
     * @param name a schedule name (a built-in or a file)
     * @return the FPGA memory, bytes, that programs and scripts give the
     *         schedule where none is named: GetAmpleMemory() for all-to-all
     *         (on the nine cities its rounds need memory to be feasible), 0
     *         for the others and for schedule files
     */
    static double GetDefaultMemory(const std::string& name);
    /**
     * @param text "NAME" or "NAME:GB" (a built-in name or a schedule file)
     * @return the name and the FPGA memory in bytes: GB x 1e9, or
     *         GetDefaultMemory(NAME) without ":GB"; GB outside 0 to 1000
     *         throws std::invalid_argument naming it
     */
    static std::pair<std::string, double> SplitMemory(const std::string& text);
    /**
     * @param name one of Names()
     * @param topo the topology
     * @return that built-in schedule; an unknown name throws
     *         std::invalid_argument listing the built-in names
     */
    static CliqueSchedule Make(const std::string& name, const WanTopology& topo);

    /**
     * @param topo the topology
     * @return the pairs schedule
     */
    static CliqueSchedule Pairs(const WanTopology& topo);
    /**
     * @param topo the topology
     * @return the regional schedule
     */
    static CliqueSchedule Regional(const WanTopology& topo);
    /**
     * @param topo the topology
     * @return the rotating triangles schedule
     */
    static CliqueSchedule Triangles(const WanTopology& topo);
    /**
     * @param topo the topology
     * @return the all-to-all schedule
     */
    static CliqueSchedule AllToAll(const WanTopology& topo);
};

} // namespace ns3

#endif /* CLIQUE_SCHEDULE_BUILTINS_H */
