/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-experiment-replanner.h"

#include "wan-bfd-helper.h"
#include "wan-mpi-helper.h"
#include "wan-multicast-route-helper.h"
#include "wan-pim-helper.h"

#include "ns3/fpga-aggregator.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"
#include "ns3/wan-bfd-application.h"
#include "ns3/wan-pim-join-propagation.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanExperimentReplanner");

namespace
{

/// Counts an FPGA's heartbeat.
void
CountHeartbeat(uint64_t* beats)
{
    ++*beats;
}

} // namespace

WanExperimentReplanner::WanExperimentReplanner(const Context& run)
    : m_run(run)
{
}

bool
WanExperimentReplanner::IsLocal(uint32_t c) const
{
    return WanMpiHelper::IsLocal(m_run.rankOf, c);
}

void
WanExperimentReplanner::ScheduleFaults(const std::vector<WanLinkFault>& links,
                                       const std::vector<std::pair<uint32_t, double>>& fpgaFaults,
                                       bool detect)
{
    m_linkFaults = links;
    m_fpgaFaults = fpgaFaults;
    auto* net = m_run.net;
    // Links go down and up; FPGAs fail and their edges pass the groups'
    // streams on to the islands.
    for (const auto& f : links)
    {
        if (detect)
        {
            // The hardware only: the control plane has to notice.
            Simulator::Schedule(Seconds(f.down),
                                &WanNetworkHelper::SetLinkBroken,
                                net,
                                f.a,
                                f.b,
                                true);
            Simulator::Schedule(Seconds(f.up),
                                &WanNetworkHelper::SetLinkBroken,
                                net,
                                f.a,
                                f.b,
                                false);
            continue;
        }
        Simulator::Schedule(Seconds(f.down), &WanNetworkHelper::SetLinkUp, net, f.a, f.b, false);
        Simulator::Schedule(Seconds(f.up), &WanNetworkHelper::SetLinkUp, net, f.a, f.b, true);
    }
    if (m_run.fpgas.GetN() == 0)
    {
        return;
    }
    for (const auto& [city, at] : fpgaFaults)
    {
        if (IsLocal(city)) // in a distributed run, the rank that runs it
        {
            Simulator::Schedule(Seconds(at),
                                &FpgaAggregator::Fail,
                                DynamicCast<FpgaAggregator>(m_run.fpgas.Get(city)));
        }
        if (!detect) // with detection the edge's watchdog has to notice (WatchFpga)
        {
            Simulator::Schedule(Seconds(at),
                                &WanExperimentReplanner::Bypass,
                                net,
                                city,
                                m_run.groups);
        }
    }
}

void
WanExperimentReplanner::EnableDetection(Time interval,
                                        uint32_t multiplier,
                                        int64_t stream,
                                        WanPimMembership* pim)
{
    m_interval = interval;
    m_multiplier = multiplier;
    m_pim = pim;
    WanBfdHelper bfdHelper;
    bfdHelper.SetAttribute("DesiredMinTx", TimeValue(interval));
    bfdHelper.SetAttribute("RequiredMinRx", TimeValue(interval));
    bfdHelper.SetAttribute("DetectMultiplier", UintegerValue(multiplier));
    m_bfd = bfdHelper.Install(*m_run.net);
    WanBfdHelper::AssignStreams(m_bfd, stream);
    m_reconvergence.emplace(*m_run.net);
    m_reconvergence->Watch(m_bfd);
    if (!m_run.rankOf.empty())
    {
        m_reconvergence->Distribute(m_run.rankOf);
    }
    WanPimHelper::WatchBfd(pim ? pim->GetRouters() : ApplicationContainer(), m_bfd);
    m_heartbeats.assign(m_run.fpgas.GetN(), 0);
    for (uint32_t c = 0; c < m_run.fpgas.GetN(); ++c)
    {
        if (!IsLocal(c))
        {
            continue; // its edge's watchdog runs on another rank
        }
        m_run.fpgas.Get(c)->TraceConnectWithoutContext(
            "Heartbeat",
            MakeBoundCallback(&CountHeartbeat, &m_heartbeats[c]));
        Simulator::Schedule(interval, &WanExperimentReplanner::WatchFpga, this, c, 0, 0);
    }
    m_reconvergence->SetChangeCallback(MakeCallback(&WanExperimentReplanner::RouteChanged, this));
}

void
WanExperimentReplanner::WatchFpga(uint32_t city, uint64_t seen, uint32_t misses)
{
    const uint64_t beats = m_heartbeats[city];
    misses = beats > seen ? 0 : misses + 1;
    if (misses < m_multiplier)
    {
        Simulator::Schedule(m_interval,
                            &WanExperimentReplanner::WatchFpga,
                            this,
                            city,
                            beats,
                            misses);
        return;
    }
    WanFpgaFailureResult out;
    out.city = m_run.net->GetTopology().GetCity(city).code;
    out.detectedS = Simulator::Now().GetSeconds();
    for (const auto& [c, at] : m_fpgaFaults)
    {
        out.failedS = c == city && at <= out.detectedS ? at : out.failedS; // for the record
    }
    NS_LOG_INFO("FPGA " << out.city << " missed " << misses << " heartbeats: bypassed at "
                        << out.detectedS << " s");
    m_bypassed.insert(city);
    Bypass(m_run.net, city, m_run.groups);
    m_fpgaFailures.push_back(out);
}

void
WanExperimentReplanner::Bypass(WanNetworkHelper* net,
                               uint32_t city,
                               std::vector<WanMulticastGroup> groups)
{
    for (const auto& g : groups)
    {
        if (g.source != city &&
            std::find(g.members.begin(), g.members.end(), city) != g.members.end())
        {
            WanMulticastRouteHelper(*net).BypassEdge(city, g.source, g.group);
        }
    }
}

WanRouteChangeResult
WanExperimentReplanner::Record(const WanReconvergenceHelper::Change& change)
{
    const auto& topo = m_run.net->GetTopology();
    WanRouteChangeResult out;
    out.link = topo.GetCity(change.a).code + "-" + topo.GetCity(change.b).code;
    out.up = change.up;
    out.detectedS = change.detected.GetSeconds();
    out.convergedS = change.converged.GetSeconds();
    // When the hardware event happened, for the record only (nobody was told).
    for (const auto& f : m_linkFaults)
    {
        if (std::minmax(f.a, f.b) == std::minmax(change.a, change.b))
        {
            const double at = change.up ? f.up : f.down;
            if (at <= out.detectedS)
            {
                out.eventS = at;
            }
        }
    }
    if (change.up)
    {
        m_down.erase(std::minmax(change.a, change.b));
    }
    else
    {
        m_down.insert(std::minmax(change.a, change.b));
    }
    return out;
}

void
WanExperimentReplanner::RouteChanged(const WanReconvergenceHelper::Change& change)
{
    auto out = Record(change);
    // From the next round boundary: the first round that has not started.
    const auto& rounds = m_run.plan->rounds;
    const double now = Simulator::Now().GetSeconds();
    uint32_t from = 0;
    while (from < rounds.size() && rounds[from].start <= now)
    {
        ++from;
    }
    NS_LOG_INFO("link " << out.link << (change.up ? " back" : " down") << ", detected at "
                        << out.detectedS << " s, routes changed at " << out.convergedS
                        << " s: re-planning from round " << from);
    if (from < rounds.size())
    {
        Replan(from, out);
    }
    m_changes.push_back(out);
    if (m_pim)
    {
        // PIM moves every tree with state (the rounds joined so far) to the
        // new RPF neighbours; the membership follows the re-planned starts.
        m_pim->RoutesChanged(&m_changes);
    }
}

void
WanExperimentReplanner::Replan(uint32_t from, WanRouteChangeResult& out)
{
    const auto& topo = m_run.net->GetTopology();
    auto& rounds = m_run.plan->rounds;
    out.replannedFrom = from;
    out.resumedS = rounds[from].start;
    std::vector<WanTopology> before; // the routes each round's trees were joined on
    for (uint32_t k = from; k < rounds.size(); ++k)
    {
        before.push_back(rounds[k].routes ? *rounds[k].routes : topo);
    }
    std::string note;
    for (const auto& [a, b] : m_down)
    {
        note += (note.empty() ? "re-planned without " : ", ") + topo.GetCity(a).code + "-" +
                topo.GetCity(b).code;
    }
    note = note.empty() ? "re-planned with " + out.link + " back" : note;
    m_run.planner->Replan(*m_run.plan,
                          *m_run.schedule,
                          from,
                          m_down,
                          note + " (detected at " + wantext::Num(out.detectedS) + " s)");
    if (m_run.planner->GetConfig().multicast && !m_pim)
    {
        // Every re-planned round's trees (joined in advance on the old
        // routes), had PIM moved them: all at once, from the route change.
        out.joinedS = out.convergedS + AnalyticJoins(from, before);
    }
    // The re-planned rounds' arrivals may skew more: their slots live longer.
    for (uint32_t f = 0; f < m_run.fpgas.GetN(); ++f)
    {
        DynamicCast<FpgaAggregator>(m_run.fpgas.Get(f))
            ->SetSlotTimeout(Seconds(m_run.plan->slotTimeout));
    }
    Reinstall(from);
}

double
WanExperimentReplanner::AnalyticJoins(uint32_t from, const std::vector<WanTopology>& before) const
{
    const auto& topo = m_run.net->GetTopology();
    const auto& rounds = m_run.plan->rounds;
    double join = 0;
    for (uint32_t k = from; k < rounds.size(); ++k)
    {
        const auto after = rounds[k].routes ? *rounds[k].routes : topo;
        for (const auto& stream : rounds[k].streams)
        {
            join = std::max(join,
                            WanPimJoinPropagation::Delay(before[k - from],
                                                         after,
                                                         stream.sender,
                                                         stream.members));
        }
    }
    return join;
}

void
WanExperimentReplanner::Reinstall(uint32_t from)
{
    const auto& rounds = m_run.plan->rounds;
    for (uint32_t k = from; k < rounds.size(); ++k)
    {
        if (rounds[k].failed)
        {
            NS_LOG_WARN("round " << k << " cannot be re-planned: " << rounds[k].note);
            continue;
        }
        const auto groups = m_run.installer->Install(rounds[k], true);
        for (uint32_t city : m_bypassed)
        {
            if (!m_pim) // PIM moves the routers' part only: the bypass stays
            {
                Bypass(m_run.net, city, groups); // the moved trees end at the island too
            }
        }
        m_run.groups.insert(m_run.groups.end(), groups.begin(), groups.end());
        m_run.coreLinks->SetRoundEnd(k, Seconds(rounds[k].start + rounds[k].deadline));
    }
}

const std::vector<WanRouteChangeResult>&
WanExperimentReplanner::GetRouteChanges() const
{
    return m_changes;
}

const std::vector<WanFpgaFailureResult>&
WanExperimentReplanner::GetFpgaFailures() const
{
    return m_fpgaFailures;
}

void
WanExperimentReplanner::CountControl(WanExperimentResult& result) const
{
    for (uint32_t k = 0; k < m_bfd.GetN(); ++k)
    {
        auto app = DynamicCast<WanBfdApplication>(m_bfd.Get(k));
        result.controlPackets += app->GetPacketsSent();
        result.controlBytes += app->GetBytesSent();
    }
}

std::string
WanExperimentReplanner::SaveFpgaFailures() const
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& f : m_fpgaFailures)
    {
        rows.push_back({f.city, f.failedS, f.detectedS});
    }
    return rows.dump();
}

void
WanExperimentReplanner::MergeFpgaFailures(const std::string& saved)
{
    for (const auto& row : nlohmann::json::parse(saved))
    {
        m_fpgaFailures.push_back(
            {row.at(0).get<std::string>(), row.at(1).get<double>(), row.at(2).get<double>()});
    }
    // In detection order, as one process records them.
    std::stable_sort(m_fpgaFailures.begin(),
                     m_fpgaFailures.end(),
                     [](const auto& a, const auto& b) { return a.detectedS < b.detectedS; });
}

void
WanExperimentReplanner::GatherToRoot()
{
    WanMpiHelper::MergeAtRoot(SaveFpgaFailures(),
                              [this](const std::string& s) { MergeFpgaFailures(s); });
}

} // namespace ns3
