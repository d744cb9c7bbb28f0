/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-recovery-round-trips.h"

#include "wan-training-compat.h"

#include <algorithm>

namespace ns3
{

void
WanRecoveryRoundTrips::Requested(uint32_t round, uint32_t chunk, uint32_t position, Time now)
{
    m_requestedAt[std::make_tuple(round, chunk, position)] = now;
}

void
WanRecoveryRoundTrips::Repeated(uint32_t round, uint32_t chunk, uint32_t position)
{
    m_requestedAt.erase(std::make_tuple(round, chunk, position));
}

bool
WanRecoveryRoundTrips::Repaired(uint32_t round,
                                uint32_t chunk,
                                uint32_t position,
                                Time now,
                                Time roundTrip)
{
    auto it = m_requestedAt.find({round, chunk, position});
    if (it == m_requestedAt.end())
    {
        return false;
    }
    // Negative when the repair beat the round trip planned.
    m_repairWait.Observe(wancompat::ToSeconds(now - it->second - roundTrip));
    m_requestedAt.erase(it);
    return true;
}

void
WanRecoveryRoundTrips::Nacked(uint32_t sequence, Time now)
{
    m_nackedAt.emplace(sequence, now);
}

bool
WanRecoveryRoundTrips::Resent(uint32_t sequence, Time now)
{
    auto it = m_nackedAt.find(sequence);
    if (it == m_nackedAt.end())
    {
        return false;
    }
    m_hopRtt.Observe((now - it->second).GetSeconds());
    m_nackedAt.erase(it);
    return true;
}

void
WanRecoveryRoundTrips::Queried(uint32_t round, uint32_t chunk, Time now)
{
    m_queriedAt.emplace(std::make_pair(round, chunk), now);
}

bool
WanRecoveryRoundTrips::Answered(uint32_t round, uint32_t chunk, Time now)
{
    auto it = m_queriedAt.find({round, chunk});
    if (it == m_queriedAt.end())
    {
        return false;
    }
    m_hopRtt.Observe((now - it->second).GetSeconds());
    m_queriedAt.erase(it);
    return true;
}

const WanMeanDeviation&
WanRecoveryRoundTrips::GetHopRtt() const
{
    return m_hopRtt;
}

const WanMeanDeviation&
WanRecoveryRoundTrips::GetRepairWait() const
{
    return m_repairWait;
}

double
WanRecoveryRoundTrips::GetNackInterval(double nackDelay) const
{
    return std::max(nackDelay, m_hopRtt.GetBound());
}

double
WanRecoveryRoundTrips::GetRepairAllowance() const
{
    return std::max(0.0, m_repairWait.GetBound());
}

} // namespace ns3
