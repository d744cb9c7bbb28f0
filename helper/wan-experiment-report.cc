/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-experiment-report.h"

#include "ns3/wan-training-text.h"

#include <iomanip>
#include <sstream>

namespace ns3
{

WanRoundCounters
WanExperimentReport::Total(const WanRoundResult& round)
{
    WanRoundCounters total;
    for (const auto& i : round.islands)
    {
        total += i;
    }
    return total;
}

std::string
WanExperimentReport::Format(const WanExperimentResult& result, const WanTopology& topo)
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
    const auto perCity = FormatRounds(result, s);
    FormatTotals(result, topo, perCity, s);
    FormatEvents(result, s);
    return s.str();
}

std::map<uint32_t, WanRoundCounters>
WanExperimentReport::FormatRounds(const WanExperimentResult& result, std::ostream& s)
{
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
    return perCity;
}

void
WanExperimentReport::FormatTotals(const WanExperimentResult& result,
                                  const WanTopology& topo,
                                  const std::map<uint32_t, WanRoundCounters>& perCity,
                                  std::ostream& s)
{
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
    if (result.crossTcpBytes > 0)
    {
        s << "  TCP cross traffic delivered " << result.crossTcpBytes / 1e6 << " MB\n";
    }
    s << std::setprecision(3) << "  mixing: A planned " << result.disagreement << ", measured "
      << result.disagreementMeasured << " (consensus skew " << result.consensusSkew
      << "); J planned " << std::setprecision(1) << result.objective << ", measured "
      << result.objectiveMeasured << " ms-error (T measured " << result.mixedMs << " ms)\n";
}

void
WanExperimentReport::FormatEvents(const WanExperimentResult& result, std::ostream& s)
{
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
        if (result.pimRetries > 0)
        {
            s << ", " << result.pimRetries << " triggered Join/Prunes sent again";
        }
        if (result.pimMissing > 0)
        {
            s << "; " << result.pimMissing << " receivers without their tree at a round's start";
        }
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
}

std::string
WanExperimentReport::FormatTraining(const WanTrainingRunResult& training)
{
    std::ostringstream s;
    const auto& first = training.history.front();
    const auto& last = training.history.back();
    s << "  training (" << training.workload << ", " << training.policy << "): " << last.round
      << " rounds in " << wantext::Num(last.timeS, 4) << " s; loss at the islands' models "
      << wantext::Num(first.modelLoss, 4) << " -> " << wantext::Num(last.modelLoss, 4) << " (f* "
      << wantext::Num(training.minimumLoss, 4) << ", consensus distance "
      << wantext::Num(last.consensusDistance, 3) << "); target "
      << wantext::Num(training.targetLoss, 4);
    if (training.roundsToTarget < 0)
    {
        s << " not reached";
    }
    else
    {
        s << " after " << training.roundsToTarget << " rounds, "
          << wantext::Num(training.timeToTargetS, 4) << " s";
    }
    if (training.policy == "quorum")
    {
        s << "; weight carried " << wantext::Num(training.carriedWeight, 3)
          << " per island and round";
    }
    s << "\n";
    return s.str();
}

} // namespace ns3
