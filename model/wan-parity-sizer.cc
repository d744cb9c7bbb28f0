/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parity-sizer.h"

#include <cmath>
#include <gsl/gsl_cdf.h>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/**
 * @param q an erasure probability
 * @param what its name in the message
 * @param top whether 1 itself is allowed
 */
void
CheckProbability(double q, const char* what, bool top)
{
    if (!std::isfinite(q) || q < 0 || q > 1 || (!top && q == 1))
    {
        throw std::invalid_argument(std::string("parity sizing: ") + what + " " +
                                    std::to_string(q) + " is not a probability" +
                                    (top ? " (0 to 1)" : " (0 to below 1)"));
    }
}

} // namespace

double
WanParitySizer::FailureProbability(uint32_t n, uint32_t r, double q)
{
    if (n == 0 || r >= n)
    {
        throw std::invalid_argument("parity sizing: " + std::to_string(r) + " parities of " +
                                    std::to_string(n) + " chunks, need fewer parities than chunks");
    }
    CheckProbability(q, "erasure rate", true);
    return gsl_cdf_binomial_Q(r, q, n); // P(X > r)
}

uint32_t
WanParitySizer::Parities(uint32_t k, double q, double epsilon, uint32_t maxParities)
{
    if (k == 0 || maxParities == 0)
    {
        throw std::invalid_argument("parity sizing: " + std::to_string(k) + " data chunks, " +
                                    std::to_string(maxParities) +
                                    " parities at most: need at least 1 of each");
    }
    CheckProbability(q, "erasure rate", false);
    if (!std::isfinite(epsilon) || epsilon <= 0 || epsilon >= 1)
    {
        throw std::invalid_argument("parity sizing: failure probability " +
                                    std::to_string(epsilon) + " is not above 0 and below 1");
    }
    for (uint32_t r = 1; r < maxParities; ++r)
    {
        if (FailureProbability(k + r, r, q) <= epsilon)
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
