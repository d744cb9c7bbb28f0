/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-overdue-clock.h"

#include "wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

WanOverdueClock::WanOverdueClock(double firstArrival, double period, uint32_t chunks, double floor)
    : m_first(firstArrival),
      m_period(period),
      m_chunks(chunks),
      m_floor(floor)
{
    if (!std::isfinite(firstArrival) || firstArrival < 0)
    {
        throw std::invalid_argument("overdue clock: first arrival " + wantext::Num(firstArrival) +
                                    " s must be finite and >= 0");
    }
    wantext::RequirePositive(period, "overdue clock packet time", "s");
    if (chunks == 0)
    {
        throw std::invalid_argument("overdue clock: a state has at least one chunk");
    }
    if (!std::isfinite(floor) || floor < 0)
    {
        throw std::invalid_argument("overdue clock: margin floor " + wantext::Num(floor) +
                                    " s must be finite and >= 0");
    }
}

double
WanOverdueClock::GetExpected(uint32_t chunk) const
{
    return m_first + (chunk + 1.0) * m_period;
}

uint32_t
WanOverdueClock::GetChunks() const
{
    return m_chunks;
}

void
WanOverdueClock::Observe(uint32_t chunk, double completion)
{
    m_lateness.Observe(completion - GetExpected(chunk));
}

double
WanOverdueClock::GetMargin() const
{
    return m_lateness.GetSamples() == 0 ? m_floor : std::max(m_floor, m_lateness.GetBound());
}

const WanMeanDeviation&
WanOverdueClock::GetLateness() const
{
    return m_lateness;
}

std::pair<uint32_t, uint32_t>
WanOverdueClock::TakeOverdue(double now)
{
    const uint32_t first = m_cursor;
    const double margin = GetMargin();
    while (m_cursor < m_chunks && GetExpected(m_cursor) + margin <= now)
    {
        ++m_cursor;
    }
    return {first, m_cursor};
}

double
WanOverdueClock::GetNextDue() const
{
    return m_cursor < m_chunks ? GetExpected(m_cursor) + GetMargin()
                               : std::numeric_limits<double>::infinity();
}

} // namespace ns3
