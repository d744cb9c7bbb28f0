/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_SIMULATOR_SESSION_H
#define WAN_SIMULATOR_SESSION_H

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One simulation's lifetime: addresses start afresh and the
 * simulator is prepared (WanMpiHelper::PrepareSimulation) when it is made,
 * and the simulation ends (Simulator::Destroy) however its scope is left,
 * also by an exception.
 */
class WanSimulatorSession
{
  public:
    WanSimulatorSession();
    ~WanSimulatorSession();

    WanSimulatorSession(const WanSimulatorSession&) = delete;
    WanSimulatorSession& operator=(const WanSimulatorSession&) = delete;
};

} // namespace ns3

#endif /* WAN_SIMULATOR_SESSION_H */
