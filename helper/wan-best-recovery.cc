/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-best-recovery.h"

namespace ns3
{

WanBestRecovery::WanBestRecovery(const PlannerConfig& config)
    : m_coded(config.aggregation),
      m_parity(config)
{
    if (m_coded)
    {
        m_parity.SetLayout(kBlock, kParities);
        m_parity.SetDecoding(config.hbmBytes > 0 ? "fpga" : "island", kHbmShare);
        m_parity.SetSizing(kEpsilon, kWindow, kConfidence);
        m_parity.SetPrior(kPrior);
    }
}

bool
WanBestRecovery::IsCoded() const
{
    return m_coded;
}

const WanParityPolicy&
WanBestRecovery::GetParity() const
{
    return m_parity;
}

} // namespace ns3
