/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-loss-estimator.h"

#include "wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <gsl/gsl_cdf.h>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// The confidence of the interval: 0 (the measured rate itself) to below 1.
constexpr wantext::Range kConfidence{0, 1, "", false, true};

} // namespace

WanLossEstimator::WanLossEstimator(uint32_t window, double confidence)
    : m_window(window)
{
    if (window == 0)
    {
        throw std::invalid_argument("loss estimate: a window of 0 rounds, need at least 1");
    }
    kConfidence.Check(confidence, "loss estimate: confidence");
    m_z = gsl_cdf_ugaussian_Pinv(0.5 + confidence / 2);
}

void
WanLossEstimator::AddReport(uint32_t round, uint32_t receiver, uint32_t chunks, uint32_t erasures)
{
    if (erasures > chunks)
    {
        throw std::invalid_argument("loss estimate: " + std::to_string(erasures) + " erasures of " +
                                    std::to_string(chunks) + " chunks");
    }
    m_reports[{round, receiver}].emplace_back(chunks, erasures);
}

void
WanLossEstimator::SetPrior(double rate)
{
    if (!(rate < 0))
    {
        wantext::bounds::kLossRate.Check(rate, "loss estimate: prior rate");
    }
    m_prior = rate;
}

std::optional<WanLossEstimator::Estimate>
WanLossEstimator::GetEstimate(uint32_t round) const
{
    const uint32_t first = round > m_window ? round - m_window : 0;
    std::map<uint32_t, std::pair<uint64_t, uint64_t>> perReceiver;
    std::vector<std::pair<uint32_t, uint32_t>> blocks;
    for (auto it = m_reports.lower_bound({first, 0});
         it != m_reports.end() && it->first.first < round;
         ++it)
    {
        auto& sum = perReceiver[it->first.second];
        for (const auto& block : it->second)
        {
            sum.first += block.first;
            sum.second += block.second;
            blocks.push_back(block);
        }
    }
    std::optional<Estimate> estimate;
    for (const auto& [receiver, counts] : perReceiver)
    {
        if (counts.first == 0)
        {
            continue;
        }
        if (!estimate)
        {
            estimate.emplace();
        }
        estimate->rate = std::max(estimate->rate, WilsonUpper(counts.second, counts.first, m_z));
        ++estimate->receivers;
        estimate->chunks += counts.first;
        estimate->erasures += counts.second;
    }
    if (estimate)
    {
        estimate->blocks = static_cast<uint32_t>(blocks.size());
        estimate->dispersion = Dispersion(blocks, estimate->erasures, estimate->chunks);
    }
    else if (m_prior >= 0)
    {
        estimate.emplace();
        estimate->rate = m_prior;
    }
    return estimate;
}

double
WanLossEstimator::Dispersion(const std::vector<std::pair<uint32_t, uint32_t>>& blocks,
                             uint64_t erasures,
                             uint64_t chunks)
{
    const double p = static_cast<double>(erasures) / static_cast<double>(chunks);
    double excess = 0;
    double pairs = 0;
    for (const auto& [n, x] : blocks)
    {
        const double spread = x - n * p;
        excess += spread * spread - n * p * (1 - p);
        pairs += static_cast<double>(n) * (n - 1.0) * p * (1 - p);
    }
    return pairs > 0 ? std::clamp(excess / pairs, 0.0, kMaxDispersion) : 0.0;
}

double
WanLossEstimator::WilsonUpper(uint64_t erasures, uint64_t chunks, double z)
{
    const double n = static_cast<double>(chunks);
    const double p = static_cast<double>(erasures) / n;
    const double z2 = z * z;
    const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
    const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    return std::min(centre + half, 1 - 1e-9);
}

} // namespace ns3
