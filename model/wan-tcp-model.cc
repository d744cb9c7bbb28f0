/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-tcp-model.h"

#include "wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/**
 * @param p a loss probability
 * @return p
 * @throws std::invalid_argument unless in (0, 1)
 */
double
RequireLoss(double p)
{
    if (!(p > 0 && p < 1))
    {
        throw std::invalid_argument("TCP model: loss probability " + wantext::Num(p) +
                                    " (need one in (0, 1))");
    }
    return p;
}

} // namespace

double
WanTcpModel::RenoWindow(double p, uint32_t segmentsPerAck)
{
    if (segmentsPerAck < 1)
    {
        throw std::invalid_argument("TCP model: 0 segments per ACK");
    }
    return std::sqrt(3.0 / (2.0 * segmentsPerAck)) / std::sqrt(RequireLoss(p));
}

double
WanTcpModel::CubicWindow(double rttSeconds, double p, uint32_t segmentsPerAck)
{
    wantext::RequirePositive(rttSeconds, "TCP model round-trip time", "s");
    const double cubic = std::pow(CUBIC_C * (3 + CUBIC_BETA) / (4 * (1 - CUBIC_BETA)), 0.25) *
                         std::pow(rttSeconds, 0.75) / std::pow(RequireLoss(p), 0.75);
    return std::max(cubic, RenoWindow(p, segmentsPerAck));
}

double
WanTcpModel::Rate(double windowSegments, double segmentBytes, double rttSeconds)
{
    wantext::RequirePositive(rttSeconds, "TCP model round-trip time", "s");
    return windowSegments * segmentBytes * 8 / rttSeconds;
}

double
WanTcpModel::BufferRate(double bufferBytes, double rttSeconds, double segmentBytes)
{
    wantext::RequirePositive(rttSeconds, "TCP model round-trip time", "s");
    const double window =
        segmentBytes > 0 ? std::floor(bufferBytes / segmentBytes) * segmentBytes : bufferBytes;
    return window * 8 / rttSeconds;
}

} // namespace ns3
