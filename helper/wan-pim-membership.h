/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PIM_MEMBERSHIP_H
#define WAN_PIM_MEMBERSHIP_H

#include "wan-experiment-result.h"
#include "wan-network-helper.h"

#include "ns3/application-container.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/wan-experiment-plan.h"

#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Multicast trees built by PIM-SSM for a plan's rounds: a WanPimRouter
 * on every router, and the islands' membership in time.  Each receiving
 * island's edge joins (S,G) for the senders of its clique of round k+1 when
 * round k starts (make before break) and leaves round k-1's at round k+1's
 * start; round 0's trees are joined when the run starts, the network having
 * converged (WanPimHelper::Converge).  At each round's start it checks, in
 * the routers' state, that every receiver of the round has its whole tree
 * (each router from the receiver to the source has the (S,G) entry, its RPF
 * neighbour forwarding on the link to it): a receiver without one is counted
 * (not checked in a distributed run, where a rank holds only its routers'
 * state).  It times how long each round's trees
 * took to build after their joins and how long before the round they were
 * ready, and how long the trees took to move after a route change.
 *
 * It connects to trace sources and schedules events: it must outlive the
 * simulation and stay where it was built (not copyable).
 */
class WanPimMembership
{
  public:
    /**
     * @param plan the plan run (re-planned rounds move the membership)
     * @param net the built network
     * @param rankOf per city its rank in a distributed run (empty: one process)
     */
    WanPimMembership(const WanExperimentPlan& plan,
                     const WanNetworkHelper& net,
                     const std::vector<uint32_t>& rankOf);
    WanPimMembership(const WanPimMembership&) = delete;
    WanPimMembership& operator=(const WanPimMembership&) = delete;

    /**
     * @brief Installs the PIM routers, joins round 0's trees on a converged
     * network and schedules the membership of the rounds after it.  Every
     * rank converges every router alike (function calls, no packets); each
     * then runs its own.
     */
    void Start();
    /// @return the PIM routers, one per city
    ApplicationContainer GetRouters() const;
    /**
     * @brief The unicast routes changed (the last of `changes`): PIM moves
     * every tree with state to the new RPF neighbours, and the membership
     * follows the re-planned starts; the move's time goes into that change.
     * @param changes the route changes so far (kept: the trees' moves update it)
     */
    void RoutesChanged(std::vector<WanRouteChangeResult>* changes);
    /**
     * @brief In a distributed run, every rank's tree times to rank 0, where
     * the latest counts (a tree is built and moved by its last router, on
     * any rank), and the sums of the ranks' messages, bytes and retries
     * (CountMessages before); a collective call.
     * @param result the run's result, whose route changes' move times are
     *        merged
     */
    void GatherToRoot(WanExperimentResult& result);
    /**
     * @param result the run's result: the messages, bytes and retries this
     *        rank's routers sent are added to it, and the receivers found
     *        without their tree at a round's start
     */
    void CountMessages(WanExperimentResult& result) const;
    /**
     * @brief Fills how long each round's trees took to build after its joins
     * (the longest) and the least time they were ready before their round
     * (after GatherToRoot in a distributed run).
     * @param result the run's result
     */
    void FillTreeTimes(WanExperimentResult& result) const;

  private:
    /// One local membership: a receiving city in (S,G).
    struct Member
    {
        uint32_t city{0};   //!< the receiving city
        Ipv4Address source; //!< S: the sender's island
        Ipv4Address group;  //!< G
    };

    /// Joins round k's trees at its receivers' routers.
    void JoinRound(uint32_t k);
    /// At round k's start: joins round k+1's trees, leaves round k-2's.
    void Membership(uint32_t k);
    /// Counts round k's receivers whose tree is not whole in the routers' state.
    void CheckTrees(uint32_t k);
    /// Schedules the next membership change at its round's (re-planned) start.
    void ScheduleMembership();
    /// A PIM router changed a multicast route: times tree building and moves.
    static void Forwarding(WanPimMembership* pim,
                           uint32_t city,
                           Ipv4Address source,
                           Ipv4Address group,
                           uint32_t input,
                           uint32_t outputs);
    /// @return this rank's tree times as text, for Merge on rank 0
    std::string Save(const std::vector<WanRouteChangeResult>& changes) const;
    /// Takes another rank's tree times (Save) where they are later.
    void Merge(const std::string& saved, std::vector<WanRouteChangeResult>& changes);

    const WanExperimentPlan& m_plan;                  //!< the plan being run
    const WanNetworkHelper& m_net;                    //!< the network
    std::vector<uint32_t> m_rankOf;                   //!< per city its rank (empty: one process)
    ApplicationContainer m_routers;                   //!< WanPimRouter per city
    ApplicationContainer m_localRouters;              //!< those this rank runs
    bool m_converged{false};                          //!< the run's start converged
    std::map<uint32_t, std::vector<Member>> m_joined; //!< round -> memberships made
    std::map<uint32_t, double> m_joinedAt;            //!< round -> when they were made
    std::map<Ipv4Address, double> m_ready;            //!< group -> last branch joined
    std::set<Ipv4Address> m_left;                     //!< groups left (their rounds over)
    std::map<std::pair<uint32_t, Ipv4Address>, uint32_t> m_outputs; //!< (city, G) -> branches
    EventId m_next;                                                 //!< next membership change
    uint32_t m_nextRound{0};                                        //!< the round it is for
    std::vector<WanRouteChangeResult>* m_changes{nullptr};          //!< route changes reported
    int64_t m_change{-1};                                           //!< the one whose trees move
    std::set<Ipv4Address> m_moving; //!< groups joined, not left, at that change
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_across; //!< (city, interface) -> city
    uint64_t m_missing{0}; //!< receivers without their whole tree at a round's start
};

} // namespace ns3

#endif /* WAN_PIM_MEMBERSHIP_H */
