/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_BFD_APPLICATION_H
#define WAN_BFD_APPLICATION_H

#include "wan-bfd-session.h"

#include "ns3/application.h"
#include "ns3/event-id.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <memory>
#include <vector>

namespace ns3
{

class Socket;
class Packet;
class Address;

/**
 * @ingroup wan-training
 * @brief Single-hop BFD (RFC 5880, RFC 5881) on a router: one session per
 * neighbour, each over UDP port 3784 between the two ends' addresses of the
 * link, so that a link that silently stops carrying packets (a cut fibre, a
 * dead line card) is detected within the detection time, without any
 * component being told.
 *
 * Each session is a WanBfdSession; this application sends its control
 * packets every transmit interval (jittered from its own random stream),
 * hands it what arrives, and checks its detection timer.  Sessions start
 * Down, transmit once a second until Up (as RFC 5880 requires), then at
 * DesiredMinTx.  SessionUp and SessionDown report each end's transitions.
 */
class WanBfdApplication : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    /// @return DesiredMinTx's default (the experiment's BFD interval unless set)
    static Time GetDefaultInterval();
    /// @return DetectMultiplier's default
    static uint32_t GetDefaultMultiplier();
    WanBfdApplication();
    ~WanBfdApplication() override;

    /**
     * @brief Adds a session with a neighbour, before the application starts.
     * @param local this router's address on the link
     * @param remote the neighbour's address on the link
     */
    void AddPeer(Ipv4Address local, Ipv4Address remote);
    /** @return the sessions' number */
    uint32_t GetNPeers() const;
    /** @return BFD control packets sent, over every session */
    uint64_t GetPacketsSent() const;
    /** @return their bytes (UDP payload) */
    uint64_t GetBytesSent() const;
    /**
     * @param peer a session's index (AddPeer order)
     * @return its state machine
     */
    const WanBfdSession& GetSession(uint32_t peer) const;
    /**
     * @param stream first stream number of the transmit jitter
     * @return the streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature of a session's transitions.
     * @param local this router's address on the link
     * @param remote the neighbour's
     * @param diagnostic why (RFC 5880 diagnostic code; 0 when it comes up)
     */
    typedef void (*SessionTracedCallback)(Ipv4Address local,
                                          Ipv4Address remote,
                                          uint8_t diagnostic);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// One neighbour: the link's addresses, its session, socket and timers.
    struct Peer
    {
        Ipv4Address local;                      //!< this end's address
        Ipv4Address remote;                     //!< the neighbour's
        std::unique_ptr<WanBfdSession> session; //!< the state machine
        Ptr<Socket> socket;                     //!< bound to local:3784
        EventId transmit;                       //!< next control packet
        EventId detect;                         //!< detection timer
    };

    /// Sends peer k's control packet and schedules the next.
    void Transmit(uint32_t k);
    /// Reads what arrived on peer k's socket.
    void Receive(uint32_t k, Ptr<Socket> socket);
    /// The detection timer of peer k expired.
    void Detect(uint32_t k);
    /// Reports a change of peer k's state.
    void Report(uint32_t k, WanBfdHeader::State before);

    std::vector<Peer> m_peers;           //!< sessions
    Time m_desiredMinTx;                 //!< desired minimum transmit interval
    Time m_requiredMinRx;                //!< required minimum receive interval
    uint8_t m_detectMultiplier{3};       //!< detect time multiplier
    uint32_t m_firstDiscriminator{1};    //!< discriminator of the first session
    Ptr<UniformRandomVariable> m_jitter; //!< transmit jitter
    uint64_t m_dropped{0};               //!< packets refused or not for a session
    uint64_t m_packetsSent{0};           //!< control packets sent
    uint64_t m_bytesSent{0};             //!< their bytes
    TracedCallback<Ipv4Address, Ipv4Address, uint8_t> m_upTrace;   //!< a session came up
    TracedCallback<Ipv4Address, Ipv4Address, uint8_t> m_downTrace; //!< a session went down
};

} // namespace ns3

#endif /* WAN_BFD_APPLICATION_H */
