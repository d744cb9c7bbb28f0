/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-island-application.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanIslandApplication");

NS_OBJECT_ENSURE_REGISTERED(WanIslandApplication);

TypeId
WanIslandApplication::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanIslandApplication")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanIslandApplication>()
            .AddAttribute("DataPort",
                          "Port of DATA chunks (at the FPGA, or at peers without one)",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&WanIslandApplication::m_dataPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("MergedPort",
                          "Port on which this island receives MERGED packets",
                          UintegerValue(9001),
                          MakeUintegerAccessor(&WanIslandApplication::m_mergedPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("ChunkBytes",
                          "Payload bytes per chunk (8936 fills a 9000-byte IP packet)",
                          UintegerValue(8936),
                          MakeUintegerAccessor(&WanIslandApplication::m_chunkBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("WireOverhead",
                          "Bytes each packet adds on the wire beyond its UDP payload "
                          "(UDP 8 + IPv4 20 + PPP 2)",
                          UintegerValue(30),
                          MakeUintegerAccessor(&WanIslandApplication::m_overhead),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Fpga",
                          "Address of this island's edge FPGA (where NACKs go)",
                          Ipv4AddressValue(),
                          MakeIpv4AddressAccessor(&WanIslandApplication::m_fpga),
                          MakeIpv4AddressChecker())
            .AddAttribute("NackDelay",
                          "Wait after a gap in the MERGED sequence before asking again",
                          TimeValue(MilliSeconds(1)),
                          MakeTimeAccessor(&WanIslandApplication::m_nackDelay),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddTraceSource("RoundComplete",
                            "All peers' contributions of a round arrived",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_roundCompleteTrace),
                            "ns3::WanIslandApplication::RoundCompleteTracedCallback")
            .AddTraceSource("Tx",
                            "A packet was sent",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "A packet was received",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_rxTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

WanIslandApplication::WanIslandApplication()
{
    NS_LOG_FUNCTION(this);
}

WanIslandApplication::~WanIslandApplication()
{
    NS_LOG_FUNCTION(this);
}

uint32_t
WanIslandApplication::ChunkCount(uint64_t payloadBytes, uint32_t chunkBytes)
{
    return static_cast<uint32_t>((payloadBytes + chunkBytes - 1) / chunkBytes);
}

void
WanIslandApplication::AddRound(const WanIslandRound& round)
{
    if (round.payloadBytes == 0 || round.rate.GetBitRate() == 0)
    {
        throw std::invalid_argument("an island round needs a positive payload and rate");
    }
    m_rounds.push_back(round);
    WanIslandRecord record;
    record.round = round.round;
    record.start = round.start;
    m_records[round.round] = record;
}

const std::map<uint32_t, WanIslandRecord>&
WanIslandApplication::GetRecords() const
{
    return m_records;
}

void
WanIslandApplication::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_socket = nullptr;
    m_dataSocket = nullptr;
    Application::DoDispose();
}

void
WanIslandApplication::StartApplication()
{
    NS_LOG_FUNCTION(this);
    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_mergedPort));
    m_socket->SetRecvCallback(MakeCallback(&WanIslandApplication::HandleRead, this));
    m_dataSocket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    m_dataSocket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_dataPort));
    m_dataSocket->SetRecvCallback(MakeCallback(&WanIslandApplication::HandleRead, this));
    for (const auto& r : m_rounds)
    {
        m_records[r.round].expectedContributions =
            static_cast<uint64_t>(r.peers) * ChunkCount(r.payloadBytes, m_chunkBytes);
    }
    m_sendEvents.resize(m_rounds.size());
    for (uint32_t k = 0; k < m_rounds.size(); ++k)
    {
        Time at = m_rounds[k].start + m_rounds[k].offset;
        m_sendEvents[k] = Simulator::Schedule(at - Simulator::Now(),
                                              &WanIslandApplication::SendChunk,
                                              this,
                                              k,
                                              0);
    }
}

void
WanIslandApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    for (auto& e : m_sendEvents)
    {
        Simulator::Cancel(e);
    }
    Simulator::Cancel(m_nackEvent);
    for (auto socket : {m_socket, m_dataSocket})
    {
        if (socket)
        {
            socket->Close();
            socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        }
    }
}

void
WanIslandApplication::SendChunk(uint32_t index, uint32_t chunk)
{
    const auto& r = m_rounds[index];
    auto& record = m_records[r.round];
    const uint32_t chunks = ChunkCount(r.payloadBytes, m_chunkBytes);
    const uint64_t sent = static_cast<uint64_t>(chunk) * m_chunkBytes;
    const uint32_t bytes =
        static_cast<uint32_t>(std::min<uint64_t>(m_chunkBytes, r.payloadBytes - sent));
    WanChunkHeader h;
    h.SetKind(WanChunkHeader::DATA);
    h.SetRound(r.round);
    h.SetClique(r.clique);
    h.SetSender(r.sender);
    h.SetChunk(chunk);
    h.SetExpected(r.peers);
    h.SetValue(r.value * (chunk + 1));
    for (const auto& to : r.destinations)
    {
        auto p = Create<Packet>(bytes);
        p->AddHeader(h);
        record.bytesOut += p->GetSize();
        m_txTrace(p);
        m_socket->SendTo(p, 0, to);
    }
    if (chunk + 1 < chunks)
    {
        // Absolute send times: the pacing does not drift with rounding.
        const double bits = 8.0 * (m_chunkBytes + h.GetSerializedSize() + m_overhead);
        const double next = (chunk + 1) * bits / r.rate.GetBitRate();
        Time at = r.start + r.offset + NanoSeconds(static_cast<int64_t>(std::llround(next * 1e9)));
        m_sendEvents[index] = Simulator::Schedule(at - Simulator::Now(),
                                                  &WanIslandApplication::SendChunk,
                                                  this,
                                                  index,
                                                  chunk + 1);
    }
}

void
WanIslandApplication::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    Address from;
    while ((packet = socket->RecvFrom(from)))
    {
        m_rxTrace(packet);
        const uint32_t size = packet->GetSize();
        WanChunkHeader h;
        if (packet->RemoveHeader(h) != h.GetSerializedSize())
        {
            continue;
        }
        if (h.GetKind() == WanChunkHeader::MERGED)
        {
            const uint32_t seq = h.GetSequence();
            if (!m_seen.insert(seq).second)
            {
                continue; // a duplicate
            }
            m_lastRound = h.GetRound();
            if (m_missing.erase(seq) > 0)
            {
                ++m_records[h.GetRound()].retransmissions;
            }
            for (uint32_t s = m_nextExpected; s < seq; ++s)
            {
                if (m_seen.count(s) == 0)
                {
                    m_missing.insert(s);
                }
            }
            while (m_seen.count(m_nextExpected) > 0)
            {
                m_seen.erase(m_nextExpected++);
            }
            if (!m_missing.empty() && m_nackEvent.IsExpired())
            {
                m_nackEvent =
                    Simulator::Schedule(m_nackDelay, &WanIslandApplication::SendNacks, this);
            }
        }
        else if (h.GetKind() != WanChunkHeader::DATA)
        {
            continue;
        }
        auto it = m_records.find(h.GetRound());
        if (it == m_records.end())
        {
            NS_LOG_WARN("a packet of unplanned round " << h.GetRound());
            continue;
        }
        auto& record = it->second;
        record.bytesIn += size;
        ++record.packetsIn;
        record.sum += h.GetValue();
        record.contributions += h.GetContributions();
        if (h.GetKind() == WanChunkHeader::MERGED && h.GetContributions() < h.GetExpected())
        {
            ++record.partialSums;
        }
        if (record.completion.IsZero() && record.contributions >= record.expectedContributions)
        {
            record.completion = Simulator::Now();
            m_roundCompleteTrace(record.round, Simulator::Now() - record.start);
        }
    }
}

void
WanIslandApplication::SendNacks()
{
    for (uint32_t seq : m_missing)
    {
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::NACK);
        h.SetSequence(seq);
        auto p = Create<Packet>(0);
        p->AddHeader(h);
        ++m_records[m_lastRound].nacks;
        m_socket->SendTo(p, 0, InetSocketAddress(m_fpga, m_dataPort));
    }
    if (!m_missing.empty())
    {
        m_nackEvent = Simulator::Schedule(m_nackDelay, &WanIslandApplication::SendNacks, this);
    }
}

} // namespace ns3
