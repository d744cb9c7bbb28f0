/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-evaluator.h"

#include "ns3/log.h"

#include <algorithm>
#include <limits>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleEvaluator");

ScheduleEvaluator::ScheduleEvaluator(const WanTopology& topo,
                                     const PlannerConfig& config,
                                     const MixingOptions& mixing)
    : m_planner(topo, config),
      m_mixing(mixing)
{
    // Let the mixing analysis check the conventions now, on a trivial schedule.
    CliqueSchedule::Round all(1);
    for (uint32_t i = 0; i < topo.GetNCities(); ++i)
    {
        all[0].push_back(i);
    }
    MixingAnalysis::FromSchedule(CliqueSchedule("check", {all}), topo.GetNCities(), m_mixing);
}

ScheduleEvaluator::RoundKey
ScheduleEvaluator::KeyOf(const CliqueSchedule::Round& round, uint32_t n)
{
    std::vector<uint32_t> clique(n, n);
    for (uint32_t c = 0; c < round.size(); ++c)
    {
        for (auto i : round[c])
        {
            clique.at(i) = c;
        }
    }
    RoundKey key(n);
    std::vector<int> label(round.size() + 1, -1);
    uint16_t next = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        auto c = std::min<uint32_t>(clique[i], round.size());
        if (label[c] < 0)
        {
            label[c] = next++;
        }
        key[i] = static_cast<uint16_t>(label[c]);
    }
    return key;
}

CliqueSchedule::Round
ScheduleEvaluator::RoundOf(const RoundKey& key)
{
    CliqueSchedule::Round round;
    for (uint32_t i = 0; i < key.size(); ++i)
    {
        if (key[i] >= round.size())
        {
            round.resize(key[i] + 1);
        }
        round[key[i]].push_back(i);
    }
    return round;
}

uint32_t
ScheduleEvaluator::Components(const std::vector<CliqueSchedule::Round>& rounds, uint32_t n)
{
    auto groups = CliqueSchedule::Groups(rounds, n);
    uint32_t components = 0;
    for (uint32_t v = 0; v < n; ++v)
    {
        components += groups[v] == v ? 1 : 0;
    }
    return components;
}

double
ScheduleEvaluator::Disagreement(const std::vector<CliqueSchedule::Round>& rounds) const
{
    const auto n = GetTopology().GetNCities();
    if (m_mixing.forgetting >= 1 && Components(rounds, n) > 1)
    {
        return std::numeric_limits<double>::infinity(); // never mixes
    }
    return MixingAnalysis::FromSchedule(CliqueSchedule("candidate", rounds), n, m_mixing)
        .GetAverageDisagreement();
}

const RoundPlan&
ScheduleEvaluator::PlanRound(const CliqueSchedule::Round& round)
{
    const auto key = KeyOf(round, GetTopology().GetNCities());
    std::string text(reinterpret_cast<const char*>(key.data()), key.size() * sizeof(key[0]));
    auto it = m_plans.find(text);
    if (it == m_plans.end())
    {
        it = m_plans.emplace(text, m_planner.PlanRound(RoundOf(key))).first;
    }
    return it->second;
}

ScheduleEvaluation
ScheduleEvaluator::Evaluate(const CliqueSchedule& schedule)
{
    schedule.Validate(GetTopology());
    return Evaluate(schedule.GetRounds());
}

ScheduleEvaluation
ScheduleEvaluator::Evaluate(const std::vector<CliqueSchedule::Round>& rounds)
{
    ++m_evaluations;
    ScheduleEvaluation e;
    e.feasible = true;
    double roundTime = 0;
    for (uint32_t k = 0; k < rounds.size(); ++k)
    {
        const auto& plan = PlanRound(rounds[k]);
        if (!plan.feasible)
        {
            if (e.feasible)
            {
                e.bindingRound = k;
                e.binding = "round " + std::to_string(k + 1) + ": " + plan.reason;
            }
            e.feasible = false;
            e.requiredMemoryBytes = std::max(e.requiredMemoryBytes, plan.requiredMemoryBytes);
            e.misalignedBytes += plan.misalignedBytes;
        }
        else if (e.feasible && plan.roundTime > roundTime)
        {
            roundTime = plan.roundTime;
            e.bindingRound = k;
            e.binding = "round " + std::to_string(k + 1) + ": " + plan.binding;
        }
        e.peakMemoryBytes = std::max(e.peakMemoryBytes, plan.peakMemoryBytes);
    }
    const auto n = GetTopology().GetNCities();
    e.components = Components(rounds, n);
    e.mixes = e.components == 1;
    if (!e.feasible)
    {
        return e;
    }
    e.roundTimeMs = roundTime * 1e3;
    e.disagreement = Disagreement(rounds);
    // J = T x A: the one place it is computed.
    e.objective = e.roundTimeMs * e.disagreement;
    if (!e.mixes && m_mixing.forgetting >= 1)
    {
        e.binding = "the cliques never connect every island, so the schedule never mixes";
    }
    NS_LOG_DEBUG("T " << e.roundTimeMs << " ms, A " << e.disagreement << ", J " << e.objective);
    return e;
}

uint64_t
ScheduleEvaluator::GetRoundsPlanned() const
{
    return m_plans.size();
}

uint64_t
ScheduleEvaluator::GetEvaluations() const
{
    return m_evaluations;
}

const WanTopology&
ScheduleEvaluator::GetTopology() const
{
    return m_planner.GetTopology();
}

const PlannerConfig&
ScheduleEvaluator::GetPlannerConfig() const
{
    return m_planner.GetConfig();
}

const MixingOptions&
ScheduleEvaluator::GetMixingOptions() const
{
    return m_mixing;
}

} // namespace ns3
