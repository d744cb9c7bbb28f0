/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_CONTRIBUTION_LEDGER_H
#define WAN_CONTRIBUTION_LEDGER_H

#include "wan-round-counters.h"
#include "wan-source-set.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Chunks by how many peers' contributions they hold: for each count h
 * (the key), per clique position the chunks that hold exactly h peers'
 * contributions, that position's among them (the island's own position:
 * every chunk with h).  Counts without chunks are left out.
 */
using WanHeldHistogram = std::map<uint32_t, std::vector<uint32_t>>;

/**
 * @ingroup wan-training
 * @brief What one island received of one round: the counts and sum of its
 * peers' contributions, and which chunks were late, re-requested or given up.
 */
struct WanLedgerAccount
{
    /// expected, delivered, late, requested, recovered, givenUp, discarded
    /// (the ledger fills only these)
    WanRoundCounters counters;
    double sum{0};                      //!< sum of the values accepted
    std::set<uint32_t> lateChunks;      //!< chunks with a contribution after the deadline, unasked
    std::set<uint32_t> requestedChunks; //!< chunks with a re-requested contribution
    std::set<uint32_t> givenUpChunks;   //!< chunks lacking a contribution when given up
    /// Per clique position, the chunks holding its contribution (this
    /// island's own position: every chunk); sums that name no positions are
    /// not in it.
    std::vector<uint32_t> heldPerPosition;
    /// What the island averaged: the chunks by peers held, as they arrive
    /// until the round is given up, then frozen (what arrives later is
    /// counted, but the island averaged without it).
    WanHeldHistogram averaged;
    /// What the island received by the end: the same histogram, never
    /// frozen (what arrived after it averaged included).  Equal to
    /// `averaged` unless something came after the round was given up.
    WanHeldHistogram received;
};

/**
 * @ingroup wan-training
 * @brief An island's ledger of its peers' contributions: for each chunk of
 * each round, which clique positions it holds.
 *
 * A round has `chunks` chunks and a clique of `members` islands, this one at
 * `position`; every other position owes one contribution per chunk.  A
 * packet offers a value and the positions it holds (a WanSourceSet: one
 * for a DATA chunk or a REPAIR, those of the sum for a MERGED packet).  It is accepted unless it
 * repeats a position the chunk already holds (then it is discarded whole: a
 * sum cannot be split), names a position outside the clique or this island's
 * own, or names a round or chunk that does not exist.  The set of positions
 * is as large as the clique.
 *
 * At a round's deadline GetMissing() names what is still lacking; the
 * island may re-request it (MarkRequested) or give it up (GiveUp).  What
 * arrives later is counted as recovered (it was asked for) or late (it was
 * not), and is no longer given up.
 *
 * A sum that does not say whom it holds (no positions) can only be counted:
 * its round is then audited by count alone, so GetMissing() names nothing
 * in it and GiveUp() counts what is short.
 *
 * The account also says, per position, how many chunks hold its
 * contribution (heldPerPosition), and what the island averaged: the chunks
 * grouped by how many peers they hold, up to GiveUp (averaged; see
 * WanMeasuredMixing).
 */
class WanContributionLedger
{
  public:
    /// What became of an offered packet.
    enum class Verdict
    {
        ACCEPTED,           //!< counted
        REPEATED,           //!< discarded: it repeats a contribution already held
        UNKNOWN_ROUND,      //!< not a round of this ledger
        CHUNK_OUT_OF_RANGE, //!< the round has no such chunk
        BAD_SOURCES         //!< a position outside the clique, this island's own, or none
    };

    /**
     * @param verdict a verdict
     * @return its name: "accepted", "repeated", "unplanned round", "chunk out
     *         of range" or "bad sources"
     */
    static std::string ToString(Verdict verdict);

    /**
     * @brief Opens a round.
     * @param round the round number (once)
     * @param chunks chunks per state, >= 1
     * @param members clique size, >= 1
     * @param position this island's position in the clique, < members
     */
    void AddRound(uint32_t round, uint32_t chunks, uint32_t members, uint32_t position);
    /**
     * @param round a round number
     * @return true when the round was added
     */
    bool HasRound(uint32_t round) const;

    /**
     * @brief Offers a sum of contributions to one chunk.
     * @param round the round
     * @param chunk the chunk
     * @param sources the positions it holds (empty: not tracked, counted as
     *        `contributions`)
     * @param contributions how many contributions it holds: as many as
     *        `sources` names, or at least one when it names none
     * @param value its value
     * @param pastDeadline true when it arrives after the round's deadline
     * @return what became of it
     */
    Verdict Offer(uint32_t round,
                  uint32_t chunk,
                  const WanSourceSet& sources,
                  uint32_t contributions,
                  double value,
                  bool pastDeadline);
    /**
     * @brief Offers one peer's contribution (a DATA chunk or a REPAIR).
     * @param round the round
     * @param chunk the chunk
     * @param position the sender's position
     * @param value its value
     * @param pastDeadline true when it arrives after the round's deadline
     * @return what became of it
     */
    Verdict OfferOne(uint32_t round,
                     uint32_t chunk,
                     uint32_t position,
                     double value,
                     bool pastDeadline);

    /**
     * @param round a round
     * @return true when it holds every peer's contribution to every chunk
     */
    bool IsComplete(uint32_t round) const;
    /**
     * @param round a round
     * @param chunk one of its chunks
     * @return true when that chunk holds every peer's contribution (false
     *         for an unknown round or chunk)
     */
    bool IsChunkComplete(uint32_t round, uint32_t chunk) const;
    /**
     * @param round a round
     * @param chunk one of its chunks
     * @param position a clique position
     * @return true when that position's contribution to that chunk is held
     *         (false for an unknown round, chunk or position)
     */
    bool Holds(uint32_t round, uint32_t chunk, uint32_t position) const;
    /**
     * @param round a round
     * @return (chunk, position) of every contribution still lacking, by
     *         chunk then position (nothing in a round audited by count)
     */
    std::vector<std::pair<uint32_t, uint32_t>> GetMissing(uint32_t round) const;
    /**
     * @param round a round
     * @param chunk one of its chunks
     * @return the positions whose contribution to that chunk is still
     *         lacking, ascending (nothing for an unknown round or chunk, or a
     *         round audited by count)
     */
    std::vector<uint32_t> GetMissing(uint32_t round, uint32_t chunk) const;
    /**
     * @brief Notes that a lacking contribution was asked for.
     * @param round the round
     * @param chunk the chunk
     * @param position the sender's position
     * @return true the first time it is asked for
     */
    bool MarkRequested(uint32_t round, uint32_t chunk, uint32_t position);
    /**
     * @brief Gives up what the round still lacks: givenUp becomes the number
     * of lacking contributions and givenUpChunks their chunks.
     * @param round the round
     */
    void GiveUp(uint32_t round);
    /**
     * @brief The island averages now without giving anything up (a quorum at
     * its deadline): `averaged` is final, what arrives later is received
     * (`received`) and counted as before.
     * @param round the round
     */
    void Freeze(uint32_t round);
    /**
     * @param round a round
     * @return what it received so far (an empty account for an unknown round)
     */
    const WanLedgerAccount& GetAccount(uint32_t round) const;

  private:
    /// One round's bookkeeping.
    struct Round
    {
        uint32_t chunks{0};          //!< chunks per state
        uint32_t members{0};         //!< clique size
        uint32_t position{0};        //!< this island's position
        std::vector<bool> held;      //!< chunk x members + position -> held
        std::vector<bool> requested; //!< likewise: asked for
        std::vector<uint32_t> peers; //!< per chunk: peers' contributions held
        bool countedOnly{false};     //!< a sum without positions arrived
        bool givenUp{false};         //!< given up: the averaged histogram is final
        bool frozen{false};          //!< averaged (Freeze): the averaged histogram is final
        WanLedgerAccount account;    //!< counts and sum
    };

    /// @return the round, or nullptr
    Round* Find(uint32_t round);
    /// @return the round, or nullptr
    const Round* Find(uint32_t round) const;
    /// Counts one newly held position of a chunk.
    static void CountArrival(Round& r, uint32_t chunk, uint32_t position, bool pastDeadline);
    /**
     * @brief Moves a chunk that now holds more positions to its new group of
     * the averaged histogram (unless the round was given up).
     * @param r the round
     * @param chunk the chunk
     * @param added the positions it just received
     */
    static void Regroup(Round& r, uint32_t chunk, const WanSourceSet& added);
    /**
     * @brief Moves a chunk from the group of `before` peers to that of
     * `after` in one histogram.
     * @param groups the histogram
     * @param r the round (which positions the chunk holds, now)
     * @param chunk the chunk
     * @param added the positions just added
     * @param before peers held before
     * @param after peers held now
     */
    static void Move(WanHeldHistogram& groups,
                     const Round& r,
                     uint32_t chunk,
                     const WanSourceSet& added,
                     uint32_t before,
                     uint32_t after);
    /// @return true when the chunk holds every peer's contribution
    static bool ChunkComplete(const Round& r, uint32_t chunk);

    std::map<uint32_t, Round> m_rounds; //!< by round number
};

} // namespace ns3

#endif /* WAN_CONTRIBUTION_LEDGER_H */
