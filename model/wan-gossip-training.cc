/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-gossip-training.h"

#include "wan-training-text.h"

#include <Eigen/Dense>
#include <cmath>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{

namespace
{

/// The islands' models, one row each, over their row-major storage.
using ModelMap = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

/// Rows must sum to 1 within this.
constexpr double kRowTolerance = 1e-9;

/**
 * @param condition what must hold
 * @param message the one-line reason when it does not (prefixed here)
 */
void
Require(bool condition, const std::string& message)
{
    if (!condition)
    {
        throw std::invalid_argument("gossip training: " + message);
    }
}

/// Numbers in messages: up to 12 significant digits.
constexpr int kMessageDigits = 12;

/**
 * @param value a number
 * @param what its name, for the message
 * @param unit its unit, for the message ("" if none)
 */
void
RequireNonNegative(double value, const std::string& what, const std::string& unit = "")
{
    Require(std::isfinite(value) && value >= 0,
            what + " " + wantext::Num(value, kMessageDigits) + unit +
                " (need a non-negative number)");
}

/**
 * @brief Throws std::invalid_argument unless w is an n x n row-stochastic
 * matrix (non-negative, rows summing to 1 within kRowTolerance).
 * @param w the matrix
 * @param n N
 * @param where the matrix's name, for the message
 * @return w as an Eigen matrix
 */
Eigen::MatrixXd
CheckedMixing(const WanMatrix& w, size_t n, const std::string& where)
{
    bool square = w.size() == n;
    for (const auto& row : w)
    {
        square = square && row.size() == n;
    }
    Require(square,
            where + " is not " + std::to_string(n) + " x " + std::to_string(n) + " (it has " +
                std::to_string(w.size()) + " rows" +
                (w.empty() ? std::string() : " of " + std::to_string(w[0].size())) + ")");
    Eigen::MatrixXd e(n, n);
    for (size_t i = 0; i < n; ++i)
    {
        double sum = 0;
        for (size_t j = 0; j < n; ++j)
        {
            Require(std::isfinite(w[i][j]) && w[i][j] >= 0,
                    where + " has entry " + wantext::Num(w[i][j], kMessageDigits) + " at row " +
                        std::to_string(i) + ", column " + std::to_string(j) +
                        " (need non-negative numbers)");
            sum += w[i][j];
            e(i, j) = w[i][j];
        }
        Require(std::abs(sum - 1) <= kRowTolerance,
                where + " is not row-stochastic: row " + std::to_string(i) + " sums to " +
                    wantext::Num(sum, kMessageDigits) + " (need 1 within 1e-9)");
    }
    return e;
}

} // namespace

WanGossipTraining::WanGossipTraining(WanTrainingWorkload workload, WanGossipSettings settings)
    : m_workload(std::move(workload)),
      m_settings(settings)
{
    CheckSettings();
    RequireNonNegative(m_settings.initialSpread, "initial spread");
    gsl_rng* rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, static_cast<unsigned long>(m_settings.seed));
    m_models.resize(static_cast<size_t>(m_workload.GetNIslands()) * m_workload.GetDimension());
    for (auto& x : m_models)
    {
        x = gsl_ran_gaussian(rng, m_settings.initialSpread);
    }
    gsl_rng_free(rng);
    Record(0);
}

WanGossipTraining::WanGossipTraining(WanTrainingWorkload workload,
                                     WanGossipSettings settings,
                                     const std::vector<std::vector<double>>& initialModels)
    : m_workload(std::move(workload)),
      m_settings(settings)
{
    CheckSettings();
    const uint32_t n = m_workload.GetNIslands();
    const uint32_t d = m_workload.GetDimension();
    Require(initialModels.size() == n,
            std::to_string(initialModels.size()) + " initial models for " + std::to_string(n) +
                " islands");
    for (uint32_t i = 0; i < n; ++i)
    {
        Require(initialModels[i].size() == d,
                "initial model " + std::to_string(i) + " has " +
                    std::to_string(initialModels[i].size()) + " numbers, expected " +
                    std::to_string(d));
        for (double x : initialModels[i])
        {
            Require(std::isfinite(x), "initial model " + std::to_string(i) + " is not finite");
        }
        m_models.insert(m_models.end(), initialModels[i].begin(), initialModels[i].end());
    }
    Record(0);
}

void
WanGossipTraining::CheckSettings()
{
    RequireNonNegative(m_settings.stepSize, "step size");
    RequireNonNegative(m_settings.gradientNoise, "gradient noise");
    if (m_settings.gradientNoise > 0)
    {
        m_noise.reset(gsl_rng_alloc(gsl_rng_mt19937), gsl_rng_free);
        gsl_rng_set(m_noise.get(), static_cast<unsigned long>(m_settings.seed + 0x9E3779B9));
    }
}

WanTrainingRecord
WanGossipTraining::RunRound(const WanMatrix& mixing, double computeS, double roundS)
{
    return RunRound(mixing, mixing, computeS, roundS);
}

WanTrainingRecord
WanGossipTraining::RunRound(const WanMatrix& mixing,
                            const WanMatrix& received,
                            double computeS,
                            double roundS)
{
    const uint32_t n = m_workload.GetNIslands();
    const uint32_t d = m_workload.GetDimension();
    const std::string round = std::to_string(m_history.back().round + 1);
    const Eigen::MatrixXd w = CheckedMixing(mixing, n, "mixing matrix of round " + round);
    const Eigen::MatrixXd r =
        &received == &mixing ? w : CheckedMixing(received, n, "received matrix of round " + round);
    RequireNonNegative(computeS, "compute time", " s");
    RequireNonNegative(roundS, "round time", " s");
    std::vector<double> x(d);
    std::vector<double> gradient(d);
    for (uint32_t i = 0; i < n; ++i)
    {
        const auto row = m_models.begin() + static_cast<std::ptrdiff_t>(i) * d;
        std::copy(row, row + d, x.begin());
        for (uint32_t step = 0; step < m_settings.localSteps; ++step)
        {
            m_workload.Gradient(i, x, gradient);
            for (uint32_t k = 0; k < d; ++k)
            {
                const double noise =
                    m_noise ? gsl_ran_gaussian(m_noise.get(), m_settings.gradientNoise) : 0;
                x[k] -= m_settings.stepSize * (gradient[k] + noise);
            }
        }
        std::copy(x.begin(), x.end(), row);
    }
    ModelMap models(m_models.data(), n, d);
    const Eigen::MatrixXd sent = models;
    models = w * sent;
    if (!m_carried.empty())
    {
        models += ModelMap(m_carried.data(), n, n) * ModelMap(m_carriedModels.data(), n, d);
    }
    m_carried.clear();
    m_carriedModels.clear();
    if ((r - w).cwiseAbs().maxCoeff() > 0)
    {
        m_carried.resize(static_cast<size_t>(n) * n);
        ModelMap(m_carried.data(), n, n) = r - w;
        m_carriedModels.assign(m_models.size(), 0);
        ModelMap(m_carriedModels.data(), n, d) = sent;
    }
    Record(m_history.back().timeS + computeS + roundS);
    return m_history.back();
}

void
WanGossipTraining::Record(double timeS)
{
    const uint32_t n = m_workload.GetNIslands();
    const uint32_t d = m_workload.GetDimension();
    WanTrainingRecord r;
    r.round = m_history.empty() ? 0 : m_history.back().round + 1;
    r.timeS = timeS;
    const auto mean = GetAverageModel();
    r.loss = m_workload.GlobalLoss(mean);
    double local = 0;
    double model = 0;
    double distance = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        const auto x = GetModel(i);
        local += m_workload.Loss(i, x);
        model += m_workload.GlobalLoss(x);
        for (uint32_t k = 0; k < d; ++k)
        {
            distance += (x[k] - mean[k]) * (x[k] - mean[k]);
        }
    }
    r.localLoss = local / n;
    r.modelLoss = model / n;
    r.consensusDistance = distance / n;
    m_history.push_back(r);
}

const WanTrainingWorkload&
WanGossipTraining::GetWorkload() const
{
    return m_workload;
}

const std::vector<WanTrainingRecord>&
WanGossipTraining::GetHistory() const
{
    return m_history;
}

std::vector<double>
WanGossipTraining::GetModel(uint32_t island) const
{
    const uint32_t n = m_workload.GetNIslands();
    Require(island < n, "island " + std::to_string(island) + " of " + std::to_string(n));
    const uint32_t d = m_workload.GetDimension();
    const auto first = m_models.begin() + static_cast<std::ptrdiff_t>(island) * d;
    return std::vector<double>(first, first + d);
}

std::vector<double>
WanGossipTraining::GetAverageModel() const
{
    const uint32_t n = m_workload.GetNIslands();
    const uint32_t d = m_workload.GetDimension();
    std::vector<double> mean(d, 0.0);
    for (uint32_t i = 0; i < n; ++i)
    {
        for (uint32_t k = 0; k < d; ++k)
        {
            mean[k] += m_models[static_cast<size_t>(i) * d + k];
        }
    }
    for (auto& m : mean)
    {
        m /= n;
    }
    return mean;
}

std::optional<double>
WanGossipTraining::GetTimeToLoss(double target, bool atIslands) const
{
    const auto first = GetFirstAtLoss(target, atIslands);
    return first ? std::optional<double>(first->timeS) : std::nullopt;
}

std::optional<WanTrainingRecord>
WanGossipTraining::GetFirstAtLoss(double target, bool atIslands) const
{
    Require(!std::isnan(target), "target loss nan (need a number)");
    for (const auto& r : m_history)
    {
        if ((atIslands ? r.modelLoss : r.loss) <= target)
        {
            return r;
        }
    }
    return std::nullopt;
}

double
WanGossipTraining::GetContractionRate(const std::vector<WanMatrix>& period,
                                      double stepSize,
                                      double curvature,
                                      uint32_t localSteps)
{
    Require(!period.empty(), "a period of 0 mixing matrices (need at least 1)");
    RequireNonNegative(stepSize, "step size");
    RequireNonNegative(curvature, "curvature");
    const size_t n = period[0].size();
    Require(n >= 1, "mixing matrix 1 of the period is 0 x 0 (need at least 1 island)");
    Eigen::MatrixXd product = Eigen::MatrixXd::Identity(n, n);
    for (size_t k = 0; k < period.size(); ++k)
    {
        product = CheckedMixing(period[k],
                                n,
                                "mixing matrix " + std::to_string(k + 1) + " of the period") *
                  product;
    }
    const Eigen::MatrixXd deviation =
        (Eigen::MatrixXd::Identity(n, n) - Eigen::MatrixXd::Constant(n, n, 1.0 / n)) * product;
    const Eigen::EigenSolver<Eigen::MatrixXd> solver(deviation, false);
    const double mixingRate = solver.eigenvalues().cwiseAbs().maxCoeff();
    const double steps = static_cast<double>(localSteps) * period.size();
    return mixingRate * std::pow(std::abs(1 - stepSize * curvature), steps);
}

} // namespace ns3
