/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-bfd-application.h"

#include "wan-training-compat.h"
#include "wan-training-text.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/uinteger.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanBfdApplication");
NS_OBJECT_ENSURE_REGISTERED(WanBfdApplication);

TypeId
WanBfdApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanBfdApplication")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanBfdApplication>()
            .AddAttribute("DesiredMinTx",
                          "Desired minimum transmit interval once a session is Up "
                          "(RFC 5880 bfd.DesiredMinTxInterval; 1 s at least while not Up), "
                          "1 ms to 10 s",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&WanBfdApplication::m_desiredMinTx),
                          MakeTimeChecker(MilliSeconds(wantext::bounds::kBfdIntervalMs.min),
                                          MilliSeconds(wantext::bounds::kBfdIntervalMs.max)))
            .AddAttribute("RequiredMinRx",
                          "Required minimum receive interval (bfd.RequiredMinRxInterval), "
                          "1 ms to 10 s",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&WanBfdApplication::m_requiredMinRx),
                          MakeTimeChecker(MilliSeconds(wantext::bounds::kBfdIntervalMs.min),
                                          MilliSeconds(wantext::bounds::kBfdIntervalMs.max)))
            .AddAttribute("DetectMultiplier",
                          "Detect time multiplier (bfd.DetectMult), 1 to 255",
                          UintegerValue(3),
                          MakeUintegerAccessor(&WanBfdApplication::m_detectMultiplier),
                          MakeUintegerChecker<uint8_t>(
                              static_cast<uint8_t>(wantext::bounds::kBfdMultiplier.min)))
            .AddTraceSource("SessionUp",
                            "A session came up: this end's and the neighbour's addresses",
                            MakeTraceSourceAccessor(&WanBfdApplication::m_upTrace),
                            "ns3::WanBfdApplication::SessionTracedCallback")
            .AddTraceSource("SessionDown",
                            "A session went down, with the RFC 5880 diagnostic (1: detection "
                            "time expired, 3: the neighbour signalled down)",
                            MakeTraceSourceAccessor(&WanBfdApplication::m_downTrace),
                            "ns3::WanBfdApplication::SessionTracedCallback");
    return tid;
}

Time
WanBfdApplication::GetDefaultInterval()
{
    return wancompat::AttributeDefault<TimeValue>(GetTypeId(), "DesiredMinTx");
}

uint32_t
WanBfdApplication::GetDefaultMultiplier()
{
    return static_cast<uint32_t>(
        wancompat::AttributeDefault<UintegerValue>(GetTypeId(), "DetectMultiplier"));
}

WanBfdApplication::WanBfdApplication()
    : m_jitter(CreateObject<UniformRandomVariable>())
{
    NS_LOG_FUNCTION(this);
}

WanBfdApplication::~WanBfdApplication() = default;

void
WanBfdApplication::AddPeer(Ipv4Address local, Ipv4Address remote)
{
    NS_LOG_FUNCTION(this << local << remote);
    Peer p;
    p.local = local;
    p.remote = remote;
    m_peers.push_back(std::move(p));
}

uint32_t
WanBfdApplication::GetNPeers() const
{
    return static_cast<uint32_t>(m_peers.size());
}

const WanBfdSession&
WanBfdApplication::GetSession(uint32_t peer) const
{
    if (peer >= m_peers.size() || !m_peers[peer].session)
    {
        throw std::out_of_range("BFD: no session " + std::to_string(peer) + " (started?)");
    }
    return *m_peers[peer].session;
}

int64_t
WanBfdApplication::AssignStreams(int64_t stream)
{
    m_jitter->SetStream(stream);
    return 1;
}

void
WanBfdApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    for (uint32_t k = 0; k < m_peers.size(); ++k)
    {
        auto& p = m_peers[k];
        WanBfdSession::Config config;
        config.myDiscriminator = k + 1;
        config.desiredMinTx = m_desiredMinTx;
        config.requiredMinRx = m_requiredMinRx;
        config.detectMultiplier = m_detectMultiplier;
        p.session = std::make_unique<WanBfdSession>(config);
        p.socket = Socket::CreateSocket(GetNode(), TypeId::LookupByName("ns3::UdpSocketFactory"));
        if (p.socket->Bind(InetSocketAddress(p.local, WanBfdHeader::kPort)) == -1)
        {
            NS_FATAL_ERROR("WanBfdApplication: cannot bind " << p.local << ":"
                                                             << WanBfdHeader::kPort);
        }
        p.socket->SetIpTtl(255); // single hop (RFC 5881 section 5)
        p.socket->SetRecvCallback(MakeCallback(&WanBfdApplication::Receive, this, k));
        // The first packet at a random point of the first second.
        p.transmit = Simulator::Schedule(Seconds(m_jitter->GetValue()),
                                         &WanBfdApplication::Transmit,
                                         this,
                                         k);
    }
}

void
WanBfdApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& p : m_peers)
    {
        p.transmit.Cancel();
        p.detect.Cancel();
        if (p.socket)
        {
            p.socket->Close();
            p.socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        }
    }
}

void
WanBfdApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    for (auto& p : m_peers)
    {
        p.socket = nullptr;
    }
    m_peers.clear();
    Application::DoDispose();
}

uint64_t
WanBfdApplication::GetPacketsSent() const
{
    return m_packetsSent;
}

uint64_t
WanBfdApplication::GetBytesSent() const
{
    return m_bytesSent;
}

void
WanBfdApplication::Transmit(uint32_t k)
{
    auto& p = m_peers[k];
    auto packet = Create<Packet>();
    packet->AddHeader(p.session->MakePacket());
    ++m_packetsSent;
    m_bytesSent += packet->GetSize();
    p.socket->SendTo(packet, 0, InetSocketAddress(p.remote, WanBfdHeader::kPort));
    p.transmit.Cancel();
    p.transmit = Simulator::Schedule(p.session->GetTransmitInterval(m_jitter->GetValue()),
                                     &WanBfdApplication::Transmit,
                                     this,
                                     k);
}

void
WanBfdApplication::Receive(uint32_t k, Ptr<Socket> socket)
{
    auto& p = m_peers[k];
    Address from;
    while (auto packet = socket->RecvFrom(from))
    {
        WanBfdHeader h;
        if (packet->RemoveHeader(h) == 0 ||
            InetSocketAddress::ConvertFrom(from).GetIpv4() != p.remote)
        {
            ++m_dropped;
            continue;
        }
        const auto before = p.session->GetState();
        if (!p.session->Receive(h, Simulator::Now()))
        {
            ++m_dropped;
            continue;
        }
        p.detect.Cancel();
        p.detect =
            Simulator::Schedule(p.session->GetDetectionTime(), &WanBfdApplication::Detect, this, k);
        Report(k, before);
    }
}

void
WanBfdApplication::Detect(uint32_t k)
{
    auto& p = m_peers[k];
    const auto before = p.session->GetState();
    if (p.session->CheckDetection(Simulator::Now()))
    {
        Report(k, before);
    }
}

void
WanBfdApplication::Report(uint32_t k, WanBfdHeader::State before)
{
    auto& p = m_peers[k];
    const auto now = p.session->GetState();
    if (now == before)
    {
        return;
    }
    NS_LOG_INFO(p.local << " -> " << p.remote << ": state " << int(before) << " -> " << int(now));
    if (now == WanBfdHeader::UP)
    {
        m_upTrace(p.local, p.remote, 0);
    }
    else if (before == WanBfdHeader::UP)
    {
        m_downTrace(p.local, p.remote, p.session->GetDiagnostic());
    }
    // A session that changes state tells its neighbour at once, so that the
    // handshake takes one packet per step rather than one interval.
    Transmit(k);
}

} // namespace ns3
