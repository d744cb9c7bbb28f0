/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-sequence-tracker.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// The most gaps one arrival opens: numbers further below it are written
/// off, so that a corrupt sequence number cannot exhaust memory.
const uint64_t kMaxNewGaps = 65536;

} // namespace

WanSequenceTracker::WanSequenceTracker(uint32_t maxNacks)
    : m_maxNacks(1)
{
    SetMaxNacks(maxNacks);
}

void
WanSequenceTracker::SetMaxNacks(uint32_t maxNacks)
{
    if (maxNacks == 0)
    {
        throw std::invalid_argument("a sequence gap needs at least one NACK before it is "
                                    "abandoned (got 0)");
    }
    m_maxNacks = maxNacks;
}

uint32_t
WanSequenceTracker::GetMaxNacks() const
{
    return m_maxNacks;
}

WanSequenceTracker::Arrival
WanSequenceTracker::Receive(uint32_t sequence)
{
    const uint64_t s = sequence;
    if (m_abandoned.erase(s) > 0)
    {
        // Given up on, yet here: taken once (a later copy is a duplicate).
        if (s >= m_next)
        {
            m_received.insert(s);
            Advance();
        }
        return Arrival::FIRST;
    }
    if (s < m_next || m_received.count(s) > 0)
    {
        return Arrival::DUPLICATE;
    }
    Arrival arrival = Arrival::FIRST;
    if (s < m_end)
    {
        // Below the highest received and not received: a gap.
        m_gaps.erase(s);
        m_asked.erase(s);
        arrival = Arrival::GAP_FILLED;
    }
    else
    {
        if (s - m_end > kMaxNewGaps)
        {
            m_end = s - kMaxNewGaps;
            m_next = std::max(m_next, m_end);
            m_received.erase(m_received.begin(), m_received.lower_bound(m_next));
            m_gaps.erase(m_gaps.begin(), m_gaps.lower_bound(m_next));
            m_asked.erase(m_asked.begin(), m_asked.lower_bound(m_next));
        }
        for (uint64_t g = m_end; g < s; ++g)
        {
            m_gaps.emplace(g, 0);
        }
        m_end = s + 1;
    }
    m_received.insert(s);
    Advance();
    return arrival;
}

uint32_t
WanSequenceTracker::ExpectBelow(uint32_t next)
{
    const uint64_t n = next;
    if (n <= m_end)
    {
        return 0;
    }
    const uint64_t from = std::max<uint64_t>(m_end, n > kMaxNewGaps ? n - kMaxNewGaps : 0);
    for (uint64_t g = from; g < n; ++g)
    {
        m_gaps.emplace(g, 0);
    }
    if (from > m_end)
    {
        // Too far ahead: what lies before is written off, as in Receive.
        m_next = std::max(m_next, from);
        m_received.erase(m_received.begin(), m_received.lower_bound(m_next));
        m_gaps.erase(m_gaps.begin(), m_gaps.lower_bound(m_next));
        m_asked.erase(m_asked.begin(), m_asked.lower_bound(m_next));
    }
    m_end = n;
    return static_cast<uint32_t>(n - from);
}

std::vector<uint32_t>
WanSequenceTracker::TakeNacksDue(double now, double interval)
{
    std::vector<uint32_t> nacks;
    for (auto it = m_gaps.begin(); it != m_gaps.end();)
    {
        auto asked = m_asked.find(it->first);
        if (asked != m_asked.end() && now - asked->second < interval)
        {
            ++it;
            continue;
        }
        if (++it->second > m_maxNacks)
        {
            m_abandoned.insert(it->first);
            ++m_abandonedCount;
            m_asked.erase(it->first);
            it = m_gaps.erase(it);
            continue;
        }
        m_asked[it->first] = now;
        nacks.push_back(static_cast<uint32_t>(it->first));
        ++it;
    }
    Advance();
    return nacks;
}

void
WanSequenceTracker::Advance()
{
    while (m_next < m_end)
    {
        if (m_received.erase(m_next) == 0 && m_abandoned.count(m_next) == 0)
        {
            break;
        }
        ++m_next;
    }
}

bool
WanSequenceTracker::HasGaps() const
{
    return !m_gaps.empty();
}

std::vector<uint32_t>
WanSequenceTracker::GetGaps() const
{
    std::vector<uint32_t> gaps;
    for (const auto& [g, attempts] : m_gaps)
    {
        gaps.push_back(static_cast<uint32_t>(g));
    }
    return gaps;
}

uint64_t
WanSequenceTracker::GetWindowStart() const
{
    return m_next;
}

uint64_t
WanSequenceTracker::GetAbandoned() const
{
    return m_abandonedCount;
}

} // namespace ns3
