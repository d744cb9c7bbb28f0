/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-island-application.h"

#include "wan-contribution.h"
#include "wan-parity-sizer.h"
#include "wan-training-compat.h"
#include "wan-training-text.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanIslandApplication");

NS_OBJECT_ENSURE_REGISTERED(WanIslandApplication);

namespace
{

/**
 * @param h a DATA, REPAIR or MERGED header (or a parity chunk's)
 * @return the senders whose contributions it holds: a sum names them, a
 *         single chunk is its sender's
 */
WanSourceSet
SendersOf(const WanChunkHeader& h)
{
    return h.GetKind() == WanChunkHeader::MERGED ? h.GetSourceSet()
                                                 : WanSourceSet::Of(h.GetPosition());
}

} // namespace

template <typename... Params, typename... Args>
EventId
WanIslandApplication::Later(Time delay,
                            void (WanIslandApplication::*method)(Params...),
                            Args... args)
{
    return Simulator::Schedule(delay, method, this, args...);
}

TypeId
WanIslandApplication::GetTypeId()
{
    // A flat list of fourteen attributes and five trace sources: long, not complex.
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
                          "What to do about contributions missing: accept (give them up at "
                          "the deadline), rerequest (ask their senders at the deadline) or "
                          "early (ask for each chunk once it is overdue by the plan)",
                          EnumValue(WanIslandApplication::ACCEPT),
                          wancompat::MakeEnumMemberAccessor(&WanIslandApplication::m_recovery),
                          MakeEnumChecker(WanIslandApplication::ACCEPT,
                                          "accept",
                                          WanIslandApplication::REREQUEST,
                                          "rerequest",
                                          WanIslandApplication::EARLY,
                                          "early"))
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
            .AddAttribute("AverageAtDeadline",
                          "A quorum: at a round's deadline the island averages what it holds "
                          "(reported then, RoundEnd) and the recovery goes on; what arrives "
                          "later is received, not averaged (for the next round to carry)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&WanIslandApplication::m_averageAtDeadline),
                          MakeBooleanChecker())
            .AddAttribute("OverduePackets",
                          "early: smallest margin, in packet times at the stream rate, past a "
                          "chunk's planned completion before it is overdue (the measured "
                          "lateness sets it when larger)",
                          DoubleValue(4),
                          MakeDoubleAccessor(&WanIslandApplication::m_overduePackets),
                          MakeDoubleChecker<double>(0, 1e6))
            .AddAttribute("ReorderWindow",
                          "early: a sender's contribution to a chunk is overdue once its "
                          "contribution to the chunk this many places later has arrived",
                          UintegerValue(3),
                          MakeUintegerAccessor(&WanIslandApplication::m_reorderWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RepairWhileStreaming",
                          "Send repairs while this island's own streams run (false: after "
                          "their last chunk, so that a repair cannot delay them; with 0 bytes "
                          "of FPGA memory one packet of delay misaligns the clique's sums)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&WanIslandApplication::m_repairWhileStreaming),
                          MakeBooleanChecker())
            .AddAttribute("RepairBudget",
                          "Share of a round's stream rate that this island's repairs may use: "
                          "REPAIRs leave a paced queue one packet per packet time at that rate",
                          DoubleValue(1),
                          MakeDoubleAccessor(&WanIslandApplication::m_repairBudget),
                          MakeDoubleChecker<double>(1e-3, 100))
            .AddAttribute("Parity",
                          "Send parity chunks (coded repair): after each block of ParityBlock "
                          "data chunks the island sends ParityChunks parity chunks, the parity "
                          "symbols of a systematic MDS code over GR(2^64, 8) (WanParityCode; "
                          "one parity is the plain wrap-around sum); summed by the FPGA like "
                          "any chunk, they rebuild any ParityChunks lost chunks of the block "
                          "without a round trip.  Every island of a run needs the same values",
                          BooleanValue(false),
                          MakeBooleanAccessor(&WanIslandApplication::m_parity),
                          MakeBooleanChecker())
            .AddAttribute("ParityBlock",
                          "Data chunks per parity block, 1 to 255, at most 256 with "
                          "ParityChunks (with Parity)",
                          UintegerValue(32),
                          MakeUintegerAccessor(&WanIslandApplication::m_parityBlock),
                          MakeUintegerChecker<uint32_t>(
                              static_cast<uint32_t>(wantext::bounds::kParityBlock.min),
                              static_cast<uint32_t>(wantext::bounds::kParityBlock.max)))
            .AddAttribute("ParityChunks",
                          "Parity chunks per block (1 to ParityBlock, at most 256 with it): "
                          "any that many losses of a block, in a burst or apart, are rebuilt",
                          UintegerValue(1),
                          MakeUintegerAccessor(&WanIslandApplication::m_parityChunks),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ParitySizing",
                          "Size each round's parity from the loss its receivers measured "
                          "(with Parity): the FPGAs that decode the stream REPORT, per block, "
                          "the data chunks that had not arrived when its first parity did; "
                          "a round sends the least rows that keep a block's failure "
                          "probability at ParityEpsilon for the worst receiver's rate over "
                          "the last ParityWindow rounds (WanLossEstimator), at most "
                          "ParityChunks, the code's rows (until reports come: sized for "
                          "ParityPrior, or all of them)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&WanIslandApplication::m_paritySizing),
                          MakeBooleanChecker())
            .AddAttribute("ParityEpsilon",
                          "Block failure probability a sized parity allows (ParitySizing)",
                          DoubleValue(1e-3),
                          MakeDoubleAccessor(&WanIslandApplication::m_parityEpsilon),
                          MakeDoubleChecker<double>(1e-12, 0.5))
            .AddAttribute("ParityWindow",
                          "Rounds before a round whose loss reports size its parity "
                          "(ParitySizing)",
                          UintegerValue(2),
                          MakeUintegerAccessor(&WanIslandApplication::m_parityWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ParityConfidence",
                          "Confidence of the Wilson interval whose upper end is a receiver's "
                          "rate (ParitySizing; 0: the rate it measured, no margin)",
                          DoubleValue(0.95),
                          MakeDoubleAccessor(&WanIslandApplication::m_parityConfidence),
                          MakeDoubleChecker<double>(0, 0.999999))
            .AddAttribute("ParityPrior",
                          "Loss rate a round is sized for before any report of its window has "
                          "come back, e.g. the first (ParitySizing; below 0: every row; a "
                          "stream of one block sends every row, which follow all its data)",
                          DoubleValue(-1),
                          MakeDoubleAccessor(&WanIslandApplication::m_parityPrior),
                          MakeDoubleChecker<double>(-1, 0.999999))
            .AddAttribute("ParityLayout",
                          "Where a stream's parity rows go: trailing (after all its data, "
                          "row by row over the blocks: a lossless round's data arrive as "
                          "without parity) or interleaved (each block's rows after its data)",
                          EnumValue(WanParityCode::TRAILING),
                          wancompat::MakeEnumMemberAccessor(&WanIslandApplication::m_parityLayout),
                          MakeEnumChecker(WanParityCode::TRAILING,
                                          "trailing",
                                          WanParityCode::INTERLEAVED,
                                          "interleaved"))
            .AddAttribute("ReportLoss",
                          "Decoding over the FPGA's sums, measure them for ParitySizing: at "
                          "a block's first parity, REPORT to every peer (and count for this "
                          "island's own parity) how many of the block's chunks hold every "
                          "peer's contribution, the rest being what the parity must rebuild",
                          BooleanValue(false),
                          MakeBooleanAccessor(&WanIslandApplication::m_reportLoss),
                          MakeBooleanChecker())
            .AddTraceSource("RoundComplete",
                            "All peers' contributions of a round arrived",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_roundCompleteTrace),
                            "ns3::WanIslandApplication::RoundCompleteTracedCallback")
            .AddTraceSource("RoundEnd",
                            "A round's record, once its deadline is handled (or it completes, "
                            "without a deadline; with AverageAtDeadline, at the deadline), and "
                            "again after every later change",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_roundEndTrace),
                            "ns3::WanIslandApplication::RoundEndTracedCallback")
            .AddTraceSource("Tx",
                            "A DATA (or parity) or REPAIR packet was sent",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_txTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Rx",
                            "A packet was received",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_rxTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("ParitySized",
                            "A round's parity rows were sized (ParitySizing): the round, the "
                            "rows per block and the rate they were sized for (-1: no report "
                            "yet and no ParityPrior, every row of the code)",
                            MakeTraceSourceAccessor(&WanIslandApplication::m_paritySizedTrace),
                            "ns3::WanIslandApplication::ParitySizedTracedCallback")
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
WanIslandApplication::Validate(const WanIslandRound& round) const
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
    if (m_recovery != ACCEPT && round.peers > 0 && round.peerIslands.empty())
    {
        throw std::invalid_argument(name + ": re-requests need the island of every peer");
    }
    if ((!round.arrivals.empty() && round.arrivals.size() != round.peers + 1u) ||
        (!round.peerDelays.empty() && round.peerDelays.size() != round.peers + 1u))
    {
        throw std::invalid_argument(name + " needs the planned arrival and latency of every "
                                           "clique member, or none");
    }
    // A bad parity layout is refused here, with its values.
    WanParityCode(ChunkCount(round.payloadBytes, m_chunkBytes),
                  ParityBlockInUse(),
                  m_parityChunks,
                  0,
                  m_parityLayout);
}

uint32_t
WanIslandApplication::GetDefaultParityBlock()
{
    return static_cast<uint32_t>(
        wancompat::AttributeDefault<UintegerValue>(GetTypeId(), "ParityBlock"));
}

uint32_t
WanIslandApplication::GetDefaultParityChunks()
{
    return static_cast<uint32_t>(
        wancompat::AttributeDefault<UintegerValue>(GetTypeId(), "ParityChunks"));
}

uint32_t
WanIslandApplication::ParityBlockInUse() const
{
    return m_parity ? m_parityBlock : 0; // 0: no parity (WanParityCode)
}

uint16_t
WanIslandApplication::GetDataPort() const
{
    return m_dataPort;
}

uint16_t
WanIslandApplication::GetMergedPort() const
{
    return m_mergedPort;
}

void
WanIslandApplication::AddRound(const WanIslandRound& round)
{
    Validate(round);
    if (m_roundIndex.count(round.round) > 0)
    {
        throw std::invalid_argument("island round " + std::to_string(round.round) +
                                    " is planned twice");
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

uint32_t
WanIslandApplication::IndexOf(const RoundState& state) const
{
    return static_cast<uint32_t>(&state - m_rounds.data());
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
    for (const auto& decoder : state.decoders)
    {
        const auto tally = decoder.Count();
        record.parityBlocks += tally.blocks;
        record.paritySymbols += tally.symbols;
        record.erasures += tally.erasures;
        record.blocksShort += tally.short_;
    }
    record.sum = account.sum;
    record.lateChunks = account.lateChunks;
    record.requestedChunks = account.requestedChunks;
    record.givenUpChunks = account.givenUpChunks;
    record.heldPerPosition = account.heldPerPosition;
    record.averaged = account.averaged;
    record.received = account.received;
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
    if (m_paritySizing && ParityBlockInUse() > 0)
    {
        m_loss.emplace(m_parityWindow, m_parityConfidence);
        m_loss->SetPrior(m_parityPrior);
    }
    for (uint32_t k = 0; k < m_rounds.size(); ++k)
    {
        PrepareRound(k);
        ScheduleRound(k);
    }
}

void
WanIslandApplication::PrepareRound(uint32_t k)
{
    auto& state = m_rounds[k];
    const auto& r = state.plan;
    state.chunks = ChunkCount(r.payloadBytes, m_chunkBytes);
    state.record.chunks = state.chunks;
    state.code = WanParityCode(state.chunks, ParityBlockInUse(), m_parityChunks, 0, m_parityLayout);
    if (state.code.IsEnabled())
    {
        WanSourceSet peers;
        for (uint32_t p = 0; p <= r.peers; ++p)
        {
            if (p != r.position)
            {
                peers.Set(p);
            }
        }
        if (r.viaFpga)
        {
            state.decoders.emplace_back(state.code, peers);
        }
        else
        {
            for (uint32_t p = 0; p <= r.peers; ++p)
            {
                state.decoders.emplace_back(state.code,
                                            p == r.position ? WanSourceSet() : WanSourceSet::Of(p));
            }
        }
    }
    if (!m_ledger.HasRound(r.round))
    {
        m_ledger.AddRound(r.round, state.chunks, r.peers + 1u, r.position);
    }
}

void
WanIslandApplication::ScheduleRound(uint32_t k)
{
    auto& state = m_rounds[k];
    const auto& r = state.plan;
    StartClock(k);
    if (r.deadline.IsStrictlyPositive() && r.peers > 0)
    {
        const Time at = std::max(r.start + r.deadline, Simulator::Now());
        state.checkEvent = Later(at - Simulator::Now(), &WanIslandApplication::CheckRound, k, 0);
    }
    const Time at = std::max(r.start + r.offset, Simulator::Now());
    state.sendEvent = Later(at - Simulator::Now(), &WanIslandApplication::SendChunk, k, 0);
}

void
WanIslandApplication::ReplaceRound(const WanIslandRound& round)
{
    const std::string name = "island round " + std::to_string(round.round);
    auto it = m_roundIndex.find(round.round);
    if (it == m_roundIndex.end())
    {
        throw std::invalid_argument(name + " was not planned: nothing to re-plan");
    }
    auto& state = m_rounds[it->second];
    const auto& old = state.plan;
    if (state.ended || Simulator::Now() >= old.start + old.offset)
    {
        throw std::invalid_argument(name + " has started: it cannot be re-planned");
    }
    Validate(round);
    if (round.clique != old.clique || round.peers != old.peers || round.position != old.position ||
        round.payloadBytes != old.payloadBytes || round.sender != old.sender)
    {
        throw std::invalid_argument(name + ": a re-plan keeps the clique, the position and the "
                                           "payload (only times, rates and routes change)");
    }
    NS_LOG_INFO(name << " re-planned: start " << round.start.As(Time::MS) << ", rate "
                     << round.rate);
    Simulator::Cancel(state.sendEvent);
    Simulator::Cancel(state.checkEvent);
    Simulator::Cancel(state.overdueEvent);
    state.plan = round;
    state.record.start = round.start;
    state.early.reset();
    if (m_socket)
    {
        ScheduleRound(it->second); // running: from the new plan on
    }
}

void
WanIslandApplication::StopApplication()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_nackEvent);
    Simulator::Cancel(m_repairEvent);
    for (auto& state : m_rounds)
    {
        Simulator::Cancel(state.sendEvent);
        Simulator::Cancel(state.checkEvent);
        Simulator::Cancel(state.overdueEvent);
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

WanChunkHeader
WanIslandApplication::Header(const WanIslandRound& r, WanChunkHeader::Kind kind, uint32_t chunk)
{
    WanChunkHeader h;
    h.SetKind(kind);
    h.SetRound(r.round);
    h.SetClique(r.clique);
    h.SetSender(r.sender);
    h.SetChunk(chunk);
    return h;
}

Ptr<Packet>
WanIslandApplication::MakeChunk(const WanIslandRound& r,
                                uint32_t chunk,
                                WanChunkHeader::Kind kind) const
{
    const uint64_t sent = static_cast<uint64_t>(chunk) * m_chunkBytes;
    auto h = Header(r, kind, chunk);
    h.SetExpected(r.peers);
    h.SetPosition(r.position);
    h.SetValue(WanContribution::Value(r.value, chunk));
    auto p = Create<Packet>(
        static_cast<uint32_t>(std::min<uint64_t>(m_chunkBytes, r.payloadBytes - sent)));
    p->AddHeader(h);
    return p;
}

Ptr<Packet>
WanIslandApplication::MakeParity(const WanIslandRound& r,
                                 const WanParityCode& code,
                                 uint32_t chunk) const
{
    const uint32_t group = WanParityCode::GroupOfParity(chunk);
    const auto symbol = code.Encode(group, [&r](uint32_t c) {
        return WanContribution::ToFixed(WanContribution::Value(r.value, c));
    });
    auto h = Header(r, WanChunkHeader::DATA, chunk);
    h.SetExpected(r.peers);
    h.SetPosition(r.position);
    h.SetSymbol(symbol);
    const uint32_t block = code.BlockOfGroup(group);
    h.SetBlockLength(static_cast<uint16_t>(code.BlockSize(block)));
    h.SetBlockRows(static_cast<uint16_t>(code.BlockParities(block)));
    auto p =
        Create<Packet>(static_cast<uint32_t>(std::min<uint64_t>(m_chunkBytes, r.payloadBytes)));
    p->AddHeader(h);
    return p;
}

void
WanIslandApplication::Reported(Ptr<const Packet> packet,
                               const WanChunkHeader& h,
                               const Address& from)
{
    if (!m_loss)
    {
        Drop(packet, "unexpected kind", nullptr);
        return;
    }
    RoundState* state = Planned(packet, h);
    if (state == nullptr)
    {
        return;
    }
    if (h.GetPosition() != state->plan.position || h.GetExpected() == 0 ||
        h.GetContributions() > h.GetExpected())
    {
        Drop(packet, "bad report", state);
        return;
    }
    const auto receiver =
        m_reporters.emplace(from, static_cast<uint32_t>(m_reporters.size())).first->second;
    m_loss->AddReport(h.GetRound(),
                      receiver,
                      h.GetExpected(),
                      h.GetExpected() - h.GetContributions());
    ++state->record.lossReports;
}

void
WanIslandApplication::SizeParity(RoundState& state)
{
    const auto& r = state.plan;
    uint32_t rows = m_parityChunks;
    double rate = -1;
    const auto estimate = m_loss->GetEstimate(r.round);
    // A stream of one block sends every row before any report: they follow
    // all its data in either layout (the prior bounds what longer streams
    // send between their data or after it).
    if (estimate && (estimate->receivers > 0 || state.chunks > m_parityBlock))
    {
        rate = estimate->rate;
        rows = WanParitySizer::Parities(m_parityBlock,
                                        rate,
                                        m_parityEpsilon,
                                        m_parityChunks,
                                        estimate->dispersion);
    }
    state.code = WanParityCode(state.chunks, m_parityBlock, m_parityChunks, rows, m_parityLayout);
    NS_LOG_INFO("round " << r.round << ": " << rows << " parity rows per block, for a rate of "
                         << rate);
    m_paritySizedTrace(r.round, rows, rate);
}

void
WanIslandApplication::SendChunk(uint32_t index, uint32_t slot)
{
    auto& state = m_rounds[index];
    const auto& r = state.plan;
    if (slot == 0)
    {
        if (m_loss)
        {
            SizeParity(state);
        }
        state.record.parityRows = state.code.GetSent();
    }
    const uint32_t chunk = state.code.SlotChunk(slot);
    const bool parity = WanParityCode::IsParity(chunk);
    for (const auto& to : r.destinations)
    {
        auto p =
            parity ? MakeParity(r, state.code, chunk) : MakeChunk(r, chunk, WanChunkHeader::DATA);
        state.record.bytesOut += p->GetSize();
        state.record.paritySent += parity ? 1 : 0;
        m_txTrace(p);
        m_socket->SendTo(p, 0, to);
    }
    if (slot + 1 < state.code.GetStreamLength())
    {
        // Absolute send times: the pacing does not drift with rounding.
        const double next = (slot + 1) * PacketSeconds(r);
        Time at = r.start + r.offset + NanoSeconds(static_cast<int64_t>(std::llround(next * 1e9)));
        state.sendEvent =
            Later(at - Simulator::Now(), &WanIslandApplication::SendChunk, index, slot + 1);
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
        case WanChunkHeader::QUERY:
            Answered(packet, h);
            break;
        case WanChunkHeader::REPORT:
            Reported(packet, h, from);
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
    bool resent = h.GetKind() == WanChunkHeader::REPAIR;
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
            resent = arrival == WanSequenceTracker::Arrival::GAP_FILLED;
            state->record.retransmissions += resent ? 1 : 0;
        }
        m_roundTrips.Resent(h.GetSequence(), Simulator::Now());
        if (m_tracker.HasGaps() && m_nackEvent.IsExpired())
        {
            m_nackEvent = Later(m_nackDelay, &WanIslandApplication::SendNacks);
        }
    }
    if (WanParityCode::IsParity(h.GetChunk()) && h.GetKind() != WanChunkHeader::REPAIR)
    {
        Parity(packet, h);
    }
    else if (Check(packet, h) != nullptr)
    {
        Account(packet, h, *state, resent);
    }
}

void
WanIslandApplication::Parity(Ptr<const Packet> packet, const WanChunkHeader& h)
{
    RoundState* state = Planned(packet, h);
    if (state == nullptr)
    {
        return;
    }
    const auto group = WanParityCode::GroupOfParity(h.GetChunk());
    const bool merged = h.GetKind() == WanChunkHeader::MERGED;
    if (group >= state->code.GetGroups() || (merged && h.GetSourceSet().IsEmpty()) ||
        (!merged && h.GetPosition() > state->plan.peers))
    {
        Drop(packet, "unexpected parity", state); // none planned, or nobody named
        return;
    }
    auto& decoder = DecoderOf(*state, h.GetPosition());
    if (m_reportLoss)
    {
        ReportBlock(*state, state->code.BlockOfGroup(group));
    }
    if (const char* why = decoder.Refusal(group, SendersOf(h)))
    {
        Drop(packet, why, state); // counted by reason, as every bad chunk
        return;
    }
    decoder.AddParity(group, SendersOf(h), h.GetSymbol());
    state->record.bytesIn += packet->GetSize();
    ++state->record.packetsIn;
    Rebuild(*state, decoder, state->code.BlockOfGroup(group));
    if (!NoteCompletion(*state))
    {
        Changed(*state);
    }
}

void
WanIslandApplication::ReportBlock(RoundState& state, uint32_t block)
{
    const auto& r = state.plan;
    if (!state.reported.insert(block).second)
    {
        return; // measured at its first parity only
    }
    const auto chunks = state.code.BlockChunks(block);
    const auto n = static_cast<uint32_t>(chunks.size());
    const auto whole =
        static_cast<uint32_t>(std::count_if(chunks.begin(), chunks.end(), [&](uint32_t c) {
            for (uint32_t p = 0; p <= r.peers; ++p)
            {
                if (p != r.position && !m_ledger.Holds(r.round, c, p))
                {
                    return false;
                }
            }
            return true;
        }));
    if (m_loss)
    {
        // This island's own measurement, as one more receiver (no address).
        const auto self =
            m_reporters.emplace(Address(), static_cast<uint32_t>(m_reporters.size())).first->second;
        m_loss->AddReport(r.round, self, n, n - whole);
    }
    for (uint32_t p = 0; p < r.peerIslands.size(); ++p)
    {
        if (p == r.position)
        {
            continue;
        }
        auto h = Header(r, WanChunkHeader::REPORT, block);
        h.SetPosition(static_cast<uint16_t>(p));
        h.SetExpected(static_cast<uint16_t>(n));
        h.SetContributions(static_cast<uint16_t>(whole));
        auto packet = Create<Packet>(0);
        packet->AddHeader(h);
        m_socket->SendTo(packet, 0, r.peerIslands[p]);
    }
}

uint32_t
WanIslandApplication::DecoderIndex(const RoundState& state, uint32_t position)
{
    return state.plan.viaFpga ? 0 : position;
}

WanParityDecoder&
WanIslandApplication::DecoderOf(RoundState& state, uint32_t position)
{
    return state.decoders.at(DecoderIndex(state, position));
}

void
WanIslandApplication::Rebuild(RoundState& state, WanParityDecoder& decoder, uint32_t block)
{
    const auto& r = state.plan;
    const auto rebuilt = decoder.Rebuild(block, [&](uint32_t chunk, uint32_t position) {
        return m_ledger.Holds(r.round, chunk, position);
    });
    const bool pastDeadline = PastDeadline(r);
    for (const auto& one : rebuilt)
    {
        const uint32_t n = one.sources.Count();
        const auto verdict = m_ledger.Offer(r.round,
                                            one.chunk,
                                            one.sources,
                                            n,
                                            WanContribution::FromFixed(one.value),
                                            pastDeadline);
        if (verdict != WanContributionLedger::Verdict::ACCEPTED)
        {
            NS_LOG_WARN("round " << r.round << " chunk " << one.chunk << ": rebuilt sum refused, "
                                 << WanContributionLedger::ToString(verdict));
            continue;
        }
        decoder.AddData(one.chunk, one.value);
        state.record.rebuilt += n;
        NS_LOG_INFO("round " << r.round << " chunk " << one.chunk << ": " << n
                             << " contributions rebuilt from the parity of block " << block);
    }
}

bool
WanIslandApplication::PastDeadline(const WanIslandRound& r)
{
    return r.deadline.IsStrictlyPositive() && Simulator::Now() > r.start + r.deadline;
}

bool
WanIslandApplication::NoteCompletion(RoundState& state)
{
    const auto& r = state.plan;
    auto& record = state.record;
    if (record.completion.IsZero() && m_ledger.IsComplete(r.round))
    {
        record.completion = Simulator::Now();
        m_roundCompleteTrace(r.round, Simulator::Now() - r.start);
        if (!r.deadline.IsStrictlyPositive() && !state.ended)
        {
            End(state);
            return true;
        }
    }
    return false;
}

WanIslandApplication::RoundState*
WanIslandApplication::Planned(Ptr<const Packet> packet, const WanChunkHeader& h)
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
    else
    {
        return state;
    }
    return nullptr;
}

WanIslandApplication::RoundState*
WanIslandApplication::Check(Ptr<const Packet> packet, const WanChunkHeader& h)
{
    RoundState* state = Planned(packet, h);
    if (state != nullptr && h.GetChunk() >= state->chunks)
    {
        Drop(packet, "chunk out of range", state);
        return nullptr;
    }
    return state;
}

void
WanIslandApplication::Account(Ptr<const Packet> packet,
                              const WanChunkHeader& h,
                              RoundState& state,
                              bool resent)
{
    const auto& r = state.plan;
    const bool pastDeadline = PastDeadline(r);
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
    if (state.code.IsEnabled() && !resent)
    {
        DecoderOf(state, h.GetPosition()).NoteArrival(h.GetChunk(), SendersOf(h));
    }
    if (verdict == WanContributionLedger::Verdict::ACCEPTED)
    {
        Measure(state, h, resent);
        if (state.code.IsEnabled())
        {
            auto& decoder = DecoderOf(state, h.GetPosition());
            decoder.AddData(h.GetChunk(), h.GetFixedValue());
            Rebuild(state, decoder, state.code.BlockOf(h.GetChunk()));
        }
    }
    if (verdict == WanContributionLedger::Verdict::REPEATED)
    {
        NS_LOG_LOGIC("round " << r.round << " chunk " << h.GetChunk()
                              << ": a repeated contribution, discarded");
    }
    else if (merged && h.GetContributions() < h.GetExpected())
    {
        ++record.partialSums;
    }
    if (!NoteCompletion(state))
    {
        Changed(state);
    }
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
    NS_LOG_LOGIC("round " << r.round << " deadline check " << attempt << ": "
                          << (m_ledger.IsComplete(r.round) ? "complete" : "incomplete"));
    if (m_ledger.IsComplete(r.round))
    {
        End(state);
        return;
    }
    if (m_averageAtDeadline && attempt == 0 && m_recovery != ACCEPT)
    {
        // The quorum averages now; the recovery below goes on, and what it
        // brings is received for the next round (the first report is when
        // the island averaged).
        m_ledger.Freeze(r.round);
        m_roundEndTrace(Compose(state));
    }
    if (m_recovery == EARLY && state.early && attempt > 0)
    {
        // MaxRequests request timeouts after the deadline: what still runs
        // is given up (the last requests may still be answered: late).
        state.early->AbandonAsks();
        FinishEarly(index);
        return;
    }
    if (m_recovery == EARLY && state.early)
    {
        // Chunks not yet overdue by the margin are overdue now; the round
        // ends when the last chunk's requests are spent (FinishEarly), at
        // the latest MaxRequests x RequestTimeout after the deadline.
        state.checkEvent =
            Later(m_requestTimeout * m_maxRequests, &WanIslandApplication::CheckRound, index, 1);
        Simulator::Cancel(state.overdueEvent);
        for (uint32_t c : state.early->PassDeadline(ChunkComplete(r.round)))
        {
            Overdue(index, c);
        }
        FinishEarly(index);
        return;
    }
    const auto missing = m_ledger.GetMissing(r.round);
    if (m_recovery != ACCEPT && attempt < m_maxRequests && !missing.empty() &&
        !r.peerIslands.empty())
    {
        NS_LOG_INFO("round " << r.round << ": " << missing.size() << " contributions re-requested");
        for (const auto& [chunk, position] : missing)
        {
            SendRequest(state, chunk, position);
        }
        state.checkEvent =
            Later(m_requestTimeout, &WanIslandApplication::CheckRound, index, attempt + 1);
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
    auto h = Header(r, WanChunkHeader::REQUEST, chunk);
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
    // The repair goes where the request came from: an island's socket, or
    // the FPGA that will sum it.
    const auto to = InetSocketAddress::ConvertFrom(from);
    if (!m_repairs.Push({IndexOf(*state), r.round, request.GetChunk(), to}))
    {
        NS_LOG_LOGIC("chunk " << request.GetChunk() << " of round " << r.round << " for "
                              << to.GetIpv4() << " is queued already");
        return;
    }
    NS_LOG_LOGIC("round " << r.round << " chunk " << request.GetChunk() << " for " << to.GetIpv4()
                          << ": a repair queued behind " << m_repairs.GetSize() - 1);
    if (m_repairEvent.IsExpired())
    {
        m_repairEvent =
            Later(m_repairs.GetWait(Simulator::Now()), &WanIslandApplication::SendQueuedRepair);
    }
}

Time
WanIslandApplication::StreamsEnd() const
{
    Time end;
    for (const auto& state : m_rounds)
    {
        const auto& r = state.plan;
        if (wancompat::IsPending(state.sendEvent) && r.start + r.offset <= Simulator::Now())
        {
            end = std::max(end, r.start + r.offset + state.code.GetStreamLength() * PacketTime(r));
        }
    }
    return end;
}

void
WanIslandApplication::SendQueuedRepair()
{
    const Time streamsEnd = m_repairWhileStreaming ? Time(0) : StreamsEnd();
    if (streamsEnd > Simulator::Now())
    {
        m_repairEvent =
            Later(streamsEnd - Simulator::Now(), &WanIslandApplication::SendQueuedRepair);
        return;
    }
    auto& state = m_rounds[m_repairs.Front().index];
    const auto& r = state.plan;
    const auto next = m_repairs.Pop(Simulator::Now(), PacketTime(r), m_repairBudget);
    auto p = MakeChunk(r, next.chunk, WanChunkHeader::REPAIR);
    ++state.record.repairsSent;
    m_txTrace(p);
    m_socket->SendTo(p, 0, next.to);
    if (!m_repairs.IsEmpty())
    {
        m_repairEvent =
            Later(m_repairs.GetWait(Simulator::Now()), &WanIslandApplication::SendQueuedRepair);
    }
    Changed(state);
}

double
WanIslandApplication::PacketSeconds(const WanIslandRound& r) const
{
    const double bits = 8.0 * (m_chunkBytes + WanChunkHeader().GetSerializedSize() + m_overhead);
    return bits / r.rate.GetBitRate();
}

Time
WanIslandApplication::PacketTime(const WanIslandRound& r) const
{
    return Seconds(PacketSeconds(r));
}

void
WanIslandApplication::StartClock(uint32_t index)
{
    auto& state = m_rounds[index];
    const auto& r = state.plan;
    if (m_recovery == REREQUEST || r.peers == 0 || r.arrivals.empty())
    {
        return;
    }
    Time first;
    for (uint32_t p = 0; p <= r.peers; ++p)
    {
        first = p == r.position ? first : std::max(first, r.arrivals[p]);
    }
    const Time period = PacketTime(r);
    // With interleaved parity a data chunk leaves at most ParityChunks slots
    // earlier than at the stream's mean spacing: the clock is never early.
    // Trailing parity leaves the data at the packet period.
    const uint32_t span = state.code.GetLayout() == WanParityCode::TRAILING
                              ? state.chunks
                              : state.code.GetStreamLength();
    const double spacing = period.GetSeconds() * span / std::max(state.chunks, 1u);
    const WanOverdueClock clock(first.GetSeconds(),
                                spacing,
                                state.chunks,
                                m_overduePackets * period.GetSeconds());
    state.early.emplace(clock, r.peers + 1u, m_reorderWindow, r.peerDelays);
    ScheduleOverdue(index, Time(0));
}

void
WanIslandApplication::ScheduleOverdue(uint32_t index, Time spacing)
{
    auto& state = m_rounds[index];
    const auto at = state.early->GetNextCheck(state.plan.start, Simulator::Now(), spacing);
    if (at)
    {
        state.overdueEvent =
            Later(*at - Simulator::Now(), &WanIslandApplication::CheckOverdue, index);
    }
}

void
WanIslandApplication::CheckOverdue(uint32_t index)
{
    auto& state = m_rounds[index];
    const auto& r = state.plan;
    if (m_ledger.IsComplete(r.round))
    {
        return;
    }
    const double now = (Simulator::Now() - r.start).GetSeconds();
    if (m_recovery == ACCEPT)
    {
        // Once the last chunk is overdue, what is missing will not come in
        // time: the island averages without it now, not at the deadline.
        if (!state.early->LastOverdue(now))
        {
            ScheduleOverdue(index, 4 * PacketTime(r));
            return;
        }
        // The rows after the last data chunk (trailing ones, or the last
        // block's) may still rebuild what is missing: wait for them too.
        const Time rows = TailParityWait(state);
        if (rows.IsStrictlyPositive())
        {
            state.overdueEvent = Later(rows, &WanIslandApplication::CheckOverdue, index);
            return;
        }
        Simulator::Cancel(state.checkEvent);
        m_ledger.GiveUp(r.round);
        NS_LOG_INFO("round " << r.round << ": " << m_ledger.GetAccount(r.round).counters.givenUp
                             << " contributions given up at the tail");
        End(state);
        return;
    }
    for (uint32_t c : state.early->TakeTailOverdue(now, ChunkComplete(r.round)))
    {
        Overdue(index, c);
    }
    // Checks at least four packet times apart: one event per few chunks.
    ScheduleOverdue(index, 4 * PacketTime(r));
}

std::function<bool(uint32_t)>
WanIslandApplication::ChunkComplete(uint32_t round) const
{
    return [this, round](uint32_t chunk) { return m_ledger.IsChunkComplete(round, chunk); };
}

void
WanIslandApplication::Overdue(uint32_t index, uint32_t chunk)
{
    auto& state = m_rounds[index];
    state.early->MarkOverdue(chunk);
    const Time wait = ParityWait(state, chunk);
    if (wait.IsStrictlyPositive())
    {
        NS_LOG_LOGIC("round " << state.plan.round << " chunk " << chunk
                              << " overdue; its parity is due in " << wait.As(Time::US));
        Later(wait, &WanIslandApplication::Ask, index, chunk);
        return;
    }
    Ask(index, chunk);
}

Time
WanIslandApplication::ParityWait(const RoundState& state, uint32_t chunk) const
{
    const auto& code = state.code;
    if (!code.IsEnabled())
    {
        return Time(0);
    }
    // The block's parities leave in order: its last one in, all are in
    // (or lost).  It leaves some slots after a data chunk (its block's last,
    // or the stream's when the rows trail).
    const uint32_t group = code.LastGroup(code.BlockOf(chunk));
    const uint32_t before = code.DataBefore(group);
    bool pending = false;
    for (uint32_t p : m_ledger.GetMissing(state.plan.round, chunk))
    {
        pending = pending || !state.decoders.at(DecoderIndex(state, p)).HasParity(group);
    }
    if (!pending)
    {
        return Time(0);
    }
    return SlotWait(state, before, code.SlotOfGroup(group));
}

Time
WanIslandApplication::TailParityWait(const RoundState& state) const
{
    const auto& code = state.code;
    if (!code.IsEnabled() || state.chunks == 0)
    {
        return Time(0);
    }
    return SlotWait(state, state.chunks - 1, code.GetStreamLength() - 1);
}

Time
WanIslandApplication::SlotWait(const RoundState& state, uint32_t before, uint32_t slot) const
{
    return state.early->GetParityWait(before,
                                      slot - state.code.SlotOf(before),
                                      PacketSeconds(state.plan),
                                      state.plan.start,
                                      Simulator::Now());
}

void
WanIslandApplication::Ask(uint32_t index, uint32_t chunk)
{
    auto& state = m_rounds[index];
    if (!state.early)
    {
        return; // re-planned since it was scheduled: its early recovery starts afresh
    }
    const auto& r = state.plan;
    auto& early = *state.early;
    if (m_ledger.IsChunkComplete(r.round, chunk))
    {
        NS_LOG_LOGIC("round " << r.round << " chunk " << chunk << ": rebuilt from parity");
        early.EndAsk();
        FinishEarly(index);
        return;
    }
    NS_LOG_INFO("round " << r.round << " chunk " << chunk << " overdue; lateness "
                         << early.GetClock().GetLateness().GetMean() * 1e3 << " +- "
                         << early.GetClock().GetLateness().GetDeviation() * 1e3 << " ms, margin "
                         << early.GetMargin() * 1e3 << " ms");
    if (!r.viaFpga)
    {
        AskPeers(index, chunk, 0);
        return;
    }
    // The FPGA is the nearest holder: it releases the chunk or says what it sent.
    Query(index, chunk, 0);
    // Should the FPGA's answer be lost, the senders are asked one margin on.
    Later(Seconds(early.GetMargin()), &WanIslandApplication::AskPeers, index, chunk, 0);
    Changed(state);
}

void
WanIslandApplication::Query(uint32_t index, uint32_t chunk, uint32_t attempt)
{
    auto& state = m_rounds[index];
    if (!state.early)
    {
        return; // re-planned since it was scheduled: its early recovery starts afresh
    }
    const auto& r = state.plan;
    if (attempt > 0 && (!state.early->IsFpgaRepairing(chunk) || attempt > m_maxRequests ||
                        m_ledger.IsChunkComplete(r.round, chunk)))
    {
        return; // the FPGA's sum came, or it stopped repairing
    }
    auto h = Header(r, WanChunkHeader::QUERY, chunk);
    h.SetPosition(r.position);
    auto p = Create<Packet>(0);
    p->AddHeader(h);
    m_socket->SendTo(p, 0, InetSocketAddress(m_fpga, m_dataPort));
    m_roundTrips.Queried(r.round, chunk, Simulator::Now());
    ++state.record.nacks;
    if (attempt > 0)
    {
        // While the FPGA repairs, ask again, twice as late each time: its sum
        // may be lost at the tail of the MERGED stream, where no gap shows it.
        Later(state.early->GetQueryBackoff(attempt),
              &WanIslandApplication::Query,
              index,
              chunk,
              attempt + 1);
    }
    Changed(state);
}

void
WanIslandApplication::Answered(Ptr<const Packet> packet, const WanChunkHeader& h)
{
    RoundState* state = Check(packet, h);
    if (state == nullptr || !state->early || !state->early->IsOverdue(h.GetChunk()))
    {
        if (state != nullptr)
        {
            Drop(packet, "unexpected kind", state);
        }
        return;
    }
    m_roundTrips.Answered(h.GetRound(), h.GetChunk(), Simulator::Now());
    // Every MERGED packet the FPGA sent before its answer has arrived or is lost.
    const uint32_t opened = m_tracker.ExpectBelow(h.GetSequence());
    if (opened > 0)
    {
        NS_LOG_LOGIC(opened << " MERGED packets lost at the tail");
        Simulator::Cancel(m_nackEvent);
        SendNacks();
    }
    const auto index = IndexOf(*state);
    auto& early = *state->early;
    if (h.GetContributions() > 0)
    {
        // The FPGA is repairing the chunk itself: its sum (whole, or as far
        // as the repair got) will say what is left to ask for.
        if (early.StartFpgaRepair(h.GetChunk()))
        {
            Later(early.GetQueryBackoff(0), &WanIslandApplication::Query, index, h.GetChunk(), 1);
        }
        return;
    }
    early.EndFpgaRepair(h.GetChunk());
    // A NACKed packet may hold the chunk: its resend gets one margin first.
    const Time wait = m_tracker.HasGaps() ? Seconds(early.GetMargin()) : Time(0);
    Later(wait, &WanIslandApplication::AskPeers, index, h.GetChunk(), 0);
}

void
WanIslandApplication::AskPeers(uint32_t index, uint32_t chunk, uint32_t attempt)
{
    using Action = WanEarlyRecovery::PeerAction;
    auto& state = m_rounds[index];
    if (!state.early)
    {
        return; // re-planned since it was scheduled: its early recovery starts afresh
    }
    const auto& r = state.plan;
    const auto ask = state.early->AskPeers(chunk,
                                           attempt,
                                           m_ledger.GetMissing(r.round, chunk),
                                           m_maxRequests,
                                           CostOf(r));
    if (ask.action == Action::SKIP)
    {
        return; // started already, or the FPGA repairs it
    }
    if (ask.action == Action::DONE)
    {
        FinishEarly(index);
        return;
    }
    if (ask.action == Action::WAIT)
    {
        // No sender due yet: their contributions may still be on their way.
        Later(ask.timeout, &WanIslandApplication::AskPeers, index, chunk, attempt);
        return;
    }
    for (uint32_t position : ask.positions)
    {
        if (attempt == 0)
        {
            m_roundTrips.Requested(r.round, chunk, position, Simulator::Now());
        }
        else
        {
            m_roundTrips.Repeated(r.round, chunk, position); // a repair now answers either (Karn)
        }
        SendRequest(state, chunk, position);
    }
    NS_LOG_LOGIC("round " << r.round << " chunk " << chunk << ": " << ask.positions.size()
                          << " contributions requested, attempt " << attempt << ", again in "
                          << ask.timeout.As(Time::MS) << " (margin "
                          << state.early->GetMargin() * 1e3 << " ms, repair wait "
                          << m_roundTrips.GetRepairWait().GetBound() * 1e3 << " ms)");
    Later(ask.timeout, &WanIslandApplication::AskPeers, index, chunk, attempt + 1);
    Changed(state);
}

WanEarlyRecovery::RequestCost
WanIslandApplication::CostOf(const WanIslandRound& r) const
{
    return {PacketTime(r), m_repairBudget, m_roundTrips.GetRepairAllowance()};
}

void
WanIslandApplication::Measure(RoundState& state, const WanChunkHeader& h, bool resent)
{
    if (!state.early)
    {
        return;
    }
    auto& early = *state.early;
    const auto& r = state.plan;
    const uint32_t chunk = h.GetChunk();
    if (h.GetKind() == WanChunkHeader::REPAIR)
    {
        const uint32_t position = h.GetPosition();
        early.RepairArrived(position);
        m_roundTrips.Repaired(r.round,
                              chunk,
                              position,
                              Simulator::Now(),
                              early.GetRoundTrip(position));
        return;
    }
    if (resent)
    {
        return;
    }
    if (m_ledger.IsChunkComplete(r.round, chunk))
    {
        early.ObserveCompletion(chunk, (Simulator::Now() - r.start).GetSeconds());
    }
    if (m_recovery != EARLY)
    {
        return; // accept only times the tail
    }
    if (h.GetKind() == WanChunkHeader::MERGED && early.EndFpgaRepair(chunk))
    {
        // What the FPGA's repair could not bring: from the senders now.
        Simulator::ScheduleNow(&WanIslandApplication::AskPeers, this, IndexOf(state), chunk, 0);
    }
    if (h.GetKind() != WanChunkHeader::MERGED)
    {
        Reveal(state, h.GetPosition(), chunk);
    }
    else if (h.GetContributions() == h.GetExpected())
    {
        // Only a complete sum: the FPGA forwards complete sums in the order
        // the streams bring them, while a partial sum may overtake a slot
        // still waiting for a slower stream.
        h.GetSourceSet().ForEach([&](uint32_t p) { Reveal(state, p, chunk); });
    }
}

void
WanIslandApplication::Reveal(RoundState& state, uint32_t position, uint32_t chunk)
{
    const uint32_t round = state.plan.round;
    const auto due = state.early->Reveal(position, chunk, [&](uint32_t c) {
        return m_ledger.Holds(round, c, position);
    });
    for (uint32_t c : due)
    {
        Overdue(IndexOf(state), c);
    }
}

void
WanIslandApplication::FinishEarly(uint32_t index)
{
    auto& state = m_rounds[index];
    if (!state.early->CanFinish() || state.ended)
    {
        return;
    }
    const auto& r = state.plan;
    if (!m_ledger.IsComplete(r.round))
    {
        for (const auto& [chunk, position] : m_ledger.GetMissing(r.round))
        {
            NS_LOG_LOGIC(
                "round " << r.round << " chunk " << chunk << " position " << position << " given up"
                         << (state.early->IsOverdue(chunk) ? ", asked" : "")
                         << (state.early->ArePeersAsked(chunk) ? ", senders asked" : "")
                         << (state.early->IsFpgaRepairing(chunk) ? ", FPGA repairing" : ""));
        }
        m_ledger.GiveUp(r.round);
        NS_LOG_INFO("round " << r.round << ": " << m_ledger.GetAccount(r.round).counters.givenUp
                             << " contributions given up");
    }
    End(state);
}

void
WanIslandApplication::SendNacks()
{
    // NACKs count in the round of the last MERGED packet received.
    RoundState* state = FindRound(m_lastRound);
    // A gap is asked for again only once its resend had time to come: the
    // hop's round trip, queue included, as measured (NackDelay at least).
    const double interval = m_roundTrips.GetNackInterval(m_nackDelay.GetSeconds());
    const auto nacks = m_tracker.TakeNacksDue(Simulator::Now().GetSeconds(), interval);
    for (uint32_t seq : nacks)
    {
        m_roundTrips.Nacked(seq, Simulator::Now());
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::NACK);
        h.SetSequence(seq);
        auto p = Create<Packet>(0);
        p->AddHeader(h);
        m_socket->SendTo(p, 0, InetSocketAddress(m_fpga, m_dataPort));
    }
    if (m_tracker.HasGaps())
    {
        m_nackEvent = Later(m_nackDelay, &WanIslandApplication::SendNacks);
    }
    if (state != nullptr && !nacks.empty())
    {
        state->record.nacks += nacks.size();
        Changed(*state);
    }
}

} // namespace ns3
