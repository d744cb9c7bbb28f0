/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-collective-schedule-experiment.h"

#include "ns3/log.h"
#include "ns3/wan-topology.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCollectiveScheduleExperiment");

WanCollectiveScheduleExperiment::WanCollectiveScheduleExperiment(
    const WanCollectiveExperiment& experiment)
    : m_experiment(experiment)
{
}

void
WanCollectiveScheduleExperiment::SetStream(int64_t stream)
{
    m_stream = stream;
}

std::vector<WanCollectiveRound>
WanCollectiveScheduleExperiment::Run(WanCollectiveExperiment::Kind kind,
                                     const CliqueSchedule& schedule,
                                     uint32_t rounds) const
{
    if (rounds == 0)
    {
        throw std::invalid_argument("collective schedule " + schedule.GetName() +
                                    ": 0 rounds, need at least 1");
    }
    std::vector<WanCollectiveRound> out;
    for (uint32_t k = 0; k < rounds; ++k)
    {
        auto experiment = m_experiment;
        experiment.SetStream(m_stream + k * STREAMS_PER_ROUND);
        WanCollectiveRound round;
        round.round = k;
        round.cliques = experiment.RunGroups(kind, schedule.GetRound(k));
        round.complete = true;
        round.exact = true;
        for (const auto& clique : round.cliques)
        {
            round.complete = round.complete && clique.complete;
            round.exact = round.exact && clique.exact;
            round.seconds = std::max(round.seconds, clique.seconds);
            round.bytes += clique.bytes;
            round.maxEgressBytes = std::max(round.maxEgressBytes, clique.maxEgressBytes);
            round.retransmissions += clique.retransmissions;
        }
        if (!round.complete)
        {
            round.seconds = 0;
        }
        NS_LOG_INFO(schedule.GetName() << " round " << k + 1 << ": " << round.seconds << " s, "
                                       << round.cliques.size() << " clique(s)");
        out.push_back(std::move(round));
    }
    return out;
}

double
WanCollectiveScheduleExperiment::MeanSeconds(const std::vector<WanCollectiveRound>& rounds)
{
    double sum = 0;
    for (const auto& round : rounds)
    {
        if (!round.complete)
        {
            return 0;
        }
        sum += round.seconds;
    }
    return rounds.empty() ? 0 : sum / rounds.size();
}

std::string
WanCollectiveScheduleExperiment::Format(const std::vector<WanCollectiveRound>& rounds,
                                        const WanTopology& topo)
{
    std::ostringstream out;
    std::set<std::string> said;
    for (const auto& round : rounds)
    {
        out << "round " << round.round + 1 << ": ";
        if (!round.complete)
        {
            out << "incomplete at the time limit";
        }
        else if (round.cliques.empty())
        {
            out << "no clique of two or more islands";
        }
        else
        {
            out << wantext::Num(round.seconds * 1e3, 4) << " ms";
        }
        out << ", " << wantext::Num(round.bytes / 1e6, 4) << " MB sent (most by one island "
            << wantext::Num(round.maxEgressBytes / 1e6, 4) << "), " << round.retransmissions
            << " retransmissions, exact " << (round.exact ? "True" : "False");
        const auto slowest =
            std::max_element(round.cliques.begin(),
                             round.cliques.end(),
                             [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
        if (round.complete && slowest != round.cliques.end())
        {
            out << ", slowest {";
            for (size_t i = 0; i < slowest->members.size(); ++i)
            {
                out << (i ? "," : "") << topo.GetCity(slowest->members[i]).code;
            }
            out << "}";
        }
        out << "\n";
        for (const auto& clique : round.cliques)
        {
            for (const auto& w : clique.warnings)
            {
                if (said.insert(w).second) // each warning once, under its first round
                {
                    out << "  warning: " << w << "\n";
                }
            }
        }
    }
    const double mean = MeanSeconds(rounds);
    if (mean > 0)
    {
        out << "mean round " << wantext::Num(mean * 1e3, 4) << " ms over " << rounds.size()
            << " round(s)\n";
    }
    return out.str();
}

} // namespace ns3
