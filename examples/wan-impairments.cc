/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * Sweeps loss and jitter at packet level: for each schedule, the round time
 * against the lossless run (inflation) and the delivery figures (expected,
 * delivered, re-requested, recovered, given up), as a table and optionally
 * a CSV file.
 *
 *   ./ns3 run wan-impairments
 *   ./ns3 run "wan-impairments --loss=0,0.01 --jitterMs=10 --recovery=accept"
 *   ./ns3 run "wan-impairments --output=impairments.csv"
 */

#include "ns3/core-module.h"
#include "ns3/wan-training-module.h"

#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <stdexcept>

using namespace ns3;

namespace
{

/// Splits "a,b,c" into numbers.
std::vector<double>
Numbers(const std::string& text, const std::string& option)
{
    std::vector<double> out;
    if (text == "none")
    {
        return out;
    }
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');)
    {
        size_t used = 0;
        double x = 0;
        try
        {
            x = std::stod(item, &used);
        }
        catch (const std::exception&)
        {
            used = 0;
        }
        if (used == 0 || used != item.size())
        {
            throw std::invalid_argument("--" + option + ": \"" + item + "\" is not a number");
        }
        out.push_back(x);
    }
    return out;
}

/// One run's figures.
struct Row
{
    std::string schedule;
    double hbmGB{0};
    std::string impairment;
    double plannedMs{0};
    double measuredMs{0};
    double inflation{0};
    uint64_t expected{0};
    uint64_t delivered{0};
    uint64_t late{0};
    uint64_t requested{0};
    uint64_t recovered{0};
    uint64_t givenUp{0};
    uint64_t lost{0};
    bool exact{false};
};

/// Sums a run's rounds and islands.
Row
Summarise(const ExperimentResult& r)
{
    Row row;
    row.exact = r.exact;
    for (const auto& round : r.rounds)
    {
        row.plannedMs = std::max(row.plannedMs, round.plannedMs);
        row.measuredMs = std::max(row.measuredMs, round.measuredMs);
        const auto total = CliqueExperimentHelper::Total(round);
        row.expected += total.expected;
        row.delivered += total.delivered;
        row.late += total.late;
        row.requested += total.requested;
        row.recovered += total.recovered;
        row.givenUp += total.givenUp;
    }
    for (const auto& [where, n] : r.lostPackets)
    {
        row.lost += n;
    }
    return row;
}

int
Run(int argc, char* argv[])
{
    std::string schedules = "triangles,all-to-all";
    std::string loss = "0.001,0.01,0.05";
    std::string jitter = "1,10";
    std::string lossLinks = "core,access,post";
    std::string recovery = "rerequest";
    double scale = 1000;
    uint32_t rounds = 2;
    uint32_t maxRequests = 20;
    std::string output;

    CommandLine cmd(__FILE__);
    cmd.Usage("Packet-level loss and jitter sweep: round-time inflation and delivery per "
              "schedule.  Triangles runs without FPGA memory, all-to-all with 32 GB.");
    cmd.AddValue("schedules", "Comma list of built-in schedules", schedules);
    cmd.AddValue("loss",
                 "Loss rates to sweep (comma list, on the lossLinks; none: no loss runs)",
                 loss);
    cmd.AddValue("lossLinks",
                 "Links that lose packets: comma list of core, access, post",
                 lossLinks);
    cmd.AddValue("jitterMs",
                 "Jitter standard deviations to sweep, ms (comma list, exponential, on core "
                 "links, FIFO; none: no jitter runs)",
                 jitter);
    cmd.AddValue("recovery", "accept or rerequest", recovery);
    cmd.AddValue("scale", "Time-preserving scale (D and rates / scale)", scale);
    cmd.AddValue("rounds", "Rounds per run", rounds);
    cmd.AddValue("maxRequests",
                 "Requests per missing contribution before it is given up",
                 maxRequests);
    cmd.AddValue("output", "Write the table as CSV to this file", output);
    cmd.Parse(argc, argv);
    Config::SetDefault("ns3::WanIslandApplication::MaxRequests", UintegerValue(maxRequests));

    auto topo = WanTopology::NineCity();
    std::vector<std::pair<std::string,
                          std::vector<std::pair<WanNetworkHelper::LinkClass, WanLinkImpairment>>>>
        settings{{"none", {}}};
    for (double rate : Numbers(loss, "loss"))
    {
        WanLinkImpairment imp;
        imp.lossRate = rate;
        std::vector<std::pair<WanNetworkHelper::LinkClass, WanLinkImpairment>> classes;
        std::stringstream in(lossLinks);
        for (std::string item; std::getline(in, item, ',');)
        {
            classes.emplace_back(WanNetworkHelper::ParseLinkClass(item), imp);
        }
        std::ostringstream label;
        label << "loss " << rate * 100 << "%";
        settings.emplace_back(label.str(), classes);
    }
    for (double ms : Numbers(jitter, "jitterMs"))
    {
        WanLinkImpairment imp;
        imp.jitterSeconds = ms * 1e-3;
        std::ostringstream label;
        label << "jitter " << ms << " ms";
        settings.emplace_back(
            label.str(),
            std::vector<std::pair<WanNetworkHelper::LinkClass, WanLinkImpairment>>{
                {WanNetworkHelper::CORE, imp}});
    }
    if (!output.empty())
    {
        ScheduleComparisonHelper::CheckOutputPath(output);
    }

    std::vector<Row> rows;
    std::stringstream list(schedules);
    for (std::string name; std::getline(list, name, ',');)
    {
        auto schedule = CliqueSchedule::Builtin(name, topo);
        PlannerConfig config;
        config.hbmBytes = name == "all-to-all" ? 32e9 : 0;
        double baseline = 0;
        for (const auto& [label, classes] : settings)
        {
            CliqueExperimentHelper experiment(topo, config);
            experiment.SetScale(scale);
            experiment.SetRounds(rounds);
            experiment.SetRecovery(recovery);
            for (const auto& [linkClass, imp] : classes)
            {
                experiment.SetImpairment(linkClass, imp);
            }
            auto row = Summarise(experiment.Run(schedule));
            row.schedule = name;
            row.hbmGB = config.hbmBytes / 1e9;
            row.impairment = label;
            if (label == "none")
            {
                baseline = row.measuredMs;
            }
            row.inflation = 100 * (row.measuredMs / baseline - 1);
            rows.push_back(row);
            std::cerr << "  " << name << ", " << label << " done\r" << std::flush;
        }
    }
    std::cerr << "\n";

    std::cout << std::left << std::setw(12) << "schedule" << std::setw(6) << "HBM" << std::setw(13)
              << "impairment" << std::right << std::setw(10) << "T plan ms" << std::setw(11)
              << "T meas ms" << std::setw(11) << "inflation" << std::setw(9) << "expected"
              << std::setw(10) << "delivered" << std::setw(6) << "late" << std::setw(11)
              << "requested" << std::setw(10) << "recovered" << std::setw(9) << "given up"
              << std::setw(8) << "lost"
              << "  sums\n";
    std::cout << std::fixed;
    for (const auto& r : rows)
    {
        std::cout << std::left << std::setw(12) << r.schedule << std::setw(6)
                  << std::setprecision(0) << r.hbmGB << std::setw(13) << r.impairment << std::right
                  << std::setprecision(1) << std::setw(10) << r.plannedMs << std::setw(11)
                  << r.measuredMs << std::setw(10) << r.inflation << "%" << std::setw(9)
                  << r.expected << std::setw(10) << r.delivered << std::setw(6) << r.late
                  << std::setw(11) << r.requested << std::setw(10) << r.recovered << std::setw(9)
                  << r.givenUp << std::setw(8) << r.lost << "  "
                  << (r.exact ? "exact" : "NOT exact") << "\n";
    }
    if (!output.empty())
    {
        std::ofstream out(output);
        out << "schedule,hbm_gb,impairment,planned_ms,measured_ms,inflation_percent,expected,"
               "delivered,late,requested,recovered,given_up,packets_lost,exact\n";
        out << std::setprecision(6) << std::defaultfloat;
        for (const auto& r : rows)
        {
            out << r.schedule << "," << r.hbmGB << "," << r.impairment << "," << r.plannedMs << ","
                << r.measuredMs << "," << r.inflation << "," << r.expected << "," << r.delivered
                << "," << r.late << "," << r.requested << "," << r.recovered << "," << r.givenUp
                << "," << r.lost << "," << (r.exact ? 1 : 0) << "\n";
        }
        if (!out)
        {
            throw std::invalid_argument("cannot write output file '" + output + "'");
        }
        std::cout << "table written to " << output << "\n";
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
        std::cerr << "wan-impairments: error: " << e.what() << std::endl;
        return 1;
    }
}
