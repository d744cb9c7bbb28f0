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
 * \ingroup wan-training
 * \brief The contribution encoding of the packet level and its exactness
 * check, in one place.
 *
 * The payload of a chunk stays virtual; its WanChunkHeader carries one real
 * number, the sender's contribution to that chunk: the sender's value times
 * (chunk + 1).  Every island's value is distinct and the numbers stay small
 * integers, so sums of any order are exact in binary floating point and an
 * island that received each peer's contribution to each chunk exactly once
 * ends with ExpectedSum, and with nothing else.
 */
class WanContribution
{
  public:
    /**
     * \param city an island's city index
     * \return the value the experiments give it: city + 1 (distinct, non-zero)
     */
    static double IslandValue(uint32_t city);
    /**
     * \param senderValue the sender's value
     * \param chunk the chunk index (from 0)
     * \return the contribution to that chunk: senderValue x (chunk + 1)
     */
    static double Value(double senderValue, uint32_t chunk);
    /**
     * \param peerValues the values of an island's peers (itself excluded)
     * \param chunks chunks per state
     * \return the sum of every peer's contribution to every chunk
     */
    static double ExpectedSum(const std::vector<double>& peerValues, uint32_t chunks);
    /**
     * \param sum what an island summed
     * \param delivered the contributions it counted
     * \param peerValues its peers' values
     * \param chunks chunks per state
     * \return true when it holds every peer's contribution to every chunk,
     *         each once: delivered = peers x chunks and sum = ExpectedSum
     */
    static bool IsExact(double sum,
                        uint64_t delivered,
                        const std::vector<double>& peerValues,
                        uint32_t chunks);
};

} // namespace ns3

#endif /* WAN_CONTRIBUTION_H */
