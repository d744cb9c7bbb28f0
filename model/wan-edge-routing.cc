/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-edge-routing.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanEdgeRouting");

NS_OBJECT_ENSURE_REGISTERED(WanEdgeRouting);

TypeId
WanEdgeRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanEdgeRouting")
                            .SetParent<Ipv4StaticRouting>()
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

bool
WanEdgeRouting::RouteInput(Ptr<const Packet> p,
                           const Ipv4Header& header,
                           Ptr<const NetDevice> idev,
                           wancompat::RouteInputParameter<3> ucb,
                           wancompat::RouteInputParameter<4> mcb,
                           wancompat::RouteInputParameter<5> lcb,
                           wancompat::RouteInputParameter<6> ecb)
{
    if (!header.GetDestination().IsMulticast() || !m_deliver || lcb.IsNull() || m_inbound == 0)
    {
        return Ipv4StaticRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb);
    }
    auto ipv4 = idev->GetNode()->GetObject<Ipv4>();
    const auto iif = static_cast<uint32_t>(ipv4->GetInterfaceForDevice(idev));
    if (iif != m_inbound)
    {
        return Ipv4StaticRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb);
    }
    NS_LOG_LOGIC("inbound multicast for " << header.GetDestination() << ": delivered locally");
    lcb(p->Copy(), header, iif);
    Ipv4StaticRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb); // and forwarded
    return true;
}

} // namespace ns3
