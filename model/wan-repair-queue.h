/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_REPAIR_QUEUE_H
#define WAN_REPAIR_QUEUE_H

#include "ns3/inet-socket-address.h"
#include "ns3/nstime.h"

#include <cstddef>
#include <cstdint>
#include <deque>
#include <set>
#include <tuple>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The repairs an island owes, in the order they were asked for, and
 * the pacer that spaces them: one repair per packet time at a share (the
 * repair budget) of the repaired round's stream rate.
 *
 * A request for a chunk of a round already queued for the same requester
 * (the same IPv4 address, whatever its port) is suppressed: the repair
 * queued answers both.  Once the repair leaves the queue, a new request for
 * it is queued again.  The queue neither sends nor schedules anything: it
 * is told the time and says how long the next repair must wait.
 */
class WanRepairQueue
{
  public:
    /// A repair waiting for the pacer.
    struct Repair
    {
        uint32_t index{0};                   //!< the round's index at the island
        uint32_t round{0};                   //!< the round number
        uint32_t chunk{0};                   //!< the chunk to resend
        InetSocketAddress to{Ipv4Address()}; //!< who asked (an island, or its FPGA)
    };

    /**
     * @brief Queues a repair behind those waiting.
     * @param repair the repair
     * @return false when the same chunk of the same round is queued already
     *         for the same requester (nothing is queued)
     */
    bool Push(const Repair& repair);
    /** @return true when no repair waits */
    bool IsEmpty() const;
    /** @return the repairs waiting */
    std::size_t GetSize() const;
    /**
     * @param now the present time
     * @return how long from now until the pacer lets the next repair leave
     *         (zero: now)
     */
    Time GetWait(Time now) const;
    /** @return the repair at the head of the queue (the queue must not be empty) */
    const Repair& Front() const;
    /**
     * @brief Takes the repair at the head of the queue: it leaves now, and
     * the pacer holds the next one for a packet time at the repair budget.
     * @param now the present time
     * @param packetTime a chunk's wire time at the repaired round's stream rate
     * @param budget the share of that rate repairs may use (> 0)
     * @return the repair taken (the queue must not be empty)
     */
    Repair Pop(Time now, Time packetTime, double budget);

  private:
    std::deque<Repair> m_repairs; //!< repairs waiting, oldest first
    /// (requester IPv4, round, chunk) of every repair in m_repairs
    std::set<std::tuple<uint32_t, uint32_t, uint32_t>> m_queued;
    Time m_free; //!< when the pacer lets the next repair leave
};

} // namespace ns3

#endif /* WAN_REPAIR_QUEUE_H */
