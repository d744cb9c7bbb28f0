/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fpga-aggregator-helper.h"

#include "ns3/data-rate.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/uinteger.h"
#include "ns3/wan-training-text.h"

namespace ns3
{

FpgaAggregatorHelper::FpgaAggregatorHelper()
    : wancompat::ApplicationHelper(FpgaAggregator::GetTypeId())
{
}

void
FpgaAggregatorHelper::SetScale(double factor)
{
    m_scale = wantext::RequireAtLeast(factor, 1, "scale");
}

Ptr<Application>
FpgaAggregatorHelper::DoInstall(Ptr<Node> node)
{
    auto fpga = Create();
    node->AddApplication(fpga);
    return fpga;
}

Ptr<FpgaAggregator>
FpgaAggregatorHelper::Create() const
{
    auto fpga = m_factory.Create<FpgaAggregator>();
    if (m_scale != 1)
    {
        for (const char* memory : {"HbmBytes", "DecodeBytes"})
        {
            UintegerValue bytes;
            fpga->GetAttribute(memory, bytes);
            fpga->SetAttribute(memory, UintegerValue(static_cast<uint64_t>(bytes.Get() / m_scale)));
        }
        TimeValue window;
        fpga->GetAttribute("LineRateWindow", window);
        fpga->SetAttribute("LineRateWindow", TimeValue(window.Get() * m_scale));
        DataRateValue rate;
        fpga->GetAttribute("LineRate", rate);
        fpga->SetAttribute(
            "LineRate",
            DataRateValue(DataRate(static_cast<uint64_t>(rate.Get().GetBitRate() / m_scale))));
    }
    return fpga;
}

int64_t
FpgaAggregatorHelper::AssignStreams(ApplicationContainer apps, int64_t stream) const
{
    (void)apps;
    (void)stream;
    return 0;
}

} // namespace ns3
