/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-edge-routing.h"

#include "ns3/ipv4-header.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanEdgeRouting");

NS_OBJECT_ENSURE_REGISTERED(WanEdgeRouting);

TypeId
WanEdgeRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanEdgeRouting")
                            .SetParent<WanRouterRouting>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanEdgeRouting>();
    return tid;
}

void
WanEdgeRouting::SetInbound(uint32_t interface)
{
    m_inbound = interface;
}

void
WanEdgeRouting::SetDeliverMulticast(bool deliver)
{
    m_deliver = deliver;
}

void
WanEdgeRouting::SetInlineTap(InlineTap tap)
{
    m_tap = tap;
}

bool
WanEdgeRouting::RouteInput(Ptr<const Packet> p,
                           const Ipv4Header& header,
                           Ptr<const NetDevice> idev,
                           wancompat::RouteInputParameter<3> ucb,
                           wancompat::RouteInputParameter<4> mcb,
                           wancompat::RouteInputParameter<5> lcb,
                           wancompat::RouteInputParameter<6> ecb)
{
    if (!header.GetDestination().IsMulticast() || IsLinkLocal(header.GetDestination()) ||
        !m_deliver || lcb.IsNull() || m_inbound == 0)
    {
        return WanRouterRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb);
    }
    const uint32_t iif = InterfaceOf(idev);
    if (iif != m_inbound)
    {
        return WanRouterRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb);
    }
    if (!m_tap.IsNull() && m_tap(p, header))
    {
        NS_LOG_LOGIC("inbound multicast for " << header.GetDestination()
                                              << ": taken by the in-line device");
    }
    else
    {
        NS_LOG_LOGIC("inbound multicast for " << header.GetDestination() << ": delivered locally");
        lcb(p->Copy(), header, iif);
    }
    Ipv4StaticRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb); // and forwarded
    return true;
}

} // namespace ns3
