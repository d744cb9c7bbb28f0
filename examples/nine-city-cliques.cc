/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * The paper's table on the nine-city topology: for each schedule of rotating
 * cliques (pairs, regional, triangles, all-to-all), without FPGA memory and
 * with 32 GB, whether a round time exists, the round time T, the average
 * lifetime disagreement A and the objective J = T x A, with what binds T;
 * then the comparison with synchronous SGD.
 *
 *   ./ns3 run nine-city-cliques
 *   ./ns3 run nine-city-cliques -- --hbmGB=0,8,32 --multicast=false
 *   ./ns3 run nine-city-cliques -- --topology=my.json --scheduleFile=s.json --output=t.csv
 */

#include "ns3/core-module.h"
#include "ns3/wan-training-module.h"

#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <tuple>

using namespace ns3;

NS_LOG_COMPONENT_DEFINE("NineCityCliques");

namespace
{

/// Parses "a,b,c" into numbers; `what` names the option in errors.
std::vector<double>
ParseList(const std::string& text, const std::string& what)
{
    std::vector<double> values;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ','))
    {
        std::size_t used = 0;
        double v = 0;
        try
        {
            v = std::stod(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used == 0 || used != item.size())
        {
            throw std::invalid_argument(what + ": '" + item + "' is not a number");
        }
        values.push_back(v);
    }
    if (values.empty())
    {
        throw std::invalid_argument(what + " is empty");
    }
    return values;
}

/// Parses one number given as text; "" keeps the default.
std::optional<double>
ParseOptional(const std::string& text, const std::string& what)
{
    if (text.empty())
    {
        return std::nullopt;
    }
    auto values = ParseList(text, what);
    if (values.size() != 1)
    {
        throw std::invalid_argument(what + " takes one number");
    }
    return values[0];
}

/// Splits "x@a-b" into x, a and b; throws naming the option otherwise.
std::tuple<std::string, std::string, std::string>
ParseFault(const std::string& item, const std::string& option)
{
    const auto at = item.find('@');
    const auto dash = item.find('-', at == std::string::npos ? 0 : at + 1);
    if (at == std::string::npos || at == 0)
    {
        throw std::invalid_argument("--" + option + ": \"" + item + "\" is not NAME@...");
    }
    std::string name = item.substr(0, at);
    std::string first =
        item.substr(at + 1, dash == std::string::npos ? std::string::npos : dash - at - 1);
    std::string second = dash == std::string::npos ? "" : item.substr(dash + 1);
    return {name, first, second};
}

/// \return the text as one number; throws naming the option otherwise
double
ParseNumber(const std::string& text, const std::string& option)
{
    auto value = ParseOptional(text, "--" + option);
    if (!value)
    {
        throw std::invalid_argument("--" + option + ": a number is missing");
    }
    return *value;
}

/// Adds the faults of the command line to an experiment.
void
ApplyFaults(CliqueExperimentHelper& experiment,
            const std::string& linkFaults,
            const std::string& faultPolicy,
            const std::string& fpgaFaults,
            const std::string& away)
{
    experiment.SetFaultPolicy(faultPolicy);
    auto items = [](const std::string& text) {
        std::vector<std::string> out;
        std::stringstream in(text);
        for (std::string item; std::getline(in, item, ',');)
        {
            if (!item.empty())
            {
                out.push_back(item);
            }
        }
        return out;
    };
    for (const auto& item : items(linkFaults))
    {
        auto [link, down, up] = ParseFault(item, "linkFaults");
        const auto dash = link.find('-');
        if (dash == std::string::npos || up.empty())
        {
            throw std::invalid_argument("--linkFaults: \"" + item + "\" is not A-B@down-up");
        }
        experiment.AddLinkFault(link.substr(0, dash),
                                link.substr(dash + 1),
                                ParseNumber(down, "linkFaults"),
                                ParseNumber(up, "linkFaults"));
    }
    for (const auto& item : items(fpgaFaults))
    {
        auto [city, at, unused] = ParseFault(item, "fpgaFaults");
        experiment.AddFpgaFault(city, ParseNumber(at, "fpgaFaults"));
    }
    for (const auto& item : items(away))
    {
        auto [city, first, last] = ParseFault(item, "away");
        experiment.AddIslandAbsence(
            city,
            static_cast<uint32_t>(ParseNumber(first, "away")),
            static_cast<uint32_t>(ParseNumber(last.empty() ? first : last, "away")));
    }
}

int
Run(int argc, char* argv[])
{
    std::string topologyFile;
    std::string schedules = "all";
    std::string scheduleFile;
    double payloadBytes = 1e9;
    std::string accessGbps;
    std::string coreGbps;
    bool multicast = true;
    bool aggregation = true;
    std::string hbmGB = "0,32";
    double computeMs = 250;
    double stalenessMs = 1000;
    bool includeNewborn = true;
    bool normalise = true;
    double forgetting = 1.0;
    std::string target;
    std::string output;
    bool packetLevel = true;
    std::string packetSchedule = "triangles";
    double packetHbmGB = 0;
    double scale = 100;
    uint32_t rounds = 0;
    bool baselines = true;
    WanLinkImpairment impairment;
    std::string lossLinks = "core";
    std::string jitterLinks = "core";
    double jitterMs = 0;
    std::string recovery = "accept";
    std::string linkFaults;
    std::string faultPolicy = "replan";
    std::string fpgaFaults;
    std::string away;

    CommandLine cmd(__FILE__);
    cmd.Usage("Plans rotating-clique schedules on a WAN and prints the paper's table.");
    cmd.AddValue("topology",
                 "Topology file (.json, or a folder with cities.csv and core-links.csv); "
                 "empty: the embedded nine-city topology",
                 topologyFile);
    cmd.AddValue("schedule",
                 "Built-in schedules to compare: all, or a comma list of pairs, regional, "
                 "triangles, all-to-all",
                 schedules);
    cmd.AddValue("scheduleFile", "A schedule file (JSON) to compare as well", scheduleFile);
    cmd.AddValue("payload", "Model state D sent per island and round, bytes", payloadBytes);
    cmd.AddValue("accessGbps",
                 "Access rate of every island, Gbps (empty: the topology's)",
                 accessGbps);
    cmd.AddValue("coreGbps", "Capacity of every core link, Gbps (empty: the topology's)", coreGbps);
    cmd.AddValue("multicast", "Replicate inside the network (false: unicast copies)", multicast);
    cmd.AddValue("aggregation", "Sum inbound streams on the edge FPGA", aggregation);
    cmd.AddValue("hbmGB", "FPGA memory sizes to compare, GB (comma list)", hbmGB);
    cmd.AddValue("computeMs", "Compute time per training step, ms (synchronous SGD)", computeMs);
    cmd.AddValue("stalenessMs",
                 "Staleness tolerated, ms (synchronous SGD comparison)",
                 stalenessMs);
    cmd.AddValue("h0", "Count the newborn term h = 0 in A", includeNewborn);
    cmd.AddValue("normalise", "Normalise each generation's error to 1 at birth", normalise);
    cmd.AddValue("forgetting", "Forgetting discount rho in (0, 1]", forgetting);
    cmd.AddValue("target", "Target shares pi (comma list summing to 1; empty: uniform)", target);
    cmd.AddValue("output", "Write the table to this file (.json or .csv)", output);
    cmd.AddValue("packetLevel", "Also simulate a schedule packet by packet", packetLevel);
    cmd.AddValue("packetSchedule",
                 "Schedule(s) to simulate: a built-in name, a schedule file (.json), all, "
                 "or a comma list",
                 packetSchedule);
    cmd.AddValue("lossRate",
                 "Packet-level: packet loss probability on the lossLinks, [0, 1]",
                 impairment.lossRate);
    cmd.AddValue("lossBurst",
                 "Packet-level: mean packets per loss event (1: independent losses)",
                 impairment.burstLength);
    cmd.AddValue("lossLinks",
                 "Packet-level: links that lose packets: comma list of core, access, post",
                 lossLinks);
    cmd.AddValue("jitterMs",
                 "Packet-level: standard deviation of each packet's extra delay, ms",
                 jitterMs);
    cmd.AddValue("jitterDistribution",
                 "Packet-level: exponential, uniform or normal",
                 impairment.jitterDistribution);
    cmd.AddValue("reorder", "Packet-level: jitter may reorder packets", impairment.reorder);
    cmd.AddValue("jitterLinks",
                 "Packet-level: links with jitter: comma list of core, access",
                 jitterLinks);
    cmd.AddValue("recovery",
                 "Packet-level: at a round's deadline, accept missing contributions or "
                 "rerequest them from their senders",
                 recovery);
    cmd.AddValue("linkFaults",
                 "Packet-level: link outages, comma list of A-B@down-up (seconds), "
                 "e.g. NYC-LON@1.25-2",
                 linkFaults);
    cmd.AddValue("faultPolicy",
                 "Packet-level: rounds during an outage are replan(ned) or fail(ed)",
                 faultPolicy);
    cmd.AddValue("fpgaFaults",
                 "Packet-level: FPGA failures, comma list of CITY@time (seconds)",
                 fpgaFaults);
    cmd.AddValue("away",
                 "Packet-level: islands away, comma list of CITY@first-last (rounds from 0)",
                 away);
    cmd.AddValue("packetHbmGB", "FPGA memory of the packet-level run, GB", packetHbmGB);
    cmd.AddValue("scale",
                 "Time-preserving scale of the packet-level run: D and every rate / scale",
                 scale);
    cmd.AddValue("rounds", "Rounds to simulate (0: one period)", rounds);
    cmd.AddValue("baselines", "Also simulate the no-multicast and no-FPGA baselines", baselines);
    cmd.Parse(argc, argv);
    if (!output.empty())
    {
        ScheduleComparisonHelper::CheckOutputPath(output); // fail before the work
    }

    ScheduleComparisonHelper helper;
    if (!topologyFile.empty())
    {
        helper.SetTopology(WanTopology::LoadFile(topologyFile));
    }
    const auto& topo = helper.GetTopology();

    // Loss and jitter per link class, checked before anything runs.
    impairment.jitterSeconds = jitterMs * 1e-3;
    std::map<WanNetworkHelper::LinkClass, WanLinkImpairment> impairments;
    auto classes = [](const std::string& text) {
        std::vector<WanNetworkHelper::LinkClass> out;
        std::stringstream in(text);
        for (std::string item; std::getline(in, item, ',');)
        {
            if (!item.empty())
            {
                out.push_back(WanNetworkHelper::ParseLinkClass(item));
            }
        }
        return out;
    };
    for (auto linkClass : classes(lossLinks))
    {
        impairments[linkClass].lossRate = impairment.lossRate;
        impairments[linkClass].burstLength = impairment.burstLength;
    }
    for (auto linkClass : classes(jitterLinks))
    {
        impairments[linkClass].jitterSeconds = impairment.jitterSeconds;
        impairments[linkClass].jitterDistribution = impairment.jitterDistribution;
        impairments[linkClass].reorder = impairment.reorder;
    }
    for (const auto& [linkClass, imp] : impairments)
    {
        WanNetworkHelper(topo).SetImpairment(linkClass, imp);
    }
    {
        CliqueExperimentHelper check(topo, PlannerConfig{});
        check.SetRecovery(recovery);
        ApplyFaults(check, linkFaults, faultPolicy, fpgaFaults, away);
    }

    PlannerConfig config;
    config.payloadBytes = payloadBytes;
    config.multicast = multicast;
    config.aggregation = aggregation;
    if (auto a = ParseOptional(accessGbps, "accessGbps"))
    {
        config.accessBps = *a * 1e9;
    }
    if (auto c = ParseOptional(coreGbps, "coreGbps"))
    {
        config.coreCapacityBps = *c * 1e9;
    }
    helper.SetPlannerConfig(config);

    MixingOptions mixing;
    mixing.includeNewborn = includeNewborn;
    mixing.normalise = normalise;
    mixing.forgetting = forgetting;
    if (!target.empty())
    {
        mixing.target = ParseList(target, "target");
    }
    helper.SetMixingOptions(mixing);

    std::vector<CliqueSchedule> chosen;
    if (schedules == "all")
    {
        chosen = helper.GetSchedules();
    }
    else if (!schedules.empty())
    {
        std::stringstream in(schedules);
        std::string name;
        while (std::getline(in, name, ','))
        {
            chosen.push_back(CliqueSchedule::Builtin(name, topo));
        }
    }
    if (!scheduleFile.empty())
    {
        chosen.push_back(CliqueSchedule::LoadFile(scheduleFile, topo));
    }
    if (chosen.empty())
    {
        throw std::invalid_argument("no schedule to compare");
    }
    helper.SetSchedules(chosen);

    std::vector<double> hbmBytes;
    for (double gb : ParseList(hbmGB, "hbmGB"))
    {
        if (!(gb >= 0))
        {
            throw std::invalid_argument("hbmGB: FPGA memory must be zero or positive (got " +
                                        std::to_string(gb) + ")");
        }
        hbmBytes.push_back(gb * 1e9);
    }
    if (!(computeMs > 0))
    {
        throw std::invalid_argument("computeMs must be positive");
    }
    if (!(stalenessMs >= 0))
    {
        throw std::invalid_argument("stalenessMs must be zero or positive");
    }

    auto rows = helper.Compare(hbmBytes);
    auto sync = helper.CompareSynchronous(computeMs / 1e3, stalenessMs / 1e3);

    std::cout << "Topology: " << topo.GetNCities() << " islands, " << topo.GetLinks().size()
              << " core links; D = " << payloadBytes / 1e9 << " GB, multicast "
              << (multicast ? "on" : "off") << ", FPGA aggregation " << (aggregation ? "on" : "off")
              << "\n";
    for (const auto& s : helper.GetSchedules())
    {
        std::cout << "  " << s.GetName() << ": " << s.ToString(topo) << "\n";
    }
    std::cout << "\n" << helper.FormatTable(rows, sync);
    if (!output.empty())
    {
        helper.Write(output, rows, sync);
        std::cout << "Wrote " << output << "\n";
    }
    if (!packetLevel)
    {
        return 0;
    }

    std::vector<std::string> names;
    std::stringstream list(packetSchedule == "all" ? "pairs,regional,triangles,all-to-all"
                                                   : packetSchedule);
    for (std::string name; std::getline(list, name, ',');)
    {
        names.push_back(name);
    }
    std::cout << "\nPacket level (scale " << scale << ": D and rates / " << scale
              << ", times kept; FPGA memory " << packetHbmGB << " GB)\n";

    struct Variant
    {
        const char* label;
        bool multicast;
        bool aggregation;
    };

    for (const auto& name : names)
    {
        const bool isFile = name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0;
        auto schedule =
            isFile ? CliqueSchedule::LoadFile(name, topo) : CliqueSchedule::Builtin(name, topo);
        std::vector<Variant> variants{{"multicast + FPGA", true, true}};
        if (baselines)
        {
            variants.push_back({"no multicast", false, true});
            variants.push_back({"no FPGA", true, false});
        }
        for (const auto& v : variants)
        {
            PlannerConfig c = config;
            c.hbmBytes = packetHbmGB * 1e9;
            c.multicast = v.multicast && multicast;
            c.aggregation = v.aggregation && aggregation;
            CliqueExperimentHelper experiment(topo, c);
            experiment.SetScale(scale);
            for (const auto& [linkClass, imp] : impairments)
            {
                experiment.SetImpairment(linkClass, imp);
            }
            experiment.SetRecovery(recovery);
            ApplyFaults(experiment, linkFaults, faultPolicy, fpgaFaults, away);
            if (rounds > 0)
            {
                experiment.SetRounds(rounds);
            }
            std::cout << name << ", " << v.label << ":\n"
                      << CliqueExperimentHelper::Format(experiment.Run(schedule), topo);
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
        std::cerr << "nine-city-cliques: error: " << e.what() << std::endl;
        return 1;
    }
}
