/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-simulator-session.h"

#include "wan-mpi-helper.h"

#include "ns3/ipv4-address-generator.h"
#include "ns3/simulator.h"

namespace ns3
{

WanSimulatorSession::WanSimulatorSession()
{
    Ipv4AddressGenerator::Reset(); // one simulation per run: addresses start afresh
    WanMpiHelper::PrepareSimulation();
}

WanSimulatorSession::~WanSimulatorSession()
{
    Simulator::Destroy();
}

} // namespace ns3
