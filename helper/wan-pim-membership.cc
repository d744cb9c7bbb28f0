/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-pim-membership.h"

#include "wan-mpi-helper.h"
#include "wan-pim-helper.h"

#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/wan-pim-router.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanPimMembership");

namespace
{
/// @return the IPv4 interface of a router's device
uint32_t
InterfaceOf(Ptr<NetDevice> device)
{
    return static_cast<uint32_t>(
        device->GetNode()->GetObject<Ipv4>()->GetInterfaceForDevice(device));
}
} // namespace

WanPimMembership::WanPimMembership(const WanExperimentPlan& plan,
                                   const WanNetworkHelper& net,
                                   const std::vector<uint32_t>& rankOf)
    : m_plan(plan),
      m_net(net),
      m_rankOf(rankOf)
{
}

void
WanPimMembership::Start()
{
    m_routers = WanPimHelper().Install(m_net);
    for (const auto& link : m_net.GetTopology().GetLinks())
    {
        m_across[{link.a, InterfaceOf(m_net.GetCoreDevice(link.a, link.b))}] = link.b;
        m_across[{link.b, InterfaceOf(m_net.GetCoreDevice(link.b, link.a))}] = link.a;
    }
    for (uint32_t c = 0; c < m_routers.GetN(); ++c)
    {
        if (WanMpiHelper::IsLocal(m_rankOf, c))
        {
            m_localRouters.Add(m_routers.Get(c));
        }
        m_routers.Get(c)->TraceConnectWithoutContext("Forwarding",
                                                     MakeBoundCallback(&Forwarding, this, c));
    }
    // The run starts with the network converged and round 0 joined.
    JoinRound(0);
    WanPimHelper::Converge(m_routers);
    m_converged = true;
    m_localRouters.Start(Seconds(0));
    ScheduleMembership();
}

ApplicationContainer
WanPimMembership::GetRouters() const
{
    return m_routers;
}

void
WanPimMembership::JoinRound(uint32_t k)
{
    const auto& round = m_plan.rounds.at(k);
    for (const auto& s : round.streams)
    {
        const auto source = m_net.GetIslandAddress(s.sender);
        const auto group = WanNetworkHelper::GroupAddress(round.round, s.sender);
        for (auto m : s.members)
        {
            if (m != s.sender)
            {
                // Before the run every rank joins for every router (they
                // converge alike); afterwards each for its own.
                if (!m_converged || WanMpiHelper::RunsHere(m_routers.Get(m)->GetNode()))
                {
                    DynamicCast<WanPimRouter>(m_routers.Get(m))->JoinLocal(source, group);
                }
                m_joined[k].push_back({m, source, group});
            }
        }
    }
    m_joinedAt[k] = Simulator::Now().GetSeconds();
}

void
WanPimMembership::CheckTrees(uint32_t k)
{
    auto stateOf = [this](uint32_t city) -> const WanPimState& {
        return DynamicCast<WanPimRouter>(m_routers.Get(city))->GetState();
    };
    const auto& round = m_plan.rounds.at(k);
    for (const auto& s : round.streams)
    {
        const auto source = m_net.GetIslandAddress(s.sender);
        const auto group = WanNetworkHelper::GroupAddress(round.round, s.sender);
        for (auto m : s.members)
        {
            if (m == s.sender)
            {
                continue;
            }
            // From the receiver towards the source, hop by hop.
            uint32_t v = m;
            bool whole = stateOf(v).GetOutgoing(source, group).count(WanPimState::LOCAL) > 0;
            for (uint32_t hops = 0; whole && v != s.sender; ++hops)
            {
                const auto& state = stateOf(v);
                const auto across = state.HasState(source, group)
                                        ? m_across.find({v, state.GetUpstream(source, group)})
                                        : m_across.end();
                if (across == m_across.end() || hops >= m_routers.GetN())
                {
                    whole = false;
                    break;
                }
                const uint32_t w = across->second;
                const auto back = InterfaceOf(m_net.GetCoreDevice(w, v));
                whole = stateOf(w).GetOutgoing(source, group).count(back) > 0;
                v = w;
            }
            if (!whole)
            {
                NS_LOG_WARN("round " << k << ": city " << m << " has no tree to " << source
                                     << " at the round's start");
                ++m_missing;
            }
        }
    }
}

void
WanPimMembership::Membership(uint32_t k)
{
    if (m_rankOf.empty())
    {
        CheckTrees(k);
    }
    if (k + 1 < m_plan.rounds.size())
    {
        JoinRound(k + 1); // made before it is needed
    }
    if (k >= 2)
    {
        // Two rounds on, nothing of round k-2 is on its trees any more.
        for (const auto& m : m_joined[k - 2])
        {
            m_left.insert(m.group);
            if (WanMpiHelper::RunsHere(m_routers.Get(m.city)->GetNode()))
            {
                DynamicCast<WanPimRouter>(m_routers.Get(m.city))->LeaveLocal(m.source, m.group);
            }
        }
        m_joined[k - 2].clear();
    }
    m_nextRound = k + 1;
    ScheduleMembership();
}

void
WanPimMembership::ScheduleMembership()
{
    m_next.Cancel();
    if (m_nextRound < m_plan.rounds.size())
    {
        const Time at = Seconds(m_plan.rounds[m_nextRound].start);
        m_next = Simulator::Schedule(std::max(Time(0), at - Simulator::Now()),
                                     &WanPimMembership::Membership,
                                     this,
                                     m_nextRound);
    }
}

void
WanPimMembership::Forwarding(WanPimMembership* pim,
                             uint32_t city,
                             Ipv4Address,
                             Ipv4Address group,
                             uint32_t,
                             uint32_t outputs)
{
    const double now = Simulator::Now().GetSeconds();
    auto& before = pim->m_outputs[{city, group}];
    const bool grown = outputs > before; // a branch joined (not one lost or pruned)
    before = outputs;
    if (pim->m_left.count(group) > 0)
    {
        return; // pruned after its round: not building nor moving
    }
    if (pim->m_moving.count(group) > 0)
    {
        // Moved by the route change: Joins on the new routes, Prunes on the old.
        auto& c = pim->m_changes->at(pim->m_change);
        c.joinedS = std::max(c.joinedS, now);
    }
    else if (grown)
    {
        pim->m_ready[group] = now; // built by its joins
    }
}

void
WanPimMembership::RoutesChanged(std::vector<WanRouteChangeResult>* changes)
{
    // The trees with state: those joined and not left (a left one's prunes
    // are not counted as moves), known alike on every rank.
    m_moving.clear();
    for (const auto& [round, members] : m_joined)
    {
        for (const auto& m : members)
        {
            m_moving.insert(m.group);
        }
    }
    m_changes = changes;
    m_change = static_cast<int64_t>(changes->size()) - 1;
    changes->back().joinedS = changes->back().convergedS;
    WanPimHelper::RoutesChanged(m_localRouters);
    ScheduleMembership();
}

std::string
WanPimMembership::Save(const std::vector<WanRouteChangeResult>& changes) const
{
    nlohmann::json ready = nlohmann::json::array();
    for (const auto& [group, at] : m_ready)
    {
        ready.push_back({group.Get(), at});
    }
    nlohmann::json joined = nlohmann::json::array();
    for (const auto& c : changes)
    {
        joined.push_back(c.joinedS);
    }
    return nlohmann::json{{"ready", ready}, {"joined", joined}}.dump();
}

void
WanPimMembership::Merge(const std::string& saved, std::vector<WanRouteChangeResult>& changes)
{
    const auto in = nlohmann::json::parse(saved);
    for (const auto& row : in.at("ready"))
    {
        auto& at = m_ready[Ipv4Address(row.at(0).get<uint32_t>())];
        at = std::max(at, row.at(1).get<double>());
    }
    const auto& joined = in.at("joined");
    for (size_t k = 0; k < changes.size() && k < joined.size(); ++k)
    {
        changes[k].joinedS = std::max(changes[k].joinedS, joined[k].get<double>());
    }
}

void
WanPimMembership::GatherToRoot(WanExperimentResult& result)
{
    auto& changes = result.routeChanges;
    WanMpiHelper::MergeAtRoot(Save(changes),
                              [this, &changes](const std::string& s) { Merge(s, changes); });
    result.pimPackets = WanMpiHelper::Sum(result.pimPackets);
    result.pimBytes = WanMpiHelper::Sum(result.pimBytes);
    result.pimRetries = WanMpiHelper::Sum(result.pimRetries);
}

void
WanPimMembership::CountMessages(WanExperimentResult& result) const
{
    for (uint32_t k = 0; k < m_localRouters.GetN(); ++k)
    {
        auto router = DynamicCast<WanPimRouter>(m_localRouters.Get(k));
        result.pimPackets += router->GetMessagesSent();
        result.pimBytes += router->GetBytesSent();
        result.pimRetries += router->GetRetries();
    }
    result.pimMissing = m_rankOf.empty() ? static_cast<int64_t>(m_missing) : -1;
}

void
WanPimMembership::FillTreeTimes(WanExperimentResult& result) const
{
    for (const auto& [k, at] : m_joinedAt)
    {
        double ready = at; // when the round's last tree was built
        for (const auto& stream : m_plan.rounds[k].streams)
        {
            auto it = m_ready.find(WanNetworkHelper::GroupAddress(k, stream.sender));
            ready = std::max(ready, it == m_ready.end() ? at : it->second);
        }
        if (k > 0)
        {
            result.pimJoinMs = std::max(result.pimJoinMs, (ready - at) * 1e3);
            const double slack = (m_plan.rounds[k].start - ready) * 1e3;
            result.pimSlackMs = result.pimSlackMs < 0 ? slack : std::min(result.pimSlackMs, slack);
        }
    }
}

} // namespace ns3
