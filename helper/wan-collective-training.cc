/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-collective-training.h"

#include "ns3/log.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCollectiveTraining");

namespace
{

/**
 * @param round its number, from 0
 * @param mixing its mixing matrix
 * @param seconds its time
 * @return the round as the training loop reads it
 */
WanRoundResult
Round(uint32_t round, const WanMatrix& mixing, double seconds)
{
    WanRoundResult r;
    r.round = round;
    r.measuredMs = seconds * 1e3;
    r.mixedMs = r.measuredMs;
    r.mixing = mixing;
    r.mixingReceived = mixing; // nothing arrives after the members average
    return r;
}

} // namespace

WanMatrix
WanCollectiveTraining::Averaging(uint32_t nIslands,
                                 const std::vector<std::vector<uint32_t>>& groups)
{
    WanMatrix w(nIslands, std::vector<double>(nIslands, 0));
    std::vector<bool> grouped(nIslands, false);
    for (const auto& group : groups)
    {
        // Every member checked before any weight is written.
        for (uint32_t i : group)
        {
            if (i >= nIslands)
            {
                throw std::invalid_argument("collective training: island " + std::to_string(i) +
                                            " of " + std::to_string(nIslands));
            }
            if (grouped[i])
            {
                throw std::invalid_argument("collective training: island " + std::to_string(i) +
                                            " in two groups of a round");
            }
            grouped[i] = true;
        }
        for (uint32_t i : group)
        {
            for (uint32_t j : group)
            {
                w[i][j] = 1.0 / group.size();
            }
        }
    }
    for (uint32_t i = 0; i < nIslands; ++i)
    {
        w[i][i] = grouped[i] ? w[i][i] : 1;
    }
    return w;
}

WanExperimentResult
WanCollectiveTraining::AsRun(uint32_t nIslands, const WanCollectiveResult& sync)
{
    WanCollectiveRound round;
    round.cliques = {sync};
    round.complete = sync.complete;
    round.exact = sync.exact;
    round.seconds = sync.seconds;
    return AsRun(sync.kind, nIslands, {round});
}

WanExperimentResult
WanCollectiveTraining::AsRun(const std::string& schedule,
                             uint32_t nIslands,
                             const std::vector<WanCollectiveRound>& rounds)
{
    WanExperimentResult run;
    run.schedule = schedule;
    run.feasible = !rounds.empty();
    run.reason = rounds.empty() ? "no rounds" : "";
    run.exact = true;
    for (const auto& r : rounds)
    {
        std::vector<std::vector<uint32_t>> groups;
        for (const auto& clique : r.cliques)
        {
            groups.push_back(clique.members);
        }
        const auto mixing = Averaging(nIslands, groups);
        if (!r.complete)
        {
            run.feasible = false;
            run.reason = "round " + std::to_string(r.round + 1) +
                         " of the collective did not complete before its time limit";
        }
        run.exact = run.exact && r.exact;
        run.rounds.push_back(Round(r.round, mixing, r.seconds));
        run.mixedMs = std::max(run.mixedMs, r.seconds * 1e3);
    }
    NS_LOG_INFO(schedule << ": " << rounds.size() << " round(s) as training rounds"
                         << (run.feasible ? "" : ", " + run.reason));
    return run;
}

} // namespace ns3
