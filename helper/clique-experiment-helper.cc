/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "clique-experiment-helper.h"

#include "wan-network-helper.h"

#include "ns3/data-rate.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/log.h"
#include "ns3/mixing-analysis.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueExperimentHelper");

namespace
{

/// Packets sent on faulted links, per round.
struct FaultCounter
{
    std::vector<uint64_t>* perRound; //!< counts by round
    Time period;                     //!< round period
};

/// Counts a packet sent on a faulted link in its round's bucket.
void
CountFaultPacket(FaultCounter* counter, Ptr<const Packet>)
{
    auto k = static_cast<size_t>(Simulator::Now().GetInteger() / counter->period.GetInteger());
    auto& v = *counter->perRound;
    v[std::min(k, v.size() - 1)]++;
}

} // namespace

CliqueExperimentHelper::CliqueExperimentHelper(const WanTopology& topo, const PlannerConfig& config)
    : m_topo(topo),
      m_config(config)
{
    RoundPlanner check(topo, config); // validates the configuration
}

void
CliqueExperimentHelper::SetScale(double factor)
{
    m_scale = wantext::RequireAtLeast(factor, 1, "scale");
}

void
CliqueExperimentHelper::SetRounds(uint32_t rounds)
{
    if (rounds == 0)
    {
        throw std::invalid_argument("the number of rounds must be at least 1");
    }
    m_rounds = rounds;
}

void
CliqueExperimentHelper::SetRoundGuard(double guard)
{
    if (!std::isfinite(guard) || guard < 0)
    {
        throw std::invalid_argument("round guard must be zero or positive (got " +
                                    wantext::Num(guard) + ")");
    }
    m_guard = guard;
}

void
CliqueExperimentHelper::SetImpairment(WanNetworkHelper::LinkClass linkClass,
                                      const WanLinkImpairment& impairment)
{
    WanNetworkHelper check(m_topo);
    check.SetImpairment(linkClass, impairment); // refuses bad values now
    m_impairment[linkClass] = impairment;
}

void
CliqueExperimentHelper::SetRecovery(const std::string& policy)
{
    if (policy != "accept" && policy != "rerequest")
    {
        throw std::invalid_argument("unknown recovery policy \"" + policy +
                                    "\" (expected accept or rerequest)");
    }
    m_recovery = policy;
}

void
CliqueExperimentHelper::AddLinkFault(const std::string& a,
                                     const std::string& b,
                                     double downSeconds,
                                     double upSeconds)
{
    const uint32_t i = m_topo.FindCity(a);
    const uint32_t j = m_topo.FindCity(b);
    m_topo.GetLinkIndex(i, j); // "no link between ..." for an unknown link
    m_topo.WithoutLink(a, b);  // refuses a link whose loss disconnects the network
    if (!(downSeconds >= 0) || !(upSeconds > downSeconds) || std::isinf(upSeconds))
    {
        throw std::invalid_argument("link " + a + "-" + b +
                                    " fault: it must go down at a time >= 0 "
                                    "and come back later (got " +
                                    wantext::Num(downSeconds) + " s and " +
                                    wantext::Num(upSeconds) + " s)");
    }
    m_linkFaults.push_back({i, j, downSeconds, upSeconds});
}

void
CliqueExperimentHelper::SetFaultPolicy(const std::string& policy)
{
    if (policy != "replan" && policy != "fail")
    {
        throw std::invalid_argument("unknown fault policy \"" + policy +
                                    "\" (expected replan or fail)");
    }
    m_faultPolicy = policy;
}

void
CliqueExperimentHelper::AddFpgaFault(const std::string& city, double atSeconds)
{
    const uint32_t c = m_topo.FindCity(city);
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
    const uint32_t c = m_topo.FindCity(city);
    if (lastRound < firstRound)
    {
        throw std::invalid_argument("island " + city + " absence: last round " +
                                    std::to_string(lastRound) + " before first round " +
                                    std::to_string(firstRound));
    }
    m_absences.push_back({c, firstRound, lastRound});
}

void
CliqueExperimentHelper::SetStream(int64_t stream)
{
    m_stream = stream;
}

ExperimentResult
CliqueExperimentHelper::Run(const CliqueSchedule& schedule)
{
    NS_LOG_FUNCTION(this << schedule.GetName());
    ExperimentResult result;
    result.schedule = schedule.GetName();
    RoundPlanner planner(m_topo, m_config);
    const auto plan = planner.Plan(schedule);
    result.feasible = plan.feasible;
    result.reason = plan.reason;
    if (!plan.feasible)
    {
        return result;
    }
    result.plannedMs = plan.roundTime * 1e3;
    const WanTopology& topo = planner.GetTopology();
    const uint32_t n = topo.GetNCities();
    const uint32_t rounds = m_rounds > 0 ? m_rounds : schedule.GetNRounds();
    const uint64_t payload = static_cast<uint64_t>(std::llround(m_config.payloadBytes / m_scale));
    if (payload == 0)
    {
        throw std::invalid_argument("scale " + wantext::Num(m_scale) +
                                    " leaves no payload to send");
    }
    const Time period = Seconds(plan.roundTime * (1 + m_guard));

    // Each simulated round's own plan: the schedule's or, while a link is down
    // or an island is away, one made for what is left (or none: failed).
    std::vector<RoundPlan> roundPlans(rounds);
    std::vector<std::optional<WanTopology>> roundRoutes(rounds);
    std::vector<std::string> notes(rounds);
    std::vector<bool> failed(rounds, false);
    std::vector<CliqueSchedule::Round> ran(rounds);
    for (uint32_t k = 0; k < rounds; ++k)
    {
        auto round = schedule.GetRound(k);
        bool changed = false;
        for (const auto& away : m_absences)
        {
            if (k < away.first || k > away.last)
            {
                continue;
            }
            for (auto& clique : round)
            {
                auto it = std::find(clique.begin(), clique.end(), away.city);
                if (it != clique.end() && clique.size() > 1)
                {
                    clique.erase(it);
                    round.push_back({away.city});
                    changed = true;
                    notes[k] += topo.GetCity(away.city).code + " away; ";
                    break;
                }
            }
        }
        const double t0 = (period * k).GetSeconds();
        const double t1 = (period * (k + 1)).GetSeconds();
        for (const auto& f : m_linkFaults)
        {
            if (f.down >= t1 || f.up <= t0)
            {
                continue;
            }
            const std::string name = topo.GetCity(f.a).code + "-" + topo.GetCity(f.b).code;
            if (m_faultPolicy == "fail")
            {
                failed[k] = true;
                notes[k] += "failed: link " + name + " down; ";
                continue;
            }
            roundRoutes[k] = (roundRoutes[k] ? *roundRoutes[k] : topo)
                                 .WithoutLink(topo.GetCity(f.a).code, topo.GetCity(f.b).code);
            notes[k] += "re-planned without " + name + "; ";
        }
        if (!failed[k] && (changed || roundRoutes[k]))
        {
            roundPlans[k] =
                RoundPlanner(roundRoutes[k] ? *roundRoutes[k] : topo, m_config).PlanRound(round);
            if (!roundPlans[k].feasible)
            {
                failed[k] = true;
                notes[k] += "failed: " + roundPlans[k].reason + "; ";
            }
        }
        else if (!failed[k])
        {
            roundPlans[k] = plan.rounds[k % plan.rounds.size()];
        }
        if (failed[k])
        {
            // Nobody mixes in a failed round.
            round.clear();
            for (uint32_t c = 0; c < n; ++c)
            {
                round.push_back({c});
            }
        }
        ran[k] = round;
    }
    result.disagreement =
        MixingAnalysis::FromSchedule(CliqueSchedule("run", ran), n).GetAverageDisagreement();

    // One simulation per run: addresses start afresh.
    Ipv4AddressGenerator::Reset();
    WanNetworkHelper net(topo);
    net.SetScale(m_scale);
    for (const auto& [linkClass, impairment] : m_impairment)
    {
        net.SetImpairment(linkClass, impairment);
    }
    net.Install();
    net.AssignStreams(m_stream);

    double slotTimeout = 1e-3;
    for (const auto& r : roundPlans)
    {
        for (const auto& cp : r.cliques)
        {
            for (double bytes : cp.memoryBytes)
            {
                slotTimeout =
                    std::max(slotTimeout, bytes * 8 / cp.rateBps + plan.roundTime * m_guard / 2);
            }
        }
    }

    std::vector<Ptr<WanIslandApplication>> islands;
    std::vector<Ptr<FpgaAggregator>> fpgas;
    for (uint32_t c = 0; c < n; ++c)
    {
        auto app = CreateObject<WanIslandApplication>();
        app->SetAttribute("Fpga", Ipv4AddressValue(net.GetEdgeAddress(c)));
        app->SetAttribute("Recovery", StringValue(m_recovery));
        net.GetIslands().Get(c)->AddApplication(app);
        islands.push_back(app);
        if (m_config.aggregation)
        {
            auto fpga = CreateObject<FpgaAggregator>();
            fpga->SetAttribute("Island", Ipv4AddressValue(net.GetIslandAddress(c)));
            // A slot waits for its last contribution the planned skew of its
            // arrivals plus half the gap between rounds, so a partial sum left
            // by a loss reaches the island before the round's deadline (T plus
            // that gap).
            fpga->SetAttribute("SlotTimeout", TimeValue(Seconds(slotTimeout)));
            fpga->SetAttribute("HbmBytes",
                               UintegerValue(static_cast<uint64_t>(m_config.hbmBytes / m_scale)));
            // Keep the line-rate window's size in slots and in packet times.
            TimeValue window;
            fpga->GetAttribute("LineRateWindow", window);
            fpga->SetAttribute("LineRateWindow", TimeValue(window.Get() * m_scale));
            DataRateValue rate;
            fpga->GetAttribute("LineRate", rate);
            fpga->SetAttribute(
                "LineRate",
                DataRateValue(DataRate(static_cast<uint64_t>(rate.Get().GetBitRate() / m_scale))));
            net.GetEdges().Get(c)->AddApplication(fpga);
            fpgas.push_back(fpga);
        }
    }

    struct Group
    {
        uint32_t source;
        Ipv4Address group;
        std::vector<uint32_t> members;
    };

    std::vector<Group> groups;
    for (uint32_t k = 0; k < rounds; ++k)
    {
        if (failed[k])
        {
            continue;
        }
        const auto& roundPlan = roundPlans[k];
        const Time start = period * k;
        for (uint16_t ci = 0; ci < roundPlan.cliques.size(); ++ci)
        {
            const auto& cp = roundPlan.cliques[ci];
            const auto& m = cp.members;
            if (m.size() < 2)
            {
                continue;
            }
            for (size_t jj = 0; jj < m.size(); ++jj)
            {
                const uint32_t j = m[jj];
                WanIslandRound r;
                r.round = k;
                r.clique = ci;
                r.sender = static_cast<uint16_t>(j);
                r.start = start;
                r.offset = Seconds(cp.offsets[jj]);
                r.rate = DataRate(static_cast<uint64_t>(cp.rateBps / m_scale));
                r.payloadBytes = payload;
                r.peers = static_cast<uint16_t>(m.size() - 1);
                r.value = j + 1;
                r.position = static_cast<uint8_t>(jj);
                r.deadline = Seconds(roundPlan.roundTime * (1 + m_guard));
                for (auto member : m)
                {
                    r.peerIslands.push_back(InetSocketAddress(net.GetIslandAddress(member), 9001));
                }
                if (m_config.multicast)
                {
                    auto group = WanNetworkHelper::GroupAddress(k, j);
                    net.InstallMulticastTree(j,
                                             m,
                                             group,
                                             !m_config.aggregation,
                                             roundRoutes[k] ? &*roundRoutes[k] : nullptr);
                    groups.push_back({j, group, m});
                    r.destinations.push_back(InetSocketAddress(group, 9000));
                }
                else
                {
                    for (auto i : m)
                    {
                        if (i != j)
                        {
                            auto to = m_config.aggregation ? net.GetEdgeAddress(i)
                                                           : net.GetIslandAddress(i);
                            r.destinations.push_back(InetSocketAddress(to, 9000));
                        }
                    }
                }
                islands[j]->AddRound(r);
            }
        }
    }

    // Faults: links go down and up; FPGAs fail and their edges pass the
    // groups' streams on to the islands.
    std::vector<uint64_t> faultPackets(rounds + 1, 0);
    FaultCounter counter{&faultPackets, period};
    for (const auto& f : m_linkFaults)
    {
        Simulator::Schedule(Seconds(f.down), &WanNetworkHelper::SetLinkUp, &net, f.a, f.b, false);
        Simulator::Schedule(Seconds(f.up), &WanNetworkHelper::SetLinkUp, &net, f.a, f.b, true);
        for (auto device : {net.GetCoreDevice(f.a, f.b), net.GetCoreDevice(f.b, f.a)})
        {
            device->TraceConnectWithoutContext("PhyTxBegin",
                                               MakeBoundCallback(&CountFaultPacket, &counter));
        }
    }
    for (const auto& [city, at] : m_fpgaFaults)
    {
        if (!m_config.aggregation)
        {
            continue;
        }
        Simulator::Schedule(Seconds(at), &FpgaAggregator::Fail, fpgas.at(city));
        for (const auto& g : groups)
        {
            if (g.source != city &&
                std::find(g.members.begin(), g.members.end(), city) != g.members.end())
            {
                Simulator::Schedule(Seconds(at),
                                    &WanNetworkHelper::BypassEdge,
                                    &net,
                                    city,
                                    g.source,
                                    g.group);
            }
        }
    }

    // Room after the last round for its repairs.
    TimeValue timeout;
    UintegerValue tries;
    islands[0]->GetAttribute("RequestTimeout", timeout);
    islands[0]->GetAttribute("MaxRequests", tries);
    Simulator::Stop(period * rounds + Seconds(1) +
                    (m_recovery == "rerequest" ? timeout.Get() * (tries.Get() + 1) : Time(0)));
    Simulator::Run();
    result.events = Simulator::GetEventCount();
    result.lostPackets = {{"core", net.GetLostPackets(WanNetworkHelper::CORE)},
                          {"access", net.GetLostPackets(WanNetworkHelper::ACCESS)},
                          {"post", net.GetLostPackets(WanNetworkHelper::POST_AGGREGATION)}};

    result.exact = true;
    for (uint32_t k = 0; k < rounds; ++k)
    {
        RoundResult rr;
        rr.round = k;
        rr.failed = failed[k];
        rr.note = notes[k].empty() ? "" : notes[k].substr(0, notes[k].size() - 2);
        rr.faultLinkPackets = faultPackets[k];
        if (failed[k])
        {
            result.rounds.push_back(rr);
            continue;
        }
        const auto& roundPlan = roundPlans[k];
        rr.plannedMs = roundPlan.roundTime * 1e3;
        for (const auto& cp : roundPlan.cliques)
        {
            if (cp.members.size() < 2)
            {
                continue;
            }
            double peerValues = 0;
            for (auto j : cp.members)
            {
                peerValues += j + 1;
            }
            for (auto i : cp.members)
            {
                const auto& rec = islands[i]->GetRecords().at(k);
                IslandRoundResult ir;
                ir.city = i;
                ir.completionMs =
                    rec.completion.IsZero() ? -1 : (rec.completion - rec.start).GetSeconds() * 1e3;
                ir.bytesIn = static_cast<uint64_t>(std::llround(rec.bytesIn * m_scale));
                ir.bytesOut = static_cast<uint64_t>(std::llround(rec.bytesOut * m_scale));
                ir.partialSums = rec.partialSums;
                ir.retransmissions = rec.retransmissions;
                ir.expected = rec.expectedContributions;
                ir.delivered = rec.contributions;
                ir.late = rec.late;
                ir.requested = rec.requested;
                ir.recovered = rec.recovered;
                ir.givenUp = rec.givenUp;
                ir.discarded = rec.discarded;
                ir.lateChunks = rec.lateChunks;
                ir.requestedChunks = rec.requestedChunks;
                ir.givenUpChunks = rec.givenUpChunks;
                // Each peer j sends j+1 times (1 + 2 + ... + chunks).
                const double chunks = rec.expectedContributions / (cp.members.size() - 1.0);
                const double expected = (peerValues - (i + 1)) * chunks * (chunks + 1) / 2;
                ir.exact = rec.contributions == rec.expectedContributions && rec.sum == expected;
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
    for (const auto& f : fpgas)
    {
        const auto* table = f->GetSlotTable();
        for (auto cause : {FpgaEviction::COMPLETION,
                           FpgaEviction::TIMEOUT,
                           FpgaEviction::CONFLICT,
                           FpgaEviction::FLUSH})
        {
            result.evictions[ToString(cause)] += table->GetEvictions(cause);
        }
        result.peakSlots = std::max(result.peakSlots, table->GetPeakOccupancy());
    }
    UintegerValue slotBytes(9000);
    if (!fpgas.empty())
    {
        fpgas[0]->GetAttribute("SlotBytes", slotBytes);
    }
    result.peakHbmBytes = static_cast<double>(result.peakSlots) * slotBytes.Get() * m_scale;
    Simulator::Destroy();
    return result;
}

IslandRoundResult
CliqueExperimentHelper::Total(const RoundResult& round)
{
    IslandRoundResult total;
    for (const auto& i : round.islands)
    {
        total.bytesIn += i.bytesIn;
        total.bytesOut += i.bytesOut;
        total.partialSums += i.partialSums;
        total.retransmissions += i.retransmissions;
        total.expected += i.expected;
        total.delivered += i.delivered;
        total.late += i.late;
        total.requested += i.requested;
        total.recovered += i.recovered;
        total.givenUp += i.givenUp;
        total.discarded += i.discarded;
    }
    return total;
}

std::string
CliqueExperimentHelper::Format(const ExperimentResult& result, const WanTopology& topo)
{
    std::ostringstream s;
    s << std::fixed << std::setprecision(1);
    if (!result.feasible)
    {
        s << "  infeasible: " << result.reason << "\n";
        return s.str();
    }
    std::map<uint32_t, std::pair<double, double>> bytes; // city -> (in, out)
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
            bytes[i.city].first += i.bytesIn;
            bytes[i.city].second += i.bytesOut;
        }
        s << "  round " << r.round + 1 << ": planner T " << r.plannedMs << " ms, measured "
          << r.measuredMs << " ms (" << std::showpos
          << 100 * (r.measuredMs - r.plannedMs) / r.plannedMs << std::noshowpos << "%), GPU idle +"
          << r.idleMs << " ms, partial sums " << total.partialSums << ", retransmissions "
          << total.retransmissions << (r.note.empty() ? "" : " (" + r.note + ")") << "\n";
        if (total.delivered != total.expected || total.late + total.requested + total.discarded > 0)
        {
            s << "    contributions: expected " << total.expected << ", delivered "
              << total.delivered << " (late " << total.late << "), re-requested " << total.requested
              << ", recovered " << total.recovered << ", given up " << total.givenUp
              << ", repeats discarded " << total.discarded << "\n";
        }
    }
    s << std::setprecision(2) << "  GB in/out:";
    for (const auto& [city, io] : bytes)
    {
        s << " " << topo.GetCity(city).code << " " << io.first / 1e9 << "/" << io.second / 1e9;
    }
    s << "\n  evictions:";
    for (const auto& [cause, n] : result.evictions)
    {
        s << " " << cause << " " << n;
    }
    s << "; peak HBM " << result.peakHbmBytes / 1e9 << " GB; sums "
      << (result.exact ? "exact" : "NOT exact") << "; " << result.events << " events\n";
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
    return s.str();
}

} // namespace ns3
