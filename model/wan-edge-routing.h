/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EDGE_ROUTING_H
#define WAN_EDGE_ROUTING_H

#include "wan-router-routing.h"
#include "wan-training-compat.h"

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The routing of an island's edge node, where the in-line FPGA sits:
 * a router's (WanRouterRouting: static routes, link-local multicast
 * delivered locally) plus local delivery of the multicast streams that
 * arrive from the WAN side, so that the FPGA's socket receives the inbound
 * streams and no other stream.
 *
 * ns-3's Ipv4ListRouting delivers every multicast packet locally on every
 * node it crosses (a copy and a UDP look-up per hop), including the island's
 * own outbound stream at its edge; routers here use WanRouterRouting, which
 * forwards streams without delivering them, and edge nodes this class.
 * A multicast packet that arrives on the inbound interface (SetInbound: the
 * link from the router) is delivered locally, when DeliverMulticast is on,
 * and forwarded by the static multicast routes as well (to the island when
 * no FPGA consumes it); one from the island is only forwarded.
 */
class WanEdgeRouting : public WanRouterRouting
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * @param interface the interface from the WAN side (the router's link)
     */
    void SetInbound(uint32_t interface);
    /**
     * @param deliver deliver the inbound multicast streams locally (true:
     *        an FPGA listens on this node)
     */
    void SetDeliverMulticast(bool deliver);

    bool RouteInput(Ptr<const Packet> p,
                    const Ipv4Header& header,
                    Ptr<const NetDevice> idev,
                    wancompat::RouteInputParameter<3> ucb,
                    wancompat::RouteInputParameter<4> mcb,
                    wancompat::RouteInputParameter<5> lcb,
                    wancompat::RouteInputParameter<6> ecb) override;

  private:
    uint32_t m_inbound{0}; //!< interface from the WAN side (0: none set)
    bool m_deliver{true};  //!< deliver inbound multicast locally
};

} // namespace ns3

#endif /* WAN_EDGE_ROUTING_H */
