/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef STALENESS_MODEL_H
#define STALENESS_MODEL_H

#include "wan-topology.h"

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief GPU idling of synchronous SGD, and the speedup from tolerating
 * staleness.
 *
 * A training step computes for c seconds, then exchanges for x seconds.
 * Synchronous SGD waits for the exchange: step time c + x, GPU idle fraction
 * x / (c + x).  Tolerating a staleness of S seconds lets computation go on
 * while up to S seconds of exchange are in flight: step time
 * c + max(0, x - S), speedup (c + x) / (c + max(0, x - S)).  Once S >= x the
 * speedup is 1 / (1 - idle fraction).
 */
class StalenessModel
{
  public:
    /**
     * @param computeSeconds compute time per step c, > 0
     * @param exchangeSeconds exchange time per step x, >= 0
     */
    StalenessModel(double computeSeconds, double exchangeSeconds);

    /**
     * @brief Exchange time of a synchronous all-reduce over the WAN: a
     * reduce-scatter and an all-gather, each moving (N-1)/N of the payload
     * through every island's access link after the longest path latency:
     * x = 2 (max_ij l_ij + (N-1)/N * D / b), b the slowest access rate.
     * @param topo the network
     * @param payloadBytes D, > 0
     * @return x, seconds
     */
    static double AllReduceSeconds(const WanTopology& topo, double payloadBytes);

    /** @return c */
    double GetComputeSeconds() const;
    /** @return x */
    double GetExchangeSeconds() const;
    /** @return x / (c + x) */
    double GetIdleFraction() const;
    /**
     * @param stalenessSeconds S >= 0
     * @return (c + x) / (c + max(0, x - S))
     */
    double GetSpeedup(double stalenessSeconds) const;
    /** @return the staleness S = x at which the speedup stops growing */
    double GetFullOverlapStaleness() const;

  private:
    double m_compute;  //!< c
    double m_exchange; //!< x
};

} // namespace ns3

#endif /* STALENESS_MODEL_H */
