/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * A standalone schedule optimizer: reads a topology (or generates a synthetic
 * one), finds the rotating-clique schedule with the least J = T x A for the
 * given capabilities, and optionally sweeps the capabilities to show how the
 * optimum shifts.  The schedule it writes loads into nine-city-cliques
 * (--scheduleFile, and --packetSchedule=file for the packet level).
 *
 *   ./ns3 run "wan-training-optimise --hbm-gb 32 --output best.json"
 *   ./ns3 run "wan-training-optimise --sweep --sweep-csv sweep.csv --sweep-json sweep.json"
 *   ./ns3 run "wan-training-optimise --synthetic 32 --regions 4 --evaluations 5000"
 */

#include "ns3/core-module.h"
#include "ns3/wan-training-module.h"

#include <boost/program_options.hpp>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

using namespace ns3;
namespace po = boost::program_options;

namespace
{

/// Splits "a,b,c".
std::vector<std::string>
SplitList(const std::string& text)
{
    std::vector<std::string> items;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        if (!item.empty())
        {
            items.push_back(item);
        }
    }
    return items;
}

/// Prints one optimisation's result.
void
PrintResult(std::ostream& os, const WanTopology& topo, const OptimizerResult& r)
{
    const auto& e = r.evaluation;
    os << std::fixed << std::setprecision(1);
    os << "best schedule (" << r.schedule.GetName() << ", " << r.schedule.GetNRounds()
       << " rounds): " << r.schedule.ToString(topo) << "\n";
    if (e.feasible)
    {
        os << "  T " << e.roundTimeMs << " ms, A " << std::setprecision(3) << e.disagreement
           << ", J " << std::setprecision(0) << e.objective << " ms-error\n";
        os << "  binding: " << e.binding << "\n";
    }
    else
    {
        os << "  infeasible: " << e.binding << "\n";
    }
    if (!r.bestBuiltin.empty())
    {
        os << "  best of the built-in schedules: " << r.bestBuiltin << ", J "
           << std::setprecision(0) << r.builtin.objective << " ms-error\n";
    }
    os << std::defaultfloat << std::setprecision(3) << "  search: " << r.method << ", " << r.steps
       << " steps, " << r.distinct << " distinct schedules of " << r.spaceSize << " (coverage "
       << r.coverage << "), " << r.partitions << " partitions, " << r.roundsPlanned
       << " rounds planned, " << r.seconds << " s\n";
}

int
Run(int argc, char* argv[])
{
    po::options_description options(
        "wan-training-optimise: the rotating-clique schedule with the least J = T x A, and "
        "capability sweeps.\nOptions");
    // clang-format off
    options.add_options()
        ("help,h", "print this help")
        ("topology", po::value<std::string>()->default_value(""),
         "topology file (.json, or a folder with cities.csv and core-links.csv); empty: the "
         "embedded nine-city topology")
        ("synthetic", po::value<uint32_t>()->default_value(0),
         "instead of a file, a random geometric WAN of this many cities")
        ("regions", po::value<uint32_t>()->default_value(4),
         "regions of the synthetic topology")
        ("topology-seed", po::value<uint32_t>()->default_value(1),
         "seed of the synthetic topology")
        ("write-topology", po::value<std::string>()->default_value(""),
         "write the topology used as JSON to this file")
        ("payload-gb", po::value<double>()->default_value(1), "model state D per island, GB")
        ("hbm-gb", po::value<double>()->default_value(0), "FPGA memory per receiver, GB")
        ("access-gbps", po::value<double>(),
         "access rate of every island, Gbps (default: the topology's)")
        ("core-gbps", po::value<double>(),
         "capacity of every core link, Gbps (default: the topology's)")
        ("no-multicast", "unicast copies from each sender")
        ("no-aggregation", "no FPGA aggregation")
        ("max-period", po::value<uint32_t>()->default_value(3), "largest period, rounds")
        ("max-clique", po::value<uint32_t>()->default_value(0),
         "largest clique, islands (0: every island)")
        ("search", po::value<std::string>()->default_value("auto"),
         "auto (enumerate small spaces, anneal large ones), exhaustive or annealing")
        ("exhaustive-limit", po::value<double>()->default_value(50000),
         "largest number of schedules that auto enumerates")
        ("evaluations", po::value<uint32_t>()->default_value(20000), "annealing steps")
        ("seed", po::value<uint32_t>()->default_value(1), "annealing seed")
        ("name", po::value<std::string>()->default_value("optimised"),
         "name of the written schedule")
        ("output", po::value<std::string>()->default_value(""),
         "write the best schedule (JSON) to this file")
        ("sweep", "also sweep the capabilities (FPGA memory, access, core, payload, "
                  "multicast, aggregation), one dimension at a time")
        ("sweep-dimension", po::value<std::string>()->default_value(""),
         "sweep only this dimension: hbm_gb, access_gbps, core_gbps, payload_gb, multicast "
         "or aggregation")
        ("sweep-values", po::value<std::string>()->default_value(""),
         "comma-separated values of --sweep-dimension (e.g. 0,4,32 or off)")
        ("sweep-csv", po::value<std::string>()->default_value(""), "write the sweep as CSV")
        ("sweep-json", po::value<std::string>()->default_value(""), "write the sweep as JSON");
    // clang-format on
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
    if (vm.count("help"))
    {
        std::cout << options << "\n";
        return 0;
    }

    WanTopology topo;
    const auto topoFile = vm["topology"].as<std::string>();
    const auto synthetic = vm["synthetic"].as<uint32_t>();
    if (synthetic > 0 && !topoFile.empty())
    {
        throw std::invalid_argument("--topology and --synthetic exclude each other");
    }
    if (synthetic > 0)
    {
        topo = WanTopology::RandomGeometric(synthetic,
                                            vm["regions"].as<uint32_t>(),
                                            vm["topology-seed"].as<uint32_t>());
    }
    else
    {
        topo = topoFile.empty() ? WanTopology::NineCity() : WanTopology::LoadFile(topoFile);
    }
    PlannerConfig config;
    config.payloadBytes = vm["payload-gb"].as<double>() * 1e9;
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

    CliqueScheduleHelper helper(topo, config);
    helper.SetOptimizerAttribute("MaxPeriod", UintegerValue(vm["max-period"].as<uint32_t>()));
    helper.SetOptimizerAttribute("MaxCliqueSize", UintegerValue(vm["max-clique"].as<uint32_t>()));
    helper.SetOptimizerAttribute("Search", StringValue(vm["search"].as<std::string>()));
    helper.SetOptimizerAttribute("ExhaustiveLimit",
                                 DoubleValue(vm["exhaustive-limit"].as<double>()));
    helper.SetOptimizerAttribute("Evaluations", UintegerValue(vm["evaluations"].as<uint32_t>()));
    helper.SetOptimizerAttribute("Seed", UintegerValue(vm["seed"].as<uint32_t>()));

    // Check every output and sweep option before the long work starts.
    auto endsWith = [](const std::string& path, const std::string& ext) {
        return path.size() > ext.size() &&
               path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
    };
    const auto output = vm["output"].as<std::string>();
    const auto writeTopology = vm["write-topology"].as<std::string>();
    for (const auto& [option, path] :
         {std::make_pair("--output", output), std::make_pair("--write-topology", writeTopology)})
    {
        if (!path.empty() && !endsWith(path, ".json"))
        {
            throw std::invalid_argument(std::string(option) + " file '" + path +
                                        "' must end in .json");
        }
    }
    const auto sweepCsv = vm["sweep-csv"].as<std::string>();
    const auto sweepJson = vm["sweep-json"].as<std::string>();
    if (!sweepCsv.empty() && !endsWith(sweepCsv, ".csv"))
    {
        throw std::invalid_argument("--sweep-csv file '" + sweepCsv + "' must end in .csv");
    }
    if (!sweepJson.empty() && !endsWith(sweepJson, ".json"))
    {
        throw std::invalid_argument("--sweep-json file '" + sweepJson + "' must end in .json");
    }
    const auto dimension = vm["sweep-dimension"].as<std::string>();
    const auto values = SplitList(vm["sweep-values"].as<std::string>());
    if (dimension.empty() != values.empty())
    {
        throw std::invalid_argument("--sweep-dimension and --sweep-values go together");
    }
    const bool sweep = vm.count("sweep") > 0 || !dimension.empty();
    if (!sweep && (!sweepCsv.empty() || !sweepJson.empty()))
    {
        throw std::invalid_argument("--sweep-csv and --sweep-json need --sweep or "
                                    "--sweep-dimension");
    }
    auto settings = dimension.empty() ? helper.DefaultSweep() : helper.Settings(dimension, values);

    if (!writeTopology.empty())
    {
        std::ofstream out(writeTopology);
        if (!(out << topo.ToJson() << "\n"))
        {
            throw std::invalid_argument("cannot write topology file '" + writeTopology + "'");
        }
    }

    std::cout << topo.GetNCities() << " islands, " << topo.GetLinks().size() << " core links\n";
    auto result = helper.Optimize();
    PrintResult(std::cout, topo, result);
    if (!output.empty())
    {
        CliqueSchedule named(vm["name"].as<std::string>(), result.schedule.GetRounds());
        helper.Save(named, output);
        std::cout << "schedule written to " << output << "\n";
    }

    if (sweep)
    {
        std::cout << "\nsweep of " << settings.size() << " capability settings\n";
        auto rows = helper.Sweep(settings, [](size_t done, size_t total) {
            std::cerr << "  " << done << "/" << total << " settings optimised\r" << std::flush;
        });
        std::cerr << "\n";
        std::cout << helper.FormatSweep(rows);
        for (const auto& path : {sweepCsv, sweepJson})
        {
            if (!path.empty())
            {
                helper.WriteSweep(path, rows);
                std::cout << "sweep written to " << path << "\n";
            }
        }
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
        std::cerr << "wan-training-optimise: error: " << e.what() << std::endl;
        return 1;
    }
}
