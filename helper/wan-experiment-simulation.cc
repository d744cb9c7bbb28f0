/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-experiment-simulation.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/wan-training-text.h"

#include <iostream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanExperimentSimulation");

WanExperimentSimulation::WanExperimentSimulation(const WanExperimentPlan& plan,
                                                 double progressSeconds)
    : m_plan(plan),
      m_progressSeconds(progressSeconds)
{
}

void
WanExperimentSimulation::Run(Time repairRoom, bool followPlan)
{
    const Time slack = Seconds(1) + repairRoom;
    const auto& last = m_plan.rounds.back();
    const Time end = Seconds(last.start + last.deadline) + slack;
    if (followPlan)
    {
        // Re-planned rounds may end later: the stop follows the plan.
        Simulator::Schedule(end, &WanExperimentSimulation::StopWhenDone, this, slack);
    }
    else
    {
        Simulator::Stop(end);
    }
    if (m_progressSeconds > 0)
    {
        m_progressEvents = 0;
        ReportProgress(end, std::chrono::steady_clock::now());
    }
    Simulator::Run();
}

uint64_t
WanExperimentSimulation::GetModelEvents() const
{
    return Simulator::GetEventCount() - m_progressEvents;
}

void
WanExperimentSimulation::StopWhenDone(Time slack)
{
    const auto& last = m_plan.rounds.back();
    const Time end = Seconds(last.start + last.deadline) + slack;
    if (end > Simulator::Now())
    {
        Simulator::Schedule(end - Simulator::Now(),
                            &WanExperimentSimulation::StopWhenDone,
                            this,
                            slack);
        return;
    }
    Simulator::Stop();
}

uint64_t
WanExperimentSimulation::RoundsDone() const
{
    uint64_t done = 0;
    for (const auto& r : m_plan.rounds)
    {
        done += Seconds(r.start + r.deadline) <= Simulator::Now() ? 1 : 0;
    }
    return done;
}

void
WanExperimentSimulation::ReportProgress(Time end, std::chrono::steady_clock::time_point last)
{
    ++m_progressEvents;
    // Checked every hundredth of a round period of simulated time; printed
    // at most every m_progressSeconds of wall-clock time.
    const auto now = std::chrono::steady_clock::now();
    if (std::chrono::duration<double>(now - last).count() >= m_progressSeconds)
    {
        std::cerr << "[wan-training] " << m_plan.schedule << ": simulated "
                  << wantext::Num(Simulator::Now().GetSeconds()) << " s of "
                  << wantext::Num(end.GetSeconds()) << " s, rounds done " << RoundsDone() << " of "
                  << m_plan.rounds.size() << ", " << Simulator::GetEventCount() << " events"
                  << std::endl;
        last = now;
    }
    Simulator::Schedule(Seconds(m_plan.period / 100),
                        &WanExperimentSimulation::ReportProgress,
                        this,
                        end,
                        last);
}

} // namespace ns3
