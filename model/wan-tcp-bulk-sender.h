/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TCP_BULK_SENDER_H
#define WAN_TCP_BULK_SENDER_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/sequence-number.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

namespace ns3
{

class Packet;
class Socket;
class TcpHeader;
class TcpSocketBase;

/**
 * @ingroup wan-training
 * @brief A TCP bulk sender whose socket is set before it connects: what
 * ns-3's BulkSendApplication does (keeps one connection's send buffer full
 * until MaxBytes), with the settings a WAN needs and BulkSendApplication
 * cannot take (it creates its socket and connects in one step, with
 * TcpSocket's default buffers, and TCP fixes its window scale at the SYN):
 * the send and receive buffers, the segment size, SACK and the connection's
 * own congestion control (TcpSocketBase::SetCongestionControlAlgorithm,
 * so other applications of the node keep theirs).
 *
 * The elastic kind of cross traffic (WanTcpCrossTrafficHelper); its peer is
 * a WanTcpBulkSink, or any TCP listener.
 */
class WanTcpBulkSender : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    WanTcpBulkSender();
    ~WanTcpBulkSender() override;

    /** @return bytes handed to the socket (sent or in its buffer) */
    uint64_t GetBytesSent() const;
    /** @return TCP segments the connection sent again */
    uint64_t GetRetransmissions() const;
    /** @return true once the connection is up */
    bool IsConnected() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// @param socket the connection, up
    void Connected(Ptr<Socket> socket);
    /// @param socket the connection, refused
    void Failed(Ptr<Socket> socket);
    /**
     * @brief Hands the socket what fits of the bytes left.
     * @param socket the connection
     * @param available bytes of room
     */
    void Fill(Ptr<Socket> socket, uint32_t available);
    /**
     * @brief Counts a segment sent again: one that starts below the highest
     * sequence number sent (TcpSocketBase's Tx trace).
     * @param packet the segment's payload
     * @param header its TCP header
     * @param socket the socket
     */
    void Transmitted(Ptr<const Packet> packet,
                     const TcpHeader& header,
                     Ptr<const TcpSocketBase> socket);

    Address m_remote;              //!< the sink's address
    uint32_t m_segmentBytes{0};    //!< segment size
    uint32_t m_sendBuffer{0};      //!< send buffer, bytes
    uint32_t m_receiveBuffer{0};   //!< receive buffer, bytes
    uint64_t m_maxBytes{0};        //!< bytes to send (0: until stopped)
    TypeId m_congestion;           //!< congestion control
    Ptr<Socket> m_socket;          //!< the connection
    bool m_connected{false};       //!< whether it is up
    bool m_done{false};            //!< whether MaxBytes were handed over (closed)
    uint64_t m_sent{0};            //!< bytes handed to the socket
    uint64_t m_retransmissions{0}; //!< segments sent again
    SequenceNumber32 m_highest{0}; //!< end of the highest segment sent

    /// Bytes handed to the socket (the packet).
    TracedCallback<Ptr<const Packet>> m_txTrace;
};

} // namespace ns3

#endif /* WAN_TCP_BULK_SENDER_H */
