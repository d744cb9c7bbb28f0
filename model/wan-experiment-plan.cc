/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-experiment-plan.h"

#include "mixing-analysis.h"
#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanExperimentPlan");

WanExperimentPlanner::WanExperimentPlanner(const WanTopology& topo, const PlannerConfig& config)
    : m_planner(topo, config)
{
}

void
WanExperimentPlanner::SetRounds(uint32_t rounds)
{
    if (rounds == 0)
    {
        throw std::invalid_argument("the number of rounds must be at least 1");
    }
    m_rounds = rounds;
}

void
WanExperimentPlanner::SetRoundGuard(double guard)
{
    if (!std::isfinite(guard) || guard < 0)
    {
        throw std::invalid_argument("round guard must be zero or positive (got " +
                                    wantext::Num(guard) + ")");
    }
    m_guard = guard;
}

void
WanExperimentPlanner::AddLinkFault(const std::string& a,
                                   const std::string& b,
                                   double downSeconds,
                                   double upSeconds)
{
    const auto& topo = GetTopology();
    const uint32_t i = topo.FindCity(a);
    const uint32_t j = topo.FindCity(b);
    topo.GetLinkIndex(i, j); // "no link between ..." for an unknown link
    topo.WithoutLink(a, b);  // refuses a link whose loss disconnects the network
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
WanExperimentPlanner::SetFaultPolicy(WanFaultPolicy policy)
{
    m_policy = policy;
}

WanFaultPolicy
WanExperimentPlanner::ParseFaultPolicy(const std::string& policy)
{
    if (policy == "replan")
    {
        return WanFaultPolicy::REPLAN;
    }
    if (policy == "fail")
    {
        return WanFaultPolicy::FAIL;
    }
    throw std::invalid_argument("unknown fault policy \"" + wantext::Printable(policy) +
                                "\" (expected replan or fail)");
}

void
WanExperimentPlanner::AddIslandAbsence(const std::string& city,
                                       uint32_t firstRound,
                                       uint32_t lastRound)
{
    const uint32_t c = GetTopology().FindCity(city);
    if (lastRound < firstRound)
    {
        throw std::invalid_argument("island " + city + " absence: last round " +
                                    std::to_string(lastRound) + " before first round " +
                                    std::to_string(firstRound));
    }
    m_absences.push_back({c, firstRound, lastRound});
}

const std::vector<WanLinkFault>&
WanExperimentPlanner::GetLinkFaults() const
{
    return m_linkFaults;
}

const WanTopology&
WanExperimentPlanner::GetTopology() const
{
    return m_planner.GetTopology();
}

const PlannerConfig&
WanExperimentPlanner::GetConfig() const
{
    return m_planner.GetConfig();
}

void
WanExperimentPlanner::PlanRound(uint32_t k,
                                double period,
                                const CliqueSchedule::Round& scheduled,
                                const RoundPlan& scheduledPlan,
                                WanPlannedRound& out) const
{
    const auto& topo = GetTopology();
    std::vector<std::string> notes;
    auto round = scheduled;
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
                notes.push_back(topo.GetCity(away.city).code + " away");
                break;
            }
        }
    }
    const double t0 = out.start;
    const double t1 = out.start + period;
    for (const auto& f : m_linkFaults)
    {
        if (f.down >= t1 || f.up <= t0)
        {
            continue;
        }
        const std::string name = topo.GetCity(f.a).code + "-" + topo.GetCity(f.b).code;
        if (m_policy == WanFaultPolicy::FAIL)
        {
            out.failed = true;
            notes.push_back("failed: link " + name + " down");
            continue;
        }
        out.routes = (out.routes ? *out.routes : topo)
                         .WithoutLink(topo.GetCity(f.a).code, topo.GetCity(f.b).code);
        notes.push_back("re-planned without " + name);
    }
    if (!out.failed && (changed || out.routes))
    {
        out.plan = RoundPlanner(out.routes ? *out.routes : topo, GetConfig()).PlanRound(round);
        if (!out.plan.feasible)
        {
            out.failed = true;
            notes.push_back("failed: " + out.plan.reason);
        }
    }
    else if (!out.failed)
    {
        out.plan = scheduledPlan;
    }
    out.ran = round;
    if (out.failed)
    {
        // Nobody mixes in a failed round.
        out.ran.clear();
        for (uint32_t c = 0; c < topo.GetNCities(); ++c)
        {
            out.ran.push_back({c});
        }
    }
    for (size_t i = 0; i < notes.size(); ++i)
    {
        out.note += (i > 0 ? "; " : "") + notes[i];
    }
}

std::vector<WanPlannedStream>
WanExperimentPlanner::Streams(const WanPlannedRound& round) const
{
    const auto& links = round.routes ? *round.routes : GetTopology();
    std::vector<WanPlannedStream> streams;
    for (uint32_t ci = 0; ci < round.plan.cliques.size(); ++ci)
    {
        const auto& cp = round.plan.cliques[ci];
        if (cp.members.size() < 2)
        {
            continue;
        }
        for (uint32_t jj = 0; jj < cp.members.size(); ++jj)
        {
            WanPlannedStream s;
            s.clique = ci;
            s.sender = cp.members[jj];
            s.position = jj;
            s.members = cp.members;
            s.offset = cp.offsets[jj];
            s.rateBps = cp.rateBps;
            if (GetConfig().multicast)
            {
                s.tree = links.GetMulticastTree(s.sender, cp.members);
            }
            streams.push_back(s);
        }
    }
    return streams;
}

WanExperimentPlan
WanExperimentPlanner::Plan(const CliqueSchedule& schedule) const
{
    NS_LOG_FUNCTION(this << schedule.GetName());
    WanExperimentPlan plan;
    plan.schedule = schedule.GetName();
    const auto scheduled = m_planner.Plan(schedule);
    plan.feasible = scheduled.feasible;
    plan.reason = scheduled.reason;
    if (!scheduled.feasible)
    {
        return plan;
    }
    plan.roundTime = scheduled.roundTime;
    plan.period = scheduled.roundTime * (1 + m_guard);
    plan.slotTimeout = 1e-3;
    plan.rounds.resize(m_rounds > 0 ? m_rounds : schedule.GetNRounds());
    PlanFrom(plan, schedule, scheduled, 0, 0, std::nullopt, "");
    return plan;
}

double
WanExperimentPlanner::ScaleLag(const WanPlannedRound& round, double scale) const
{
    const auto& links = round.routes ? *round.routes : GetTopology();
    double finish = round.plan.roundTime;
    for (const auto& cp : round.plan.cliques)
    {
        for (size_t jj = 0; jj < cp.members.size(); ++jj)
        {
            const auto sender = cp.members[jj];
            for (auto receiver : cp.members)
            {
                if (receiver == sender)
                {
                    continue;
                }
                const double last = cp.offsets[jj] + links.GetPathDelay(sender, receiver) +
                                    cp.serialization +
                                    (scale - 1) * m_planner.GetFrameDelay(sender, receiver);
                finish = std::max(finish, last);
            }
        }
    }
    return finish - round.plan.roundTime;
}

void
WanExperimentPlanner::PlanFrom(WanExperimentPlan& plan,
                               const CliqueSchedule& schedule,
                               const SchedulePlan& scheduled,
                               uint32_t from,
                               double start,
                               const std::optional<WanTopology>& routes,
                               const std::string& note) const
{
    for (uint32_t k = from; k < plan.rounds.size(); ++k)
    {
        WanPlannedRound r;
        r.round = k;
        r.start = start;
        r.routes = routes;
        PlanRound(k,
                  plan.period,
                  schedule.GetRound(k),
                  scheduled.rounds[k % scheduled.rounds.size()],
                  r);
        if (!note.empty())
        {
            r.note = note + (r.note.empty() ? "" : "; " + r.note);
        }
        // A round re-planned slower than the schedule's T keeps its guard
        // too, and the rounds after it wait: rounds never overlap.
        r.deadline = std::max(plan.period, r.failed ? 0.0 : r.plan.roundTime * (1 + m_guard));
        start += r.deadline;
        if (!r.failed)
        {
            r.streams = Streams(r);
            for (const auto& cp : r.plan.cliques)
            {
                for (double bytes : cp.memoryBytes)
                {
                    plan.slotTimeout =
                        std::max(plan.slotTimeout,
                                 bytes * 8 / cp.rateBps + scheduled.roundTime * m_guard / 2);
                }
            }
        }
        plan.rounds[k] = std::move(r);
    }
    std::vector<CliqueSchedule::Round> ran;
    for (const auto& r : plan.rounds)
    {
        ran.push_back(r.ran);
    }
    plan.disagreement =
        MixingAnalysis::FromSchedule(CliqueSchedule("run", ran), GetTopology().GetNCities())
            .GetAverageDisagreement();
}

void
WanExperimentPlanner::Replan(WanExperimentPlan& plan,
                             const CliqueSchedule& schedule,
                             uint32_t from,
                             const std::set<std::pair<uint32_t, uint32_t>>& down,
                             const std::string& note) const
{
    NS_LOG_FUNCTION(this << from << down.size() << note);
    if (from >= plan.rounds.size())
    {
        return; // no round left to re-plan
    }
    const auto& topo = GetTopology();
    std::optional<WanTopology> routes;
    for (const auto& [a, b] : down)
    {
        routes = (routes ? *routes : topo)
                     .WithoutLink(topo.GetCity(a).code, topo.GetCity(b).code, false);
    }
    try
    {
        if (routes)
        {
            routes->Validate();
        }
    }
    catch (const std::invalid_argument& partition)
    {
        // Detection can declare a bridge down (BFD under loss): no round can
        // be planned until it is back; they keep their start and fail.
        for (uint32_t k = from; k < plan.rounds.size(); ++k)
        {
            auto& r = plan.rounds[k];
            r.failed = true;
            r.streams.clear();
            r.note = note + ": failed, the network is partitioned (" + partition.what() + ")";
        }
        return;
    }
    PlanFrom(plan, schedule, m_planner.Plan(schedule), from, plan.rounds[from].start, routes, note);
}

void
WanExperimentPlanner::ClearLinkFaults()
{
    m_linkFaults.clear();
}

} // namespace ns3
