/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-collective-application.h"

#include "wan-training-compat.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
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

NS_LOG_COMPONENT_DEFINE("WanCollectiveApplication");
NS_OBJECT_ENSURE_REGISTERED(WanCollectiveApplication);

namespace
{

/// IPv4 header, TCP header and its timestamp option (12 bytes, padded).
constexpr uint32_t kTcpIpOverhead = 20 + 20 + 12;

/// Segments the receive window must hold at least (see the class).
constexpr uint32_t kMinimumBufferSegments = 2;

/// Bytes an accepting member sends first (see the class).
constexpr uint32_t kGreetingBytes = 1;

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
WanCollectiveApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanCollectiveApplication")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddAttribute("ChunkBytes",
                          "Bytes of one chunk's record on the TCP stream (its 16-byte header "
                          "included)",
                          UintegerValue(8936),
                          MakeUintegerAccessor(&WanCollectiveApplication::m_chunkBytes),
                          MakeUintegerChecker<uint32_t>(RECORD_HEADER_BYTES))
            .AddAttribute("Connections",
                          "Parallel TCP connections to each peer (chunks striped over them by "
                          "index)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&WanCollectiveApplication::m_connections),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("SendBuffer",
                          "TCP send buffer of each socket, bytes (TcpSocket's SndBufSize)",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&WanCollectiveApplication::m_sendBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ReceiveBuffer",
                          "TCP receive buffer of each socket, bytes (TcpSocket's RcvBufSize; "
                          "set before the SYN, which fixes the window scale)",
                          UintegerValue(131072),
                          MakeUintegerAccessor(&WanCollectiveApplication::m_receiveBuffer),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CongestionControl",
                          "TCP congestion control of the member's node (TcpL4Protocol's "
                          "SocketType): a TcpCongestionOps, e.g. ns3::TcpCubic, ns3::TcpBbr, "
                          "ns3::TcpNewReno",
                          TypeIdValue(TcpCubic::GetTypeId()),
                          MakeTypeIdAccessor(&WanCollectiveApplication::m_congestion),
                          MakeTypeIdChecker())
            .AddAttribute("Port",
                          "TCP port members listen on",
                          UintegerValue(5201),
                          MakeUintegerAccessor(&WanCollectiveApplication::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Begin",
                          "When the collective begins (its duration is measured from then; "
                          "the connections are made from the application's start)",
                          TimeValue(Seconds(1)),
                          MakeTimeAccessor(&WanCollectiveApplication::m_begin),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Complete",
                            "This member holds every chunk's sum: the time from the "
                            "collective's beginning, and whether the sums are exact",
                            MakeTraceSourceAccessor(&WanCollectiveApplication::m_completeTrace),
                            "ns3::WanCollectiveApplication::CompleteCallback");
    return tid;
}

WanCollectiveApplication::WanCollectiveApplication() = default;

WanCollectiveApplication::~WanCollectiveApplication() = default;

uint32_t
WanCollectiveApplication::SegmentSize(Ptr<Node> node)
{
    return node->GetObject<Ipv4>()->GetMtu(1) - kTcpIpOverhead;
}

uint32_t
WanCollectiveApplication::MinimumBuffer(Ptr<Node> node)
{
    return kMinimumBufferSegments * SegmentSize(node);
}

Ptr<Socket>
WanCollectiveApplication::NewSocket()
{
    const auto socket = Socket::CreateSocket(GetNode(), TcpSocketFactory::GetTypeId());
    socket->SetAttribute("SegmentSize", UintegerValue(SegmentSize(GetNode())));
    socket->SetAttribute("SndBufSize", UintegerValue(m_sendBuffer));
    socket->SetAttribute("RcvBufSize", UintegerValue(m_receiveBuffer));
    socket->SetAttribute("Sack", BooleanValue(true));
    return socket;
}

void
WanCollectiveApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    if (!wancompat::MakeCongestionControl(m_congestion))
    {
        NS_FATAL_ERROR(GetInstanceTypeId().GetName()
                       << ": CongestionControl " << m_congestion.GetName()
                       << " is not a TcpCongestionOps");
    }
    if (m_receiveBuffer < MinimumBuffer(GetNode()))
    {
        NS_FATAL_ERROR(GetInstanceTypeId().GetName()
                       << ": ReceiveBuffer " << m_receiveBuffer << " bytes is below two segments ("
                       << MinimumBuffer(GetNode())
                       << " bytes at the island's MTU): its window cannot hold a full segment");
    }
    // Node-wide, before this node's sockets exist.
    GetNode()->GetObject<TcpL4Protocol>()->SetAttribute("SocketType", TypeIdValue(m_congestion));
    DoStart();
    Simulator::Schedule(std::max(Time(0), m_begin - Simulator::Now()),
                        &WanCollectiveApplication::Begin,
                        this);
}

void
WanCollectiveApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& [socket, stream] : m_streams)
    {
        socket->Close();
    }
    if (m_listener)
    {
        m_listener->Close();
    }
}

void
WanCollectiveApplication::DoDispose()
{
    m_peers.clear();
    m_streams.clear();
    m_listener = nullptr;
    Application::DoDispose();
}

void
WanCollectiveApplication::Listen()
{
    m_listener = NewSocket();
    m_listener->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port));
    m_listener->Listen();
    m_listener->SetAcceptCallback(MakeNullCallback<bool, Ptr<Socket>, const Address&>(),
                                  MakeCallback(&WanCollectiveApplication::Accepted, this));
}

void
WanCollectiveApplication::Dial(uint32_t peer, Ipv4Address address)
{
    for (uint32_t k = 0; k < m_connections; ++k)
    {
        auto socket = NewSocket();
        socket->SetConnectCallback(MakeCallback(&WanCollectiveApplication::Connected, this),
                                   MakeCallback(&WanCollectiveApplication::ConnectionFailed, this));
        Keep(socket, peer, kGreetingBytes);
        socket->Connect(InetSocketAddress(address, m_port));
        ++m_dialled;
    }
}

void
WanCollectiveApplication::Keep(Ptr<Socket> socket, uint32_t peer, uint32_t skip)
{
    m_peers[peer].push_back(socket);
    Stream stream;
    stream.peer = peer;
    stream.skip = skip;
    m_streams.emplace(socket, std::move(stream));
    DynamicCast<TcpSocketBase>(socket)->TraceConnectWithoutContext(
        "Tx",
        MakeCallback(&WanCollectiveApplication::Transmitted, this));
    socket->SetSendCallback(MakeCallback(&WanCollectiveApplication::Writable, this));
    socket->SetRecvCallback(MakeCallback(&WanCollectiveApplication::Read, this));
}

void
WanCollectiveApplication::Connected(Ptr<Socket> socket)
{
    ++m_up;
    NS_LOG_INFO(GetNode()->GetId() << ": connection " << m_up << " of " << m_dialled << " up");
    Pump(socket);
    Begin();
}

void
WanCollectiveApplication::ConnectionFailed(Ptr<Socket> socket)
{
    NS_LOG_WARN(GetNode()->GetId() << ": a connection to a peer failed");
}

void
WanCollectiveApplication::Accepted(Ptr<Socket> socket, const Address& from)
{
    const Ipv4Address address = InetSocketAddress::ConvertFrom(from).GetIpv4();
    const int64_t peer = PeerOf(address);
    if (peer < 0)
    {
        NS_LOG_WARN(GetNode()->GetId()
                    << ": a connection from " << address << ", not a peer, closed");
        socket->Close();
        return;
    }
    Keep(socket, static_cast<uint32_t>(peer), 0);
    socket->Send(Create<Packet>(kGreetingBytes));
}

void
WanCollectiveApplication::Begin()
{
    if (m_begun || Simulator::Now() < m_begin || m_up < m_dialled)
    {
        return;
    }
    m_begun = true;
    m_begunAt = Simulator::Now();
    NS_LOG_INFO(GetNode()->GetId() << ": the collective begins");
    DoBegin();
}

void
WanCollectiveApplication::SendTo(uint32_t peer, const std::vector<WanCollectiveRecord>& records)
{
    const auto it = m_peers.find(peer);
    if (it == m_peers.end())
    {
        NS_FATAL_ERROR(GetInstanceTypeId().GetName()
                       << ": records for peer " << peer << ", which has no connection");
    }
    const auto& sockets = it->second;
    std::vector<bool> touched(sockets.size(), false);
    for (const auto& r : records)
    {
        const size_t k = r.chunk % sockets.size();
        m_streams.at(sockets[k]).queue.push_back(r);
        touched[k] = true;
    }
    for (size_t k = 0; k < sockets.size(); ++k)
    {
        if (touched[k])
        {
            Pump(sockets[k]);
        }
    }
}

void
WanCollectiveApplication::Pump(Ptr<Socket> socket)
{
    auto& queue = m_streams.at(socket).queue;
    while (!queue.empty() && socket->GetTxAvailable() >= m_chunkBytes)
    {
        const WanCollectiveRecord r = queue.front();
        // The whole record as bytes (padding zeros): TCP cuts records into
        // segments anywhere, which ns-3's packet metadata does not allow
        // across padding.
        m_record.assign(m_chunkBytes, 0);
        PutBigEndian(m_record.data(), r.step, 4);
        PutBigEndian(m_record.data() + 4, r.chunk, 4);
        PutBigEndian(m_record.data() + 8, static_cast<uint64_t>(r.value), 8);
        if (socket->Send(Create<Packet>(m_record.data(), m_chunkBytes)) < 0)
        {
            break; // no room after all: the send callback calls again
        }
        m_bytesSent += m_chunkBytes;
        queue.pop_front();
    }
}

void
WanCollectiveApplication::Writable(Ptr<Socket> socket, uint32_t available)
{
    Pump(socket);
}

void
WanCollectiveApplication::Read(Ptr<Socket> socket)
{
    auto& stream = m_streams.at(socket);
    while (Ptr<Packet> packet = socket->Recv())
    {
        const uint32_t size = packet->GetSize();
        uint32_t offset = std::min(stream.skip, size);
        stream.skip -= offset;
        m_bytesReceived += size - offset;
        while (offset < size)
        {
            const uint32_t take = std::min(m_chunkBytes - stream.at, size - offset);
            if (stream.at < RECORD_HEADER_BYTES)
            {
                const uint32_t header = std::min(RECORD_HEADER_BYTES - stream.at, take);
                packet->CreateFragment(offset, header)->CopyData(stream.header + stream.at, header);
            }
            stream.at += take;
            offset += take;
            if (stream.at == m_chunkBytes)
            {
                stream.at = 0;
                Take(stream.peer, stream.header);
            }
        }
    }
}

void
WanCollectiveApplication::Take(uint32_t peer, const uint8_t* header)
{
    WanCollectiveRecord r;
    r.step = static_cast<uint32_t>(GetBigEndian(header, 4));
    r.chunk = static_cast<uint32_t>(GetBigEndian(header + 4, 4));
    r.value = static_cast<int64_t>(GetBigEndian(header + 8, 8));
    try
    {
        DoReceive(peer, r);
    }
    catch (const std::invalid_argument& e)
    {
        ++m_refused;
        NS_LOG_WARN(GetNode()->GetId() << ": record refused: " << e.what());
    }
}

void
WanCollectiveApplication::Complete(bool exact)
{
    if (IsComplete())
    {
        return;
    }
    m_completedAt = Simulator::Now();
    m_exact = exact;
    NS_LOG_INFO(GetNode()->GetId() << ": complete after " << GetDuration().As(Time::MS)
                                   << (m_exact ? ", sums exact" : ", sums NOT exact"));
    m_completeTrace(GetDuration(), m_exact);
}

void
WanCollectiveApplication::Transmitted(Ptr<const Packet> packet,
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
WanCollectiveApplication::IsComplete() const
{
    return !m_completedAt.IsZero();
}

bool
WanCollectiveApplication::IsExact() const
{
    return IsComplete() && m_exact;
}

Time
WanCollectiveApplication::GetDuration() const
{
    return IsComplete() ? m_completedAt - m_begunAt : Time(0);
}

uint64_t
WanCollectiveApplication::GetBytesSent() const
{
    return m_bytesSent;
}

uint64_t
WanCollectiveApplication::GetBytesReceived() const
{
    return m_bytesReceived;
}

uint64_t
WanCollectiveApplication::GetRetransmissions() const
{
    return m_retransmissions;
}

uint64_t
WanCollectiveApplication::GetRefused() const
{
    return m_refused;
}

} // namespace ns3
