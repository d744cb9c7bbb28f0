/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_COLLECTIVE_APPLICATION_H
#define WAN_COLLECTIVE_APPLICATION_H

#include "wan-collective-record.h"

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/sequence-number.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <deque>
#include <map>
#include <vector>

namespace ns3
{

class Socket;
class Packet;
class Address;
class TcpHeader;
class TcpSocketBase;

/**
 * @ingroup wan-training
 * @brief What the collectives of today's cross-region training share when
 * they run over ns-3's TCP (WanRingApplication, WanParameterServerApplication):
 * persistent connections to peers, records on the byte streams, the TCP
 * settings a WAN needs, and the figures of a run. Abstract: a collective
 * says whom it dials and listens to, what it sends at the beginning and what
 * it does with a record.
 *
 * A peer is reached over `Connections` TCP connections (chunks striped over
 * them by index, as production collectives pool connections), dialled by
 * this member or accepted on `Port`; records go both ways on either kind. A
 * chunk is one record of `ChunkBytes` on the byte stream: its step, index and
 * fixed-point value (16 bytes, big-endian), then padding. The member that
 * accepts a connection first sends one byte back: its segment carries the
 * receive window at its scale, which the handshake cannot (a SYN's window is
 * never scaled), so the first records are not held to 64 KB for a round
 * trip, as on connections that earlier syncs opened; the dialling side skips
 * it.
 *
 * Every socket is set before it connects or listens, since TCP fixes its
 * window scale at the SYN: the node's congestion control (`CongestionControl`,
 * TcpL4Protocol's SocketType: CUBIC by default, as Linux), the segment size
 * from the island's MTU (its IPv4 and TCP headers, with timestamps, taken
 * off), SACK, and the send and receive buffers (the helpers set them to at
 * least the path's bandwidth-delay product). A receive buffer below two
 * segments (MinimumBuffer) is refused: the window it advertises cannot hold a
 * full segment, which TCP's silly-window avoidance stalls on and which
 * ns-3.37's TCP sends past (an assert in TcpSocketBase::SendDataPacket when
 * an accepted connection sends at once).
 *
 * The collective begins at `Begin`, or once every dialled connection is up
 * if later; its duration is measured from then to the member's completion.
 */
class WanCollectiveApplication : public Application
{
  public:
    /// Bytes of a record's header: step, chunk (4 each), value (8).
    static constexpr uint32_t RECORD_HEADER_BYTES = 16;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    WanCollectiveApplication();
    ~WanCollectiveApplication() override;

    /**
     * @param node a node with IPv4, its island interface first
     * @return the smallest ReceiveBuffer its members take, bytes: two TCP
     * segments at its interface's MTU
     */
    static uint32_t MinimumBuffer(Ptr<Node> node);

    /** @return true when this member holds every chunk's sum */
    bool IsComplete() const;
    /** @return true when complete and every sum equals the members' */
    bool IsExact() const;
    /** @return how long after the collective began this member completed */
    Time GetDuration() const;
    /** @return payload bytes this member sent (records, on every connection) */
    uint64_t GetBytesSent() const;
    /** @return payload bytes it received */
    uint64_t GetBytesReceived() const;
    /** @return TCP segments its connections sent again */
    uint64_t GetRetransmissions() const;
    /** @return records refused (a stream that does not fit the collective) */
    uint64_t GetRefused() const;

    /**
     * TracedCallback signature of a member's completion.
     * @param duration from the collective's beginning
     * @param exact whether every sum is the members'
     */
    typedef void (*CompleteCallback)(Time duration, bool exact);

  protected:
    void DoDispose() override;

    /**
     * @brief At the application's start, after the node's TCP is set:
     * listens (Listen) and dials (Dial) as the collective needs.
     */
    virtual void DoStart() = 0;
    /// The collective begins: sends its first records (SendTo).
    virtual void DoBegin() = 0;
    /**
     * @brief A record from a peer.
     * @param peer the peer
     * @param record what came
     * @throws std::invalid_argument to refuse it (counted, logged)
     */
    virtual void DoReceive(uint32_t peer, const WanCollectiveRecord& record) = 0;
    /**
     * @param from the address of a connection accepted
     * @return the peer it belongs to, or -1 to close it
     */
    virtual int64_t PeerOf(Ipv4Address from) const = 0;

    /// Accepts connections on `Port`.
    void Listen();
    /**
     * @brief Opens `Connections` connections to a peer.
     * @param peer the peer's number in the collective
     * @param address its island's address
     */
    void Dial(uint32_t peer, Ipv4Address address);
    /**
     * @brief Queues records to a peer, each on its chunk's connection.
     * @param peer a peer dialled or accepted
     * @param records the records
     */
    void SendTo(uint32_t peer, const std::vector<WanCollectiveRecord>& records);
    /**
     * @brief This member holds every chunk's sum (once: later calls are ignored).
     * @param exact whether every sum is the members'
     */
    void Complete(bool exact);

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// One connection: its peer, its queue, its reading state.
    struct Stream
    {
        uint32_t peer{0};                        //!< the peer
        uint32_t skip{0};                        //!< greeting bytes still to skip
        uint32_t at{0};                          //!< bytes of the record read
        uint8_t header[RECORD_HEADER_BYTES]{};   //!< its header, as read
        std::deque<WanCollectiveRecord> queue{}; //!< records to write
    };

    /**
     * @return a TCP socket of this node, set up as the class says
     */
    Ptr<Socket> NewSocket();
    /**
     * @param node a node with IPv4, its island interface first
     * @return the TCP segment size at its interface's MTU (IPv4 and TCP
     * headers, with timestamps, taken off)
     */
    static uint32_t SegmentSize(Ptr<Node> node);
    /**
     * @brief Keeps a connection: its stream, its callbacks, its trace.
     * @param socket the socket
     * @param peer its peer
     * @param skip greeting bytes to skip before the records
     */
    void Keep(Ptr<Socket> socket, uint32_t peer, uint32_t skip);
    /// @param socket an outgoing connection, up
    void Connected(Ptr<Socket> socket);
    /// @param socket an outgoing connection that could not be made
    void ConnectionFailed(Ptr<Socket> socket);
    /**
     * @param socket a peer's new connection
     * @param from its address
     */
    void Accepted(Ptr<Socket> socket, const Address& from);
    /// @param socket a connection with data to read
    void Read(Ptr<Socket> socket);
    /**
     * @param socket a connection with room
     * @param available bytes of room
     */
    void Writable(Ptr<Socket> socket, uint32_t available);
    /// Begins the collective once it is time and the dialled connections are up.
    void Begin();
    /// @param socket a connection: writes what of its queue fits
    void Pump(Ptr<Socket> socket);
    /**
     * @brief One record read.
     * @param peer where from
     * @param header its header bytes
     */
    void Take(uint32_t peer, const uint8_t* header);
    /**
     * @brief Counts retransmissions (TcpSocketBase's Tx trace).
     * @param packet the segment's payload
     * @param header its TCP header
     * @param socket the socket
     */
    void Transmitted(Ptr<const Packet> packet,
                     const TcpHeader& header,
                     Ptr<const TcpSocketBase> socket);

    uint32_t m_chunkBytes;    //!< bytes of a record (attribute)
    uint32_t m_connections;   //!< connections per peer (attribute)
    uint32_t m_sendBuffer;    //!< send buffer per socket, bytes (attribute)
    uint32_t m_receiveBuffer; //!< receive buffer per socket, bytes (attribute)
    TypeId m_congestion;      //!< congestion control (attribute)
    uint16_t m_port;          //!< the port members listen on (attribute)
    Time m_begin;             //!< when the collective begins (attribute)

    Ptr<Socket> m_listener;                                     //!< accepts peers
    std::map<uint32_t, std::vector<Ptr<Socket>>> m_peers;       //!< per peer, its connections
    std::map<Ptr<Socket>, Stream> m_streams;                    //!< per connection
    std::vector<uint8_t> m_record;                              //!< a record's bytes, to send
    std::map<const TcpSocketBase*, SequenceNumber32> m_highest; //!< per socket, sent
    uint32_t m_dialled{0};                                      //!< outgoing connections
    uint32_t m_up{0};                                           //!< outgoing connections up
    bool m_begun{false};                                        //!< the collective began
    Time m_begunAt;                                             //!< when
    Time m_completedAt;                                         //!< when it completed (0: not)
    bool m_exact{false};                                        //!< the sums checked exact
    uint64_t m_bytesSent{0};                                    //!< payload sent
    uint64_t m_bytesReceived{0};                                //!< payload received
    uint64_t m_retransmissions{0};                              //!< segments sent again
    uint64_t m_refused{0};                                      //!< records refused

    /// A member completed: its duration and whether its sums are exact.
    TracedCallback<Time, bool> m_completeTrace;
};

} // namespace ns3

#endif /* WAN_COLLECTIVE_APPLICATION_H */
