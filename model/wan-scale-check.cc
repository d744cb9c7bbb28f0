/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-scale-check.h"

#include "wan-training-text.h"

#include <cmath>

namespace ns3
{

std::string
WanScaleCheck::JitterAgainstWindow(double jitterSeconds, double windowSeconds, double scale)
{
    const double scaled = windowSeconds * scale;
    if (jitterSeconds <= windowSeconds / 10 || scaled <= jitterSeconds / 10 || scale <= 1)
    {
        return "";
    }
    const double largest = std::floor(jitterSeconds / (10 * windowSeconds));
    const std::string remedy =
        largest >= 2 ? "at scale " + wantext::Num(largest) +
                           " or below the window is at most a tenth of the jitter, as at full "
                           "scale; or give the FPGAs memory"
                     : "give the FPGAs memory";
    return "jitter of " + wantext::Num(jitterSeconds * 1e3) +
           " ms against the FPGAs' line-rate window of " + wantext::Num(scaled * 1e3) +
           " ms at scale " + wantext::Num(scale) + " (" + wantext::Num(windowSeconds * 1e6) +
           " us at full scale): the scaled window absorbs skew the full-scale one does not, "
           "so late contributions, partial sums and A depend on the scale (" +
           remedy + ")";
}

std::string
WanScaleCheck::TcpAtScale(double scale)
{
    if (scale <= 1)
    {
        return "";
    }
    return "TCP at scale " + wantext::Num(scale) +
           ": windows, slow start and device queues count segments, so a path's "
           "bandwidth-delay product is " +
           wantext::Num(scale) +
           " times fewer segments than at full scale (slow start reaches it " +
           wantext::Num(std::log2(scale), 3) +
           " round trips sooner; a queue of packets drains in " + wantext::Num(scale) +
           " times its full-scale time): times over TCP are not scale-free (compare systems at one "
           "scale, the lowest a study affords)";
}

} // namespace ns3
