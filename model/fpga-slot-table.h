/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_SLOT_TABLE_H
#define FPGA_SLOT_TABLE_H

#include "wan-galois-ring.h"
#include "wan-source-set.h"

#include <cstdint>
#include <deque>
#include <functional>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Identifier of one weight chunk of one round: what the FPGA sums on.
 */
struct FpgaChunkId
{
    uint32_t round{0};  //!< round number
    uint32_t clique{0}; //!< clique index within the round
    uint32_t chunk{0};  //!< chunk index within the model state

    /**
     * @param o another identifier
     * @return true when all fields are equal
     */
    bool operator==(const FpgaChunkId& o) const
    {
        return round == o.round && clique == o.clique && chunk == o.chunk;
    }

    /**
     * @param o another identifier
     * @return true when any field differs
     */
    bool operator!=(const FpgaChunkId& o) const
    {
        return !(*this == o);
    }
};

/**
 * @ingroup wan-training
 * @brief Why a slot was forwarded.
 */
enum class FpgaEviction
{
    COMPLETION, //!< all expected contributions were in
    TIMEOUT,    //!< the slot outlived the timeout
    CONFLICT,   //!< another chunk hashed to the occupied slot
    FLUSH,      //!< the table was emptied (end of a run)
    REQUEST     //!< the island asked for the chunk before it completed
};

/**
 * @ingroup wan-training
 * @param cause an eviction cause
 * @return "completion", "timeout", "conflict", "flush" or "request"
 */
std::string FpgaEvictionName(FpgaEviction cause);

/**
 * @ingroup wan-training
 * @brief A (partial) sum that leaves the FPGA towards its island.
 */
struct FpgaPartialSum
{
    FpgaChunkId id;            //!< the chunk
    int64_t sum{0};            //!< sum of the contributions it holds (fixed point)
    uint32_t contributions{0}; //!< how many contributions it holds
    uint32_t expected{0};      //!< how many complete the chunk
    uint32_t bytes{0};         //!< chunk size (the sum is as large as one contribution)
    FpgaEviction cause{FpgaEviction::COMPLETION}; //!< why it left
    WanSourceSet sources;         //!< which senders it holds (positions in the clique)
    WanGaloisRing::Upper upper{}; //!< a parity symbol's words 1 to 7, summed (zeros for data)
};

/**
 * @ingroup wan-training
 * @brief The edge FPGA's HBM slot table: in-flight partial sums keyed by a
 * hash of the chunk identifier.
 *
 * A contribution goes to slot (hash(round, clique) + chunk) mod N: each
 * clique's stream of a round starts at a slot its round and clique hash to,
 * and its chunks take the slots after it in turn, so that chunks fewer than
 * N apart never share a slot (successive chunks that overlap, when a
 * receiver's arrivals are skewed by more than a chunk's time, each keep
 * their own).  An empty slot takes it; a slot holding the same chunk adds
 * it; a slot holding another chunk is evicted first (conflict, forwarding
 * its partial sum).  A slot is evicted on
 * completion when it holds all expected contributions, and on timeout
 * `timeout` seconds after its first contribution.  Every contribution leaves
 * in exactly one forwarded sum, so the island, which adds partial sums,
 * ends with the exact total.
 *
 * After a conflict or timeout has forwarded part of a chunk, the table
 * remembers (for the last `memory` such chunks) how many contributions have
 * left, so that the chunk's next slot completes when the rest is in instead
 * of waiting for its timeout.
 *
 * Only occupied slots use memory, so a large HBM costs nothing until used.
 */
class FpgaSlotTable
{
  public:
    /// How long an FPGA without memory holds a chunk on chip waiting for its
    /// other contributions by default, seconds (FpgaAggregator's
    /// LineRateWindow, PlannerConfig::lineRateWindow)
    static constexpr double DEFAULT_LINE_RATE_WINDOW = 5e-6;
    /// Rate at which an FPGA without memory fills its line-rate table by
    /// default, bit/s (FpgaAggregator's LineRate, PlannerConfig::lineRateBps)
    static constexpr double DEFAULT_LINE_RATE = 100e9;

    /**
     * @brief The slots of an FPGA without memory: as many chunks as the line
     * rate brings in during the window, at least one.
     * @param lineRateBps the line rate, bit/s, > 0
     * @param windowSeconds the line-rate window, > 0
     * @param slotBytes bytes per slot (one chunk), > 0
     * @return ceil(lineRate x window / 8 / slotBytes), at least 1
     */
    static uint64_t LineRateSlots(double lineRateBps, double windowSeconds, double slotBytes);

    /**
     * @param nSlots number of slots (HBM bytes / slot size), >= 1
     * @param timeoutSeconds slot lifetime, > 0
     * @param memory chunks whose early-forwarded contributions are
     *        remembered (0: none)
     */
    FpgaSlotTable(uint64_t nSlots, double timeoutSeconds, uint32_t memory = 4096);

    /**
     * @brief Adds one sender's contribution to a chunk.
     * @param id the chunk
     * @param value the contribution, a fixed-point integer
     *        (WanContribution::ToFixed), added with wrap-around
     * @param bytes chunk size
     * @param expected contributions that complete the chunk, >= 1
     * @param now current time, seconds
     * @param sources the contribution's sender (its position in the
     *        clique), added to the slot's so the island knows whose
     *        contributions a sum holds (empty: not tracked)
     * @param upper a parity symbol's words 1 to 7 (WanParityCode), added
     *        word by word with wrap-around like the value (zeros for data)
     * @return the sums this forwards: a conflict victim and/or this chunk on
     *         completion, in that order
     */
    std::vector<FpgaPartialSum> Add(const FpgaChunkId& id,
                                    int64_t value,
                                    uint32_t bytes,
                                    uint32_t expected,
                                    double now,
                                    const WanSourceSet& sources = WanSourceSet(),
                                    const WanGaloisRing::Upper& upper = WanGaloisRing::Upper{});
    /**
     * @param now current time, seconds
     * @return the sums of every slot whose timeout has passed, oldest first
     */
    std::vector<FpgaPartialSum> Expire(double now);
    /** @return the sums of every occupied slot, emptying the table */
    std::vector<FpgaPartialSum> Flush();
    /**
     * @brief Releases one chunk's slot before it completes, because its
     * island asked for the chunk (REQUEST eviction).
     * @param id the chunk
     * @return its partial sum, or nothing when no slot holds it
     */
    std::vector<FpgaPartialSum> Release(const FpgaChunkId& id);
    /**
     * @param id a chunk
     * @param position a sender
     * @return true when a slot holds the chunk without that sender's
     *         contribution, and no earlier partial sum of it held it either
     */
    bool Lacks(const FpgaChunkId& id, uint32_t position) const;
    /**
     * @brief Keeps a chunk's slot at least until `expiry` (while a repair of
     * it is awaited).
     * @param id the chunk
     * @param expiry the new timeout instant, seconds (an earlier one is kept)
     * @return false when no slot holds the chunk
     */
    bool Extend(const FpgaChunkId& id, double expiry);
    /** @return the earliest time a slot times out (+infinity if none) */
    double GetNextExpiry() const;

    /** @return the number of slots */
    uint64_t GetNSlots() const;
    /** @return the slot lifetime */
    double GetTimeout() const;
    /**
     * @param timeoutSeconds the lifetime of the slots opened from now on, > 0
     *        (a re-planned round may need longer: its arrivals skew more)
     */
    void SetTimeout(double timeoutSeconds);
    /** @return occupied slots */
    uint64_t GetOccupancy() const;
    /** @return the most slots ever occupied at once */
    uint64_t GetPeakOccupancy() const;
    /**
     * @param cause an eviction cause
     * @return how many evictions had that cause
     */
    uint64_t GetEvictions(FpgaEviction cause) const;
    /**
     * @param id a chunk
     * @return the slot it maps to: (hash(round, clique) + chunk) mod N
     */
    uint64_t SlotOf(const FpgaChunkId& id) const;

  private:
    /// An occupied slot.
    struct Slot
    {
        FpgaChunkId id;               //!< chunk held
        int64_t sum{0};               //!< partial sum (fixed point)
        uint32_t contributions{0};    //!< contributions held
        uint32_t bytes{0};            //!< chunk size
        uint32_t expected{0};         //!< contributions that complete it
        WanSourceSet sources;         //!< senders held (positions in the clique)
        WanGaloisRing::Upper upper{}; //!< a parity symbol's words 1 to 7, summed
        double expiry{0};             //!< timeout instant
        uint64_t generation{0};       //!< distinguishes refills of one slot
    };

    /**
     * @param id a chunk
     * @return the slot holding it, or nullptr
     */
    const Slot* Holding(const FpgaChunkId& id) const;
    /// @copydoc Holding(const FpgaChunkId&) const
    Slot* Holding(const FpgaChunkId& id);
    /// Removes an occupied slot and returns its sum.
    FpgaPartialSum Evict(uint64_t index, FpgaEviction cause);

    /// Hash of a chunk identifier (for the chunks remembered; slots are
    /// chosen by SlotOf).
    struct IdHash
    {
        /**
         * @param id a chunk
         * @return its hash
         */
        size_t operator()(const FpgaChunkId& id) const;
    };

    uint64_t m_nSlots;                          //!< slots
    double m_timeout;                           //!< slot lifetime
    std::unordered_map<uint64_t, Slot> m_slots; //!< occupied slots by index
    /// (expiry, slot index, generation), earliest first; stale entries skipped
    using Expiry = std::tuple<double, uint64_t, uint64_t>;
    std::priority_queue<Expiry, std::vector<Expiry>, std::greater<>> m_expiries;
    uint32_t m_memory; //!< remembered chunks

    /// What of a chunk already left in partial sums.
    struct Early
    {
        uint32_t count{0};    //!< contributions
        WanSourceSet sources; //!< their senders
    };

    std::unordered_map<FpgaChunkId, Early, IdHash> m_early; //!< chunks already out in part
    std::deque<FpgaChunkId> m_earlyOrder;                   //!< oldest remembered first
    uint64_t m_nextGeneration{0};                           //!< generation counter
    uint64_t m_peak{0};                                     //!< peak occupancy
    uint64_t m_evictions[5]{0, 0, 0, 0, 0};                 //!< evictions by cause
};

} // namespace ns3

#endif /* FPGA_SLOT_TABLE_H */
