/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RING_ALL_REDUCE_HELPER_H
#define WAN_RING_ALL_REDUCE_HELPER_H

#include "wan-network-helper.h"

#include "ns3/application-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

class WanRingApplication;

/**
 * @ingroup wan-training
 * @brief Installs a ring all-reduce over TCP (WanRingApplication) on the
 * islands of a WanNetworkHelper's network: the collective today's
 * cross-region training runs, on the same links, queues, loss and jitter as
 * the paper's system.
 *
 * Each member's model state is D bytes (SetPayload, divided by the
 * network's scale, SetScale, as the island rounds divide it) in chunks of ChunkBytes,
 * each member's value of a chunk the one the island rounds give it
 * (WanContribution::Value of its city's IslandValue), so the sums can be
 * checked exact. Unless set, each socket's send and receive buffers are
 * twice the bandwidth-delay product of its path (the path's narrowest link
 * at the network's scale, times its round-trip propagation), set before the
 * sockets exist; a buffer set below the product is warned with the
 * throughput it caps a connection at (GetWarnings).
 */
class WanRingAllReduceHelper
{
  public:
    /**
     * @param network the network, installed (Install), kept by reference
     */
    explicit WanRingAllReduceHelper(const WanNetworkHelper& network);

    /**
     * @param name an attribute of WanRingApplication
     * @param value its value, for every member
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /**
     * @param bytes D, each member's model state before the scale, > 0
     */
    void SetPayload(double bytes);
    /**
     * @param factor the network's scale (WanNetworkHelper::SetScale), >= 1:
     *        D and the rates behind the buffers are divided by it
     */
    void SetScale(double factor);

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

    /**
     * @param from a city
     * @param to another
     * @return the path's bandwidth-delay product at the network's scale,
     *         bytes: its narrowest rate (the sender's egress, the core links,
     *         the receiver's ingress) times twice its one-way latency
     */
    double BandwidthDelayProduct(uint32_t from, uint32_t to) const;

    /** @return the warnings of the last Install (buffers below the product) */
    const std::vector<std::string>& GetWarnings() const;

  private:
    /**
     * @param order a ring order
     * @throws std::invalid_argument unless at least 2 cities of the
     *         topology, each once
     */
    void CheckOrder(const std::vector<uint32_t>& order) const;
    /**
     * @brief Sets a member's buffers (twice its paths' products unless set)
     * and warns of one below its path's product.
     * @param app the member
     * @param city its city
     * @param next the next member's city
     * @param previous the previous member's city
     */
    void SetBuffers(Ptr<WanRingApplication> app, uint32_t city, uint32_t next, uint32_t previous);

    const WanNetworkHelper& m_network;   //!< the network
    ObjectFactory m_factory;             //!< the members' applications
    double m_payload{1e9};               //!< D, bytes before the scale
    double m_scale{1};                   //!< the network's scale
    bool m_sendBufferSet{false};         //!< SendBuffer set by the user
    bool m_receiveBufferSet{false};      //!< ReceiveBuffer set by the user
    std::vector<std::string> m_warnings; //!< of the last Install
};

} // namespace ns3

#endif /* WAN_RING_ALL_REDUCE_HELPER_H */
