/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RING_ALL_REDUCE_HELPER_H
#define WAN_RING_ALL_REDUCE_HELPER_H

#include "wan-collective-helper.h"

#include "ns3/application-container.h"

#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Installs a ring all-reduce over TCP (WanRingApplication) on the
 * islands of a WanNetworkHelper's network: the collective today's
 * cross-region training runs, on the same links, queues, loss and jitter as
 * the paper's system. Payload, values and buffers as WanCollectiveHelper
 * says: a member sends to the next member and receives from the previous.
 */
class WanRingAllReduceHelper : public WanCollectiveHelper
{
  public:
    /**
     * @param network the network, installed (Install), kept by reference
     */
    explicit WanRingAllReduceHelper(const WanNetworkHelper& network);

    /**
     * @param order the members' city indices in ring order (at least 2,
     *        each once)
     * @return their applications, in that order
     * @throws std::invalid_argument naming the bad value
     */
    ApplicationContainer Install(const std::vector<uint32_t>& order);

    /**
     * @brief A ring order of cities from the topology: of the orders that
     * start at the first city, the one whose slowest step (the largest
     * one-way path latency between neighbours) is least, ties broken by the
     * total latency, then the order found first (exhaustive up to 9
     * cities; nearest neighbour from the first city beyond).
     * @param topo the topology
     * @param cities the members, at least 2, each once
     * @return them in ring order
     */
    static std::vector<uint32_t> ChooseOrder(const WanTopology& topo, std::vector<uint32_t> cities);
};

} // namespace ns3

#endif /* WAN_RING_ALL_REDUCE_HELPER_H */
