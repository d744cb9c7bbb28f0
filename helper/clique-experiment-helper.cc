/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-experiment-helper.h"

#include "fpga-aggregator-helper.h"
#include "wan-bfd-helper.h"
#include "wan-island-helper.h"
#include "wan-mpi-helper.h"
#include "wan-network-helper.h"
#include "wan-pim-helper.h"
#include "wan-round-recorder.h"

#include "ns3/boolean.h"
#include "ns3/data-rate.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/log.h"
#include "ns3/mixing-analysis.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/onoff-application.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/queue-disc.h"
#include "ns3/queue.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/traffic-control-layer.h"
#include "ns3/type-id.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wan-bfd-application.h"
#include "ns3/wan-chunk-header.h"
#include "ns3/wan-contribution.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-parity-code.h"
#include "ns3/wan-pim-router.h"
#include "ns3/wan-pim-state.h"
#include "ns3/wan-scale-check.h"
#include "ns3/wan-training-compat.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueExperimentHelper");

namespace
{

/// @return what a core link direction does in the round under way at `at`
/// (the bucket after the last once every round's window has ended)
CliqueExperimentHelper::CoreLinkRound&
CurrentCoreRound(CliqueExperimentHelper::CoreLinkCounts* counts, WanHop hop, Time at)
{
    const auto& ends = counts->roundEnds;
    const auto k =
        static_cast<size_t>(std::upper_bound(ends.begin(), ends.end(), at) - ends.begin());
    return counts->perRound[k][hop];
}

/// Counts a packet that a core link direction starts to send, in its round's bucket.
void
CountCorePacket(CliqueExperimentHelper::CoreLinkCounts* counts,
                WanHop hop,
                Ptr<const Packet> packet)
{
    auto& round = CurrentCoreRound(counts, hop, Simulator::Now());
    ++round.packets;
    round.bytes += packet->GetSize();
}

/// Counts a packet that a core link direction's queue disc or device queue dropped.
void
CountCoreDrop(CliqueExperimentHelper::CoreLinkCounts* counts, WanHop hop, Ptr<const Packet>)
{
    ++CurrentCoreRound(counts, hop, Simulator::Now()).queueDrops;
}

/**
 * How long PIM-SSM joins take to move one stream's tree from the routes it
 * was joined on to new ones (WanPimState on every router): the tree had been
 * joined before (made before break); when the routes change, each router
 * whose RPF neighbour changed joins the new one and prunes the old, and the
 * joins travel hop by hop at the links' delays until they reach routers that
 * have the state.
 * @return seconds from the route change to the last Join's arrival
 */
double
JoinPropagation(const WanTopology& before,
                const WanTopology& after,
                uint32_t source,
                const std::vector<uint32_t>& members)
{
    const Ipv4Address s(0x0a000000u + source); // stands for the source's address
    const Ipv4Address g = WanNetworkHelper::GroupAddress(0, source);
    const WanTopology* routes = &before;
    std::vector<std::unique_ptr<WanPimState>> states;
    for (uint32_t v = 0; v < before.GetNCities(); ++v)
    {
        states.push_back(std::make_unique<WanPimState>([&routes, v, source](Ipv4Address) {
            return v == source ? WanPimState::LOCAL : routes->GetPath(v, source).at(1);
        }));
    }
    std::map<WanHop, double> delay; // the links up now
    for (const auto& link : after.GetLinks())
    {
        delay[{link.a, link.b}] = delay[{link.b, link.a}] = link.delay;
    }
    double last = 0;
    // Carries messages in time order; a message on a link that is down is lost.
    auto deliver = [&](uint32_t from, const std::vector<WanPimState::Message>& messages) {
        std::multimap<double, std::pair<uint32_t, WanPimState::Message>> queue;
        auto send = [&](double t, uint32_t u, const std::vector<WanPimState::Message>& out) {
            for (const auto& m : out)
            {
                auto it = delay.find({u, m.neighbour});
                if (it != delay.end())
                {
                    queue.emplace(t + it->second, std::make_pair(u, m));
                }
            }
        };
        send(0, from, messages);
        while (!queue.empty())
        {
            auto [t, item] = *queue.begin();
            queue.erase(queue.begin());
            const auto& [u, m] = item;
            auto& to = *states[m.neighbour];
            last = m.join ? std::max(last, t) : last;
            send(t, m.neighbour, m.join ? to.Join(s, g, u, t) : to.Prune(s, g, u, t));
        }
    };
    for (uint32_t r : members)
    {
        if (r != source)
        {
            deliver(r, states[r]->Join(s, g, WanPimState::LOCAL, 0)); // the tree as it was
        }
    }
    routes = &after;
    last = 0;
    for (uint32_t v = 0; v < states.size(); ++v)
    {
        deliver(v, states[v]->RpfChanged(0));
    }
    return last;
}

/// Counts an FPGA's heartbeat.
void
CountHeartbeat(uint64_t* beats)
{
    ++*beats;
}

/// Counts a packet lost on a core link direction (its receiver's loss model).
void
CountCoreLoss(CliqueExperimentHelper::CoreLinkCounts* counts, WanHop hop, Ptr<const Packet>)
{
    ++CurrentCoreRound(counts, hop, Simulator::Now()).lost;
}

/// Counts a packet that a core link direction's queue disc dropped.
void
CountCoreDiscDrop(CliqueExperimentHelper::CoreLinkCounts* counts,
                  WanHop hop,
                  Ptr<const QueueDiscItem> item)
{
    CountCoreDrop(counts, hop, item->GetPacket());
}

/// Keeps the peak of the bytes waiting on a core link direction: `device`
/// says which of its two queues (the queue disc, the device's) changed.  A
/// backlog counts once it has lasted: a packet that an idle link takes at
/// once passes through both queues within one instant and is not a queue.
void
TrackCoreQueue(CliqueExperimentHelper::CoreLinkCounts* counts,
               WanHop hop,
               bool device,
               uint32_t,
               uint32_t bytes)
{
    auto& q = counts->queues[hop];
    if (Simulator::Now() > q.since)
    {
        auto& round = CurrentCoreRound(counts, hop, q.since);
        round.peakQueueBytes = std::max(round.peakQueueBytes, q.discBytes + q.deviceBytes);
        q.since = Simulator::Now();
    }
    (device ? q.deviceBytes : q.discBytes) = bytes;
}

/// @return how many rounds of a plan have ended by now
uint64_t
RoundsDone(const WanExperimentPlan& plan)
{
    uint64_t done = 0;
    for (const auto& r : plan.rounds)
    {
        done += Seconds(r.start + r.deadline) <= Simulator::Now() ? 1 : 0;
    }
    return done;
}

/// Ends the simulation however Run is left, also by an exception.
struct SimulatorSession
{
    SimulatorSession()
    {
        Ipv4AddressGenerator::Reset(); // one simulation per run: addresses start afresh
        WanMpiHelper::PrepareSimulation();
    }

    ~SimulatorSession()
    {
        Simulator::Destroy();
    }

    SimulatorSession(const SimulatorSession&) = delete;
    SimulatorSession& operator=(const SimulatorSession&) = delete;
};

/// @return the largest jitter (standard deviation) on any link: a class's, or
/// a link's or an access link's own
double
LargestJitter(const WanTopology& topo,
              const std::map<WanNetworkHelper::LinkClass, WanLinkImpairment>& classes)
{
    double sigma = 0;
    for (const auto& [linkClass, impairment] : classes)
    {
        sigma = std::max(sigma, impairment.jitterSeconds);
    }
    for (const auto& link : topo.GetLinks())
    {
        if (link.impairmentFields & WanLinkImpairment::JITTER)
        {
            sigma = std::max(sigma, link.impairment.jitterSeconds);
        }
    }
    for (uint32_t c = 0; c < topo.GetNCities(); ++c)
    {
        const auto& city = topo.GetCity(c);
        if (city.accessFields & WanLinkImpairment::JITTER)
        {
            sigma = std::max(sigma, city.access.jitterSeconds);
        }
    }
    return sigma;
}

/// @return an application's unsigned integer attribute
uint64_t
UintegerAttribute(Ptr<Application> app, const std::string& name)
{
    UintegerValue v;
    app->GetAttribute(name, v);
    return v.Get();
}

/**
 * @param recorder what the islands reported
 * @param round a round
 * @param city an island of one of its cliques
 * @param scale the time-preserving scale (bytes are multiplied back by it)
 * @return the island's result (completion -1 and not exact when it reported nothing)
 */
WanIslandRoundResult
IslandResult(const WanRoundRecorder& recorder, uint32_t round, uint32_t city, double scale)
{
    WanIslandRoundResult ir;
    ir.city = city;
    ir.completionMs = -1;
    const WanIslandRecord* rec = recorder.Find(round, city);
    if (rec == nullptr)
    {
        return ir;
    }
    static_cast<WanRoundCounters&>(ir) = *rec;
    ir.bytesIn = static_cast<uint64_t>(std::llround(rec->bytesIn * scale));
    ir.bytesOut = static_cast<uint64_t>(std::llround(rec->bytesOut * scale));
    if (!rec->completion.IsZero())
    {
        ir.completionMs = (rec->completion - rec->start).GetSeconds() * 1e3;
    }
    ir.exact = recorder.IsExact(round, city);
    ir.lateChunks = rec->lateChunks;
    ir.requestedChunks = rec->requestedChunks;
    ir.givenUpChunks = rec->givenUpChunks;
    return ir;
}

/**
 * @brief Fills one island's realised mixing: its row in the round's
 * matrix, the chunks it held of each member, and when it averaged.
 * @param recorder the run's records
 * @param round the round (its index among those run)
 * @param members the island's clique, ascending (its positions)
 * @param mixing the realised matrices
 * @param ir the island's result
 */
void
MeasureIsland(const WanRoundRecorder& recorder,
              uint32_t round,
              const std::vector<uint32_t>& members,
              WanMeasuredMixing& mixing,
              WanIslandRoundResult& ir)
{
    ir.mixedMs = -1;
    const WanIslandRecord* rec = recorder.Find(round, ir.city);
    if (rec == nullptr)
    {
        return; // it never ended the round: it keeps its state
    }
    const auto position =
        static_cast<uint32_t>(std::find(members.begin(), members.end(), ir.city) - members.begin());
    mixing.SetRow(round, members, position, rec->averaged);
    const auto& row = mixing.GetMatrix(round)[ir.city];
    for (size_t p = 0; p < members.size(); ++p)
    {
        ir.held[members[p]] = rec->heldPerPosition.at(p);
        ir.mixing[members[p]] = row[members[p]];
    }
    ir.mixedMs = (recorder.GetMixedAt(round, ir.city) - rec->start).GetSeconds() * 1e3;
}

/**
 * @brief The realised mixing of a run: every island's row, each round's
 * matrix and measured T, and A, T and J measured beside the planned ones.
 * @param plan the run's plan
 * @param recorder its records
 * @param nIslands N
 * @param result its results (rounds collected), completed here
 */
void
MeasureMixing(const WanExperimentPlan& plan,
              const WanRoundRecorder& recorder,
              uint32_t nIslands,
              WanExperimentResult& result)
{
    WanMeasuredMixing mixing(nIslands, static_cast<uint32_t>(plan.rounds.size()));
    for (uint32_t k = 0; k < plan.rounds.size(); ++k)
    {
        auto& rr = result.rounds.at(k);
        for (auto& ir : rr.islands) // the members of cliques of two or more
        {
            for (const auto& cp : plan.rounds[k].plan.cliques)
            {
                if (std::count(cp.members.begin(), cp.members.end(), ir.city) > 0)
                {
                    MeasureIsland(recorder, k, cp.members, mixing, ir);
                }
            }
            rr.mixedMs = ir.mixedMs < 0 ? std::numeric_limits<double>::infinity()
                                        : std::max(rr.mixedMs, ir.mixedMs);
        }
        rr.mixing = mixing.GetMatrix(k);
        result.mixedMs = std::max(result.mixedMs, rr.mixedMs);
    }
    const auto analysis = mixing.Analyse();
    result.disagreementMeasured = analysis.GetAverageDisagreement();
    result.consensusSkew = analysis.GetConsensusSkew();
    result.objective = result.plannedMs * result.disagreement;
    result.objectiveMeasured = result.mixedMs * result.disagreementMeasured;
}

} // namespace

CliqueExperimentHelper::CliqueExperimentHelper(const WanTopology& topo, const PlannerConfig& config)
    : m_planner(topo, config)
{
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
    const std::string repair = RepairPolicy(policy);
    const bool coded = repair != policy;
    try
    {
        wancompat::RequireEnumName(WanIslandApplication::GetTypeId(),
                                   "Recovery",
                                   repair,
                                   "recovery policy"); // ns-3 would assert
    }
    catch (const std::invalid_argument& e)
    {
        const std::string what = e.what(); // ends with the island's names and ")"
        throw std::invalid_argument(what.substr(0, what.size() - 1) + " or coded or coded+early)");
    }
    m_islands.SetAttribute("Recovery", StringValue(repair));
    m_recovery = repair;
    m_coded = coded;
    SetParity(m_parityBlock, m_parityChunks);
}

std::string
CliqueExperimentHelper::RepairPolicy(const std::string& policy)
{
    // "coded" and "coded+early": parity chunks over a repair policy.
    return policy == "coded" ? "rerequest" : (policy == "coded+early" ? "early" : policy);
}

void
CliqueExperimentHelper::SetParity(uint32_t block, uint32_t parities)
{
    if (block == 0)
    {
        throw std::invalid_argument("parity block of 0 chunks; at least 1");
    }
    WanParityCode(block, block, parities); // refuses a bad layout, with its values
    m_parityBlock = block;
    m_parityChunks = parities;
    m_islands.SetAttribute("ParityBlock", UintegerValue(m_coded ? block : 0));
    m_islands.SetAttribute("ParityChunks", UintegerValue(parities));
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
            WanNetworkHelper::CheckTracePrefix(prefix);
        }
    }
    m_traced = WanNetworkHelper(m_planner.GetTopology()).ParseTraceSelection(selection);
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
    if (mode != "oracle" && mode != "bfd")
    {
        throw std::invalid_argument("unknown fault detection \"" + mode +
                                    "\" (expected oracle or bfd)");
    }
    m_detectFaults = mode == "bfd";
}

void
CliqueExperimentHelper::SetTreeBuilding(const std::string& mode)
{
    if (mode != "planner" && mode != "pim")
    {
        throw std::invalid_argument("unknown tree building \"" + mode +
                                    "\" (expected planner or pim)");
    }
    m_pim = mode == "pim";
}

void
CliqueExperimentHelper::SetPartition(const std::string& map)
{
    m_partition = map; // checked against the ranks when a distributed run starts
}

bool
CliqueExperimentHelper::IsLocal(uint32_t c) const
{
    return m_rankOf.empty() || m_rankOf.at(c) == WanMpiHelper::GetRank();
}

std::string
CliqueExperimentHelper::SaveCoreLinks(const CoreLinkCounts& counts)
{
    nlohmann::json rows = nlohmann::json::array();
    for (uint32_t k = 0; k < counts.perRound.size(); ++k)
    {
        for (const auto& [hop, c] : counts.perRound[k])
        {
            rows.push_back({k,
                            hop.first,
                            hop.second,
                            c.packets,
                            c.bytes,
                            c.peakQueueBytes,
                            c.queueDrops,
                            c.lost});
        }
    }
    return rows.dump();
}

std::string
CliqueExperimentHelper::SavePimTimes(const PimTrees& trees,
                                     const std::vector<WanRouteChangeResult>& changes)
{
    nlohmann::json ready = nlohmann::json::array();
    for (const auto& [group, at] : trees.ready)
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
CliqueExperimentHelper::MergePimTimes(const std::string& saved,
                                      PimTrees& trees,
                                      std::vector<WanRouteChangeResult>& changes)
{
    const auto in = nlohmann::json::parse(saved);
    for (const auto& row : in.at("ready"))
    {
        auto& at = trees.ready[Ipv4Address(row.at(0).get<uint32_t>())];
        at = std::max(at, row.at(1).get<double>());
    }
    const auto& joined = in.at("joined");
    for (size_t k = 0; k < changes.size() && k < joined.size(); ++k)
    {
        changes[k].joinedS = std::max(changes[k].joinedS, joined[k].get<double>());
    }
}

std::string
CliqueExperimentHelper::SaveFpgaFailures(const std::vector<WanFpgaFailureResult>& failures)
{
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& f : failures)
    {
        rows.push_back({f.city, f.failedS, f.detectedS});
    }
    return rows.dump();
}

void
CliqueExperimentHelper::MergeFpgaFailures(const std::string& saved,
                                          std::vector<WanFpgaFailureResult>& failures)
{
    for (const auto& row : nlohmann::json::parse(saved))
    {
        failures.push_back(
            {row.at(0).get<std::string>(), row.at(1).get<double>(), row.at(2).get<double>()});
    }
    // In detection order, as one process records them.
    std::stable_sort(failures.begin(), failures.end(), [](const auto& a, const auto& b) {
        return a.detectedS < b.detectedS;
    });
}

void
CliqueExperimentHelper::MergeCoreLinks(const std::string& saved, CoreLinkCounts& counts)
{
    for (const auto& row : nlohmann::json::parse(saved))
    {
        auto& c = counts.perRound.at(
            row.at(0).get<uint32_t>())[{row.at(1).get<uint32_t>(), row.at(2).get<uint32_t>()}];
        c.packets += row.at(3).get<uint64_t>();
        c.bytes += row.at(4).get<uint64_t>();
        c.peakQueueBytes = std::max(c.peakQueueBytes, row.at(5).get<uint64_t>());
        c.queueDrops += row.at(6).get<uint64_t>();
        c.lost += row.at(7).get<uint64_t>();
    }
}

void
CliqueExperimentHelper::SetBfd(Time interval, uint32_t multiplier)
{
    if (interval < MilliSeconds(1) || interval > Seconds(10))
    {
        throw std::invalid_argument("BFD interval " + wantext::Num(interval.GetSeconds() * 1e3) +
                                    " ms: from 1 ms to 10 s");
    }
    if (multiplier < 1 || multiplier > 255)
    {
        throw std::invalid_argument("BFD detect multiplier " + std::to_string(multiplier) +
                                    ": from 1 to 255");
    }
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

WanExperimentResult
CliqueExperimentHelper::Run(const CliqueSchedule& schedule)
{
    NS_LOG_FUNCTION(this << schedule.GetName());
    // Detected faults are the network's events only: the plan knows none.
    auto nominal = m_planner;
    if (m_detectFaults)
    {
        nominal.ClearLinkFaults();
    }
    auto plan = nominal.Plan(schedule);
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
            WanScaleCheck::JitterAgainstWindow(LargestJitter(m_planner.GetTopology(), m_impairment),
                                               config.lineRateWindow,
                                               m_scale);
    }

    SimulatorSession session;
    WanNetworkHelper net(m_planner.GetTopology());
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
    BuildNetwork(net);
    EnableTraces(net);
    const auto islands = InstallIslands(net);
    const auto fpgas = InstallFpgas(net, plan);
    const auto groups = AddRounds(net, plan, islands);
    CoreLinkCounts coreLinks;
    for (const auto& r : plan.rounds)
    {
        coreLinks.roundEnds.push_back(Seconds(r.start + r.deadline));
    }
    coreLinks.perRound.resize(plan.rounds.size() + 1); // the last: after the last round
    WatchCoreLinks(net, coreLinks);
    InstallCrossTraffic(net, plan);
    ScheduleFaults(net, groups, fpgas);
    Detection detection;
    PimTrees pim;
    if (m_pim && m_planner.GetConfig().multicast)
    {
        pim.plan = &plan;
        pim.net = &net;
        pim.changes = &detection.changes;
        pim.routers = WanPimHelper().Install(net);
        for (uint32_t c = 0; c < pim.routers.GetN(); ++c)
        {
            if (IsLocal(c))
            {
                pim.localRouters.Add(pim.routers.Get(c));
            }
            pim.routers.Get(c)->TraceConnectWithoutContext(
                "Forwarding",
                MakeBoundCallback(&CliqueExperimentHelper::PimForwarding, &pim, c));
        }
        // The run starts with the network converged and round 0 joined.
        // Every rank converges every router alike (function calls, no
        // packets); each then runs its own.
        JoinRound(&pim, 0);
        WanPimHelper::Converge(pim.routers);
        pim.converged = true;
        pim.localRouters.Start(Seconds(0));
        ScheduleMembership(&pim);
        detection.pim = &pim;
    }
    ApplicationContainer bfd;
    std::optional<WanReconvergenceHelper> reconvergence;
    if (m_detectFaults)
    {
        WanBfdHelper bfdHelper;
        bfdHelper.SetAttribute("DesiredMinTx", TimeValue(m_bfdInterval));
        bfdHelper.SetAttribute("RequiredMinRx", TimeValue(m_bfdInterval));
        bfdHelper.SetAttribute("DetectMultiplier", UintegerValue(m_bfdMultiplier));
        bfd = bfdHelper.Install(net);
        WanBfdHelper::AssignStreams(bfd, m_stream + 500);
        reconvergence.emplace(net);
        reconvergence->Watch(bfd);
        if (!m_rankOf.empty())
        {
            reconvergence->Distribute(m_rankOf);
        }
        WanPimHelper::WatchBfd(pim.routers, bfd);
        detection.net = &net;
        detection.planner = &nominal;
        detection.plan = &plan;
        detection.schedule = &schedule;
        detection.islands = islands;
        detection.fpgas = fpgas;
        detection.coreLinks = &coreLinks;
        detection.groups = groups;
        detection.heartbeats.assign(fpgas.GetN(), 0);
        for (uint32_t c = 0; c < fpgas.GetN(); ++c)
        {
            if (!IsLocal(c))
            {
                continue; // its edge's watchdog runs on another rank
            }
            fpgas.Get(c)->TraceConnectWithoutContext(
                "Heartbeat",
                MakeBoundCallback(&CountHeartbeat, &detection.heartbeats[c]));
            Simulator::Schedule(m_bfdInterval,
                                &CliqueExperimentHelper::WatchFpga,
                                this,
                                &detection,
                                c,
                                0,
                                0);
        }
        reconvergence->SetChangeCallback(
            MakeCallback(&CliqueExperimentHelper::RouteChanged, this).Bind(&detection));
    }
    WanRoundRecorder recorder; // connected before the run: it listens to trace sources
    recorder.WatchIslands(islands);
    recorder.WatchFpgas(fpgas);
    Simulate(plan, islands);
    result.routeChanges = detection.changes;
    result.fpgaFailures = detection.fpgaFailures;
    for (uint32_t k = 0; k < bfd.GetN(); ++k)
    {
        auto app = DynamicCast<WanBfdApplication>(bfd.Get(k));
        result.controlPackets += app->GetPacketsSent();
        result.controlBytes += app->GetBytesSent();
    }
    for (uint32_t k = 0; k < pim.localRouters.GetN(); ++k)
    {
        auto router = DynamicCast<WanPimRouter>(pim.localRouters.Get(k));
        result.pimPackets += router->GetMessagesSent();
        result.pimBytes += router->GetBytesSent();
    }
    result.events = Simulator::GetEventCount() - m_progressEvents; // the model's events only
    result.lostPackets = {{"core", net.GetLostPackets(WanNetworkHelper::CORE)},
                          {"access", net.GetLostPackets(WanNetworkHelper::ACCESS)},
                          {"post", net.GetLostPackets(WanNetworkHelper::POST_AGGREGATION)}};
    if (!m_rankOf.empty())
    {
        // Every rank's records and counts to rank 0, which builds the result.
        // Route changes: every rank saw them all; FPGA failures and tree
        // times: each rank its own (a tree is built and moved by its last
        // router, on any rank).
        const auto records = WanMpiHelper::GatherToRoot(recorder.Save());
        const auto links = WanMpiHelper::GatherToRoot(SaveCoreLinks(coreLinks));
        const auto failures = WanMpiHelper::GatherToRoot(SaveFpgaFailures(result.fpgaFailures));
        const auto times = WanMpiHelper::GatherToRoot(SavePimTimes(pim, result.routeChanges));
        for (uint32_t r = 1; r < records.size(); ++r)
        {
            recorder.Merge(records[r]);
            MergeCoreLinks(links[r], coreLinks);
            MergeFpgaFailures(failures[r], result.fpgaFailures);
            MergePimTimes(times[r], pim, result.routeChanges);
        }
        result.events = WanMpiHelper::Sum(result.events);
        result.controlPackets = WanMpiHelper::Sum(result.controlPackets);
        result.controlBytes = WanMpiHelper::Sum(result.controlBytes);
        result.pimPackets = WanMpiHelper::Sum(result.pimPackets);
        result.pimBytes = WanMpiHelper::Sum(result.pimBytes);
        for (auto& [linkClass, lost] : result.lostPackets)
        {
            lost = WanMpiHelper::Sum(lost);
        }
    }
    for (const auto& [k, at] : pim.joinedAt)
    {
        double ready = at; // when the round's last tree was built
        for (const auto& stream : plan.rounds[k].streams)
        {
            auto it = pim.ready.find(WanNetworkHelper::GroupAddress(k, stream.sender));
            ready = std::max(ready, it == pim.ready.end() ? at : it->second);
        }
        if (k > 0)
        {
            result.pimJoinMs = std::max(result.pimJoinMs, (ready - at) * 1e3);
            const double slack = (plan.rounds[k].start - ready) * 1e3;
            result.pimSlackMs = result.pimSlackMs < 0 ? slack : std::min(result.pimSlackMs, slack);
        }
    }
    Collect(plan, recorder, coreLinks, result);
    MeasureMixing(plan, recorder, m_planner.GetTopology().GetNCities(), result);
    CollectFpgas(recorder, fpgas, result);
    return result;
}

void
CliqueExperimentHelper::BuildNetwork(WanNetworkHelper& net) const
{
    net.SetScale(m_scale);
    net.SetEdgeRate(m_planner.GetConfig().edgeBps);
    net.SetCoreQueue(m_coreQueue, m_coreQueuePackets);
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
        net.EnablePcap(m_pcapPrefix, m_traced);
    }
    if (!m_asciiPrefix.empty())
    {
        net.EnableAscii(m_asciiPrefix, m_traced);
    }
}

ApplicationContainer
CliqueExperimentHelper::InstallIslands(const WanNetworkHelper& net) const
{
    auto helper = m_islands;
    ApplicationContainer apps;
    for (uint32_t c = 0; c < net.GetIslands().GetN(); ++c)
    {
        helper.SetAttribute("Fpga", Ipv4AddressValue(net.GetEdgeAddress(c)));
        // Without FPGA memory an early repair must not delay a stream (see the
        // island); repairs at the deadline go at once, as they always did.
        helper.SetAttribute(
            "RepairWhileStreaming",
            BooleanValue(m_recovery != "early" || !(m_planner.GetConfig().aggregation &&
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
    // The window the planner checks the packet-level skew against.
    helper.SetAttribute("LineRateWindow", TimeValue(Seconds(m_planner.GetConfig().lineRateWindow)));
    // With fault detection the FPGAs tell their edge they live, at BFD's pace.
    helper.SetAttribute("HeartbeatInterval", TimeValue(m_detectFaults ? m_bfdInterval : Time(0)));
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

std::vector<CliqueExperimentHelper::Group>
CliqueExperimentHelper::AddRounds(WanNetworkHelper& net,
                                  const WanExperimentPlan& plan,
                                  const ApplicationContainer& islands) const
{
    const auto& config = m_planner.GetConfig();
    const auto payload = static_cast<uint64_t>(std::llround(config.payloadBytes / m_scale));
    if (payload == 0)
    {
        throw std::invalid_argument("scale " + wantext::Num(m_scale) +
                                    " leaves no payload to send");
    }
    std::vector<Group> groups;
    for (const auto& round : plan.rounds)
    {
        const auto installed = InstallRound(net, round, islands, false);
        groups.insert(groups.end(), installed.begin(), installed.end());
    }
    return groups;
}

std::vector<CliqueExperimentHelper::Group>
CliqueExperimentHelper::InstallRound(WanNetworkHelper& net,
                                     const WanPlannedRound& round,
                                     const ApplicationContainer& islands,
                                     bool replace) const
{
    const auto& config = m_planner.GetConfig();
    const auto payload = static_cast<uint64_t>(std::llround(config.payloadBytes / m_scale));
    std::vector<Group> groups;
    for (const auto& s : round.streams)
    {
        if (s.members.size() > WanChunkHeader::MAX_SOURCE_BITS)
        {
            throw std::invalid_argument(
                "round " + std::to_string(round.round) + ": a clique of " +
                std::to_string(s.members.size()) + " islands; at packet level at most " +
                std::to_string(WanChunkHeader::MAX_SOURCE_BITS) + " (the chunk header's sources)");
        }
        auto app = DynamicCast<WanIslandApplication>(islands.Get(s.sender));
        const auto dataPort = static_cast<uint16_t>(UintegerAttribute(app, "DataPort"));
        const auto mergedPort = static_cast<uint16_t>(UintegerAttribute(app, "MergedPort"));
        WanIslandRound r;
        r.round = round.round;
        r.clique = static_cast<uint16_t>(s.clique);
        r.sender = static_cast<uint16_t>(s.sender);
        r.start = Seconds(round.start);
        r.offset = Seconds(s.offset);
        r.rate = DataRate(static_cast<uint64_t>(s.rateBps / m_scale));
        r.payloadBytes = payload;
        r.peers = static_cast<uint16_t>(s.members.size() - 1);
        r.value = WanContribution::IslandValue(s.sender);
        r.position = static_cast<uint16_t>(s.position);
        r.deadline = Seconds(round.deadline);
        r.viaFpga = config.aggregation;
        const auto& paths = round.routes ? *round.routes : net.GetTopology();
        for (auto member : s.members)
        {
            r.peerIslands.push_back(InetSocketAddress(net.GetIslandAddress(member), mergedPort));
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
        if (config.multicast)
        {
            auto group = WanNetworkHelper::GroupAddress(round.round, s.sender);
            if (m_pim)
            {
                // The routers' part is PIM's, which also moves it.
                if (!replace)
                {
                    net.InstallEdgeRoutes(s.sender, s.members, group, !config.aggregation);
                }
            }
            else
            {
                if (replace)
                {
                    net.RemoveMulticastTree(s.sender, group); // the tree moves
                }
                net.InstallMulticastTree(s.sender,
                                         s.members,
                                         group,
                                         !config.aggregation,
                                         round.routes ? &*round.routes : nullptr);
            }
            groups.push_back({s.sender, group, s.members});
            r.destinations.push_back(InetSocketAddress(group, dataPort));
        }
        else
        {
            for (auto i : s.members)
            {
                if (i != s.sender)
                {
                    auto to = config.aggregation ? net.GetEdgeAddress(i) : net.GetIslandAddress(i);
                    r.destinations.push_back(InetSocketAddress(to, dataPort));
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

void
CliqueExperimentHelper::WatchCoreLinks(const WanNetworkHelper& net, CoreLinkCounts& counts) const
{
    for (const auto& link : net.GetTopology().GetLinks())
    {
        for (const auto& hop : {WanHop{link.a, link.b}, WanHop{link.b, link.a}})
        {
            auto device = net.GetCoreDevice(hop.first, hop.second);
            DataRateValue rate;
            device->GetAttribute("DataRate", rate);
            counts.queues[hop].rate = rate.Get();
            device->TraceConnectWithoutContext("PhyTxBegin",
                                               MakeBoundCallback(&CountCorePacket, &counts, hop));
            auto queue = DynamicCast<PointToPointNetDevice>(device)->GetQueue();
            queue->TraceConnectWithoutContext(
                "BytesInQueue",
                MakeBoundCallback(&TrackCoreQueue, &counts, hop, true));
            queue->TraceConnectWithoutContext("Drop",
                                              MakeBoundCallback(&CountCoreDrop, &counts, hop));
            // This device receives what the reverse direction sends.
            device->TraceConnectWithoutContext(
                "PhyRxDrop",
                MakeBoundCallback(&CountCoreLoss, &counts, WanHop{hop.second, hop.first}));
            auto tc = device->GetNode()->GetObject<TrafficControlLayer>();
            if (auto disc = tc ? tc->GetRootQueueDiscOnDevice(device) : nullptr)
            {
                disc->TraceConnectWithoutContext(
                    "BytesInQueue",
                    MakeBoundCallback(&TrackCoreQueue, &counts, hop, false));
                disc->TraceConnectWithoutContext(
                    "Drop",
                    MakeBoundCallback(&CountCoreDiscDrop, &counts, hop));
            }
        }
    }
}

void
CliqueExperimentHelper::SetCrossTraffic(double utilisation,
                                        uint32_t packetBytes,
                                        double burstPackets)
{
    if (!(utilisation >= 0 && utilisation < 1))
    {
        throw std::invalid_argument("cross traffic: utilisation must be in [0, 1) (got " +
                                    wantext::Num(utilisation) + ")");
    }
    if (packetBytes < 64 || packetBytes > 8972)
    {
        throw std::invalid_argument("cross traffic: packets must be 64 to 8972 bytes (got " +
                                    std::to_string(packetBytes) + ")");
    }
    if (!(burstPackets >= 1) || std::isinf(burstPackets))
    {
        throw std::invalid_argument("cross traffic: a burst must average at least 1 packet (got " +
                                    wantext::Num(burstPackets) + ")");
    }
    m_crossUtilisation = utilisation;
    m_crossPacketBytes = packetBytes;
    m_crossBurstPackets = burstPackets;
}

void
CliqueExperimentHelper::SetCoreQueue(const std::string& kind, uint32_t packets)
{
    WanNetworkHelper::CheckCoreQueue(kind, packets);
    m_coreQueue = kind;
    m_coreQueuePackets = packets;
}

void
CliqueExperimentHelper::InstallCrossTraffic(const WanNetworkHelper& net,
                                            const WanExperimentPlan& plan) const
{
    if (m_crossUtilisation <= 0)
    {
        return;
    }
    const uint16_t port = 9; // discard
    PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    for (uint32_t c = 0; c < net.GetRouters().GetN(); ++c)
    {
        if (IsLocal(c))
        {
            sink.Install(net.GetRouters().Get(c));
        }
    }
    const auto& last = plan.rounds.back();
    const Time end = Seconds(last.start + last.deadline);
    ApplicationContainer senders;
    for (const auto& link : net.GetTopology().GetLinks())
    {
        for (const auto& [from, to] : {WanHop{link.a, link.b}, WanHop{link.b, link.a}})
        {
            auto device = net.GetCoreDevice(from, to);
            DataRateValue rate;
            device->GetAttribute("DataRate", rate);
            const double bps = rate.Get().GetBitRate();
            // A packet on the wire: UDP payload and header, IP header (20),
            // PPP header (2).  On at the link's rate for bursts of
            // burstPackets on average, off long enough that the mean is the
            // utilisation.
            const double wireBytes = m_crossPacketBytes + 20.0 + 2;
            const double on = m_crossBurstPackets * wireBytes * 8 / bps;
            const double off = on * (1 - m_crossUtilisation) / m_crossUtilisation;
            const uint32_t payload = m_crossPacketBytes - 8;
            ObjectFactory onOff("ns3::OnOffApplication");
            onOff.Set("Protocol", TypeIdValue(UdpSocketFactory::GetTypeId()));
            onOff.Set("Remote",
                      AddressValue(InetSocketAddress(net.GetCoreAddress(to, from), port)));
            // OnOffApplication paces its payload: at this rate the wire is full.
            onOff.Set("DataRate",
                      DataRateValue(DataRate(static_cast<uint64_t>(bps * payload / wireBytes))));
            onOff.Set("PacketSize", UintegerValue(payload));
            onOff.Set("OnTime",
                      StringValue("ns3::ExponentialRandomVariable[Mean=" + wantext::Num(on) + "]"));
            onOff.Set(
                "OffTime",
                StringValue("ns3::ExponentialRandomVariable[Mean=" + wantext::Num(off) + "]"));
            auto app = onOff.Create<OnOffApplication>();
            app->SetStartTime(Seconds(0));
            app->SetStopTime(end);
            if (IsLocal(from)) // in a distributed run, on the rank of its router only
            {
                device->GetNode()->AddApplication(app);
            }
            senders.Add(app); // every rank draws the same streams
        }
    }
    int64_t stream = m_stream + 100000; // clear of the loss and jitter streams
    for (uint32_t i = 0; i < senders.GetN(); ++i)
    {
        stream += DynamicCast<OnOffApplication>(senders.Get(i))->AssignStreams(stream);
    }
}

void
CliqueExperimentHelper::ScheduleFaults(WanNetworkHelper& net,
                                       const std::vector<Group>& groups,
                                       const ApplicationContainer& fpgas) const
{
    // Links go down and up; FPGAs fail and their edges pass the groups'
    // streams on to the islands.
    for (const auto& f : m_planner.GetLinkFaults())
    {
        if (m_detectFaults)
        {
            // The hardware only: the control plane has to notice.
            Simulator::Schedule(Seconds(f.down),
                                &WanNetworkHelper::SetLinkBroken,
                                &net,
                                f.a,
                                f.b,
                                true);
            Simulator::Schedule(Seconds(f.up),
                                &WanNetworkHelper::SetLinkBroken,
                                &net,
                                f.a,
                                f.b,
                                false);
            continue;
        }
        Simulator::Schedule(Seconds(f.down), &WanNetworkHelper::SetLinkUp, &net, f.a, f.b, false);
        Simulator::Schedule(Seconds(f.up), &WanNetworkHelper::SetLinkUp, &net, f.a, f.b, true);
    }
    if (fpgas.GetN() == 0)
    {
        return;
    }
    for (const auto& [city, at] : m_fpgaFaults)
    {
        if (IsLocal(city)) // in a distributed run, the rank that runs it
        {
            Simulator::Schedule(Seconds(at),
                                &FpgaAggregator::Fail,
                                DynamicCast<FpgaAggregator>(fpgas.Get(city)));
        }
        if (!m_detectFaults) // with detection the edge's watchdog has to notice (WatchFpga)
        {
            Simulator::Schedule(Seconds(at), &CliqueExperimentHelper::Bypass, &net, city, groups);
        }
    }
}

void
CliqueExperimentHelper::Simulate(const WanExperimentPlan& plan,
                                 const ApplicationContainer& islands) const
{
    const Time slack = Seconds(1) + RepairRoom(islands);
    const auto& last = plan.rounds.back();
    const Time end = Seconds(last.start + last.deadline) + slack;
    if (m_detectFaults)
    {
        // Re-planned rounds may end later: the stop follows the plan.
        Simulator::Schedule(end, &CliqueExperimentHelper::StopWhenDone, this, &plan, slack);
    }
    else
    {
        Simulator::Stop(end);
    }
    if (m_progressSeconds > 0)
    {
        m_progressEvents = 0;
        ReportProgress(&plan, end, std::chrono::steady_clock::now());
    }
    Simulator::Run();
}

Time
CliqueExperimentHelper::RepairRoom(const ApplicationContainer& islands) const
{
    // Room after the last round for its repairs.
    if (m_recovery == "accept")
    {
        return Time(0);
    }
    TimeValue timeout;
    islands.Get(0)->GetAttribute("RequestTimeout", timeout);
    return timeout.Get() * (UintegerAttribute(islands.Get(0), "MaxRequests") + 1);
}

void
CliqueExperimentHelper::StopWhenDone(const WanExperimentPlan* plan, Time slack) const
{
    const auto& last = plan->rounds.back();
    const Time end = Seconds(last.start + last.deadline) + slack;
    if (end > Simulator::Now())
    {
        Simulator::Schedule(end - Simulator::Now(),
                            &CliqueExperimentHelper::StopWhenDone,
                            this,
                            plan,
                            slack);
        return;
    }
    Simulator::Stop();
}

void
CliqueExperimentHelper::WatchFpga(Detection* d, uint32_t city, uint64_t seen, uint32_t misses) const
{
    const uint64_t beats = d->heartbeats[city];
    misses = beats > seen ? 0 : misses + 1;
    if (misses < m_bfdMultiplier)
    {
        Simulator::Schedule(m_bfdInterval,
                            &CliqueExperimentHelper::WatchFpga,
                            this,
                            d,
                            city,
                            beats,
                            misses);
        return;
    }
    WanFpgaFailureResult out;
    out.city = m_planner.GetTopology().GetCity(city).code;
    out.detectedS = Simulator::Now().GetSeconds();
    for (const auto& [c, at] : m_fpgaFaults)
    {
        out.failedS = c == city && at <= out.detectedS ? at : out.failedS; // for the record
    }
    NS_LOG_INFO("FPGA " << out.city << " missed " << misses << " heartbeats: bypassed at "
                        << out.detectedS << " s");
    d->bypassed.insert(city);
    Bypass(d->net, city, d->groups);
    d->fpgaFailures.push_back(out);
}

void
CliqueExperimentHelper::Bypass(WanNetworkHelper* net, uint32_t city, std::vector<Group> groups)
{
    for (const auto& g : groups)
    {
        if (g.source != city &&
            std::find(g.members.begin(), g.members.end(), city) != g.members.end())
        {
            net->BypassEdge(city, g.source, g.group);
        }
    }
}

void
CliqueExperimentHelper::RouteChanged(Detection* d,
                                     const WanReconvergenceHelper::Change& change) const
{
    const auto& topo = m_planner.GetTopology();
    const std::string link = topo.GetCity(change.a).code + "-" + topo.GetCity(change.b).code;
    WanRouteChangeResult out;
    out.link = link;
    out.up = change.up;
    out.detectedS = change.detected.GetSeconds();
    out.convergedS = change.converged.GetSeconds();
    // When the hardware event happened, for the record only (nobody was told).
    for (const auto& f : m_planner.GetLinkFaults())
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
        d->down.erase(std::minmax(change.a, change.b));
    }
    else
    {
        d->down.insert(std::minmax(change.a, change.b));
    }
    // From the next round boundary: the first round that has not started.
    auto& rounds = d->plan->rounds;
    const double now = Simulator::Now().GetSeconds();
    uint32_t from = 0;
    while (from < rounds.size() && rounds[from].start <= now)
    {
        ++from;
    }
    NS_LOG_INFO("link " << link << (change.up ? " back" : " down") << ", detected at "
                        << out.detectedS << " s, routes changed at " << out.convergedS
                        << " s: re-planning from round " << from);
    if (from < rounds.size())
    {
        out.replannedFrom = from;
        out.resumedS = rounds[from].start;
        std::vector<WanTopology> before; // the routes each round's trees were joined on
        for (uint32_t k = from; k < rounds.size(); ++k)
        {
            before.push_back(rounds[k].routes ? *rounds[k].routes : topo);
        }
        std::string note;
        for (const auto& [a, b] : d->down)
        {
            note += (note.empty() ? "re-planned without " : ", ") + topo.GetCity(a).code + "-" +
                    topo.GetCity(b).code;
        }
        note = note.empty() ? "re-planned with " + link + " back" : note;
        d->planner->Replan(*d->plan,
                           *d->schedule,
                           from,
                           d->down,
                           note + " (detected at " + wantext::Num(out.detectedS) + " s)");
        if (m_planner.GetConfig().multicast && !d->pim)
        {
            // Every re-planned round's trees (joined in advance on the old
            // routes), had PIM moved them: all at once, from the route change.
            double join = 0;
            for (uint32_t k = from; k < rounds.size(); ++k)
            {
                const auto after = rounds[k].routes ? *rounds[k].routes : topo;
                for (const auto& stream : rounds[k].streams)
                {
                    join = std::max(
                        join,
                        JoinPropagation(before[k - from], after, stream.sender, stream.members));
                }
            }
            out.joinedS = out.convergedS + join;
        }
        // The re-planned rounds' arrivals may skew more: their slots live longer.
        for (uint32_t f = 0; f < d->fpgas.GetN(); ++f)
        {
            DynamicCast<FpgaAggregator>(d->fpgas.Get(f))
                ->SetSlotTimeout(Seconds(d->plan->slotTimeout));
        }
        for (uint32_t k = from; k < rounds.size(); ++k)
        {
            if (rounds[k].failed)
            {
                NS_LOG_WARN("round " << k << " cannot be re-planned: " << rounds[k].note);
                continue;
            }
            const auto groups = InstallRound(*d->net, rounds[k], d->islands, true);
            for (uint32_t city : d->bypassed)
            {
                if (!d->pim) // PIM moves the routers' part only: the bypass stays
                {
                    Bypass(d->net, city, groups); // the moved trees end at the island too
                }
            }
            d->groups.insert(d->groups.end(), groups.begin(), groups.end());
            d->coreLinks->roundEnds[k] = Seconds(rounds[k].start + rounds[k].deadline);
        }
    }
    d->changes.push_back(out);
    if (d->pim)
    {
        // PIM moves every tree with state (the rounds joined so far) to the
        // new RPF neighbours; the membership follows the re-planned starts.
        auto& t = *d->pim;
        // The trees with state: those joined and not left (a left one's
        // prunes are not counted as moves), known alike on every rank.
        t.moving.clear();
        for (const auto& [round, members] : t.joined)
        {
            for (const auto& m : members)
            {
                t.moving.insert(m.group);
            }
        }
        t.change = static_cast<int64_t>(d->changes.size()) - 1;
        d->changes.back().joinedS = out.convergedS;
        WanPimHelper::RoutesChanged(t.localRouters);
        ScheduleMembership(&t);
    }
}

void
CliqueExperimentHelper::JoinRound(PimTrees* t, uint32_t k)
{
    const auto& round = t->plan->rounds.at(k);
    for (const auto& s : round.streams)
    {
        const auto source = t->net->GetIslandAddress(s.sender);
        const auto group = WanNetworkHelper::GroupAddress(round.round, s.sender);
        for (auto m : s.members)
        {
            if (m != s.sender)
            {
                // Before the run every rank joins for every router (they
                // converge alike); afterwards each for its own.
                if (!t->converged || WanMpiHelper::RunsHere(t->routers.Get(m)->GetNode()))
                {
                    DynamicCast<WanPimRouter>(t->routers.Get(m))->JoinLocal(source, group);
                }
                t->joined[k].push_back({m, source, group});
            }
        }
    }
    t->joinedAt[k] = Simulator::Now().GetSeconds();
}

void
CliqueExperimentHelper::PimMembership(PimTrees* t, uint32_t k)
{
    if (k + 1 < t->plan->rounds.size())
    {
        JoinRound(t, k + 1); // made before it is needed
    }
    if (k >= 2)
    {
        // Two rounds on, nothing of round k-2 is on its trees any more.
        for (const auto& m : t->joined[k - 2])
        {
            t->left.insert(m.group);
            if (WanMpiHelper::RunsHere(t->routers.Get(m.city)->GetNode()))
            {
                DynamicCast<WanPimRouter>(t->routers.Get(m.city))->LeaveLocal(m.source, m.group);
            }
        }
        t->joined[k - 2].clear();
    }
    t->nextRound = k + 1;
    ScheduleMembership(t);
}

void
CliqueExperimentHelper::ScheduleMembership(PimTrees* t)
{
    t->next.Cancel();
    if (t->nextRound < t->plan->rounds.size())
    {
        const Time at = Seconds(t->plan->rounds[t->nextRound].start);
        t->next = Simulator::Schedule(std::max(Time(0), at - Simulator::Now()),
                                      &CliqueExperimentHelper::PimMembership,
                                      t,
                                      t->nextRound);
    }
}

void
CliqueExperimentHelper::PimForwarding(PimTrees* t,
                                      uint32_t city,
                                      Ipv4Address,
                                      Ipv4Address group,
                                      uint32_t,
                                      uint32_t outputs)
{
    const double now = Simulator::Now().GetSeconds();
    auto& before = t->outputs[{city, group}];
    const bool grown = outputs > before; // a branch joined (not one lost or pruned)
    before = outputs;
    if (t->left.count(group) > 0)
    {
        return; // pruned after its round: not building nor moving
    }
    if (t->moving.count(group) > 0)
    {
        // Moved by the route change: Joins on the new routes, Prunes on the old.
        auto& c = t->changes->at(t->change);
        c.joinedS = std::max(c.joinedS, now);
    }
    else if (grown)
    {
        t->ready[group] = now; // built by its joins
    }
}

void
CliqueExperimentHelper::ReportProgress(const WanExperimentPlan* plan,
                                       Time end,
                                       std::chrono::steady_clock::time_point last) const
{
    ++m_progressEvents;
    // Checked every hundredth of a round period of simulated time; printed
    // at most every m_progressSeconds of wall-clock time.
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last).count() >= m_progressSeconds)
    {
        const auto done = RoundsDone(*plan);
        std::cerr << "[wan-training] " << plan->schedule << ": simulated "
                  << wantext::Num(Simulator::Now().GetSeconds()) << " s of "
                  << wantext::Num(end.GetSeconds()) << " s, rounds done " << done << " of "
                  << plan->rounds.size() << ", " << Simulator::GetEventCount() << " events"
                  << std::endl;
        last = now;
    }
    Simulator::Schedule(Seconds(plan->period / 100),
                        &CliqueExperimentHelper::ReportProgress,
                        this,
                        plan,
                        end,
                        last);
}

void
CliqueExperimentHelper::Collect(const WanExperimentPlan& plan,
                                const WanRoundRecorder& recorder,
                                const CoreLinkCounts& coreLinks,
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
        for (const auto& [hop, queue] : coreLinks.queues) // every core link direction
        {
            const auto& perHop = coreLinks.perRound[round.round];
            const auto it = perHop.find(hop);
            const auto counts = it == perHop.end() ? CoreLinkRound{} : it->second;
            rr.corePackets[hop] = counts.packets;
            rr.coreBytes[hop] = static_cast<uint64_t>(std::llround(counts.bytes * m_scale));
            rr.corePeakQueueBytes[hop] =
                static_cast<uint64_t>(std::llround(counts.peakQueueBytes * m_scale));
            rr.coreQueueDrops[hop] = counts.queueDrops;
            rr.coreLost[hop] = counts.lost;
            rr.corePeakQueueMs[hop] = counts.peakQueueBytes * 8e3 / queue.rate.GetBitRate();
        }
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
                const auto ir = IslandResult(recorder, round.round, i, m_scale);
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

void
CliqueExperimentHelper::CollectFpgas(const WanRoundRecorder& recorder,
                                     const ApplicationContainer& fpgas,
                                     WanExperimentResult& result) const
{
    result.evictions = recorder.GetEvictions();
    result.peakSlots = recorder.GetPeakSlots();
    if (fpgas.GetN() > 0)
    {
        result.peakHbmBytes = static_cast<double>(result.peakSlots) *
                              UintegerAttribute(fpgas.Get(0), "SlotBytes") * m_scale;
    }
}

WanRoundCounters
CliqueExperimentHelper::Total(const WanRoundResult& round)
{
    WanRoundCounters total;
    for (const auto& i : round.islands)
    {
        total += i;
    }
    return total;
}

std::string
CliqueExperimentHelper::Format(const WanExperimentResult& result, const WanTopology& topo)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(1);
    if (!result.feasible)
    {
        s << "  infeasible: " << result.reason << "\n";
        return s.str();
    }
    if (!result.scaleWarning.empty())
    {
        s << "  scale: " << result.scaleWarning << "\n";
    }
    if (result.scaleLagMs > 0)
    {
        // Frames are the scale times longer on every link: store and forward
        // delays every last frame more than at full scale.
        s << "  scale: up to " << std::setprecision(2) << result.scaleLagMs
          << " ms of a round's measured T is store and forward of frames the scale made longer"
          << std::setprecision(1) << "\n";
    }
    std::map<uint32_t, WanRoundCounters> perCity; // over the rounds
    for (const auto& r : result.rounds)
    {
        if (r.failed)
        {
            s << "  round " << r.round + 1 << ": " << r.note << "\n";
            continue;
        }
        const auto total = Total(r);
        for (const auto& i : r.islands)
        {
            perCity[i.city] += i;
        }
        s << "  round " << r.round + 1 << ": planner T " << r.plannedMs << " ms, measured "
          << r.measuredMs << " ms (" << std::showpos
          << 100 * (r.measuredMs - r.plannedMs) / r.plannedMs << std::noshowpos << "%), GPU idle +"
          << r.idleMs << " ms, partial sums " << total.partialSums << ", retransmissions "
          << total.retransmissions << (r.note.empty() ? "" : " (" + r.note + ")") << "\n";
        for (const auto& w : r.warnings)
        {
            s << "    planner warning: " << w << "\n";
        }
        if (total.delivered != total.expected || total.late + total.requested + total.discarded > 0)
        {
            s << "    contributions: expected " << total.expected << ", delivered "
              << total.delivered << " (late " << total.late << "), re-requested " << total.requested
              << ", recovered " << total.recovered << ", given up " << total.givenUp
              << ", repeats discarded " << total.discarded << "\n";
        }
    }
    s << std::setprecision(2) << "  GB in/out:";
    for (const auto& [city, io] : perCity)
    {
        s << " " << topo.GetCity(city).code << " " << io.bytesIn / 1e9 << "/" << io.bytesOut / 1e9;
    }
    s << "\n  evictions:";
    for (const auto& [cause, n] : result.evictions)
    {
        s << " " << cause << " " << n;
    }
    s << "; peak HBM " << result.peakHbmBytes / 1e9 << " GB; sums "
      << (result.exact ? "exact" : "NOT exact") << "; " << result.events << " events\n";
    s << std::setprecision(3) << "  mixing: A planned " << result.disagreement << ", measured "
      << result.disagreementMeasured << " (consensus skew " << result.consensusSkew
      << "); J planned " << std::setprecision(1) << result.objective << ", measured "
      << result.objectiveMeasured << " ms-error (T measured " << result.mixedMs << " ms)\n";
    uint64_t lost = 0;
    for (const auto& [where, count] : result.lostPackets)
    {
        lost += count;
    }
    if (lost > 0)
    {
        s << "  packets lost: core " << result.lostPackets.at("core") << ", access "
          << result.lostPackets.at("access") << ", post-aggregation "
          << result.lostPackets.at("post") << "\n";
    }
    if (result.controlPackets > 0)
    {
        s << "  control plane: " << result.controlPackets << " BFD packets, " << result.controlBytes
          << " bytes\n";
    }
    if (result.pimPackets > 0)
    {
        s << "  PIM-SSM: " << result.pimPackets << " messages, " << result.pimBytes << " bytes";
        if (result.pimJoinMs >= 0)
        {
            s << std::setprecision(1) << "; each round's trees built within " << result.pimJoinMs
              << " ms of its joins, " << result.pimSlackMs << " ms or more before it started";
        }
        s << "\n";
    }
    for (const auto& f : result.fpgaFailures)
    {
        s << std::setprecision(1) << "  FPGA " << f.city << " failed at " << f.failedS * 1e3
          << " ms: its edge bypassed it after " << (f.detectedS - f.failedS) * 1e3
          << " ms of missed heartbeats\n";
    }
    for (const auto& c : result.routeChanges)
    {
        s << std::setprecision(1) << "  link " << c.link << (c.up ? " mended" : " broke") << " at "
          << c.eventS * 1e3 << " ms: BFD declared it " << (c.up ? "up" : "down") << " after "
          << (c.detectedS - c.eventS) * 1e3 << " ms, routes changed "
          << (c.convergedS - c.detectedS) * 1e3 << " ms later; "
          << (c.replannedFrom < 0
                  ? std::string("no round left to re-plan")
                  : "rounds from " + std::to_string(c.replannedFrom + 1) + " re-planned (from " +
                        wantext::Num(c.resumedS * 1e3) + " ms" +
                        (c.joinedS < 0 ? std::string()
                                       : "; trees on the new routes by " +
                                             wantext::Num(c.joinedS * 1e3) + " ms") +
                        ")")
          << "\n";
    }
    return s.str();
}

} // namespace ns3
