/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PIM_STATE_H
#define WAN_PIM_STATE_H

#include "ns3/ipv4-address.h"

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One router's PIM-SSM (S,G) state (RFC 7761 section 4.5 for (S,G)
 * joins, RFC 4607 for source-specific multicast), as a plain class driven
 * with messages and times.
 *
 * Interfaces are named by the neighbour on them (every WAN link is
 * point-to-point), and LOCAL stands for the router's own edge (the island's
 * membership, IGMPv3/MLDv2-style, and the source's attachment).  Per (S,G):
 *
 * - the upstream (RPF) neighbour, from the unicast routes (the Rpf function:
 *   the next hop towards S, LOCAL when S is attached here);
 * - the outgoing interfaces, each with an expiry: a Join refreshes it for its
 *   holdtime, a Prune removes it at once (on a point-to-point link no other
 *   downstream router can override it, so the LAN prune delay does not
 *   apply), and a neighbour whose Hello holdtime lapses loses its
 *   interfaces; local membership lasts until it is left;
 * - while outgoing interfaces remain, a Join to the upstream neighbour every
 *   join period (triggered at once when the state is created or the RPF
 *   neighbour changes); when the last one goes, a Prune upstream and the state
 *   is deleted.
 *
 * RpfChanged re-reads the unicast routes (after a reconvergence): every (S,G)
 * whose RPF neighbour changed sends a Join to the new one and a Prune to the
 * old.
 *
 * With a retry period (Timers::retryPeriod > 0), a triggered Join or Prune
 * (a new entry, a move, a neighbour back, the last interface gone) is sent
 * again every retry period until the upstream neighbour confirms it
 * (Confirm, what its acknowledgement carries), or a newer triggered message
 * for the same (S,G) and neighbour replaces it, or the neighbour goes: a lost
 * triggered Join then costs a retry period, not a join period.  RFC 7761 has
 * no acknowledgement (its remedy is the periodic Join); the acknowledgement
 * follows RFC 3973's Graft/Graft-Ack.  Periodic Joins are not confirmed.  The
 * messages to send are returned, for the caller to carry (in WanPimHeader
 * Join/Prune messages, or directly in tests).  Not modelled: RP,
 * (*,G) and (S,G,rpt) state, asserts and LAN prune override (every link is
 * point-to-point), join suppression.
 */
class WanPimState
{
  public:
    /// The router's own edge: local membership and locally attached sources.
    static constexpr uint32_t LOCAL = 0xffffffffu;

    /// Timers, RFC 7761's defaults (seconds).
    struct Timers
    {
        double joinPeriod{60};     //!< t_periodic: Join/Prune interval
        double joinHoldtime{210};  //!< J/P holdtime: 3.5 x t_periodic
        double helloHoldtime{105}; //!< Hello holdtime: 3.5 x the 30 s Hello period
        double retryPeriod{0};     //!< triggered messages repeated until confirmed (0: once)
    };

    /// A Join/Prune for one (S,G) to send to a neighbour.
    struct Message
    {
        uint32_t neighbour{0}; //!< the upstream neighbour it goes to
        bool join{true};       //!< Join (false: Prune)
        Ipv4Address source;    //!< S
        Ipv4Address group;     //!< G
        double holdtime{0};    //!< the holdtime it carries, seconds
    };

    /// The RPF neighbour towards a source (LOCAL: attached here).
    using Rpf = std::function<uint32_t(Ipv4Address source)>;

    /**
     * @param rpf the unicast routes' next hop towards a source
     * @param timers the timers (positive; holdtimes at least the join period)
     * @throws std::invalid_argument for impossible timers
     */
    WanPimState(Rpf rpf, Timers timers);
    /**
     * @param rpf the unicast routes' next hop towards a source (RFC 7761's
     *        default timers)
     */
    explicit WanPimState(Rpf rpf);

    /**
     * @brief A downstream Join (from a neighbour) or local membership (LOCAL).
     * @param source S
     * @param group G, in 232.0.0.0/8 (SSM)
     * @param from the interface it came on
     * @param now the time, seconds
     * @return the messages to send upstream (a Join when the state is new)
     * @throws std::invalid_argument for a group outside the SSM range
     */
    std::vector<Message> Join(Ipv4Address source, Ipv4Address group, uint32_t from, double now);
    /**
     * @brief A downstream Prune, or local membership left (LOCAL).
     * @return the messages to send upstream (a Prune when the state goes)
     */
    std::vector<Message> Prune(Ipv4Address source, Ipv4Address group, uint32_t from, double now);
    /**
     * @brief A Hello from a neighbour.
     * @param neighbour the neighbour
     * @param holdtime its holdtime, seconds (0: it leaves at once)
     * @param now the time, seconds
     * @return triggered Joins to a neighbour that was not known (new, or
     *         back after its holdtime lapsed), for every (S,G) whose RPF
     *         neighbour it is, so that its state need not wait for the next
     *         periodic Join
     */
    std::vector<Message> Hello(uint32_t neighbour, double holdtime, double now);
    /**
     * @param neighbour a neighbour
     * @param now the time, seconds
     * @return true while its last Hello's holdtime runs
     */
    bool IsNeighbour(uint32_t neighbour, double now) const;
    /**
     * @brief The upstream neighbour confirmed a Join or Prune for (S,G): a
     * triggered one of the same kind to it is no longer repeated.
     * @param source S
     * @param group G
     * @param from the neighbour that confirmed it
     * @param join true for a Join, false for a Prune
     * @return true when it confirmed a triggered message still repeated
     */
    bool Confirm(Ipv4Address source, Ipv4Address group, uint32_t from, bool join);
    /** @return the triggered messages not yet confirmed */
    uint32_t GetNUnconfirmed() const;
    /** @return the triggered messages sent again, unconfirmed after a retry
     * period */
    uint64_t GetRetries() const;
    /**
     * @brief Lets time pass: expired interfaces and neighbours go, periodic
     * Joins are due, unconfirmed triggered messages are sent again.
     * @param now the time, seconds
     * @return the messages to send
     */
    std::vector<Message> Advance(double now);
    /**
     * @brief The unicast routes changed: every (S,G) moves to its new RPF
     * neighbour (Join the new, Prune the old).
     * @param now the time, seconds
     * @return the messages to send
     */
    std::vector<Message> RpfChanged(double now);

    /** @return true when the router has state for (S,G) */
    bool HasState(Ipv4Address source, Ipv4Address group) const;
    /** @return the (S,G)'s RPF neighbour (LOCAL: S attached here) */
    uint32_t GetUpstream(Ipv4Address source, Ipv4Address group) const;
    /** @return the (S,G)'s outgoing interfaces (LOCAL: the edge) */
    std::set<uint32_t> GetOutgoing(Ipv4Address source, Ipv4Address group) const;
    /** @return the (S,G) entries */
    uint32_t GetNEntries() const;
    /** @return the (S,G) pairs with state, in order */
    std::vector<std::pair<Ipv4Address, Ipv4Address>> GetEntries() const;
    /** @return the earliest time something expires or is due (infinity: nothing) */
    double GetNextEvent() const;

  private:
    /// One (S,G).
    struct Entry
    {
        uint32_t upstream{LOCAL};            //!< RPF neighbour
        std::map<uint32_t, double> outgoing; //!< interface -> expiry (infinity: local)
        double nextJoin{0};                  //!< next periodic Join
    };

    using Key = std::pair<Ipv4Address, Ipv4Address>; //!< (S, G)

    /// A triggered message repeated until it is confirmed.
    struct Unconfirmed
    {
        bool join{true}; //!< a Join (false: a Prune)
        double due{0};   //!< when it is sent again
    };

    /// Appends a message to the entry's upstream, unless S is attached here.
    void Send(std::vector<Message>& out, const Key& key, uint32_t to, bool join) const;
    /// Sends a triggered message, repeated until confirmed when there is a retry
    /// period.
    void Trigger(std::vector<Message>& out, const Key& key, uint32_t to, bool join, double now);
    /// Deletes an entry whose last interface went, with a Prune upstream.
    void Remove(std::vector<Message>& out, const Key& key, double now);
    /// Sends again the triggered messages due; forgets those to routers not (or
    /// no longer) neighbours.
    void Retry(std::vector<Message>& out, double now);

    Rpf m_rpf;                               //!< unicast next hop towards a source
    Timers m_timers;                         //!< timers
    std::map<Key, Entry> m_entries;          //!< (S,G) state
    std::map<uint32_t, double> m_neighbours; //!< neighbour -> Hello expiry
    std::map<std::pair<Key, uint32_t>, Unconfirmed> m_unconfirmed; //!< ((S,G), to) -> message
    uint64_t m_retries{0};                                         //!< messages sent again
};

} // namespace ns3

#endif /* WAN_PIM_STATE_H */
