/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-router-routing.h"

#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/packet.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRouterRouting");

NS_OBJECT_ENSURE_REGISTERED(WanRouterRouting);

TypeId
WanRouterRouting::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanRouterRouting")
                            .SetParent<Ipv4StaticRouting>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanRouterRouting>();
    return tid;
}

bool
WanRouterRouting::IsLinkLocal(Ipv4Address address)
{
    return address.CombineMask(Ipv4Mask("255.255.255.0")) == Ipv4Address("224.0.0.0");
}

uint32_t
WanRouterRouting::InterfaceOf(Ptr<const NetDevice> idev)
{
    return static_cast<uint32_t>(idev->GetNode()->GetObject<Ipv4>()->GetInterfaceForDevice(idev));
}

bool
WanRouterRouting::RouteInput(Ptr<const Packet> p,
                             const Ipv4Header& header,
                             Ptr<const NetDevice> idev,
                             wancompat::RouteInputParameter<3> ucb,
                             wancompat::RouteInputParameter<4> mcb,
                             wancompat::RouteInputParameter<5> lcb,
                             wancompat::RouteInputParameter<6> ecb)
{
    if (!IsLinkLocal(header.GetDestination()) || lcb.IsNull())
    {
        return Ipv4StaticRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb);
    }
    const uint32_t iif = InterfaceOf(idev);
    NS_LOG_LOGIC("link-local multicast for " << header.GetDestination() << ": delivered locally");
    lcb(p, header, iif);
    return true;
}

} // namespace ns3
