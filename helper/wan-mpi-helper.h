/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_MPI_HELPER_H
#define WAN_MPI_HELPER_H

#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/wan-rank-balancer.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Distributed runs on ns-3's MPI module: the one place that knows
 * whether this ns-3 was built with MPI (scripts/setup.sh --mpi builds such a
 * tree).
 *
 * The WAN is cut at core links: each city's router, edge node and island run
 * on one rank (Partition), so the conservative synchronisation's lookahead is
 * the smallest delay of a cut link (Lookahead), milliseconds here.  Enable
 * selects ns-3's granted-time-window ("gtw", DistributedSimulatorImpl) or
 * null-message ("null", NullMessageSimulatorImpl) synchroniser and starts
 * MPI; GatherToRoot brings each rank's text to rank 0.  Without MPI in the
 * build, Enable refuses with a one-line error and the rest describes one
 * rank.
 */
class WanMpiHelper
{
  public:
    /** @return true when this ns-3 was built with MPI */
    static bool IsBuiltIn();
    /**
     * @brief Starts MPI and selects the synchroniser.  Call once, before any
     * node is created.
     * @param argc the program's argc
     * @param argv the program's argv
     * @param sync "gtw" (granted time window) or "null" (null messages)
     * @throws std::invalid_argument for another sync, std::runtime_error
     *         without MPI in the build
     */
    static void Enable(int* argc, char*** argv, const std::string& sync);
    /** @brief Ends MPI (after the last simulation); nothing when not enabled. */
    static void Disable();
    /**
     * @brief Call before each distributed simulation creates its nodes (after
     * the previous one's Simulator::Destroy): from the second on it restarts
     * ns-3's MPI interface, whose receive buffers each simulation's end frees,
     * so that one mpiexec runs several simulations.  Nothing without MPI.
     */
    static void PrepareSimulation();
    /** @return the synchroniser Enable selected ("gtw" or "null"; empty before) */
    static std::string GetSynchroniser();
    /** @return true between Enable and Disable */
    static bool IsEnabled();
    /** @return this process's rank (0 when not enabled) */
    static uint32_t GetRank();
    /** @return the number of ranks (1 when not enabled) */
    static uint32_t GetSize();
    /**
     * @param node a node
     * @return true when this process runs it: its system id is this rank
     *         (every node outside a distributed run)
     */
    static bool RunsHere(Ptr<const Node> node);
    /**
     * @param rankOf per city its rank (Partition; empty: one process)
     * @param city a city
     * @return true when this process runs the city
     */
    static bool IsLocal(const std::vector<uint32_t>& rankOf, uint32_t city);

    /**
     * @brief Which rank runs each city.
     * @param topo the topology
     * @param ranks the number of ranks, at least 1
     * @param map "region" (whole regions to ranks, the largest first to the
     *        least loaded, ties by first appearance), "city" (cities in
     *        turn), "balanced" (the least planned work on the busiest rank:
     *        WanRankBalancer, from the region partition, or cities in turn when
     *        there are fewer regions than ranks), or a comma list
     *        CODE:RANK naming every city
     * @param load the run's planned load, which "balanced" needs
     * @return per city its rank
     * @throws std::invalid_argument for a map that names an unknown city, a
     *         rank out of range, leaves a city out or leaves a rank empty,
     *         and for "balanced" without a load
     */
    static std::vector<uint32_t> Partition(const WanTopology& topo,
                                           uint32_t ranks,
                                           const std::string& map,
                                           const WanRankBalancer::Load* load = nullptr);
    /**
     * @param topo the topology
     * @param rankOf per city its rank
     * @return "rank 0 {NYC,LAX} rank 1 {LON}; lookahead 33.47 ms"
     */
    static std::string Describe(const WanTopology& topo, const std::vector<uint32_t>& rankOf);
    /**
     * @param topo the topology
     * @param rankOf per city its rank
     * @return the smallest one-way delay of a core link between two ranks,
     *         seconds (infinity when no link is cut)
     */
    static double Lookahead(const WanTopology& topo, const std::vector<uint32_t>& rankOf);
    /**
     * @brief How long after an event every other rank can hear of it: the
     * largest, over the pairs of ranks a core link joins, of their smallest
     * cut-link delay (each pair's own lookahead, which the null-message
     * synchroniser enforces; granted time windows need only Lookahead).
     * @param topo the topology
     * @param rankOf per city its rank
     * @param sync the synchroniser ("gtw" or "null", as GetSynchroniser)
     * @return the delay (0 with one rank)
     * @throws std::invalid_argument under the null-message synchroniser when
     *         two ranks share no core link (it carries messages between
     *         neighbouring ranks only)
     */
    static Time NoticeDelay(const WanTopology& topo,
                            const std::vector<uint32_t>& rankOf,
                            const std::string& sync);
    /**
     * @brief Sends a packet to a device of another rank, as ns-3's remote
     * channels do (MpiInterface::SendPacket); that device's receive callback
     * (SetReceiveCallback, or its remote channel's) gets it at rxTime.
     * @param packet the packet
     * @param rxTime when it arrives: at least now plus the lookahead towards
     *        the device's rank
     * @param device the device (its node on another rank)
     * @throws std::logic_error without MPI in the build
     */
    static void SendPacket(Ptr<Packet> packet, Time rxTime, Ptr<NetDevice> device);
    /**
     * @brief Hands the packets other ranks send to a device of this rank
     * (SendPacket) to a callback: aggregates an MpiReceiver to it.
     * @param device the device, on a node of this rank
     * @param callback called with each packet, at its arrival time
     * @throws std::logic_error without MPI in the build
     */
    static void SetReceiveCallback(Ptr<NetDevice> device, Callback<void, Ptr<Packet>> callback);
    /**
     * @brief Collective: every rank calls it.
     * @param local this rank's text
     * @return on rank 0 every rank's text, by rank; elsewhere empty
     */
    static std::vector<std::string> GatherToRoot(const std::string& local);
    /**
     * @brief Collective: on rank 0, hands every other rank's text to `merge`,
     * in rank order (GatherToRoot); elsewhere nothing.
     * @param local this rank's text
     * @param merge what rank 0 does with another rank's text
     */
    static void MergeAtRoot(const std::string& local,
                            const std::function<void(const std::string&)>& merge);
    /**
     * @brief Collective: the sum over the ranks, on every rank.
     * @param local this rank's count
     * @return the sum
     */
    static uint64_t Sum(uint64_t local);
};

} // namespace ns3

#endif /* WAN_MPI_HELPER_H */
