/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-bfd-helper.h"

#include "wan-mpi-helper.h"

#include "ns3/log.h"
#include "ns3/wan-bfd-application.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanBfdHelper");

WanBfdHelper::WanBfdHelper()
    : wancompat::ApplicationHelper(WanBfdApplication::GetTypeId())
{
}

ApplicationContainer
WanBfdHelper::Install(const WanNetworkHelper& net) const
{
    ApplicationContainer apps;
    const auto& routers = net.GetRouters();
    for (uint32_t c = 0; c < routers.GetN(); ++c)
    {
        auto app = m_factory.Create<WanBfdApplication>();
        if (WanMpiHelper::RunsHere(routers.Get(c)))
        {
            routers.Get(c)->AddApplication(app);
        } // else another rank runs it: made, so the indices stay the cities
        apps.Add(app);
    }
    for (const auto& link : net.GetTopology().GetLinks())
    {
        const auto ab = net.GetCoreAddress(link.a, link.b);
        const auto ba = net.GetCoreAddress(link.b, link.a);
        DynamicCast<WanBfdApplication>(apps.Get(link.a))->AddPeer(ab, ba);
        DynamicCast<WanBfdApplication>(apps.Get(link.b))->AddPeer(ba, ab);
    }
    return apps;
}

int64_t
WanBfdHelper::AssignStreams(const ApplicationContainer& apps, int64_t stream)
{
    int64_t used = 0;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        used += DynamicCast<WanBfdApplication>(apps.Get(i))->AssignStreams(stream + used);
    }
    return used;
}

} // namespace ns3
