/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_MULTICAST_ROUTE_HELPER_H
#define WAN_MULTICAST_ROUTE_HELPER_H

#include "wan-network-helper.h"

#include "ns3/ipv4-address.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Source-specific multicast trees as static (S,G) routes on a built
 * WAN (WanNetworkHelper): the planner's shortest-path trees on the routers,
 * the edge nodes' part (island up to router, router down to island), the
 * bypass of a failed FPGA, and a tree's removal before it moves.  With
 * PIM-SSM (WanPimRouter) the routers' part comes from joins instead and only
 * the edge routes are installed here.  Groups come from
 * WanNetworkHelper::GroupAddress.
 */
class WanMulticastRouteHelper
{
  public:
    /// @param net a network whose Install has run (kept by reference)
    explicit WanMulticastRouteHelper(const WanNetworkHelper& net);

    /**
     * @brief Installs the (S,G) routes of a source-specific multicast tree.
     * @param source the sending island's city
     * @param receivers the receiving cities (the source is ignored)
     * @param group the group address
     * @param toIslands also forward from the receivers' edge nodes to their
     *        islands (false when an edge aggregator consumes the stream)
     * @param routes the topology whose shortest-path tree to use (null: the
     *        network's); a subset of its links, e.g. WanTopology::WithoutLink
     *        while a link is down
     */
    void InstallTree(uint32_t source,
                     const std::vector<uint32_t>& receivers,
                     Ipv4Address group,
                     bool toIslands,
                     const WanTopology* routes = nullptr) const;
    /**
     * @brief Installs the edge nodes' part of a multicast tree only: the
     * source's edge node passes its island's stream up to its router and,
     * when toIslands, each receiver's edge node passes it down to its island.
     * The routers' part is PIM's (WanPimRouter) when trees are built by joins.
     * @param source the sending island's city
     * @param receivers the receiving cities (the source is ignored)
     * @param group the group address
     * @param toIslands also forward from the receivers' edge nodes to their islands
     */
    void InstallEdgeRoutes(uint32_t source,
                           const std::vector<uint32_t>& receivers,
                           Ipv4Address group,
                           bool toIslands) const;
    /**
     * @brief Lets a receiver's edge node pass a group's stream on to its island
     * (the bypass when the edge FPGA fails).
     * @param city the receiving city
     * @param source the group's sending city
     * @param group the group address
     */
    void BypassEdge(uint32_t city, uint32_t source, Ipv4Address group) const;
    /**
     * @brief Removes a source's multicast routes for a group from every
     * router and edge node (before its tree is installed again on other
     * routes).
     * @param source the sending city
     * @param group the group address
     * @return the routes removed
     */
    uint32_t RemoveTree(uint32_t source, Ipv4Address group) const;

  private:
    /// Throws std::logic_error when the network is not installed yet.
    void RequireInstalled() const;

    const WanNetworkHelper& m_net; //!< the network
};

} // namespace ns3

#endif /* WAN_MULTICAST_ROUTE_HELPER_H */
