#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A first round at packet level, put together from the module's parts, in
Python (ns-3's cppyy bindings): the same story as wan-first-round.cc, with the
same output.

    python3 examples/wan-first-round.py --schedule all-to-all --hbmGB 32
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from wan_training import ns  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedule", default="triangles",
                        help="built-in schedule: pairs, regional, triangles or all-to-all")
    parser.add_argument("--scale", type=float, default=1000,
                        help="time-preserving scale: D and every rate / scale (>= 1)")
    parser.add_argument("--hbmGB", type=float, default=0,
                        help="FPGA memory, GB (0: the line-rate window only)")
    args = parser.parse_args()

    # 1. The topology, the schedule and the planner's plan of round 1.
    topo = ns.WanTopology.NineCity()
    schedule = ns.CliqueScheduleBuiltins.Make(args.schedule, topo)
    config = ns.PlannerConfig()
    config.hbmBytes = args.hbmGB * 1e9
    planner = ns.WanExperimentPlanner(topo, config)
    planner.SetRounds(1)
    plan = planner.Plan(schedule)
    if not plan.feasible:
        sys.exit("wan-first-round.py: %s is infeasible: %s" % (args.schedule, plan.reason))

    # 2. The network, with D and every rate divided by the scale.
    net = ns.WanNetworkHelper(topo)
    net.SetScale(args.scale)
    net.Install()

    # 3. An FPGA aggregator on every edge node, an island on every island node.
    fpgas = ns.FpgaAggregatorHelper()
    fpgas.SetScale(args.scale)
    fpgas.SetAttribute("SlotTimeout", ns.TimeValue(ns.Seconds(plan.slotTimeout)))
    fpgas.SetAttribute("HbmBytes", ns.UintegerValue(int(config.hbmBytes)))
    islands = ns.WanIslandHelper()
    fpga_apps = ns.ApplicationContainer()
    island_apps = ns.ApplicationContainer()
    for c in range(topo.GetNCities()):
        fpgas.SetAttribute("Island", ns.Ipv4AddressValue(net.GetIslandAddress(c)))
        fpga_apps.Add(fpgas.Install(net.GetEdges().Get(c)))
        islands.SetAttribute("Fpga", ns.Ipv4AddressValue(net.GetEdgeAddress(c)))
        island_apps.Add(islands.Install(net.GetIslands().Get(c)))

    # 4. The round: every sender's stream, and its multicast tree.
    ns.WanRoundInstaller(net, config, args.scale, False, island_apps).InstallAll(plan)

    # 5. Run it; the recorder listens to the islands' and FPGAs' traces.
    recorder = ns.WanRoundRecorder()
    recorder.WatchIslands(island_apps)
    recorder.WatchFpgas(fpga_apps)
    first = plan.rounds.front()
    ns.Simulator.Stop(ns.Seconds(first.start + first.deadline + 1))
    ns.Simulator.Run()

    print("%s, round 1 at scale %.1f: planner T %.1f ms"
          % (schedule.GetName(), args.scale, plan.roundTime * 1e3))
    for clique in first.plan.cliques:
        if clique.members.size() < 2:
            continue  # a singleton keeps its own state
        for c in clique.members:
            island = recorder.GetIslandResult(0, c, args.scale)
            print("  %s: done at %.1f ms, %.2f GB in, sum %s"
                  % (topo.GetCity(c).code, island.completionMs, island.bytesIn / 1e9,
                     "exact" if island.exact else "NOT exact"))
    evictions = "".join(" %s %d" % (str(cause), count)
                        for cause, count in recorder.GetEvictions())
    print("  FPGA evictions:" + evictions)
    ns.Simulator.Destroy()


if __name__ == "__main__":
    main()
