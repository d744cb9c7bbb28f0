/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-round-recorder.h"

#include "wan-mpi-helper.h"

#include "ns3/fpga-slot-table.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/wan-contribution.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace ns3
{

namespace
{

/// Connects a trace source or says which one could not be.
void
Connect(Ptr<Object> object, const std::string& source, const CallbackBase& sink)
{
    if (!object->TraceConnectWithoutContext(source, sink))
    {
        throw std::invalid_argument("the recorder cannot connect to trace source " + source);
    }
}

/**
 * @param j a saved number
 * @return it as a T; throws std::invalid_argument unless it is a whole
 *         number in T's range (nlohmann-json would wrap a negative one or
 *         convert a fraction)
 */
template <typename T>
T
Whole(const nlohmann::json& j)
{
    using Limits = std::numeric_limits<T>;
    const bool fits =
        j.is_number_unsigned()
            ? j.get<uint64_t>() <= static_cast<uint64_t>(Limits::max())
            : j.is_number_integer() && j.get<int64_t>() >= static_cast<int64_t>(Limits::min());
    if (!fits)
    {
        throw std::invalid_argument("not a saved round recorder: " + wantext::Printable(j.dump()) +
                                    " is not a whole number from " + std::to_string(Limits::min()) +
                                    " to " + std::to_string(Limits::max()));
    }
    return j.get<T>();
}

/**
 * @param j a saved array of numbers
 * @return them as a container of whole numbers (Whole)
 */
template <typename C>
C
Wholes(const nlohmann::json& j)
{
    if (!j.is_array())
    {
        throw std::invalid_argument("not a saved round recorder: " + wantext::Printable(j.dump()) +
                                    " is not an array");
    }
    C c;
    for (const auto& e : j)
    {
        c.insert(c.end(), Whole<typename C::value_type>(e));
    }
    return c;
}

} // namespace

void
WanRoundRecorder::WatchIsland(Ptr<WanIslandApplication> island)
{
    if (!island)
    {
        throw std::invalid_argument("the recorder was given no island application");
    }
    Connect(island, "RoundEnd", MakeCallback(&WanRoundRecorder::RecordRound, this));
    Connect(island, "Drop", MakeCallback(&WanRoundRecorder::RecordDrop, this));
}

void
WanRoundRecorder::WatchIslands(const ApplicationContainer& apps)
{
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        if (auto island = DynamicCast<WanIslandApplication>(apps.Get(i)))
        {
            WatchIsland(island);
        }
    }
}

void
WanRoundRecorder::WatchFpga(Ptr<FpgaAggregator> fpga, uint32_t city)
{
    if (!fpga)
    {
        throw std::invalid_argument("the recorder was given no FPGA aggregator");
    }
    for (auto cause : {FpgaEviction::COMPLETION,
                       FpgaEviction::TIMEOUT,
                       FpgaEviction::CONFLICT,
                       FpgaEviction::FLUSH,
                       FpgaEviction::REQUEST})
    {
        m_evictions.emplace(FpgaEvictionName(cause), 0);
    }
    Connect(fpga, "Eviction", MakeCallback(&WanRoundRecorder::RecordEviction, this));
    Connect(fpga, "PeakOccupancy", MakeCallback(&WanRoundRecorder::RecordPeak, this));
    Connect(fpga, "Drop", MakeCallback(&WanRoundRecorder::RecordDrop, this));
    Connect(fpga,
            "StreamBlock",
            MakeBoundCallback(&WanRoundRecorder::RecordStreamBlock, this, city));
}

void
WanRoundRecorder::WatchFpgas(const ApplicationContainer& apps)
{
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        if (auto fpga = DynamicCast<FpgaAggregator>(apps.Get(i)))
        {
            WatchFpga(fpga, i);
            UintegerValue slotBytes;
            fpga->GetAttribute("SlotBytes", slotBytes);
            m_slotBytes = slotBytes.Get();
        }
    }
}

void
WanRoundRecorder::CollectFpgas(double scale, WanExperimentResult& result) const
{
    result.evictions = m_evictions;
    result.peakSlots = m_peakSlots;
    result.peakHbmBytes = static_cast<double>(m_peakSlots) * m_slotBytes * scale;
}

void
WanRoundRecorder::RecordRound(const WanIslandRecord& record)
{
    m_records[{record.round, record.sender}] = record;
    // The first report: the island ends the round and averages what it holds.
    m_mixedAt.emplace(std::make_pair(record.round, record.sender),
                      record.completion.IsZero() ? Simulator::Now() : record.completion);
}

std::string
WanRoundRecorder::Save() const
{
    using nlohmann::json;
    json records = json::array();
    for (const auto& [key, r] : m_records)
    {
        json counters = json::object();
        for (const auto& [name, field] : WanRoundCounters::Fields())
        {
            counters[name] = r.*field;
        }
        const auto histogram = [](const WanHeldHistogram& h) {
            json groups = json::array();
            for (const auto& [chunks, held] : h)
            {
                groups.push_back({chunks, held});
            }
            return groups;
        };
        records.push_back({{"counters", counters},
                           {"round", r.round},
                           {"clique", r.clique},
                           {"sender", r.sender},
                           {"peers", r.peers},
                           {"value", r.value},
                           {"chunks", r.chunks},
                           {"start", r.start.GetTimeStep()},
                           {"completion", r.completion.GetTimeStep()},
                           {"sum", r.sum},
                           {"late", r.lateChunks},
                           {"requested", r.requestedChunks},
                           {"given_up", r.givenUpChunks},
                           {"held", r.heldPerPosition},
                           {"averaged", histogram(r.averaged)},
                           {"received", histogram(r.received)},
                           {"mixed_at", m_mixedAt.at(key).GetTimeStep()}});
    }
    json round = json::array();
    for (const auto& [k, causes] : m_roundEvictions)
    {
        round.push_back({k, causes});
    }
    json streams = json::array();
    for (const auto& [key, t] : m_streams)
    {
        json counts = json::object();
        for (const auto& [name, field] : FpgaStreamDecoder::Totals::Fields())
        {
            counts[name] = t.*field;
        }
        streams.push_back({key.first, key.second, counts});
    }
    return json{{"records", records},
                {"streams", streams},
                {"evictions", m_evictions},
                {"round_evictions", round},
                {"drops", m_drops},
                {"peak_slots", m_peakSlots}}
        .dump();
}

void
WanRoundRecorder::Merge(const std::string& saved)
{
    using nlohmann::json;
    try
    {
        const auto in = json::parse(saved);
        for (const auto& j : in.at("records"))
        {
            WanIslandRecord r;
            for (const auto& [name, field] : WanRoundCounters::Fields())
            {
                r.*field = Whole<uint64_t>(j.at("counters").at(name));
            }
            r.round = Whole<uint32_t>(j.at("round"));
            r.clique = Whole<uint16_t>(j.at("clique"));
            r.sender = Whole<uint16_t>(j.at("sender"));
            r.peers = Whole<uint16_t>(j.at("peers"));
            r.value = j.at("value");
            r.chunks = Whole<uint32_t>(j.at("chunks"));
            r.start = TimeStep(Whole<int64_t>(j.at("start")));
            r.completion = TimeStep(Whole<int64_t>(j.at("completion")));
            r.sum = j.at("sum");
            r.lateChunks = Wholes<std::set<uint32_t>>(j.at("late"));
            r.requestedChunks = Wholes<std::set<uint32_t>>(j.at("requested"));
            r.givenUpChunks = Wholes<std::set<uint32_t>>(j.at("given_up"));
            r.heldPerPosition = Wholes<std::vector<uint32_t>>(j.at("held"));
            for (const auto& a : j.at("averaged"))
            {
                r.averaged[Whole<uint32_t>(a.at(0))] = Wholes<std::vector<uint32_t>>(a.at(1));
            }
            for (const auto& a : j.at("received"))
            {
                r.received[Whole<uint32_t>(a.at(0))] = Wholes<std::vector<uint32_t>>(a.at(1));
            }
            const std::pair<uint32_t, uint32_t> key{r.round, r.sender};
            m_records[key] = r;
            m_mixedAt[key] = TimeStep(Whole<int64_t>(j.at("mixed_at")));
        }
        for (const auto& [cause, n] : in.at("evictions").items())
        {
            m_evictions[cause] += Whole<uint64_t>(n);
        }
        for (const auto& entry : in.at("round_evictions"))
        {
            for (const auto& [cause, n] : entry.at(1).items())
            {
                m_roundEvictions[Whole<uint32_t>(entry.at(0))][cause] += Whole<uint64_t>(n);
            }
        }
        // Per-stream decoding (absent: none recorded).
        for (const auto& s : in.value("streams", json::array()))
        {
            auto& t = m_streams[{Whole<uint32_t>(s.at(0)), Whole<uint32_t>(s.at(1))}];
            for (const auto& [name, field] : FpgaStreamDecoder::Totals::Fields())
            {
                t.*field += Whole<uint64_t>(s.at(2).at(name));
            }
        }
        for (const auto& [reason, n] : in.at("drops").items())
        {
            m_drops[reason] += Whole<uint64_t>(n);
        }
        m_peakSlots = std::max(m_peakSlots, Whole<uint64_t>(in.at("peak_slots")));
    }
    catch (const json::exception& e)
    {
        throw std::invalid_argument("not a saved round recorder: " +
                                    wantext::Printable(e.what(), 200));
    }
}

void
WanRoundRecorder::RecordEviction(uint32_t round, uint32_t, const std::string& cause, uint32_t)
{
    ++m_evictions[cause];
    ++m_roundEvictions[round][cause];
}

void
WanRoundRecorder::RecordStreamBlock(WanRoundRecorder* recorder,
                                    uint32_t city,
                                    const FpgaStreamDecoder::Block& block)
{
    recorder->m_streams[{block.round, city}] += block;
}

void
WanRoundRecorder::RecordPeak(uint64_t, uint64_t peak)
{
    m_peakSlots = std::max(m_peakSlots, peak);
}

void
WanRoundRecorder::RecordDrop(Ptr<const Packet>, const std::string& reason)
{
    ++m_drops[reason];
}

const WanIslandRecord*
WanRoundRecorder::Find(uint32_t round, uint32_t city) const
{
    auto it = m_records.find({round, city});
    return it == m_records.end() ? nullptr : &it->second;
}

Time
WanRoundRecorder::GetMixedAt(uint32_t round, uint32_t city) const
{
    auto it = m_mixedAt.find({round, city});
    return it == m_mixedAt.end() ? Time(0) : it->second;
}

bool
WanRoundRecorder::IsExact(uint32_t round, uint32_t city) const
{
    const WanIslandRecord* record = Find(round, city);
    if (record == nullptr)
    {
        return false;
    }
    std::vector<double> peerValues;
    for (auto it = m_records.lower_bound({round, 0});
         it != m_records.end() && it->first.first == round;
         ++it)
    {
        if (it->first.second != city && it->second.clique == record->clique)
        {
            peerValues.push_back(it->second.value);
        }
    }
    return peerValues.size() == record->peers && record->delivered == record->expected &&
           WanContribution::IsExact(record->sum, record->delivered, peerValues, record->chunks);
}

WanRoundCounters
WanRoundRecorder::GetTotal(uint32_t round) const
{
    WanRoundCounters total;
    for (auto it = m_records.lower_bound({round, 0});
         it != m_records.end() && it->first.first == round;
         ++it)
    {
        total += it->second;
    }
    return total;
}

const std::map<std::string, uint64_t>&
WanRoundRecorder::GetEvictions() const
{
    return m_evictions;
}

std::map<std::string, uint64_t>
WanRoundRecorder::GetEvictions(uint32_t round) const
{
    auto counts = m_evictions; // every cause, at zero
    for (auto& [cause, n] : counts)
    {
        n = 0;
    }
    auto it = m_roundEvictions.find(round);
    if (it != m_roundEvictions.end())
    {
        for (const auto& [cause, n] : it->second)
        {
            counts[cause] = n;
        }
    }
    return counts;
}

uint64_t
WanRoundRecorder::GetPeakSlots() const
{
    return m_peakSlots;
}

const std::map<std::string, uint64_t>&
WanRoundRecorder::GetDrops() const
{
    return m_drops;
}

void
WanRoundRecorder::GatherToRoot()
{
    WanMpiHelper::MergeAtRoot(Save(), [this](const std::string& s) { Merge(s); });
}

WanIslandRoundResult
WanRoundRecorder::GetIslandResult(uint32_t round, uint32_t city, double scale) const
{
    WanIslandRoundResult ir;
    ir.city = city;
    ir.completionMs = -1;
    const WanIslandRecord* rec = Find(round, city);
    if (rec == nullptr)
    {
        return ir;
    }
    static_cast<WanRoundCounters&>(ir) = *rec;
    ir.bytesIn = static_cast<uint64_t>(std::llround(rec->bytesIn * scale));
    ir.bytesOut = static_cast<uint64_t>(std::llround(rec->bytesOut * scale));
    if (!rec->completion.IsZero())
    {
        ir.completionMs = (rec->completion - rec->start).GetSeconds() * 1e3;
    }
    ir.exact = IsExact(round, city);
    ir.lateChunks = rec->lateChunks;
    ir.requestedChunks = rec->requestedChunks;
    ir.givenUpChunks = rec->givenUpChunks;
    auto stream = m_streams.find({round, city});
    if (stream != m_streams.end())
    {
        ir.stream = stream->second;
    }
    return ir;
}

void
WanRoundRecorder::MeasureIsland(uint32_t round,
                                const std::vector<uint32_t>& members,
                                WanMeasuredMixing& mixing,
                                WanMeasuredMixing& received,
                                WanIslandRoundResult& ir) const
{
    ir.mixedMs = -1;
    const WanIslandRecord* rec = Find(round, ir.city);
    if (rec == nullptr)
    {
        return; // it never ended the round: it keeps its state
    }
    const auto position =
        static_cast<uint32_t>(std::find(members.begin(), members.end(), ir.city) - members.begin());
    mixing.SetRow(round, members, position, rec->averaged);
    received.SetRow(round, members, position, rec->received);
    const auto& row = mixing.GetMatrix(round)[ir.city];
    const auto& receivedRow = received.GetMatrix(round)[ir.city];
    for (size_t p = 0; p < members.size(); ++p)
    {
        ir.held[members[p]] = rec->heldPerPosition.at(p);
        ir.mixing[members[p]] = row[members[p]];
        ir.mixingReceived[members[p]] = receivedRow[members[p]];
    }
    ir.mixedMs = (GetMixedAt(round, ir.city) - rec->start).GetSeconds() * 1e3;
}

void
WanRoundRecorder::MeasureMixing(const WanExperimentPlan& plan,
                                uint32_t nIslands,
                                WanExperimentResult& result) const
{
    WanMeasuredMixing mixing(nIslands, static_cast<uint32_t>(plan.rounds.size()));
    WanMeasuredMixing received(nIslands, static_cast<uint32_t>(plan.rounds.size()));
    for (uint32_t k = 0; k < plan.rounds.size(); ++k)
    {
        auto& rr = result.rounds.at(k);
        for (auto& ir : rr.islands) // the members of cliques of two or more
        {
            for (const auto& cp : plan.rounds[k].plan.cliques)
            {
                if (std::count(cp.members.begin(), cp.members.end(), ir.city) > 0)
                {
                    MeasureIsland(k, cp.members, mixing, received, ir);
                }
            }
            rr.mixedMs = ir.mixedMs < 0 ? std::numeric_limits<double>::infinity()
                                        : std::max(rr.mixedMs, ir.mixedMs);
        }
        rr.mixing = mixing.GetMatrix(k);
        rr.mixingReceived = received.GetMatrix(k);
        result.mixedMs = std::max(result.mixedMs, rr.mixedMs);
    }
    const auto analysis = mixing.Analyse();
    result.disagreementMeasured = analysis.GetAverageDisagreement();
    result.consensusSkew = analysis.GetConsensusSkew();
    result.objective = result.plannedMs * result.disagreement;
    result.objectiveMeasured = result.mixedMs * result.disagreementMeasured;
}

} // namespace ns3
