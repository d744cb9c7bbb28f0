/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_CONTRIBUTION_H
#define WAN_CONTRIBUTION_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The contribution encoding of the packet level and its exactness
 * check, in one place.
 *
 * The payload of a chunk stays virtual; its WanChunkHeader carries one real
 * number, the sender's contribution to that chunk: the sender's value times
 * (chunk + 1).  Every island's value is distinct and the numbers stay small
 * integers, so sums of any order are exact in binary floating point and an
 * island that received each peer's contribution to each chunk exactly once
 * ends with ExpectedSum, and with nothing else.
 *
 * On the wire a contribution is a fixed-point integer (FRACTION_BITS
 * fractional bits, two's complement, 64 bits), as in-network aggregation
 * switches carry gradients: the FPGA sums integers with wrap-around, so a
 * sum's value does not depend on the order it was added in, and sums may
 * overflow and still be subtracted back exactly (parity, WanParityDecoder).
 */
class WanContribution
{
  public:
    /**
     * @param city an island's city index
     * @return the value the experiments give it: city + 1 (distinct, non-zero)
     */
    static double IslandValue(uint32_t city);
    /**
     * @param senderValue the sender's value
     * @param chunk the chunk index (from 0)
     * @return the contribution to that chunk: senderValue x (chunk + 1)
     */
    static double Value(double senderValue, uint32_t chunk);
    /**
     * @param peerValues the values of an island's peers (itself excluded)
     * @param chunks chunks per state
     * @return the sum of every peer's contribution to every chunk
     */
    static double ExpectedSum(const std::vector<double>& peerValues, uint32_t chunks);
    /**
     * @param sum what an island summed
     * @param delivered the contributions it counted
     * @param peerValues its peers' values
     * @param chunks chunks per state
     * @return true when it holds every peer's contribution to every chunk,
     *         each once: delivered = peers x chunks and sum = ExpectedSum
     */
    static bool IsExact(double sum,
                        uint64_t delivered,
                        const std::vector<double>& peerValues,
                        uint32_t chunks);

    /// Fractional bits of the wire's fixed-point values.
    static constexpr int FRACTION_BITS = 16;
    /**
     * @param value a real number
     * @return its fixed-point integer, rounded to the nearest multiple of
     *         2^-FRACTION_BITS (wrapped modulo 2^64 when out of range)
     */
    static int64_t ToFixed(double value);
    /**
     * @param fixed a fixed-point integer
     * @return its real value
     */
    static double FromFixed(int64_t fixed);
    /**
     * @param a a fixed-point integer
     * @param b another
     * @return a + b modulo 2^64 (the FPGA's adder: wraps, never traps)
     */
    static int64_t Add(int64_t a, int64_t b);
    /**
     * @param a a fixed-point integer
     * @param b another
     * @return a - b modulo 2^64
     */
    static int64_t Subtract(int64_t a, int64_t b);
};

} // namespace ns3

#endif /* WAN_CONTRIBUTION_H */
