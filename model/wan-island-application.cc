/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-island-application.h"

#include "wan-contribution.h"
#include "wan-training-compat.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanIslandApplication");

NS_OBJECT_ENSURE_REGISTERED(WanIslandApplication);

TypeId
WanIslandApplication::GetTypeId()
{
    // A flat list of ten attributes and five trace sources: long, not complex.
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
                          "Port on which this island receives MERGED packets and repairs",
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
            .AddAttribute("MaxNacks",
                          "NACKs per gap in the MERGED sequence before it is left to the "
                          "round's deadline",
                          UintegerValue(20),
                          MakeUintegerAccessor(&WanIslandApplication::m_maxNacks),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Recovery",
                          "What to do at a round's deadline about contributions still "
                          "missing: accept (give them up) or rerequest (ask their senders)",
                          EnumValue(WanIslandApplication::ACCEPT),
                          wancompat::MakeEnumMemberAccessor(&WanIslandApplication::m_recovery),
                          MakeEnumChecker(WanIslandApplication::ACCEPT,
                                          "accept",
                                          WanIslandApplication::REREQUEST,
                                          "rerequest"))
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
            .AddTraceSource("RoundEnd",
                            "A round's record, once its deadline is handled (or it completes, "
                            "without a deadline), and again after every later change",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_roundEndTrace),
                            "ns3::WanIslandApplication::RoundEndTracedCallback")
            .AddTraceSource("Tx",
                            "A DATA or REPAIR packet was sent",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "A packet was received",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_rxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Drop",
                            "A packet that could not be used, and why",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_dropTrace),
                            "ns3::WanIslandApplication::DropTracedCallback");
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
    const std::string name = "island round " + std::to_string(round.round);
    if (round.payloadBytes == 0 || round.rate.GetBitRate() == 0)
    {
        throw std::invalid_argument(name + " needs a positive payload and rate");
    }
    if (round.peers >= WanChunkHeader::MAX_SOURCE_BITS)
    {
        throw std::invalid_argument(name + ": a clique of " + std::to_string(round.peers + 1u) +
                                    " islands; the chunk header names at most " +
                                    std::to_string(WanChunkHeader::MAX_SOURCE_BITS) + " sources");
    }
    if (round.position > round.peers)
    {
        throw std::invalid_argument(name + ": position " + std::to_string(round.position) +
                                    " outside a clique of " + std::to_string(round.peers + 1));
    }
    if (!round.peerIslands.empty() && round.peerIslands.size() != round.peers + 1u)
    {
        throw std::invalid_argument(name + " needs the island of every clique member");
    }
    if (m_roundIndex.count(round.round) > 0)
    {
        throw std::invalid_argument(name + " is planned twice");
    }
    if (m_recovery == REREQUEST && round.peers > 0 && round.peerIslands.empty())
    {
        throw std::invalid_argument(name + ": re-requests need the island of every peer");
    }
    RoundState state;
    state.plan = round;
    state.record.round = round.round;
    state.record.clique = round.clique;
    state.record.sender = round.sender;
    state.record.peers = round.peers;
    state.record.value = round.value;
    state.record.start = round.start;
    m_roundIndex[round.round] = static_cast<uint32_t>(m_rounds.size());
    m_rounds.push_back(state);
}

WanIslandRecord
WanIslandApplication::GetRecord(uint32_t round) const
{
    auto it = m_roundIndex.find(round);
    if (it == m_roundIndex.end())
    {
        throw std::invalid_argument("round " + std::to_string(round) +
                                    " was not planned at this island");
    }
    return Compose(m_rounds[it->second]);
}

WanIslandApplication::RoundState*
WanIslandApplication::FindRound(uint32_t round)
{
    auto it = m_roundIndex.find(round);
    return it == m_roundIndex.end() ? nullptr : &m_rounds[it->second];
}

WanIslandRecord
WanIslandApplication::Compose(const RoundState& state) const
{
    WanIslandRecord record = state.record;
    const auto& account = m_ledger.GetAccount(state.plan.round);
    record += account.counters;
    record.sum = account.sum;
    record.lateChunks = account.lateChunks;
    record.requestedChunks = account.requestedChunks;
    record.givenUpChunks = account.givenUpChunks;
    return record;
}

void
WanIslandApplication::End(RoundState& state)
{
    state.ended = true;
    m_roundEndTrace(Compose(state));
}

void
WanIslandApplication::Changed(RoundState& state)
{
    if (state.ended)
    {
        End(state);
    }
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
    m_tracker.SetMaxNacks(m_maxNacks);
    for (uint32_t k = 0; k < m_rounds.size(); ++k)
    {
        auto& state = m_rounds[k];
        const auto& r = state.plan;
        state.chunks = ChunkCount(r.payloadBytes, m_chunkBytes);
        state.record.chunks = state.chunks;
        if (!m_ledger.HasRound(r.round))
        {
            m_ledger.AddRound(r.round, state.chunks, r.peers + 1u, r.position);
        }
        if (r.deadline.IsStrictlyPositive() && r.peers > 0)
        {
            const Time at = std::max(r.start + r.deadline, Simulator::Now());
            state.checkEvent = Simulator::Schedule(at - Simulator::Now(),
                                                   &WanIslandApplication::CheckRound,
                                                   this,
                                                   k,
                                                   0);
        }
        const Time at = std::max(r.start + r.offset, Simulator::Now());
        state.sendEvent = Simulator::Schedule(at - Simulator::Now(),
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
    Simulator::Cancel(m_nackEvent);
    for (auto& state : m_rounds)
    {
        Simulator::Cancel(state.sendEvent);
        Simulator::Cancel(state.checkEvent);
        if (!state.ended)
        {
            End(state);
        }
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
    h.SetValue(WanContribution::Value(r.value, chunk));
    auto p = Create<Packet>(
        static_cast<uint32_t>(std::min<uint64_t>(m_chunkBytes, r.payloadBytes - sent)));
    p->AddHeader(h);
    return p;
}

void
WanIslandApplication::SendChunk(uint32_t index, uint32_t chunk)
{
    auto& state = m_rounds[index];
    const auto& r = state.plan;
    for (const auto& to : r.destinations)
    {
        auto p = MakeChunk(r, chunk, WanChunkHeader::DATA);
        state.record.bytesOut += p->GetSize();
        m_txTrace(p);
        m_socket->SendTo(p, 0, to);
    }
    if (chunk + 1 < state.chunks)
    {
        // Absolute send times: the pacing does not drift with rounding.
        const double bits =
            8.0 * (m_chunkBytes + WanChunkHeader().GetSerializedSize() + m_overhead);
        const double next = (chunk + 1) * bits / r.rate.GetBitRate();
        Time at = r.start + r.offset + NanoSeconds(static_cast<int64_t>(std::llround(next * 1e9)));
        state.sendEvent = Simulator::Schedule(at - Simulator::Now(),
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
        WanChunkHeader h;
        if (packet->PeekHeader(h) == 0)
        {
            Drop(packet, "malformed", nullptr);
            continue;
        }
        switch (h.GetKind())
        {
        case WanChunkHeader::REQUEST:
            Repair(packet, h, from);
            break;
        case WanChunkHeader::NACK:
            Drop(packet, "unexpected kind", nullptr);
            break;
        default:
            Receive(packet, h);
        }
    }
}

void
WanIslandApplication::Receive(Ptr<const Packet> packet, const WanChunkHeader& h)
{
    RoundState* state = FindRound(h.GetRound());
    if (h.GetKind() == WanChunkHeader::MERGED)
    {
        // Every copy of the hop counts for its sequence, even one this island
        // cannot use, so that it is not asked for again.
        const auto arrival = m_tracker.Receive(h.GetSequence());
        if (arrival == WanSequenceTracker::Arrival::DUPLICATE)
        {
            NS_LOG_LOGIC("sequence " << h.GetSequence() << " again: a duplicate");
            return;
        }
        if (state != nullptr)
        {
            m_lastRound = h.GetRound();
            state->record.retransmissions +=
                arrival == WanSequenceTracker::Arrival::GAP_FILLED ? 1 : 0;
        }
        if (m_tracker.HasGaps() && m_nackEvent.IsExpired())
        {
            m_nackEvent = Simulator::Schedule(m_nackDelay, &WanIslandApplication::SendNacks, this);
        }
    }
    if (Check(packet, h) != nullptr)
    {
        Account(packet, h, *state);
    }
}

WanIslandApplication::RoundState*
WanIslandApplication::Check(Ptr<const Packet> packet, const WanChunkHeader& h)
{
    RoundState* state = FindRound(h.GetRound());
    if (state == nullptr)
    {
        Drop(packet, "unplanned round", nullptr);
    }
    else if (h.GetClique() != state->plan.clique)
    {
        Drop(packet, "wrong clique", state);
    }
    else if (h.GetChunk() >= state->chunks)
    {
        Drop(packet, "chunk out of range", state);
    }
    else
    {
        return state;
    }
    return nullptr;
}

void
WanIslandApplication::Account(Ptr<const Packet> packet, const WanChunkHeader& h, RoundState& state)
{
    const auto& r = state.plan;
    const bool pastDeadline =
        r.deadline.IsStrictlyPositive() && Simulator::Now() > r.start + r.deadline;
    const bool merged = h.GetKind() == WanChunkHeader::MERGED;
    if (merged && h.GetSourceBits() > 0 && h.GetSourceSet().IsEmpty())
    {
        Drop(packet, "bad sources", &state); // a bitmap that names nobody
        return;
    }
    const auto verdict =
        merged
            ? m_ledger.Offer(r.round,
                             h.GetChunk(),
                             h.GetSourceSet(),
                             h.GetContributions(),
                             h.GetValue(),
                             pastDeadline)
            : m_ledger.OfferOne(r.round, h.GetChunk(), h.GetPosition(), h.GetValue(), pastDeadline);
    if (verdict != WanContributionLedger::Verdict::ACCEPTED &&
        verdict != WanContributionLedger::Verdict::REPEATED)
    {
        Drop(packet, WanContributionLedger::ToString(verdict), &state);
        return;
    }
    auto& record = state.record;
    record.bytesIn += packet->GetSize();
    ++record.packetsIn;
    if (verdict == WanContributionLedger::Verdict::REPEATED)
    {
        NS_LOG_LOGIC("round " << r.round << " chunk " << h.GetChunk()
                              << ": a repeated contribution, discarded");
    }
    else if (merged && h.GetContributions() < h.GetExpected())
    {
        ++record.partialSums;
    }
    if (record.completion.IsZero() && m_ledger.IsComplete(r.round))
    {
        record.completion = Simulator::Now();
        m_roundCompleteTrace(r.round, Simulator::Now() - r.start);
        if (!r.deadline.IsStrictlyPositive() && !state.ended)
        {
            End(state);
            return;
        }
    }
    Changed(state);
}

void
WanIslandApplication::Drop(Ptr<const Packet> packet, const std::string& reason, RoundState* state)
{
    NS_LOG_INFO("dropped a packet: " << reason);
    m_dropTrace(packet, reason);
    if (state != nullptr)
    {
        ++state->record.dropped;
        Changed(*state);
    }
}

void
WanIslandApplication::CheckRound(uint32_t index, uint32_t attempt)
{
    auto& state = m_rounds[index];
    const auto& r = state.plan;
    if (m_ledger.IsComplete(r.round))
    {
        End(state);
        return;
    }
    const auto missing = m_ledger.GetMissing(r.round);
    if (m_recovery == REREQUEST && attempt < m_maxRequests && !missing.empty() &&
        !r.peerIslands.empty())
    {
        NS_LOG_INFO("round " << r.round << ": " << missing.size() << " contributions re-requested");
        for (const auto& [chunk, position] : missing)
        {
            SendRequest(state, chunk, position);
        }
        state.checkEvent = Simulator::Schedule(m_requestTimeout,
                                               &WanIslandApplication::CheckRound,
                                               this,
                                               index,
                                               attempt + 1);
        return;
    }
    m_ledger.GiveUp(r.round);
    NS_LOG_INFO("round " << r.round << ": " << m_ledger.GetAccount(r.round).counters.givenUp
                         << " contributions given up");
    End(state);
}

void
WanIslandApplication::SendRequest(RoundState& state, uint32_t chunk, uint32_t position)
{
    const auto& r = state.plan;
    m_ledger.MarkRequested(r.round, chunk, position);
    WanChunkHeader h;
    h.SetKind(WanChunkHeader::REQUEST);
    h.SetRound(r.round);
    h.SetClique(r.clique);
    h.SetSender(r.sender);
    h.SetChunk(chunk);
    h.SetPosition(static_cast<uint16_t>(position));
    auto packet = Create<Packet>(0);
    packet->AddHeader(h);
    ++state.record.requests;
    m_socket->SendTo(packet, 0, r.peerIslands.at(position));
}

void
WanIslandApplication::Repair(Ptr<const Packet> packet,
                             const WanChunkHeader& request,
                             const Address& from)
{
    // The REQUEST names the round, the clique, the chunk and this island's position.
    RoundState* state = Check(packet, request);
    if (state == nullptr)
    {
        return;
    }
    const auto& r = state->plan;
    if (request.GetPosition() != r.position || !InetSocketAddress::IsMatchingType(from))
    {
        Drop(packet, "bad sources", state);
        return;
    }
    auto p = MakeChunk(r, request.GetChunk(), WanChunkHeader::REPAIR);
    ++state->record.repairsSent;
    m_txTrace(p);
    m_socket->SendTo(
        p,
        0,
        InetSocketAddress(InetSocketAddress::ConvertFrom(from).GetIpv4(), m_mergedPort));
    Changed(*state);
}

void
WanIslandApplication::SendNacks()
{
    // NACKs count in the round of the last MERGED packet received.
    RoundState* state = FindRound(m_lastRound);
    const auto nacks = m_tracker.TakeNacks();
    for (uint32_t seq : nacks)
    {
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::NACK);
        h.SetSequence(seq);
        auto p = Create<Packet>(0);
        p->AddHeader(h);
        m_socket->SendTo(p, 0, InetSocketAddress(m_fpga, m_dataPort));
    }
    if (m_tracker.HasGaps())
    {
        m_nackEvent = Simulator::Schedule(m_nackDelay, &WanIslandApplication::SendNacks, this);
    }
    if (state != nullptr && !nacks.empty())
    {
        state->record.nacks += nacks.size();
        Changed(*state);
    }
}

} // namespace ns3
