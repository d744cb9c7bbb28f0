/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARITY_POLICY_H
#define WAN_PARITY_POLICY_H

#include "fpga-aggregator-helper.h"
#include "wan-island-helper.h"

#include "ns3/round-planner.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The coded policies' parity: its layout (WanParityCode) and where it
 * is decoded, checked when set and given to the islands and the FPGAs of a
 * run (CliqueExperimentHelper's SetParity and SetParityDecoding).
 *
 * Decoded at the island (the default), each island decodes over its FPGA's
 * sums; at the FPGA, each FPGA also decodes every sender's stream before it
 * sums (FpgaStreamDecoder), in a share of its HBM.  The parity may also be
 * sized per round and stream from what the receivers measure (SetSizing):
 * decoded at the FPGA, the FPGAs REPORT each block's losses to its sender;
 * decoded at the island, each island REPORTs to its peers the block's
 * chunks that lack a contribution (the erasures of the sums it decodes).
 * The layout's parities are then the most a stream sends.
 */
class WanParityPolicy
{
  public:
    /**
     * @param config the FPGAs' capabilities (decoding at the FPGA needs HBM)
     */
    explicit WanParityPolicy(const PlannerConfig& config);

    /**
     * @param block data chunks per block, 1 to 255
     * @param parities parity chunks per block, 1 to block, block + parities
     *        at most 256
     * @throws std::invalid_argument naming the bad value
     */
    void SetLayout(uint32_t block, uint32_t parities);
    /**
     * @param where "island" or "fpga"
     * @param hbmShare with "fpga", the share of each FPGA's HBM for the
     *        copies of the blocks it decodes, above 0 and below 1
     * @throws std::invalid_argument for another place, a share out of range,
     *         or "fpga" when the FPGAs have no HBM
     */
    void SetDecoding(const std::string& where, double hbmShare);
    /**
     * @param epsilon the block failure probability each round's parity is
     *        sized for, above 0 and at most 0.5 (0: not sized, every stream
     *        sends the layout's parities)
     * @param window rounds of reports counted, at least 1
     * @param confidence of each receiver's Wilson interval, whose upper end
     *        is its rate, 0 (the measured rate) to below 1
     * @throws std::invalid_argument for values out of range
     */
    void SetSizing(double epsilon, uint32_t window, double confidence);
    /**
     * @param rate the loss rate a sized round is sized for before any report
     *        of its window came back (WanIslandApplication's ParityPrior), in
     *        [0, 1); below 0 (the default): every row of the layout
     * @throws std::invalid_argument for a rate of 1 or more
     */
    void SetPrior(double rate);

    /**
     * @brief Gives the islands the layout.
     * @param islands the islands' helper
     * @param coded whether the run's policy sends parity
     */
    void ConfigureIslands(WanIslandHelper& islands, bool coded) const;
    /**
     * @brief Gives the FPGAs the HBM and layout to decode per stream, when
     * decoded there.
     * @param fpgas the FPGAs' helper (unscaled HBM: the helper scales it)
     * @param coded whether the run's policy sends parity
     */
    void ConfigureFpgas(FpgaAggregatorHelper& fpgas, bool coded) const;

    /** @return data chunks per block */
    uint32_t GetBlock() const;
    /** @return parity chunks per block */
    uint32_t GetParities() const;
    /** @return true when the FPGAs decode per stream */
    bool DecodesAtFpga() const;

  private:
    double m_hbmBytes;          //!< each FPGA's HBM
    bool m_aggregation;         //!< FPGAs at all
    uint32_t m_block;           //!< data chunks per block
    uint32_t m_parities;        //!< parity chunks per block
    bool m_decodeAtFpga{false}; //!< decoded per stream at the FPGA too
    double m_share{0.5};        //!< share of HBM for that
    double m_epsilon{0};        //!< sized for this failure probability (0: not sized)
    uint32_t m_window{2};       //!< rounds of reports counted
    double m_confidence{0.95};  //!< of each receiver's rate interval
    double m_prior{-1};         //!< rate sized for before reports (-1: every row)
};

} // namespace ns3

#endif /* WAN_PARITY_POLICY_H */
