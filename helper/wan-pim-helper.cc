/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-pim-helper.h"

#include "wan-mpi-helper.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/wan-bfd-application.h"
#include "ns3/wan-pim-router.h"

#include <algorithm>
#include <map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanPimHelper");

namespace
{
/// A router's BFD session changed: tell its PIM router.
void
BfdChanged(Ptr<WanPimRouter> router, bool up, Ipv4Address, Ipv4Address remote, uint8_t)
{
    if (up)
    {
        router->NeighbourUp(remote);
    }
    else
    {
        router->NeighbourDown(remote);
    }
}
} // namespace

WanPimHelper::WanPimHelper()
    : wancompat::ApplicationHelper(WanPimRouter::GetTypeId())
{
}

ApplicationContainer
WanPimHelper::Install(const WanNetworkHelper& net) const
{
    ApplicationContainer apps;
    const auto& routers = net.GetRouters();
    for (uint32_t c = 0; c < routers.GetN(); ++c)
    {
        auto app = m_factory.Create<WanPimRouter>();
        auto toEdge = net.GetAccessDevices(c).Get(3);
        app->SetEdgeInterface(static_cast<uint32_t>(
            routers.Get(c)->GetObject<Ipv4>()->GetInterfaceForDevice(toEdge)));
        if (WanMpiHelper::RunsHere(routers.Get(c)))
        {
            routers.Get(c)->AddApplication(app);
        }
        else
        {
            // Another rank runs it; on its node (for Converge), not started here.
            app->SetNode(routers.Get(c));
        }
        apps.Add(app);
    }
    for (const auto& link : net.GetTopology().GetLinks())
    {
        for (const auto& [from, to] :
             {std::make_pair(link.a, link.b), std::make_pair(link.b, link.a)})
        {
            auto device = net.GetCoreDevice(from, to);
            const auto interface = static_cast<uint32_t>(
                device->GetNode()->GetObject<Ipv4>()->GetInterfaceForDevice(device));
            DynamicCast<WanPimRouter>(apps.Get(from))
                ->AddInterface(interface, net.GetCoreAddress(to, from));
        }
    }
    return apps;
}

uint64_t
WanPimHelper::Converge(const ApplicationContainer& apps)
{
    // Which router owns an address.
    std::map<Ipv4Address, Ptr<WanPimRouter>> owner;
    for (uint32_t k = 0; k < apps.GetN(); ++k)
    {
        auto ipv4 = apps.Get(k)->GetNode()->GetObject<Ipv4>();
        for (uint32_t i = 0; i < ipv4->GetNInterfaces(); ++i)
        {
            for (uint32_t a = 0; a < ipv4->GetNAddresses(i); ++a)
            {
                owner[ipv4->GetAddress(i, a).GetLocal()] = DynamicCast<WanPimRouter>(apps.Get(k));
            }
        }
    }
    for (uint32_t k = 0; k < apps.GetN(); ++k)
    {
        DynamicCast<WanPimRouter>(apps.Get(k))->Greet();
    }
    uint64_t delivered = 0;
    for (bool more = true; more;)
    {
        more = false;
        for (uint32_t k = 0; k < apps.GetN(); ++k)
        {
            auto router = DynamicCast<WanPimRouter>(apps.Get(k));
            auto pending = router->TakePending();
            // Hellos first: a Join/Prune is accepted from neighbours only.
            std::stable_partition(pending.begin(), pending.end(), [](const auto& m) {
                return m.second.GetType() == WanPimHeader::HELLO;
            });
            for (const auto& [neighbour, message] : pending)
            {
                auto to = owner.at(neighbour);
                to->Deliver(router->GetLocalAddress(neighbour), message);
                ++delivered;
                more = true;
            }
        }
    }
    NS_LOG_INFO("converged with " << delivered << " PIM messages");
    return delivered;
}

void
WanPimHelper::WatchBfd(const ApplicationContainer& pim, const ApplicationContainer& bfd)
{
    for (uint32_t k = 0; k < pim.GetN() && k < bfd.GetN(); ++k)
    {
        auto router = DynamicCast<WanPimRouter>(pim.Get(k));
        bfd.Get(k)->TraceConnectWithoutContext("SessionUp",
                                               MakeBoundCallback(&BfdChanged, router, true));
        bfd.Get(k)->TraceConnectWithoutContext("SessionDown",
                                               MakeBoundCallback(&BfdChanged, router, false));
    }
}

void
WanPimHelper::RoutesChanged(const ApplicationContainer& apps)
{
    for (uint32_t k = 0; k < apps.GetN(); ++k)
    {
        DynamicCast<WanPimRouter>(apps.Get(k))->RoutesChanged();
    }
}

} // namespace ns3
