/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-mean-deviation.h"

#include <cmath>

namespace ns3
{

void
WanMeanDeviation::Observe(double x)
{
    if (m_samples == 0)
    {
        m_mean = x;
        m_dev = std::abs(x) / 2;
    }
    else
    {
        m_dev += (std::abs(x - m_mean) - m_dev) / 4;
        m_mean += (x - m_mean) / 8;
    }
    ++m_samples;
}

double
WanMeanDeviation::GetMean() const
{
    return m_mean;
}

double
WanMeanDeviation::GetDeviation() const
{
    return m_dev;
}

uint32_t
WanMeanDeviation::GetSamples() const
{
    return m_samples;
}

double
WanMeanDeviation::GetBound() const
{
    return m_mean + 4 * m_dev;
}

} // namespace ns3
