/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RING_APPLICATION_H
#define WAN_RING_APPLICATION_H

#include "wan-ring-all-reduce.h"

#include "ns3/application.h"
#include "ns3/ipv4-address.h"
#include "ns3/nstime.h"
#include "ns3/sequence-number.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <deque>
#include <map>
#include <memory>
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
 * @brief One member of a ring all-reduce over ns-3's TCP: what an island
 * runs today to average its model with the others across a WAN (NCCL's or
 * Gloo's ring, INTELLECT-1's int8 ring over TCP), for comparison with the
 * paper's multicast trees and FPGAs on the same links.
 *
 * The member keeps `Connections` persistent TCP connections to the next
 * member of the ring (chunks striped over them by index, as production
 * collectives pool connections) and accepts the previous member's on
 * `Port`. At `Begin` (or once its connections are up, if later) it runs
 * WanRingAllReduce: 2(N - 1) steps of D / N bytes, each chunk forwarded as
 * soon as it arrives, summed while the steps reduce. A chunk is one record
 * of `ChunkBytes` on the byte stream: its step, index and fixed-point value
 * (16 bytes, big-endian), then padding. The sums are checked exact against
 * the members' contributions when the member holds every chunk's sum.
 *
 * Every socket is set before it connects or listens, since TCP fixes its
 * window scale at the SYN: the node's congestion control (`CongestionControl`,
 * TcpL4Protocol's SocketType: CUBIC by default, as Linux), the segment size
 * from the island's MTU (its IPv4 and TCP headers, with timestamps, taken
 * off), SACK, and the send and receive buffers (WanRingAllReduceHelper sets
 * them to at least the path's bandwidth-delay product).
 */
class WanRingApplication : public Application
{
  public:
    /// Bytes of a record's header: step, chunk (4 each), value (8).
    static constexpr uint32_t RECORD_HEADER_BYTES = 16;

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    WanRingApplication();
    ~WanRingApplication() override;

    /**
     * @brief The ring, before the application starts.
     * @param members every member's island address, in ring order (at least 2)
     * @param position this member's place among them
     * @param own this member's value of each chunk
     * @param expected each chunk's sum over the members (for the check)
     * @throws std::invalid_argument naming the bad value
     */
    void SetRing(const std::vector<Ipv4Address>& members,
                 uint32_t position,
                 std::vector<int64_t> own,
                 std::vector<int64_t> expected);

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
    /** @return records refused (a stream that does not fit the ring) */
    uint64_t GetRefused() const;

    /**
     * TracedCallback signature of a member's completion.
     * @param duration from the collective's beginning
     * @param exact whether every sum is the members'
     */
    typedef void (*CompleteCallback)(Time duration, bool exact);

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// A connection's reading state: bytes into the current record.
    struct Inbox
    {
        uint32_t at{0};                        //!< bytes of the record read
        uint8_t header[RECORD_HEADER_BYTES]{}; //!< its header, as read
    };

    /**
     * @return a TCP socket of this node, set up as the class says
     */
    Ptr<Socket> NewSocket();
    /// @param socket an outgoing connection, up
    void Connected(Ptr<Socket> socket);
    /// @param socket an outgoing connection that could not be made
    void ConnectionFailed(Ptr<Socket> socket);
    /**
     * @param socket the previous member's new connection
     * @param from its address
     */
    void Accepted(Ptr<Socket> socket, const Address& from);
    /// @param socket a connection with data to read
    void Read(Ptr<Socket> socket);
    /// @param socket an outgoing connection: reads the receiver's greeting
    void Greeted(Ptr<Socket> socket);
    /**
     * @param socket an outgoing connection with room
     * @param available bytes of room
     */
    void Writable(Ptr<Socket> socket, uint32_t available);
    /// Begins the collective once it is time and the connections are up.
    void Begin();
    /**
     * @brief Queues records to the next member, each on its chunk's connection.
     * @param records the records
     */
    void Send(const std::vector<WanRingAllReduce::Record>& records);
    /// @param connection an outgoing connection: writes what fits
    void Pump(uint32_t connection);
    /**
     * @brief One record read.
     * @param header its header bytes
     */
    void Take(const uint8_t* header);
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
    uint32_t m_connections;   //!< connections to the next member (attribute)
    uint32_t m_sendBuffer;    //!< send buffer per socket, bytes (attribute)
    uint32_t m_receiveBuffer; //!< receive buffer per socket, bytes (attribute)
    TypeId m_congestion;      //!< congestion control (attribute)
    uint16_t m_port;          //!< the port members listen on (attribute)
    Time m_begin;             //!< when the collective begins (attribute)

    std::vector<Ipv4Address> m_members;                         //!< ring order
    uint32_t m_position{0};                                     //!< this member
    std::vector<int64_t> m_expected;                            //!< each chunk's sum
    std::unique_ptr<WanRingAllReduce> m_ring;                   //!< the logic
    Ptr<Socket> m_listener;                                     //!< accepts the previous member
    std::vector<Ptr<Socket>> m_out;                             //!< to the next member
    std::vector<std::deque<WanRingAllReduce::Record>> m_queues; //!< per connection
    std::map<Ptr<Socket>, Inbox> m_in;                          //!< from the previous member
    std::vector<uint8_t> m_record;                              //!< a record's bytes, to send
    std::map<const TcpSocketBase*, SequenceNumber32> m_highest; //!< per socket, sent
    uint32_t m_up{0};                                           //!< outgoing connections up
    bool m_begun{false};                                        //!< the collective began
    Time m_begunAt;                                             //!< when
    Time m_completedAt;                                         //!< when it completed (0: not)
    bool m_exact{false};                                        //!< the sums checked exact
    uint64_t m_bytesSent{0};                                    //!< payload sent
    uint64_t m_bytesReceived{0};                                //!< payload received
    uint64_t m_retransmissions{0};                              //!< segments sent again
    uint64_t m_refused{0};                                      //!< records refused

    /// Completion: duration and exactness.
    TracedCallback<Time, bool> m_completeTrace;
};

} // namespace ns3

#endif /* WAN_RING_APPLICATION_H */
