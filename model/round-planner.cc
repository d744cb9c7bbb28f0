/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "round-planner.h"

#include "wan-linear-program.h"
#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RoundPlanner");

namespace
{

/// The LPs work in milliseconds.
constexpr double kMs = 1e3;

/// Formats a rate in Gbps.
std::string
Gbps(double bps)
{
    return wantext::Num(bps / 1e9) + " Gbps";
}

/// Formats seconds as milliseconds with two decimals.
std::string
Ms(double seconds)
{
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(2);
    s << seconds * 1e3 << " ms";
    return s.str();
}

/// Formats seconds as microseconds with two decimals.
std::string
Us(double seconds)
{
    return wantext::Fixed(seconds * 1e6, 2) + " us";
}

/// Formats bytes as GB.
std::string
Gb(double bytes)
{
    return wantext::Num(bytes / 1e9) + " GB";
}

/// "{NYC,LAX}"
std::string
CliqueName(const WanTopology& topo, const CliqueSchedule::Clique& c)
{
    std::string s = "{";
    for (size_t i = 0; i < c.size(); ++i)
    {
        s += (i > 0 ? "," : "") + topo.GetCity(c[i]).code;
    }
    return s + "}";
}

} // namespace

RoundPlanner::RoundPlanner(const WanTopology& topo, const PlannerConfig& config)
    : m_topo(topo),
      m_config(config)
{
    wantext::RequirePositive(config.payloadBytes, "payload", "bytes");
    if (!(config.hbmBytes >= 0) || std::isinf(config.hbmBytes))
    {
        throw std::invalid_argument("FPGA memory must be zero or positive (got " +
                                    wantext::Num(config.hbmBytes) + " bytes)");
    }
    wantext::bounds::kJitterMs.Check(config.jitterAllowance * 1e3, "jitter allowance");
    wantext::bounds::kLossRate.Check(config.coreReserve, "core reserve");
    wantext::bounds::kFrameBytes.Check(config.frameBytes, "frame size");
    wantext::bounds::kLineRateWindowUs.Check(config.lineRateWindow * 1e6, "line-rate window");
    wantext::bounds::kRateGbps.Check(config.edgeBps / 1e9, "edge port rate");
    wantext::bounds::kRateGbps.Check(config.lineRateBps / 1e9, "FPGA line rate");
    if (config.accessBps)
    {
        m_topo.SetAccessRate(*config.accessBps);
    }
    if (config.coreCapacityBps)
    {
        m_topo.SetCoreCapacity(*config.coreCapacityBps);
    }
    m_topo.Validate();
}

const WanTopology&
RoundPlanner::GetTopology() const
{
    return m_topo;
}

const PlannerConfig&
RoundPlanner::GetConfig() const
{
    return m_config;
}

void
RoundPlanner::AssignRates(RoundPlan& plan) const
{
    std::vector<std::vector<WanHop>> cliqueHops;
    const auto streams = CountStreams(plan, cliqueHops);
    for (const auto& [hop, n] : streams)
    {
        WanLinkLoad load;
        load.from = hop.first;
        load.to = hop.second;
        load.streams = n;
        load.capacityBps =
            m_topo.GetLinks()[m_topo.GetLinkIndex(hop.first, hop.second)].capacityBps;
        plan.links.push_back(load);
    }

    for (size_t c = 0; c < plan.cliques.size(); ++c)
    {
        if (plan.cliques[c].members.size() >= 2)
        {
            SetCliqueRate(plan.cliques[c], cliqueHops[c], streams);
        }
    }
}

std::map<WanHop, uint32_t>
RoundPlanner::CountStreams(const RoundPlan& plan,
                           std::vector<std::vector<WanHop>>& cliqueHops) const
{
    // Directed hops each clique's streams use, with multiplicity.
    cliqueHops.assign(plan.cliques.size(), {});
    std::map<WanHop, uint32_t> streams;
    for (size_t c = 0; c < plan.cliques.size(); ++c)
    {
        const auto& members = plan.cliques[c].members;
        if (members.size() < 2)
        {
            continue;
        }
        for (auto j : members)
        {
            std::vector<WanHop> hops;
            if (m_config.multicast)
            {
                hops = m_topo.GetMulticastTree(j, members);
            }
            else
            {
                for (auto i : members)
                {
                    if (i == j)
                    {
                        continue;
                    }
                    auto path = m_topo.GetPath(j, i);
                    for (size_t h = 0; h + 1 < path.size(); ++h)
                    {
                        hops.emplace_back(path[h], path[h + 1]);
                    }
                }
            }
            for (const auto& hop : hops)
            {
                ++streams[hop];
                cliqueHops[c].push_back(hop);
            }
        }
    }
    return streams;
}

void
RoundPlanner::SetCliqueRate(CliquePlan& cp,
                            std::vector<WanHop> hops,
                            const std::map<WanHop, uint32_t>& streams) const
{
    const auto k = static_cast<uint32_t>(cp.members.size());
    double rate = std::numeric_limits<double>::infinity();
    auto consider = [&rate, &cp](double r, const std::string& why) {
        if (r < rate * (1 - 1e-12))
        {
            rate = r;
            cp.rateBinding = why;
        }
    };
    const uint32_t copiesOut = m_config.multicast ? 1 : k - 1;
    const uint32_t streamsIn = m_config.aggregation ? 1 : k - 1;
    for (auto v : cp.members)
    {
        const auto& city = m_topo.GetCity(v);
        consider(city.egressBps / copiesOut,
                 "egress " + city.code + " " + Gbps(city.egressBps) +
                     (copiesOut > 1 ? " / " + std::to_string(copiesOut) + " copies" : ""));
        consider(city.ingressBps / streamsIn,
                 "ingress " + city.code + " " + Gbps(city.ingressBps) +
                     (streamsIn > 1 ? " / " + std::to_string(streamsIn) + " streams" : ""));
    }
    // Each member's edge port carries the k - 1 streams to it (and, without
    // multicast, the k - 1 copies it sends): the FPGA sums what has crossed it.
    consider(m_config.edgeBps / (k - 1),
             "edge port " + Gbps(m_config.edgeBps) +
                 (k > 2 ? " / " + std::to_string(k - 1) + " streams" : ""));
    std::sort(hops.begin(), hops.end());
    hops.erase(std::unique(hops.begin(), hops.end()), hops.end());
    for (const auto& hop : hops)
    {
        double cap = m_topo.GetLinks()[m_topo.GetLinkIndex(hop.first, hop.second)].capacityBps;
        uint32_t n = streams.at(hop);
        const double usable = cap * (1 - m_config.coreReserve);
        consider(
            usable / n,
            "link " + m_topo.GetCity(hop.first).code + "->" + m_topo.GetCity(hop.second).code +
                " " + Gbps(cap) +
                (m_config.coreReserve > 0 ? " x " + wantext::Num(1 - m_config.coreReserve) : "") +
                " / " + std::to_string(n) + " streams");
    }
    cp.rateBps = rate;
    cp.serialization = m_config.payloadBytes * 8 / rate;
}

RoundPlanner::CliqueLp
RoundPlanner::BuildCliqueLp(const CliquePlan& cp) const
{
    // The LP works in milliseconds and gigabytes to keep its numbers near 1.
    CliqueLp c;
    c.t = c.lp.AddVariable("T", 0, WanLinearProgram::kInf, 1);
    c.z = c.lp.AddVariable("maxMemoryGB", 0, m_config.hbmBytes / 1e9);
    const auto& m = cp.members;
    for (auto j : m)
    {
        c.offset.push_back(c.lp.AddVariable("s" + m_topo.GetCity(j).code));
    }
    const double gbPerMs = cp.rateBps / 8 / 1e9 / kMs;
    // A receiver of two or more streams also absorbs the jitter allowance.
    const double allowanceGb = AllowanceBytes(cp) / 1e9;
    for (size_t ii = 0; ii < m.size(); ++ii)
    {
        uint32_t hi = 0;
        uint32_t lo = 0;
        if (m_config.aggregation)
        {
            hi = c.lp.AddVariable("hi", -WanLinearProgram::kInf, WanLinearProgram::kInf);
            lo = c.lp.AddVariable("lo", -WanLinearProgram::kInf, WanLinearProgram::kInf);
            c.window.emplace_back(hi, lo);
            // r (hi - lo + allowance) <= z <= M
            c.lp.AddConstraint({{hi, gbPerMs}, {lo, -gbPerMs}, {c.z, -1}},
                               -WanLinearProgram::kInf,
                               -allowanceGb);
        }
        for (size_t jj = 0; jj < m.size(); ++jj)
        {
            if (ii == jj)
            {
                continue;
            }
            double l = m_topo.GetPathDelay(m[jj], m[ii]) * kMs;
            // T >= s_j + l_ji + tau
            c.lp.AddConstraint({{c.t, 1}, {c.offset[jj], -1}},
                               l + cp.serialization * kMs,
                               WanLinearProgram::kInf);
            if (m_config.aggregation)
            {
                // lo_i <= s_j + l_ji <= hi_i
                c.lp.AddConstraint({{hi, 1}, {c.offset[jj], -1}}, l, WanLinearProgram::kInf);
                c.lp.AddConstraint({{lo, 1}, {c.offset[jj], -1}}, -WanLinearProgram::kInf, l);
            }
        }
    }
    return c;
}

void
RoundPlanner::SetMemoryCosts(WanLinearProgram& lp, const CliquePlan& cp, const CliqueLp& c)
{
    const double gbPerMs = cp.rateBps / 8 / 1e9 / kMs;
    lp.ClearCosts();
    for (const auto& [hi, lo] : c.window)
    {
        lp.SetCost(hi, gbPerMs);
        lp.SetCost(lo, -gbPerMs);
    }
}

RoundPlan
RoundPlanner::PlanRound(const CliqueSchedule::Round& round) const
{
    NS_LOG_FUNCTION(this);
    RoundPlan plan;
    for (const auto& c : round)
    {
        CliquePlan cp;
        cp.members = c;
        cp.offsets.assign(c.size(), 0.0);
        cp.memoryBytes.assign(c.size(), 0.0);
        plan.cliques.push_back(cp);
    }
    AssignRates(plan);

    // Cliques share no constraint but T = max over cliques, so each clique
    // has a small LP of its own: pass 1 gives its least T_c, T is the largest,
    // and pass 2 keeps every T_c <= T while it minimises the clique's memory.
    std::vector<CliqueLp> lps;
    std::vector<bool> aligned;
    const double tStar = SolveCliques(plan, lps, aligned);
    if (std::find(aligned.begin(), aligned.end(), false) != aligned.end())
    {
        ExplainMisalignment(plan, lps, aligned);
        NS_LOG_INFO("infeasible round: " << plan.reason);
        return plan;
    }
    if (m_config.aggregation)
    {
        // Second pass: T_c <= T, least FPGA memory.
        for (size_t c = 0; c < plan.cliques.size(); ++c)
        {
            if (plan.cliques[c].members.size() < 2)
            {
                continue;
            }
            lps[c].lp.SetBounds(lps[c].t, 0, tStar + 1e-9);
            SetMemoryCosts(lps[c].lp, plan.cliques[c], lps[c]);
            if (lps[c].lp.Minimize() != WanLinearProgram::OPTIMAL)
            {
                throw std::runtime_error("round planner: the memory pass could not be solved");
            }
        }
    }

    SetTimes(plan, lps);
    CheckPacketSkew(plan);
    NS_LOG_INFO("round time " << plan.roundTime << " s: " << plan.binding);
    return plan;
}

double
RoundPlanner::SolveCliques(RoundPlan& plan,
                           std::vector<CliqueLp>& lps,
                           std::vector<bool>& aligned) const
{
    double tStar = 0;
    lps.assign(plan.cliques.size(), CliqueLp{});
    aligned.assign(plan.cliques.size(), true);
    for (size_t c = 0; c < plan.cliques.size(); ++c)
    {
        if (plan.cliques[c].members.size() < 2)
        {
            continue;
        }
        lps[c] = BuildCliqueLp(plan.cliques[c]);
        auto status = lps[c].lp.Minimize();
        if (status == WanLinearProgram::INFEASIBLE)
        {
            aligned[c] = false;
        }
        else if (status != WanLinearProgram::OPTIMAL)
        {
            throw std::runtime_error("round planner: the linear program could not be solved");
        }
        else
        {
            tStar = std::max(tStar, lps[c].lp.GetValue(lps[c].t));
        }
    }

    return tStar;
}

void
RoundPlanner::ExplainMisalignment(RoundPlan& plan,
                                  const std::vector<CliqueLp>& lps,
                                  const std::vector<bool>& aligned) const
{
    // The least memory that would do: the largest of the cliques' own needs.
    double neededGb = 0;
    for (size_t c = 0; c < plan.cliques.size(); ++c)
    {
        if (aligned[c])
        {
            continue;
        }
        WanLinearProgram relaxed = lps[c].lp;
        relaxed.SetBounds(lps[c].z, 0, WanLinearProgram::kInf);
        relaxed.ClearCosts();
        relaxed.SetCost(lps[c].z, 1);
        if (relaxed.Minimize() != WanLinearProgram::OPTIMAL)
        {
            throw std::runtime_error("round planner: memory relaxation failed");
        }
        neededGb = std::max(neededGb, relaxed.GetObjective());
    }
    const double needed = neededGb * 1e9;
    plan.requiredMemoryBytes = needed;
    // Within that memory, the least total of all receivers' windows:
    // receivers that can be aligned get none, and the widest window left is
    // one that needs the memory.
    std::string receiver;
    std::string clique;
    double widest = -1;
    for (size_t c = 0; c < plan.cliques.size(); ++c)
    {
        if (plan.cliques[c].members.size() < 2)
        {
            continue;
        }
        WanLinearProgram relaxed = lps[c].lp;
        relaxed.SetBounds(lps[c].z, 0, neededGb * (1 + 1e-9) + 1e-12);
        SetMemoryCosts(relaxed, plan.cliques[c], lps[c]);
        if (relaxed.Minimize() != WanLinearProgram::OPTIMAL)
        {
            throw std::runtime_error("round planner: memory relaxation failed");
        }
        plan.misalignedBytes += relaxed.GetObjective() * 1e9;
        for (size_t ii = 0; ii < lps[c].window.size(); ++ii)
        {
            const auto& [hi, lo] = lps[c].window[ii];
            double bytes =
                plan.cliques[c].rateBps / 8 * (relaxed.GetValue(hi) - relaxed.GetValue(lo)) / kMs +
                AllowanceBytes(plan.cliques[c]);
            if (bytes > widest * (1 + 1e-9))
            {
                widest = bytes;
                receiver = m_topo.GetCity(plan.cliques[c].members[ii]).code;
                clique = CliqueName(m_topo, plan.cliques[c].members);
            }
        }
    }
    plan.feasible = false;
    const std::string allowance =
        m_config.jitterAllowance > 0
            ? ", with a jitter allowance of " + Ms(m_config.jitterAllowance) + ","
            : "";
    if (m_config.hbmBytes == 0)
    {
        plan.reason = "arrivals at " + receiver + " in " + clique + allowance +
                      " cannot be aligned without FPGA memory (needs at least " + Gb(needed) + ")";
    }
    else
    {
        plan.reason = "arrivals at " + receiver + " in " + clique + allowance + " need " +
                      Gb(needed) + " of FPGA memory, more than the " + Gb(m_config.hbmBytes) +
                      " available";
    }
}

double
RoundPlanner::AllowanceBytes(const CliquePlan& cp) const
{
    return cp.members.size() > 2 ? cp.rateBps / 8 * m_config.jitterAllowance : 0;
}

void
RoundPlanner::SetTimes(RoundPlan& plan, const std::vector<CliqueLp>& lps) const
{
    plan.feasible = true;
    plan.roundTime = 0;
    for (size_t c = 0; c < plan.cliques.size(); ++c)
    {
        auto& cp = plan.cliques[c];
        const auto& m = cp.members;
        if (m.size() < 2)
        {
            continue;
        }
        for (size_t jj = 0; jj < m.size(); ++jj)
        {
            cp.offsets[jj] = std::max(0.0, lps[c].lp.GetValue(lps[c].offset[jj]) / kMs);
        }
        for (size_t ii = 0; ii < m.size(); ++ii)
        {
            double first = std::numeric_limits<double>::infinity();
            double last = -first;
            uint32_t lastSender = 0;
            for (size_t jj = 0; jj < m.size(); ++jj)
            {
                if (ii == jj)
                {
                    continue;
                }
                double a = cp.offsets[jj] + m_topo.GetPathDelay(m[jj], m[ii]);
                first = std::min(first, a);
                if (a > last)
                {
                    last = a;
                    lastSender = m[jj];
                }
            }
            if (m_config.aggregation)
            {
                cp.memoryBytes[ii] = cp.rateBps / 8 * (last - first) + AllowanceBytes(cp);
                plan.peakMemoryBytes = std::max(plan.peakMemoryBytes, cp.memoryBytes[ii]);
            }
            double finish = last + cp.serialization;
            cp.finish = std::max(cp.finish, finish);
            if (finish > plan.roundTime + 1e-12)
            {
                plan.roundTime = finish;
                plan.binding = CliqueName(m_topo, m) + ": " + m_topo.GetCity(lastSender).code +
                               "->" + m_topo.GetCity(m[ii]).code + " arrives at " + Ms(last) +
                               ", then " + Ms(cp.serialization) + " at " + Gbps(cp.rateBps) + " (" +
                               cp.rateBinding + ")";
            }
        }
    }
}

double
RoundPlanner::PacketDelay(uint32_t sender, uint32_t receiver, uint32_t copy) const
{
    const double bits = 8 * m_config.frameBytes;
    // Copy k leaves the egress k frame times after the send instant.
    double delay = copy * bits / m_topo.GetCity(sender).egressBps;
    // The path the frames take: the unicast route, or the branch of the
    // sender's multicast tree, the reverse of the receiver's path to it.
    auto path =
        m_config.multicast ? m_topo.GetPath(receiver, sender) : m_topo.GetPath(sender, receiver);
    for (size_t h = 0; h + 1 < path.size(); ++h)
    {
        delay += bits / m_topo.GetLinks()[m_topo.GetLinkIndex(path[h], path[h + 1])].capacityBps;
    }
    // The edge links (the sender's up to its router, the receiver's down to
    // its FPGA) are on every path: they add the same to every sender.
    return delay;
}

double
RoundPlanner::GetFrameDelay(uint32_t sender, uint32_t receiver) const
{
    const double bits = 8 * m_config.frameBytes;
    return PacketDelay(sender, receiver, 0) + 2 * bits / m_config.edgeBps +
           bits / m_topo.GetCity(receiver).ingressBps;
}

std::vector<double>
RoundPlanner::PacketSkew(const CliqueSchedule::Clique& members) const
{
    std::vector<double> skew(members.size(), 0.0);
    for (size_t ii = 0; ii < members.size(); ++ii)
    {
        double first = std::numeric_limits<double>::infinity();
        double last = -first;
        for (size_t jj = 0; jj < members.size(); ++jj)
        {
            if (jj == ii)
            {
                continue;
            }
            // The sender's copies go out in the clique's order, itself left out.
            const auto copy =
                m_config.multicast ? 1u : static_cast<uint32_t>(ii < jj ? ii + 1 : ii);
            const double d = PacketDelay(members[jj], members[ii], copy);
            first = std::min(first, d);
            last = std::max(last, d);
        }
        skew[ii] = members.size() > 2 ? last - first : 0;
    }
    return skew;
}

void
RoundPlanner::CheckPacketSkew(RoundPlan& plan) const
{
    if (!m_config.aggregation)
    {
        return; // no FPGA: nothing waits for the other streams
    }
    const double frameBits = 8 * m_config.frameBytes;
    // Without memory the FPGA's table has N slots, and a stream's chunks take
    // them in turn (FpgaSlotTable::SlotOf): chunks k and k + N share one.
    const uint64_t slots = FpgaSlotTable::LineRateSlots(m_config.lineRateBps,
                                                        m_config.lineRateWindow,
                                                        m_config.frameBytes);
    for (auto& cp : plan.cliques)
    {
        if (cp.members.size() < 2)
        {
            continue;
        }
        cp.skewSeconds = PacketSkew(cp.members);
        for (size_t ii = 0; ii < cp.members.size(); ++ii)
        {
            const double skew = cp.skewSeconds[ii];
            if (m_config.hbmBytes > 0)
            {
                continue; // the FPGA waits
            }
            // The FPGA holds whole chunks: the frames in flight during the skew.
            const double bytes = m_config.frameBytes * std::ceil(cp.rateBps * skew / frameBits);
            const std::string absorb =
                " (" + wantext::Num(bytes) + " bytes of FPGA memory would absorb it)";
            const std::string arrivals = "arrivals at " + m_topo.GetCity(cp.members[ii]).code +
                                         " in " + CliqueName(m_topo, cp.members) + " differ by " +
                                         Us(skew) + " at the packet level, more than ";
            // Chunk k is open until its last contribution, the skew after its
            // first; chunk k + N arrives N chunk times (at r_c) after chunk k.
            const double span = static_cast<double>(slots) * frameBits / cp.rateBps;
            if (skew > m_config.lineRateWindow * (1 + 1e-9))
            {
                plan.warnings.push_back(arrivals + "the FPGA's " + Us(m_config.lineRateWindow) +
                                        " line-rate window: its chunks reach the island as "
                                        "partial sums" +
                                        absorb);
            }
            else if (skew > span * (1 + 1e-9))
            {
                plan.warnings.push_back(
                    arrivals + "the FPGA's line-rate table holds at " + Gbps(cp.rateBps) + " (" +
                    std::to_string(slots) + (slots == 1 ? " slot: " : " slots: ") + Us(span) +
                    "): chunk k is still open when chunk k + " + std::to_string(slots) +
                    " arrives in its slot, and the conflict splits a chunk into partial sums" +
                    absorb);
            }
            else
            {
                continue;
            }
            plan.skewMemoryBytes = std::max(plan.skewMemoryBytes, bytes);
        }
    }
}

SchedulePlan
RoundPlanner::Plan(const CliqueSchedule& schedule) const
{
    NS_LOG_FUNCTION(this << schedule.GetName());
    schedule.Validate(m_topo);
    SchedulePlan plan;
    plan.schedule = schedule.GetName();
    plan.feasible = true;
    for (uint32_t k = 0; k < schedule.GetNRounds(); ++k)
    {
        plan.rounds.push_back(PlanRound(schedule.GetRound(k)));
        const auto& r = plan.rounds.back();
        for (const auto& w : r.warnings)
        {
            plan.warnings.push_back("round " + std::to_string(k + 1) + ": " + w);
        }
        if (!r.feasible && plan.feasible)
        {
            plan.feasible = false;
            plan.bindingRound = k;
            plan.reason = schedule.GetName() + " round " + std::to_string(k + 1) + ": " + r.reason;
            plan.binding = r.reason;
        }
        if (plan.feasible && r.roundTime > plan.roundTime)
        {
            plan.roundTime = r.roundTime;
            plan.bindingRound = k;
            plan.binding = r.binding;
        }
    }
    if (!plan.feasible)
    {
        plan.roundTime = std::numeric_limits<double>::infinity();
    }
    return plan;
}

} // namespace ns3
