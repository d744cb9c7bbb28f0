/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-router-routing-helper.h"

#include "ns3/wan-router-routing.h"

namespace ns3
{

WanRouterRoutingHelper*
WanRouterRoutingHelper::Copy() const
{
    return new WanRouterRoutingHelper(*this);
}

Ptr<Ipv4RoutingProtocol>
WanRouterRoutingHelper::Create(Ptr<Node>) const
{
    return CreateObject<WanRouterRouting>();
}

} // namespace ns3
