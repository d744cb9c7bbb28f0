/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_SIMULATOR_DEFAULTS_H
#define WAN_SIMULATOR_DEFAULTS_H

// What the packet-level programs (nine-city-cliques, wan-impairments,
// wan-udp-baseline) set before their command line is parsed: ns-3's binary-heap
// event scheduler instead of its default map scheduler.  Every ns-3 scheduler
// runs events in the same order (by time, then by the order they were
// scheduled in), so the choice changes how fast a run goes, never what it
// gives; the heap allocates nothing per event where the map allocates a tree
// node.  --SchedulerType=ns3::MapScheduler (or any other) on the command line
// still chooses another.

#include "ns3/global-value.h"
#include "ns3/string.h"

namespace wansim
{

/// The event scheduler the packet-level programs use unless told otherwise.
constexpr const char* kDefaultScheduler = "ns3::HeapScheduler";

/// Sets the programs' defaults; call before CommandLine::Parse.
inline void
SetSimulatorDefaults()
{
    ns3::GlobalValue::Bind("SchedulerType", ns3::StringValue(kDefaultScheduler));
}

} // namespace wansim

#endif // WAN_SIMULATOR_DEFAULTS_H
