/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// A first round at packet level, put together from the module's parts: the
// nine cities, a built-in schedule of rotating cliques, the planner's plan of
// its first round, the network (a router, an edge node and an island per
// city), an FPGA aggregator on every edge node and an island application on
// every island; then each island's completion, bytes and sum.
// examples/wan-first-round.py tells the same story in Python;
// nine-city-cliques runs whole schedules (CliqueExperimentHelper).
//
//   ./ns3 run "wan-first-round --schedule=all-to-all --hbmGB=32"

#include "ns3/core-module.h"
#include "ns3/wan-training-module.h"

#include <iomanip>
#include <iostream>

using namespace ns3;

int
main(int argc, char* argv[])
{
    std::string name = "triangles";
    double scale = 1000;
    double hbmGB = 0;
    CommandLine cmd(__FILE__);
    cmd.AddValue("schedule", "Built-in schedule: pairs, regional, triangles or all-to-all", name);
    cmd.AddValue("scale", "Time-preserving scale: D and every rate / scale (>= 1)", scale);
    cmd.AddValue("hbmGB", "FPGA memory, GB (0: the line-rate window only)", hbmGB);
    cmd.Parse(argc, argv);

    try
    {
        // 1. The topology, the schedule and the planner's plan of round 1:
        // each sender's clique, rate, offset and deadline, and T.
        const auto topo = WanTopology::NineCity();
        const auto schedule = CliqueScheduleBuiltins::Make(name, topo);
        PlannerConfig config;
        config.hbmBytes = hbmGB * 1e9;
        WanExperimentPlanner planner(topo, config);
        planner.SetRounds(1);
        const auto plan = planner.Plan(schedule);
        if (!plan.feasible)
        {
            std::cerr << "wan-first-round: " << name << " is infeasible: " << plan.reason << "\n";
            return 1;
        }

        // 2. The network, with D and every rate divided by the scale.
        WanNetworkHelper net(topo);
        net.SetScale(scale);
        net.Install();

        // 3. An FPGA aggregator on every edge node, an island on every island node.
        FpgaAggregatorHelper fpgas;
        fpgas.SetScale(scale);
        fpgas.SetAttribute("SlotTimeout", TimeValue(Seconds(plan.slotTimeout)));
        fpgas.SetAttribute("HbmBytes", UintegerValue(static_cast<uint64_t>(config.hbmBytes)));
        WanIslandHelper islands;
        ApplicationContainer fpgaApps;
        ApplicationContainer islandApps;
        for (uint32_t c = 0; c < topo.GetNCities(); ++c)
        {
            fpgas.SetAttribute("Island", Ipv4AddressValue(net.GetIslandAddress(c)));
            fpgaApps.Add(fpgas.Install(net.GetEdges().Get(c)));
            islands.SetAttribute("Fpga", Ipv4AddressValue(net.GetEdgeAddress(c)));
            islandApps.Add(islands.Install(net.GetIslands().Get(c)));
        }

        // 4. The round: every sender's stream, and its multicast tree.
        WanRoundInstaller(net, config, scale, false, islandApps).InstallAll(plan);

        // 5. Run it; the recorder listens to the islands' and FPGAs' traces.
        WanRoundRecorder recorder;
        recorder.WatchIslands(islandApps);
        recorder.WatchFpgas(fpgaApps);
        const auto& round = plan.rounds.front();
        Simulator::Stop(Seconds(round.start + round.deadline + 1));
        Simulator::Run();

        std::cout << std::fixed << std::setprecision(1) << schedule.GetName()
                  << ", round 1 at scale " << scale << ": planner T " << plan.roundTime * 1e3
                  << " ms\n";
        for (const auto& clique : round.plan.cliques)
        {
            if (clique.members.size() < 2)
            {
                continue; // a singleton keeps its own state
            }
            for (auto c : clique.members)
            {
                const auto island = recorder.GetIslandResult(0, c, scale);
                std::cout << "  " << topo.GetCity(c).code << ": done at " << island.completionMs
                          << " ms, " << std::setprecision(2) << island.bytesIn / 1e9
                          << " GB in, sum " << (island.exact ? "exact" : "NOT exact")
                          << std::setprecision(1) << "\n";
            }
        }
        std::cout << "  FPGA evictions:";
        for (const auto& [cause, count] : recorder.GetEvictions())
        {
            std::cout << " " << cause << " " << count;
        }
        std::cout << "\n";
        Simulator::Destroy();
    }
    catch (const std::exception& e)
    {
        std::cerr << "wan-first-round: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
