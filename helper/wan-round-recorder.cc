/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-round-recorder.h"

#include "ns3/fpga-slot-table.h"
#include "ns3/simulator.h"
#include "ns3/wan-contribution.h"

#include <algorithm>
#include <stdexcept>
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
WanRoundRecorder::WatchFpga(Ptr<FpgaAggregator> fpga)
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
}

void
WanRoundRecorder::WatchFpgas(const ApplicationContainer& apps)
{
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        if (auto fpga = DynamicCast<FpgaAggregator>(apps.Get(i)))
        {
            WatchFpga(fpga);
        }
    }
}

void
WanRoundRecorder::RecordRound(const WanIslandRecord& record)
{
    m_records[{record.round, record.sender}] = record;
    // The first report: the island ends the round and averages what it holds.
    m_mixedAt.emplace(std::make_pair(record.round, record.sender),
                      record.completion.IsZero() ? Simulator::Now() : record.completion);
}

void
WanRoundRecorder::RecordEviction(uint32_t round, uint32_t, const std::string& cause, uint32_t)
{
    ++m_evictions[cause];
    ++m_roundEvictions[round][cause];
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

} // namespace ns3
