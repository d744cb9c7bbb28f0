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
 * 1, correlation e^{-dt/tau} at lag dt), drawn exactly on a grid of times
 * k h (h the Resolution, from time 0),
 *
 *   z((k + 1) h) = z(k h) e^{-h/tau} + sqrt(1 - e^{-2 h/tau}) N(0, 1)
 *
 * (z(0) from the stationary N(0, 1)).  The delay at a grid time is the state
 * mapped through a fixed increasing function onto the chosen stationary
 * distribution, with standard deviation StdDev (sigma): Distribution
 * exponential, sigma (-ln Phi(-z)) (mean sigma, spread sigma); uniform,
 * sqrt(12) sigma Phi(z) (on [0, sqrt(12) sigma], mean sqrt(3) sigma, spread
 * sigma); normal, sigma (3 + z) clipped to [0, 6 sigma] (mean 3 sigma, spread
 * 0.9975 sigma).  Phi is the standard normal distribution function.  Between
 * grid times the delay d(t) is interpolated linearly.  So the delay is a
 * function of simulated time alone: whether a million packets or none were
 * sent in between, and at whatever time-preserving scale, the same stream
 * gives the same function.  At grid times it has exactly the stationary law
 * of the same name in WanJitterChannel's independent mode, its rank
 * correlation at lag dt is (6 / pi) asin(e^{-dt/tau} / 2) for every
 * distribution, and its correlation e^{-dt/tau} for the normal one (up to the
 * 0.27% clipped).
 *
 * Over one grid step the delay moves by about sigma sqrt(2 h / tau), so it
 * may fall faster than time passes, and a packet sent later would overtake
 * one sent earlier.  A FIFO path's delay cannot: GetFifoDelay is the delay of
 * a packet sent at the last sample on such a path, the upper envelope
 *
 *   f(t) = max over s <= t of (s + d(s)) - t,
 *
 * which is again a function of time alone (the maximum is taken over every
 * grid time passed, not only over the times sampled).
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
     * @return the delay d at that time, >= 0
     */
    Time Sample(Time at);

    /**
     * @return the delay of a packet sent at the last sample's time on a FIFO
     *         path: the envelope f, at least the delay Sample gave (0 before
     *         the first sample)
     */
    Time GetFifoDelay() const;

    /**
     * @return the standardised state z at the latest grid time drawn (0
     *         before the first sample)
     */
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
    /// @brief Draws the next grid time's state and delay.
    void Step();

    Time m_stdDev;                      //!< sigma, the delay's standard deviation
    Time m_correlationTime;             //!< tau
    Time m_resolution;                  //!< h, the grid step
    Distribution m_distribution;        //!< the stationary distribution
    Ptr<NormalRandomVariable> m_normal; //!< N(0, 1) innovations
    int64_t m_index{0};                 //!< grid index k of m_low
    double m_low{0};                    //!< d(k h), seconds
    double m_high{0};                   //!< d((k + 1) h), seconds
    double m_state{0};                  //!< z((k + 1) h)
    double m_peak{0};                   //!< max of s + d(s) so far, seconds
    double m_fifo{0};                   //!< f at the last sample, seconds
    Time m_last;                        //!< time of the last sample
    bool m_started{false};              //!< a first sample was drawn
};

} // namespace ns3

#endif /* WAN_DELAY_PROCESS_H */
