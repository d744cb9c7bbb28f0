/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_TOOL_OPTIONS_H
#define WAN_TRAINING_TOOL_OPTIONS_H

// What the two Boost.Program_options tools (wan-training-plan and
// wan-training-optimise) share: the planner's capability options, spelt as in
// nine-city-cliques and checked against their ranges, the parsing with --help,
// and the one-line error report.

#include "ns3/round-planner.h"
#include "ns3/wan-training-text.h"

#include <boost/program_options.hpp>
#include <exception>
#include <iostream>
#include <optional>
#include <string>

namespace wantool
{

namespace po = boost::program_options;

/**
 * @brief Declares the planner's capability options: --payload, --hbmGB,
 * --jitterAllowanceMs, --lineRateWindowUs,
 * --accessGbps, --coreGbps, --edgeGbps, --multicast, --aggregation.
 * @param options the tool's options
 */
inline void
AddCapabilityOptions(po::options_description& options)
{
    // clang-format off
    options.add_options()
        ("payload", po::value<double>()->default_value(1e9),
         "model state D per island and round, bytes")
        ("hbmGB", po::value<double>()->default_value(0), "FPGA memory per receiver, GB")
        ("coreReserve", po::value<double>()->default_value(0),
         "share of every core link direction left to other traffic, [0, 1)")
        ("jitterAllowanceMs", po::value<double>()->default_value(0),
         "arrival skew each receiver of two or more streams absorbs in FPGA memory, ms")
        ("lineRateWindowUs",
         po::value<double>()->default_value(ns3::PlannerConfig().lineRateWindow * 1e6),
         "how long an FPGA without memory holds a chunk, us (packet-level skew beyond it "
         "is reported)")
        ("accessGbps", po::value<double>(),
         "access rate of every island, Gbps (default: the topology's)")
        ("coreGbps", po::value<double>(),
         "capacity of every core link, Gbps (default: the topology's)")
        ("edgeGbps", po::value<double>()->default_value(ns3::PlannerConfig().edgeBps / 1e9),
         "rate of every island's edge port (router to the FPGA's edge node), Gbps")
        ("multicast", po::value<bool>()->default_value(true)->implicit_value(true),
         "replicate inside the network (false: unicast copies from each sender)")
        ("aggregation", po::value<bool>()->default_value(true)->implicit_value(true),
         "sum inbound streams on the edge FPGA");
    // clang-format on
}

/**
 * @param vm the parsed options
 * @param option an option's name, without "--"
 * @param range its range
 * @return its value; throws std::invalid_argument naming the option when it is
 *         outside the range
 */
template <typename T>
T
Bounded(const po::variables_map& vm, const std::string& option, const ns3::wantext::Range& range)
{
    const T value = vm[option].as<T>();
    range.Check(static_cast<double>(value), "--" + option);
    return value;
}

/**
 * @param vm the parsed options
 * @return the planner's settings from the capability options
 */
inline ns3::PlannerConfig
CapabilityConfig(const po::variables_map& vm)
{
    namespace bounds = ns3::wantext::bounds;
    ns3::PlannerConfig config;
    config.payloadBytes = Bounded<double>(vm, "payload", bounds::kPayloadBytes);
    config.hbmBytes = Bounded<double>(vm, "hbmGB", bounds::kHbmGB) * 1e9;
    config.jitterAllowance = Bounded<double>(vm, "jitterAllowanceMs", bounds::kJitterMs) / 1e3;
    config.lineRateWindow =
        Bounded<double>(vm, "lineRateWindowUs", bounds::kLineRateWindowUs) / 1e6;
    config.coreReserve = Bounded<double>(vm, "coreReserve", bounds::kLossRate);
    config.edgeBps = Bounded<double>(vm, "edgeGbps", bounds::kRateGbps) * 1e9;
    config.multicast = vm["multicast"].as<bool>();
    config.aggregation = vm["aggregation"].as<bool>();
    if (vm.count("accessGbps"))
    {
        config.accessBps = Bounded<double>(vm, "accessGbps", bounds::kRateGbps) * 1e9;
    }
    if (vm.count("coreGbps"))
    {
        config.coreCapacityBps = Bounded<double>(vm, "coreGbps", bounds::kRateGbps) * 1e9;
    }
    return config;
}

/**
 * @brief Parses the command line; prints the options for --help.
 * @param argc argument count
 * @param argv arguments
 * @param options the tool's options (with "help")
 * @return the parsed options, or nothing when --help was asked (nothing more
 *         to do)
 */
inline std::optional<po::variables_map>
Parse(int argc, char* argv[], const po::options_description& options)
{
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, options), vm);
    po::notify(vm);
    if (vm.count("help"))
    {
        std::cout << options << "\n";
        return std::nullopt;
    }
    return vm;
}

/**
 * @brief A tool's main: parses the options, runs the tool, and reports any
 * error as one line "<program>: error: <message>" with exit status 1.
 * @param argc argument count
 * @param argv arguments
 * @param program the tool's name, for error messages
 * @param options the tool's options (with "help")
 * @param run the tool, given the parsed options; returns the exit status
 * @return the exit status
 */
inline int
Main(int argc,
     char* argv[],
     const std::string& program,
     po::options_description (*options)(),
     int (*run)(const po::variables_map&))
{
    try
    {
        const auto parsed = Parse(argc, argv, options());
        return parsed ? run(*parsed) : 0;
    }
    catch (const std::exception& e)
    {
        std::cerr << program << ": error: " << e.what() << std::endl;
        return 1;
    }
}

} // namespace wantool

#endif /* WAN_TRAINING_TOOL_OPTIONS_H */
