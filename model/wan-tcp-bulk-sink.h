/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TCP_BULK_SINK_H
#define WAN_TCP_BULK_SINK_H

#include "ns3/address.h"
#include "ns3/application.h"
#include "ns3/traced-callback.h"
#include "ns3/type-id.h"

#include <vector>

namespace ns3
{

class Packet;
class Socket;

/**
 * @ingroup wan-training
 * @brief A TCP sink whose listening socket is set before it listens: what
 * ns-3's PacketSink does for TCP (accepts, reads and discards, counts),
 * with the receive buffer and segment size a WAN needs. A connection it
 * accepts is a copy of its listening socket, so the window it advertises
 * from the SYN on is the one `ReceiveBuffer` allows (PacketSink's is
 * TcpSocket's default, 131072 bytes, whatever the path).
 */
class WanTcpBulkSink : public Application
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    WanTcpBulkSink();
    ~WanTcpBulkSink() override;

    /** @return bytes received, on every connection */
    uint64_t GetBytesReceived() const;
    /** @return connections accepted */
    uint32_t GetConnections() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /**
     * @param socket a new connection
     * @param from its address
     */
    void Accepted(Ptr<Socket> socket, const Address& from);
    /// @param socket a connection with data to read
    void Read(Ptr<Socket> socket);

    uint16_t m_port{0};                    //!< port listened on
    uint32_t m_segmentBytes{0};            //!< segment size
    uint32_t m_receiveBuffer{0};           //!< receive buffer, bytes
    Ptr<Socket> m_listener;                //!< the listening socket
    std::vector<Ptr<Socket>> m_accepted{}; //!< connections accepted
    uint64_t m_received{0};                //!< bytes received

    /// Bytes received (the packet, the sender's address).
    TracedCallback<Ptr<const Packet>, const Address&> m_rxTrace;
};

} // namespace ns3

#endif /* WAN_TCP_BULK_SINK_H */
