/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-experiment-helper.h"

#include "fpga-aggregator-helper.h"
#include "wan-best-recovery.h"
#include "wan-core-link-monitor.h"
#include "wan-experiment-replanner.h"
#include "wan-experiment-simulation.h"
#include "wan-mpi-helper.h"
#include "wan-pim-membership.h"
#include "wan-round-installer.h"
#include "wan-round-recorder.h"
#include "wan-simulator-session.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-parity-code.h"
#include "ns3/wan-rank-balancer.h"
#include "ns3/wan-scale-check.h"
#include "ns3/wan-training-compat.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueExperimentHelper");

namespace
{

/// @return an application's unsigned integer attribute
uint64_t
UintegerAttribute(Ptr<Application> app, const std::string& name)
{
    UintegerValue v;
    app->GetAttribute(name, v);
    return v.Get();
}

} // namespace

NS_OBJECT_ENSURE_REGISTERED(CliqueExperimentHelper);

TypeId
CliqueExperimentHelper::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::CliqueExperimentHelper")
            .SetParent<ObjectBase>()
            .SetGroupName("WanTraining")
            .AddAttribute(
                "FaultDetection",
                "How link faults reach the schedule: bfd (faults are network events only: "
                "BFD declares a link down, routing reconverges, later rounds are re-planned) "
                "or oracle (a comparison: the rounds that overlap an outage are planned "
                "around it in advance); see SetFaultDetection",
                EnumValue(CliqueExperimentHelper::BFD),
                wancompat::MakeEnumMemberAccessor(&CliqueExperimentHelper::m_faultDetection),
                MakeEnumChecker(CliqueExperimentHelper::ORACLE,
                                "oracle",
                                CliqueExperimentHelper::BFD,
                                "bfd"))
            .AddAttribute(
                "TreeBuilding",
                "How the routers' multicast state comes about: pim (PIM-SSM joins and "
                "prunes on the wire) or planner (a comparison: the planner's trees as "
                "static routes); see SetTreeBuilding",
                EnumValue(CliqueExperimentHelper::PIM),
                wancompat::MakeEnumMemberAccessor(&CliqueExperimentHelper::m_treeBuilding),
                MakeEnumChecker(CliqueExperimentHelper::PLANNER,
                                "planner",
                                CliqueExperimentHelper::PIM,
                                "pim"))
            .AddAttribute(
                "Recovery",
                "What islands do about missing contributions: accept, rerequest, early "
                "(WanIslandApplication's Recovery), coded (parity chunks, then re-requests "
                "at the deadline), coded+early (parity, then early requests) or best (the "
                "best the FPGAs allow: coded+early sized in band, decoded at the FPGA with "
                "memory, at the island without; without FPGAs, early; WanBestRecovery); see "
                "SetRecovery",
                EnumValue(CliqueExperimentHelper::BEST),
                wancompat::MakeEnumMemberAccessor(&CliqueExperimentHelper::m_recovery),
                MakeEnumChecker(CliqueExperimentHelper::ACCEPT,
                                "accept",
                                CliqueExperimentHelper::REREQUEST,
                                "rerequest",
                                CliqueExperimentHelper::EARLY,
                                "early",
                                CliqueExperimentHelper::CODED,
                                "coded",
                                CliqueExperimentHelper::CODED_EARLY,
                                "coded+early",
                                CliqueExperimentHelper::BEST,
                                "best"));
    return tid;
}

TypeId
CliqueExperimentHelper::GetInstanceTypeId() const
{
    return GetTypeId();
}

CliqueExperimentHelper::CliqueExperimentHelper(const WanTopology& topo, const PlannerConfig& config)
    : m_planner(topo, config),
      m_parity(config)
{
    ConstructSelf(AttributeConstructionList()); // the attributes' defaults
}

void
CliqueExperimentHelper::SetScale(double factor)
{
    m_scale = wantext::RequireAtLeast(factor, 1, "scale");
}

void
CliqueExperimentHelper::SetRounds(uint32_t rounds)
{
    m_planner.SetRounds(rounds);
}

void
CliqueExperimentHelper::SetRoundGuard(double guard)
{
    m_planner.SetRoundGuard(guard);
}

void
CliqueExperimentHelper::SetImpairment(WanNetworkHelper::LinkClass linkClass,
                                      const WanLinkImpairment& impairment)
{
    WanNetworkHelper check(m_planner.GetTopology());
    check.SetImpairment(linkClass, impairment); // refuses bad values now
    m_impairment[linkClass] = impairment;
}

void
CliqueExperimentHelper::SetRecovery(const std::string& policy)
{
    m_recovery = RecoveryOf(policy);
}

CliqueExperimentHelper::Recovery
CliqueExperimentHelper::RecoveryOf(const std::string& policy)
{
    return wancompat::EnumFromName<Recovery>(GetTypeId(), "Recovery", policy, "recovery policy");
}

WanIslandApplication::Recovery
CliqueExperimentHelper::RepairOf(Recovery policy)
{
    return policy == ACCEPT
               ? WanIslandApplication::ACCEPT
               : (policy == REREQUEST || policy == CODED ? WanIslandApplication::REREQUEST
                                                         : WanIslandApplication::EARLY);
}

bool
CliqueExperimentHelper::IsCoded(const std::string& policy)
{
    return RecoveryOf(policy) == CODED || RecoveryOf(policy) == CODED_EARLY;
}

bool
CliqueExperimentHelper::Repairs(const std::string& policy)
{
    return RepairOf(RecoveryOf(policy)) != WanIslandApplication::ACCEPT;
}

std::string
CliqueExperimentHelper::RepairPolicy(const std::string& policy)
{
    return wancompat::EnumName(WanIslandApplication::GetTypeId(),
                               "Recovery",
                               RepairOf(RecoveryOf(policy)));
}

void
CliqueExperimentHelper::SetParity(uint32_t block, uint32_t parities)
{
    m_parity.SetLayout(block, parities);
}

void
CliqueExperimentHelper::SetParityDecoding(const std::string& where, double hbmShare)
{
    m_parity.SetDecoding(where, hbmShare);
}

void
CliqueExperimentHelper::SetParitySizing(double epsilon, uint32_t window, double confidence)
{
    m_parity.SetSizing(epsilon, window, confidence);
}

void
CliqueExperimentHelper::EnablePacketTraces(const std::string& pcapPrefix,
                                           const std::string& asciiPrefix,
                                           const std::string& selection)
{
    for (const auto& prefix : {pcapPrefix, asciiPrefix})
    {
        if (!prefix.empty())
        {
            WanPacketTraceHelper::CheckPrefix(prefix);
        }
    }
    m_traced = WanPacketTraceHelper(m_planner.GetTopology()).Parse(selection);
    m_pcapPrefix = pcapPrefix;
    m_asciiPrefix = asciiPrefix;
}

void
CliqueExperimentHelper::AddLinkFault(const std::string& a,
                                     const std::string& b,
                                     double downSeconds,
                                     double upSeconds)
{
    m_planner.AddLinkFault(a, b, downSeconds, upSeconds);
}

void
CliqueExperimentHelper::SetFaultPolicy(const std::string& policy)
{
    m_planner.SetFaultPolicy(WanExperimentPlanner::ParseFaultPolicy(policy));
}

void
CliqueExperimentHelper::SetFaultDetection(const std::string& mode)
{
    m_faultDetection = wancompat::EnumFromName<FaultDetection>(GetTypeId(),
                                                               "FaultDetection",
                                                               mode,
                                                               "fault detection");
}

void
CliqueExperimentHelper::SetTreeBuilding(const std::string& mode)
{
    m_treeBuilding =
        wancompat::EnumFromName<TreeBuilding>(GetTypeId(), "TreeBuilding", mode, "tree building");
}

void
CliqueExperimentHelper::SetPartition(const std::string& map)
{
    m_partition = map; // checked against the ranks when a distributed run starts
}

bool
CliqueExperimentHelper::IsLocal(uint32_t c) const
{
    return WanMpiHelper::IsLocal(m_rankOf, c);
}

void
CliqueExperimentHelper::SetBfd(Time interval, uint32_t multiplier)
{
    wantext::bounds::kBfdIntervalMs.Check(interval.GetSeconds() * 1e3, "BFD interval");
    wantext::bounds::kBfdMultiplier.Check(multiplier, "BFD detect multiplier");
    m_bfdInterval = interval;
    m_bfdMultiplier = multiplier;
}

void
CliqueExperimentHelper::AddFpgaFault(const std::string& city, double atSeconds)
{
    const uint32_t c = m_planner.GetTopology().FindCity(city);
    if (!(atSeconds >= 0) || std::isinf(atSeconds))
    {
        throw std::invalid_argument("FPGA fault at " + city + ": the time must be >= 0 (got " +
                                    wantext::Num(atSeconds) + " s)");
    }
    m_fpgaFaults.emplace_back(c, atSeconds);
}

void
CliqueExperimentHelper::AddIslandAbsence(const std::string& city,
                                         uint32_t firstRound,
                                         uint32_t lastRound)
{
    m_planner.AddIslandAbsence(city, firstRound, lastRound);
}

void
CliqueExperimentHelper::SetProgress(double wallSeconds)
{
    if (!(wallSeconds >= 0) || std::isinf(wallSeconds))
    {
        throw std::invalid_argument(
            "progress interval must be zero (off) or positive seconds (got " +
            wantext::Num(wallSeconds) + ")");
    }
    m_progressSeconds = wallSeconds;
}

void
CliqueExperimentHelper::SetStream(int64_t stream)
{
    m_stream = stream;
}

const std::vector<uint32_t>&
CliqueExperimentHelper::GetRankOf() const
{
    return m_rankOf;
}

void
CliqueExperimentHelper::SetCrossTraffic(double utilisation,
                                        uint32_t packetBytes,
                                        double burstPackets)
{
    m_crossTraffic.SetTraffic(utilisation, packetBytes, burstPackets);
}

void
CliqueExperimentHelper::SetTcpCrossTraffic(uint32_t flows, const std::string& congestion)
{
    m_tcpCrossTraffic.SetFlows(flows, WanTcpCrossTrafficHelper::CongestionControl(congestion));
}

void
CliqueExperimentHelper::SetCoreQueue(const std::string& kind, uint32_t packets)
{
    WanNetworkHelper(m_planner.GetTopology()).SetCoreQueue(kind, packets); // refuses bad values now
    m_coreQueue = kind;
    m_coreQueuePackets = packets;
}

void
CliqueExperimentHelper::SetCoreQueue(const std::string& kind)
{
    WanNetworkHelper(m_planner.GetTopology()).SetCoreQueue(kind); // refuses a bad name now
    m_coreQueue = kind;
}

WanExperimentResult
CliqueExperimentHelper::Planned(const WanExperimentPlan& plan) const
{
    WanExperimentResult result;
    result.schedule = plan.schedule;
    result.feasible = plan.feasible;
    result.reason = plan.reason;
    if (!plan.feasible)
    {
        return result;
    }
    result.plannedMs = plan.roundTime * 1e3;
    result.disagreement = plan.disagreement;
    const auto& config = m_planner.GetConfig();
    if (config.aggregation && config.hbmBytes == 0)
    {
        result.scaleWarning =
            WanScaleCheck::JitterAgainstWindow(LargestJitter(), config.lineRateWindow, m_scale);
    }
    return result;
}

double
CliqueExperimentHelper::LargestJitter() const
{
    double sigma = m_planner.GetTopology().GetLargestOwnJitter();
    for (const auto& [linkClass, impairment] : m_impairment)
    {
        sigma = std::max(sigma, impairment.jitterSeconds);
    }
    return sigma;
}

void
CliqueExperimentHelper::Partition(const WanExperimentPlan& plan, WanNetworkHelper& net)
{
    m_rankOf.clear();
    if (WanMpiHelper::GetSize() > 1)
    {
        const auto& topo = m_planner.GetTopology();
        const auto load = WanRankBalancer::PlannedLoad(plan,
                                                       topo.GetNCities(),
                                                       m_planner.GetConfig().aggregation);
        m_rankOf = WanMpiHelper::Partition(topo, WanMpiHelper::GetSize(), m_partition, &load);
        net.SetSystemIds(m_rankOf);
    }
}

WanExperimentResult
CliqueExperimentHelper::Run(const CliqueSchedule& schedule)
{
    NS_LOG_FUNCTION(this << schedule.GetName());
    // Plan.  Detected faults are the network's events only: the plan knows none.
    auto nominal = m_planner;
    if (m_faultDetection == BFD)
    {
        nominal.ClearLinkFaults();
    }
    auto plan = nominal.Plan(schedule);
    auto result = Planned(plan);
    if (!plan.feasible)
    {
        return result;
    }
    // Build the network and install the applications and every round.
    WanSimulatorSession session;
    WanNetworkHelper net(m_planner.GetTopology());
    Partition(plan, net);
    BuildNetwork(net);
    EnableTraces(net);
    const auto islands = InstallIslands(net);
    const auto fpgas = InstallFpgas(net, plan);
    WanRoundInstaller installer(net,
                                m_planner.GetConfig(),
                                m_scale,
                                m_treeBuilding == PIM,
                                islands);
    const auto groups = installer.InstallAll(plan);
    // Arm: counters, cross traffic, faults, PIM membership, detection.
    WanCoreLinkMonitor coreLinks(plan);
    coreLinks.Watch(net);
    const Time end = Seconds(plan.rounds.back().start + plan.rounds.back().deadline);
    WanCrossTrafficHelper::AssignStreams(m_crossTraffic.Install(net, end, m_rankOf),
                                         m_stream + 100000); // clear of the loss and jitter streams
    const auto tcpCross = m_tcpCrossTraffic.Install(net, end, m_rankOf);
    WanExperimentReplanner replanner(
        {&net, &nominal, &plan, &schedule, &installer, &coreLinks, fpgas, groups, m_rankOf});
    replanner.ScheduleFaults(m_planner.GetLinkFaults(), m_fpgaFaults, m_faultDetection == BFD);
    std::optional<WanPimMembership> pim;
    if (m_treeBuilding == PIM && m_planner.GetConfig().multicast)
    {
        pim.emplace(plan, net, m_rankOf);
        pim->Start();
    }
    if (m_faultDetection == BFD)
    {
        replanner.EnableDetection(m_bfdInterval,
                                  m_bfdMultiplier,
                                  m_stream + 500,
                                  pim ? &*pim : nullptr);
    }
    WanRoundRecorder recorder; // connected before the run: it listens to trace sources
    recorder.WatchIslands(islands);
    recorder.WatchFpgas(fpgas);
    WanExperimentSimulation simulation(plan, m_progressSeconds);
    simulation.Run(RepairRoom(islands), m_faultDetection == BFD);
    result.routeChanges = replanner.GetRouteChanges();
    replanner.CountControl(result);
    if (pim)
    {
        pim->CountMessages(result);
    }
    result.events = simulation.GetModelEvents();
    result.crossTcpBytes = WanTcpCrossTrafficHelper::GetBytesReceived(tcpCross, m_scale);
    result.lostPackets = {{"core", net.GetLostPackets(WanNetworkHelper::CORE)},
                          {"access", net.GetLostPackets(WanNetworkHelper::ACCESS)},
                          {"post", net.GetLostPackets(WanNetworkHelper::POST_AGGREGATION)}};
    if (!m_rankOf.empty())
    {
        GatherToRoot(recorder, coreLinks, replanner, pim ? &*pim : nullptr, result);
    }
    result.fpgaFailures = replanner.GetFpgaFailures();
    if (pim)
    {
        pim->FillTreeTimes(result);
    }
    Collect(plan, recorder, coreLinks, result);
    recorder.MeasureMixing(plan, m_planner.GetTopology().GetNCities(), result);
    recorder.CollectFpgas(m_scale, result);
    return result;
}

void
CliqueExperimentHelper::GatherToRoot(WanRoundRecorder& recorder,
                                     WanCoreLinkMonitor& coreLinks,
                                     WanExperimentReplanner& replanner,
                                     WanPimMembership* pim,
                                     WanExperimentResult& result)
{
    // Route changes: every rank saw them all; FPGA failures and tree times: each
    // rank its own (a tree is built and moved by its last router, on any rank).
    recorder.GatherToRoot();
    coreLinks.GatherToRoot();
    replanner.GatherToRoot();
    if (pim)
    {
        pim->GatherToRoot(result);
    }
    result.events = WanMpiHelper::Sum(result.events);
    result.crossTcpBytes = WanMpiHelper::Sum(result.crossTcpBytes);
    result.controlPackets = WanMpiHelper::Sum(result.controlPackets);
    result.controlBytes = WanMpiHelper::Sum(result.controlBytes);
    for (auto& [linkClass, lost] : result.lostPackets)
    {
        lost = WanMpiHelper::Sum(lost);
    }
}

void
CliqueExperimentHelper::BuildNetwork(WanNetworkHelper& net) const
{
    net.SetScale(m_scale);
    net.SetEdgeRate(m_planner.GetConfig().edgeBps);
    if (m_coreQueue)
    {
        m_coreQueuePackets ? net.SetCoreQueue(*m_coreQueue, *m_coreQueuePackets)
                           : net.SetCoreQueue(*m_coreQueue);
    }
    net.SetEdgeMulticastDelivery(m_planner.GetConfig().aggregation);
    for (const auto& [linkClass, impairment] : m_impairment)
    {
        net.SetImpairment(linkClass, impairment);
    }
    net.Install();
    net.AssignStreams(m_stream);
}

void
CliqueExperimentHelper::EnableTraces(const WanNetworkHelper& net) const
{
    if (!m_pcapPrefix.empty())
    {
        WanPacketTraceHelper::EnablePcap(net, m_pcapPrefix, m_traced);
    }
    if (!m_asciiPrefix.empty())
    {
        WanPacketTraceHelper::EnableAscii(net, m_asciiPrefix, m_traced);
    }
}

ApplicationContainer
CliqueExperimentHelper::InstallIslands(const WanNetworkHelper& net) const
{
    auto helper = m_islands;
    helper.SetAttribute("Recovery", EnumValue(RepairOf(m_recovery)));
    Parity().ConfigureIslands(helper, SendsParity());
    helper.SetAttribute("AverageAtDeadline", BooleanValue(m_averageAtDeadline));
    ApplicationContainer apps;
    for (uint32_t c = 0; c < net.GetIslands().GetN(); ++c)
    {
        helper.SetAttribute("Fpga", Ipv4AddressValue(net.GetEdgeAddress(c)));
        // Without FPGA memory an early repair must not delay a stream (see the island).
        helper.SetAttribute("RepairWhileStreaming",
                            BooleanValue(RepairOf(m_recovery) != WanIslandApplication::EARLY ||
                                         !(m_planner.GetConfig().aggregation &&
                                           m_planner.GetConfig().hbmBytes == 0)));
        if (IsLocal(c))
        {
            apps.Add(helper.Install(net.GetIslands().Get(c)));
        }
        else
        {
            apps.Add(helper.Create()); // another rank runs it
        }
    }
    return apps;
}

ApplicationContainer
CliqueExperimentHelper::InstallFpgas(const WanNetworkHelper& net,
                                     const WanExperimentPlan& plan) const
{
    if (!m_planner.GetConfig().aggregation)
    {
        return {};
    }
    FpgaAggregatorHelper helper;
    helper.SetScale(m_scale);
    helper.SetAttribute("SlotTimeout", TimeValue(Seconds(plan.slotTimeout)));
    helper.SetAttribute("HbmBytes",
                        UintegerValue(static_cast<uint64_t>(m_planner.GetConfig().hbmBytes)));
    // The window and line rate (hence slots) the planner checks the skew against.
    helper.SetAttribute("LineRateWindow", TimeValue(Seconds(m_planner.GetConfig().lineRateWindow)));
    helper.SetAttribute(
        "LineRate",
        DataRateValue(DataRate(static_cast<uint64_t>(m_planner.GetConfig().lineRateBps))));
    // With fault detection the FPGAs tell their edge they live, at BFD's pace.
    helper.SetAttribute("HeartbeatInterval",
                        TimeValue(m_faultDetection == BFD ? m_bfdInterval : Time(0)));
    Parity().ConfigureFpgas(helper, SendsParity());
    ApplicationContainer apps;
    for (uint32_t c = 0; c < net.GetEdges().GetN(); ++c)
    {
        helper.SetAttribute("Island", Ipv4AddressValue(net.GetIslandAddress(c)));
        if (IsLocal(c))
        {
            apps.Add(helper.Install(net.GetEdges().Get(c)));
        }
        else
        {
            apps.Add(helper.Create()); // another rank runs it
        }
    }
    return apps;
}

bool
CliqueExperimentHelper::SendsParity() const
{
    return m_recovery == CODED || m_recovery == CODED_EARLY ||
           (m_recovery == BEST && WanBestRecovery(m_planner.GetConfig()).IsCoded());
}

WanParityPolicy
CliqueExperimentHelper::Parity() const
{
    return m_recovery == BEST ? WanBestRecovery(m_planner.GetConfig()).GetParity() : m_parity;
}

Time
CliqueExperimentHelper::RepairRoom(const ApplicationContainer& islands) const
{
    // Room after the last round for its repairs.
    if (RepairOf(m_recovery) == WanIslandApplication::ACCEPT)
    {
        return Time(0);
    }
    TimeValue timeout;
    islands.Get(0)->GetAttribute("RequestTimeout", timeout);
    return timeout.Get() * (UintegerAttribute(islands.Get(0), "MaxRequests") + 1);
}

void
CliqueExperimentHelper::Collect(const WanExperimentPlan& plan,
                                const WanRoundRecorder& recorder,
                                const WanCoreLinkMonitor& coreLinks,
                                WanExperimentResult& result) const
{
    result.exact = true;
    for (const auto& round : plan.rounds)
    {
        WanRoundResult rr;
        rr.round = round.round;
        rr.failed = round.failed;
        rr.note = round.note;
        rr.warnings = round.plan.warnings;
        coreLinks.Fill(round.round, m_scale, rr);
        rr.evictions = recorder.GetEvictions(round.round);
        for (const auto& f : m_planner.GetLinkFaults())
        {
            for (const auto& hop : {WanHop{f.a, f.b}, WanHop{f.b, f.a}})
            {
                auto it = rr.corePackets.find(hop);
                rr.faultLinkPackets += it == rr.corePackets.end() ? 0 : it->second;
                rr.faultLinkLost += rr.coreLost[hop];
            }
        }
        if (round.failed)
        {
            result.rounds.push_back(rr);
            continue;
        }
        rr.plannedMs = round.plan.roundTime * 1e3;
        rr.scaleLagMs = m_planner.ScaleLag(round, m_scale) * 1e3;
        result.scaleLagMs = std::max(result.scaleLagMs, rr.scaleLagMs);
        for (const auto& cp : round.plan.cliques)
        {
            if (cp.members.size() < 2)
            {
                continue;
            }
            for (auto i : cp.members)
            {
                const auto ir = recorder.GetIslandResult(round.round, i, m_scale);
                result.exact = result.exact && ir.exact;
                rr.measuredMs = std::max(rr.measuredMs, ir.completionMs);
                if (ir.completionMs < 0)
                {
                    rr.measuredMs = std::numeric_limits<double>::infinity();
                }
                rr.islands.push_back(ir);
            }
        }
        rr.idleMs = std::max(0.0, rr.measuredMs - rr.plannedMs);
        result.rounds.push_back(rr);
    }
}

} // namespace ns3
