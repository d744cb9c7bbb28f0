/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "mixing-analysis.h"

#include "wan-training-text.h"

#include "ns3/log.h"

#include <Eigen/Dense>
#include <Eigen/Sparse>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MixingAnalysis");

namespace
{

Eigen::MatrixXd
ToEigen(const WanMatrix& m)
{
    Eigen::MatrixXd e(m.size(), m.size());
    for (size_t i = 0; i < m.size(); ++i)
    {
        for (size_t j = 0; j < m.size(); ++j)
        {
            e(i, j) = m[i][j];
        }
    }
    return e;
}

WanMatrix
FromEigen(const Eigen::MatrixXd& e)
{
    WanMatrix m(e.rows(), std::vector<double>(e.cols()));
    for (Eigen::Index i = 0; i < e.rows(); ++i)
    {
        for (Eigen::Index j = 0; j < e.cols(); ++j)
        {
            m[i][j] = e(i, j);
        }
    }
    return m;
}

/**
 * @param phi the diffusion Phi
 * @param target the target shares pi
 * @param normalise divide each error by that of a newborn update
 * @return the mean error over the generations' sources
 */
double
SurvivalOf(const Eigen::MatrixXd& phi, const std::vector<double>& target, bool normalise)
{
    const auto n = phi.rows();
    double total = 0;
    for (Eigen::Index j = 0; j < n; ++j)
    {
        double e = 0;
        for (Eigen::Index i = 0; i < n; ++i)
        {
            e += std::abs(phi(i, j) - target[i]);
        }
        if (normalise)
        {
            double newborn = 2 * (1 - target[j]);
            e = newborn > 0 ? e / newborn : 0;
        }
        total += e;
    }
    return total / n;
}

/// Entries farther than this from a stochastic matrix's sums are refused.
constexpr double kStochasticEps = 1e-9;

/**
 * @brief Checks one mixing matrix: square, non-negative, rows summing to 1,
 * and columns too unless rows suffice; throws std::invalid_argument.
 * @param w the matrix
 * @param k its round
 * @param n the islands
 * @param rowsOnly columns may sum to anything
 * @return true when its columns sum to 1 as well
 */
bool
CheckMixingMatrix(const WanMatrix& w, size_t k, size_t n, bool rowsOnly)
{
    const std::string where = "mixing matrix W(" + std::to_string(k) + ")";
    if (w.size() != n)
    {
        throw std::invalid_argument(where + " is not " + std::to_string(n) + " x " +
                                    std::to_string(n));
    }
    const std::string needed = rowsOnly ? " is not row stochastic" : " is not doubly stochastic";
    std::vector<double> colSum(n, 0.0);
    for (size_t i = 0; i < n; ++i)
    {
        if (w[i].size() != n)
        {
            throw std::invalid_argument(where + " is not square");
        }
        double rowSum = 0;
        for (size_t j = 0; j < n; ++j)
        {
            if (!(w[i][j] >= 0) || !std::isfinite(w[i][j]))
            {
                throw std::invalid_argument(where + " has a negative or invalid entry");
            }
            rowSum += w[i][j];
            colSum[j] += w[i][j];
        }
        if (std::abs(rowSum - 1) > kStochasticEps)
        {
            throw std::invalid_argument(where + needed + " (row " + std::to_string(i) +
                                        " sums to " + wantext::Num(rowSum) + ")");
        }
    }
    for (double c : colSum)
    {
        if (std::abs(c - 1) > kStochasticEps)
        {
            if (!rowsOnly)
            {
                throw std::invalid_argument(where + needed + " (a column does not sum to 1)");
            }
            return false;
        }
    }
    return true;
}

/// Checks target shares: n non-negative numbers summing to 1.
void
CheckTarget(const std::vector<double>& target, size_t n)
{
    double sum = 0;
    for (double t : target)
    {
        if (!(t >= 0))
        {
            throw std::invalid_argument("target shares must be non-negative");
        }
        sum += t;
    }
    if (target.size() != n || std::abs(sum - 1) > kStochasticEps)
    {
        throw std::invalid_argument("target shares must be " + std::to_string(n) +
                                    " numbers summing to 1");
    }
}

/**
 * @param phi the diffusion Phi of a generation
 * @param shares the consensus share of each source j
 * @param normalise divide each error by that of a newborn update
 * @return the mean over the sources j of sum_i |Phi_ij - c_j|
 */
double
SurvivalToConsensus(const Eigen::MatrixXd& phi, const std::vector<double>& shares, bool normalise)
{
    const auto n = phi.rows();
    double total = 0;
    for (Eigen::Index j = 0; j < n; ++j)
    {
        const double e = (phi.col(j).array() - shares[j]).abs().sum();
        const double newborn = 1 + (n - 2) * shares[j]; // sum_i |delta_ij - c_j|
        total += normalise ? (newborn > 0 ? e / newborn : 0) : e;
    }
    return total / n;
}

/// @return the error of a generation: to the target, or to its consensus when given
double
ErrorOf(const Eigen::MatrixXd& phi,
        const std::vector<double>& target,
        const std::vector<double>* consensus,
        bool normalise)
{
    return consensus == nullptr ? SurvivalOf(phi, target, normalise)
                                : SurvivalToConsensus(phi, *consensus, normalise);
}

} // namespace

MixingAnalysis::MixingAnalysis(std::vector<WanMatrix> mixing, MixingOptions options)
    : m_mixing(std::move(mixing)),
      m_options(std::move(options))
{
    if (m_mixing.empty())
    {
        throw std::invalid_argument("mixing analysis needs at least one mixing matrix");
    }
    const size_t n = m_mixing[0].size();
    if (n == 0)
    {
        throw std::invalid_argument("mixing matrices must not be empty");
    }
    bool doubly = true;
    for (size_t k = 0; k < m_mixing.size(); ++k)
    {
        doubly = CheckMixingMatrix(m_mixing[k], k, n, m_options.rowStochastic) && doubly;
    }
    if (m_options.rowStochastic && !m_options.target.empty())
    {
        throw std::invalid_argument("non-uniform target shares need doubly-stochastic mixing");
    }
    m_target = m_options.target.empty() ? std::vector<double>(n, 1.0 / n) : m_options.target;
    CheckTarget(m_target, n);
    if (!(m_options.forgetting > 0 && m_options.forgetting <= 1))
    {
        throw std::invalid_argument("forgetting discount must be in (0, 1] (got " +
                                    wantext::Num(m_options.forgetting) + ")");
    }
    if (!(m_options.tolerance > 0))
    {
        throw std::invalid_argument("mixing tolerance must be positive");
    }
    if (!doubly)
    {
        ComputeConsensus();
    }
}

WanMatrix
MixingAnalysis::UniformMixing(const CliqueSchedule::Round& round, uint32_t nIslands)
{
    WanMatrix w(nIslands, std::vector<double>(nIslands, 0.0));
    for (const auto& clique : round)
    {
        for (auto i : clique)
        {
            for (auto j : clique)
            {
                w.at(i).at(j) = 1.0 / clique.size();
            }
        }
    }
    return w;
}

MixingAnalysis
MixingAnalysis::FromSchedule(const CliqueSchedule& schedule,
                             uint32_t nIslands,
                             MixingOptions options)
{
    std::vector<WanMatrix> mixing;
    for (const auto& round : schedule.GetRounds())
    {
        mixing.push_back(UniformMixing(round, nIslands));
    }
    return MixingAnalysis(mixing, std::move(options));
}

uint32_t
MixingAnalysis::GetNIslands() const
{
    return static_cast<uint32_t>(m_mixing[0].size());
}

uint32_t
MixingAnalysis::GetPeriod() const
{
    return static_cast<uint32_t>(m_mixing.size());
}

const WanMatrix&
MixingAnalysis::GetMixingMatrix(uint32_t k) const
{
    return m_mixing[k % m_mixing.size()];
}

WanMatrix
MixingAnalysis::GetDiffusion(uint32_t p, uint32_t h) const
{
    const auto n = GetNIslands();
    Eigen::MatrixXd phi = Eigen::MatrixXd::Identity(n, n);
    for (uint32_t r = 0; r < h; ++r)
    {
        phi = ToEigen(GetMixingMatrix(p + r)) * phi;
    }
    return FromEigen(phi);
}

std::vector<double>
MixingAnalysis::GetSurvivalCurve(uint32_t p, uint32_t hMax) const
{
    const auto n = GetNIslands();
    std::vector<double> curve;
    Eigen::MatrixXd phi = Eigen::MatrixXd::Identity(n, n);
    for (uint32_t h = 0; h <= hMax; ++h)
    {
        curve.push_back(ErrorOf(phi, m_target, ConsensusOf(p), m_options.normalise));
        phi = ToEigen(GetMixingMatrix(p + h)) * phi;
    }
    return curve;
}

std::vector<double>
MixingAnalysis::GetMeanSurvivalCurve(uint32_t hMax) const
{
    std::vector<double> mean(hMax + 1, 0.0);
    for (uint32_t p = 0; p < GetPeriod(); ++p)
    {
        auto curve = GetSurvivalCurve(p, hMax);
        for (uint32_t h = 0; h <= hMax; ++h)
        {
            mean[h] += curve[h] / GetPeriod();
        }
    }
    return mean;
}

void
MixingAnalysis::ComputeArea() const
{
    if (m_areaDone)
    {
        return;
    }
    if (!m_agrees) // the islands never come to one state
    {
        m_rounds = m_options.maxRounds + 1;
        m_area = std::numeric_limits<double>::infinity();
        m_areaDone = true;
        return;
    }
    const auto n = GetNIslands();
    const auto period = GetPeriod();
    // Clique averaging gives sparse W (sum of |C|^2 entries): the product
    // W Phi costs that many times N instead of N^3.
    std::vector<Eigen::SparseMatrix<double>> w;
    for (const auto& m : m_mixing)
    {
        w.push_back(ToEigen(m).sparseView());
    }
    std::vector<Eigen::MatrixXd> phi(period, Eigen::MatrixXd::Identity(n, n));
    Eigen::MatrixXd next(n, n);
    double area = 0;
    double discount = 1;
    uint32_t h = 0;
    for (; h <= m_options.maxRounds; ++h)
    {
        double worst = 0;
        for (uint32_t p = 0; p < period; ++p)
        {
            double s = ErrorOf(phi[p], m_target, ConsensusOf(p), m_options.normalise);
            worst = std::max(worst, s);
            if (h > 0 || m_options.includeNewborn)
            {
                area += discount * s / period;
            }
            next.noalias() = w[(p + h) % period] * phi[p];
            phi[p].swap(next);
        }
        discount *= m_options.forgetting;
        if (worst < m_options.tolerance || discount * worst < m_options.tolerance)
        {
            break;
        }
    }
    m_rounds = h;
    m_area = h > m_options.maxRounds ? std::numeric_limits<double>::infinity() : area;
    NS_LOG_DEBUG("A = " << m_area << " after " << h << " rounds");
    m_areaDone = true;
}

double
MixingAnalysis::GetAverageDisagreement() const
{
    ComputeArea();
    return m_area;
}

uint32_t
MixingAnalysis::GetMixingRounds() const
{
    ComputeArea();
    return m_rounds;
}

void
MixingAnalysis::ComputeConsensus()
{
    const auto n = GetNIslands();
    const auto period = GetPeriod();
    // Q = W(P-1) ... W(0) squared until it stops changing: its rows tend to
    // c(0) when the islands come to one state.  Rows are renormalised after
    // each product, so that rounding does not compound.
    Eigen::MatrixXd q = Eigen::MatrixXd::Identity(n, n);
    for (uint32_t k = 0; k < period; ++k)
    {
        q = ToEigen(m_mixing[k]) * q;
    }
    for (int squarings = 0; squarings < 64; ++squarings)
    {
        Eigen::MatrixXd next = q * q;
        next = next.array().colwise() / next.rowwise().sum().array();
        const double change = (next - q).cwiseAbs().maxCoeff();
        q.swap(next);
        if (change < 1e-15)
        {
            break;
        }
    }
    const Eigen::RowVectorXd c = q.colwise().mean();
    m_agrees = (q.rowwise() - c).cwiseAbs().maxCoeff() < kStochasticEps;
    // Phi(p, h + 1) = Phi(p + 1, h) W(p), so c(p) = c(p + 1) W(p), c(P) = c(0).
    m_consensus.assign(period, {});
    Eigen::RowVectorXd shares = c;
    for (uint32_t p = period; p-- > 0;)
    {
        if (p > 0)
        {
            shares = shares * ToEigen(m_mixing[p]);
        }
        const Eigen::RowVectorXd phase = p > 0 ? shares : c;
        m_consensus[p].assign(phase.data(), phase.data() + n);
    }
    NS_LOG_DEBUG("consensus shares at phase 0 " << c << (m_agrees ? "" : " (no consensus)"));
}

const std::vector<double>*
MixingAnalysis::ConsensusOf(uint32_t p) const
{
    return m_consensus.empty() ? nullptr : &m_consensus[p % m_consensus.size()];
}

std::vector<double>
MixingAnalysis::GetConsensusShares(uint32_t p) const
{
    const auto* c = ConsensusOf(p);
    return c == nullptr ? std::vector<double>(GetNIslands(), 1.0 / GetNIslands()) : *c;
}

double
MixingAnalysis::GetConsensusSkew() const
{
    if (!m_agrees)
    {
        return std::numeric_limits<double>::quiet_NaN();
    }
    double skew = 0;
    for (uint32_t p = 0; p < GetPeriod(); ++p)
    {
        for (double share : GetConsensusShares(p))
        {
            skew += std::abs(share - 1.0 / GetNIslands()) / 2 / GetPeriod();
        }
    }
    return skew;
}

bool
MixingAnalysis::HasConsensus() const
{
    return m_agrees;
}

} // namespace ns3
