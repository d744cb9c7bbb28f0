/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_SOURCE_SET_H
#define WAN_SOURCE_SET_H

#include <cstdint>
#include <vector>

#if __cplusplus >= 202002L
#include <bit>
#endif

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A set of clique positions: the senders whose contributions a chunk
 * or a sum holds.
 *
 * One bit per position, as many as the clique has.  Positions 0 to 63 live
 * in the object itself, so a clique of up to 64 members costs no heap
 * allocation; further positions grow a vector of 64-bit words (memory grows
 * with the highest position held, 8 bytes per 64 positions).  The set is
 * kept canonical (no trailing empty word), so equal sets compare equal
 * whatever the order they were built in.
 *
 * The chunk header carries it as a bitmap of one element per position
 * (FromBits and ToBits convert).
 */
class WanSourceSet
{
  public:
    /// Positions per storage word.
    static constexpr uint32_t WORD_BITS = 64;

    WanSourceSet() = default;

    /**
     * @param position a position
     * @return the set holding only that position
     */
    static WanSourceSet Of(uint32_t position);
    /**
     * @param positions positions, in any order (repeats allowed)
     * @return the set holding them
     */
    static WanSourceSet FromPositions(const std::vector<uint32_t>& positions);
    /**
     * @param bits one element per position, true where the position is held
     * @return the set of the positions held
     */
    static WanSourceSet FromBits(const std::vector<bool>& bits);
    /**
     * @param width elements wanted
     * @return one element per position, max(width, GetSpan()) of them
     */
    std::vector<bool> ToBits(uint32_t width) const;

    /** @param position a position to add */
    void Set(uint32_t position);
    /**
     * @param position a position
     * @return true when the set holds it
     */
    bool Test(uint32_t position) const;
    /** @return the number of positions held */
    uint32_t Count() const;
    /** @return true when no position is held */
    bool IsEmpty() const;
    /** @return one more than the highest position held (0 when empty) */
    uint32_t GetSpan() const;
    /**
     * @param other another set
     * @return true when the two share a position
     */
    bool Intersects(const WanSourceSet& other) const;
    /**
     * @brief Adds every position of another set (union).
     * @param other another set
     * @return this set
     */
    WanSourceSet& operator|=(const WanSourceSet& other);
    /**
     * @param other another set
     * @return true when both hold the same positions
     */
    bool operator==(const WanSourceSet& other) const;
    /**
     * @param other another set
     * @return true when they differ in a position
     */
    bool operator!=(const WanSourceSet& other) const;

    /** @return the storage words in use (0 when empty) */
    uint32_t GetWordCount() const;
    /**
     * @param k a word index
     * @return positions 64 k to 64 k + 63 as bits (0 beyond the set)
     */
    uint64_t GetWord(uint32_t k) const;
    /**
     * @brief Replaces positions 64 k to 64 k + 63.
     * @param k a word index
     * @param bits the positions held, bit b for position 64 k + b
     */
    void SetWord(uint32_t k, uint64_t bits);

    /**
     * @brief Calls f(position) for every position held, in ascending order.
     * @param f the function
     */
    template <typename F>
    void ForEach(F&& f) const
    {
        const uint32_t words = GetWordCount();
        for (uint32_t k = 0; k < words; ++k)
        {
            for (uint64_t w = GetWord(k); w != 0; w &= w - 1)
            {
                f(k * WORD_BITS + LowestBit(w));
            }
        }
    }

  private:
    /// @return the index of the lowest set bit of w (w != 0)
    static uint32_t LowestBit(uint64_t w)
    {
#if __cplusplus >= 202002L
        return static_cast<uint32_t>(std::countr_zero(w));
#else
        return static_cast<uint32_t>(__builtin_ctzll(w));
#endif
    }

    /// Drops the trailing empty words of m_high.
    void Trim();

    uint64_t m_low{0};            //!< positions 0 to 63
    std::vector<uint64_t> m_high; //!< positions 64 and up, 64 per word
};

} // namespace ns3

#endif /* WAN_SOURCE_SET_H */
