/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parity-policy.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/uinteger.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-parity-code.h"
#include "ns3/wan-training-text.h"

#include <stdexcept>

namespace ns3
{

WanParityPolicy::WanParityPolicy(const PlannerConfig& config)
    : m_hbmBytes(config.hbmBytes),
      m_aggregation(config.aggregation),
      m_block(WanIslandApplication::GetDefaultParityBlock()),
      m_parities(WanIslandApplication::GetDefaultParityChunks())
{
}

void
WanParityPolicy::SetLayout(uint32_t block, uint32_t parities)
{
    wantext::bounds::kParityBlock.Check(block, "parity block");
    WanParityCode(block, block, parities); // refuses a bad layout, with its values
    m_block = block;
    m_parities = parities;
}

void
WanParityPolicy::SetDecoding(const std::string& where, double hbmShare)
{
    if (where != "island" && where != "fpga")
    {
        throw std::invalid_argument("parity decoding must be island or fpga (got '" +
                                    wantext::Printable(where) + "')");
    }
    if (!(hbmShare > 0 && hbmShare < 1))
    {
        throw std::invalid_argument(
            "parity decoding's share of HBM must be above 0 and below 1 (got " +
            wantext::Num(hbmShare) + ")");
    }
    if (where == "fpga" && (!m_aggregation || m_hbmBytes <= 0))
    {
        throw std::invalid_argument("parity decoding at the FPGA needs FPGA memory to hold "
                                    "copies of the blocks (hbmBytes is 0)");
    }
    m_decodeAtFpga = where == "fpga";
    m_share = hbmShare;
}

void
WanParityPolicy::SetSizing(double epsilon, uint32_t window, double confidence)
{
    if (!(confidence >= 0 && confidence < 1))
    {
        throw std::invalid_argument(
            "parity sizing's confidence must be from 0 to less than 1 (got " +
            wantext::Num(confidence) + ")");
    }
    if (!(epsilon >= 0 && epsilon <= 0.5))
    {
        throw std::invalid_argument(
            "parity sizing's failure probability must be above 0 and at most 0.5 (got " +
            wantext::Num(epsilon) + "; 0: not sized)");
    }
    if (window == 0)
    {
        throw std::invalid_argument("parity sizing's window must be at least 1 round (got 0)");
    }
    m_epsilon = epsilon;
    m_window = window;
    m_confidence = confidence;
}

void
WanParityPolicy::SetPrior(double rate)
{
    if (!(rate < 0))
    {
        wantext::bounds::kLossRate.Check(rate, "parity sizing's prior rate");
    }
    m_prior = rate < 0 ? -1 : rate;
}

void
WanParityPolicy::ConfigureIslands(WanIslandHelper& islands, bool coded) const
{
    islands.SetAttribute("Parity", BooleanValue(coded));
    islands.SetAttribute("ParityBlock", UintegerValue(m_block));
    islands.SetAttribute("ParityChunks", UintegerValue(m_parities));
    islands.SetAttribute("ParitySizing", BooleanValue(coded && m_epsilon > 0));
    if (m_epsilon > 0)
    {
        islands.SetAttribute("ParityEpsilon", DoubleValue(m_epsilon));
        islands.SetAttribute("ParityWindow", UintegerValue(m_window));
        islands.SetAttribute("ParityConfidence", DoubleValue(m_confidence));
        islands.SetAttribute("ParityPrior", DoubleValue(m_prior));
        // Decoded at the island, the islands measure the sums they decode.
        islands.SetAttribute("ReportLoss", BooleanValue(coded && !m_decodeAtFpga));
    }
}

void
WanParityPolicy::ConfigureFpgas(FpgaAggregatorHelper& fpgas, bool coded) const
{
    if (!coded || !m_decodeAtFpga)
    {
        return;
    }
    fpgas.SetAttribute("DecodeBytes", UintegerValue(static_cast<uint64_t>(m_hbmBytes * m_share)));
    fpgas.SetAttribute("ParityBlock", UintegerValue(m_block));
    fpgas.SetAttribute("ParityChunks", UintegerValue(m_parities));
    fpgas.SetAttribute("ReportLoss", BooleanValue(m_epsilon > 0));
}

uint32_t
WanParityPolicy::GetBlock() const
{
    return m_block;
}

uint32_t
WanParityPolicy::GetParities() const
{
    return m_parities;
}

bool
WanParityPolicy::DecodesAtFpga() const
{
    return m_decodeAtFpga;
}

} // namespace ns3
