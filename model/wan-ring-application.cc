/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-ring-application.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-header.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-base.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRingApplication");
NS_OBJECT_ENSURE_REGISTERED(WanRingApplication);

namespace
{

/// IPv4 header, TCP header and its timestamp option (12 bytes, padded).
constexpr uint32_t kTcpIpOverhead = 20 + 20 + 12;

/**
 * @param at where to write
 * @param value a 64-bit value, big-endian
 * @param bytes how many of its low bytes
 */
void
PutBigEndian(uint8_t* at, uint64_t value, uint32_t bytes)
{
    for (uint32_t b = 0; b < bytes; ++b)
    {
        at[b] = static_cast<uint8_t>(value >> (8 * (bytes - 1 - b)));
    }
}

/**
 * @param at where to read
 * @param bytes how many
 * @return the big-endian value
 */
uint64_t
GetBigEndian(const uint8_t* at, uint32_t bytes)
{
    uint64_t value = 0;
    for (uint32_t b = 0; b < bytes; ++b)
    {
        value = (value << 8) | at[b];
    }
    return value;
}

} // namespace

TypeId
WanRingApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanRingApplication")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanRingApplication>()
            .AddAttribute("ChunkBytes",
                          "Bytes of one chunk's record on the TCP stream (its 16-byte header "
                          "included)",
                          UintegerValue(8936),
                          MakeUintegerAccessor(&WanRingApplication::m_chunkBytes),
                          MakeUintegerChecker<uint32_t>(RECORD_HEADER_BYTES))
            .AddAttribute("Connections",
                          "Parallel TCP connections to the next member (chunks striped over "
                          "them by index)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&WanRingApplication::m_connections),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("SendBuffer",
                          "TCP send buffer of each socket, bytes (TcpSocket's SndBufSize)",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&WanRingApplication::m_sendBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReceiveBuffer",
                          "TCP receive buffer of each socket, bytes (TcpSocket's RcvBufSize; "
                          "set before the SYN, which fixes the window scale)",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&WanRingApplication::m_receiveBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CongestionControl",
                          "TCP congestion control of the member's node (TcpL4Protocol's "
                          "SocketType): a TcpCongestionOps, e.g. ns3::TcpCubic, ns3::TcpBbr, "
                          "ns3::TcpNewReno",
                          TypeIdValue(TcpCubic::GetTypeId()),
                          MakeTypeIdAccessor(&WanRingApplication::m_congestion),
                          MakeTypeIdChecker())
            .AddAttribute("Port",
                          "TCP port every member listens on",
                          UintegerValue(5201),
                          MakeUintegerAccessor(&WanRingApplication::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Begin",
                          "When the collective begins (its duration is measured from then; "
                          "the connections are made from the application's start)",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&WanRingApplication::m_begin),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Complete",
                            "This member holds every chunk's sum: the time from the "
                            "collective's beginning, and whether the sums are exact",
                            MakeTraceSourceAccessor(&WanRingApplication::m_completeTrace),
                            "ns3::WanRingApplication::CompleteCallback");
    return tid;
}

WanRingApplication::WanRingApplication() = default;

WanRingApplication::~WanRingApplication() = default;

void
WanRingApplication::SetRing(const std::vector<Ipv4Address>& members,
                            uint32_t position,
                            std::vector<int64_t> own,
                            std::vector<int64_t> expected)
{
    if (expected.size() != own.size())
    {
        throw std::invalid_argument("ring all-reduce: " + std::to_string(expected.size()) +
                                    " expected sums for " + std::to_string(own.size()) + " chunks");
    }
    m_ring = std::make_unique<WanRingAllReduce>(static_cast<uint32_t>(members.size()),
                                                position,
                                                std::move(own));
    m_members = members;
    m_position = position;
    m_expected = std::move(expected);
}

Ptr<Socket>
WanRingApplication::NewSocket()
{
    const auto socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    const uint32_t mtu = GetNode()->GetObject<Ipv4>()->GetMtu(1);
    socket->SetAttribute("SegmentSize", UintegerValue(mtu - kTcpIpOverhead));
    socket->SetAttribute("SndBufSize", UintegerValue(m_sendBuffer));
    socket->SetAttribute("RcvBufSize", UintegerValue(m_receiveBuffer));
    socket->SetAttribute("Sack", BooleanValue(true));
    return socket;
}

void
WanRingApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (!m_ring)
    {
        NS_FATAL_ERROR("WanRingApplication: no ring (SetRing before the application starts)");
    }
    // Made once to check it (ns-3.37's TcpCubic names TcpSocketBase as its
    // parent TypeId, so IsChildOf cannot tell).
    ObjectFactory congestion;
    congestion.SetTypeId(m_congestion);
    if (!DynamicCast<TcpCongestionOps>(congestion.Create()))
    {
        NS_FATAL_ERROR("WanRingApplication: CongestionControl " << m_congestion.GetName()
                                                                << " is not a TcpCongestionOps");
    }
    // Node-wide, before this node's sockets exist.
    GetNode()->GetObject<TcpL4Protocol>()->SetAttribute("SocketType", TypeIdValue(m_congestion));
    m_listener = NewSocket();
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&WanRingApplication::Accepted, this));
    const Ipv4Address next = m_members[(m_position + 1) % m_members.size()];
    m_queues.assign(m_connections, {});
    for (uint32_t k = 0; k < m_connections; ++k)
    {
        auto socket = NewSocket();
        DynamicCast<TcpSocketBase>(socket)->TraceConnectWithoutContext(
            "Tx",
            MakeCallback(&WanRingApplication::Transmitted, this));
        socket->SetConnectCallback(MakeCallback(&WanRingApplication::Connected, this),
                                   MakeCallback(&WanRingApplication::ConnectionFailed, this));
        socket->SetSendCallback(MakeCallback(&WanRingApplication::Writable, this));
        socket->SetRecvCallback(MakeCallback(&WanRingApplication::Greeted, this));
        socket->Connect(InetSocketAddress(next, m_port));
        m_out.push_back(socket);
    }
    Simulator::Schedule(std::max(Time(0), m_begin - Simulator::Now()),
                        &WanRingApplication::Begin,
                        this);
}

void
WanRingApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& socket : m_out)
    {
        socket->Close();
    }
    for (auto& [socket, inbox] : m_in)
    {
        socket->Close();
    }
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
WanRingApplication::DoDispose()
{
    m_out.clear();
    m_in.clear();
    m_listener = nullptr;
    Application::DoDispose();
}

void
WanRingApplication::Connected(Ptr<Socket> socket)
{
    ++m_up;
    NS_LOG_INFO("member " << m_position << ": connection " << m_up << " of " << m_connections
                          << " up");
    Begin();
}

void
WanRingApplication::ConnectionFailed(Ptr<Socket> socket)
{
    NS_LOG_WARN("member " << m_position << ": a connection to the next member failed");
}

void
WanRingApplication::Accepted(Ptr<Socket> socket, const Address& from)
{
    socket->SetRecvCallback(MakeCallback(&WanRingApplication::Read, this));
    m_in.emplace(socket, Inbox{});
    // One byte back: its segment carries the receive window at its scale,
    // which the handshake cannot (a SYN's window is never scaled), so the
    // first step is not held to 64 KB for a round trip, as on a connection
    // that earlier syncs opened.
    socket->Send(Create<Packet>(1));
}

void
WanRingApplication::Greeted(Ptr<Socket> socket)
{
    while (socket->Recv())
    {
    }
}

void
WanRingApplication::Begin()
{
    if (m_begun || Simulator::Now() < m_begin || m_up < m_connections)
    {
        return;
    }
    m_begun = true;
    m_begunAt = Simulator::Now();
    NS_LOG_INFO("member " << m_position << ": the collective begins");
    Send(m_ring->Start());
}

void
WanRingApplication::Send(const std::vector<WanRingAllReduce::Record>& records)
{
    std::vector<bool> touched(m_connections, false);
    for (const auto& r : records)
    {
        const uint32_t k = r.chunk % m_connections;
        m_queues[k].push_back(r);
        touched[k] = true;
    }
    for (uint32_t k = 0; k < m_connections; ++k)
    {
        if (touched[k])
        {
            Pump(k);
        }
    }
}

void
WanRingApplication::Pump(uint32_t connection)
{
    auto& queue = m_queues[connection];
    const auto& socket = m_out[connection];
    while (!queue.empty() && socket->GetTxAvailable() >= m_chunkBytes)
    {
        const auto& r = queue.front();
        // The whole record as bytes (padding zeros): TCP cuts records into
        // segments anywhere, which ns-3's packet metadata does not allow
        // across padding.
        m_record.resize(m_chunkBytes, 0);
        PutBigEndian(m_record.data(), r.step, 4);
        PutBigEndian(m_record.data() + 4, r.chunk, 4);
        PutBigEndian(m_record.data() + 8, static_cast<uint64_t>(r.value), 8);
        auto packet = Create<Packet>(m_record.data(), m_chunkBytes);
        if (socket->Send(packet) < 0)
        {
            break; // no room after all: the send callback calls again
        }
        m_bytesSent += m_chunkBytes;
        queue.pop_front();
    }
}

void
WanRingApplication::Writable(Ptr<Socket> socket, uint32_t available)
{
    const auto it = std::find(m_out.begin(), m_out.end(), socket);
    if (it != m_out.end())
    {
        Pump(static_cast<uint32_t>(it - m_out.begin()));
    }
}

void
WanRingApplication::Read(Ptr<Socket> socket)
{
    auto& inbox = m_in[socket];
    while (Ptr<Packet> packet = socket->Recv())
    {
        const uint32_t size = packet->GetSize();
        m_bytesReceived += size;
        uint32_t offset = 0;
        while (offset < size)
        {
            const uint32_t take = std::min(m_chunkBytes - inbox.at, size - offset);
            if (inbox.at < RECORD_HEADER_BYTES)
            {
                const uint32_t header = std::min(RECORD_HEADER_BYTES - inbox.at, take);
                packet->CreateFragment(offset, header)->CopyData(inbox.header + inbox.at, header);
            }
            inbox.at += take;
            offset += take;
            if (inbox.at == m_chunkBytes)
            {
                inbox.at = 0;
                Take(inbox.header);
            }
        }
    }
}

void
WanRingApplication::Take(const uint8_t* header)
{
    WanRingAllReduce::Record r;
    r.step = static_cast<uint32_t>(GetBigEndian(header, 4));
    r.chunk = static_cast<uint32_t>(GetBigEndian(header + 4, 4));
    r.value = static_cast<int64_t>(GetBigEndian(header + 8, 8));
    std::vector<WanRingAllReduce::Record> next;
    try
    {
        next = m_ring->Receive(r);
    }
    catch (const std::invalid_argument& e)
    {
        ++m_refused;
        NS_LOG_WARN("member " << m_position << ": record refused: " << e.what());
        return;
    }
    Send(next);
    if (m_ring->IsComplete() && m_completedAt.IsZero())
    {
        m_completedAt = Simulator::Now();
        m_exact = m_ring->GetSums() == m_expected;
        NS_LOG_INFO("member " << m_position << " complete after " << GetDuration().As(Time::MS)
                              << (m_exact ? ", sums exact" : ", sums NOT exact"));
        m_completeTrace(GetDuration(), m_exact);
    }
}

void
WanRingApplication::Transmitted(Ptr<const Packet> packet,
                                const TcpHeader& header,
                                Ptr<const TcpSocketBase> socket)
{
    if (packet->GetSize() == 0)
    {
        return;
    }
    auto [it, added] = m_highest.try_emplace(PeekPointer(socket), header.GetSequenceNumber());
    if (!added && header.GetSequenceNumber() < it->second)
    {
        ++m_retransmissions;
    }
    const auto end = header.GetSequenceNumber() + packet->GetSize();
    if (added || end > it->second)
    {
        it->second = end;
    }
}

bool
WanRingApplication::IsComplete() const
{
    return !m_completedAt.IsZero();
}

bool
WanRingApplication::IsExact() const
{
    return IsComplete() && m_exact;
}

Time
WanRingApplication::GetDuration() const
{
    return IsComplete() ? m_completedAt - m_begunAt : Time(0);
}

uint64_t
WanRingApplication::GetBytesSent() const
{
    return m_bytesSent;
}

uint64_t
WanRingApplication::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
WanRingApplication::GetRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
WanRingApplication::GetRefused() const
{
    return m_refused;
}

} // namespace ns3
