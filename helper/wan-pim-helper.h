/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PIM_HELPER_H
#define WAN_PIM_HELPER_H

#include "wan-network-helper.h"

#include "ns3/application-container.h"
#include "ns3/object-factory.h"
#include "ns3/wan-training-compat.h"

#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Installs PIM-SSM (WanPimRouter) on the routers of a built WAN: one
 * application per router, PIM on every core link end, the router's link to
 * its edge node as the local interface.
 *
 * Converge brings the network to its steady state before the simulation
 * runs (every neighbour has heard the other's Hello, and the joins made so
 * far have reached their sources), as after a warm-up: the messages are
 * exchanged in zero time (and counted).  WatchBfd makes a BFD session that
 * goes down take the PIM neighbour's state away, and one that comes up send
 * it a Hello.
 */
class WanPimHelper : public wancompat::ApplicationHelper
{
  public:
    WanPimHelper();

    using wancompat::ApplicationHelper::Install;

    /**
     * @param net a WAN whose Install has run
     * @return one application per router, in city order
     */
    ApplicationContainer Install(const WanNetworkHelper& net) const;
    /**
     * @brief Delivers, in zero time, every message the routers queued before
     * they started, and the messages these cause, until none is left.  Call
     * before the simulation runs.
     * @param apps applications Install returned
     * @return the messages delivered
     */
    static uint64_t Converge(const ApplicationContainer& apps);
    /**
     * @brief Connects each router's BFD sessions to its PIM neighbours.
     * @param pim applications Install returned
     * @param bfd WanBfdHelper's applications on the same routers, same order
     */
    static void WatchBfd(const ApplicationContainer& pim, const ApplicationContainer& bfd);
    /**
     * @brief Every router re-reads its unicast routes (after a reconvergence).
     * @param apps applications Install returned
     */
    static void RoutesChanged(const ApplicationContainer& apps);
};

} // namespace ns3

#endif /* WAN_PIM_HELPER_H */
