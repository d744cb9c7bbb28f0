/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-delay-process.h"

#include "wan-training-compat.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanDelayProcess");

NS_OBJECT_ENSURE_REGISTERED(WanDelayProcess);

TypeId
WanDelayProcess::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanDelayProcess")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanDelayProcess>()
            .AddAttribute("StdDev",
                          "Standard deviation of the extra delay, 0 to 1 s.",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&WanDelayProcess::m_stdDev),
                          MakeTimeChecker(Seconds(0), Seconds(1)))
            .AddAttribute("CorrelationTime",
                          "Correlation time tau of the delay, 1 ns to 1000 s: samples dt "
                          "apart have correlation exp(-dt/tau).",
                          TimeValue(MilliSeconds(10)),
                          MakeTimeAccessor(&WanDelayProcess::m_correlationTime),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1000)))
            .AddAttribute("Resolution",
                          "Grid step h, 1 ns to 1 s: the process is drawn at multiples of h "
                          "from time 0 and interpolated linearly between them (keep it well "
                          "below CorrelationTime; each link direction draws once per step "
                          "up to its last packet).",
                          TimeValue(MicroSeconds(100)),
                          MakeTimeAccessor(&WanDelayProcess::m_resolution),
                          MakeTimeChecker(NanoSeconds(1), Seconds(1)))
            .AddAttribute("Distribution",
                          "Stationary distribution of the delay: exponential (mean = "
                          "StdDev), uniform (on [0, sqrt(12) StdDev]) or normal (mean "
                          "3 StdDev, clipped to [0, 6 StdDev]).",
                          EnumValue(WanDelayProcess::EXPONENTIAL),
                          wancompat::MakeEnumMemberAccessor(&WanDelayProcess::m_distribution),
                          MakeEnumChecker(WanDelayProcess::EXPONENTIAL,
                                          "exponential",
                                          WanDelayProcess::UNIFORM,
                                          "uniform",
                                          WanDelayProcess::NORMAL,
                                          "normal"));
    return tid;
}

WanDelayProcess::WanDelayProcess()
    : m_distribution(EXPONENTIAL),
      m_normal(CreateObject<NormalRandomVariable>())
{
    NS_LOG_FUNCTION(this);
    m_normal->SetAttribute("Mean", DoubleValue(0));
    m_normal->SetAttribute("Variance", DoubleValue(1));
}

void
WanDelayProcess::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_normal = nullptr;
    Object::DoDispose();
}

int64_t
WanDelayProcess::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_normal->SetStream(stream);
    return 1;
}

void
WanDelayProcess::Step()
{
    // Exact transition over h: the correlation decays by rho and the
    // innovation restores the unit variance (expm1 keeps 1 - rho^2 accurate
    // when h << tau).
    const double ratio = m_resolution.GetSeconds() / m_correlationTime.GetSeconds();
    const double rho = std::exp(-ratio);
    const double spread = std::sqrt(-std::expm1(-2 * ratio));
    m_state = rho * m_state + spread * m_normal->GetValue();
    m_high = DelayOf(m_state);
}

Time
WanDelayProcess::Sample(Time at)
{
    NS_LOG_FUNCTION(this << at);
    if (!m_started)
    {
        if (at.IsStrictlyNegative())
        {
            throw std::invalid_argument("delay process sampled at " +
                                        std::to_string(at.GetSeconds()) + " s, before time 0");
        }
        m_state = m_normal->GetValue();
        m_low = DelayOf(m_state);
        m_peak = m_low;
        Step();
        m_started = true;
    }
    else if (at < m_last)
    {
        throw std::invalid_argument("delay process sampled at " + std::to_string(at.GetSeconds()) +
                                    " s, before its last sample at " +
                                    std::to_string(m_last.GetSeconds()) + " s");
    }
    // Every grid time passed, sampled or not, counts in the envelope.
    while (m_resolution * (m_index + 1) <= at)
    {
        ++m_index;
        m_low = m_high;
        m_peak = std::max(m_peak, (m_resolution * m_index).GetSeconds() + m_low);
        Step();
    }
    const Time offset = at - m_resolution * m_index;
    const double delay = m_low + (m_high - m_low) * offset.GetSeconds() / m_resolution.GetSeconds();
    const double arrival = at.GetSeconds() + delay;
    if (arrival >= m_peak)
    {
        m_peak = arrival;
        m_fifo = delay;
    }
    else
    {
        m_fifo = m_peak - at.GetSeconds();
    }
    m_last = at;
    return Seconds(delay);
}

Time
WanDelayProcess::GetFifoDelay() const
{
    return Seconds(m_fifo);
}

double
WanDelayProcess::DelayOf(double state) const
{
    const double sigma = m_stdDev.GetSeconds();
    switch (m_distribution)
    {
    case UNIFORM:
        // sqrt(12) sigma Phi(z), Phi(z) = erfc(-z / sqrt 2) / 2.
        return std::sqrt(12.0) * sigma * 0.5 * std::erfc(-state / std::sqrt(2.0));
    case NORMAL:
        return sigma * std::clamp(3 + state, 0.0, 6.0);
    case EXPONENTIAL:
    default:
        // The exponential quantile of Phi(z): -sigma ln(1 - Phi(z)), with
        // 1 - Phi(z) = erfc(z / sqrt 2) / 2 computed directly so that the
        // upper tail keeps its precision.
        return -sigma * std::log(std::max(0.5 * std::erfc(state / std::sqrt(2.0)),
                                          std::numeric_limits<double>::min()));
    }
}

double
WanDelayProcess::GetState() const
{
    return m_state;
}

Time
WanDelayProcess::GetMean() const
{
    switch (m_distribution)
    {
    case UNIFORM:
        return Seconds(m_stdDev.GetSeconds() * std::sqrt(3.0));
    case NORMAL:
        return Seconds(m_stdDev.GetSeconds() * 3);
    case EXPONENTIAL:
    default:
        return m_stdDev;
    }
}

Time
WanDelayProcess::GetStdDev() const
{
    if (m_distribution == NORMAL)
    {
        // Clipping at 3 sigma each side: Var = (2 Phi(3) - 1) - 6 phi(3) + 18 Phi(-3).
        return Seconds(m_stdDev.GetSeconds() * 0.9975005);
    }
    return m_stdDev;
}

} // namespace ns3
