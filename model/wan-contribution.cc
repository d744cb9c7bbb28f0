/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-contribution.h"

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

} // namespace ns3
