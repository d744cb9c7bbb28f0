/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_BEST_RECOVERY_H
#define WAN_BEST_RECOVERY_H

#include "wan-parity-policy.h"

#include "ns3/round-planner.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The recovery a run has by default (CliqueExperimentHelper's
 * Recovery "best"): the best one its configuration allows, as measured
 * (the model documentation's "The default recovery").
 *
 * With FPGAs, the MDS code in blocks of kBlock data chunks, decoded per
 * stream at the FPGA (FpgaStreamDecoder, in half its HBM) when the FPGAs
 * have memory, at the island over the FPGA's sums when not, and sized in
 * band per round and stream: each block's failure probability at most
 * kEpsilon for the worst receiver's rate that the receivers report (the
 * FPGAs of each stream's loss, or the islands of their sums' erasures;
 * WanLossEstimator over two rounds, 95% Wilson upper end, WanParitySizer),
 * at most kParities rows; a round whose window holds no report yet (the
 * first) is sized for the prior rate kPrior, a stream's erasures over an
 * access, a few core and a post-aggregation link at about 1% each (12
 * rows per block, not all kParities); what the code cannot rebuild is asked
 * for early.  Without FPGAs (unicast between islands): early requests
 * alone.
 */
class WanBestRecovery
{
  public:
    static constexpr uint32_t kBlock = 112;     //!< data chunks per block
    static constexpr uint32_t kParities = 40;   //!< parity rows per block, at most
    static constexpr double kEpsilon = 0.01;    //!< block failure probability sized for
    static constexpr double kPrior = 0.05;      //!< rate sized for before reports
    static constexpr double kHbmShare = 0.5;    //!< of each FPGA's HBM for decoding
    static constexpr uint32_t kWindow = 2;      //!< rounds of reports counted
    static constexpr double kConfidence = 0.95; //!< of each receiver's rate interval

    /**
     * @param config the FPGAs' capabilities
     */
    explicit WanBestRecovery(const PlannerConfig& config);

    /** @return true when the run sends parity (there are FPGAs) */
    bool IsCoded() const;
    /** @return the parity's layout, decoding and sizing */
    const WanParityPolicy& GetParity() const;

  private:
    bool m_coded;             //!< parity at all
    WanParityPolicy m_parity; //!< its layout, decoding and sizing
};

} // namespace ns3

#endif /* WAN_BEST_RECOVERY_H */
