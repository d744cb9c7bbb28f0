/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MIXING_ANALYSIS_H
#define MIXING_ANALYSIS_H

#include "clique-schedule.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A dense matrix, row-major: m[i][j].
 */
using WanMatrix = std::vector<std::vector<double>>;

/**
 * @ingroup wan-training
 * @brief Conventions of the disagreement measure (see the module docs).
 */
struct MixingOptions
{
    /// Count the newborn term h = 0 (S_p(0) = 1 when normalised) in A.
    bool includeNewborn{true};
    /// Divide each generation's error by its newborn value, so that it starts
    /// at 1; false uses the raw L1 distance to the target.
    bool normalise{true};
    /// Forgetting discount rho in (0, 1]: A sums rho^h S_p(h).
    double forgetting{1.0};
    /// Target shares pi (empty: uniform 1/N); non-negative, summing to 1.
    std::vector<double> target;
    /// Give up (A = infinity) when the error has not fallen below
    /// `tolerance` after this many rounds.
    uint32_t maxRounds{100000};
    /// The error below which a generation counts as fully mixed.
    double tolerance{1e-12};
    /// Accept matrices whose rows sum to 1 but whose columns need not (the
    /// realised mixing of islands that averaged without some contributions):
    /// a generation's error is then measured against the share of it that
    /// the islands come to agree on (see MixingAnalysis).  Needs the
    /// uniform target.
    bool rowStochastic{false};
};

/**
 * @ingroup wan-training
 * @brief Information diffusion of a schedule of mixing matrices.
 *
 * Round k applies W(k mod P).  An update born at island j just before round p
 * holds, after h rounds, the share Phi_ij(p, h) = [W(p+h-1) ... W(p)]_ij at
 * island i.  Its error is e_j(p, h) = sum_i |Phi_ij - pi_i| / (2 (1 - pi_j))
 * (1 for a newborn update, 0 at perfect mixing), S_p(h) is the mean over j,
 * and the average lifetime disagreement is
 * A = (1/P) sum_p sum_h rho^h S_p(h).
 *
 * Row-stochastic matrices (MixingOptions::rowStochastic): an island that
 * averages without some peers' contributions gives a W whose columns need
 * not sum to 1.  Repeated, such rounds still bring every island to one
 * state (a consensus), but it weighs the generation born at j by a share
 * c_j(p) that need not be 1/N: the rows of Phi(p, h) all tend to c(p).
 * Disagreement is then the distance to that consensus, e_j(p, h) = sum_i
 * |Phi_ij - c_j(p)| / (1 + (N - 2) c_j(p)) (again 1 for a newborn update, 0
 * once the islands agree), and the consensus skew, half the L1 distance of
 * c(p) to the uniform shares averaged over p, says how unevenly the
 * consensus weighs the islands.  When every W is doubly stochastic, c_j =
 * 1/N and both measures are the ones above; when the islands never agree
 * (two groups that never exchange), A is infinite.
 */
class MixingAnalysis
{
  public:
    /**
     * @param mixing one doubly-stochastic N x N matrix per round of the period
     *        (row-stochastic with MixingOptions::rowStochastic)
     * @param options the measure's conventions
     */
    explicit MixingAnalysis(std::vector<WanMatrix> mixing, MixingOptions options = {});

    /**
     * @brief Uniform clique averaging: W_ij = 1/|C| when i and j share clique C.
     * @param schedule the schedule
     * @param nIslands number of islands N
     * @param options the measure's conventions
     * @return the analysis of the schedule
     */
    static MixingAnalysis FromSchedule(const CliqueSchedule& schedule,
                                       uint32_t nIslands,
                                       MixingOptions options = {});
    /**
     * @param round a partition of the islands
     * @param nIslands N
     * @return its uniform mixing matrix
     */
    static WanMatrix UniformMixing(const CliqueSchedule::Round& round, uint32_t nIslands);

    /** @return N */
    uint32_t GetNIslands() const;
    /** @return the period P */
    uint32_t GetPeriod() const;
    /**
     * @param k round index (modulo P)
     * @return W(k)
     */
    const WanMatrix& GetMixingMatrix(uint32_t k) const;
    /**
     * @param p phase at which the generation is born
     * @param h rounds since its birth
     * @return Phi(p, h)
     */
    WanMatrix GetDiffusion(uint32_t p, uint32_t h) const;
    /**
     * @param p phase
     * @param hMax last round
     * @return S_p(0), ..., S_p(hMax)
     */
    std::vector<double> GetSurvivalCurve(uint32_t p, uint32_t hMax) const;
    /**
     * @param hMax last round
     * @return the mean over phases of S_p(h), h = 0..hMax
     */
    std::vector<double> GetMeanSurvivalCurve(uint32_t hMax) const;
    /**
     * @return A, or +infinity when the schedule never mixes fully (with
     *         rho = 1)
     */
    double GetAverageDisagreement() const;
    /**
     * @return the rounds after which every generation's error is below the
     *         tolerance (maxRounds + 1 if never)
     */
    uint32_t GetMixingRounds() const;
    /**
     * @param p phase
     * @return c(p): the share of the generation born at each island at phase
     *         p that every island ends up holding (1/N each when every W is
     *         doubly stochastic)
     */
    std::vector<double> GetConsensusShares(uint32_t p) const;
    /**
     * @return half the L1 distance of the consensus shares to 1/N, averaged
     *         over the phases: 0 when every island's update weighs the same,
     *         1 - 1/N at most (NaN when the islands never agree)
     */
    double GetConsensusSkew() const;
    /** @return false when the islands never come to one state */
    bool HasConsensus() const;

  private:
    /// Computes A and the mixing horizon (once).
    void ComputeArea() const;
    /// Computes the consensus shares of every phase (row-stochastic matrices).
    void ComputeConsensus();
    /**
     * @param p a phase
     * @return its consensus shares, or nullptr when every W is doubly stochastic
     */
    const std::vector<double>* ConsensusOf(uint32_t p) const;

    std::vector<WanMatrix> m_mixing;              //!< W(0..P-1)
    MixingOptions m_options;                      //!< conventions
    std::vector<double> m_target;                 //!< pi
    std::vector<std::vector<double>> m_consensus; //!< c(p) (empty: doubly stochastic)
    bool m_agrees{true};                          //!< the islands come to one state
    mutable bool m_areaDone{false};               //!< A computed
    mutable double m_area{0};                     //!< A
    mutable uint32_t m_rounds{0};                 //!< mixing horizon
};

} // namespace ns3

#endif /* MIXING_ANALYSIS_H */
