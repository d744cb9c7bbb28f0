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
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-training-text.h"

#include <cmath>
#include <iomanip>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CliqueExperimentHelper");

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
    for (const auto& r : plan.rounds)
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

    for (uint32_t k = 0; k < rounds; ++k)
    {
        const auto& roundPlan = plan.rounds[k % plan.rounds.size()];
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
                    r.peerValues.push_back(member + 1);
                    r.peerIslands.push_back(InetSocketAddress(net.GetIslandAddress(member), 9001));
                }
                if (m_config.multicast)
                {
                    auto group = WanNetworkHelper::GroupAddress(k, j);
                    net.InstallMulticastTree(j, m, group, !m_config.aggregation);
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
        const auto& roundPlan = plan.rounds[k % plan.rounds.size()];
        RoundResult rr;
        rr.round = k;
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
        uint64_t partial = 0;
        uint64_t resent = 0;
        IslandRoundResult total;
        for (const auto& i : r.islands)
        {
            partial += i.partialSums;
            resent += i.retransmissions;
            total.expected += i.expected;
            total.delivered += i.delivered;
            total.late += i.late;
            total.requested += i.requested;
            total.recovered += i.recovered;
            total.givenUp += i.givenUp;
            total.discarded += i.discarded;
            bytes[i.city].first += i.bytesIn;
            bytes[i.city].second += i.bytesOut;
        }
        s << "  round " << r.round + 1 << ": planner T " << r.plannedMs << " ms, measured "
          << r.measuredMs << " ms (" << std::showpos
          << 100 * (r.measuredMs - r.plannedMs) / r.plannedMs << std::noshowpos
          << "%), partial sums " << partial << ", retransmissions " << resent << "\n";
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
