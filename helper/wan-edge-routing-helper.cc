/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-edge-routing-helper.h"

#include "ns3/wan-edge-routing.h"

namespace ns3
{

WanEdgeRoutingHelper*
WanEdgeRoutingHelper::Copy() const
{
    return new WanEdgeRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
WanEdgeRoutingHelper::Create(Ptr<Node>) const
{
    return CreateObject<WanEdgeRouting>();
}

} // namespace ns3
