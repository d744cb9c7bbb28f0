/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_LOSS_ESTIMATOR_H
#define WAN_LOSS_ESTIMATOR_H

#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A sender's estimate of the erasure rate its stream meets, from what
 * its receivers measured and carried back.
 *
 * Each report names a round, the receiver that measured it and, for one
 * block of the stream, how many data chunks it carried and how many of them
 * had not arrived when the block's first parity did (WanChunkHeader's
 * REPORT).  For a new round, the estimate takes each receiver's reports of
 * the last `window` rounds before it (those that have come back), the upper
 * end of the Wilson score interval of its rate at the given confidence (at
 * confidence 0, the measured rate itself), and the worst receiver (the
 * parity must rebuild the blocks of every receiver of the stream).  Bursts
 * make a block's erasures come together: the blocks' counts then vary more
 * than a binomial's, and the estimate measures by how much, as the
 * correlation rho of two chunks' erasures within a block (the method of
 * moments over every block in the window, about the pooled rate p:
 * rho = sum((x - n p)^2 - n p (1 - p)) / sum(n (n - 1) p (1 - p)), at least
 * 0, at most 0.5).  The island sizes its parity for that rate and
 * correlation (WanParitySizer: the least r with P(X > r) <= epsilon, X
 * binomial, or beta-binomial when rho > 0), as WebRTC sizes its forward
 * error correction from the loss its receivers report.
 */
class WanLossEstimator
{
  public:
    /// The estimate for a round.
    struct Estimate
    {
        double rate{0};        //!< the worst receiver's upper rate
        uint32_t receivers{0}; //!< receivers that reported in the window
        uint64_t chunks{0};    //!< data chunks reported on, all receivers
        uint64_t erasures{0};  //!< of which missing
        uint32_t blocks{0};    //!< blocks reported on
        double dispersion{0};  //!< correlation of a block's erasures (0: independent)
    };

    /**
     * @param window rounds before a round whose reports count, at least 1
     * @param confidence of the Wilson interval, 0 to below 1 (0: the
     *        measured rate itself, no margin)
     * @throws std::invalid_argument naming the bad value
     */
    WanLossEstimator(uint32_t window, double confidence);

    /**
     * @brief A receiver's measurement of one block of the stream.
     * @param round the round of the block
     * @param receiver who measured it (any key, one per receiver)
     * @param chunks data chunks of the block
     * @param erasures of which missing, at most chunks (std::invalid_argument
     *        otherwise)
     */
    void AddReport(uint32_t round, uint32_t receiver, uint32_t chunks, uint32_t erasures);

    /**
     * @brief The rate a round is sized for when no report of its window has
     * come back (a first round): an estimate with that rate, no receivers
     * and independent erasures.
     * @param rate a loss rate in [0, 1); below 0: none (GetEstimate returns
     *        nothing without reports, the default)
     * @throws std::invalid_argument for a rate of 1 or more, or not a number
     */
    void SetPrior(double rate);

    /**
     * @param round the round to size
     * @return the estimate from the reports of rounds round - window to
     *         round - 1; when none came back, the prior's (SetPrior), or
     *         nothing
     */
    std::optional<Estimate> GetEstimate(uint32_t round) const;

    /**
     * @param erasures chunks missing
     * @param chunks chunks
     * @param z the normal quantile of the confidence
     * @return the upper end of the Wilson score interval of erasures /
     *         chunks, below 1
     */
    static double WilsonUpper(uint64_t erasures, uint64_t chunks, double z);

    /**
     * @param blocks each block's (chunks, erasures)
     * @param erasures their erasures
     * @param chunks their chunks, above 0
     * @return the correlation of a block's erasures, by the method of
     *         moments about the pooled rate, 0 to kMaxDispersion
     */
    static double Dispersion(const std::vector<std::pair<uint32_t, uint32_t>>& blocks,
                             uint64_t erasures,
                             uint64_t chunks);

    /// The highest correlation estimated (a handful of blocks say little more).
    static constexpr double kMaxDispersion = 0.5;

  private:
    uint32_t m_window;  //!< rounds counted
    double m_z;         //!< normal quantile of the confidence
    double m_prior{-1}; //!< rate without reports (below 0: none)
    /// (round, receiver) -> each block's (chunks, erasures)
    std::map<std::pair<uint32_t, uint32_t>, std::vector<std::pair<uint32_t, uint32_t>>> m_reports;
};

} // namespace ns3

#endif /* WAN_LOSS_ESTIMATOR_H */
