/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EDGE_ROUTING_H
#define WAN_EDGE_ROUTING_H

#include "wan-router-routing.h"
#include "wan-training-compat.h"

#include "ns3/callback.h"

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
 *
 * An in-line device on the node (the FPGA, SetInlineTap) may take such a
 * packet off the wire before the node's stack sees it: the tap is offered
 * each inbound multicast packet first and, when it takes it, the packet is
 * not delivered to the node's sockets (no IP local delivery, no UDP
 * demultiplexing: the work an FPGA parsing headers at line rate does not
 * do); what it declines is delivered as before.  Forwarding is the same
 * either way.
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

    /**
     * @brief What an in-line device takes off the inbound multicast streams.
     *
     * Called with each multicast packet that arrives on the inbound interface
     * while DeliverMulticast is on, before local delivery; it returns true
     * when it took the packet (then no socket of the node receives it), false
     * to leave it to the node's stack.
     */
    typedef Callback<bool, Ptr<const Packet>, const Ipv4Header&> InlineTap;
    /**
     * @param tap the in-line device's tap (a null callback: none, every
     *        inbound stream goes to the node's sockets)
     */
    void SetInlineTap(InlineTap tap);

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
    InlineTap m_tap;       //!< the in-line device's tap (null: none)
};

} // namespace ns3

#endif /* WAN_EDGE_ROUTING_H */
