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
 * \param phi the diffusion Phi
 * \param target the target shares pi
 * \param normalise divide each error by that of a newborn update
 * \return the mean error over the generations' sources
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
    const double eps = 1e-9;
    for (size_t k = 0; k < m_mixing.size(); ++k)
    {
        const auto& w = m_mixing[k];
        std::string where = "mixing matrix W(" + std::to_string(k) + ")";
        if (w.size() != n)
        {
            throw std::invalid_argument(where + " is not " + std::to_string(n) + " x " +
                                        std::to_string(n));
        }
        Eigen::VectorXd colSum = Eigen::VectorXd::Zero(n);
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
            if (std::abs(rowSum - 1) > eps)
            {
                throw std::invalid_argument(where + " is not doubly stochastic (row " +
                                            std::to_string(i) + " sums to " + wantext::Num(rowSum) +
                                            ")");
            }
        }
        if ((colSum.array() - 1).abs().maxCoeff() > eps)
        {
            throw std::invalid_argument(where + " is not doubly stochastic (a column does not "
                                                "sum to 1)");
        }
    }
    if (m_options.target.empty())
    {
        m_target.assign(n, 1.0 / n);
    }
    else
    {
        m_target = m_options.target;
        double sum = 0;
        for (double t : m_target)
        {
            if (!(t >= 0))
            {
                throw std::invalid_argument("target shares must be non-negative");
            }
            sum += t;
        }
        if (m_target.size() != n || std::abs(sum - 1) > eps)
        {
            throw std::invalid_argument("target shares must be " + std::to_string(n) +
                                        " numbers summing to 1");
        }
    }
    if (!(m_options.forgetting > 0 && m_options.forgetting <= 1))
    {
        throw std::invalid_argument("forgetting discount must be in (0, 1] (got " +
                                    wantext::Num(m_options.forgetting) + ")");
    }
    if (!(m_options.tolerance > 0))
    {
        throw std::invalid_argument("mixing tolerance must be positive");
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
        curve.push_back(SurvivalOf(phi, m_target, m_options.normalise));
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
            double s = SurvivalOf(phi[p], m_target, m_options.normalise);
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

} // namespace ns3
