/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PIM_JOIN_PROPAGATION_H
#define WAN_PIM_JOIN_PROPAGATION_H

#include "wan-topology.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The analytic counterpart of PIM-SSM on the wire: how long joins
 * take to move one stream's tree when the unicast routes change, from
 * WanPimState on every router and the links' delays (no packets, no
 * simulator).
 */
class WanPimJoinPropagation
{
  public:
    /**
     * How long PIM-SSM joins take to move one stream's tree from the routes
     * it was joined on to new ones (WanPimState on every router): the tree
     * had been joined before (made before break); when the routes change,
     * each router whose RPF neighbour changed joins the new one and prunes
     * the old, and the joins travel hop by hop at the links' delays until
     * they reach routers that have the state.  A message on a link that is
     * down is lost.
     * @param before the routes the tree was joined on
     * @param after the routes now (the links up)
     * @param source the sending city
     * @param members its receivers (the source among them or not)
     * @return seconds from the route change to the last Join's arrival
     */
    static double Delay(const WanTopology& before,
                        const WanTopology& after,
                        uint32_t source,
                        const std::vector<uint32_t>& members);
};

} // namespace ns3

#endif /* WAN_PIM_JOIN_PROPAGATION_H */
