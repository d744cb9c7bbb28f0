/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_EXPERIMENT_HELPER_H
#define CLIQUE_EXPERIMENT_HELPER_H

#include "ns3/clique-schedule.h"
#include "ns3/round-planner.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief Packet-level measurements of one island in one round.
 */
struct IslandRoundResult
{
    uint32_t city{0};            //!< city index
    double completionMs{0};      //!< from round start to its last contribution (-1: never)
    uint64_t bytesIn{0};         //!< bytes received (scaled back by the scale factor)
    uint64_t bytesOut{0};        //!< bytes sent (likewise)
    uint64_t partialSums{0};     //!< merged packets holding only part of a chunk
    uint64_t retransmissions{0}; //!< resent packets received
    bool exact{false};           //!< received exactly its peers' contributions, each once
    uint64_t expected{0};        //!< peers' contributions expected (peers x chunks)
    uint64_t delivered{0};       //!< contributions received (each once)
    uint64_t late{0};            //!< of which after the deadline, unasked
    uint64_t requested{0};       //!< contributions re-requested from their senders
    uint64_t recovered{0};       //!< re-requested contributions that arrived
    uint64_t givenUp{0};         //!< contributions never received
    uint64_t discarded{0};       //!< sums discarded because they repeated a contribution
};

/**
 * \ingroup wan-training
 * \brief Packet-level measurements of one round.
 */
struct RoundResult
{
    uint32_t round{0};                      //!< round number
    double plannedMs{0};                    //!< the planner's T of this round
    double measuredMs{0};                   //!< slowest island's completion
    std::vector<IslandRoundResult> islands; //!< per city
};

/**
 * \ingroup wan-training
 * \brief Packet-level run of a schedule.
 */
struct ExperimentResult
{
    std::string schedule;                        //!< schedule name
    bool feasible{false};                        //!< the planner found a T
    std::string reason;                          //!< why not
    double plannedMs{0};                         //!< the planner's schedule T
    std::vector<RoundResult> rounds;             //!< per simulated round
    std::map<std::string, uint64_t> evictions;   //!< FPGA evictions by cause
    uint64_t peakSlots{0};                       //!< most HBM slots in use at one FPGA
    double peakHbmBytes{0};                      //!< the same, in bytes
    uint64_t events{0};                          //!< simulator events executed
    bool exact{false};                           //!< every island's sums exact
    std::map<std::string, uint64_t> lostPackets; //!< packets lost: "core", "access", "post"
};

/**
 * \ingroup wan-training
 * \brief Runs a schedule of rotating cliques at packet level.
 *
 * It plans the schedule (RoundPlanner), builds the network (WanNetworkHelper),
 * installs for every round and sender its multicast tree (or, without
 * multicast, unicast copies), an FpgaAggregator on every edge node (unless
 * aggregation is off) and a WanIslandApplication on every island, with each
 * sender's planned offset and clique rate.  Round k starts at
 * k x T x (1 + RoundGuard).  The time-preserving scale divides D and every
 * rate by the same factor (and stretches the FPGA's line-rate window by it),
 * so times stay while the packet count drops.
 */
class CliqueExperimentHelper
{
  public:
    /**
     * \param topo the network
     * \param config the planner's switches (multicast, aggregation, HBM, D, rates)
     */
    CliqueExperimentHelper(const WanTopology& topo, const PlannerConfig& config);

    /** \param factor time-preserving scale, >= 1 (default 1) */
    void SetScale(double factor);
    /** \param rounds rounds to simulate, >= 1 (default: one period) */
    void SetRounds(uint32_t rounds);
    /** \param guard fraction of T added between round starts (default 0.1) */
    void SetRoundGuard(double guard);

    /**
     * \brief Impairs a class of links in the runs that follow (loss and
     * jitter; per-link impairments come with the topology).
     * \param linkClass core, access or post-aggregation links
     * \param impairment loss and jitter; invalid values throw
     */
    void SetImpairment(WanNetworkHelper::LinkClass linkClass, const WanLinkImpairment& impairment);
    /**
     * \param stream first random stream of the loss and jitter models (with
     *        ns-3's RngRun, it makes runs reproducible)
     */
    void SetStream(int64_t stream);
    /**
     * \param policy what islands do at a round's deadline about missing
     *        contributions: "accept" (give them up) or "rerequest" (ask their
     *        senders); see WanIslandApplication
     */
    void SetRecovery(const std::string& policy);
    /**
     * \brief Builds, runs and tears down one simulation.
     * \param schedule the schedule
     * \return the measurements (feasible = false and no rounds when the
     *         planner finds no T)
     */
    ExperimentResult Run(const CliqueSchedule& schedule);

    /**
     * \param result a run's measurements
     * \param topo the topology it ran on (for city codes)
     * \return the measurements as text: per round the planner's and the
     *         measured T, partial sums and retransmissions; per island the
     *         bytes in and out; evictions by cause and peak HBM
     */
    static std::string Format(const ExperimentResult& result, const WanTopology& topo);

  private:
    WanTopology m_topo;               //!< network
    PlannerConfig m_config;           //!< switches
    double m_scale{1};                //!< time-preserving scale
    uint32_t m_rounds{0};             //!< rounds (0: one period)
    double m_guard{0.1};              //!< gap between rounds, fraction of T
    int64_t m_stream{1000};           //!< first random stream of loss and jitter
    std::string m_recovery{"accept"}; //!< islands' recovery policy
    std::map<WanNetworkHelper::LinkClass, WanLinkImpairment> m_impairment; //!< per link class
};

} // namespace ns3

#endif /* CLIQUE_EXPERIMENT_HELPER_H */
