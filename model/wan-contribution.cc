/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-contribution.h"

#include <cmath>

namespace ns3
{

double
WanContribution::IslandValue(uint32_t city)
{
    return city + 1.0;
}

double
WanContribution::Value(double senderValue, uint32_t chunk)
{
    return senderValue * (chunk + 1.0);
}

double
WanContribution::ExpectedSum(const std::vector<double>& peerValues, uint32_t chunks)
{
    double values = 0;
    for (double v : peerValues)
    {
        values += v;
    }
    // 1 + 2 + ... + chunks
    const double weights = chunks * (chunks + 1.0) / 2;
    return values * weights;
}

bool
WanContribution::IsExact(double sum,
                         uint64_t delivered,
                         const std::vector<double>& peerValues,
                         uint32_t chunks)
{
    return delivered == static_cast<uint64_t>(peerValues.size()) * chunks &&
           sum == ExpectedSum(peerValues, chunks);
}

int64_t
WanContribution::ToFixed(double value)
{
    const double scaled = std::nearbyint(std::ldexp(value, FRACTION_BITS));
    // Out of range: wrapped as the hardware's adder would (via fmod, since a
    // float-to-integer conversion out of range is undefined).
    const double wrapped = std::fmod(scaled, 18446744073709551616.0); // 2^64
    const double positive = wrapped < 0 ? wrapped + 18446744073709551616.0 : wrapped;
    const uint64_t bits = positive >= 18446744073709551616.0 ? 0 : static_cast<uint64_t>(positive);
    return static_cast<int64_t>(bits);
}

double
WanContribution::FromFixed(int64_t fixed)
{
    return std::ldexp(static_cast<double>(fixed), -FRACTION_BITS);
}

int64_t
WanContribution::Add(int64_t a, int64_t b)
{
    return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}

int64_t
WanContribution::Subtract(int64_t a, int64_t b)
{
    return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}

} // namespace ns3
