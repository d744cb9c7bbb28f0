/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARAMETER_SERVER_HELPER_H
#define WAN_PARAMETER_SERVER_HELPER_H

#include "wan-collective-helper.h"

#include "ns3/application-container.h"

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Installs a parameter-server exchange over TCP
 * (WanParameterServerApplication) on the islands of a WanNetworkHelper's
 * network: every worker's update in to one island, the sum back out, on the
 * same links, queues, loss and jitter as the paper's system. Payload, values
 * and buffers as WanCollectiveHelper says: a worker sends to and receives
 * from the server, the server from and to every worker.
 */
class WanParameterServerHelper : public WanCollectiveHelper
{
  public:
    /**
     * @param network the network, installed (Install), kept by reference
     */
    explicit WanParameterServerHelper(const WanNetworkHelper& network);

    /**
     * @param members the members' city indices (at least 2, each once)
     * @param server the server's city, one of them
     * @return their applications, in the members' order
     * @throws std::invalid_argument naming the bad value
     */
    ApplicationContainer Install(const std::vector<uint32_t>& members, uint32_t server);

    /**
     * @brief The best-connected member for the server: the one whose
     * exchange would end first on an idle network by the estimate
     * (N - 1) x D / min(its ingress, its egress) (its access link carries
     * every update in and every sum out, pipelined) plus twice its largest
     * one-way latency to a worker; ties to the first. Core links are not
     * looked at.
     * @param members the members (at least 2, each once)
     * @return the server's city
     * @throws std::invalid_argument naming the bad value
     */
    uint32_t ChooseServer(const std::vector<uint32_t>& members) const;
};

} // namespace ns3

#endif /* WAN_PARAMETER_SERVER_HELPER_H */
