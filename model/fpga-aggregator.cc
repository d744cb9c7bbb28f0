/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-aggregator.h"

#include "wan-edge-routing.h"
#include "wan-parity-code.h"
#include "wan-training-compat.h"
#include "wan-training-text.h"

#include "ns3/boolean.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/udp-header.h"
#include "ns3/udp-l4-protocol.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaAggregator");

namespace
{

/// Slack on an expiry check: absorbs the rounding of times to nanoseconds.
constexpr double kSlack = 0.5e-9;

/**
 * @param at an instant, seconds
 * @return the delay until it, rounded up to the simulator's nanosecond so
 *         that what expires then has expired (zero if it passed)
 */
Time
Until(double at)
{
    return std::max(Simulator::Now(), NanoSeconds(static_cast<int64_t>(std::ceil(at * 1e9)))) -
           Simulator::Now();
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(FpgaAggregator);

TypeId
FpgaAggregator::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FpgaAggregator")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddConstructor<FpgaAggregator>()
            .AddAttribute("DataPort",
                          "Port of DATA chunks (from the clique) and NACKs (from the island)",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&FpgaAggregator::m_port),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("Island",
                          "Address of the island this aggregator serves",
                          Ipv4AddressValue(),
                          MakeIpv4AddressAccessor(&FpgaAggregator::m_island),
                          MakeIpv4AddressChecker())
            .AddAttribute("IslandPort",
                          "The island's port for MERGED packets",
                          UintegerValue(9001),
                          MakeUintegerAccessor(&FpgaAggregator::m_islandPort),
                          MakeUintegerChecker<uint16_t>(1))
            .AddAttribute("HbmBytes",
                          "HBM for in-flight partial sums (0: only a line-rate window)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FpgaAggregator::m_hbmBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("SlotBytes",
                          "HBM bytes per slot (one chunk)",
                          UintegerValue(9000),
                          MakeUintegerAccessor(&FpgaAggregator::m_slotBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute(
                "SlotTimeout",
                "Lifetime of a slot in HBM before its partial sum is forwarded",
                TimeValue(Seconds(1)),
                MakeTimeAccessor(&FpgaAggregator::SetSlotTimeout, &FpgaAggregator::GetSlotTimeout),
                MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute(
                "LineRate",
                "Rate at which the line-rate window fills (HbmBytes = 0; the "
                "default is PlannerConfig::lineRateBps's, which "
                "CliqueExperimentHelper sets)",
                DataRateValue(DataRate(static_cast<uint64_t>(FpgaSlotTable::DEFAULT_LINE_RATE))),
                MakeDataRateAccessor(&FpgaAggregator::m_lineRate),
                MakeDataRateChecker())
            .AddAttribute("LineRateWindow",
                          "How long a chunk may wait on chip without HBM (the default is "
                          "PlannerConfig::lineRateWindow's, which CliqueExperimentHelper sets)",
                          TimeValue(Seconds(FpgaSlotTable::DEFAULT_LINE_RATE_WINDOW)),
                          MakeTimeAccessor(&FpgaAggregator::m_window),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RepairInNetwork",
                          "Ask a sender for its contribution to a chunk whose slot lacks it "
                          "once its contribution ReorderWindow chunks later arrived; the "
                          "repair is summed here (false: losses before the FPGA are left "
                          "to the island)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FpgaAggregator::m_repairInNetwork),
                          MakeBooleanChecker())
            .AddAttribute("ReorderWindow",
                          "Chunks by which a sender's later contribution must lead before "
                          "an earlier one it lacks is asked for",
                          UintegerValue(3),
                          MakeUintegerAccessor(&FpgaAggregator::m_reorderWindow),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("RepairTimeout",
                          "Wait for a sender's repair before its round trip is measured "
                          "(then: mean + 4 deviations of the measured ones); a slot whose "
                          "repair is late goes to the island as it is",
                          TimeValue(MilliSeconds(500)),
                          MakeTimeAccessor(&FpgaAggregator::m_repairTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ResendBufferPackets",
                          "MERGED packets kept for resending",
                          UintegerValue(4096),
                          MakeUintegerAccessor(&FpgaAggregator::m_resendCapacity),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DecodeBytes",
                          "HBM that holds copies of each sender's blocks to decode its parity "
                          "per stream before summing (taken from HbmBytes; 0: parity is "
                          "summed like data and only the island decodes)",
                          UintegerValue(0),
                          MakeUintegerAccessor(&FpgaAggregator::m_decodeBytes),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("ParityBlock",
                          "Data chunks per parity block of the islands' streams (with "
                          "DecodeBytes; WanIslandApplication's ParityBlock)",
                          UintegerValue(32),
                          MakeUintegerAccessor(&FpgaAggregator::m_parityBlock),
                          MakeUintegerChecker<uint32_t>(
                              static_cast<uint32_t>(wantext::bounds::kParityBlock.min),
                              static_cast<uint32_t>(wantext::bounds::kParityBlock.max)))
            .AddAttribute("ParityChunks",
                          "Parity chunks per block of the islands' streams (with DecodeBytes; "
                          "WanIslandApplication's ParityChunks)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&FpgaAggregator::m_parityChunks),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("DecodeTimeout",
                          "How long a stream block stays open for decoding after its last "
                          "chunk arrived (with DecodeBytes)",
                          TimeValue(MilliSeconds(500)),
                          MakeTimeAccessor(&FpgaAggregator::m_decodeTimeout),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ReportLoss",
                          "Tell each stream's sender, with a REPORT per block, how many of "
                          "the block's data chunks had arrived when its first parity did "
                          "(with DecodeBytes; the sender sizes its parity from it, "
                          "WanIslandApplication's ParitySizing)",
                          BooleanValue(false),
                          MakeBooleanAccessor(&FpgaAggregator::m_reportLoss),
                          MakeBooleanChecker())
            .AddTraceSource("StreamBlock",
                            "A stream block closed (with DecodeBytes): what its sender's "
                            "stream carried, lost and had rebuilt here",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_streamBlockTrace),
                            "ns3::FpgaAggregator::StreamBlockTracedCallback")
            .AddTraceSource("Eviction",
                            "A slot was forwarded: round, chunk, cause, contributions",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_evictionTrace),
                            "ns3::FpgaAggregator::EvictionTracedCallback")
            .AddTraceSource("Occupancy",
                            "Slots in use after a change",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_occupancyTrace),
                            "ns3::FpgaAggregator::OccupancyTracedCallback")
            .AddTraceSource("Forward",
                            "A MERGED packet was sent to the island",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_forwardTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Resend",
                            "A MERGED packet was sent again on a NACK",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_resendTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("Drop",
                            "A packet that could not be used, and why",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_dropTrace),
                            "ns3::FpgaAggregator::DropTracedCallback")
            .AddAttribute("InLine",
                          "On an edge node routed by WanEdgeRouting, take the inbound "
                          "multicast streams off the wire (the routing's in-line tap) rather "
                          "than through the node's IP and UDP stack to the socket: the same "
                          "packets at the same instants, without the local delivery and UDP "
                          "demultiplexing per packet (false: through the socket)",
                          BooleanValue(true),
                          MakeBooleanAccessor(&FpgaAggregator::m_inLine),
                          MakeBooleanChecker())
            .AddAttribute("HeartbeatInterval",
                          "Interval of the liveness heartbeat the FPGA gives its edge node "
                          "while it works (0: none); a watchdog that misses some declares it "
                          "failed (CliqueExperimentHelper with fault detection)",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&FpgaAggregator::m_heartbeatInterval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Heartbeat",
                            "The FPGA is alive (every HeartbeatInterval until it fails)",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_heartbeatTrace),
                            "ns3::TracedValueCallback::Void")
            .AddTraceSource("PeakOccupancy",
                            "The most slots ever in use at once",
                            MakeTraceSourceAccessor(&FpgaAggregator::m_peakOccupancy),
                            "ns3::TracedValueCallback::Uint64");
    return tid;
}

FpgaAggregator::FpgaAggregator()
{
    NS_LOG_FUNCTION(this);
}

FpgaAggregator::~FpgaAggregator()
{
    NS_LOG_FUNCTION(this);
}

const FpgaSlotTable*
FpgaAggregator::GetSlotTable() const
{
    return m_table.get();
}

uint64_t
FpgaAggregator::GetForwarded() const
{
    return m_forwarded;
}

uint64_t
FpgaAggregator::GetResent() const
{
    return m_resent;
}

uint64_t
FpgaAggregator::GetQueries() const
{
    return m_queries;
}

uint64_t
FpgaAggregator::GetRepairRequests() const
{
    return m_repairRequests;
}

uint64_t
FpgaAggregator::GetLossReports() const
{
    return m_lossReports;
}

uint64_t
FpgaAggregator::GetRepairsIn() const
{
    return m_repairsIn;
}

uint64_t
FpgaAggregator::GetUnanswerableNacks() const
{
    return m_unanswerable;
}

void
FpgaAggregator::DoDispose()
{
    NS_LOG_FUNCTION(this);
    DetachTap();
    m_socket = nullptr;
    m_resendBuffer.clear();
    m_decoder.reset();
    Application::DoDispose();
}

void
FpgaAggregator::StartApplication()
{
    NS_LOG_FUNCTION(this);
    uint64_t slots = 0;
    double lifetime = 0;
    if (m_decodeBytes > 0)
    {
        if (m_decodeBytes >= m_hbmBytes)
        {
            NS_FATAL_ERROR("FpgaAggregator: DecodeBytes (" << m_decodeBytes
                                                           << ") must leave HBM for the slots "
                                                              "(HbmBytes "
                                                           << m_hbmBytes << ")");
        }
        try
        {
            m_decoder = std::make_unique<FpgaStreamDecoder>(m_parityBlock,
                                                            m_parityChunks,
                                                            m_decodeBytes / m_slotBytes,
                                                            m_decodeTimeout.GetSeconds());
        }
        catch (const std::invalid_argument& e)
        {
            NS_FATAL_ERROR("FpgaAggregator: DecodeBytes set: " << e.what());
        }
        NS_LOG_INFO("per-stream decoding: " << m_decoder->GetCapacity() << " chunks");
    }
    if (m_hbmBytes > 0)
    {
        slots = std::max<uint64_t>(1, (m_hbmBytes - m_decodeBytes) / m_slotBytes);
        lifetime = m_timeout.GetSeconds();
    }
    else
    {
        slots = FpgaSlotTable::LineRateSlots(static_cast<double>(m_lineRate.GetBitRate()),
                                             m_window.GetSeconds(),
                                             m_slotBytes);
        lifetime = m_window.GetSeconds();
    }
    m_table = std::make_unique<FpgaSlotTable>(slots, lifetime);
    NS_LOG_INFO("slot table: " << slots << " slots, lifetime " << lifetime << " s");

    m_socket = Socket::CreateSocket(GetNode(), UdpSocketFactory::GetTypeId());
    if (m_socket->Bind(InetSocketAddress(Ipv4Address::GetAny(), m_port)) == -1)
    {
        NS_FATAL_ERROR("FpgaAggregator: cannot bind port " << m_port);
    }
    m_socket->SetRecvCallback(MakeCallback(&FpgaAggregator::HandleRead, this));
    AttachTap();
    if (m_heartbeatInterval.IsStrictlyPositive())
    {
        m_heartbeatEvent =
            Simulator::Schedule(m_heartbeatInterval, &FpgaAggregator::Heartbeat, this);
    }
}

void
FpgaAggregator::Heartbeat()
{
    m_heartbeatTrace();
    m_heartbeatEvent = Simulator::Schedule(m_heartbeatInterval, &FpgaAggregator::Heartbeat, this);
}

void
FpgaAggregator::SetSlotTimeout(Time timeout)
{
    m_timeout = timeout;
    if (m_table && m_hbmBytes > 0)
    {
        m_table->SetTimeout(timeout.GetSeconds());
    }
}

Time
FpgaAggregator::GetSlotTimeout() const
{
    return m_timeout;
}

void
FpgaAggregator::StopApplication()
{
    NS_LOG_FUNCTION(this);
    Simulator::Cancel(m_expiryEvent);
    Simulator::Cancel(m_heartbeatEvent);
    Simulator::Cancel(m_decodeEvent);
    DetachTap();
    if (m_decoder)
    {
        for (const auto& block : m_decoder->Flush())
        {
            m_streamBlockTrace(block);
        }
    }
    if (m_socket)
    {
        m_socket->Close();
        m_socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
    }
}

void
FpgaAggregator::AttachTap()
{
    auto ipv4 = GetNode()->GetObject<Ipv4>();
    m_edge = ipv4 ? DynamicCast<WanEdgeRouting>(ipv4->GetRoutingProtocol()) : nullptr;
    if (!m_inLine || !m_edge)
    {
        m_edge = nullptr;
        return;
    }
    m_edge->SetInlineTap(MakeCallback(&FpgaAggregator::TakeInbound, this));
    NS_LOG_INFO("in line: the inbound streams are taken off the edge node's wire");
}

void
FpgaAggregator::DetachTap()
{
    if (m_edge)
    {
        m_edge->SetInlineTap(WanEdgeRouting::InlineTap());
        m_edge = nullptr;
    }
}

bool
FpgaAggregator::TakeInbound(Ptr<const Packet> packet, const Ipv4Header& ip)
{
    // Whole UDP datagrams to DataPort only: a fragment is reassembled by the
    // node's stack, and with checksums on the stack verifies them.
    UdpHeader udp;
    if (ip.GetProtocol() != UdpL4Protocol::PROT_NUMBER || !ip.IsLastFragment() ||
        ip.GetFragmentOffset() != 0 || Node::ChecksumEnabled() ||
        packet->PeekHeader(udp) != udp.GetSerializedSize() || udp.GetDestinationPort() != m_port)
    {
        return false;
    }
    auto payload = packet->Copy();
    payload->RemoveHeader(udp);
    Receive(payload, InetSocketAddress(ip.GetSource(), udp.GetSourcePort()));
    return true;
}

void
FpgaAggregator::HandleRead(Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    Address from;
    while ((packet = socket->RecvFrom(from)))
    {
        Receive(packet, from);
    }
}

void
FpgaAggregator::Receive(Ptr<Packet> packet, const Address& from)
{
    WanChunkHeader header;
    if (m_failed)
    {
        Drop(packet, "failed");
    }
    else if (packet->PeekHeader(header) == 0)
    {
        Drop(packet, "malformed");
    }
    else if (header.GetKind() == WanChunkHeader::NACK)
    {
        Resend(header.GetSequence());
    }
    else if (header.GetKind() == WanChunkHeader::QUERY)
    {
        Answer(header);
    }
    else if (header.GetKind() == WanChunkHeader::REPAIR)
    {
        // A repair this FPGA asked for: summed like the chunk it replaces.
        auto it = m_repairs.find(
            {header.GetRound(), header.GetClique(), header.GetChunk(), header.GetPosition()});
        if (it == m_repairs.end())
        {
            // Not awaited (any more): the island recovers it end to end.
            Drop(packet, "unrequested repair");
            return;
        }
        m_repairRtt[from].Observe((Simulator::Now() - it->second).GetSeconds());
        m_repairs.erase(it);
        ++m_repairsIn;
        if (!Decode(packet, header, false, from))
        {
            return; // rebuilt here meanwhile
        }
        const FpgaChunkId id{header.GetRound(), header.GetClique(), header.GetChunk()};
        NS_LOG_LOGIC("repair of chunk " << header.GetChunk() << " of round " << header.GetRound()
                                        << " from position " << header.GetPosition());
        Aggregate(packet, header);
        ReleaseLate(id);
    }
    else if (header.GetKind() != WanChunkHeader::DATA)
    {
        Drop(packet, "unexpected kind");
    }
    else if (InetSocketAddress::IsMatchingType(from) &&
             InetSocketAddress::ConvertFrom(from).GetIpv4() == m_island)
    {
        // The island's own outbound stream passes through this edge node
        // on its way into the tree (and is delivered locally): it is not
        // an input.
        NS_LOG_LOGIC("the island's own chunk, not summed");
    }
    else if (Decode(packet, header, true, from))
    {
        Aggregate(packet, header);
        if (m_repairInNetwork && m_hbmBytes > 0)
        {
            Watch(header, from);
        }
    }
}

void
FpgaAggregator::Watch(const WanChunkHeader& header, const Address& from)
{
    if (WanParityCode::IsParity(header.GetChunk()))
    {
        return; // parity is summed, not repaired: the stream's order is its data's
    }
    auto& next = m_streams[{header.GetRound(), header.GetClique(), header.GetPosition()}];
    const uint32_t chunk = header.GetChunk();
    for (; next + m_reorderWindow <= chunk; ++next)
    {
        const FpgaChunkId id{header.GetRound(), header.GetClique(), next};
        if (m_table->Lacks(id, header.GetPosition()))
        {
            RequestRepair(id, header.GetPosition(), from);
        }
    }
}

void
FpgaAggregator::RequestRepair(const FpgaChunkId& id, uint32_t position, const Address& to)
{
    if (!m_repairs
             .emplace(std::make_tuple(id.round, id.clique, id.chunk, position), Simulator::Now())
             .second)
    {
        return;
    }
    auto rtt = m_repairRtt.find(to);
    const Time wait = rtt == m_repairRtt.end() ? m_repairTimeout : Seconds(rtt->second.GetBound());
    m_table->Extend(id, (Simulator::Now() + wait).GetSeconds());
    ScheduleExpiry();
    WanChunkHeader h;
    h.SetKind(WanChunkHeader::REQUEST);
    h.SetRound(id.round);
    h.SetClique(static_cast<uint16_t>(id.clique));
    h.SetChunk(id.chunk);
    h.SetPosition(static_cast<uint16_t>(position));
    auto packet = Create<Packet>(0);
    packet->AddHeader(h);
    ++m_repairRequests;
    NS_LOG_LOGIC("chunk " << id.chunk << " of round " << id.round << " lacks position " << position
                          << ": asked for, due in " << wait.As(Time::MS));
    m_socket->SendTo(packet, 0, to);
    Simulator::Schedule(wait, &FpgaAggregator::RepairDue, this, id, position);
}

void
FpgaAggregator::RepairDue(const FpgaChunkId& id, uint32_t position)
{
    if (m_repairs.erase({id.round, id.clique, id.chunk, position}) == 0 || m_failed)
    {
        return; // it came
    }
    m_late.insert({id.round, id.clique, id.chunk});
    ReleaseLate(id);
}

void
FpgaAggregator::ReleaseLate(const FpgaChunkId& id)
{
    // Once no repair of it is awaited, a chunk one of whose repairs was late
    // goes to the island as it is (nothing, if its slot left already).
    if (!Repairing(id) && m_late.erase({id.round, id.clique, id.chunk}) > 0)
    {
        Forward(m_table->Release(id));
    }
}

bool
FpgaAggregator::Repairing(const FpgaChunkId& id) const
{
    auto it = m_repairs.lower_bound({id.round, id.clique, id.chunk, 0});
    return it != m_repairs.end() && std::get<0>(it->first) == id.round &&
           std::get<1>(it->first) == id.clique && std::get<2>(it->first) == id.chunk;
}

void
FpgaAggregator::Aggregate(Ptr<const Packet> packet, const WanChunkHeader& header)
{
    if (const char* why = Unusable(header))
    {
        Drop(packet, why);
        return;
    }
    Sum(FpgaChunkId{header.GetRound(), header.GetClique(), header.GetChunk()},
        header.GetFixedValue(),
        packet->GetSize() - header.GetSerializedSize(),
        header.GetExpected(),
        header.GetPosition(),
        header.GetUpper());
}

const char*
FpgaAggregator::Unusable(const WanChunkHeader& header)
{
    if (header.GetExpected() == 0)
    {
        return "no contributions expected";
    }
    // The clique has expected + 1 members, at positions 0 to expected.
    if (header.GetPosition() > header.GetExpected())
    {
        return "bad sources";
    }
    return nullptr;
}

void
FpgaAggregator::Sum(const FpgaChunkId& id,
                    int64_t value,
                    uint32_t bytes,
                    uint32_t expected,
                    uint32_t position,
                    const WanGaloisRing::Upper& upper)
{
    auto out = m_table->Add(id,
                            value,
                            bytes,
                            expected,
                            Simulator::Now().GetSeconds(),
                            WanSourceSet::Of(position),
                            upper);
    m_peakOccupancy = m_table->GetPeakOccupancy();
    m_occupancyTrace(m_table->GetOccupancy());
    Forward(out);
    ScheduleExpiry();
}

bool
FpgaAggregator::Decode(Ptr<const Packet> packet,
                       const WanChunkHeader& header,
                       bool firstHand,
                       const Address& from)
{
    if (!m_decoder || Unusable(header) != nullptr)
    {
        return true; // not decoded here (Aggregate refuses what is malformed)
    }
    const FpgaChunkId id{header.GetRound(), header.GetClique(), header.GetChunk()};
    const double now = Simulator::Now().GetSeconds();
    std::vector<FpgaStreamDecoder::Rebuilt> rebuilt;
    if (WanParityCode::IsParity(id.chunk))
    {
        if (!header.HasSymbol())
        {
            return true;
        }
        rebuilt = m_decoder->AddParity(id,
                                       header.GetPosition(),
                                       header.GetBlockLength(),
                                       header.GetSymbol(),
                                       now,
                                       header.GetBlockRows());
        ReportLosses(from);
    }
    else
    {
        auto added =
            m_decoder->AddData(id, header.GetPosition(), header.GetFixedValue(), firstHand, now);
        if (added.repeat)
        {
            Drop(packet, "repeated contribution");
            return false;
        }
        rebuilt = std::move(added.rebuilt);
    }
    const uint32_t bytes = packet->GetSize() - header.GetSerializedSize();
    for (const auto& r : rebuilt)
    {
        NS_LOG_LOGIC("chunk " << r.id.chunk << " of round " << r.id.round << " of position "
                              << r.position << " rebuilt from its stream's parity");
        // A repair asked for it is no longer awaited (one arriving is dropped).
        m_repairs.erase({r.id.round, r.id.clique, r.id.chunk, r.position});
        Sum(r.id, r.value, bytes, header.GetExpected(), r.position);
        ReleaseLate(r.id);
    }
    if (!wancompat::IsPending(m_decodeEvent))
    {
        m_decodeEvent = Simulator::Schedule(Until(m_decoder->GetNextExpiry()),
                                            &FpgaAggregator::ExpireStreams,
                                            this);
    }
    return true;
}

void
FpgaAggregator::ReportLosses(const Address& to)
{
    for (const auto& loss : m_decoder->TakeLosses())
    {
        if (!m_reportLoss)
        {
            continue;
        }
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::REPORT);
        h.SetRound(loss.round);
        h.SetClique(static_cast<uint16_t>(loss.clique));
        h.SetPosition(static_cast<uint16_t>(loss.position));
        h.SetChunk(loss.block);
        h.SetExpected(static_cast<uint16_t>(loss.chunks));
        h.SetContributions(static_cast<uint16_t>(loss.arrived));
        auto packet = Create<Packet>(0);
        packet->AddHeader(h);
        NS_LOG_LOGIC("block " << loss.block << " of round " << loss.round << " from position "
                              << loss.position << ": " << loss.arrived << " of " << loss.chunks
                              << " data chunks came, reported");
        ++m_lossReports;
        m_socket->SendTo(packet, 0, to);
    }
}

void
FpgaAggregator::ExpireStreams()
{
    for (const auto& block : m_decoder->Expire(Simulator::Now().GetSeconds() + kSlack))
    {
        m_streamBlockTrace(block);
    }
    const double next = m_decoder->GetNextExpiry();
    if (std::isfinite(next))
    {
        m_decodeEvent = Simulator::Schedule(Until(next), &FpgaAggregator::ExpireStreams, this);
    }
}

const FpgaStreamDecoder*
FpgaAggregator::GetStreamDecoder() const
{
    return m_decoder.get();
}

void
FpgaAggregator::Drop(Ptr<const Packet> packet, const std::string& reason)
{
    NS_LOG_INFO("dropped a packet: " << reason);
    m_dropTrace(packet, reason);
}

void
FpgaAggregator::Forward(const std::vector<FpgaPartialSum>& sums)
{
    for (const auto& s : sums)
    {
        m_evictionTrace(s.id.round, s.id.chunk, FpgaEvictionName(s.cause), s.contributions);
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::MERGED);
        h.SetRound(s.id.round);
        h.SetClique(static_cast<uint16_t>(s.id.clique));
        h.SetChunk(s.id.chunk);
        h.SetSequence(m_nextSequence++);
        h.SetContributions(static_cast<uint16_t>(s.contributions));
        h.SetExpected(static_cast<uint16_t>(s.expected));
        // The senders, up to the highest position held.
        h.SetSourceSet(s.sources);
        h.SetFixedValue(s.sum);
        if (WanParityCode::IsParity(s.id.chunk))
        {
            h.SetSymbol(WanGaloisRing::Join(static_cast<uint64_t>(s.sum), s.upper));
        }
        auto packet = Create<Packet>(s.bytes);
        packet->AddHeader(h);
        // Kept as what rebuilds the same bytes: a copy of the packet would
        // share its buffer, which the stack's headers then copy.
        m_resendBuffer.push_back({h, s.bytes});
        if (m_resendBuffer.size() > m_resendCapacity)
        {
            m_resendBuffer.pop_front();
            ++m_firstBuffered;
        }
        m_forwardTrace(packet);
        ++m_forwarded;
        m_socket->SendTo(packet, 0, InetSocketAddress(m_island, m_islandPort));
    }
    if (!sums.empty())
    {
        m_occupancyTrace(m_table->GetOccupancy());
    }
}

void
FpgaAggregator::Resend(uint32_t sequence)
{
    if (sequence < m_firstBuffered || sequence >= m_firstBuffered + m_resendBuffer.size())
    {
        NS_LOG_WARN("NACK for " << sequence << " outside the resend buffer");
        ++m_unanswerable;
        return;
    }
    const auto& sent = m_resendBuffer[sequence - m_firstBuffered];
    auto packet = Create<Packet>(sent.bytes);
    packet->AddHeader(sent.header);
    m_resendTrace(packet);
    ++m_resent;
    m_socket->SendTo(packet, 0, InetSocketAddress(m_island, m_islandPort));
}

void
FpgaAggregator::Answer(const WanChunkHeader& query)
{
    // The island lacks a chunk: release what a slot holds of it, then answer
    // with the number of MERGED packets sent so far.  The answer follows them
    // on the FIFO hop, so the island knows that any it has not seen by then
    // is lost (and asks for it by NACK), however long the queue.
    FpgaChunkId id{query.GetRound(), query.GetClique(), query.GetChunk()};
    ++m_queries;
    const bool repairing = Repairing(id);
    if (!repairing)
    {
        auto released = m_table->Release(id);
        NS_LOG_LOGIC("query: chunk " << id.chunk << " of round " << id.round
                                     << (released.empty() ? " not held" : " released"));
        Forward(released);
    }
    // The answer's contributions field says whether a repair is under way.
    WanChunkHeader answer = query;
    answer.SetContributions(repairing ? 1 : 0);
    answer.SetSequence(m_nextSequence);
    auto packet = Create<Packet>(0);
    packet->AddHeader(answer);
    m_socket->SendTo(packet, 0, InetSocketAddress(m_island, m_islandPort));
}

void
FpgaAggregator::ScheduleExpiry()
{
    double next = m_table->GetNextExpiry();
    if (!std::isfinite(next))
    {
        return;
    }
    Time at = Simulator::Now() + Until(next);
    if (!m_expiryEvent.IsExpired() && m_expiryAt <= at)
    {
        return;
    }
    Simulator::Cancel(m_expiryEvent);
    m_expiryAt = at;
    m_expiryEvent = Simulator::Schedule(at - Simulator::Now(), &FpgaAggregator::Expire, this);
}

void
FpgaAggregator::Expire()
{
    Forward(m_table->Expire(Simulator::Now().GetSeconds() + kSlack));
    ScheduleExpiry();
}

void
FpgaAggregator::Fail()
{
    NS_LOG_FUNCTION(this);
    NS_LOG_INFO("FPGA fails with " << m_table->GetOccupancy() << " slots in use");
    m_failed = true;
    Simulator::Cancel(m_expiryEvent);
    Simulator::Cancel(m_heartbeatEvent); // a dead FPGA says nothing
}

bool
FpgaAggregator::IsFailed() const
{
    return m_failed;
}

} // namespace ns3
