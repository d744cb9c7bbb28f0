/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-round-installer.h"

#include "wan-multicast-route-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/wan-chunk-header.h"
#include "ns3/wan-contribution.h"
#include "ns3/wan-training-text.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRoundInstaller");

WanRoundInstaller::WanRoundInstaller(WanNetworkHelper& net,
                                     const PlannerConfig& config,
                                     double scale,
                                     bool pim,
                                     const ApplicationContainer& islands)
    : m_net(net),
      m_config(config),
      m_scale(scale),
      m_pim(pim),
      m_islands(islands),
      m_payload(static_cast<uint64_t>(std::llround(config.payloadBytes / scale)))
{
    if (m_payload == 0)
    {
        throw std::invalid_argument("scale " + wantext::Num(scale) + " leaves no payload to send");
    }
}

std::vector<WanMulticastGroup>
WanRoundInstaller::InstallAll(const WanExperimentPlan& plan)
{
    std::vector<WanMulticastGroup> groups;
    for (const auto& round : plan.rounds)
    {
        const auto installed = Install(round, false);
        groups.insert(groups.end(), installed.begin(), installed.end());
    }
    return groups;
}

WanIslandRound
WanRoundInstaller::SenderRound(const WanPlannedRound& round,
                               const WanPlannedStream& s,
                               uint16_t mergedPort) const
{
    WanIslandRound r;
    r.round = round.round;
    r.clique = static_cast<uint16_t>(s.clique);
    r.sender = static_cast<uint16_t>(s.sender);
    r.start = Seconds(round.start);
    r.offset = Seconds(s.offset);
    r.rate = DataRate(static_cast<uint64_t>(s.rateBps / m_scale));
    r.payloadBytes = m_payload;
    r.peers = static_cast<uint16_t>(s.members.size() - 1);
    r.value = WanContribution::IslandValue(s.sender);
    r.position = static_cast<uint16_t>(s.position);
    r.deadline = Seconds(round.deadline);
    r.viaFpga = m_config.aggregation;
    const auto& paths = round.routes ? *round.routes : m_net.GetTopology();
    for (auto member : s.members)
    {
        r.peerIslands.push_back(InetSocketAddress(m_net.GetIslandAddress(member), mergedPort));
        r.peerDelays.push_back(Seconds(paths.GetPathDelay(member, s.sender)));
    }
    r.arrivals.resize(s.members.size());
    for (const auto& peer : round.streams)
    {
        if (peer.clique == s.clique)
        {
            r.arrivals[peer.position] = Seconds(peer.offset) + r.peerDelays[peer.position];
        }
    }
    return r;
}

WanMulticastGroup
WanRoundInstaller::InstallTree(const WanPlannedRound& round,
                               const WanPlannedStream& s,
                               bool replace)
{
    const auto group = WanNetworkHelper::GroupAddress(round.round, s.sender);
    if (m_pim)
    {
        // The routers' part is PIM's, which also moves it.
        if (!replace)
        {
            WanMulticastRouteHelper(m_net).InstallEdgeRoutes(s.sender,
                                                             s.members,
                                                             group,
                                                             !m_config.aggregation);
        }
    }
    else
    {
        if (replace)
        {
            WanMulticastRouteHelper(m_net).RemoveTree(s.sender, group); // the tree moves
        }
        WanMulticastRouteHelper(m_net).InstallTree(s.sender,
                                                   s.members,
                                                   group,
                                                   !m_config.aggregation,
                                                   round.routes ? &*round.routes : nullptr);
    }
    return {s.sender, group, s.members};
}

std::vector<WanMulticastGroup>
WanRoundInstaller::Install(const WanPlannedRound& round, bool replace)
{
    std::vector<WanMulticastGroup> groups;
    for (const auto& s : round.streams)
    {
        if (s.members.size() > WanChunkHeader::MAX_SOURCE_BITS)
        {
            throw std::invalid_argument(
                "round " + std::to_string(round.round) + ": a clique of " +
                std::to_string(s.members.size()) + " islands; at packet level at most " +
                std::to_string(WanChunkHeader::MAX_SOURCE_BITS) + " (the chunk header's sources)");
        }
        auto app = DynamicCast<WanIslandApplication>(m_islands.Get(s.sender));
        auto r = SenderRound(round, s, app->GetMergedPort());
        if (m_config.multicast)
        {
            groups.push_back(InstallTree(round, s, replace));
            r.destinations.push_back(InetSocketAddress(groups.back().group, app->GetDataPort()));
        }
        else
        {
            for (auto i : s.members)
            {
                if (i != s.sender)
                {
                    auto to =
                        m_config.aggregation ? m_net.GetEdgeAddress(i) : m_net.GetIslandAddress(i);
                    r.destinations.push_back(InetSocketAddress(to, app->GetDataPort()));
                }
            }
        }
        if (replace)
        {
            app->ReplaceRound(r);
        }
        else
        {
            app->AddRound(r);
        }
    }
    return groups;
}

} // namespace ns3
