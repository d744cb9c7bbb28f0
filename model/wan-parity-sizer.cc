/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parity-sizer.h"

#include "wan-training-text.h"

#include <cmath>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_sf_gamma.h>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// An erasure rate whose binomial tail is asked for: any probability.
constexpr wantext::Range kErasureRate{0, 1, ""};
/// The correlation of a block's erasures: 0 (independent) to below 1.
constexpr wantext::Range kDispersion{0, 1, "", false, true};

} // namespace

double
WanParitySizer::FailureProbability(uint32_t n, uint32_t r, double q)
{
    if (n == 0 || r >= n)
    {
        throw std::invalid_argument("parity sizing: " + std::to_string(r) + " parities of " +
                                    std::to_string(n) + " chunks, need fewer parities than chunks");
    }
    kErasureRate.Check(q, "parity sizing: erasure rate");
    return gsl_cdf_binomial_Q(r, q, n); // P(X > r)
}

double
WanParitySizer::FailureProbability(uint32_t n, uint32_t r, double q, double rho)
{
    kDispersion.Check(rho, "parity sizing: erasure correlation");
    const double p = FailureProbability(n, r, q); // checks n, r and q
    if (rho == 0 || q == 0 || q == 1)
    {
        return p;
    }
    // Beta-binomial with mean q and intra-block correlation rho:
    // alpha + beta = 1 / rho - 1.
    const double alpha = q * (1 / rho - 1);
    const double beta = (1 - q) * (1 / rho - 1);
    const double norm = gsl_sf_lnbeta(alpha, beta);
    double tail = 0;
    for (uint32_t x = r + 1; x <= n; ++x)
    {
        tail += std::exp(gsl_sf_lnchoose(n, x) + gsl_sf_lnbeta(x + alpha, n - x + beta) - norm);
    }
    return std::min(tail, 1.0);
}

uint32_t
WanParitySizer::Parities(uint32_t k, double q, double epsilon, uint32_t maxParities, double rho)
{
    if (k == 0 || maxParities == 0)
    {
        throw std::invalid_argument("parity sizing: " + std::to_string(k) + " data chunks, " +
                                    std::to_string(maxParities) +
                                    " parities at most: need at least 1 of each");
    }
    // Sizing for certain loss has no answer: below 1, as a packet loss rate.
    wantext::bounds::kLossRate.Check(q, "parity sizing: erasure rate");
    if (!std::isfinite(epsilon) || epsilon <= 0 || epsilon >= 1)
    {
        throw std::invalid_argument("parity sizing: failure probability must be above 0 and "
                                    "below 1 (got " +
                                    wantext::Num(epsilon) + ")");
    }
    for (uint32_t r = 1; r < maxParities; ++r)
    {
        if (FailureProbability(k + r, r, q, rho) <= epsilon)
        {
            return r;
        }
    }
    return maxParities;
}

bool
WanParitySizer::Reaches(uint32_t k, double q, double epsilon, uint32_t maxParities)
{
    const uint32_t r = Parities(k, q, epsilon, maxParities);
    return FailureProbability(k + r, r, q) <= epsilon;
}

} // namespace ns3
