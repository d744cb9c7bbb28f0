/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_SCALE_CHECK_H
#define WAN_SCALE_CHECK_H

#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Whether a packet-level run's time-preserving scale changes what it
 * measures, and at which scale it stops mattering.
 *
 * The scale keeps times and stretches packets: an FPGA without memory holds a
 * chunk for its line-rate window W at full scale and for W x scale in a run at
 * that scale (the window keeps its number of packets).  Jitter keeps its time.
 * So a jitter that splits chunks at full scale (sigma well above W) may be
 * absorbed by the scaled window: late contributions, partial sums and the
 * measured A then depend on the scale.  The answer is the full scale's when
 * the window is negligible against the jitter at both (W x scale <= sigma /
 * 10) or the jitter negligible against the window at both (sigma <= W / 10).
 */
class WanScaleCheck
{
  public:
    /**
     * @param jitterSeconds the largest jitter (standard deviation) on a link
     * @param windowSeconds the FPGAs' line-rate window at full scale
     * @param scale the run's scale, >= 1
     * @return "" when the scale does not change how the window meets the
     *         jitter; otherwise one line saying so, with the largest scale at
     *         which the window is at most a tenth of the jitter
     */
    static std::string JitterAgainstWindow(double jitterSeconds,
                                           double windowSeconds,
                                           double scale);

    /**
     * TCP at a time-preserving scale: the scale divides every rate and
     * payload, but TCP counts its windows, its slow start and the device
     * queues in segments, so a path's bandwidth-delay product is `scale`
     * times fewer segments in the run than at full scale; slow start
     * reaches it about log2(scale) round trips sooner, and a queue of
     * packets drains in `scale` times its full-scale time.  The collectives'
     * times over TCP are therefore not scale-free, unlike the island rounds'.
     *
     * @param scale the run's scale, >= 1
     * @return "" at full scale; otherwise one line saying so
     */
    static std::string TcpAtScale(double scale);
};

} // namespace ns3

#endif // WAN_SCALE_CHECK_H
