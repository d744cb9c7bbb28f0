/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_COLLECTIVE_HELPER_H
#define WAN_COLLECTIVE_HELPER_H

#include "wan-network-helper.h"

#include "ns3/object-factory.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns3
{

class WanCollectiveApplication;
class RoundPlanner;

/**
 * @ingroup wan-training
 * @brief What the helpers of today's collectives over TCP share
 * (WanRingAllReduceHelper, WanParameterServerHelper): the payload and scale,
 * the members' values, the sockets' buffers.
 *
 * Each member's model state is D bytes (SetPayload, divided by the network's
 * scale, SetScale, as the island rounds divide it) in chunks of ChunkBytes,
 * each member's value of a chunk the one the island rounds give it
 * (WanContribution::Value of its city's IslandValue), so the sums can be
 * checked exact. Unless set, each socket's send and receive buffers are
 * twice the largest bandwidth-delay product of the paths it sends or
 * receives on (the path's narrowest link at the network's scale, times its
 * round-trip propagation) and at least two segments
 * (WanCollectiveApplication::MinimumBuffer), set before the sockets exist;
 * and each receive buffer over twice the largest send buffer of the members
 * it receives from (plus two segments and the window scale's rounding), so
 * the window a receiver advertises always exceeds what a sender can have
 * unacknowledged: a sender is held by its send buffer and congestion window,
 * never by the receiver's window, as Linux's receive autotuning holds it,
 * and ns-3 before 3.41 never meets its bug of a sender whose unacknowledged
 * bytes fill the window exactly (it sends an empty segment and crashes,
 * ns-3 issue #991). A buffer set below
 * a path's product is warned with the throughput it caps a connection at
 * (GetWarnings), and so is a scale above 1 (WanScaleCheck::TcpAtScale: TCP's
 * windows count segments, so its times are not scale-free).
 */
class WanCollectiveHelper
{
  public:
    /**
     * @param network the network, installed (Install), kept by reference
     * @param app the members' application, a WanCollectiveApplication
     * @param what the collective's name, for messages ("ring all-reduce")
     */
    WanCollectiveHelper(const WanNetworkHelper& network, TypeId app, std::string what);

    /**
     * @param name an attribute of the members' application
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
     * @param from a city
     * @param to another
     * @return the path's bandwidth-delay product at the network's scale,
     *         bytes: its narrowest rate (the sender's egress, the core links,
     *         the receiver's ingress) times its round trip, twice its one-way
     *         latency plus the store and forward of one MTU-sized frame on its
     *         links, the sender's own included (RoundPlanner::GetFrameDelay
     *         and the sender's egress), at the network's scale, which makes
     *         frames the scale times longer
     */
    double BandwidthDelayProduct(uint32_t from, uint32_t to) const;

    /** @return the warnings of the last Install (TCP at a scale above 1,
     *  buffers below the product) */
    const std::vector<std::string>& GetWarnings() const;

  protected:
    /**
     * @param cities members
     * @throws std::invalid_argument unless at least 2 cities of the
     *         topology, each once
     */
    void CheckMembers(const std::vector<uint32_t>& cities) const;
    /**
     * @return C, the chunks of D / scale bytes
     * @throws std::invalid_argument beyond 2^32 chunks
     */
    uint32_t Chunks() const;
    /**
     * @param city a member
     * @param chunks C
     * @return its value of each chunk, fixed point
     */
    static std::vector<int64_t> OwnValues(uint32_t city, uint32_t chunks);
    /**
     * @param cities the members
     * @param chunks C
     * @return each chunk's sum over them, fixed point
     */
    static std::vector<int64_t> ExpectedSums(const std::vector<uint32_t>& cities, uint32_t chunks);
    /**
     * @param cities the members
     * @return their islands' addresses
     */
    std::vector<Ipv4Address> Addresses(const std::vector<uint32_t>& cities) const;
    /**
     * @brief A member's application, its buffers set (twice its paths'
     * largest products unless set), a buffer below a path's product warned,
     * installed on its island.
     * @param city its city
     * @param sendsTo the cities it sends records to
     * @param receivesFrom the cities it receives records from
     * @return the application
     */
    Ptr<WanCollectiveApplication> Create(uint32_t city,
                                         const std::vector<uint32_t>& sendsTo,
                                         const std::vector<uint32_t>& receivesFrom);
    /// Starts an Install: forgets the last one's warnings and members, and
    /// warns that TCP's times are not scale-free at a scale above 1
    /// (WanScaleCheck::TcpAtScale).
    void StartInstall();
    /**
     * @brief Once every member of an Install is created (Create): each
     * receive buffer, unless set, raised to over twice the largest send
     * buffer of the members it receives from (see the class); one set
     * below that warned.
     */
    void SizeReceiveBuffers();

    const WanNetworkHelper& m_network; //!< the network
    std::string m_what;                //!< the collective's name
    double m_payload{1e9};             //!< D, bytes before the scale
    double m_scale{1};                 //!< the network's scale

  private:
    /**
     * @param buffer a buffer, bytes
     * @param kind "send" or "receive"
     * @param city its member
     * @param from the path's sender
     * @param to its receiver
     */
    void WarnBelow(uint32_t buffer,
                   const std::string& kind,
                   uint32_t city,
                   uint32_t from,
                   uint32_t to);

    /// A member of the last Install.
    struct Member
    {
        Ptr<WanCollectiveApplication> app;  //!< its application
        uint32_t city;                      //!< its city
        std::vector<uint32_t> receivesFrom; //!< whom it receives from
    };

    ObjectFactory m_factory;                               //!< the members' applications
    std::vector<Member> m_members;                         //!< of the last Install
    mutable std::shared_ptr<const RoundPlanner> m_planner; //!< frame delays, made at first use
    std::map<uint32_t, uint32_t> m_sendBytes;              //!< each member's send buffer, by city
    bool m_sendBufferSet{false};                           //!< SendBuffer set by the user
    bool m_receiveBufferSet{false};                        //!< ReceiveBuffer set by the user
    std::vector<std::string> m_warnings;                   //!< of the last Install
};

} // namespace ns3

#endif /* WAN_COLLECTIVE_HELPER_H */
