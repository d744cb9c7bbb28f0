/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RECONVERGENCE_HELPER_H
#define WAN_RECONVERGENCE_HELPER_H

#include "ns3/application-container.h"
#include "ns3/callback.h"
#include "ns3/ipv4-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

class WanNetworkHelper;

/**
 * @ingroup wan-training
 * @brief Unicast reconvergence driven by failure detection: a link-state
 * protocol's convergence, modelled.
 *
 * It listens to the routers' BFD sessions (WanBfdHelper).  When the first
 * end of a core link declares its session down, the failure floods to every
 * router and each recomputes its shortest paths: after the flooding delay
 * (the longest path latency from the detecting router to any router, on the
 * topology without the link) plus SpfDelay, the unicast routes of all routers
 * avoid the link (WanNetworkHelper::SetLinkRouted; its interfaces stay up, so
 * BFD keeps probing it).  When both ends' sessions are up again, the link
 * returns the same way.  Nothing is told of the failure in advance: routes
 * change only when BFD has detected it.
 *
 * Simplification: every router installs its new routes at the moment the
 * farthest one would, so for a while a real network routes with a mix of old
 * and new tables; here it does not (no transient loops).
 *
 * In a distributed run (Distribute) each rank hears only its own routers'
 * sessions, so each session change is sent to every rank as a notice, and
 * every rank handles every change the notice delay after it happened
 * (WanMpiHelper::NoticeDelay): all ranks see the same changes in the same
 * order and change their routes at the same instants, those of a sequential
 * run.  Two differences remain: a route change tests whether its link
 * changed again only against the session changes older than the notice
 * delay, and a change whose flooding and SPF delays together are shorter
 * than the notice delay waits for it (a warning says so).
 */
class WanReconvergenceHelper
{
  public:
    /// A routing change: which link, when it was detected and when routes changed.
    struct Change
    {
        uint32_t a{0};  //!< city of one end (lower index)
        uint32_t b{0};  //!< city of the other end
        bool up{false}; //!< the link came back (false: it failed)
        Time detected;  //!< when BFD declared it (down: the first end; up: the last)
        Time converged; //!< when the routes were recomputed
    };

    /**
     * @param net the WAN (its Install has run); kept by reference, so it
     *        must outlive the simulation
     */
    explicit WanReconvergenceHelper(WanNetworkHelper& net);

    /**
     * @param delay time from the flooded failure to the new routes (SPF hold
     *        and computation), 0 to 10 s; refused with std::invalid_argument
     *        otherwise
     */
    void SetSpfDelay(Time delay);
    /** @return the SPF delay */
    Time GetSpfDelay() const;
    /**
     * @brief Listens to BFD applications (one per router, as WanBfdHelper
     * installs them).  Call before the simulation runs.
     * @param bfd the applications
     */
    void Watch(const ApplicationContainer& bfd);
    /**
     * @brief Makes this a distributed run's reconvergence: session changes
     * go to every rank (see the class).  Every rank calls it, before the
     * simulation runs; it adds a notice device to one router of each rank.
     * @param rankOf per city its rank (WanMpiHelper::Partition)
     * @throws std::invalid_argument as WanMpiHelper::NoticeDelay
     */
    void Distribute(const std::vector<uint32_t>& rankOf);
    /**
     * @param callback called with each change once the routes are recomputed
     *        (the schedule layer's notification)
     */
    void SetChangeCallback(Callback<void, const Change&> callback);
    /** @return the changes so far, in order */
    const std::vector<Change>& GetChanges() const;
    /**
     * @param a a city
     * @param b another city, joined to it by a core link
     * @return the flooding delay of a failure of a-b detected at a: the
     *         longest path latency from a to any city without the link
     */
    Time FloodingDelay(uint32_t a, uint32_t b) const;

  private:
    /// One end's session changed: what a notice carries.
    struct Report
    {
        uint32_t city{0}; //!< the end's city
        uint32_t peer{0}; //!< the city at the link's other end
        bool up{false};   //!< the session came up (false: went down)
        Time at;          //!< when
    };

    /// A BFD session changed state at this end (local address).
    void SessionChanged(bool up, Ipv4Address local, Ipv4Address remote, uint8_t diagnostic);
    /// Another rank's notice arrived.
    void ReceiveNotice(Ptr<Packet> packet);
    /// Updates the link's state with a session change and schedules its route change.
    void Handle(Report report);
    /// Applies a change to the routes and reports it.
    void Converge(Change change);

    WanNetworkHelper& m_net;                                  //!< the WAN
    Time m_spfDelay;                                          //!< SPF hold and computation
    std::map<uint32_t, std::pair<uint32_t, uint32_t>> m_ends; //!< local address -> (city, peer)
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_sessionsUp; //!< link -> ends up (0 to 2)
    std::set<std::pair<uint32_t, uint32_t>> m_failed;               //!< links routed around
    std::vector<Change> m_changes;                                  //!< changes so far
    Callback<void, const Change&> m_callback;                       //!< notification
    std::vector<Ptr<NetDevice>> m_notices; //!< per rank its notice device (distributed)
    Time m_noticeDelay;                    //!< how long after a change every rank handles it
};

} // namespace ns3

#endif /* WAN_RECONVERGENCE_HELPER_H */
