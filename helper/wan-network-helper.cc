/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-network-helper.h"

#include "wan-edge-routing-helper.h"
#include "wan-mpi-helper.h"
#include "wan-router-routing-helper.h"

#include "ns3/boolean.h"
#include "ns3/callback.h"
#include "ns3/enum.h"
#include "ns3/error-model.h"
#include "ns3/internet-stack-helper.h"
#include "ns3/ipv4-address-helper.h"
#include "ns3/ipv4-routing-table-entry.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/point-to-point-helper.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/queue-size.h"
#include "ns3/round-planner.h"
#include "ns3/string.h"
#include "ns3/traffic-control-helper.h"
#include "ns3/uinteger.h"
#include "ns3/wan-edge-routing.h"
#include "ns3/wan-jitter-channel.h"
#include "ns3/wan-training-compat.h"
#include "ns3/wan-training-text.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanNetworkHelper");

namespace
{
/// Every link is a /30.
const Ipv4Mask kLinkMask("255.255.255.252");
} // namespace

NS_OBJECT_ENSURE_REGISTERED(WanNetworkHelper);

TypeId
WanNetworkHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanNetworkHelper")
            .SetParent<ObjectBase>()
            .SetGroupName("WanTraining")
            .AddAttribute("CoreQueue",
                          "The queue disc of every core link device: fq-codel (ns-3's "
                          "default, FqCoDelQueueDisc, which keeps flows apart) or fifo "
                          "(FifoQueueDisc: one drop-tail queue of CoreQueuePackets, as many "
                          "WAN routers have)",
                          EnumValue(WanNetworkHelper::FQ_CODEL),
                          wancompat::MakeEnumMemberAccessor(&WanNetworkHelper::m_coreQueue),
                          MakeEnumChecker(WanNetworkHelper::FQ_CODEL,
                                          "fq-codel",
                                          WanNetworkHelper::FIFO,
                                          "fifo"))
            .AddAttribute("CoreQueuePackets",
                          "The FIFO core queue's size, packets (not used by fq-codel)",
                          UintegerValue(1000),
                          MakeUintegerAccessor(&WanNetworkHelper::m_coreQueuePackets),
                          MakeUintegerChecker<uint32_t>(1));
    return tid;
}

TypeId
WanNetworkHelper::GetInstanceTypeId() const
{
    return GetTypeId();
}

WanNetworkHelper::WanNetworkHelper(const WanTopology& topo)
    : m_topo(topo),
      m_edgeBps(PlannerConfig().edgeBps)
{
    ConstructSelf(AttributeConstructionList()); // the attributes' defaults
    m_topo.Validate();
}

void
WanNetworkHelper::SetEdgeRate(double bps)
{
    m_edgeBps = wantext::RequirePositive(bps, "edge rate");
}

void
WanNetworkHelper::SetCoreQueue(const std::string& kind, uint32_t packets)
{
    const auto queue =
        wancompat::EnumFromName<CoreQueue>(GetTypeId(), "CoreQueue", kind, "core queue");
    if (packets < 1)
    {
        throw std::invalid_argument("core queue: a FIFO holds at least 1 packet");
    }
    m_coreQueue = queue;
    m_coreQueuePackets = packets;
}

void
WanNetworkHelper::SetCoreQueue(const std::string& kind)
{
    SetCoreQueue(kind, m_coreQueuePackets);
}

void
WanNetworkHelper::SetSystemIds(const std::vector<uint32_t>& rankOfCity)
{
    if (!rankOfCity.empty() && rankOfCity.size() != m_topo.GetNCities())
    {
        throw std::invalid_argument("system ids for " + std::to_string(rankOfCity.size()) +
                                    " cities, the topology has " +
                                    std::to_string(m_topo.GetNCities()));
    }
    m_systemIds = rankOfCity;
}

void
WanNetworkHelper::SetEdgeMulticastDelivery(bool deliver)
{
    m_edgeDelivery = deliver;
}

void
WanNetworkHelper::SetMtu(uint32_t bytes)
{
    if (bytes < 576)
    {
        throw std::invalid_argument("MTU must be at least 576 bytes (got " + std::to_string(bytes) +
                                    ")");
    }
    m_mtu = bytes;
}

void
WanNetworkHelper::SetScale(double factor)
{
    m_scale = wantext::RequireAtLeast(factor, 1, "scale");
}

namespace
{

/// Counts a packet lost by an error model.
void
CountLoss(uint64_t* counter, Ptr<const Packet>)
{
    ++*counter;
}

/// @return the class's name, for messages
std::string
ClassName(WanNetworkHelper::LinkClass c)
{
    switch (c)
    {
    case WanNetworkHelper::CORE:
        return "core links";
    case WanNetworkHelper::ACCESS:
        return "access links";
    default:
        return "post-aggregation hop";
    }
}

} // namespace

void
WanNetworkHelper::SetImpairment(LinkClass linkClass, const WanLinkImpairment& impairment)
{
    impairment.Validate(ClassName(linkClass));
    if (linkClass == POST_AGGREGATION && impairment.HasJitter())
    {
        throw std::invalid_argument("post-aggregation hop: jitter would also delay the island's "
                                    "outgoing stream on its access link; set it on access links");
    }
    m_impairment[linkClass] = impairment;
}

WanLinkImpairment
WanNetworkHelper::OwnOver(const WanLinkImpairment& own,
                          uint32_t fields,
                          LinkClass linkClass,
                          const std::string& where) const
{
    const auto it = m_impairment.find(linkClass);
    const auto merged =
        own.Over(it == m_impairment.end() ? WanLinkImpairment{} : it->second, fields);
    if (fields != 0)
    {
        merged.Validate(where);
    }
    return merged;
}

void
WanNetworkHelper::SetLinkImpairment(const std::string& a,
                                    const std::string& b,
                                    const WanLinkImpairment& impairment)
{
    m_topo.SetLinkImpairment(a, b, impairment);
}

namespace
{

/// The link classes by name.
const std::map<std::string, WanNetworkHelper::LinkClass> kLinkClassNames{
    {"core", WanNetworkHelper::CORE},
    {"access", WanNetworkHelper::ACCESS},
    {"post", WanNetworkHelper::POST_AGGREGATION},
};

} // namespace

WanNetworkHelper::LinkClass
WanNetworkHelper::ParseLinkClass(const std::string& name)
{
    auto it = kLinkClassNames.find(name);
    if (it == kLinkClassNames.end())
    {
        std::vector<std::string> names;
        for (const auto& [known, linkClass] : kLinkClassNames)
        {
            names.push_back(known);
        }
        throw std::invalid_argument("unknown link class \"" + wantext::Printable(name) +
                                    "\" (expected " + wantext::JoinOr(names) + ")");
    }
    return it->second;
}

const std::map<std::string, WanNetworkHelper::LinkClass>&
WanNetworkHelper::GetLinkClassNames()
{
    return kLinkClassNames;
}

void
WanNetworkHelper::Impair(const NetDeviceContainer& devices,
                         const std::vector<uint32_t>& receivers,
                         const WanLinkImpairment& impairment,
                         LinkClass linkClass)
{
    if (impairment.HasLoss())
    {
        for (auto r : receivers)
        {
            auto model = impairment.MakeErrorModel();
            devices.Get(r)->SetAttribute("ReceiveErrorModel", PointerValue(model));
            devices.Get(r)->TraceConnectWithoutContext(
                "PhyRxDrop",
                MakeBoundCallback(&CountLoss, &m_lost[linkClass]));
            m_errorModels.push_back(model);
        }
    }
    if (impairment.HasJitter())
    {
        // Move both devices onto a jitter channel with the same delay.
        auto a = DynamicCast<PointToPointNetDevice>(devices.Get(0));
        auto b = DynamicCast<PointToPointNetDevice>(devices.Get(1));
        TimeValue delay;
        a->GetChannel()->GetAttribute("Delay", delay);
        auto channel = CreateObject<WanJitterChannel>();
        channel->SetAttribute("Delay", delay);
        channel->SetAttribute("Model",
                              EnumValue(impairment.IsCorrelated() ? WanJitterChannel::CORRELATED
                                                                  : WanJitterChannel::INDEPENDENT));
        channel->SetAttribute("DelayProcess", ObjectFactoryValue(impairment.MakeDelayProcess()));
        channel->SetAttribute("Jitter", PointerValue(impairment.MakeJitter()));
        if (!impairment.IsCorrelated())
        {
            // Each direction its own stream, as the correlated model's
            // processes: what one direction draws does not depend on the
            // other's packets (nor on the rank that sends them).
            channel->SetAttribute("ReverseJitter", PointerValue(impairment.MakeJitter()));
        }
        channel->SetAttribute("Reorder", BooleanValue(impairment.reorder));
        a->Attach(channel);
        b->Attach(channel);
        m_jitterChannels.push_back(channel);
    }
}

int64_t
WanNetworkHelper::AssignStreams(int64_t stream)
{
    int64_t used = 0;
    for (const auto& model : m_errorModels)
    {
        if (auto rate = DynamicCast<RateErrorModel>(model))
        {
            used += rate->AssignStreams(stream + used);
        }
        else if (auto burst = DynamicCast<BurstErrorModel>(model))
        {
            used += burst->AssignStreams(stream + used);
        }
    }
    for (const auto& channel : m_jitterChannels)
    {
        used += DynamicCast<WanJitterChannel>(channel)->AssignStreams(stream + used);
    }
    return used;
}

uint64_t
WanNetworkHelper::GetLostPackets(LinkClass linkClass) const
{
    auto it = m_lost.find(linkClass);
    return it == m_lost.end() ? 0 : it->second;
}

std::string
WanNetworkHelper::Rate(double bps) const
{
    std::ostringstream s;
    s << static_cast<uint64_t>(std::llround(bps / m_scale)) << "bps";
    return s.str();
}

void
WanNetworkHelper::Install()
{
    NS_LOG_FUNCTION(this);
    if (m_installed)
    {
        throw std::logic_error("WanNetworkHelper::Install called twice");
    }
    m_installed = true;
    const uint32_t n = m_topo.GetNCities();
    // Node ids as without ranks: every router, then every edge node, then
    // every island; a city's three nodes on its rank.
    for (auto* nodes : {&m_routers, &m_edges, &m_islands})
    {
        for (uint32_t c = 0; c < n; ++c)
        {
            nodes->Create(1, m_systemIds.empty() ? 0 : m_systemIds[c]);
        }
    }
    // Routers forward with static routes and deliver only link-local
    // multicast locally (ns-3's list routing would deliver every multicast
    // packet at every hop); edge nodes deliver only the inbound streams to
    // their FPGA; islands are hosts.
    InternetStackHelper stack;
    stack.SetRoutingHelper(WanRouterRoutingHelper());
    stack.Install(m_routers);
    stack.SetRoutingHelper(WanEdgeRoutingHelper());
    stack.Install(m_edges);
    InternetStackHelper hosts;
    hosts.Install(m_islands);
    // A stream crosses every router of its path: on a long WAN (a 64-city
    // chain) more than ns-3's default TTL of 64 allows.  The WAN's hosts and
    // nodes send with the largest, 255 (PIM and BFD set their own 1 and 255).
    for (const auto* nodes : {&m_routers, &m_edges, &m_islands})
    {
        for (uint32_t i = 0; i < nodes->GetN(); ++i)
        {
            nodes->Get(i)->GetObject<Ipv4>()->SetAttribute("DefaultTtl", UintegerValue(255));
        }
    }

    Ipv4AddressHelper address("10.0.0.0", "255.255.255.252");
    PointToPointHelper p2p;
    p2p.SetDeviceAttribute("Mtu", UintegerValue(m_mtu));
    for (const auto& link : m_topo.GetLinks())
    {
        InstallCoreLink(link, p2p, address);
    }
    m_access.resize(n);
    for (uint32_t c = 0; c < n; ++c)
    {
        InstallCity(c, p2p, address);
    }
    InstallUnicastRoutes();
}

void
WanNetworkHelper::InstallCoreLink(const WanLink& link,
                                  PointToPointHelper& p2p,
                                  Ipv4AddressHelper& address)
{
    p2p.SetDeviceAttribute("DataRate", StringValue(Rate(link.capacityBps)));
    p2p.SetChannelAttribute("Delay", TimeValue(Seconds(link.delay)));
    auto devices = p2p.Install(m_routers.Get(link.a), m_routers.Get(link.b));
    Impair(devices,
           {0, 1},
           OwnOver(link.impairment,
                   link.impairmentFields,
                   CORE,
                   "link " + m_topo.GetCity(link.a).code + "-" + m_topo.GetCity(link.b).code),
           CORE);
    m_core[{link.a, link.b}] = devices.Get(0);
    m_core[{link.b, link.a}] = devices.Get(1);
    if (m_coreQueue == FIFO)
    {
        // Installed before the addresses, so that ns-3 adds no default queue disc.
        TrafficControlHelper fifo;
        fifo.SetRootQueueDisc("ns3::FifoQueueDisc",
                              "MaxSize",
                              QueueSizeValue(QueueSize(std::to_string(m_coreQueuePackets) + "p")));
        fifo.Install(devices);
    }
    auto interfaces = address.Assign(devices);
    m_coreAddress[{link.a, link.b}] = interfaces.GetAddress(0);
    m_coreAddress[{link.b, link.a}] = interfaces.GetAddress(1);
    address.NewNetwork();
}

void
WanNetworkHelper::InstallCity(uint32_t c, PointToPointHelper& p2p, Ipv4AddressHelper& address)
{
    const auto& city = m_topo.GetCity(c);
    // The island's final hop: egress rate from the island, ingress towards it.
    p2p.SetChannelAttribute("Delay", TimeValue(Seconds(0)));
    p2p.SetDeviceAttribute("DataRate", StringValue(Rate(city.egressBps)));
    auto access = p2p.Install(m_islands.Get(c), m_edges.Get(c));
    access.Get(1)->SetAttribute("DataRate", StringValue(Rate(city.ingressBps)));
    auto interfaces = address.Assign(access);
    address.NewNetwork();
    m_islandAddress.push_back(interfaces.GetAddress(0));
    m_edgeAddress.push_back(interfaces.GetAddress(1));

    p2p.SetDeviceAttribute("DataRate", StringValue(Rate(m_edgeBps)));
    auto up = p2p.Install(m_edges.Get(c), m_routers.Get(c));
    auto upInterfaces = address.Assign(up);
    address.NewNetwork();

    // Losses into the edge (the island's stream, and the WAN's streams to
    // the FPGA) and into the router; the merged stream into the island.
    const auto accessImp =
        OwnOver(city.access, city.accessFields, ACCESS, "city " + city.code + " access");
    Impair(access, {1}, accessImp, ACCESS);
    Impair(up, {0, 1}, accessImp, ACCESS);
    Impair(access,
           {0},
           OwnOver(city.post, city.postFields, POST_AGGREGATION, "city " + city.code + " post"),
           POST_AGGREGATION);

    m_access[c].Add(access);
    m_access[c].Add(up);
    auto edgeRouting =
        DynamicCast<WanEdgeRouting>(m_edges.Get(c)->GetObject<Ipv4>()->GetRoutingProtocol());
    edgeRouting->SetInbound(InterfaceOf(up.Get(0)));
    edgeRouting->SetDeliverMulticast(m_edgeDelivery);

    // Islands send everything through their edge node, edge nodes through
    // their router; a router reaches its island's network through the edge
    // node.
    Ipv4StaticRoutingHelper staticRouting;
    staticRouting.SetDefaultMulticastRoute(m_islands.Get(c), access.Get(0));
    StaticRouting(m_islands.Get(c))->SetDefaultRoute(m_edgeAddress[c], 1);
    StaticRouting(m_edges.Get(c))->SetDefaultRoute(upInterfaces.GetAddress(1), 2);
    m_cityNetworks.push_back({m_islandAddress[c], upInterfaces.GetAddress(0)});
    StaticRouting(m_routers.Get(c))
        ->AddNetworkRouteTo(m_islandAddress[c].CombineMask(kLinkMask),
                            kLinkMask,
                            upInterfaces.GetAddress(0),
                            InterfaceOf(up.Get(1)));
}

Ptr<Ipv4StaticRouting>
WanNetworkHelper::StaticRouting(Ptr<Node> node)
{
    Ipv4StaticRoutingHelper helper;
    return helper.GetStaticRouting(node->GetObject<Ipv4>());
}

uint32_t
WanNetworkHelper::InterfaceOf(Ptr<NetDevice> device)
{
    return static_cast<uint32_t>(
        device->GetNode()->GetObject<Ipv4>()->GetInterfaceForDevice(device));
}

void
WanNetworkHelper::InstallUnicastRoutes()
{
    NS_LOG_FUNCTION(this);
    // The paths the planner assumes: WanTopology's, over the links that are up.
    WanTopology routes;
    for (const auto& city : m_topo.GetCities())
    {
        routes.AddCity(city);
    }
    for (const auto& link : m_topo.GetLinks())
    {
        if (m_down.count({std::min(link.a, link.b), std::max(link.a, link.b)}) == 0)
        {
            routes.AddLink(m_topo.GetCity(link.a).code,
                           m_topo.GetCity(link.b).code,
                           link.delay,
                           link.capacityBps);
        }
    }
    const uint32_t n = m_topo.GetNCities();
    for (uint32_t v = 0; v < n; ++v)
    {
        auto routing = StaticRouting(m_routers.Get(v));
        // Forget the core routes of the last computation (those with a
        // gateway on a core interface); the routes to the own city stay.
        const uint32_t down = InterfaceOf(m_access[v].Get(3));
        for (uint32_t i = routing->GetNRoutes(); i-- > 0;)
        {
            const auto route = routing->GetRoute(i);
            if (route.GetGateway() != Ipv4Address::GetZero() && route.GetInterface() != down)
            {
                routing->RemoveRoute(i);
            }
        }
        for (uint32_t d = 0; d < n; ++d)
        {
            if (d == v || !std::isfinite(routes.GetPathDelay(d, v)))
            {
                continue; // itself, or cut off while links are down
            }
            // Destination-based forwarding along d's shortest-path tree: the
            // hop after v on WanTopology::GetPath(v, d).
            const uint32_t next = routes.GetPath(v, d).at(1);
            const uint32_t iface = InterfaceOf(GetCoreDevice(v, next));
            const Ipv4Address gateway = m_coreAddress.at({next, v});
            for (auto network : m_cityNetworks[d])
            {
                routing->AddNetworkRouteTo(network.CombineMask(kLinkMask),
                                           kLinkMask,
                                           gateway,
                                           iface);
            }
        }
    }
}

const WanTopology&
WanNetworkHelper::GetTopology() const
{
    return m_topo;
}

double
WanNetworkHelper::GetScale() const
{
    return m_scale;
}

double
WanNetworkHelper::GetEdgeRate() const
{
    return m_edgeBps;
}

const NodeContainer&
WanNetworkHelper::GetRouters() const
{
    return m_routers;
}

const NodeContainer&
WanNetworkHelper::GetEdges() const
{
    return m_edges;
}

const NodeContainer&
WanNetworkHelper::GetIslands() const
{
    return m_islands;
}

Ipv4Address
WanNetworkHelper::GetIslandAddress(uint32_t city) const
{
    return m_islandAddress.at(city);
}

Ipv4Address
WanNetworkHelper::GetEdgeAddress(uint32_t city) const
{
    return m_edgeAddress.at(city);
}

Ptr<NetDevice>
WanNetworkHelper::GetCoreDevice(uint32_t from, uint32_t to) const
{
    auto it = m_core.find({from, to});
    if (it == m_core.end())
    {
        throw std::invalid_argument("no core link from " + m_topo.GetCity(from).code + " to " +
                                    m_topo.GetCity(to).code);
    }
    return it->second;
}

Ipv4Address
WanNetworkHelper::GetCoreAddress(uint32_t from, uint32_t to) const
{
    GetCoreDevice(from, to); // names a missing link
    return m_coreAddress.at({from, to});
}

NetDeviceContainer
WanNetworkHelper::GetAccessDevices(uint32_t city) const
{
    return m_access.at(city);
}

void
WanNetworkHelper::SetLinkBroken(uint32_t a, uint32_t b, bool broken)
{
    NS_LOG_FUNCTION(this << a << b << broken);
    for (const auto& hop : {std::make_pair(a, b), std::make_pair(b, a)})
    {
        auto device = GetCoreDevice(hop.first, hop.second); // refuses a link that does not exist
        auto it = m_broken.find(hop);
        if (broken && it == m_broken.end())
        {
            PointerValue previous;
            device->GetAttribute("ReceiveErrorModel", previous);
            m_broken[hop] = previous.Get<ErrorModel>();
            auto all = CreateObject<RateErrorModel>();
            all->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
            all->SetRate(1);
            device->SetAttribute("ReceiveErrorModel", PointerValue(all));
        }
        else if (!broken && it != m_broken.end())
        {
            auto previous = it->second;
            if (!previous)
            {
                // It had none (ns-3 cannot set a null one back): one that
                // never loses.
                auto none = CreateObject<RateErrorModel>();
                none->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
                none->SetRate(0);
                previous = none;
            }
            device->SetAttribute("ReceiveErrorModel", PointerValue(previous));
            m_broken.erase(it);
        }
    }
}

Ipv4Address
WanNetworkHelper::GroupAddress(uint32_t round, uint32_t source)
{
    // 232.0.0.0/8 is the source-specific multicast range.
    return Ipv4Address((232u << 24) | ((round & 0xffffu) << 8) | (source & 0xffu));
}

void
WanNetworkHelper::SetLinkUp(uint32_t a, uint32_t b, bool up)
{
    NS_LOG_FUNCTION(this << a << b << up);
    for (const auto& [from, to] : {std::make_pair(a, b), std::make_pair(b, a)})
    {
        auto device = GetCoreDevice(from, to);
        auto ipv4 = device->GetNode()->GetObject<Ipv4>();
        const int32_t index = ipv4->GetInterfaceForDevice(device);
        if (up)
        {
            ipv4->SetUp(index);
        }
        else
        {
            ipv4->SetDown(index);
        }
    }
    SetLinkRouted(a, b, up);
}

void
WanNetworkHelper::SetLinkRouted(uint32_t a, uint32_t b, bool routed)
{
    NS_LOG_FUNCTION(this << a << b << routed);
    GetCoreDevice(a, b); // refuses a link that does not exist
    if (routed)
    {
        m_down.erase({std::min(a, b), std::max(a, b)});
    }
    else
    {
        m_down.insert({std::min(a, b), std::max(a, b)});
    }
    InstallUnicastRoutes();
}

} // namespace ns3
