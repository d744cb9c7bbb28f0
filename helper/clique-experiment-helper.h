/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_EXPERIMENT_HELPER_H
#define CLIQUE_EXPERIMENT_HELPER_H

#include "wan-island-helper.h"
#include "wan-network-helper.h"
#include "wan-reconvergence-helper.h"

#include "ns3/application-container.h"
#include "ns3/clique-schedule.h"
#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/round-planner.h"
#include "ns3/wan-experiment-plan.h"
#include "ns3/wan-measured-mixing.h"
#include "ns3/wan-round-counters.h"
#include "ns3/wan-topology.h"

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class WanRoundRecorder;

/**
 * @ingroup wan-training
 * @brief Packet-level measurements of one island in one round: its counters
 * (bytes scaled back by the scale factor), when it completed, whether its
 * sum is exact and what became of the chunks it lacked.
 */
struct WanIslandRoundResult : WanRoundCounters
{
    uint32_t city{0};                   //!< city index
    double completionMs{0};             //!< from round start to its last contribution (-1: never)
    bool exact{false};                  //!< received exactly its peers' contributions, each once
    std::set<uint32_t> lateChunks;      //!< chunks with a contribution after the deadline
    std::set<uint32_t> requestedChunks; //!< chunks with a re-requested contribution
    std::set<uint32_t> givenUpChunks;   //!< chunks still lacking a contribution
    double mixedMs{0}; //!< from round start to when it averaged: its completion, or when it
                       //!< gave the rest up (-1: never)
    std::map<uint32_t, uint32_t> held; //!< per clique member (city), the chunks holding its
                                       //!< contribution (itself: every chunk)
    std::map<uint32_t, double> mixing; //!< its row of the realised mixing matrix, per member
};

/**
 * @ingroup wan-training
 * @brief Packet-level measurements of one round.
 */
struct WanRoundResult
{
    bool failed{false};                //!< not run (a link was down and the policy is "fail")
    std::string note;                  //!< what changed: re-planned without a link, an island away
    std::vector<std::string> warnings; //!< the planner's (RoundPlan::warnings)
    uint64_t faultLinkPackets{0};      //!< packets sent on the faulted links during the round
    uint64_t faultLinkLost{0};         //!< of those (and any arriving), packets the links lost
    std::map<WanHop, uint64_t> corePackets; //!< packets each core link direction sent (all of them)
    std::map<WanHop, uint64_t> coreBytes;   //!< their bytes (IP and PPP headers included,
                                            //!< multiplied back by the scale)
    std::map<WanHop, uint64_t> corePeakQueueBytes; //!< most bytes waiting to be sent on each
                                                   //!< core link direction (queue disc and
                                                   //!< device queue, multiplied back by the scale)
    std::map<WanHop, double> corePeakQueueMs;      //!< the same, as time to send at the link's rate
    std::map<WanHop, uint64_t> coreQueueDrops;     //!< packets each core link direction's queues
                                                   //!< dropped (queue full, or CoDel)
    std::map<WanHop, uint64_t> coreLost; //!< packets each direction lost on the link (its loss
                                         //!< model, or broken)
    std::map<std::string, uint64_t> evictions; //!< FPGA evictions of this round's chunks
    double idleMs{0};     //!< GPU idle time added: measured minus planned T (>= 0)
    uint32_t round{0};    //!< round number
    double plannedMs{0};  //!< the planner's T of this round
    double scaleLagMs{0}; //!< what the run's scale adds to this round's T
                          //!< (WanExperimentPlanner::ScaleLag)
    double measuredMs{0}; //!< slowest island's completion
    double mixedMs{0};    //!< slowest island's mixedMs: the round's measured T for J
    std::vector<WanIslandRoundResult> islands; //!< per city
    WanMatrix mixing; //!< realised mixing matrix (WanMeasuredMixing; islands that did not mix
                      //!< keep their state)
};

/**
 * @ingroup wan-training
 * @brief Packet-level run of a schedule.
 */
/**
 * @ingroup wan-training
 * @brief A link fault as the network handled it (SetFaultDetection "bfd"):
 * when it happened, when BFD declared it, when the unicast routes changed and
 * from which round the schedule was re-planned.
 */
struct WanRouteChangeResult
{
    std::string link;          //!< "NYC-LON"
    bool up{false};            //!< the link came back (false: it failed)
    double eventS{0};          //!< when the link broke or was mended, seconds
    double detectedS{0};       //!< when BFD declared it, seconds
    double convergedS{0};      //!< when the routes changed (the notification), seconds
    int64_t replannedFrom{-1}; //!< first round re-planned (-1: none was left)
    double resumedS{-1};       //!< when that round starts: trees on the new routes (-1: none)
    double joinedS{-1}; //!< when PIM-SSM joins would have moved that round's trees to the new
                        //!< routes (WanPimState, hop by hop at the links' delays; -1: none)
};

/**
 * @ingroup wan-training
 * @brief An FPGA failure as the edge detected it (SetFaultDetection "bfd"):
 * its heartbeats stopped, and after the watchdog's misses its edge bypasses it.
 */
struct WanFpgaFailureResult
{
    std::string city;    //!< the FPGA's city code
    double failedS{0};   //!< when it failed, seconds
    double detectedS{0}; //!< when the watchdog declared it and the edge bypassed it, seconds
};

struct WanExperimentResult
{
    std::string schedule;     //!< schedule name
    bool feasible{false};     //!< the planner found a T
    std::string reason;       //!< why not
    double plannedMs{0};      //!< the planner's schedule T
    double scaleLagMs{0};     //!< the most the run's scale adds to a round's T (its frames
                              //!< store and forward the scale times longer)
    std::string scaleWarning; //!< how the scale changes what the run measures
                              //!< (WanScaleCheck; "" when it does not)
    std::vector<WanRoundResult> rounds;          //!< per simulated round
    std::map<std::string, uint64_t> evictions;   //!< FPGA evictions by cause
    uint64_t peakSlots{0};                       //!< most HBM slots in use at one FPGA
    double peakHbmBytes{0};                      //!< the same, in bytes
    uint64_t events{0};                          //!< simulator events executed
    bool exact{false};                           //!< every island's sums exact
    std::map<std::string, uint64_t> lostPackets; //!< packets lost: "core", "access", "post"
    double disagreement{0}; //!< A of the rounds run (as one period): absences and failures count
    double disagreementMeasured{0}; //!< A of the realised mixing matrices of the rounds run
    double consensusSkew{0};        //!< how unevenly their consensus weighs the islands
                                    //!< (MixingAnalysis::GetConsensusSkew; 0 without loss)
    double mixedMs{0};              //!< measured T: the slowest round's mixedMs
    double objective{0};            //!< J planned: plannedMs x disagreement (ms-error)
    double objectiveMeasured{0};    //!< J measured: mixedMs x disagreementMeasured
    std::vector<WanRouteChangeResult> routeChanges; //!< detected faults (SetFaultDetection)
    std::vector<WanFpgaFailureResult> fpgaFailures; //!< detected FPGA failures (likewise)
    uint64_t controlPackets{0}; //!< control-plane packets sent (BFD, with fault detection)
    uint64_t controlBytes{0};   //!< their bytes (UDP payload)
    uint64_t pimPackets{0};     //!< PIM messages sent (SetTreeBuilding "pim")
    uint64_t pimBytes{0};       //!< their bytes (IP payload)
    double pimJoinMs{-1};  //!< longest time from a round's joins to its last tree built (-1: none)
    double pimSlackMs{-1}; //!< least time from a tree built to its round's start (-1: none)
};

/**
 * @ingroup wan-training
 * @brief Runs a schedule of rotating cliques at packet level.
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
     * @param topo the network
     * @param config the planner's switches (multicast, aggregation, HBM, D, rates)
     */
    CliqueExperimentHelper(const WanTopology& topo, const PlannerConfig& config);

    /** @param factor time-preserving scale, >= 1 (default 1) */
    void SetScale(double factor);
    /** @param rounds rounds to simulate, >= 1 (default: one period) */
    void SetRounds(uint32_t rounds);
    /** @param guard fraction of T added between round starts (default 0.1) */
    void SetRoundGuard(double guard);

    /**
     * @brief Impairs a class of links in the runs that follow (loss and
     * jitter; per-link impairments come with the topology).
     * @param linkClass core, access or post-aggregation links
     * @param impairment loss and jitter; invalid values throw
     */
    void SetImpairment(WanNetworkHelper::LinkClass linkClass, const WanLinkImpairment& impairment);
    /**
     * @param stream first random stream of the loss and jitter models (with
     *        ns-3's RngRun, it makes runs reproducible)
     */
    void SetStream(int64_t stream);
    /**
     * @param wallSeconds print the simulated time, the rounds done and the
     *        events so far on standard error at most this often (wall-clock
     *        seconds) while a run lasts; 0 (the default): never
     */
    void SetProgress(double wallSeconds);
    /**
     * @brief Background traffic on every core link direction in the runs
     * that follow: bursts at the link's rate (ns-3's OnOffApplication, on
     * and off times exponential) from the router at one end to the router
     * at the other, through the same queues as the training streams, from
     * the first round's start to the last round's deadline.
     * @param utilisation mean share of each direction's capacity, [0, 1)
     *        (0, the default: none)
     * @param packetBytes bytes of each packet (IP payload: UDP header and
     *        data), 64 to 8972
     * @param burstPackets mean packets per burst, >= 1
     */
    void SetCrossTraffic(double utilisation, uint32_t packetBytes = 1472, double burstPackets = 10);
    /**
     * @param kind the queue disc of the core links, "fq-codel" (default) or
     *        "fifo" (see WanNetworkHelper::SetCoreQueue)
     * @param packets the FIFO's size in packets
     */
    void SetCoreQueue(const std::string& kind, uint32_t packets = 1000);
    /**
     * @param policy what islands do about missing contributions: "accept"
     *        (give them up at the deadline), "rerequest" (ask their senders at
     *        the deadline), "early" (ask for each chunk once it is overdue
     *        by the plan), "coded" (parity chunks, SetParity, rebuild what
     *        they can; re-requests at the deadline for the rest) or
     *        "coded+early" (parity, then early requests for what it cannot
     *        rebuild); see WanIslandApplication
     */
    void SetRecovery(const std::string& policy);
    /**
     * @param policy a recovery policy (SetRecovery)
     * @return the repair policy under it: "rerequest" for "coded", "early"
     *         for "coded+early", the policy itself otherwise
     */
    static std::string RepairPolicy(const std::string& policy);
    /**
     * @brief The parity layout of the coded policies (WanParityCode).
     * @param block data chunks per block, >= 1 (default 32)
     * @param parities parity chunks per block, 1 to block (default 1)
     */
    void SetParity(uint32_t block, uint32_t parities);
    /**
     * @brief Writes packet traces of the runs that follow: pcap files and
     * ns-3 ASCII traces of the selected devices, named prefix-<node>-<device>
     * .pcap and .tr (see WanNetworkHelper::EnablePcap).  Every run writes the
     * same names: give each run its own prefixes.
     * @param pcapPrefix prefix of the pcap files, with its folder (empty: none)
     * @param asciiPrefix prefix of the ASCII traces (empty: none)
     * @param selection comma list of link classes (core, access, post) and
     *        city codes; checked now, as are the prefixes' folders
     */
    void EnablePacketTraces(const std::string& pcapPrefix,
                            const std::string& asciiPrefix,
                            const std::string& selection);
    /**
     * @brief A core link goes down and comes back.  Rounds that overlap the
     * outage are re-planned without it (multicast trees and rates) or marked
     * failed, as SetFaultPolicy says; unicast routes are recomputed at both
     * instants.
     * @param a code of one end
     * @param b code of the other
     * @param downSeconds when it goes down (simulation time)
     * @param upSeconds when it comes back (later)
     */
    void AddLinkFault(const std::string& a,
                      const std::string& b,
                      double downSeconds,
                      double upSeconds);
    /** @param policy "replan" (default) or "fail": what a link fault does to its rounds */
    void SetFaultPolicy(const std::string& policy);
    /**
     * @brief How link faults reach the schedule.
     * @param mode "oracle" (default): the rounds that overlap an outage are
     *        planned around it in advance (SetFaultPolicy); "bfd": a fault is
     *        only a network event, no component knows it in advance.  The
     *        link loses every packet from its down time
     *        (WanNetworkHelper::SetLinkBroken); BFD sessions on every core
     *        link (SetBfd) declare it down, WanReconvergenceHelper reroutes
     *        unicast after the flooding and SPF delays and notifies the
     *        experiment, which re-plans every round that starts after the
     *        notification around the link (trees moved, islands' rounds
     *        re-planned); the rounds in flight lose what was on the link and
     *        recover by the recovery policy.  When the link is mended and BFD
     *        brings it back, the rounds after that notification use it again.
     */
    void SetFaultDetection(const std::string& mode);
    /**
     * @brief How the routers' multicast state comes about.
     * @param mode "planner" (default): the helper installs each round's
     *        trees as static routes from the planner's trees
     *        (WanNetworkHelper::InstallMulticastTree); "pim": PIM-SSM builds
     *        them (WanPimRouter on every router, WanPimHelper): each receiving
     *        island's edge joins (S,G) for the senders of its clique of round
     *        k+1 when round k starts (make before break) and leaves round
     *        k-1's at round k+1's start; round 0's trees are joined when the
     *        run starts, the network having converged (WanPimHelper::Converge).
     *        With SetFaultDetection "bfd", PIM moves the trees itself when
     *        routes change (Join on the new RPF neighbour, Prune on the old)
     *        and a BFD session going down takes its PIM neighbour's state
     *        away.  PIM's timers are WanPimRouter's attributes (Config::SetDefault).
     */
    void SetTreeBuilding(const std::string& mode);
    /**
     * @brief Distributed runs (a program under mpiexec that called
     * WanMpiHelper::Enable): which rank runs each city
     * (WanMpiHelper::Partition).  Each rank runs the routers, edge nodes,
     * FPGAs and islands of its cities; Run gathers every rank's records to
     * rank 0, whose result is the whole run's (the same round times, counts
     * and sums as one process; events summed over the ranks); the other
     * ranks' results hold their own cities only.  Jitter on a cut core link
     * is drawn on the sending rank (WanJitterChannel); packet traces are
     * written by the rank that runs each device (the same files, split across
     * the ranks); detected faults tell every rank of each BFD session change
     * (WanReconvergenceHelper::Distribute), so routes change at the same
     * instants; with PIM trees each rank runs its own routers' PIM.  Each
     * Run is one simulation; a program may run several under one mpiexec
     * (WanMpiHelper::PrepareSimulation).
     * @param map "region" (default), "city", "balanced" (from each run's
     *        plan: WanRankBalancer) or CODE:RANK for every city
     */
    void SetPartition(const std::string& map);
    /**
     * @return per city the rank that ran it in the last distributed Run
     *         (empty after a run in one process)
     */
    const std::vector<uint32_t>& GetRankOf() const;
    /**
     * @param interval BFD's transmit and receive interval (DesiredMinTx and
     *        RequiredMinRx), 1 ms to 10 s (default 10 ms)
     * @param multiplier its detect multiplier, 1 to 255 (default 3)
     */
    void SetBfd(Time interval, uint32_t multiplier);
    /**
     * @brief The edge FPGA of a city fails: what its slots held is lost, and
     * its edge node passes the multicast streams on to the island unaggregated
     * (the bypass).  Lost contributions need Recovery "rerequest".
     * @param city the city code
     * @param atSeconds when (simulation time)
     */
    void AddFpgaFault(const std::string& city, double atSeconds);
    /**
     * @brief An island leaves for some rounds and rejoins: its cliques run
     * without it (re-planned) and it keeps its own state meanwhile.
     * @param city the city code
     * @param firstRound first round away
     * @param lastRound last round away
     */
    void AddIslandAbsence(const std::string& city, uint32_t firstRound, uint32_t lastRound);
    /**
     * @brief Builds, runs and tears down one simulation.
     * @param schedule the schedule
     * @return the measurements (feasible = false and no rounds when the
     *         planner finds no T)
     */
    WanExperimentResult Run(const CliqueSchedule& schedule);

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

    /// What one core link direction did in one round.
    struct CoreLinkRound
    {
        uint64_t packets{0};        //!< packets it started to send
        uint64_t bytes{0};          //!< their bytes (as simulated)
        uint64_t peakQueueBytes{0}; //!< most bytes waiting (queue disc and device queue)
        uint64_t queueDrops{0};     //!< packets its queues dropped
        uint64_t lost{0};           //!< packets lost on the link (loss model, or broken)
    };

    /// The bytes waiting on a core link direction now.
    struct CoreQueue
    {
        DataRate rate;           //!< the link's rate (as simulated)
        uint64_t discBytes{0};   //!< in its queue disc
        uint64_t deviceBytes{0}; //!< in its device's queue
        Time since;              //!< when they last changed
    };

    /// What each core link direction did, per round, and its queue now.
    struct CoreLinkCounts
    {
        std::vector<Time> roundEnds; //!< when each round's window ends
        std::vector<std::map<WanHop, CoreLinkRound>>
            perRound;                       //!< per round (and one after the last)
        std::map<WanHop, CoreQueue> queues; //!< the queues now
    };

  private:
    /// A multicast group of one round: its source and members.
    struct Group
    {
        uint32_t source;               //!< sending city
        Ipv4Address group;             //!< group address
        std::vector<uint32_t> members; //!< the clique
    };

    /// Sets up and installs the network (scale, impairments, streams).
    void BuildNetwork(WanNetworkHelper& net) const;
    /// Enables the packet traces asked for on a built network.
    void EnableTraces(const WanNetworkHelper& net) const;
    /// @return one island application per city
    ApplicationContainer InstallIslands(const WanNetworkHelper& net) const;
    /// @return one FPGA aggregator per city (none without aggregation)
    ApplicationContainer InstallFpgas(const WanNetworkHelper& net,
                                      const WanExperimentPlan& plan) const;
    /// @return true when this process runs city c (every city without ranks)
    bool IsLocal(uint32_t c) const;
    /**
     * @brief Gives every island its rounds and installs the multicast trees.
     * @return the multicast groups
     */
    std::vector<Group> AddRounds(WanNetworkHelper& net,
                                 const WanExperimentPlan& plan,
                                 const ApplicationContainer& islands) const;

    /// Trees built by PIM (SetTreeBuilding "pim"): membership and its timing.
    struct PimTrees
    {
        /// One local membership: a receiving city in (S,G).
        struct Member
        {
            uint32_t city{0};   //!< the receiving city
            Ipv4Address source; //!< S: the sender's island
            Ipv4Address group;  //!< G
        };

        const WanExperimentPlan* plan{nullptr};         //!< the plan being run
        const WanNetworkHelper* net{nullptr};           //!< the network
        ApplicationContainer routers;                   //!< WanPimRouter per city
        ApplicationContainer localRouters;              //!< those this rank runs
        bool converged{false};                          //!< the run's start converged
        std::map<uint32_t, std::vector<Member>> joined; //!< round -> memberships made
        std::map<uint32_t, double> joinedAt;            //!< round -> when they were made
        std::map<Ipv4Address, double> ready;            //!< group -> last branch joined
        std::set<Ipv4Address> left;                     //!< groups left (their rounds over)
        std::map<std::pair<uint32_t, Ipv4Address>, uint32_t> outputs; //!< (city, G) -> branches
        EventId next;                                                 //!< next membership change
        uint32_t nextRound{0};                                        //!< the round it is for
        std::vector<WanRouteChangeResult>* changes{nullptr};          //!< route changes reported
        int64_t change{-1};                                           //!< the one whose trees move
        std::set<Ipv4Address> moving; //!< groups joined, not left, at that change
    };

    /**
     * @brief Gives the islands one round of the plan (AddRound, or
     * ReplaceRound for a re-planned one, whose trees move) and installs its
     * multicast trees.
     * @return the round's groups
     */
    std::vector<Group> InstallRound(WanNetworkHelper& net,
                                    const WanPlannedRound& round,
                                    const ApplicationContainer& islands,
                                    bool replace) const;

    /// What a run with detected faults needs when the network reports a change.
    struct Detection
    {
        WanNetworkHelper* net{nullptr};                 //!< the network
        const WanExperimentPlanner* planner{nullptr};   //!< plans without the faults
        WanExperimentPlan* plan{nullptr};               //!< the plan being run
        const CliqueSchedule* schedule{nullptr};        //!< its schedule
        ApplicationContainer islands;                   //!< the islands
        ApplicationContainer fpgas;                     //!< the FPGAs (their slot lifetime)
        CoreLinkCounts* coreLinks{nullptr};             //!< their round windows move too
        std::set<std::pair<uint32_t, uint32_t>> down;   //!< links the network reported down
        std::vector<WanRouteChangeResult> changes;      //!< as reported
        std::vector<Group> groups;                      //!< every group installed
        std::vector<uint64_t> heartbeats;               //!< per city: FPGA heartbeats seen
        std::set<uint32_t> bypassed;                    //!< cities whose FPGA is bypassed
        std::vector<WanFpgaFailureResult> fpgaFailures; //!< as detected
        PimTrees* pim{nullptr};                         //!< the PIM routers (SetTreeBuilding)
    };

    /// Joins round k's trees at its receivers' routers.
    static void JoinRound(PimTrees* trees, uint32_t k);
    /// At round k's start: joins round k+1's trees, leaves round k-2's.
    static void PimMembership(PimTrees* trees, uint32_t k);
    /// Schedules the next membership change at its round's (re-planned) start.
    static void ScheduleMembership(PimTrees* trees);
    /// A PIM router changed a multicast route: times tree building and moves.
    static void PimForwarding(PimTrees* trees,
                              uint32_t city,
                              Ipv4Address source,
                              Ipv4Address group,
                              uint32_t input,
                              uint32_t outputs);

    /**
     * @brief The edge's watchdog of one FPGA: every BFD interval it checks for
     * a heartbeat; after the detect multiplier's worth of misses it bypasses
     * the FPGA for every group its island receives.
     */
    void WatchFpga(Detection* detection, uint32_t city, uint64_t seen, uint32_t misses) const;
    /**
     * @brief Bypasses a city's FPGA for every group its island receives.
     * @param net the network
     * @param city the city
     * @param groups the groups installed (a copy: it may run as an event)
     */
    static void Bypass(WanNetworkHelper* net, uint32_t city, std::vector<Group> groups);
    /// Re-plans the rounds after a change the network reported.
    void RouteChanged(Detection* detection, const WanReconvergenceHelper::Change& change) const;
    /// Stops the run once the (possibly re-planned) last round and its repairs are over.
    void StopWhenDone(const WanExperimentPlan* plan, Time slack) const;
    /// @return this rank's core link counts as text, for MergeCoreLinks on rank 0
    static std::string SaveCoreLinks(const CoreLinkCounts& counts);
    /// Adds another rank's core link counts (SaveCoreLinks) to these.
    static void MergeCoreLinks(const std::string& saved, CoreLinkCounts& counts);
    /// @return when this rank's routers built and moved the trees, as text for MergePimTimes
    static std::string SavePimTimes(const PimTrees& trees,
                                    const std::vector<WanRouteChangeResult>& changes);
    /// Takes another rank's tree times (SavePimTimes) where they are later.
    static void MergePimTimes(const std::string& saved,
                              PimTrees& trees,
                              std::vector<WanRouteChangeResult>& changes);
    /// @return this rank's detected FPGA failures as text, for MergeFpgaFailures on rank 0
    static std::string SaveFpgaFailures(const std::vector<WanFpgaFailureResult>& failures);
    /// Adds another rank's FPGA failures (SaveFpgaFailures), keeping detection order.
    static void MergeFpgaFailures(const std::string& saved,
                                  std::vector<WanFpgaFailureResult>& failures);
    /// Installs the background traffic of SetCrossTraffic on every core link direction.
    void InstallCrossTraffic(const WanNetworkHelper& net, const WanExperimentPlan& plan) const;
    /// Counts what every core link direction sends, per round.
    void WatchCoreLinks(const WanNetworkHelper& net, CoreLinkCounts& counts) const;
    /// Schedules the link and FPGA faults.
    void ScheduleFaults(WanNetworkHelper& net,
                        const std::vector<Group>& groups,
                        const ApplicationContainer& fpgas) const;
    /**
     * @brief Prints the progress of a run when the interval has passed, and
     * checks again a hundredth of a round period later.
     * @param plan the run's plan
     * @param end when the run stops
     * @param last when progress was printed last (wall clock)
     */
    void ReportProgress(const WanExperimentPlan* plan,
                        Time end,
                        std::chrono::steady_clock::time_point last) const;
    /// Runs the simulator until every round (and its repairs) is over.
    void Simulate(const WanExperimentPlan& plan, const ApplicationContainer& islands) const;
    /// @return how long after the last round's deadline the run goes on (its repairs)
    Time RepairRoom(const ApplicationContainer& islands) const;
    /// Fills the per-round results from what the islands reported.
    void Collect(const WanExperimentPlan& plan,
                 const WanRoundRecorder& recorder,
                 const CoreLinkCounts& coreLinks,
                 WanExperimentResult& result) const;
    /// Fills evictions and peak memory from what the FPGAs reported.
    void CollectFpgas(const WanRoundRecorder& recorder,
                      const ApplicationContainer& fpgas,
                      WanExperimentResult& result) const;

    WanExperimentPlanner m_planner;       //!< network, switches, rounds, faults, absences
    WanIslandHelper m_islands;            //!< the islands' attributes
    double m_scale{1};                    //!< time-preserving scale
    int64_t m_stream{1000};               //!< first random stream of loss and jitter
    double m_progressSeconds{0};          //!< wall-clock interval of progress reports (0: none)
    mutable uint64_t m_progressEvents{0}; //!< events of the progress reports in this run
    std::string m_recovery{"accept"};     //!< islands' recovery policy (without parity)
    bool m_detectFaults{false};           //!< faults are network events (SetFaultDetection)
    bool m_pim{false};                    //!< trees built by PIM-SSM (SetTreeBuilding)
    std::string m_partition{"region"};    //!< cities to ranks (SetPartition)
    std::vector<uint32_t> m_rankOf;       //!< per city its rank, in a distributed run (Run)
    Time m_bfdInterval{MilliSeconds(10)}; //!< BFD interval
    uint32_t m_bfdMultiplier{3};          //!< BFD detect multiplier
    bool m_coded{false};                  //!< the policy adds parity chunks
    uint32_t m_parityBlock{32};           //!< data chunks per parity block (coded)
    uint32_t m_parityChunks{1};           //!< parity chunks per block (coded)
    double m_crossUtilisation{0};         //!< background share of each core direction
    uint32_t m_crossPacketBytes{1472};    //!< background packet size (UDP payload + header)
    double m_crossBurstPackets{10};       //!< mean packets per background burst
    std::string m_coreQueue{"fq-codel"};  //!< queue disc of the core links
    uint32_t m_coreQueuePackets{1000};    //!< its size, when a FIFO
    std::string m_pcapPrefix;             //!< pcap file prefix (empty: none)
    std::string m_asciiPrefix;            //!< ASCII trace prefix (empty: none)
    WanNetworkHelper::TraceSelection m_traced;                             //!< the devices traced
    std::vector<std::pair<uint32_t, double>> m_fpgaFaults;                 //!< (city, time)
    std::map<WanNetworkHelper::LinkClass, WanLinkImpairment> m_impairment; //!< per link class
};

} // namespace ns3

#endif /* CLIQUE_EXPERIMENT_HELPER_H */
