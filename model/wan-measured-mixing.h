/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_MEASURED_MIXING_H
#define WAN_MEASURED_MIXING_H

#include "mixing-analysis.h"
#include "wan-contribution-ledger.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The realised mixing of a packet-level run: the mixing matrix of
 * each round as the islands actually averaged, and A of them.
 *
 * Convention: an island averages chunk by chunk, its own state and the
 * peers' contributions it holds for that chunk, each with weight 1 / (1 + h),
 * h being the number of peers it holds for the chunk.  Its row of the round's
 * realised matrix is the mean of those per-chunk rows over the C chunks:
 * with n_h(j) the chunks holding exactly h peers and j's contribution
 * (WanHeldHistogram; j the island itself: every chunk with h),
 * W_ij = sum_h n_h(j) / ((1 + h) C).  An island that does not mix in the
 * round keeps its state (W_ii = 1).  Without loss every chunk holds every
 * peer, and W is exactly the planned uniform clique matrix (1 / |C|).
 *
 * Each row sums to 1, but a lost contribution takes weight from its sender's
 * column and gives it to the receiver and the peers it did hear: the matrix
 * is row-stochastic, not doubly stochastic.  Its A is MixingAnalysis's with
 * MixingOptions::rowStochastic: disagreement measured against the state
 * the islands come to agree on, with the consensus skew beside it.
 */
class WanMeasuredMixing
{
  public:
    /**
     * @param nIslands N, >= 1
     * @param rounds the rounds, >= 1; each starts as the identity (no mixing)
     */
    WanMeasuredMixing(uint32_t nIslands, uint32_t rounds);

    /**
     * @param averaged what an island averaged (WanLedgerAccount::averaged)
     * @param members its clique's size
     * @param position its position in the clique
     * @return its realised weight on each clique position; a histogram that
     *         does not fit the clique (no chunk, a count or position out of
     *         range, a group whose counts do not add up) throws
     *         std::invalid_argument
     */
    static std::vector<double> Weights(const WanHeldHistogram& averaged,
                                       uint32_t members,
                                       uint32_t position);
    /**
     * @brief Sets one island's row of one round.
     * @param round the round
     * @param members the clique's islands by position (ascending city indices)
     * @param position the island's position among them
     * @param averaged what it averaged
     */
    void SetRow(uint32_t round,
                const std::vector<uint32_t>& members,
                uint32_t position,
                const WanHeldHistogram& averaged);

    /**
     * @param round a round
     * @return its realised mixing matrix
     */
    const WanMatrix& GetMatrix(uint32_t round) const;
    /**
     * @param options the conventions of A (rowStochastic is set here)
     * @return the analysis of the rounds taken as one period
     */
    MixingAnalysis Analyse(MixingOptions options = {}) const;

  private:
    /// Throws std::invalid_argument unless the round is one of those measured.
    void CheckRound(uint32_t round) const;

    std::vector<WanMatrix> m_rounds; //!< W of each round
};

} // namespace ns3

#endif /* WAN_MEASURED_MIXING_H */
