/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PIM_ROUTER_H
#define WAN_PIM_ROUTER_H

#include "wan-pim-header.h"
#include "wan-pim-state.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

class Packet;
class Socket;

/**
 * @ingroup wan-training
 * @brief PIM-SSM on a router (RFC 7761's (S,G) part, RFC 4607): Hellos and
 * Join/Prune messages on the wire, (S,G) state in a WanPimState, and the
 * node's multicast forwarding programmed from it.
 *
 * Each PIM interface (a point-to-point core link, AddInterface) has a raw
 * socket for IP protocol 103 bound to its device; Hellos and Join/Prunes go
 * to ALL-PIM-ROUTERS (224.0.0.13) on it.  A Join/Prune is accepted only from
 * a neighbour whose Hello holdtime runs and only when its upstream field
 * names this router; a message that does not parse (WanPimHeader refuses
 * it) is dropped and counted, as is one for a group outside 232/8.
 *
 * The (S,G) state programs the node's Ipv4StaticRouting: one multicast route
 * per (S,G), input interface the RPF interface (the unicast next hop
 * towards S; the edge interface when S is attached here), outputs the
 * outgoing interfaces (the edge interface for local members).  It is
 * rewritten whenever the state changes (trace Forwarding).
 *
 * Local membership (the edge's IGMPv3/MLDv2 report, not carried as a
 * message) is JoinLocal/LeaveLocal.  RoutesChanged re-reads the unicast
 * routes (a reconvergence): every (S,G) whose RPF neighbour changed joins the
 * new one and prunes the old.  NeighbourDown takes a neighbour's state away
 * at once (BFD for PIM); NeighbourUp sends it a Hello.
 *
 * A triggered Join or Prune is repeated every JoinRetryPeriod until the
 * upstream router confirms it with a Join-Ack (the Join/Prune's groups echoed
 * back, RFC 3973's Graft-Ack); a router with a JoinRetryPeriod acknowledges
 * every Join/Prune it accepts.  JoinRetryPeriod 0 is RFC 7761 alone: a lost
 * triggered Join waits for the next periodic Join.
 *
 * Before the application starts, messages are queued (TakePending), so that
 * WanPimHelper::Converge can bring a network to its steady state at time 0.
 */
class WanPimRouter : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    WanPimRouter();
    ~WanPimRouter() override;

    /**
     * @brief Enables PIM on an interface (before the application starts).
     * @param interface the IPv4 interface index (a point-to-point link)
     * @param neighbour the address of the router at its other end
     */
    void AddInterface(uint32_t interface, Ipv4Address neighbour);
    /**
     * @param interface the interface towards the local edge (sources and
     *        members attached here)
     */
    void SetEdgeInterface(uint32_t interface);

    /**
     * @brief The edge joins (S,G) (local membership).
     * @param source S
     * @param group G, in 232.0.0.0/8
     */
    void JoinLocal(Ipv4Address source, Ipv4Address group);
    /**
     * @brief The edge leaves (S,G).
     * @param source S
     * @param group G
     */
    void LeaveLocal(Ipv4Address source, Ipv4Address group);
    /** @brief The unicast routes changed: move every (S,G) to its RPF neighbour. */
    void RoutesChanged();
    /**
     * @brief A neighbour is known to be gone (its BFD session went down).
     * @param neighbour its address
     */
    void NeighbourDown(Ipv4Address neighbour);
    /**
     * @brief A neighbour is reachable again: a Hello goes to it.
     * @param neighbour its address
     */
    void NeighbourUp(Ipv4Address neighbour);

    /**
     * @brief Handles a PIM message from a neighbour (what the sockets call;
     * WanPimHelper::Converge calls it directly).
     * @param from the neighbour's address
     * @param message the message
     */
    void Deliver(Ipv4Address from, const WanPimHeader& message);
    /** @brief Sends a Hello on every PIM interface (queued before the start). */
    void Greet();
    /**
     * @return the messages queued before the application started, with the
     *         neighbour each goes to (the queue is emptied)
     */
    std::vector<std::pair<Ipv4Address, WanPimHeader>> TakePending();
    /**
     * @return this router's address on the link to a neighbour
     * @param neighbour the neighbour's address
     */
    Ipv4Address GetLocalAddress(Ipv4Address neighbour) const;

    /** @return the (S,G) state */
    const WanPimState& GetState() const;
    /** @return PIM messages sent */
    uint64_t GetMessagesSent() const;
    /** @return their bytes (IP payload) */
    uint64_t GetBytesSent() const;
    /** @return PIM messages received and accepted */
    uint64_t GetMessagesReceived() const;
    /** @return PIM messages dropped (malformed, not from a neighbour, not for here) */
    uint64_t GetMessagesDropped() const;
    /** @return triggered Joins and Prunes sent again, not confirmed within
     * JoinRetryPeriod */
    uint64_t GetRetries() const;

    /**
     * TracedCallback signature of a forwarding change.
     * @param source S
     * @param group G
     * @param input the RPF interface (0 when the route was removed)
     * @param outputs the outgoing interfaces' number (0: removed)
     */
    typedef void (*ForwardingTracedCallback)(Ipv4Address source,
                                             Ipv4Address group,
                                             uint32_t input,
                                             uint32_t outputs);
    /**
     * TracedCallback signature of a message sent or accepted.
     * @param message the PIM message
     * @param interface the interface it went out or came in on
     */
    typedef void (*MessageTracedCallback)(Ptr<const Packet> message, uint32_t interface);
    /**
     * TracedCallback signature of a dropped message.
     * @param packet the message, IP header removed
     * @param reason why it was dropped
     */
    typedef void (*DropTracedCallback)(Ptr<const Packet> packet, const std::string& reason);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// The RPF interface towards a source (WanPimState::LOCAL: attached here).
    uint32_t Rpf(Ipv4Address source) const;
    /// @return the (S,G) state, built from the attributes on first use
    WanPimState& State();
    /// @return the PIM interface of a neighbour (none: not a neighbour)
    std::optional<uint32_t> InterfaceOf(Ipv4Address neighbour) const;
    /// Sends messages (grouped per neighbour), programs forwarding, re-arms the timer.
    void Apply(const std::vector<WanPimState::Message>& messages);
    /// Counts and sends one message on an interface (or queues it before the start).
    void Send(uint32_t interface, const WanPimHeader& message);
    /// Puts one message on an interface's link.
    void Transmit(uint32_t interface, const WanPimHeader& message);
    /// Greets, and schedules the next Hellos.
    void SendHellos();
    /// The state's timers.
    void Timer();
    /// Rewrites the multicast routes that differ from the state.
    void Program();
    /// Reads what arrived on an interface's socket.
    void Receive(uint32_t interface, Ptr<Socket> socket);
    /// Confirms what a Join-Ack echoes.
    void Confirmed(uint32_t interface, const WanPimHeader& ack);
    /// Counts and traces a dropped message.
    void Drop(Ptr<const Packet> packet, const std::string& reason);
    /// @return the time now, seconds
    static double Now();

    /// A programmed multicast route.
    struct Route
    {
        uint32_t input{0};            //!< RPF interface
        std::vector<uint32_t> output; //!< outgoing interfaces

        bool operator==(const Route& other) const
        {
            return input == other.input && output == other.output;
        }
    };

    std::unique_ptr<WanPimState> m_state;                              //!< (S,G) state
    std::map<uint32_t, Ipv4Address> m_neighbours;                      //!< interface -> neighbour
    std::map<uint32_t, Ptr<Socket>> m_sockets;                         //!< interface -> socket
    uint32_t m_edge{0};                                                //!< edge interface
    std::map<std::pair<Ipv4Address, Ipv4Address>, Route> m_routes;     //!< programmed (S,G) routes
    std::vector<std::pair<Ipv4Address, WanPimHeader>> m_pending;       //!< before the start
    bool m_running{false};                                             //!< between start and stop
    EventId m_timer;                                                   //!< next state timer
    EventId m_hello;                                                   //!< next Hellos
    Time m_helloPeriod;                                                //!< Hello period
    Time m_helloHoldtime;                                              //!< Hello holdtime
    Time m_joinPeriod;                                                 //!< Join/Prune period
    Time m_joinHoldtime;                                               //!< Join/Prune holdtime
    Time m_joinRetry;                                                  //!< triggered retry period
    uint64_t m_sent{0};                                                //!< messages sent
    uint64_t m_bytes{0};                                               //!< their bytes
    uint64_t m_received{0};                                            //!< messages accepted
    uint64_t m_dropped{0};                                             //!< messages dropped
    TracedCallback<Ptr<const Packet>, uint32_t> m_txTrace;             //!< a message sent
    TracedCallback<Ptr<const Packet>, uint32_t> m_rxTrace;             //!< a message accepted
    TracedCallback<Ptr<const Packet>, const std::string&> m_dropTrace; //!< a message dropped
    TracedCallback<Ipv4Address, Ipv4Address, uint32_t, uint32_t>
        m_forwardingTrace; //!< a multicast route changed
};

} // namespace ns3

#endif /* WAN_PIM_ROUTER_H */
