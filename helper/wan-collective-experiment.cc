/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-collective-experiment.h"

#include "wan-parameter-server-helper.h"
#include "wan-ring-all-reduce-helper.h"
#include "wan-simulator-session.h"

#include "ns3/log.h"
#include "ns3/nstime.h"
#include "ns3/simulator.h"
#include "ns3/wan-collective-application.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCollectiveExperiment");

WanCollectiveExperiment::WanCollectiveExperiment(const WanTopology& topo)
    : m_topo(topo)
{
}

WanCollectiveExperiment::Kind
WanCollectiveExperiment::Parse(const std::string& name)
{
    if (name == "ring")
    {
        return RING;
    }
    if (name == "ps" || name == "parameter-server")
    {
        return PARAMETER_SERVER;
    }
    throw std::invalid_argument("unknown collective '" + name +
                                "' (known: ring, ps or parameter-server)");
}

std::string
WanCollectiveExperiment::Name(Kind kind)
{
    return kind == RING ? "ring all-reduce" : "parameter server";
}

void
WanCollectiveExperiment::SetScale(double factor)
{
    m_scale = wantext::RequireAtLeast(factor, 1, "collective scale");
}

void
WanCollectiveExperiment::SetPayload(double bytes)
{
    m_payload = wantext::RequirePositive(bytes, "collective payload", "bytes");
}

void
WanCollectiveExperiment::SetEdgeRate(double bps)
{
    WanNetworkHelper(m_topo).SetEdgeRate(bps); // refuses a bad value now
    m_edgeBps = bps;
}

void
WanCollectiveExperiment::SetMtu(uint32_t bytes)
{
    WanNetworkHelper(m_topo).SetMtu(bytes); // refuses a bad value now
    m_mtu = bytes;
}

void
WanCollectiveExperiment::SetImpairment(WanNetworkHelper::LinkClass linkClass,
                                       const WanLinkImpairment& impairment)
{
    WanNetworkHelper(m_topo).SetImpairment(linkClass, impairment); // refuses bad values now
    m_impairment[linkClass] = impairment;
}

void
WanCollectiveExperiment::SetCoreQueue(const std::string& kind, uint32_t packets)
{
    WanNetworkHelper(m_topo).SetCoreQueue(kind, packets); // refuses bad values now
    m_coreQueue = std::make_pair(kind, packets);
}

void
WanCollectiveExperiment::SetCrossTraffic(double utilisation,
                                         uint32_t packetBytes,
                                         double burstPackets)
{
    m_crossTraffic.SetTraffic(utilisation, packetBytes, burstPackets);
}

void
WanCollectiveExperiment::SetTcpCrossTraffic(uint32_t flows, const std::string& congestion)
{
    m_tcpCrossTraffic.SetFlows(flows, WanTcpCrossTrafficHelper::CongestionControl(congestion));
}

void
WanCollectiveExperiment::SetAttribute(const std::string& name, const AttributeValue& value)
{
    // Checked now against the application's attributes.
    ObjectFactory check;
    check.SetTypeId(WanCollectiveApplication::GetTypeId());
    check.Set(name, value);
    m_attributes.emplace_back(name, value.Copy());
}

void
WanCollectiveExperiment::SetTimeLimit(double seconds)
{
    m_limit = wantext::RequirePositive(seconds, "collective time limit", "s");
}

void
WanCollectiveExperiment::SetStream(int64_t stream)
{
    m_stream = stream;
}

void
WanCollectiveExperiment::BuildNetwork(WanNetworkHelper& net) const
{
    net.SetScale(m_scale);
    if (m_edgeBps)
    {
        net.SetEdgeRate(*m_edgeBps);
    }
    if (m_mtu)
    {
        net.SetMtu(*m_mtu);
    }
    if (m_coreQueue)
    {
        net.SetCoreQueue(m_coreQueue->first, m_coreQueue->second);
    }
    for (const auto& [linkClass, impairment] : m_impairment)
    {
        net.SetImpairment(linkClass, impairment);
    }
    net.Install();
    net.AssignStreams(m_stream);
}

WanCollectiveResult
WanCollectiveExperiment::Run(Kind kind, std::vector<uint32_t> members) const
{
    if (members.empty())
    {
        members.resize(m_topo.GetNCities());
        std::iota(members.begin(), members.end(), 0);
    }
    if (members.size() < 2)
    {
        throw std::invalid_argument("collective: " + std::to_string(members.size()) +
                                    " member(s), need at least 2");
    }
    return RunGroups(kind, {members}).at(0);
}

std::vector<WanCollectiveResult>
WanCollectiveExperiment::RunGroups(Kind kind,
                                   const std::vector<std::vector<uint32_t>>& groups) const
{
    std::set<uint32_t> seen;
    for (const auto& group : groups)
    {
        for (uint32_t c : group)
        {
            if (c < m_topo.GetNCities() && !seen.insert(c).second)
            {
                throw std::invalid_argument("collective: city " + m_topo.GetCity(c).code +
                                            " in two groups");
            }
        }
    }
    WanSimulatorSession session;
    WanNetworkHelper net(m_topo);
    BuildNetwork(net);
    std::vector<WanCollectiveResult> results;
    std::vector<ApplicationContainer> apps;
    for (const auto& members : groups)
    {
        if (members.size() >= 2)
        {
            results.emplace_back();
            apps.push_back(Install(net, kind, members, results.back()));
        }
    }
    if (apps.empty())
    {
        return results;
    }
    TimeValue begin;
    apps.front().Get(0)->GetAttribute("Begin", begin);
    const Time end = begin.Get() + Seconds(m_limit);
    WanCrossTrafficHelper::AssignStreams(m_crossTraffic.Install(net, end, {}),
                                         m_stream + 100000); // clear of the loss and jitter streams
    const auto tcpCross = m_tcpCrossTraffic.Install(net, end, {});
    uint32_t left = 0;
    for (auto& group : apps)
    {
        left += group.GetN();
        for (uint32_t i = 0; i < group.GetN(); ++i)
        {
            group.Get(i)->TraceConnectWithoutContext(
                "Complete",
                Callback<void, Time, bool>([&left](Time, bool) {
                    if (--left == 0)
                    {
                        Simulator::Stop();
                    }
                }));
        }
        group.Start(Seconds(0));
        group.Stop(end);
    }
    Simulator::Stop(end);
    Simulator::Run();
    const uint64_t events = Simulator::GetEventCount();
    for (size_t g = 0; g < apps.size(); ++g)
    {
        results[g].events = events;
        results[g].crossTcpBytes = WanTcpCrossTrafficHelper::GetBytesReceived(tcpCross);
        Collect(apps[g], results[g]);
    }
    return results;
}

ApplicationContainer
WanCollectiveExperiment::Install(WanNetworkHelper& net,
                                 Kind kind,
                                 const std::vector<uint32_t>& members,
                                 WanCollectiveResult& result) const
{
    auto configure = [this](WanCollectiveHelper& helper) {
        helper.SetPayload(m_payload);
        helper.SetScale(m_scale);
        for (const auto& [name, value] : m_attributes)
        {
            helper.SetAttribute(name, *value);
        }
    };
    result.kind = Name(kind);
    if (kind == RING)
    {
        WanRingAllReduceHelper ring(net);
        configure(ring);
        result.members = WanRingAllReduceHelper::ChooseOrder(m_topo, members);
        auto apps = ring.Install(result.members);
        result.warnings = ring.GetWarnings();
        return apps;
    }
    WanParameterServerHelper ps(net);
    configure(ps);
    result.members = members;
    result.server = ps.ChooseServer(members);
    auto apps = ps.Install(members, static_cast<uint32_t>(result.server));
    result.warnings = ps.GetWarnings();
    return apps;
}

void
WanCollectiveExperiment::Collect(const ApplicationContainer& apps, WanCollectiveResult& result)
{
    result.complete = true;
    result.exact = true;
    for (uint32_t i = 0; i < apps.GetN(); ++i)
    {
        const auto app = DynamicCast<WanCollectiveApplication>(apps.Get(i));
        result.complete = result.complete && app->IsComplete();
        result.exact = result.exact && app->IsExact();
        result.seconds = std::max(result.seconds, app->GetDuration().GetSeconds());
        result.bytes += app->GetBytesSent();
        result.maxEgressBytes = std::max(result.maxEgressBytes, app->GetBytesSent());
        result.maxIngressBytes = std::max(result.maxIngressBytes, app->GetBytesReceived());
        result.retransmissions += app->GetRetransmissions();
        result.refused += app->GetRefused();
    }
    if (!result.complete)
    {
        result.seconds = 0;
    }
    NS_LOG_INFO(result.kind << " among " << result.members.size()
                            << " member(s): " << result.seconds << " s, exact " << result.exact
                            << ", " << result.retransmissions << " retransmissions");
}

std::string
WanCollectiveExperiment::Format(const WanCollectiveResult& result, const WanTopology& topo)
{
    std::ostringstream out;
    out << result.kind << " over TCP (";
    for (size_t i = 0; i < result.members.size(); ++i)
    {
        out << (i ? (result.server < 0 ? "-" : ", ") : "") << topo.GetCity(result.members[i]).code;
    }
    if (result.server >= 0)
    {
        out << "; server " << topo.GetCity(static_cast<uint32_t>(result.server)).code;
    }
    out << "): ";
    if (!result.complete)
    {
        out << "incomplete at the time limit";
    }
    else
    {
        out << wantext::Num(result.seconds * 1e3, 4) << " ms";
    }
    out << ", " << wantext::Num(result.bytes / 1e6, 4) << " MB sent (most by one island "
        << wantext::Num(result.maxEgressBytes / 1e6, 4) << " out, "
        << wantext::Num(result.maxIngressBytes / 1e6, 4) << " in), " << result.retransmissions
        << " retransmissions, exact " << (result.exact ? "True" : "False") << "\n";
    if (result.crossTcpBytes > 0)
    {
        out << "  TCP cross traffic delivered " << wantext::Num(result.crossTcpBytes / 1e6, 4)
            << " MB (at the scale)\n";
    }
    for (const auto& w : result.warnings)
    {
        out << "  warning: " << w << "\n";
    }
    return out.str();
}

} // namespace ns3
