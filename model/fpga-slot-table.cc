/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-slot-table.h"

#include "wan-contribution.h"
#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FpgaSlotTable");

namespace
{

/// SplitMix64 finaliser: a fast, well-mixed 64-bit hash.
uint64_t
Mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

} // namespace

std::string
FpgaEvictionName(FpgaEviction cause)
{
    switch (cause)
    {
    case FpgaEviction::COMPLETION:
        return "completion";
    case FpgaEviction::TIMEOUT:
        return "timeout";
    case FpgaEviction::CONFLICT:
        return "conflict";
    case FpgaEviction::FLUSH:
        return "flush";
    case FpgaEviction::REQUEST:
        return "request";
    }
    return "unknown";
}

size_t
FpgaSlotTable::IdHash::operator()(const FpgaChunkId& id) const
{
    return Mix(Mix(Mix(id.round) ^ id.clique) ^ id.chunk);
}

FpgaSlotTable::FpgaSlotTable(uint64_t nSlots, double timeoutSeconds, uint32_t memory)
    : m_nSlots(nSlots),
      m_timeout(timeoutSeconds),
      m_memory(memory)
{
    if (nSlots == 0)
    {
        throw std::invalid_argument("FPGA slot table needs at least one slot");
    }
    wantext::RequirePositive(timeoutSeconds, "FPGA slot timeout", "s");
}

uint64_t
FpgaSlotTable::LineRateSlots(double lineRateBps, double windowSeconds, double slotBytes)
{
    const double windowBytes = lineRateBps * windowSeconds / 8;
    return std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(windowBytes / slotBytes)));
}

uint64_t
FpgaSlotTable::SlotOf(const FpgaChunkId& id) const
{
    // The stream's base slot, from its round and clique; its chunks take the
    // slots after it in turn, so chunks fewer than N apart never share one.
    const uint64_t base = Mix(Mix(id.round) ^ id.clique) % m_nSlots;
    return (base + id.chunk % m_nSlots) % m_nSlots;
}

FpgaPartialSum
FpgaSlotTable::Evict(uint64_t index, FpgaEviction cause)
{
    auto it = m_slots.find(index);
    Slot& s = it->second;
    FpgaPartialSum out{s.id,
                       s.sum,
                       s.contributions,
                       s.expected,
                       s.bytes,
                       cause,
                       std::move(s.sources),
                       s.upper};
    m_slots.erase(it);
    ++m_evictions[static_cast<int>(cause)];
    if (cause == FpgaEviction::COMPLETION)
    {
        m_early.erase(out.id);
    }
    else if (m_memory > 0)
    {
        auto [early, added] = m_early.emplace(out.id, Early{});
        early->second.count += out.contributions;
        early->second.sources |= out.sources;
        if (added)
        {
            m_earlyOrder.push_back(out.id);
            if (m_earlyOrder.size() > m_memory)
            {
                m_early.erase(m_earlyOrder.front());
                m_earlyOrder.pop_front();
            }
        }
    }
    NS_LOG_LOGIC("evict slot " << index << " (" << FpgaEvictionName(cause) << "): chunk "
                               << out.id.chunk << " with " << out.contributions
                               << " contributions");
    return out;
}

std::vector<FpgaPartialSum>
FpgaSlotTable::Add(const FpgaChunkId& id,
                   int64_t value,
                   uint32_t bytes,
                   uint32_t expected,
                   double now,
                   const WanSourceSet& sources,
                   const WanGaloisRing::Upper& upper)
{
    if (expected == 0)
    {
        throw std::invalid_argument("a chunk must expect at least one contribution");
    }
    std::vector<FpgaPartialSum> out;
    const uint64_t index = SlotOf(id);
    auto it = m_slots.find(index);
    if (it != m_slots.end() && it->second.id != id)
    {
        out.push_back(Evict(index, FpgaEviction::CONFLICT));
        it = m_slots.end();
    }
    if (it == m_slots.end())
    {
        Slot s;
        s.id = id;
        s.expected = expected;
        auto early = m_early.find(id);
        if (early != m_early.end())
        {
            // The rest of a chunk that already left in part.
            s.expected = expected > early->second.count ? expected - early->second.count : 1;
        }
        s.expiry = now + m_timeout;
        s.generation = m_nextGeneration++;
        it = m_slots.emplace(index, s).first;
        m_expiries.emplace(s.expiry, index, s.generation);
        m_peak = std::max<uint64_t>(m_peak, m_slots.size());
    }
    Slot& s = it->second;
    s.sum = WanContribution::Add(s.sum, value);
    for (size_t w = 0; w < upper.size(); ++w)
    {
        s.upper[w] += upper[w]; // unsigned: wraps around, as the FPGA's adders do
    }
    ++s.contributions;
    s.sources |= sources;
    s.bytes = std::max(s.bytes, bytes);
    if (s.contributions >= s.expected)
    {
        out.push_back(Evict(index, FpgaEviction::COMPLETION));
    }
    return out;
}

std::vector<FpgaPartialSum>
FpgaSlotTable::Expire(double now)
{
    std::vector<FpgaPartialSum> out;
    while (!m_expiries.empty() && std::get<0>(m_expiries.top()) <= now)
    {
        auto [expiry, index, generation] = m_expiries.top();
        m_expiries.pop();
        auto it = m_slots.find(index);
        // Entries left behind by a refill (another generation) or by an
        // extension (a later expiry) are stale.
        if (it != m_slots.end() && it->second.generation == generation && it->second.expiry <= now)
        {
            out.push_back(Evict(index, FpgaEviction::TIMEOUT));
        }
    }
    return out;
}

std::vector<FpgaPartialSum>
FpgaSlotTable::Flush()
{
    std::vector<FpgaPartialSum> out;
    while (!m_expiries.empty())
    {
        auto [expiry, index, generation] = m_expiries.top();
        m_expiries.pop();
        auto it = m_slots.find(index);
        if (it != m_slots.end() && it->second.generation == generation)
        {
            out.push_back(Evict(index, FpgaEviction::FLUSH));
        }
    }
    return out;
}

const FpgaSlotTable::Slot*
FpgaSlotTable::Holding(const FpgaChunkId& id) const
{
    auto it = m_slots.find(SlotOf(id));
    return it == m_slots.end() || it->second.id != id ? nullptr : &it->second;
}

FpgaSlotTable::Slot*
FpgaSlotTable::Holding(const FpgaChunkId& id)
{
    return const_cast<Slot*>(std::as_const(*this).Holding(id));
}

std::vector<FpgaPartialSum>
FpgaSlotTable::Release(const FpgaChunkId& id)
{
    if (Holding(id) == nullptr)
    {
        return {};
    }
    // Its heap entry goes stale: the slot's next fill has another generation.
    return {Evict(SlotOf(id), FpgaEviction::REQUEST)};
}

bool
FpgaSlotTable::Lacks(const FpgaChunkId& id, uint32_t position) const
{
    const Slot* slot = Holding(id);
    if (slot == nullptr || slot->sources.Test(position))
    {
        return false;
    }
    auto early = m_early.find(id);
    return early == m_early.end() || !early->second.sources.Test(position);
}

bool
FpgaSlotTable::Extend(const FpgaChunkId& id, double expiry)
{
    Slot* slot = Holding(id);
    if (slot == nullptr)
    {
        return false;
    }
    if (expiry > slot->expiry)
    {
        slot->expiry = expiry;
        m_expiries.emplace(expiry, SlotOf(id), slot->generation);
    }
    return true;
}

double
FpgaSlotTable::GetNextExpiry() const
{
    // Stale heap entries only make this earlier than the truth; Expire at that
    // time returns nothing and the caller asks again.
    return m_expiries.empty() ? std::numeric_limits<double>::infinity()
                              : std::get<0>(m_expiries.top());
}

uint64_t
FpgaSlotTable::GetNSlots() const
{
    return m_nSlots;
}

void
FpgaSlotTable::SetTimeout(double timeoutSeconds)
{
    if (!(timeoutSeconds > 0) || std::isinf(timeoutSeconds))
    {
        throw std::invalid_argument("slot timeout must be positive and finite (got " +
                                    wantext::Num(timeoutSeconds) + " s)");
    }
    m_timeout = timeoutSeconds;
}

double
FpgaSlotTable::GetTimeout() const
{
    return m_timeout;
}

uint64_t
FpgaSlotTable::GetOccupancy() const
{
    return m_slots.size();
}

uint64_t
FpgaSlotTable::GetPeakOccupancy() const
{
    return m_peak;
}

uint64_t
FpgaSlotTable::GetEvictions(FpgaEviction cause) const
{
    return m_evictions[static_cast<int>(cause)];
}

} // namespace ns3
