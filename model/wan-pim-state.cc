/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-pim-state.h"

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{

namespace
{
constexpr double kForever = std::numeric_limits<double>::infinity();
} // namespace

WanPimState::WanPimState(Rpf rpf)
    : WanPimState(std::move(rpf), Timers())
{
}

WanPimState::WanPimState(Rpf rpf, Timers timers)
    : m_rpf(std::move(rpf)),
      m_timers(timers)
{
    if (!(timers.joinPeriod > 0) || !(timers.joinHoldtime >= timers.joinPeriod) ||
        !(timers.helloHoldtime > 0))
    {
        throw std::invalid_argument("PIM timers: the join period must be positive and the "
                                    "holdtimes at least that long");
    }
    if (!(timers.retryPeriod >= 0) || !(timers.retryPeriod < timers.joinPeriod))
    {
        throw std::invalid_argument("PIM timers: the retry period of triggered messages must "
                                    "be 0 (off) or positive and shorter than the join period");
    }
}

void
WanPimState::Send(std::vector<Message>& out, const Key& key, uint32_t to, bool join) const
{
    if (to != LOCAL)
    {
        out.push_back({to, join, key.first, key.second, join ? m_timers.joinHoldtime : 0});
    }
}

void
WanPimState::Trigger(std::vector<Message>& out, const Key& key, uint32_t to, bool join, double now)
{
    Send(out, key, to, join);
    if (to != LOCAL && m_timers.retryPeriod > 0)
    {
        // A newer triggered message to the same neighbour replaces an older one.
        m_unconfirmed[{key, to}] = Unconfirmed{join, now + m_timers.retryPeriod};
    }
}

bool
WanPimState::Confirm(Ipv4Address source, Ipv4Address group, uint32_t from, bool join)
{
    auto it = m_unconfirmed.find({Key{source, group}, from});
    if (it == m_unconfirmed.end() || it->second.join != join)
    {
        return false;
    }
    m_unconfirmed.erase(it);
    return true;
}

uint32_t
WanPimState::GetNUnconfirmed() const
{
    return static_cast<uint32_t>(m_unconfirmed.size());
}

uint64_t
WanPimState::GetRetries() const
{
    return m_retries;
}

void
WanPimState::Retry(std::vector<Message>& out, double now)
{
    for (auto it = m_unconfirmed.begin(); it != m_unconfirmed.end();)
    {
        const auto& [key, to] = it->first;
        if (!IsNeighbour(to, now))
        {
            it = m_unconfirmed.erase(it); // nobody there to confirm it
            continue;
        }
        if (it->second.due <= now)
        {
            Send(out, key, to, it->second.join);
            it->second.due = now + m_timers.retryPeriod;
            ++m_retries;
        }
        ++it;
    }
}

std::vector<WanPimState::Message>
WanPimState::Join(Ipv4Address source, Ipv4Address group, uint32_t from, double now)
{
    if ((group.Get() >> 24) != 232)
    {
        throw std::invalid_argument("PIM-SSM join for group outside 232.0.0.0/8");
    }
    std::vector<Message> out;
    const Key key{source, group};
    auto it = m_entries.find(key);
    const uint32_t upstream = it == m_entries.end() ? m_rpf(source) : it->second.upstream;
    if (from == upstream && from != LOCAL)
    {
        return out; // a Join from the RPF neighbour would make a loop
    }
    if (it == m_entries.end())
    {
        Entry e;
        e.upstream = upstream;
        e.nextJoin = now + m_timers.joinPeriod;
        it = m_entries.emplace(key, e).first;
        Trigger(out, key, upstream, true, now); // a triggered Join
    }
    it->second.outgoing[from] = from == LOCAL ? kForever : now + m_timers.joinHoldtime;
    return out;
}

void
WanPimState::Remove(std::vector<Message>& out, const Key& key, double now)
{
    auto it = m_entries.find(key);
    if (it != m_entries.end() && it->second.outgoing.empty())
    {
        Trigger(out, key, it->second.upstream, false, now);
        m_entries.erase(it);
    }
}

std::vector<WanPimState::Message>
WanPimState::Prune(Ipv4Address source, Ipv4Address group, uint32_t from, double now)
{
    std::vector<Message> out;
    const Key key{source, group};
    auto it = m_entries.find(key);
    if (it != m_entries.end() && it->second.outgoing.erase(from) > 0)
    {
        Remove(out, key, now);
    }
    return out;
}

std::vector<WanPimState::Message>
WanPimState::Hello(uint32_t neighbour, double holdtime, double now)
{
    std::vector<Message> out;
    const bool known = IsNeighbour(neighbour, now);
    if (holdtime <= 0)
    {
        m_neighbours[neighbour] = now; // gone: Advance takes its interfaces
        return out;
    }
    m_neighbours[neighbour] = now + holdtime;
    if (!known)
    {
        for (auto& [key, e] : m_entries)
        {
            if (e.upstream == neighbour)
            {
                Trigger(out, key, neighbour, true, now);
                e.nextJoin = now + m_timers.joinPeriod;
            }
        }
    }
    return out;
}

bool
WanPimState::IsNeighbour(uint32_t neighbour, double now) const
{
    auto it = m_neighbours.find(neighbour);
    return it != m_neighbours.end() && it->second > now;
}

std::vector<WanPimState::Message>
WanPimState::Advance(double now)
{
    std::vector<Message> out;
    std::set<uint32_t> gone;
    for (auto it = m_neighbours.begin(); it != m_neighbours.end();)
    {
        if (it->second <= now)
        {
            gone.insert(it->first);
            it = m_neighbours.erase(it);
        }
        else
        {
            ++it;
        }
    }
    std::vector<Key> empty;
    for (auto& [key, e] : m_entries)
    {
        for (auto o = e.outgoing.begin(); o != e.outgoing.end();)
        {
            if (o->second <= now || gone.count(o->first) > 0)
            {
                o = e.outgoing.erase(o);
            }
            else
            {
                ++o;
            }
        }
        if (e.outgoing.empty())
        {
            empty.push_back(key);
            continue;
        }
        while (e.nextJoin <= now)
        {
            e.nextJoin += m_timers.joinPeriod;
            if (e.nextJoin > now)
            {
                Send(out, key, e.upstream, true); // one refresh, however late
            }
        }
    }
    for (const auto& key : empty)
    {
        Remove(out, key, now);
    }
    Retry(out, now);
    return out;
}

std::vector<WanPimState::Message>
WanPimState::RpfChanged(double now)
{
    std::vector<Message> out;
    for (auto& [key, e] : m_entries)
    {
        const uint32_t upstream = m_rpf(key.first);
        if (upstream == e.upstream)
        {
            continue;
        }
        Trigger(out, key, upstream, true, now);
        Trigger(out, key, e.upstream, false, now);
        e.outgoing.erase(upstream); // the new upstream cannot be downstream too
        e.upstream = upstream;
        e.nextJoin = now + m_timers.joinPeriod;
    }
    return out;
}

bool
WanPimState::HasState(Ipv4Address source, Ipv4Address group) const
{
    return m_entries.count({source, group}) > 0;
}

uint32_t
WanPimState::GetUpstream(Ipv4Address source, Ipv4Address group) const
{
    auto it = m_entries.find({source, group});
    if (it == m_entries.end())
    {
        throw std::invalid_argument("no PIM state for this (S,G)");
    }
    return it->second.upstream;
}

std::set<uint32_t>
WanPimState::GetOutgoing(Ipv4Address source, Ipv4Address group) const
{
    std::set<uint32_t> out;
    auto it = m_entries.find({source, group});
    if (it != m_entries.end())
    {
        for (const auto& [iface, expiry] : it->second.outgoing)
        {
            out.insert(iface);
        }
    }
    return out;
}

uint32_t
WanPimState::GetNEntries() const
{
    return static_cast<uint32_t>(m_entries.size());
}

std::vector<std::pair<Ipv4Address, Ipv4Address>>
WanPimState::GetEntries() const
{
    std::vector<Key> keys;
    for (const auto& [key, e] : m_entries)
    {
        keys.push_back(key);
    }
    return keys;
}

double
WanPimState::GetNextEvent() const
{
    double next = kForever;
    for (const auto& [n, expiry] : m_neighbours)
    {
        next = std::min(next, expiry);
    }
    for (const auto& [to, u] : m_unconfirmed)
    {
        next = std::min(next, u.due);
    }
    for (const auto& [key, e] : m_entries)
    {
        next = std::min(next, e.nextJoin);
        for (const auto& [iface, expiry] : e.outgoing)
        {
            next = std::min(next, expiry);
        }
    }
    return next;
}

} // namespace ns3
