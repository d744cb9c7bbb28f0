/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_WORKLOAD_H
#define WAN_TRAINING_WORKLOAD_H

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The random isotropic quadratics of a training workload.
 */
struct WanQuadraticSettings
{
    uint32_t islands{9};    //!< N, at least 1
    uint32_t dimension{10}; //!< d, at least 1
    double curvature{1};    //!< lambda, positive
    /// Spread of the islands' optima: c_i = c + heterogeneity g_i, g_i
    /// standard normal (0: every island has the optimum c); non-negative.
    double heterogeneity{0};
    uint64_t seed{1}; //!< seed of c and the g_i
};

/**
 * @ingroup wan-training
 * @brief The synthetic logistic regression of a training workload.
 */
struct WanLogisticSettings
{
    uint32_t islands{9};           //!< N, at least 1
    uint32_t features{2};          //!< features per sample, at least 1
    uint32_t samplesPerIsland{64}; //!< samples of each island, at least 1
    /// Distance between the two classes' means (at +-separation/2 along
    /// (1, ..., 1) / sqrt(features)); non-negative.
    double separation{2};
    /// Probability that a sample's label is flipped, in [0, 1].
    double flippedLabels{0.1};
    /// Share of class 1 at island 0, in [0, 1]; the share falls linearly to
    /// 1 - skew at island N - 1 (0.5 everywhere: identical shares).
    double skew{0.9};
    /// L2 penalty mu on the weights, non-negative.
    double regularisation{1e-3};
    uint64_t seed{1}; //!< seed of the samples and the flips
};

/**
 * @ingroup wan-training
 * @brief What each island minimises in decentralised training: its local
 * loss f_i and its gradient, on a model x of GetDimension() numbers.
 *
 * - Quadratic (after Vogels et al., "Beyond spectral gap", NeurIPS 2022):
 *   f_i(x) = (lambda / 2) ||x - c_i||^2.
 * - Logistic regression: island i holds samples (a_k, y_k), a_k the features
 *   followed by a constant 1 (the bias), y_k in {-1, +1};
 *   f_i(x) = (1 / n_i) sum_k ln(1 + exp(-y_k x.a_k)) + (mu / 2) ||x||^2.
 *   Class y's features are normal with mean y (separation / 2) u, u =
 *   (1, ..., 1) / sqrt(features), and identity covariance.
 *
 * Random workloads draw from GSL's mt19937 (gsl_rng_set with the seed) and
 * gsl_ran_gaussian / gsl_rng_uniform in a fixed order, so a seed gives the
 * same numbers on every platform with the same GSL.
 */
class WanTrainingWorkload
{
  public:
    /// The family of the local losses.
    enum class Kind
    {
        QUADRATIC, //!< (lambda / 2) ||x - c_i||^2
        LOGISTIC,  //!< regularised logistic loss on the island's samples
    };

    /**
     * @brief Quadratics with the given optima.
     * @param centres c_i, one per island, all of one dimension d >= 1
     * @param curvature lambda, positive
     * @return the workload; bad input throws std::invalid_argument
     */
    static WanTrainingWorkload Quadratic(const std::vector<std::vector<double>>& centres,
                                         double curvature);
    /**
     * @brief Random quadratics: c is standard normal in d dimensions, then
     * the g_i in island order.
     * @param settings N, d, lambda, heterogeneity and seed
     * @return the workload; bad input throws std::invalid_argument
     */
    static WanTrainingWorkload RandomQuadratic(const WanQuadraticSettings& settings);
    /**
     * @brief Logistic regression on two Gaussian classes: island by island,
     * sample by sample, a uniform draw picks the class (1 with the island's
     * share), the features are drawn, then a uniform draw flips the label.
     * @param settings the data set's shape and seed
     * @return the workload; bad input throws std::invalid_argument
     */
    static WanTrainingWorkload Logistic(const WanLogisticSettings& settings);

    /** @return the family of the local losses */
    Kind GetKind() const;
    /** @return N */
    uint32_t GetNIslands() const;
    /** @return the model's dimension: d, or the features plus the bias */
    uint32_t GetDimension() const;
    /** @return lambda (quadratic), 0 (logistic) */
    double GetCurvature() const;
    /**
     * @param island i
     * @return c_i (quadratic); empty (logistic)
     */
    std::vector<double> GetCentre(uint32_t island) const;
    /**
     * @param island i
     * @return the share of its samples labelled +1 (after the flips);
     *         0 for a quadratic
     */
    double GetPositiveShare(uint32_t island) const;

    /**
     * @param island i
     * @param x a model of GetDimension() numbers
     * @return f_i(x)
     */
    double Loss(uint32_t island, const std::vector<double>& x) const;
    /**
     * @param x a model
     * @return (1 / N) sum_i f_i(x), the global objective
     */
    double GlobalLoss(const std::vector<double>& x) const;
    /**
     * @param island i
     * @param x a model
     * @param gradient set to the gradient of f_i at x (resized to fit)
     */
    void Gradient(uint32_t island,
                  const std::vector<double>& x,
                  std::vector<double>& gradient) const;
    /**
     * @param x a model
     * @param gradient set to the gradient of (1 / N) sum_i f_i at x
     */
    void GlobalGradient(const std::vector<double>& x, std::vector<double>& gradient) const;
    /**
     * @brief x*, the minimiser of (1 / N) sum_i f_i: the mean of the c_i
     * (quadratic), or GSL's BFGS as for GetMinimumLoss (logistic).
     * @return x*
     */
    std::vector<double> GetMinimiser() const;
    /**
     * @brief f* = min_x (1 / N) sum_i f_i(x), the loss training aims at.
     * Quadratic: exact, at the mean of the c_i.  Logistic (strictly convex
     * with mu > 0): GSL's BFGS (gsl_multimin_fdfminimizer_vector_bfgs2) from
     * x = 0 until the gradient's norm is below 1e-10 (at most 10000
     * iterations): f at GetMinimiser().
     * @return f*
     */
    double GetMinimumLoss() const;

  private:
    WanTrainingWorkload() = default;
    /// Throws std::invalid_argument unless the island is one of the workload's.
    void CheckIsland(uint32_t island) const;
    /// Throws std::invalid_argument unless the island and the model fit.
    void CheckArguments(uint32_t island, const std::vector<double>& x) const;

    Kind m_kind{Kind::QUADRATIC};                //!< the family
    uint32_t m_islands{0};                       //!< N
    uint32_t m_dimension{0};                     //!< the model's dimension
    double m_curvature{0};                       //!< lambda
    double m_regularisation{0};                  //!< mu
    std::vector<double> m_centres;               //!< c_i, N x d row-major
    std::vector<std::vector<double>> m_features; //!< per island, n_i x dimension row-major
    std::vector<std::vector<double>> m_labels;   //!< per island, y_k in {-1, +1}
};

} // namespace ns3

#endif /* WAN_TRAINING_WORKLOAD_H */
