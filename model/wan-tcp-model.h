/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TCP_MODEL_H
#define WAN_TCP_MODEL_H

#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Closed forms of a long TCP flow's throughput, what the module's TCP
 * validations hold ns-3's TCP to (WanTcpFlowExperiment): the response to
 * random loss of Reno-like congestion control (Mathis et al., 1997) and of
 * CUBIC (RFC 9438, section 5.1), and the cap of a window held by a buffer.
 * Windows are in segments, rates in bit/s of payload.
 */
class WanTcpModel
{
  public:
    /// CUBIC's C (RFC 9438), segments / s^3.
    static constexpr double CUBIC_C = 0.4;
    /// CUBIC's multiplicative decrease factor beta_cubic (RFC 9438).
    static constexpr double CUBIC_BETA = 0.7;

    /**
     * @brief Mathis et al.: the average window of a Reno-like flow under
     * random loss p, C / sqrt(p) with C = sqrt(3 / (2 b)).
     * @param p the loss probability per segment, (0, 1)
     * @param segmentsPerAck b: 1, or 2 with delayed ACKs (ns-3's default)
     * @return segments
     */
    static double RenoWindow(double p, uint32_t segmentsPerAck = 2);
    /**
     * @brief RFC 9438's average window of CUBIC under random loss p: the
     * cubic region's ((C (3 + beta)) / (4 (1 - beta)))^(1/4) x
     * RTT^(3/4) / p^(3/4), or the Reno-friendly region's (RenoWindow),
     * whichever is larger (CUBIC takes the larger of its two windows).
     * @param rttSeconds the round-trip time, > 0
     * @param p the loss probability per segment, (0, 1)
     * @param segmentsPerAck b of the Reno-friendly region
     * @return segments
     */
    static double CubicWindow(double rttSeconds, double p, uint32_t segmentsPerAck = 2);
    /**
     * @param windowSegments an average window
     * @param segmentBytes the segment's payload, bytes
     * @param rttSeconds the round-trip time, > 0
     * @return the rate that window gives, window x segment / RTT, bit/s
     */
    static double Rate(double windowSegments, double segmentBytes, double rttSeconds);
    /**
     * @param bufferBytes the send or receive buffer that holds the window
     * @param rttSeconds the round-trip time, > 0
     * @param segmentBytes when above 0, the window is the buffer's whole
     *        segments (a sender holds no part of a segment back)
     * @return the rate it caps a flow at, buffer / RTT, bit/s
     */
    static double BufferRate(double bufferBytes, double rttSeconds, double segmentBytes = 0);
};

} // namespace ns3

#endif /* WAN_TCP_MODEL_H */
