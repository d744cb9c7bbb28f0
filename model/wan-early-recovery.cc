/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-early-recovery.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace ns3
{

WanEarlyRecovery::WanEarlyRecovery(const WanOverdueClock& clock,
                                   uint32_t members,
                                   uint32_t reorderWindow,
                                   std::vector<Time> peerDelays)
    : m_clock(clock),
      m_window(reorderWindow),
      m_peerDelays(std::move(peerDelays))
{
    if (members == 0 || reorderWindow == 0)
    {
        throw std::invalid_argument("early recovery needs a member and a reorder window of at "
                                    "least one chunk");
    }
    if (!m_peerDelays.empty() && m_peerDelays.size() != members)
    {
        throw std::invalid_argument("early recovery: " + std::to_string(m_peerDelays.size()) +
                                    " latencies for a clique of " + std::to_string(members));
    }
    const uint32_t chunks = m_clock.GetChunks();
    m_overdue.assign(chunks, false);
    m_peersAsked.assign(chunks, false);
    m_fpgaRepairing.assign(chunks, false);
    m_cursor.assign(members, 0);
    m_outstanding.assign(members, 0);
}

const WanOverdueClock&
WanEarlyRecovery::GetClock() const
{
    return m_clock;
}

double
WanEarlyRecovery::GetMargin() const
{
    return m_clock.GetMargin();
}

uint32_t
WanEarlyRecovery::GetTail() const
{
    const uint32_t chunks = m_clock.GetChunks();
    return chunks > m_window ? chunks - m_window : 0;
}

bool
WanEarlyRecovery::ObserveCompletion(uint32_t chunk, double completion)
{
    // Only in-order completions: a chunk completed after a later one was
    // repaired (here or in the network), and its lateness is the repair's.
    if (m_overdue.at(chunk) || chunk + 1 <= m_inOrder)
    {
        return false;
    }
    m_inOrder = chunk + 1;
    m_clock.Observe(chunk, completion);
    return true;
}

std::vector<uint32_t>
WanEarlyRecovery::Reveal(uint32_t position,
                         uint32_t chunk,
                         const std::function<bool(uint32_t)>& holds)
{
    std::vector<uint32_t> due;
    if (position >= m_cursor.size() || chunk < m_window)
    {
        return due;
    }
    // Every earlier chunk of this sender, reorderWindow places back, is due.
    auto& cursor = m_cursor[position];
    while (cursor + m_window <= chunk)
    {
        const uint32_t c = cursor++; // moved first: the requests see it due
        if (!m_overdue[c] && !holds(c))
        {
            due.push_back(c);
        }
    }
    return due;
}

std::vector<uint32_t>
WanEarlyRecovery::TakeTailOverdue(double now, const std::function<bool(uint32_t)>& complete)
{
    // Time tells only at the tail, where no later chunk can: elsewhere the
    // order of arrivals does (Reveal), which queues do not fool.
    const auto [first, end] = m_clock.TakeOverdue(now);
    std::vector<uint32_t> due;
    for (uint32_t c = std::max(first, GetTail()); c < end; ++c)
    {
        if (!m_overdue[c] && !complete(c))
        {
            due.push_back(c);
        }
    }
    return due;
}

bool
WanEarlyRecovery::LastOverdue(double now)
{
    m_clock.TakeOverdue(now);
    return !std::isfinite(m_clock.GetNextDue());
}

std::vector<uint32_t>
WanEarlyRecovery::PassDeadline(const std::function<bool(uint32_t)>& complete)
{
    m_deadlinePassed = true;
    std::vector<uint32_t> due;
    auto overdue = [&](uint32_t c) {
        if (!m_overdue[c] && !complete(c))
        {
            due.push_back(c);
        }
    };
    const auto [first, end] = m_clock.TakeOverdue(std::numeric_limits<double>::infinity());
    for (uint32_t c = first; c < end; ++c)
    {
        overdue(c);
    }
    for (uint32_t c = 0; c < first; ++c)
    {
        overdue(c); // not revealed by a later arrival
    }
    return due;
}

bool
WanEarlyRecovery::IsDeadlinePassed() const
{
    return m_deadlinePassed;
}

std::optional<Time>
WanEarlyRecovery::GetNextCheck(Time start, Time now, Time spacing) const
{
    const double due = m_clock.GetNextDue();
    if (!std::isfinite(due) || m_deadlinePassed)
    {
        return std::nullopt;
    }
    return std::max(start + Seconds(due), now + spacing);
}

void
WanEarlyRecovery::MarkOverdue(uint32_t chunk)
{
    m_overdue.at(chunk) = true;
    ++m_pendingAsks;
}

bool
WanEarlyRecovery::IsOverdue(uint32_t chunk) const
{
    return m_overdue.at(chunk);
}

void
WanEarlyRecovery::EndAsk()
{
    m_pendingAsks -= m_pendingAsks > 0 ? 1 : 0;
}

void
WanEarlyRecovery::AbandonAsks()
{
    m_pendingAsks = 0;
}

uint32_t
WanEarlyRecovery::GetPendingAsks() const
{
    return m_pendingAsks;
}

bool
WanEarlyRecovery::CanFinish() const
{
    return m_deadlinePassed && m_pendingAsks == 0;
}

Time
WanEarlyRecovery::GetParityWait(uint32_t blockEnd,
                                uint32_t parities,
                                double packetSeconds,
                                Time start,
                                Time now) const
{
    // The block's last data chunk, then its parity chunks, then the margin.
    const double due =
        m_clock.GetExpected(blockEnd) + parities * packetSeconds + m_clock.GetMargin();
    return std::max(Time(0), start + Seconds(due) - now);
}

bool
WanEarlyRecovery::StartFpgaRepair(uint32_t chunk)
{
    if (m_fpgaRepairing.at(chunk))
    {
        return false;
    }
    m_fpgaRepairing[chunk] = true;
    return true;
}

bool
WanEarlyRecovery::EndFpgaRepair(uint32_t chunk)
{
    const bool was = m_fpgaRepairing.at(chunk);
    m_fpgaRepairing[chunk] = false;
    return was;
}

bool
WanEarlyRecovery::IsFpgaRepairing(uint32_t chunk) const
{
    return m_fpgaRepairing.at(chunk);
}

Time
WanEarlyRecovery::GetQueryBackoff(uint32_t attempt) const
{
    // While the FPGA repairs, ask again, twice as late each time: its sum
    // may be lost at the tail of the MERGED stream, where no gap shows it.
    return Seconds(2 * m_clock.GetMargin()) * (1 << std::min(attempt, 4u));
}

WanEarlyRecovery::PeerAsk
WanEarlyRecovery::AskPeers(uint32_t chunk,
                           uint32_t attempt,
                           const std::vector<uint32_t>& lacking,
                           uint32_t maxRequests,
                           const RequestCost& cost)
{
    PeerAsk ask;
    if (attempt == 0)
    {
        if (m_peersAsked.at(chunk) || m_fpgaRepairing.at(chunk))
        {
            return ask; // started already, or the FPGA repairs it
        }
        m_peersAsked[chunk] = true;
    }
    if (lacking.empty() || attempt >= maxRequests)
    {
        EndAsk();
        ask.action = PeerAction::DONE;
        return ask;
    }
    // Only senders whose later chunks came (or the tail, or past the
    // deadline): the others' contributions may still be on their way.
    for (uint32_t p : lacking)
    {
        if (m_cursor.at(p) > chunk || chunk >= GetTail() || m_deadlinePassed)
        {
            ask.positions.push_back(p);
        }
    }
    if (ask.positions.empty())
    {
        m_peersAsked[chunk] = attempt > 0; // the first request is still to come
        ask.action = PeerAction::WAIT;
        ask.timeout = GetRequestTimeout(lacking, 0, cost);
        return ask;
    }
    if (attempt == 0)
    {
        for (uint32_t p : ask.positions)
        {
            ++m_outstanding[p];
        }
    }
    ask.action = PeerAction::REQUEST;
    ask.timeout = GetRequestTimeout(ask.positions, attempt, cost);
    return ask;
}

Time
WanEarlyRecovery::GetRequestTimeout(const std::vector<uint32_t>& positions,
                                    uint32_t attempt,
                                    const RequestCost& cost) const
{
    // The round trip, and the sender's repair queue: this island's requests
    // to it still open, each a packet time at the repair budget.
    Time latency;
    uint32_t queued = 0;
    for (uint32_t p : positions)
    {
        latency = m_peerDelays.empty() ? latency : std::max(latency, m_peerDelays.at(p));
        queued = std::max(queued, m_outstanding.at(p));
    }
    const Time queue = queued * cost.packetTime / cost.repairBudget;
    // Doubled from the second attempt on: a repeated request's repair cannot
    // be told from the first's, so only backing off can outwait a round trip
    // longer than thought (Karn).
    return (2 * latency + queue + Seconds(m_clock.GetMargin() + cost.repairAllowance)) *
           (1 << std::min(attempt, 1u));
}

void
WanEarlyRecovery::RepairArrived(uint32_t position)
{
    if (position < m_outstanding.size())
    {
        auto& open = m_outstanding[position];
        open -= open > 0 ? 1 : 0;
    }
}

uint32_t
WanEarlyRecovery::GetOutstanding(uint32_t position) const
{
    return m_outstanding.at(position);
}

bool
WanEarlyRecovery::ArePeersAsked(uint32_t chunk) const
{
    return m_peersAsked.at(chunk);
}

Time
WanEarlyRecovery::GetRoundTrip(uint32_t position) const
{
    return 2 * (m_peerDelays.empty() ? Time(0) : m_peerDelays.at(position));
}

} // namespace ns3
