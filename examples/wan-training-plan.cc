/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * A standalone planning tool: the full plan of one schedule, round by round
 * (clique rates and what binds them, sender offsets, FPGA memory per
 * receiver, loaded core links), as text or JSON, for scripts.
 *
 *   ./ns3 run "wan-training-plan --schedule triangles --hbm-gb 32"
 *   ./ns3 run "wan-training-plan --topology my.json --schedule s.json --json"
 */

#include "ns3/wan-training-module.h"

#include <boost/program_options.hpp>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;
namespace po = boost::program_options;

namespace
{

/// A number for JSON: null when not finite.
nlohmann::json
Finite(double x)
{
    return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

/// The plan as JSON.
nlohmann::json
PlanToJson(const WanTopology& topo, const SchedulePlan& plan)
{
    using nlohmann::json;
    json rounds = json::array();
    for (const auto& r : plan.rounds)
    {
        json cliques = json::array();
        for (const auto& c : r.cliques)
        {
            json members = json::array();
            for (size_t i = 0; i < c.members.size(); ++i)
            {
                members.push_back({{"island", topo.GetCity(c.members[i]).code},
                                   {"offset_ms", c.offsets[i] * 1e3},
                                   {"fpga_memory_bytes", c.memoryBytes[i]}});
            }
            cliques.push_back({{"members", members},
                               {"rate_gbps", c.rateBps / 1e9},
                               {"rate_binding", c.rateBinding},
                               {"serialization_ms", c.serialization * 1e3},
                               {"finish_ms", c.finish * 1e3}});
        }
        json links = json::array();
        for (const auto& l : r.links)
        {
            links.push_back({{"from", topo.GetCity(l.from).code},
                             {"to", topo.GetCity(l.to).code},
                             {"streams", l.streams},
                             {"capacity_gbps", l.capacityBps / 1e9}});
        }
        rounds.push_back({{"feasible", r.feasible},
                          {"reason", r.reason},
                          {"round_time_ms", Finite(r.roundTime * 1e3)},
                          {"binding", r.binding},
                          {"peak_memory_bytes", r.peakMemoryBytes},
                          {"required_memory_bytes", r.requiredMemoryBytes},
                          {"cliques", cliques},
                          {"links", links}});
    }
    return {{"schedule", plan.schedule},
            {"feasible", plan.feasible},
            {"reason", plan.reason},
            {"round_time_ms", Finite(plan.roundTime * 1e3)},
            {"binding_round", plan.bindingRound + 1},
            {"binding", plan.binding},
            {"rounds", rounds}};
}

/// The plan as text.
void
PrintPlan(std::ostream& os, const WanTopology& topo, const SchedulePlan& plan)
{
    os << std::fixed << std::setprecision(2);
    os << "schedule " << plan.schedule << ": ";
    if (plan.feasible)
    {
        os << "T = " << plan.roundTime * 1e3 << " ms, set in round " << plan.bindingRound + 1
           << " by " << plan.binding << "\n";
    }
    else
    {
        os << "infeasible: " << plan.reason << "\n";
    }
    for (size_t k = 0; k < plan.rounds.size(); ++k)
    {
        const auto& r = plan.rounds[k];
        os << "round " << k + 1 << ": ";
        if (!r.feasible)
        {
            os << "infeasible: " << r.reason << "\n";
            continue;
        }
        os << r.roundTime * 1e3 << " ms, peak FPGA memory " << r.peakMemoryBytes / 1e9 << " GB\n";
        for (const auto& c : r.cliques)
        {
            if (c.members.size() < 2)
            {
                continue;
            }
            os << "  clique";
            for (auto v : c.members)
            {
                os << " " << topo.GetCity(v).code;
            }
            os << ": " << c.rateBps / 1e9 << " Gbps (" << c.rateBinding << "), serialization "
               << c.serialization * 1e3 << " ms\n";
            for (size_t i = 0; i < c.members.size(); ++i)
            {
                os << "    " << topo.GetCity(c.members[i]).code << ": offset " << c.offsets[i] * 1e3
                   << " ms, FPGA memory " << c.memoryBytes[i] / 1e6 << " MB\n";
            }
        }
        for (const auto& l : r.links)
        {
            os << "  link " << topo.GetCity(l.from).code << "->" << topo.GetCity(l.to).code << ": "
               << l.streams << " streams on " << l.capacityBps / 1e9 << " Gbps\n";
        }
    }
}

int
Run(int argc, char* argv[])
{
    po::options_description options(
        "wan-training-plan: the full round-by-round plan of one schedule.\nOptions");
    options.add_options()("help,h", "print this help")(
        "topology",
        po::value<std::string>()->default_value(""),
        "topology file (.json or a folder with cities.csv and core-links.csv); empty: the "
        "embedded nine-city topology")(
        "schedule",
        po::value<std::string>()->default_value("triangles"),
        "pairs, regional, triangles, all-to-all, or a schedule file (.json)")(
        "payload",
        po::value<double>()->default_value(1e9),
        "model state D per island and round, bytes")("hbm-gb",
                                                     po::value<double>()->default_value(0),
                                                     "FPGA memory per receiver, GB")(
        "access-gbps",
        po::value<double>(),
        "access rate of every island, Gbps (default: the topology's)")(
        "core-gbps",
        po::value<double>(),
        "capacity of every core link, Gbps (default: the topology's)")(
        "no-multicast",
        "unicast copies from each sender")("no-aggregation",
                                           "no FPGA aggregation")("json",
                                                                  "print JSON instead of text");
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
    if (vm.count("help"))
    {
        std::cout << options << "\n";
        return 0;
    }

    auto topoFile = vm["topology"].as<std::string>();
    WanTopology topo = topoFile.empty() ? WanTopology::NineCity() : WanTopology::LoadFile(topoFile);
    PlannerConfig config;
    config.payloadBytes = vm["payload"].as<double>();
    config.hbmBytes = vm["hbm-gb"].as<double>() * 1e9;
    config.multicast = vm.count("no-multicast") == 0;
    config.aggregation = vm.count("no-aggregation") == 0;
    if (vm.count("access-gbps"))
    {
        config.accessBps = vm["access-gbps"].as<double>() * 1e9;
    }
    if (vm.count("core-gbps"))
    {
        config.coreCapacityBps = vm["core-gbps"].as<double>() * 1e9;
    }
    RoundPlanner planner(topo, config);

    auto name = vm["schedule"].as<std::string>();
    bool isFile = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
    auto schedule = isFile ? CliqueSchedule::LoadFile(name, planner.GetTopology())
                           : CliqueSchedule::Builtin(name, planner.GetTopology());
    auto plan = planner.Plan(schedule);
    if (vm.count("json"))
    {
        std::cout << PlanToJson(planner.GetTopology(), plan).dump(2) << "\n";
    }
    else
    {
        PrintPlan(std::cout, planner.GetTopology(), plan);
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    try
    {
        return Run(argc, argv);
    }
    catch (const std::exception& e)
    {
        std::cerr << "wan-training-plan: error: " << e.what() << std::endl;
        return 1;
    }
}
