/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EXPERIMENT_REPLANNER_H
#define WAN_EXPERIMENT_REPLANNER_H

#include "wan-core-link-monitor.h"
#include "wan-experiment-result.h"
#include "wan-network-helper.h"
#include "wan-pim-membership.h"
#include "wan-reconvergence-helper.h"
#include "wan-round-installer.h"

#include "ns3/application-container.h"
#include "ns3/clique-schedule.h"
#include "ns3/nstime.h"
#include "ns3/wan-experiment-plan.h"

#include <cstdint>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief What a run does about faults: it schedules link outages and FPGA
 * failures in the network, and with detection (BFD sessions on every core
 * link, an edge watchdog on every FPGA's heartbeats) reacts as the network
 * learns of them.
 *
 * Faults known in advance (the oracle) were planned around already: a link
 * goes down and up with unicast routes recomputed at both instants, and a
 * failed FPGA's edge bypasses it at once.  Detected faults are only network
 * events: a link loses every packet from its down time, BFD declares it,
 * WanReconvergenceHelper reroutes unicast and notifies this re-planner, which
 * re-plans every round that starts after the notification around the link
 * (WanExperimentPlanner::Replan), moves their trees (WanRoundInstaller, or
 * PIM: WanPimMembership), lets the FPGAs' slots live as long as the new plan
 * needs, and moves their windows in the core link counts.  An FPGA whose
 * heartbeats stop for the detect multiplier's worth of BFD intervals is
 * bypassed by its edge for every group its island receives.
 *
 * It schedules events and is called back: it must outlive the simulation and
 * stay where it was built (not copyable).
 */
class WanExperimentReplanner
{
  public:
    /// What the re-planner works on (kept by reference or copied as said).
    struct Context
    {
        WanNetworkHelper* net{nullptr};               //!< the network
        const WanExperimentPlanner* planner{nullptr}; //!< plans without the detected faults
        WanExperimentPlan* plan{nullptr};             //!< the plan being run (re-planned here)
        const CliqueSchedule* schedule{nullptr};      //!< its schedule
        WanRoundInstaller* installer{nullptr};        //!< installs re-planned rounds
        WanCoreLinkMonitor* coreLinks{nullptr};       //!< their round windows move too
        ApplicationContainer fpgas;                   //!< the FPGAs (their slot lifetime)
        std::vector<WanMulticastGroup> groups;        //!< every group installed (copied)
        std::vector<uint32_t> rankOf;                 //!< per city its rank (empty: one process)
    };

    /// @param run what it works on
    explicit WanExperimentReplanner(const Context& run);
    WanExperimentReplanner(const WanExperimentReplanner&) = delete;
    WanExperimentReplanner& operator=(const WanExperimentReplanner&) = delete;

    /**
     * @brief Schedules the faults in the network.
     * @param links link outages
     * @param fpgaFaults FPGA failures: (city, time in seconds)
     * @param detect the faults are only network events (EnableDetection
     *        reacts to them); false: known in advance (links go down and up
     *        with routes recomputed, a failed FPGA's edge bypasses it at once)
     */
    void ScheduleFaults(const std::vector<WanLinkFault>& links,
                        const std::vector<std::pair<uint32_t, double>>& fpgaFaults,
                        bool detect);
    /**
     * @brief Detection: BFD sessions on every core link, rerouting and
     * re-planning on their changes, and a watchdog on every local FPGA.
     * @param interval BFD's transmit and receive interval, also the watchdog's
     * @param multiplier BFD's detect multiplier, also the watchdog's misses
     * @param stream random stream of the BFD sessions' jitter
     * @param pim the PIM membership, when PIM builds the trees (nullptr: none);
     *        its routers drop a neighbour whose BFD session goes down
     */
    void EnableDetection(Time interval, uint32_t multiplier, int64_t stream, WanPimMembership* pim);
    /// @return the route changes as the network reported them
    const std::vector<WanRouteChangeResult>& GetRouteChanges() const;
    /// @return the FPGA failures the watchdogs detected (after GatherToRoot: every rank's)
    const std::vector<WanFpgaFailureResult>& GetFpgaFailures() const;
    /// @param result the run's result: the BFD packets and bytes this rank sent are added
    void CountControl(WanExperimentResult& result) const;
    /// In a distributed run: every rank's FPGA failures to rank 0 (a collective call).
    void GatherToRoot();
    /**
     * @brief Bypasses a city's FPGA for every group its island receives.
     * @param net the network
     * @param city the city
     * @param groups the groups installed (a copy: it may run as an event)
     */
    static void Bypass(WanNetworkHelper* net, uint32_t city, std::vector<WanMulticastGroup> groups);

  private:
    /// @return true when this process runs city c
    bool IsLocal(uint32_t c) const;
    /// Every BFD interval: a heartbeat seen, or after `multiplier` misses the bypass.
    void WatchFpga(uint32_t city, uint64_t seen, uint32_t misses);
    /// Re-plans the rounds after a change the network reported.
    void RouteChanged(const WanReconvergenceHelper::Change& change);
    /// @return the change as a result, with the links now down updated
    WanRouteChangeResult Record(const WanReconvergenceHelper::Change& change);
    /// Re-plans the rounds from `from` around the links down and installs them.
    void Replan(uint32_t from, WanRouteChangeResult& out);
    /// @return seconds PIM joins would take to move rounds from `from` onto the new routes
    double AnalyticJoins(uint32_t from, const std::vector<WanTopology>& before) const;
    /// Installs the re-planned rounds from `from` (trees moved, bypasses kept).
    void Reinstall(uint32_t from);
    /// @return this rank's FPGA failures as text, for MergeFpgaFailures on rank 0
    std::string SaveFpgaFailures() const;
    /// Adds another rank's FPGA failures (SaveFpgaFailures), keeping detection order.
    void MergeFpgaFailures(const std::string& saved);

    Context m_run;                                         //!< what it works on
    WanPimMembership* m_pim{nullptr};                      //!< PIM membership (detection)
    std::vector<WanLinkFault> m_linkFaults;                //!< for the record of events
    std::vector<std::pair<uint32_t, double>> m_fpgaFaults; //!< likewise
    Time m_interval;                                       //!< BFD and watchdog interval
    uint32_t m_multiplier{3};                              //!< detect multiplier
    ApplicationContainer m_bfd;                            //!< BFD sessions
    std::optional<WanReconvergenceHelper> m_reconvergence; //!< reroutes on BFD changes
    std::set<std::pair<uint32_t, uint32_t>> m_down;        //!< links the network reported down
    std::vector<WanRouteChangeResult> m_changes;           //!< as reported
    std::vector<uint64_t> m_heartbeats;                    //!< per city: FPGA heartbeats seen
    std::set<uint32_t> m_bypassed;                         //!< cities whose FPGA is bypassed
    std::vector<WanFpgaFailureResult> m_fpgaFailures;      //!< as detected
};

} // namespace ns3

#endif /* WAN_EXPERIMENT_REPLANNER_H */
