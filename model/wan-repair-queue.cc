/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-repair-queue.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

bool
WanRepairQueue::Push(const Repair& repair)
{
    if (!m_queued.emplace(repair.to.GetIpv4().Get(), repair.round, repair.chunk).second)
    {
        return false;
    }
    m_repairs.push_back(repair);
    return true;
}

bool
WanRepairQueue::IsEmpty() const
{
    return m_repairs.empty();
}

std::size_t
WanRepairQueue::GetSize() const
{
    return m_repairs.size();
}

Time
WanRepairQueue::GetWait(Time now) const
{
    return std::max(Time(0), m_free - now);
}

const WanRepairQueue::Repair&
WanRepairQueue::Front() const
{
    if (m_repairs.empty())
    {
        throw std::logic_error("repair queue: no repair waits");
    }
    return m_repairs.front();
}

WanRepairQueue::Repair
WanRepairQueue::Pop(Time now, Time packetTime, double budget)
{
    const Repair repair = Front();
    m_repairs.pop_front();
    m_queued.erase({repair.to.GetIpv4().Get(), repair.round, repair.chunk});
    // The pacer: one repair per packet time at budget x the stream rate.
    m_free = now + packetTime / budget;
    return repair;
}

} // namespace ns3
