/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EDGE_ROUTING_HELPER_H
#define WAN_EDGE_ROUTING_HELPER_H

#include "ns3/ipv4-routing-helper.h"

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Gives InternetStackHelper a WanEdgeRouting per node (edge nodes).
 */
class WanEdgeRoutingHelper : public Ipv4RoutingHelper
{
  public:
    WanEdgeRoutingHelper* Copy() const override;
    Ptr<Ipv4RoutingProtocol> Create(Ptr<Node> node) const override;
};

} // namespace ns3

#endif /* WAN_EDGE_ROUTING_HELPER_H */
