/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-multicast-route-helper.h"

#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/net-device-container.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanMulticastRouteHelper");

WanMulticastRouteHelper::WanMulticastRouteHelper(const WanNetworkHelper& net)
    : m_net(net)
{
}

void
WanMulticastRouteHelper::RequireInstalled() const
{
    if (m_net.GetIslands().GetN() == 0)
    {
        throw std::logic_error("WanNetworkHelper::Install must come before multicast trees");
    }
}

void
WanMulticastRouteHelper::InstallTree(uint32_t source,
                                     const std::vector<uint32_t>& receivers,
                                     Ipv4Address group,
                                     bool toIslands,
                                     const WanTopology* routes) const
{
    NS_LOG_FUNCTION(this << source << group << toIslands);
    RequireInstalled();
    const auto& topo = m_net.GetTopology();
    Ipv4StaticRoutingHelper staticRouting;
    const Ipv4Address s = m_net.GetIslandAddress(source);
    const auto hops = (routes ? *routes : topo).GetMulticastTree(source, receivers);
    std::vector<bool> receiving(topo.GetNCities(), false);
    for (auto r : receivers)
    {
        receiving.at(r) = r != source;
    }
    auto children = [&hops, this](uint32_t u) {
        NetDeviceContainer out;
        for (const auto& [from, to] : hops)
        {
            if (from == u)
            {
                out.Add(m_net.GetCoreDevice(from, to));
            }
        }
        return out;
    };
    InstallEdgeRoutes(source, receivers, group, toIslands);
    // The source's router sends to the first branches; every other router of
    // the tree: in from its parent (RPF), out to its children and, at a
    // receiver, down to its edge node.
    staticRouting.AddMulticastRoute(m_net.GetRouters().Get(source),
                                    s,
                                    group,
                                    m_net.GetAccessDevices(source).Get(3),
                                    children(source));
    for (const auto& [parent, v] : hops)
    {
        NetDeviceContainer out = children(v);
        if (receiving[v])
        {
            out.Add(m_net.GetAccessDevices(v).Get(3));
        }
        staticRouting.AddMulticastRoute(m_net.GetRouters().Get(v),
                                        s,
                                        group,
                                        m_net.GetCoreDevice(v, parent),
                                        out);
    }
}

void
WanMulticastRouteHelper::InstallEdgeRoutes(uint32_t source,
                                           const std::vector<uint32_t>& receivers,
                                           Ipv4Address group,
                                           bool toIslands) const
{
    NS_LOG_FUNCTION(this << source << group << toIslands);
    RequireInstalled();
    Ipv4StaticRoutingHelper staticRouting;
    const Ipv4Address s = m_net.GetIslandAddress(source);
    // Source side: island -> edge -> router.
    const auto src = m_net.GetAccessDevices(source);
    staticRouting.AddMulticastRoute(m_net.GetEdges().Get(source), s, group, src.Get(1), src.Get(2));
    for (auto v : receivers)
    {
        if (v != source && toIslands)
        {
            BypassEdge(v, source, group);
        }
    }
}

void
WanMulticastRouteHelper::BypassEdge(uint32_t city, uint32_t source, Ipv4Address group) const
{
    NS_LOG_FUNCTION(this << city << source << group);
    Ipv4StaticRoutingHelper staticRouting;
    const auto access = m_net.GetAccessDevices(city);
    staticRouting.AddMulticastRoute(m_net.GetEdges().Get(city),
                                    m_net.GetIslandAddress(source),
                                    group,
                                    access.Get(2),
                                    access.Get(1));
}

uint32_t
WanMulticastRouteHelper::RemoveTree(uint32_t source, Ipv4Address group) const
{
    NS_LOG_FUNCTION(this << source << group);
    const Ipv4Address origin = m_net.GetIslandAddress(source);
    uint32_t removed = 0;
    for (const auto& nodes : {m_net.GetRouters(), m_net.GetEdges()})
    {
        for (uint32_t n = 0; n < nodes.GetN(); ++n)
        {
            auto routing =
                Ipv4StaticRoutingHelper().GetStaticRouting(nodes.Get(n)->GetObject<Ipv4>());
            for (uint32_t i = routing->GetNMulticastRoutes(); i-- > 0;)
            {
                const auto route = routing->GetMulticastRoute(i);
                if (route.GetGroup() == group && route.GetOrigin() == origin)
                {
                    routing->RemoveMulticastRoute(i);
                    ++removed;
                }
            }
        }
    }
    return removed;
}

} // namespace ns3
