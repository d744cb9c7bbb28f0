/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-island-application.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/string.h"
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
            .AddAttribute("Recovery",
                          "What to do at a round's deadline about contributions still "
                          "missing: accept (give them up) or rerequest (ask their senders)",
                          StringValue("accept"),
                          MakeStringAccessor(&WanIslandApplication::m_recovery),
                          MakeStringChecker())
            .AddAttribute("RequestTimeout",
                          "Wait for a repair before asking the sender again",
                          TimeValue(MilliSeconds(400)),
                          MakeTimeAccessor(&WanIslandApplication::m_requestTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("MaxRequests",
                          "Requests per missing contribution before it is given up",
                          UintegerValue(5),
                          MakeUintegerAccessor(&WanIslandApplication::m_maxRequests),
                          MakeUintegerChecker<uint32_t>(1))
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
    if (!round.peerIslands.empty() && round.peerIslands.size() != round.peers + 1u)
    {
        throw std::invalid_argument("an island round needs the island of every clique member");
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
    if (m_recovery != "accept" && m_recovery != "rerequest")
    {
        throw std::invalid_argument("unknown recovery policy \"" + m_recovery +
                                    "\" (expected accept or rerequest)");
    }
    m_checkEvents.resize(m_rounds.size());
    for (uint32_t k = 0; k < m_rounds.size(); ++k)
    {
        const auto& r = m_rounds[k];
        const uint32_t chunks = ChunkCount(r.payloadBytes, m_chunkBytes);
        auto& record = m_records[r.round];
        record.expectedContributions = static_cast<uint64_t>(r.peers) * chunks;
        m_received[r.round].assign(chunks, 0);
        m_roundIndex[r.round] = k;
        if (m_recovery == "rerequest" && r.peers > 0 && r.peerIslands.empty())
        {
            throw std::invalid_argument("re-requests need the address of every peer's island");
        }
        if (m_recovery == "rerequest" && r.peers + 1u > 32)
        {
            throw std::invalid_argument("re-requests need cliques of at most 32 islands (round " +
                                        std::to_string(r.round) + " has " +
                                        std::to_string(r.peers + 1) + ")");
        }
        if (r.deadline.IsStrictlyPositive() && r.peers > 0 && !r.peerIslands.empty())
        {
            m_checkEvents[k] = Simulator::Schedule(r.start + r.deadline - Simulator::Now(),
                                                   &WanIslandApplication::CheckRound,
                                                   this,
                                                   k,
                                                   0);
        }
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
    for (auto& e : m_checkEvents)
    {
        Simulator::Cancel(e);
    }
    for (auto socket : {m_socket, m_dataSocket})
    {
        if (socket)
        {
            socket->Close();
            socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        }
    }
}

Ptr<Packet>
WanIslandApplication::MakeChunk(const WanIslandRound& r,
                                uint32_t chunk,
                                WanChunkHeader::Kind kind) const
{
    const uint64_t sent = static_cast<uint64_t>(chunk) * m_chunkBytes;
    WanChunkHeader h;
    h.SetKind(kind);
    h.SetRound(r.round);
    h.SetClique(r.clique);
    h.SetSender(r.sender);
    h.SetChunk(chunk);
    h.SetExpected(r.peers);
    h.SetPosition(r.position);
    h.SetValue(r.value * (chunk + 1));
    auto p = Create<Packet>(
        static_cast<uint32_t>(std::min<uint64_t>(m_chunkBytes, r.payloadBytes - sent)));
    p->AddHeader(h);
    return p;
}

void
WanIslandApplication::SendChunk(uint32_t index, uint32_t chunk)
{
    const auto& r = m_rounds[index];
    auto& record = m_records[r.round];
    const uint32_t chunks = ChunkCount(r.payloadBytes, m_chunkBytes);
    for (const auto& to : r.destinations)
    {
        auto p = MakeChunk(r, chunk, WanChunkHeader::DATA);
        record.bytesOut += p->GetSize();
        m_txTrace(p);
        m_socket->SendTo(p, 0, to);
    }
    if (chunk + 1 < chunks)
    {
        // Absolute send times: the pacing does not drift with rounding.
        const double bits =
            8.0 * (m_chunkBytes + WanChunkHeader().GetSerializedSize() + m_overhead);
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
            m_nackAttempts.erase(seq);
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
        else if (h.GetKind() == WanChunkHeader::REQUEST)
        {
            Repair(h, from);
            continue;
        }
        else if (h.GetKind() != WanChunkHeader::DATA && h.GetKind() != WanChunkHeader::REPAIR)
        {
            continue;
        }
        Accept(h, size);
    }
}

void
WanIslandApplication::Accept(const WanChunkHeader& h, uint32_t size)
{
    auto it = m_records.find(h.GetRound());
    if (it == m_records.end())
    {
        NS_LOG_WARN("a packet of unplanned round " << h.GetRound());
        return;
    }
    auto& record = it->second;
    record.bytesIn += size;
    ++record.packetsIn;
    // Whose contributions the packet holds: a sum says so, a chunk is its sender's.
    const uint32_t sources = h.GetKind() == WanChunkHeader::MERGED
                                 ? h.GetSources()
                                 : (h.GetPosition() < 32 ? 1u << h.GetPosition() : 0u);
    auto& received = m_received[h.GetRound()];
    const auto& round = m_rounds[m_roundIndex[h.GetRound()]];
    if (sources != 0 && !round.peerIslands.empty() && h.GetChunk() < received.size())
    {
        uint32_t& held = received[h.GetChunk()];
        if ((held & sources) != 0)
        {
            ++record.discarded;
            NS_LOG_LOGIC("round " << h.GetRound() << " chunk " << h.GetChunk()
                                  << ": a repeated contribution, discarded");
            return;
        }
        held |= sources;
        if (held == AllPeers(round))
        {
            record.givenUpChunks.erase(h.GetChunk());
        }
        const bool pastDeadline =
            round.deadline.IsStrictlyPositive() && Simulator::Now() > round.start + round.deadline;
        for (uint32_t p = 0; p < 32; ++p)
        {
            if ((sources & (1u << p)) == 0)
            {
                continue;
            }
            if (m_asked.count({h.GetRound(), uint64_t{h.GetChunk()} * 32 + p}) > 0)
            {
                ++record.recovered;
            }
            else if (pastDeadline)
            {
                ++record.late;
                record.lateChunks.insert(h.GetChunk());
            }
            if (record.givenUp > 0)
            {
                --record.givenUp; // it came after all
            }
        }
    }
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

uint32_t
WanIslandApplication::AllPeers(const WanIslandRound& r)
{
    uint32_t all = 0;
    for (uint32_t p = 0; p <= r.peers && p < 32; ++p)
    {
        all |= p != r.position ? 1u << p : 0u;
    }
    return all;
}

void
WanIslandApplication::CheckRound(uint32_t index, uint32_t attempt)
{
    const auto& r = m_rounds[index];
    auto& record = m_records[r.round];
    const auto& received = m_received[r.round];
    const uint32_t all = AllPeers(r);
    uint64_t missing = 0;
    std::set<uint32_t> lackingChunks;
    for (uint32_t c = 0; c < received.size(); ++c)
    {
        const uint32_t lacking = all & ~received[c];
        for (uint32_t p = 0; p <= r.peers && lacking != 0; ++p)
        {
            if ((lacking & (1u << p)) == 0)
            {
                continue;
            }
            ++missing;
            lackingChunks.insert(c);
            if (m_recovery != "rerequest" || attempt >= m_maxRequests)
            {
                continue;
            }
            SendRequest(index, c, p);
        }
    }
    if (missing == 0)
    {
        return;
    }
    if (m_recovery == "rerequest" && attempt < m_maxRequests)
    {
        NS_LOG_INFO("round " << r.round << ": " << missing << " contributions re-requested");
        m_checkEvents[index] = Simulator::Schedule(m_requestTimeout,
                                                   &WanIslandApplication::CheckRound,
                                                   this,
                                                   index,
                                                   attempt + 1);
        return;
    }
    NS_LOG_INFO("round " << r.round << ": " << missing << " contributions given up");
    record.givenUp = missing;
    record.givenUpChunks = lackingChunks;
}

void
WanIslandApplication::SendRequest(uint32_t index, uint32_t chunk, uint32_t position)
{
    const auto& r = m_rounds[index];
    auto& record = m_records[r.round];
    auto [it, first] =
        m_asked.emplace(std::make_pair(r.round, uint64_t{chunk} * 32 + position), Simulator::Now());
    if (first)
    {
        ++record.requested;
        record.requestedChunks.insert(chunk);
    }
    else if (Simulator::Now() - it->second < m_requestTimeout)
    {
        return; // the last request may still be answered
    }
    it->second = Simulator::Now();
    WanChunkHeader h;
    h.SetKind(WanChunkHeader::REQUEST);
    h.SetRound(r.round);
    h.SetClique(r.clique);
    h.SetSender(r.sender);
    h.SetChunk(chunk);
    h.SetPosition(static_cast<uint8_t>(position));
    auto packet = Create<Packet>(0);
    packet->AddHeader(h);
    ++record.requests;
    m_socket->SendTo(packet, 0, r.peerIslands.at(position));
}

void
WanIslandApplication::Repair(const WanChunkHeader& request, const Address& from)
{
    // The REQUEST names the round, the chunk and this island's position.
    for (const auto& r : m_rounds)
    {
        if (r.round != request.GetRound() || r.clique != request.GetClique())
        {
            continue;
        }
        const uint32_t chunk = request.GetChunk();
        if (chunk >= ChunkCount(r.payloadBytes, m_chunkBytes))
        {
            return;
        }
        auto p = MakeChunk(r, chunk, WanChunkHeader::REPAIR);
        ++m_records[r.round].repairsSent;
        m_txTrace(p);
        m_socket->SendTo(
            p,
            0,
            InetSocketAddress(InetSocketAddress::ConvertFrom(from).GetIpv4(), m_mergedPort));
        return;
    }
}

void
WanIslandApplication::SendNacks()
{
    // A sequence asked for kNackAttempts times is left to the round's deadline
    // (the FPGA may have failed, or its resend buffer moved on).
    const uint32_t kNackAttempts = 20;
    for (auto it = m_missing.begin(); it != m_missing.end();)
    {
        if (++m_nackAttempts[*it] > kNackAttempts)
        {
            m_nackAttempts.erase(*it);
            it = m_missing.erase(it);
        }
        else
        {
            ++it;
        }
    }
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
