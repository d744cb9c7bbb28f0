/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-tcp-bulk-sender.h"

#include "wan-training-compat.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTcpBulkSender");
NS_OBJECT_ENSURE_REGISTERED(WanTcpBulkSender);

TypeId
WanTcpBulkSender::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanTcpBulkSender")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanTcpBulkSender>()
            .AddAttribute("Remote",
                          "The sink's address (an InetSocketAddress)",
                          AddressValue(),
                          MakeAddressAccessor(&WanTcpBulkSender::m_remote),
                          MakeAddressChecker())
            .AddAttribute("SegmentSize",
                          "TCP segment size, bytes (TcpSocket's SegmentSize): the path's MTU "
                          "less the IPv4 and TCP headers",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&WanTcpBulkSender::m_segmentBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("SendBuffer",
                          "TCP send buffer, bytes (TcpSocket's SndBufSize)",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&WanTcpBulkSender::m_sendBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReceiveBuffer",
                          "TCP receive buffer, bytes (TcpSocket's RcvBufSize; set before the "
                          "SYN, which fixes the window scale)",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&WanTcpBulkSender::m_receiveBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MaxBytes",
                          "Bytes to send (0: until the application stops)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WanTcpBulkSender::m_maxBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("CongestionControl",
                          "The connection's congestion control: a TcpCongestionOps, e.g. "
                          "ns3::TcpCubic, ns3::TcpBbr, ns3::TcpNewReno",
                          TypeIdValue(TcpCubic::GetTypeId()),
                          MakeTypeIdAccessor(&WanTcpBulkSender::m_congestion),
                          MakeTypeIdChecker())
            .AddTraceSource("Tx",
                            "Bytes handed to the socket",
                            MakeTraceSourceAccessor(&WanTcpBulkSender::m_txTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

WanTcpBulkSender::WanTcpBulkSender() = default;

WanTcpBulkSender::~WanTcpBulkSender() = default;

uint64_t
WanTcpBulkSender::GetBytesSent() const
{
    return m_sent;
}

uint64_t
WanTcpBulkSender::GetRetransmissions() const
{
    return m_retransmissions;
}

bool
WanTcpBulkSender::IsConnected() const
{
    return m_connected;
}

void
WanTcpBulkSender::DoDispose()
{
    m_socket = nullptr;
    Application::DoDispose();
}

void
WanTcpBulkSender::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (!InetSocketAddress::IsMatchingType(m_remote))
    {
        NS_FATAL_ERROR("WanTcpBulkSender: Remote is not an IPv4 socket address");
    }
    const auto congestion = wancompat::MakeCongestionControl(m_congestion);
    if (!congestion)
    {
        NS_FATAL_ERROR("WanTcpBulkSender: CongestionControl " << m_congestion.GetName()
                                                              << " is not a TcpCongestionOps");
    }
    m_socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    m_socket->SetAttribute("SegmentSize", UintegerValue(m_segmentBytes));
    m_socket->SetAttribute("SndBufSize", UintegerValue(m_sendBuffer));
    m_socket->SetAttribute("RcvBufSize", UintegerValue(m_receiveBuffer));
    m_socket->SetAttribute("Sack", BooleanValue(true));
    auto tcp = DynamicCast<TcpSocketBase>(m_socket);
    tcp->SetCongestionControlAlgorithm(congestion);
    tcp->TraceConnectWithoutContext("Tx", MakeCallback(&WanTcpBulkSender::Transmitted, this));
    m_socket->SetConnectCallback(MakeCallback(&WanTcpBulkSender::Connected, this),
                                 MakeCallback(&WanTcpBulkSender::Failed, this));
    m_socket->SetSendCallback(MakeCallback(&WanTcpBulkSender::Fill, this));
    m_socket->Bind();
    m_socket->Connect(m_remote);
}

void
WanTcpBulkSender::StopApplication()
{
    NS_LOG_FUNCTION(this);
    if (m_socket)
    {
        m_socket->Close();
    }
}

void
WanTcpBulkSender::Connected(Ptr<Socket> socket)
{
    NS_LOG_INFO(GetNode()->GetId() << ": bulk connection up");
    m_connected = true;
    Fill(socket, socket->GetTxAvailable());
}

void
WanTcpBulkSender::Failed(Ptr<Socket> socket)
{
    NS_LOG_WARN(GetNode()->GetId() << ": bulk connection refused");
}

void
WanTcpBulkSender::Fill(Ptr<Socket> socket, uint32_t available)
{
    if (!m_connected || m_done)
    {
        return;
    }
    // A segment at a time, whole segments while more are left: one packet
    // per segment keeps ns-3's packet metadata small.
    while (m_maxBytes == 0 || m_sent < m_maxBytes)
    {
        const uint64_t left =
            m_maxBytes == 0 ? std::numeric_limits<uint64_t>::max() : m_maxBytes - m_sent;
        const auto size = static_cast<uint32_t>(std::min<uint64_t>(m_segmentBytes, left));
        if (socket->GetTxAvailable() < size)
        {
            return;
        }
        auto packet = Create<Packet>(size);
        if (socket->Send(packet) < static_cast<int>(size))
        {
            return;
        }
        m_sent += size;
        m_txTrace(packet);
    }
    NS_LOG_INFO(GetNode()->GetId() << ": " << m_sent << " bytes handed to the socket, closing");
    m_done = true;
    socket->Close();
}

void
WanTcpBulkSender::Transmitted(Ptr<const Packet> packet,
                              const TcpHeader& header,
                              Ptr<const TcpSocketBase> socket)
{
    if (packet->GetSize() == 0)
    {
        return;
    }
    if (header.GetSequenceNumber() < m_highest)
    {
        ++m_retransmissions;
    }
    m_highest = std::max(m_highest, header.GetSequenceNumber() + packet->GetSize());
}

} // namespace ns3
