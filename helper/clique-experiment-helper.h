/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CLIQUE_EXPERIMENT_HELPER_H
#define CLIQUE_EXPERIMENT_HELPER_H

#include "wan-cross-traffic-helper.h"
#include "wan-experiment-result.h"
#include "wan-island-helper.h"
#include "wan-network-helper.h"
#include "wan-packet-trace-helper.h"
#include "wan-parity-policy.h"
#include "wan-tcp-cross-traffic-helper.h"

#include "ns3/application-container.h"
#include "ns3/clique-schedule.h"
#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/object-base.h"
#include "ns3/round-planner.h"
#include "ns3/wan-bfd-application.h"
#include "ns3/wan-experiment-plan.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

class WanCoreLinkMonitor;
class WanExperimentReplanner;
class WanPimMembership;
class WanRoundRecorder;

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
 *
 * Its modes are attributes (FaultDetection, TreeBuilding, Recovery), so that
 * Config::SetDefault and the command line (--ns3::CliqueExperimentHelper::
 * FaultDetection=bfd) set them as any ns-3 attribute, and their names are
 * listed once, in their checkers; the setters below take the same names.
 */
class CliqueExperimentHelper : public ObjectBase
{
  public:
    /// How link faults reach the schedule (attribute FaultDetection).
    enum FaultDetection
    {
        ORACLE, //!< planned around in advance (SetFaultPolicy)
        BFD     //!< network events only, detected by BFD
    };

    /// How the routers' multicast state comes about (attribute TreeBuilding).
    enum TreeBuilding
    {
        PLANNER, //!< the planner's trees, installed as static routes
        PIM      //!< PIM-SSM joins and prunes on the wire
    };

    /// What islands do about missing contributions (attribute Recovery).
    enum Recovery
    {
        ACCEPT,      //!< give them up at the deadline
        REREQUEST,   //!< ask their senders at the deadline
        EARLY,       //!< ask for each chunk once it is overdue by the plan
        CODED,       //!< parity chunks, then re-requests at the deadline
        CODED_EARLY, //!< parity chunks, then early requests
        BEST         //!< the best the configuration allows (WanBestRecovery)
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

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
     * @brief Elastic background traffic on every core link direction in the
     * runs that follow (WanTcpCrossTrafficHelper): long TCP bulk connections
     * from the router at one end to the router at the other, from time 0 to
     * the last round's deadline, beside the UDP bursts of SetCrossTraffic or
     * instead of them. What they delivered is the result's crossTcpBytes.
     * @param flows connections per core link direction, 0 to 64 (0, the
     *        default: none)
     * @param congestion their congestion control, a TcpCongestionOps's name
     *        (ns3::TcpCubic, ns3::TcpBbr, ns3::TcpNewReno, ...)
     * @throws std::invalid_argument naming a value out of range or a type
     *         that is not a congestion control
     */
    void SetTcpCrossTraffic(uint32_t flows, const std::string& congestion = "ns3::TcpCubic");
    /**
     * @param kind the queue disc of the core links, "fq-codel" or "fifo"
     *        (WanNetworkHelper's CoreQueue attribute, whose default applies
     *        until this is called)
     * @param packets the FIFO's size in packets
     */
    void SetCoreQueue(const std::string& kind, uint32_t packets);
    /// @param kind the queue disc of the core links, with the network's FIFO size
    void SetCoreQueue(const std::string& kind);
    /**
     * @brief Sets the Recovery attribute by name.
     * @param policy what islands do about missing contributions: "accept"
     *        (give them up at the deadline), "rerequest" (ask their senders at
     *        the deadline), "early" (ask for each chunk once it is overdue
     *        by the plan), "coded" (parity chunks, SetParity, rebuild what
     *        they can; re-requests at the deadline for the rest) or
     *        "coded+early" (parity, then early requests for what it cannot
     *        rebuild), or "best" (the default: the best the FPGAs allow,
     *        WanBestRecovery: coded+early sized in band with its own
     *        layout, decoded at the FPGA with memory, at the island
     *        without; without FPGAs, early); see WanIslandApplication
     */
    void SetRecovery(const std::string& policy);
    /**
     * @param policy a recovery policy (SetRecovery)
     * @return the repair policy under it: "rerequest" for "coded", "early"
     *         for "coded+early" and "best", the policy itself otherwise
     */
    static std::string RepairPolicy(const std::string& policy);
    /**
     * @param policy a recovery policy
     * @return the islands' repair policy under it (REREQUEST for CODED,
     *         EARLY for CODED_EARLY and BEST)
     */
    static WanIslandApplication::Recovery RepairOf(Recovery policy);
    /**
     * @param policy a name of the Recovery attribute
     * @return its value; an unknown name throws std::invalid_argument
     *         listing the names
     */
    static Recovery RecoveryOf(const std::string& policy);
    /**
     * @param policy a name of the Recovery attribute
     * @return true when it adds parity chunks laid out by SetParity (coded,
     *         coded+early; "best" lays out its own)
     */
    static bool IsCoded(const std::string& policy);
    /**
     * @param policy a name of the Recovery attribute
     * @return true when it asks for missing contributions (all but accept)
     */
    static bool Repairs(const std::string& policy);

    /**
     * @brief A quorum: islands average what they hold at a round's deadline
     * while their recovery goes on (WanIslandApplication's
     * AverageAtDeadline); what it brings later is received, not averaged
     * (WanRoundResult::mixingReceived, which WanTrainingLoop's quorum
     * carries to the next round).  With recovery "accept" it changes
     * nothing: such islands average at the deadline anyway.
     * @param quorum true: average at the deadline (default false: when
     *        complete or given up)
     */
    void SetAverageAtDeadline(bool quorum)
    {
        m_averageAtDeadline = quorum;
    }

    /**
     * @brief The parity layout of the coded policies (WanParityCode).
     * @param block data chunks per block, 1 to 255 (default: the island's ParityBlock, 32)
     * @param parities parity chunks per block, 1 to block (default 1)
     */
    void SetParity(uint32_t block, uint32_t parities);
    /**
     * @brief Where the coded policies' parity is decoded.
     * @param where "island" (default): end to end, by each island over the
     *        FPGA's sums, so a chunk is an erasure when any sender's copy is
     *        lost; "fpga": also per sender's stream at the receiving FPGA
     *        before it sums (FpgaStreamDecoder), so that the code faces one
     *        path's losses, then by the island for what is left.  "fpga"
     *        needs HBM (hbmBytes > 0; refused otherwise).
     * @param hbmShare with "fpga", the share of each FPGA's HBM that holds
     *        copies of the blocks it decodes (its slot table keeps the
     *        rest), above 0 and below 1 (default 0.5)
     */
    void SetParityDecoding(const std::string& where, double hbmShare = 0.5);
    /**
     * @brief Sizes the coded policies' parity per round and stream from the
     * loss measured where it is decoded: decoded at the FPGA, each FPGA
     * REPORTs every block's losses to the stream's sender; at the island,
     * each island REPORTs to its peers the block's chunks lacking a
     * contribution (the erasures of the sums it decodes); a sender sends
     * the least parity rows that keep a block's failure
     * probability at epsilon for its worst receiver's rate over the last
     * `window` rounds (WanLossEstimator); SetParity's parities are the most
     * it sends (all of them until reports come).
     * @param epsilon the block failure probability, above 0 and at most 0.5
     *        (0: not sized)
     * @param window rounds of reports counted, at least 1
     * @param confidence of each receiver's Wilson interval, whose upper end
     *        is its rate: 0 (the rate it measured) to below 1
     */
    void SetParitySizing(double epsilon, uint32_t window = 2, double confidence = 0.95);
    /**
     * @brief Writes packet traces of the runs that follow: pcap files and
     * ns-3 ASCII traces of the selected devices, named prefix-<node>-<device>
     * .pcap and .tr (see WanPacketTraceHelper::EnablePcap).  Every run writes the
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
     * @brief How link faults reach the schedule: sets the FaultDetection
     * attribute by name.
     * @param mode "bfd" (default): a fault is only a network event, no
     *        component knows it in advance; "oracle" (a comparison): the
     *        rounds that overlap an outage are planned around it in advance
     *        (SetFaultPolicy).  With "bfd" the
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
     * @brief How the routers' multicast state comes about: sets the
     * TreeBuilding attribute by name.
     * @param mode "planner" (a comparison): the helper installs each round's
     *        trees as static routes from the planner's trees
     *        (WanMulticastRouteHelper::InstallTree); "pim" (default): PIM-SSM builds
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
     *        RequiredMinRx), 1 ms to 10 s (default: DesiredMinTx's, 10 ms)
     * @param multiplier its detect multiplier, 1 to 255 (default: DetectMultiplier's, 3)
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

  private:
    /// @return the run's result as planned (infeasible: why), before it runs
    WanExperimentResult Planned(const WanExperimentPlan& plan) const;
    /// In a distributed run: which rank runs each city (m_rankOf), given to the network.
    void Partition(const WanExperimentPlan& plan, WanNetworkHelper& net);
    /// Sets up and installs the network (scale, impairments, streams).
    void BuildNetwork(WanNetworkHelper& net) const;
    /// Enables the packet traces asked for on a built network.
    void EnableTraces(const WanNetworkHelper& net) const;
    /// @return one island application per city
    ApplicationContainer InstallIslands(const WanNetworkHelper& net) const;
    /// @return one FPGA aggregator per city (none without aggregation)
    ApplicationContainer InstallFpgas(const WanNetworkHelper& net,
                                      const WanExperimentPlan& plan) const;
    /// @return the largest jitter (standard deviation, s) on any link: a class's or a link's own
    double LargestJitter() const;
    /// @return true when this process runs city c (every city without ranks)
    bool IsLocal(uint32_t c) const;
    /// @return whether a run sends parity: the coded policies, best with FPGAs
    bool SendsParity() const;
    /// @return the parity a run lays out: SetParity's and the others', or best's
    WanParityPolicy Parity() const;
    /// @return how long after the last round's deadline the run goes on (its repairs)
    Time RepairRoom(const ApplicationContainer& islands) const;
    /// Every rank's parts and counts to rank 0, which builds the result.
    static void GatherToRoot(WanRoundRecorder& recorder,
                             WanCoreLinkMonitor& coreLinks,
                             WanExperimentReplanner& replanner,
                             WanPimMembership* pim,
                             WanExperimentResult& result);
    /// Fills the per-round results from what the islands and core links reported.
    void Collect(const WanExperimentPlan& plan,
                 const WanRoundRecorder& recorder,
                 const WanCoreLinkMonitor& coreLinks,
                 WanExperimentResult& result) const;

    WanExperimentPlanner m_planner;       //!< network, switches, rounds, faults, absences
    WanIslandHelper m_islands;            //!< the islands' attributes
    double m_scale{1};                    //!< time-preserving scale
    int64_t m_stream{1000};               //!< first random stream of loss and jitter
    double m_progressSeconds{0};          //!< wall-clock interval of progress reports (0: none)
    Recovery m_recovery{BEST};            //!< recovery policy (attribute)
    bool m_averageAtDeadline{false};      //!< islands average at the deadline (a quorum)
    FaultDetection m_faultDetection{BFD}; //!< how faults are known (attribute)
    TreeBuilding m_treeBuilding{PIM};     //!< how trees are built (attribute)
    std::string m_partition{"region"};    //!< cities to ranks (SetPartition)
    std::vector<uint32_t> m_rankOf;       //!< per city its rank, in a distributed run (Run)
    Time m_bfdInterval{WanBfdApplication::GetDefaultInterval()};         //!< BFD interval
    uint32_t m_bfdMultiplier{WanBfdApplication::GetDefaultMultiplier()}; //!< BFD detect multiplier
    WanParityPolicy m_parity; //!< the coded policies' parity (SetParity, SetParityDecoding)
    WanCrossTrafficHelper m_crossTraffic;                  //!< background traffic on the core links
    WanTcpCrossTrafficHelper m_tcpCrossTraffic;            //!< elastic background traffic
    std::optional<std::string> m_coreQueue;                //!< core queue disc (SetCoreQueue)
    std::optional<uint32_t> m_coreQueuePackets;            //!< its size, when a FIFO
    std::string m_pcapPrefix;                              //!< pcap file prefix (empty: none)
    std::string m_asciiPrefix;                             //!< ASCII trace prefix (empty: none)
    WanPacketTraceHelper::Selection m_traced;              //!< the devices traced
    std::vector<std::pair<uint32_t, double>> m_fpgaFaults; //!< (city, time)
    std::map<WanNetworkHelper::LinkClass, WanLinkImpairment> m_impairment; //!< per link class
};

} // namespace ns3

#endif /* CLIQUE_EXPERIMENT_HELPER_H */
