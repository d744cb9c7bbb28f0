/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "staleness-model.h"

#include "wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

StalenessModel::StalenessModel(double computeSeconds, double exchangeSeconds)
    : m_compute(computeSeconds),
      m_exchange(exchangeSeconds)
{
    wantext::RequirePositive(computeSeconds, "compute time per step", "s");
    if (!std::isfinite(exchangeSeconds) || exchangeSeconds < 0)
    {
        throw std::invalid_argument("exchange time must be zero or positive (got " +
                                    wantext::Num(exchangeSeconds) + " s)");
    }
}

double
StalenessModel::AllReduceSeconds(const WanTopology& topo, double payloadBytes)
{
    wantext::RequirePositive(payloadBytes, "payload", "bytes");
    const uint32_t n = topo.GetNCities();
    double latency = 0;
    double rate = std::numeric_limits<double>::infinity();
    for (uint32_t i = 0; i < n; ++i)
    {
        rate = std::min({rate, topo.GetCity(i).ingressBps, topo.GetCity(i).egressBps});
        for (uint32_t j = 0; j < n; ++j)
        {
            latency = std::max(latency, topo.GetPathDelay(i, j));
        }
    }
    double share = payloadBytes * 8 * (n - 1) / n / rate;
    return 2 * (latency + share);
}

double
StalenessModel::GetComputeSeconds() const
{
    return m_compute;
}

double
StalenessModel::GetExchangeSeconds() const
{
    return m_exchange;
}

double
StalenessModel::GetIdleFraction() const
{
    return m_exchange / (m_compute + m_exchange);
}

double
StalenessModel::GetSpeedup(double stalenessSeconds) const
{
    if (!(stalenessSeconds >= 0))
    {
        throw std::invalid_argument("staleness must be zero or positive (got " +
                                    wantext::Num(stalenessSeconds) + " s)");
    }
    return (m_compute + m_exchange) / (m_compute + std::max(0.0, m_exchange - stalenessSeconds));
}

double
StalenessModel::GetFullOverlapStaleness() const
{
    return m_exchange;
}

} // namespace ns3
