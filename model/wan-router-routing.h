/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ROUTER_ROUTING_H
#define WAN_ROUTER_ROUTING_H

#include "wan-training-compat.h"

#include "ns3/ipv4-address.h"
#include "ns3/ipv4-static-routing.h"

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A WAN router's routing: ns-3's static routing, plus local delivery
 * of link-local multicast (224.0.0.0/24, RFC 5771: never forwarded), which
 * carries the routers' own protocols (PIM's Hellos and Join/Prunes to
 * ALL-PIM-ROUTERS, 224.0.0.13).
 * Static routing alone never delivers multicast locally, and from ns-3.45 a
 * raw socket receives only what is delivered locally; ns-3's list routing
 * would deliver every multicast packet (data too) at every hop.  Data
 * multicast (the (S,G) streams) is forwarded only.
 */
class WanRouterRouting : public Ipv4StaticRouting
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @param address an address
     * @return true for link-local multicast, 224.0.0.0/24
     */
    static bool IsLinkLocal(Ipv4Address address);

    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    wancompat::RouteInputParameter<3> ucb,
                    wancompat::RouteInputParameter<4> mcb,
                    wancompat::RouteInputParameter<5> lcb,
                    wancompat::RouteInputParameter<6> ecb) override;

  protected:
    /**
     * @param idev a device of this node
     * @return its IPv4 interface
     */
    static uint32_t InterfaceOf(Ptr<const NetDevice> idev);
};

} // namespace ns3

#endif /* WAN_ROUTER_ROUTING_H */
