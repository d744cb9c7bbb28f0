/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ROUTER_ROUTING_HELPER_H
#define WAN_ROUTER_ROUTING_HELPER_H

#include "ns3/ipv4-routing-helper.h"

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Gives a WAN router WanRouterRouting (InternetStackHelper::SetRoutingHelper);
 * Ipv4StaticRoutingHelper adds its routes, as to any static routing.
 */
class WanRouterRoutingHelper : public Ipv4RoutingHelper
{
  public:
    /** @return a copy of this helper */
    WanRouterRoutingHelper* Copy() const override;
    /**
     * @param node the node
     * @return a new WanRouterRouting
     */
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;
};

} // namespace ns3

#endif /* WAN_ROUTER_ROUTING_HELPER_H */
