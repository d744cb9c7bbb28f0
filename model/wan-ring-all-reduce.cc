/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-ring-all-reduce.h"

#include "wan-contribution.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{

WanRingAllReduce::WanRingAllReduce(uint32_t members, uint32_t position, std::vector<int64_t> own)
    : m_members(members),
      m_position(position),
      m_own(std::move(own))
{
    if (m_members < 2)
    {
        throw std::invalid_argument("ring all-reduce: " + std::to_string(m_members) +
                                    " member(s), need at least 2");
    }
    if (m_position >= m_members)
    {
        throw std::invalid_argument("ring all-reduce: position " + std::to_string(m_position) +
                                    " in a ring of " + std::to_string(m_members));
    }
    if (m_own.empty())
    {
        throw std::invalid_argument("ring all-reduce: no chunk to reduce");
    }
    m_sums.assign(m_own.size(), 0);
    m_reduced.assign(m_own.size(), false);
    m_gathered.assign(m_own.size(), false);
}

uint32_t
WanRingAllReduce::GetMembers() const
{
    return m_members;
}

uint32_t
WanRingAllReduce::GetChunks() const
{
    return static_cast<uint32_t>(m_own.size());
}

uint32_t
WanRingAllReduce::GetSteps() const
{
    return 2 * (m_members - 1);
}

std::pair<uint32_t, uint32_t>
WanRingAllReduce::Segment(uint32_t segment) const
{
    const uint64_t c = m_own.size();
    return {static_cast<uint32_t>(segment * c / m_members),
            static_cast<uint32_t>((segment + 1) * c / m_members)};
}

uint32_t
WanRingAllReduce::SegmentSent(uint32_t step, uint32_t position) const
{
    return (position + m_members - step % m_members) % m_members;
}

std::vector<WanRingAllReduce::Record>
WanRingAllReduce::Start() const
{
    std::vector<Record> out;
    const auto [begin, end] = Segment(m_position);
    for (uint32_t c = begin; c < end; ++c)
    {
        out.push_back(Record{0, c, m_own[c]});
    }
    return out;
}

std::vector<WanRingAllReduce::Record>
WanRingAllReduce::Receive(const Record& record)
{
    const uint32_t last = GetSteps() - 1;
    if (record.step > last)
    {
        throw std::invalid_argument("ring all-reduce: step " + std::to_string(record.step) +
                                    " in a ring of " + std::to_string(GetSteps()) + " steps");
    }
    const uint32_t previous = (m_position + m_members - 1) % m_members;
    const auto [begin, end] = Segment(SegmentSent(record.step, previous));
    if (record.chunk < begin || record.chunk >= end)
    {
        throw std::invalid_argument("ring all-reduce: chunk " + std::to_string(record.chunk) +
                                    " at step " + std::to_string(record.step) +
                                    ", whose segment is chunks " + std::to_string(begin) + " to " +
                                    std::to_string(end) + " (exclusive)");
    }
    const uint32_t c = record.chunk;
    const bool reducing = record.step + 2 <= m_members; // steps 0 to N - 2
    auto& seen = reducing ? m_reduced : m_gathered;
    if (seen[c])
    {
        throw std::invalid_argument("ring all-reduce: chunk " + std::to_string(c) +
                                    " came twice while the ring " +
                                    (reducing ? "reduced" : "gathered"));
    }
    seen[c] = true;
    if (reducing)
    {
        const int64_t sum = WanContribution::Add(record.value, m_own[c]);
        if (record.step + 2 == m_members)
        {
            Hold(c, sum); // the last reducing step: the whole sum
        }
        return {Record{record.step + 1, c, sum}};
    }
    Hold(c, record.value);
    if (record.step == last)
    {
        return {};
    }
    return {Record{record.step + 1, c, record.value}};
}

void
WanRingAllReduce::Hold(uint32_t chunk, int64_t sum)
{
    m_sums[chunk] = sum;
    ++m_done;
}

bool
WanRingAllReduce::IsComplete() const
{
    return m_done == m_own.size();
}

uint32_t
WanRingAllReduce::GetDone() const
{
    return m_done;
}

const std::vector<int64_t>&
WanRingAllReduce::GetSums() const
{
    return m_sums;
}

} // namespace ns3
