/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARITY_SIZER_H
#define WAN_PARITY_SIZER_H

#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief How many parity chunks a block of k data chunks needs for a given
 * erasure rate: the least r with P(Binomial(k + r, q) > r) <= epsilon, the
 * probability that the block loses more of its k + r chunks than an MDS
 * code with r parities rebuilds (WanParityCode), with each chunk lost
 * independently with probability q.  This is how WebRTC sizes its forward
 * error correction from a loss table.  The binomial tail comes from GSL.
 */
class WanParitySizer
{
  public:
    /**
     * @param n chunks in the block, data and parity, at least 1
     * @param r parities, below n
     * @param q erasure probability of a chunk, 0 to 1
     * @return P(Binomial(n, q) > r): the block cannot be rebuilt
     *         (std::invalid_argument naming the bad value otherwise)
     */
    static double FailureProbability(uint32_t n, uint32_t r, double q);

    /**
     * @brief The same tail when a block's erasures are correlated (bursts):
     * the count is beta-binomial with mean n q and variance n q (1 - q) (1 +
     * (n - 1) rho), rho the correlation of two chunks' erasures within a
     * block (0: the binomial).  Its log-beta and log-binomial terms come
     * from GSL.
     * @param n chunks in the block, at least 1
     * @param r parities, below n
     * @param q erasure probability of a chunk, 0 to 1
     * @param rho correlation, 0 to below 1
     * @return P(X > r) (std::invalid_argument naming the bad value otherwise)
     */
    static double FailureProbability(uint32_t n, uint32_t r, double q, double rho);

    /**
     * @param k data chunks per block, at least 1
     * @param q erasure probability of a chunk, 0 to below 1
     * @param epsilon the block failure probability allowed, above 0, below 1
     * @param maxParities most parities allowed, at least 1
     * @param rho correlation of a block's erasures (0: independent)
     * @return the least r in 1 .. maxParities with FailureProbability(k +
     *         r, r, q, rho) <= epsilon, or maxParities when none reaches it
     *         (std::invalid_argument naming the bad value)
     */
    static uint32_t Parities(uint32_t k,
                             double q,
                             double epsilon,
                             uint32_t maxParities,
                             double rho = 0);

    /**
     * @param k data chunks per block, at least 1
     * @param q erasure probability of a chunk, 0 to below 1
     * @param epsilon the block failure probability allowed
     * @param maxParities most parities allowed
     * @return whether some r up to maxParities reaches epsilon
     */
    static bool Reaches(uint32_t k, double q, double epsilon, uint32_t maxParities);
};

} // namespace ns3

#endif /* WAN_PARITY_SIZER_H */
