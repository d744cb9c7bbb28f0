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
WanRouterRouting::RouteInput(Ptr<const Packet> p,
                             const Ipv4Header& header,
                             Ptr<const NetDevice> idev,
                             wancompat::RouteInputParameter<3> ucb,
                             wancompat::RouteInputParameter<4> mcb,
                             wancompat::RouteInputParameter<5> lcb,
                             wancompat::RouteInputParameter<6> ecb)
{
    const bool linkLocal =
        header.GetDestination().CombineMask(Ipv4Mask("255.255.255.0")) == Ipv4Address("224.0.0.0");
    if (!linkLocal || lcb.IsNull())
    {
        return Ipv4StaticRouting::RouteInput(p, header, idev, ucb, mcb, lcb, ecb);
    }
    auto ipv4 = idev->GetNode()->GetObject<Ipv4>();
    const auto iif = static_cast<uint32_t>(ipv4->GetInterfaceForDevice(idev));
    NS_LOG_LOGIC("link-local multicast for " << header.GetDestination() << ": delivered locally");
    lcb(p, header, iif);
    return true;
}

} // namespace ns3
