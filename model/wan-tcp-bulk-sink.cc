/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-tcp-bulk-sink.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/socket.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTcpBulkSink");
NS_OBJECT_ENSURE_REGISTERED(WanTcpBulkSink);

TypeId
WanTcpBulkSink::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanTcpBulkSink")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanTcpBulkSink>()
            .AddAttribute("Port",
                          "TCP port listened on",
                          UintegerValue(5301),
                          MakeUintegerAccessor(&WanTcpBulkSink::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("SegmentSize",
                          "TCP segment size of its connections, bytes (TcpSocket's SegmentSize)",
                          UintegerValue(1448),
                          MakeUintegerAccessor(&WanTcpBulkSink::m_segmentBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReceiveBuffer",
                          "TCP receive buffer of each connection, bytes (TcpSocket's RcvBufSize, "
                          "set on the listening socket, which its connections copy)",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&WanTcpBulkSink::m_receiveBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddTraceSource("Rx",
                            "Bytes received: the packet and the sender's address",
                            MakeTraceSourceAccessor(&WanTcpBulkSink::m_rxTrace),
                            "ns3::Packet::AddressTracedCallback");
    return tid;
}

WanTcpBulkSink::WanTcpBulkSink() = default;

WanTcpBulkSink::~WanTcpBulkSink() = default;

uint64_t
WanTcpBulkSink::GetBytesReceived() const
{
    return m_received;
}

uint32_t
WanTcpBulkSink::GetConnections() const
{
    return static_cast<uint32_t>(m_accepted.size());
}

void
WanTcpBulkSink::DoDispose()
{
    m_listener = nullptr;
    m_accepted.clear();
    Application::DoDispose();
}

void
WanTcpBulkSink::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_listener = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    m_listener->SetAttribute("SegmentSize", UintegerValue(m_segmentBytes));
    m_listener->SetAttribute("RcvBufSize", UintegerValue(m_receiveBuffer));
    m_listener->SetAttribute("Sack", BooleanValue(true));
    if (m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) != 0)
    {
        NS_FATAL_ERROR("WanTcpBulkSink: port " << m_port << " of node " << GetNode()->GetId()
                                               << " is taken");
    }
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&WanTcpBulkSink::Accepted, this));
}

void
WanTcpBulkSink::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& socket : m_accepted)
    {
        socket->Close();
    }
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
WanTcpBulkSink::Accepted(Ptr<Socket> socket, const Address& from)
{
    NS_LOG_INFO(GetNode()->GetId()
                << ": connection from " << InetSocketAddress::ConvertFrom(from).GetIpv4());
    socket->SetRecvCallback(MakeCallback(&WanTcpBulkSink::Read, this));
    m_accepted.push_back(socket);
}

void
WanTcpBulkSink::Read(Ptr<Socket> socket)
{
    Address from;
    while (auto packet = socket->RecvFrom(from))
    {
        if (packet->GetSize() == 0)
        {
            break;
        }
        m_received += packet->GetSize();
        m_rxTrace(packet, from);
    }
}

} // namespace ns3
