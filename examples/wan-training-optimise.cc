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
 *   ./ns3 run "wan-training-optimise --hbmGB=32 --output=best.json"
 *   ./ns3 run "wan-training-optimise --sweep --sweepCsv=sweep.csv --sweepJson=sweep.json"
 *   ./ns3 run "wan-training-optimise --synthetic=32 --regions=4 --evaluations=5000"
 */

#include "wan-option-rules.h"
#include "wan-training-tool-options.h"

#include "ns3/core-module.h"
#include "ns3/wan-training-module.h"
#include "ns3/wan-training-text.h"

#include <iomanip>
#include <iostream>
#include <tuple>
#include <vector>

using namespace ns3;
namespace po = wantool::po;
namespace bounds = wantext::bounds;

namespace
{

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
    for (const auto& [what, p] : {std::pair{"best schedule", r.predicted},
                                  std::pair{"best built-in schedule", r.builtinPredicted}})
    {
        os << std::defaultfloat << std::setprecision(4) << "  predicted time to target (" << what
           << "): ";
        if (p.reachable)
        {
            os << p.seconds << " s, " << p.rounds << " rounds\n";
        }
        else
        {
            os << "never (the gap settles at " << p.floorGap << ")\n";
        }
    }
    os << std::defaultfloat << std::setprecision(3) << "  search: " << r.method << ", " << r.steps
       << " steps, " << r.distinct << " distinct schedules of " << r.spaceSize << " (coverage "
       << r.coverage << "), " << r.partitions << " partitions, " << r.roundsPlanned
       << " rounds planned, " << r.seconds << " s\n";
}

/// @return the options, spelt as in nine-city-cliques
po::options_description
Options()
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
        ("synthetic", po::value<int64_t>()->default_value(0),
         "instead of a file, a random geometric WAN of this many cities (2 to 1000)")
        ("regions", po::value<int64_t>()->default_value(4),
         "regions of the synthetic topology")
        ("topologySeed", po::value<uint32_t>()->default_value(1),
         "seed of the synthetic topology")
        ("writeTopology", po::value<std::string>()->default_value(""),
         "write the topology used as JSON to this file");
    wantool::AddCapabilityOptions(options);
    options.add_options()
        ("maxPeriod", po::value<int64_t>()->default_value(3), "largest period, rounds")
        ("maxClique", po::value<int64_t>()->default_value(0),
         "largest clique, islands (0: every island)")
        ("search", po::value<std::string>()->default_value("auto"),
         "auto (enumerate small spaces, anneal large ones), exhaustive or annealing")
        ("exhaustiveLimit", po::value<double>()->default_value(50000),
         "largest number of schedules that auto enumerates")
        ("evaluations", po::value<int64_t>()->default_value(20000), "annealing steps")
        ("seed", po::value<uint32_t>()->default_value(1), "annealing seed")
        ("objective", po::value<std::string>()->default_value("j"),
         "what the search minimises: j (J = T x A, the paper's) or time (the predicted time "
         "to target of a workload, WanTimeToTargetPredictor)")
        ("workload", po::value<std::string>()->default_value("quadratic"),
         "the workload whose time to target is predicted (and minimised with "
         "--objective=time): quadratic or logistic (WanTrainingLoop's, with its other "
         "defaults)")
        ("localSteps", po::value<int64_t>()->default_value(1),
         "prediction: H, local steps between two averagings")
        ("computeMs", po::value<double>()->default_value(0),
         "prediction: C, compute time of one local step, ms")
        ("stepSize", po::value<double>()->default_value(0.1),
         "prediction: eta, the local step size")
        ("gradientNoise", po::value<double>()->default_value(0),
         "prediction: standard deviation of the gradients' noise per coordinate")
        ("targetShare", po::value<double>()->default_value(0.05),
         "prediction: the target gap, a share of the initial gap to f*")
        ("name", po::value<std::string>()->default_value("optimised"),
         "name of the written schedule")
        ("output", po::value<std::string>()->default_value(""),
         "write the best schedule (JSON) to this file")
        ("sweep", po::value<bool>()->default_value(false)->implicit_value(true),
         "also sweep the capabilities (FPGA memory, access, core, payload, multicast, "
         "aggregation), one dimension at a time")
        ("sweepDimension", po::value<std::string>()->default_value(""),
         "sweep only this dimension: hbm_gb, access_gbps, core_gbps, payload_gb, multicast "
         "or aggregation")
        ("sweepValues", po::value<std::string>()->default_value(""),
         "comma-separated values of --sweepDimension (e.g. 0,4,32 or off)")
        ("sweepCsv", po::value<std::string>()->default_value(""), "write the sweep as CSV")
        ("sweepJson", po::value<std::string>()->default_value(""), "write the sweep as JSON");
    // clang-format on
    return options;
}

/// @return a count option (read as a signed number, so that -1 is not 2^32 - 1) in its range
uint32_t
Count(const po::variables_map& vm, const std::string& option, const wantext::Range& range)
{
    return static_cast<uint32_t>(wantool::Bounded<int64_t>(vm, option, range));
}

/// @return the topology file, the synthetic topology or the nine cities
WanTopology
LoadTopology(const po::variables_map& vm)
{
    const auto file = vm["topology"].as<std::string>();
    const auto synthetic = vm["synthetic"].as<int64_t>();
    if (synthetic == 0)
    {
        return file.empty() ? WanTopology::NineCity() : WanTopology::LoadFile(file);
    }
    if (!file.empty())
    {
        throw std::invalid_argument("--topology and --synthetic exclude each other");
    }
    return WanTopology::RandomGeometric(Count(vm, "synthetic", bounds::kCities),
                                        Count(vm, "regions", bounds::kRegions),
                                        vm["topologySeed"].as<uint32_t>());
}

/**
 * @brief The options table: the options only some runs use, whether each was
 * given and whether this run uses it.  Without --synthetic its options are
 * refused; the search's budget options are warned of when the search chosen
 * does not use them.
 * @param vm the parsed options
 * @return the rules, for wanopt::CheckOptionRules
 */
std::vector<wanopt::OptionRule>
OptionRules(const po::variables_map& vm)
{
    const auto given = [&vm](const char* option) { return !vm[option].defaulted(); };
    const bool synthetic = vm["synthetic"].as<int64_t>() != 0;
    const auto search = vm["search"].as<std::string>();
    return {
        {"--regions", given("regions"), synthetic, "--synthetic", true},
        {"--topologySeed", given("topologySeed"), synthetic, "--synthetic", true},
        {"--exhaustiveLimit", given("exhaustiveLimit"), search == "auto", "--search=auto", false},
        {"--evaluations",
         given("evaluations"),
         search != "exhaustive",
         "--search=annealing or auto",
         false},
        {"--seed", given("seed"), search != "exhaustive", "--search=annealing or auto", false},
        {"--name", given("name"), !vm["output"].as<std::string>().empty(), "--output", false},
    };
}

/// Sets the search's bounds and budget from the options.
void
ConfigureSearch(CliqueScheduleHelper& helper, const po::variables_map& vm)
{
    helper.SetOptimizerAttribute("MaxPeriod",
                                 UintegerValue(Count(vm, "maxPeriod", bounds::kPeriod)));
    helper.SetOptimizerAttribute("MaxCliqueSize",
                                 UintegerValue(Count(vm, "maxClique", bounds::kCliqueSize)));
    helper.SetOptimizerAttribute("Search", StringValue(vm["search"].as<std::string>()));
    helper.SetOptimizerAttribute(
        "ExhaustiveLimit",
        DoubleValue(wantool::Bounded<double>(vm, "exhaustiveLimit", bounds::kExhaustiveLimit)));
    helper.SetOptimizerAttribute("Evaluations",
                                 UintegerValue(Count(vm, "evaluations", bounds::kEvaluations)));
    helper.SetOptimizerAttribute("Seed", UintegerValue(vm["seed"].as<uint32_t>()));
}

/**
 * @brief The time-to-target objective of the options: the workload's
 * constants (WanTrainingLoop's workload at the run's RngRun), H, C, eta and
 * the target as a share of the initial gap.
 * @param vm the parsed options
 * @param n the topology's islands
 * @return the objective (with --objective=j too: its predictions are
 *         printed beside J); throws on bad values
 */
ScheduleTimeObjective
TimeObjective(const po::variables_map& vm, uint32_t n)
{
    const auto objective = vm["objective"].as<std::string>();
    if (objective != "j" && objective != "time")
    {
        throw std::invalid_argument("--objective must be j or time (got '" + objective + "')");
    }
    WanPredictorTraining training;
    training.localSteps = Count(vm, "localSteps", bounds::kLocalSteps);
    training.computeS = wantool::Bounded<double>(vm, "computeMs", bounds::kStepComputeMs) / 1e3;
    training.stepSize = wantool::Bounded<double>(vm, "stepSize", bounds::kStepSize);
    const double noise = wantool::Bounded<double>(vm, "gradientNoise", bounds::kGradientNoise);
    const double share = wantool::Bounded<double>(vm, "targetShare", bounds::kTargetShare);
    WanTrainingLoop loop;
    loop.SetWorkload(vm["workload"].as<std::string>());
    loop.SetAttribute("StepSize", DoubleValue(training.stepSize));
    loop.SetAttribute("LocalSteps", UintegerValue(training.localSteps));
    loop.SetAttribute("GradientNoise", DoubleValue(noise));
    const auto start = loop.MakeTraining(n);
    std::vector<std::vector<double>> models;
    for (uint32_t i = 0; i < n; ++i)
    {
        models.push_back(start.GetModel(i));
    }
    const auto constants = WanWorkloadConstants::Of(start.GetWorkload(), models, noise * noise);
    const double gap = start.GetHistory().front().modelLoss - start.GetWorkload().GetMinimumLoss();
    return ScheduleTimeObjective(constants, training, share * gap);
}

/// The files to write and the sweep to run, checked before the long work.
struct Outputs
{
    std::string schedule;            //!< --output
    std::string topology;            //!< --writeTopology
    std::string sweepCsv;            //!< --sweepCsv
    std::string sweepJson;           //!< --sweepJson
    bool sweep{false};               //!< a sweep runs
    std::string dimension;           //!< --sweepDimension
    std::vector<std::string> values; //!< --sweepValues
};

/// @return the outputs and sweep of the options; throws on a wrong extension or pairing
Outputs
CheckOutputs(const po::variables_map& vm)
{
    Outputs out;
    out.schedule = vm["output"].as<std::string>();
    out.topology = vm["writeTopology"].as<std::string>();
    out.sweepCsv = vm["sweepCsv"].as<std::string>();
    out.sweepJson = vm["sweepJson"].as<std::string>();
    for (const auto& [option, path, ext] :
         {std::make_tuple("--output", out.schedule, ".json"),
          std::make_tuple("--writeTopology", out.topology, ".json"),
          std::make_tuple("--sweepCsv", out.sweepCsv, ".csv"),
          std::make_tuple("--sweepJson", out.sweepJson, ".json")})
    {
        if (!path.empty() && !wantext::EndsWith(path, ext))
        {
            throw std::invalid_argument(std::string(option) + " file '" + path + "' must end in " +
                                        ext);
        }
    }
    out.dimension = vm["sweepDimension"].as<std::string>();
    out.values = wantext::SplitList(vm["sweepValues"].as<std::string>());
    if (out.dimension.empty() != out.values.empty())
    {
        throw std::invalid_argument("--sweepDimension and --sweepValues go together");
    }
    out.sweep = vm["sweep"].as<bool>() || !out.dimension.empty();
    if (!out.sweep && (!out.sweepCsv.empty() || !out.sweepJson.empty()))
    {
        throw std::invalid_argument("--sweepCsv and --sweepJson need --sweep or --sweepDimension");
    }
    return out;
}

/// Runs the capability sweep, prints it and writes its files.
void
RunSweep(const CliqueScheduleHelper& helper,
         const std::vector<CapabilitySetting>& settings,
         const Outputs& out)
{
    std::cout << "\nsweep of " << settings.size() << " capability settings\n";
    auto rows = helper.Sweep(settings, [](size_t done, size_t total) {
        std::cerr << "  " << done << "/" << total << " settings optimised\r" << std::flush;
    });
    std::cerr << "\n";
    std::cout << helper.FormatSweep(rows);
    for (const auto& path : {out.sweepCsv, out.sweepJson})
    {
        if (!path.empty())
        {
            helper.WriteSweep(path, rows);
            std::cout << "sweep written to " << path << "\n";
        }
    }
}

int
Run(const po::variables_map& vm)
{
    // Every option is checked before the long work starts.
    const PlannerConfig config = wantool::CapabilityConfig(vm);
    const auto out = CheckOutputs(vm);
    wanopt::CheckOptionRules(OptionRules(vm), "wan-training-optimise", false, std::cerr);
    const WanTopology topo = LoadTopology(vm);
    CliqueScheduleHelper helper(topo, config);
    ConfigureSearch(helper, vm);
    const auto time = TimeObjective(vm, topo.GetNCities());
    const bool byTime = vm["objective"].as<std::string>() == "time";
    if (byTime)
    {
        helper.SetTimeObjective(time);
    }
    auto settings =
        out.dimension.empty() ? helper.DefaultSweep() : helper.Settings(out.dimension, out.values);
    if (!out.topology.empty())
    {
        wantext::WriteFile(out.topology, topo.ToJson() + "\n");
    }

    std::cout << topo.GetNCities() << " islands, " << topo.GetLinks().size() << " core links\n";
    auto result = helper.Optimize();
    if (!byTime)
    {
        // Minimising J: the predicted times of what it found, for comparison.
        result.predicted = time.Predict(result.schedule.GetRounds(), result.evaluation);
        if (!result.bestBuiltin.empty())
        {
            result.builtinPredicted =
                time.Predict(helper.Builtin(result.bestBuiltin).GetRounds(), result.builtin);
        }
    }
    PrintResult(std::cout, topo, result);
    if (!out.schedule.empty())
    {
        CliqueSchedule named(vm["name"].as<std::string>(), result.schedule.GetRounds());
        helper.Save(named, out.schedule);
        std::cout << "schedule written to " << out.schedule << "\n";
    }
    if (out.sweep)
    {
        RunSweep(helper, settings, out);
    }
    return 0;
}

} // namespace

int
main(int argc, char* argv[])
{
    return wantool::Main(argc, argv, "wan-training-optimise", Options, Run);
}
