/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * A standalone planning tool: the full plan of one schedule, round by round
 * (clique rates and what binds them, sender offsets, FPGA memory per
 * receiver, loaded core links), as text or JSON, for scripts.
 *
 *   ./ns3 run "wan-training-plan --schedule=triangles --hbmGB=32"
 *   ./ns3 run "wan-training-plan --topology=my.json --schedule=s.json --json"
 */

#include "wan-training-tool-options.h"

#include "ns3/wan-training-module.h"
#include "ns3/wan-training-text.h"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

using namespace ns3;
namespace po = wantool::po;

namespace
{

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
                members.push_back(
                    {{"island", topo.GetCity(c.members[i]).code},
                     {"offset_ms", c.offsets[i] * 1e3},
                     {"fpga_memory_bytes", c.memoryBytes[i]},
                     {"packet_skew_us", c.skewSeconds.empty() ? 0 : c.skewSeconds[i] * 1e6}});
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
                          {"round_time_ms", wantext::JsonNumber(r.roundTime * 1e3)},
                          {"binding", r.binding},
                          {"peak_memory_bytes", r.peakMemoryBytes},
                          {"required_memory_bytes", r.requiredMemoryBytes},
                          {"skew_memory_bytes", r.skewMemoryBytes},
                          {"warnings", r.warnings},
                          {"cliques", cliques},
                          {"links", links}});
    }
    return {{"schedule", plan.schedule},
            {"feasible", plan.feasible},
            {"reason", plan.reason},
            {"round_time_ms", wantext::JsonNumber(plan.roundTime * 1e3)},
            {"binding_round", plan.bindingRound + 1},
            {"binding", plan.binding},
            {"warnings", plan.warnings},
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
                   << " ms, FPGA memory " << c.memoryBytes[i] / 1e6 << " MB";
                if (!c.skewSeconds.empty())
                {
                    os << ", packet skew " << c.skewSeconds[i] * 1e6 << " us";
                }
                os << "\n";
            }
        }
        for (const auto& w : r.warnings)
        {
            os << "  warning: " << w << "\n";
        }
        for (const auto& l : r.links)
        {
            os << "  link " << topo.GetCity(l.from).code << "->" << topo.GetCity(l.to).code << ": "
               << l.streams << " streams on " << l.capacityBps / 1e9 << " Gbps\n";
        }
    }
}

/// @return the options, spelt as in nine-city-cliques
po::options_description
Options()
{
    po::options_description options(
        "wan-training-plan: the full round-by-round plan of one schedule.\nOptions");
    const std::string schedule = "a built-in schedule (" + CliqueScheduleBuiltins::JoinedNames() +
                                 ") or a schedule file (.json)";
    // clang-format off
    options.add_options()
        ("help,h", "print this help")
        ("topology", po::value<std::string>()->default_value(""),
         "topology file (.json or a folder with cities.csv and core-links.csv); empty: the "
         "embedded nine-city topology")
        ("schedule", po::value<std::string>()->default_value("triangles"), schedule.c_str());
    wantool::AddCapabilityOptions(options);
    options.add_options()
        ("json", po::value<bool>()->default_value(false)->implicit_value(true),
         "print JSON instead of text");
    // clang-format on
    return options;
}

int
Run(const po::variables_map& vm)
{
    const PlannerConfig config = wantool::CapabilityConfig(vm);
    auto topoFile = vm["topology"].as<std::string>();
    WanTopology topo = topoFile.empty() ? WanTopology::NineCity() : WanTopology::LoadFile(topoFile);
    RoundPlanner planner(topo, config);

    auto name = vm["schedule"].as<std::string>();
    auto schedule = wantext::EndsWith(name, ".json")
                        ? CliqueSchedule::LoadFile(name, planner.GetTopology())
                        : CliqueScheduleBuiltins::Make(name, planner.GetTopology());
    auto plan = planner.Plan(schedule);
    if (vm["json"].as<bool>())
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
    return wantool::Main(argc, argv, "wan-training-plan", Options, Run);
}
