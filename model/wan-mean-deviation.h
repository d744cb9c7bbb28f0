/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_MEAN_DEVIATION_H
#define WAN_MEAN_DEVIATION_H

#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A running mean and mean deviation of a delay, as RFC 6298 keeps
 * round-trip times: the first sample x sets mean = x and deviation = |x| / 2;
 * each later one updates deviation += (|x - mean| - deviation) / 4, then
 * mean += (x - mean) / 8.
 */
class WanMeanDeviation
{
  public:
    /** @param x a sample, seconds (any sign) */
    void Observe(double x);
    /** @return the mean (0 before any sample) */
    double GetMean() const;
    /** @return the mean deviation (0 before any sample) */
    double GetDeviation() const;
    /** @return samples taken */
    uint32_t GetSamples() const;
    /** @return mean + 4 x deviation (0 before any sample): RFC 6298's bound */
    double GetBound() const;

  private:
    double m_mean{0};      //!< mean
    double m_dev{0};       //!< mean deviation
    uint32_t m_samples{0}; //!< samples taken
};

} // namespace ns3

#endif /* WAN_MEAN_DEVIATION_H */
