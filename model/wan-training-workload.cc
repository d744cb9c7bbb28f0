/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-workload.h"

#include "wan-training-text.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <gsl/gsl_multimin.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <memory>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// GSL's generator, freed with its owner.
using GslRng = std::unique_ptr<gsl_rng, decltype(&gsl_rng_free)>;

/**
 * @param seed a seed
 * @return GSL's mt19937 seeded with it
 */
GslRng
SeededRng(uint64_t seed)
{
    GslRng rng(gsl_rng_alloc(gsl_rng_mt19937), &gsl_rng_free);
    gsl_rng_set(rng.get(), static_cast<unsigned long>(seed));
    return rng;
}

/**
 * @param condition what must hold
 * @param message the one-line reason when it does not (prefixed here)
 */
void
Require(bool condition, const std::string& message)
{
    if (!condition)
    {
        throw std::invalid_argument("training workload: " + message);
    }
}

/// Numbers in messages: up to 12 significant digits.
constexpr int kMessageDigits = 12;

/**
 * @param z a number
 * @return ln(1 + exp(z)), without overflow
 */
double
Softplus(double z)
{
    return z > 0 ? z + std::log1p(std::exp(-z)) : std::log1p(std::exp(z));
}

/**
 * @param z a number
 * @return 1 / (1 + exp(-z)), without overflow
 */
double
Sigmoid(double z)
{
    if (z >= 0)
    {
        return 1 / (1 + std::exp(-z));
    }
    const double e = std::exp(z);
    return e / (1 + e);
}

/// Row-major samples of an island as an Eigen matrix.
using SampleMap =
    Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>;

} // namespace

WanTrainingWorkload
WanTrainingWorkload::Quadratic(const std::vector<std::vector<double>>& centres, double curvature)
{
    Require(!centres.empty(), "0 islands (need at least 1)");
    Require(!centres[0].empty(), "dimension 0 (need at least 1)");
    Require(std::isfinite(curvature) && curvature > 0,
            "curvature " + wantext::Num(curvature, kMessageDigits) + " (need a positive number)");
    WanTrainingWorkload w;
    w.m_kind = Kind::QUADRATIC;
    w.m_islands = centres.size();
    w.m_dimension = centres[0].size();
    w.m_curvature = curvature;
    for (uint32_t i = 0; i < centres.size(); ++i)
    {
        Require(centres[i].size() == w.m_dimension,
                "centre " + std::to_string(i) + " has " + std::to_string(centres[i].size()) +
                    " numbers, centre 0 has " + std::to_string(w.m_dimension));
        for (double c : centres[i])
        {
            Require(std::isfinite(c), "centre " + std::to_string(i) + " is not finite");
        }
        w.m_centres.insert(w.m_centres.end(), centres[i].begin(), centres[i].end());
    }
    return w;
}

WanTrainingWorkload
WanTrainingWorkload::RandomQuadratic(const WanQuadraticSettings& settings)
{
    Require(settings.islands >= 1, "0 islands (need at least 1)");
    Require(settings.dimension >= 1, "dimension 0 (need at least 1)");
    Require(std::isfinite(settings.heterogeneity) && settings.heterogeneity >= 0,
            "heterogeneity " + wantext::Num(settings.heterogeneity, kMessageDigits) +
                " (need a non-negative number)");
    auto rng = SeededRng(settings.seed);
    std::vector<double> common(settings.dimension);
    for (auto& c : common)
    {
        c = gsl_ran_gaussian(rng.get(), 1.0);
    }
    std::vector<std::vector<double>> centres(settings.islands, common);
    for (auto& centre : centres)
    {
        for (auto& c : centre)
        {
            c += settings.heterogeneity * gsl_ran_gaussian(rng.get(), 1.0);
        }
    }
    return Quadratic(centres, settings.curvature);
}

WanTrainingWorkload
WanTrainingWorkload::Logistic(const WanLogisticSettings& s)
{
    Require(s.islands >= 1, "0 islands (need at least 1)");
    Require(s.features >= 1, "0 features (need at least 1)");
    Require(s.samplesPerIsland >= 1, "0 samples per island (need at least 1)");
    Require(std::isfinite(s.separation) && s.separation >= 0,
            "class separation " + wantext::Num(s.separation, kMessageDigits) +
                " (need a non-negative number)");
    Require(s.flippedLabels >= 0 && s.flippedLabels <= 1,
            "flipped-label share " + wantext::Num(s.flippedLabels, kMessageDigits) +
                " (need 0 to 1)");
    Require(s.skew >= 0 && s.skew <= 1,
            "class skew " + wantext::Num(s.skew, kMessageDigits) + " (need 0 to 1)");
    Require(std::isfinite(s.regularisation) && s.regularisation >= 0,
            "regularisation " + wantext::Num(s.regularisation, kMessageDigits) +
                " (need a non-negative number)");
    WanTrainingWorkload w;
    w.m_kind = Kind::LOGISTIC;
    w.m_islands = s.islands;
    w.m_dimension = s.features + 1;
    w.m_regularisation = s.regularisation;
    auto rng = SeededRng(s.seed);
    const double offset = s.separation / 2 / std::sqrt(static_cast<double>(s.features));
    for (uint32_t i = 0; i < s.islands; ++i)
    {
        const double share =
            s.islands == 1 ? 0.5 : s.skew + (1 - 2 * s.skew) * i / (s.islands - 1.0);
        std::vector<double> features;
        std::vector<double> labels;
        for (uint32_t k = 0; k < s.samplesPerIsland; ++k)
        {
            const double y = gsl_rng_uniform(rng.get()) < share ? 1 : -1;
            for (uint32_t f = 0; f < s.features; ++f)
            {
                features.push_back(y * offset + gsl_ran_gaussian(rng.get(), 1.0));
            }
            features.push_back(1);
            labels.push_back(gsl_rng_uniform(rng.get()) < s.flippedLabels ? -y : y);
        }
        w.m_features.push_back(std::move(features));
        w.m_labels.push_back(std::move(labels));
    }
    return w;
}

WanTrainingWorkload::Kind
WanTrainingWorkload::GetKind() const
{
    return m_kind;
}

uint32_t
WanTrainingWorkload::GetNIslands() const
{
    return m_islands;
}

uint32_t
WanTrainingWorkload::GetDimension() const
{
    return m_dimension;
}

double
WanTrainingWorkload::GetCurvature() const
{
    return m_curvature;
}

std::vector<double>
WanTrainingWorkload::GetCentre(uint32_t island) const
{
    CheckIsland(island);
    if (m_kind != Kind::QUADRATIC)
    {
        return {};
    }
    const auto first = m_centres.begin() + static_cast<std::ptrdiff_t>(island) * m_dimension;
    return std::vector<double>(first, first + m_dimension);
}

double
WanTrainingWorkload::GetPositiveShare(uint32_t island) const
{
    CheckIsland(island);
    if (m_kind != Kind::LOGISTIC)
    {
        return 0;
    }
    const auto& labels = m_labels[island];
    double positive = 0;
    for (double y : labels)
    {
        positive += y > 0 ? 1 : 0;
    }
    return positive / labels.size();
}

void
WanTrainingWorkload::CheckIsland(uint32_t island) const
{
    Require(island < m_islands,
            "island " + std::to_string(island) + " of " + std::to_string(m_islands));
}

void
WanTrainingWorkload::CheckArguments(uint32_t island, const std::vector<double>& x) const
{
    CheckIsland(island);
    Require(x.size() == m_dimension,
            "a model of " + std::to_string(x.size()) + " numbers, expected " +
                std::to_string(m_dimension));
}

double
WanTrainingWorkload::Loss(uint32_t island, const std::vector<double>& x) const
{
    CheckArguments(island, x);
    const Eigen::Map<const Eigen::VectorXd> model(x.data(), m_dimension);
    if (m_kind == Kind::QUADRATIC)
    {
        const Eigen::Map<const Eigen::VectorXd> centre(m_centres.data() + island * m_dimension,
                                                       m_dimension);
        return m_curvature / 2 * (model - centre).squaredNorm();
    }
    const auto& y = m_labels[island];
    const SampleMap a(m_features[island].data(), y.size(), m_dimension);
    const Eigen::VectorXd margins = a * model;
    double sum = 0;
    for (size_t k = 0; k < y.size(); ++k)
    {
        sum += Softplus(-y[k] * margins[k]);
    }
    return sum / y.size() + m_regularisation / 2 * model.squaredNorm();
}

double
WanTrainingWorkload::GlobalLoss(const std::vector<double>& x) const
{
    double sum = 0;
    for (uint32_t i = 0; i < m_islands; ++i)
    {
        sum += Loss(i, x);
    }
    return sum / m_islands;
}

void
WanTrainingWorkload::Gradient(uint32_t island,
                              const std::vector<double>& x,
                              std::vector<double>& gradient) const
{
    CheckArguments(island, x);
    gradient.resize(m_dimension);
    const Eigen::Map<const Eigen::VectorXd> model(x.data(), m_dimension);
    Eigen::Map<Eigen::VectorXd> g(gradient.data(), m_dimension);
    if (m_kind == Kind::QUADRATIC)
    {
        const Eigen::Map<const Eigen::VectorXd> centre(m_centres.data() + island * m_dimension,
                                                       m_dimension);
        g = m_curvature * (model - centre);
        return;
    }
    const auto& y = m_labels[island];
    const SampleMap a(m_features[island].data(), y.size(), m_dimension);
    Eigen::VectorXd weights = a * model;
    for (size_t k = 0; k < y.size(); ++k)
    {
        // d/dz ln(1 + exp(-y z)) = -y sigmoid(-y z)
        weights[k] = -y[k] * Sigmoid(-y[k] * weights[k]);
    }
    g = a.transpose() * weights / static_cast<double>(y.size()) + m_regularisation * model;
}

void
WanTrainingWorkload::GlobalGradient(const std::vector<double>& x,
                                    std::vector<double>& gradient) const
{
    std::vector<double> g;
    gradient.assign(m_dimension, 0);
    for (uint32_t i = 0; i < m_islands; ++i)
    {
        Gradient(i, x, g);
        for (uint32_t k = 0; k < m_dimension; ++k)
        {
            gradient[k] += g[k] / m_islands;
        }
    }
}

namespace
{

/// The global loss and its gradient as GSL's minimisers call them.
struct GlobalObjective
{
    /// @return f(x)
    static double F(const gsl_vector* x, void* params)
    {
        const auto* w = static_cast<const WanTrainingWorkload*>(params);
        return w->GlobalLoss(std::vector<double>(x->data, x->data + x->size));
    }

    /// Sets g to the gradient at x.
    static void Df(const gsl_vector* x, void* params, gsl_vector* g)
    {
        const auto* w = static_cast<const WanTrainingWorkload*>(params);
        std::vector<double> gradient;
        w->GlobalGradient(std::vector<double>(x->data, x->data + x->size), gradient);
        std::copy(gradient.begin(), gradient.end(), g->data);
    }

    /// Sets f and g at x.
    static void Fdf(const gsl_vector* x, void* params, double* f, gsl_vector* g)
    {
        *f = F(x, params);
        Df(x, params, g);
    }
};

} // namespace

std::vector<double>
WanTrainingWorkload::GetMinimiser() const
{
    if (m_kind == Kind::QUADRATIC)
    {
        std::vector<double> mean(m_dimension, 0);
        for (uint32_t i = 0; i < m_islands; ++i)
        {
            for (uint32_t k = 0; k < m_dimension; ++k)
            {
                mean[k] += m_centres[i * m_dimension + k] / m_islands;
            }
        }
        return mean;
    }
    gsl_multimin_function_fdf objective;
    objective.n = m_dimension;
    objective.f = &GlobalObjective::F;
    objective.df = &GlobalObjective::Df;
    objective.fdf = &GlobalObjective::Fdf;
    objective.params = const_cast<WanTrainingWorkload*>(this);
    gsl_vector* x = gsl_vector_calloc(m_dimension);
    gsl_multimin_fdfminimizer* m =
        gsl_multimin_fdfminimizer_alloc(gsl_multimin_fdfminimizer_vector_bfgs2, m_dimension);
    gsl_multimin_fdfminimizer_set(m, &objective, x, 0.1, 0.1);
    for (int iteration = 0; iteration < 10000; ++iteration)
    {
        if (gsl_multimin_test_gradient(m->gradient, 1e-10) == GSL_SUCCESS ||
            gsl_multimin_fdfminimizer_iterate(m) != GSL_SUCCESS)
        {
            break; // converged, or no further progress along the line
        }
    }
    const gsl_vector* best = gsl_multimin_fdfminimizer_x(m);
    std::vector<double> out(m_dimension);
    for (uint32_t k = 0; k < m_dimension; ++k)
    {
        out[k] = gsl_vector_get(best, k);
    }
    gsl_multimin_fdfminimizer_free(m);
    gsl_vector_free(x);
    return out;
}

double
WanTrainingWorkload::GetMinimumLoss() const
{
    return GlobalLoss(GetMinimiser());
}

} // namespace ns3
