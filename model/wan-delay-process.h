/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_DELAY_PROCESS_H
#define WAN_DELAY_PROCESS_H

#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The extra delay of one link direction as a process in time: a
 * stationary Ornstein-Uhlenbeck (AR(1)) process with a standard deviation
 * and a correlation time.
 *
 * The state z(t) is a standard Ornstein-Uhlenbeck process (mean 0, variance
 * 1, correlation e^{-dt/tau} at lag dt).  Sample(t) advances it exactly from
 * the last sample to t,
 *
 *   z(t + dt) = z(t) e^{-dt/tau} + sqrt(1 - e^{-2 dt/tau}) N(0, 1),
 *
 * whatever dt is (the first sample is drawn from the stationary N(0, 1)), so
 * the delay is a function of simulated time: two samples dt apart have the
 * same joint law whether a million packets or none were sent between them.
 *
 * The delay is the state mapped through a fixed increasing function onto
 * the chosen stationary distribution, with standard deviation StdDev
 * (sigma): Distribution exponential, sigma (-ln Phi(-z)) (mean sigma, spread
 * sigma); uniform, sqrt(12) sigma Phi(z) (on [0, sqrt(12) sigma], mean
 * sqrt(3) sigma, spread sigma); normal, sigma (3 + z) clipped to [0, 6 sigma]
 * (mean 3 sigma, spread 0.9975 sigma).  Phi is the standard normal
 * distribution function.  So the delay is never negative, has exactly the
 * stationary law of the same name in WanJitterChannel's independent mode, and
 * differs from it only in time: its rank correlation at lag dt is
 * (6 / pi) asin(e^{-dt/tau} / 2) for every distribution, and its correlation
 * e^{-dt/tau} for the normal one (up to the 0.27% clipped).
 *
 * Over a short interval dt the delay moves by about sigma sqrt(2 dt / tau)
 * (the state by sqrt(2 dt / tau)), so consecutive packets dt apart keep their
 * order when sigma sqrt(2 dt / tau) << dt, i.e. dt >> 2 sigma^2 / tau;
 * WanJitterChannel holds the rarer packets that would overtake.
 */
class WanDelayProcess : public Object
{
  public:
    /// The stationary distribution of the delay.
    enum Distribution
    {
        EXPONENTIAL, //!< mean sigma, spread sigma
        UNIFORM,     //!< on [0, sqrt(12) sigma]
        NORMAL       //!< mean 3 sigma, clipped to [0, 6 sigma]
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    WanDelayProcess();

    /**
     * @brief Advances the process to a time and gives the delay there.
     * @param at the time (the send time of a packet); not before the last
     *        sample, else std::invalid_argument
     * @return the extra delay at that time, >= 0
     */
    Time Sample(Time at);

    /** @return the standardised state z at the last sample (0 before the first) */
    double GetState() const;

    /** @return the stationary mean of the delay */
    Time GetMean() const;

    /** @return the stationary standard deviation of the delay */
    Time GetStdDev() const;

    /**
     * @param state a standardised state z
     * @return the delay for that state, seconds (the increasing map above)
     */
    double DelayOf(double state) const;

    /**
     * @brief Fixes the random stream of the process.
     * @param stream the stream index to use
     * @return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  protected:
    void DoDispose() override;

  private:
    Time m_stdDev;                      //!< sigma, the delay's standard deviation
    Time m_correlationTime;             //!< tau
    Distribution m_distribution;        //!< the stationary distribution
    Ptr<NormalRandomVariable> m_normal; //!< N(0, 1) innovations
    double m_state{0};                  //!< z at m_last
    Time m_last;                        //!< time of the last sample
    bool m_started{false};              //!< a first sample was drawn
};

} // namespace ns3

#endif /* WAN_DELAY_PROCESS_H */
