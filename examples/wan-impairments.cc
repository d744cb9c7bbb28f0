/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * Sweeps loss and jitter at packet level: for each schedule and recovery
 * policy, the time the islands average at against the lossless run
 * (inflation), the delivery figures (expected,
 * delivered, re-requested, recovered, given up) and the mixing (A planned, A
 * and J measured from what the islands averaged), as a table and optionally
 * a CSV file. Then the same schedules on today's network: a collective over
 * TCP in each clique (--collectives), under the same settings, its mean round
 * time against its lossless run.
 *
 *   ./ns3 run wan-impairments
 *   ./ns3 run "wan-impairments --lossRate=0,0.01 --jitterMs=10 --recovery=accept"
 *   ./ns3 run "wan-impairments --output=impairments.csv"
 */

#include "wan-option-rules.h"
#include "wan-packet-trace-options.h"
#include "wan-simulator-defaults.h"

#include "ns3/core-module.h"
#include "ns3/wan-training-compat.h"
#include "ns3/wan-training-module.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <iomanip>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

/// Loss and jitter of some link classes.
using Impairments = std::vector<std::pair<WanNetworkHelper::LinkClass, WanLinkImpairment>>;

/// One setting of the sweep: its label, impairments and background traffic.
struct Setting
{
    std::string label;   //!< e.g. "loss 1%"
    Impairments classes; //!< loss and jitter per link class
    double crossTraffic; //!< background share of every core link direction
};

/// Every option of the program, with its default.
struct Options
{
    std::string schedules{"triangles,all-to-all"};
    std::string lossRates{"0.001,0.01,0.05"};
    std::string jitterMs{"1,10"};
    std::string jitterModels{WanLinkImpairment{}.jitterModel};
    std::string crossTraffic{"none"};
    int64_t crossTcpFlows{0};
    std::string crossTcpControl{"ns3::TcpCubic"};
    double coreReserve{0};
    std::string coreQueue{"fq-codel"};
    double jitterCorrelationMs{WanLinkImpairment{}.jitterCorrelationSeconds * 1e3};
    std::string lossLinks{"core,access,post"};
    std::string recovery{
        wancompat::AttributeDefaultText(CliqueExperimentHelper::GetTypeId(), "Recovery")};
    double scale{1000};
    int64_t rounds{2}; // signed, so that -1 is refused rather than wrapped
    int64_t maxRequests{20};
    int64_t parityBlock{WanIslandApplication::GetDefaultParityBlock()};
    int64_t parityChunks{1};
    std::string parityDecoding{"island"};
    double paritySizing{0};
    wantrace::PacketTraceOptions traces;
    std::string collectives{"ring"};
    std::string output;
    std::string collectivesOutput;
    std::string packetOutput;
    bool quiet{false};
};

/// @return the numbers of a comma list, each in the range; none for "none"
std::vector<double>
SweptValues(const std::string& text, const wantext::Range& range, const std::string& option)
{
    std::vector<double> values;
    if (text != "none")
    {
        for (double x : wantext::ParseNumbers(text, option))
        {
            values.push_back(range.Check(x, option));
        }
    }
    return values;
}

/// @return the labelled settings of the sweep, the unimpaired one first
std::vector<Setting>
Settings(const Options& o)
{
    std::vector<Setting> settings{{"none", {}, 0}};
    for (double rate : SweptValues(o.lossRates, wantext::bounds::kLossRate, "--lossRate"))
    {
        WanLinkImpairment imp;
        imp.lossRate = rate;
        Impairments classes;
        for (const auto& item : wantext::SplitList(o.lossLinks))
        {
            classes.emplace_back(WanNetworkHelper::ParseLinkClass(item), imp);
        }
        std::ostringstream label;
        label << "loss " << rate * 100 << "%";
        settings.push_back({label.str(), classes, 0});
    }
    const std::string defaultModel = WanLinkImpairment{}.jitterModel;
    for (const auto& model : wantext::SplitList(o.jitterModels))
    {
        for (double ms : SweptValues(o.jitterMs, wantext::bounds::kJitterMs, "--jitterMs"))
        {
            WanLinkImpairment imp;
            imp.jitterSeconds = ms * 1e-3;
            imp.jitterModel = model;
            imp.jitterCorrelationSeconds = o.jitterCorrelationMs * 1e-3;
            imp.Validate("--jitterModel");
            // The default model keeps the short label.
            std::ostringstream label;
            label << "jitter " << ms << " ms" << (model == defaultModel ? "" : " " + model);
            settings.push_back({label.str(), Impairments{{WanNetworkHelper::CORE, imp}}, 0});
        }
    }
    for (double share : SweptValues(o.crossTraffic, wantext::bounds::kLossRate, "--crossTraffic"))
    {
        std::ostringstream label;
        label << "cross " << share * 100 << "%";
        settings.push_back({label.str(), {}, share});
    }
    return settings;
}

/**
 * @brief The options table: the options that only some runs of the sweep
 * use, whether each was set and whether any run uses it (a warning when
 * none does: a campaign may share the option between sweeps).
 * @param o the options
 * @return the rules, for wanopt::CheckOptionRules
 */
std::vector<wanopt::OptionRule>
OptionRules(const Options& o)
{
    const Options d;
    const auto recoveries = wantext::SplitList(o.recovery);
    const auto some = [&recoveries](bool (*test)(const std::string&)) {
        return std::any_of(recoveries.begin(), recoveries.end(), test);
    };
    const auto models = wantext::SplitList(o.jitterModels);
    const bool jitter = o.jitterMs != "none";
    const bool coded = some(&CliqueExperimentHelper::IsCoded);
    const bool correlated = std::any_of(models.begin(), models.end(), [](const std::string& m) {
        WanLinkImpairment imp;
        imp.jitterModel = m;
        return imp.IsCorrelated();
    });
    const bool traced = o.traces.pcap || o.traces.ascii;
    return {
        {"--lossLinks", o.lossLinks != d.lossLinks, o.lossRates != "none", "--lossRate", false},
        {"--jitterModel", o.jitterModels != d.jitterModels, jitter, "--jitterMs", false},
        {"--jitterCorrelationMs",
         o.jitterCorrelationMs != d.jitterCorrelationMs,
         jitter && correlated,
         "--jitterMs with --jitterModel=correlated",
         false},
        {"--parityBlock",
         o.parityBlock != d.parityBlock,
         coded,
         "--recovery with coded or coded+early",
         false},
        {"--parityChunks",
         o.parityChunks != d.parityChunks,
         coded,
         "--recovery with coded or coded+early",
         false},
        {"--parityDecoding",
         o.parityDecoding != d.parityDecoding,
         coded,
         "--recovery with coded or coded+early",
         false},
        {"--paritySizing",
         o.paritySizing != d.paritySizing,
         coded,
         "--recovery with coded or coded+early",
         false},
        {"--maxRequests",
         o.maxRequests != d.maxRequests,
         some(&CliqueExperimentHelper::Repairs),
         "--recovery with rerequest, early, coded or coded+early",
         false},
        {"--tracePrefix", o.traces.prefix != d.traces.prefix, traced, "--pcap or --ascii", false},
        {"--traceLinks", o.traces.links != d.traces.links, traced, "--pcap or --ascii", false},
        {"--crossTcpControl",
         o.crossTcpControl != d.crossTcpControl,
         o.crossTcpFlows > 0,
         "--crossTcpFlows above 0",
         false},
    };
}

/// One run's figures.
struct Row
{
    std::string schedule;
    double hbmGB{0};
    std::string recovery;
    std::string impairment;
    double plannedMs{0};
    double measuredMs{0};
    double mixedMs{0}; //!< when the slowest island averaged (completion, or giving up)
    double inflation{0};
    WanRoundCounters counts; //!< contributions, summed over rounds and islands
    uint64_t lost{0};
    bool exact{false};
    double disagreement{0};         //!< A planned
    double disagreementMeasured{0}; //!< A of the realised mixing
    double objectiveMeasured{0};    //!< J measured (T measured x A measured), ms-error
    std::string scaleWarning;       //!< how the scale changes the run (WanScaleCheck)
};

/// Sums a run's rounds and islands.
Row
Summarise(const WanExperimentResult& r)
{
    Row row;
    row.exact = r.exact;
    row.disagreement = r.disagreement;
    row.disagreementMeasured = r.disagreementMeasured;
    row.objectiveMeasured = r.objectiveMeasured;
    row.mixedMs = r.mixedMs;
    for (const auto& round : r.rounds)
    {
        row.plannedMs = std::max(row.plannedMs, round.plannedMs);
        row.measuredMs = std::max(row.measuredMs, round.measuredMs);
        row.counts += WanExperimentReport::Total(round);
    }
    for (const auto& [where, n] : r.lostPackets)
    {
        row.lost += n;
    }
    return row;
}

/// Runs every schedule under every setting.
std::vector<Row>
RunSweep(const Options& o, const std::vector<Setting>& settings, WanResultWriter& output)
{
    const auto topo = WanTopology::NineCity();
    std::vector<Row> rows;
    for (const auto& item : wantext::SplitList(o.schedules))
    {
        const auto [name, memory] = CliqueScheduleBuiltins::SplitMemory(item);
        auto schedule = CliqueScheduleBuiltins::Make(name, topo);
        PlannerConfig config;
        config.hbmBytes = memory;
        config.coreReserve = o.coreReserve;
        auto run = [&](const std::string& recovery, const Setting& setting) {
            const auto& [label, classes, cross] = setting;
            CliqueExperimentHelper experiment(topo, config);
            experiment.SetScale(o.scale);
            if (o.rounds > 0)
            {
                experiment.SetRounds(static_cast<uint32_t>(o.rounds));
            }
            experiment.SetParity(static_cast<uint32_t>(o.parityBlock),
                                 static_cast<uint32_t>(o.parityChunks));
            experiment.SetParityDecoding(o.parityDecoding);
            experiment.SetParitySizing(o.paritySizing);
            experiment.SetRecovery(recovery);
            experiment.SetCrossTraffic(cross);
            experiment.SetTcpCrossTraffic(static_cast<uint32_t>(o.crossTcpFlows),
                                          o.crossTcpControl);
            experiment.SetCoreQueue(o.coreQueue);
            experiment.SetProgress(o.quiet ? 0 : 5);
            for (const auto& [linkClass, imp] : classes)
            {
                experiment.SetImpairment(linkClass, imp);
            }
            o.traces.Apply(experiment, name + ", " + label);
            const auto result = experiment.Run(schedule);
            output.Add(name + ", " + label,
                       result,
                       {{"impairment", label},
                        {"hbm_gb", wantext::Fixed(config.hbmBytes / 1e9, 0)},
                        {"recovery", recovery}});
            auto row = Summarise(result);
            row.schedule = name;
            row.hbmGB = config.hbmBytes / 1e9;
            row.recovery = recovery;
            row.impairment = label;
            row.scaleWarning = result.scaleWarning;
            if (!o.quiet)
            {
                std::cerr << "  " << name << ", " << recovery << ", " << label << " done\r"
                          << std::flush;
            }
            return row;
        };
        // Inflation of the time the islands average at (with accept, when
        // they give up), against the lossless run of the same policy without
        // parity: a coded policy's inflation includes its parity's cost.
        std::map<std::string, double> lossless;
        for (const auto& recovery : wantext::SplitList(o.recovery))
        {
            const auto reference = CliqueExperimentHelper::RepairPolicy(recovery);
            for (const auto& setting : settings)
            {
                auto row = run(recovery, setting);
                if (setting.label == "none" && recovery == reference)
                {
                    lossless[recovery] = row.mixedMs;
                }
                if (lossless.count(reference) == 0)
                {
                    lossless[reference] = run(reference, settings.front()).mixedMs;
                }
                row.inflation = 100 * (row.mixedMs / lossless[reference] - 1);
                rows.push_back(row);
            }
        }
    }
    if (!o.quiet)
    {
        std::cerr << "\n";
    }
    return rows;
}

/// One schedule on today's network under one setting.
struct CollectiveRow
{
    std::string schedule;
    std::string collective;
    std::string impairment;
    double meanMs{0};    //!< the mean round time (0: a round incomplete)
    double slowestMs{0}; //!< the slowest round's
    double inflation{0}; //!< of the mean, against the lossless run
    double megabytes{0}; //!< record bytes all islands sent, every round
    uint64_t retransmissions{0};
    bool exact{false};
    std::set<std::string> warnings; //!< what its cliques warned of (TCP at the scale, buffers)
};

/// Runs each schedule on today's network, each collective in each clique, under every setting.
std::vector<CollectiveRow>
RunCollectiveSweep(const Options& o, const std::vector<Setting>& settings)
{
    const auto topo = WanTopology::NineCity();
    std::vector<CollectiveRow> rows;
    if (o.collectives == "none")
    {
        return rows;
    }
    for (const auto& item : wantext::SplitList(o.schedules))
    {
        const auto schedule =
            CliqueScheduleBuiltins::Make(CliqueScheduleBuiltins::SplitMemory(item).first, topo);
        const uint32_t rounds =
            o.rounds > 0 ? static_cast<uint32_t>(o.rounds) : schedule.GetNRounds();
        for (const auto& name : wantext::SplitList(o.collectives))
        {
            const auto kind = WanCollectiveExperiment::Parse(name);
            double lossless = 0;
            for (const auto& [label, classes, cross] : settings)
            {
                WanCollectiveExperiment experiment(topo);
                experiment.SetScale(o.scale);
                experiment.SetCoreQueue(
                    o.coreQueue,
                    wancompat::AttributeDefault<UintegerValue>(WanNetworkHelper::GetTypeId(),
                                                               "CoreQueuePackets"));
                experiment.SetCrossTraffic(cross, 1472, 10);
                experiment.SetTcpCrossTraffic(static_cast<uint32_t>(o.crossTcpFlows),
                                              o.crossTcpControl);
                for (const auto& [linkClass, imp] : classes)
                {
                    experiment.SetImpairment(linkClass, imp);
                }
                const auto result =
                    WanCollectiveScheduleExperiment(experiment).Run(kind, schedule, rounds);
                CollectiveRow row;
                row.schedule = schedule.GetName();
                row.collective = WanCollectiveExperiment::Name(kind);
                row.impairment = label;
                row.meanMs = WanCollectiveScheduleExperiment::MeanSeconds(result) * 1e3;
                row.exact = !result.empty();
                for (const auto& r : result)
                {
                    row.slowestMs = std::max(row.slowestMs, r.seconds * 1e3);
                    row.megabytes += r.bytes / 1e6;
                    row.retransmissions += r.retransmissions;
                    row.exact = row.exact && r.exact;
                    for (const auto& clique : r.cliques)
                    {
                        row.warnings.insert(clique.warnings.begin(), clique.warnings.end());
                    }
                }
                if (label == "none")
                {
                    lossless = row.meanMs;
                }
                row.inflation =
                    lossless > 0 && row.meanMs > 0 ? 100 * (row.meanMs / lossless - 1) : 0;
                if (!o.quiet)
                {
                    std::cerr << "  " << row.schedule << ", " << row.collective << ", " << label
                              << " done\r" << std::flush;
                }
                rows.push_back(row);
            }
        }
    }
    if (!o.quiet)
    {
        std::cerr << "\n";
    }
    return rows;
}

/// Prints the collectives' rows as a table.
void
PrintCollectiveRows(const std::vector<CollectiveRow>& rows)
{
    if (rows.empty())
    {
        return;
    }
    int width = 13;
    for (const auto& r : rows)
    {
        width = std::max(width, static_cast<int>(r.impairment.size()) + 1);
    }
    std::cout << "\nThe schedules on today's network: the collective over TCP in each clique "
                 "(no multicast, no FPGA; the same settings):\n";
    std::cout << std::left << std::setw(12) << "schedule" << std::setw(18) << "collective"
              << std::setw(width) << "impairment" << std::right << std::setw(10) << "T mean ms"
              << std::setw(11) << "inflation" << std::setw(13) << "slowest ms" << std::setw(10)
              << "MB sent" << std::setw(9) << "retrans"
              << "  sums\n";
    std::cout << std::fixed;
    for (const auto& r : rows)
    {
        std::cout << std::left << std::setw(12) << r.schedule << std::setw(18) << r.collective
                  << std::setw(width) << r.impairment << std::right << std::setprecision(1);
        if (r.meanMs > 0)
        {
            std::cout << std::setw(10) << r.meanMs << std::setw(10) << r.inflation << "%";
        }
        else
        {
            std::cout << std::setw(10) << "-" << std::setw(11) << "incomplete";
        }
        std::cout << std::setw(13) << r.slowestMs << std::setprecision(3) << std::setw(10)
                  << r.megabytes << std::setw(9) << r.retransmissions << "  "
                  << (r.exact ? "exact" : "NOT exact") << "\n";
    }
    // Each warning once (TCP at the scale is every row's).
    std::set<std::string> said;
    for (const auto& r : rows)
    {
        for (const auto& w : r.warnings)
        {
            if (said.insert(w).second)
            {
                std::cout << "warning: " << w << "\n";
            }
        }
    }
}

/// Writes the collectives' rows as CSV.
void
WriteCollectiveCsv(const std::string& path, const std::vector<CollectiveRow>& rows)
{
    std::ostringstream out;
    out << "schedule,collective,impairment,mean_ms,inflation_percent,slowest_ms,megabytes,"
           "retransmissions,exact\n";
    out << std::setprecision(6);
    for (const auto& r : rows)
    {
        out << r.schedule << "," << r.collective << "," << r.impairment << "," << r.meanMs << ","
            << r.inflation << "," << r.slowestMs << "," << r.megabytes << "," << r.retransmissions
            << "," << (r.exact ? 1 : 0) << "\n";
    }
    wantext::WriteFile(path, out.str());
}

/// Prints the rows as a table: T plan (the planner's), T mixed (when the
/// slowest island averaged: the round's T, which J uses), its inflation over
/// the lossless run, and last in (the slowest island's last contribution,
/// late ones after it averaged included).
void
PrintRows(const std::vector<Row>& rows)
{
    // The impairment column fits its longest label ("jitter 10 ms independent").
    int width = 13;
    for (const auto& r : rows)
    {
        width = std::max(width, static_cast<int>(r.impairment.size()) + 1);
    }
    std::cout << std::left << std::setw(12) << "schedule" << std::setw(6) << "HBM" << std::setw(12)
              << "recovery" << std::setw(width) << "impairment" << std::right << std::setw(10)
              << "T plan ms" << std::setw(11) << "T mixed ms" << std::setw(11) << "inflation"
              << std::setw(11) << "last in ms" << std::setw(9) << "expected" << std::setw(10)
              << "delivered" << std::setw(6) << "late" << std::setw(11) << "requested"
              << std::setw(10) << "recovered" << std::setw(8) << "rebuilt" << std::setw(9)
              << "given up" << std::setw(8) << "lost" << std::setw(8) << "A plan" << std::setw(8)
              << "A meas" << std::setw(9) << "J meas"
              << "  sums\n";
    std::cout << std::fixed;
    for (const auto& r : rows)
    {
        std::cout << std::left << std::setw(12) << r.schedule << std::setw(6)
                  << std::setprecision(0) << r.hbmGB << std::setw(12) << r.recovery
                  << std::setw(width) << r.impairment << std::right << std::setprecision(1)
                  << std::setw(10) << r.plannedMs << std::setw(11) << r.mixedMs << std::setw(10)
                  << r.inflation << "%" << std::setw(11) << r.measuredMs << std::setw(9)
                  << r.counts.expected << std::setw(10) << r.counts.delivered << std::setw(6)
                  << r.counts.late << std::setw(11) << r.counts.requested << std::setw(10)
                  << r.counts.recovered << std::setw(8) << r.counts.rebuilt << std::setw(9)
                  << r.counts.givenUp << std::setw(8) << r.lost << std::setprecision(3)
                  << std::setw(8) << r.disagreement << std::setw(8) << r.disagreementMeasured
                  << std::setprecision(1) << std::setw(9) << r.objectiveMeasured << "  "
                  << (r.exact ? "exact" : "NOT exact") << "\n";
    }
    // What the scale changes, once per schedule and impairment: the figures
    // of those rows are not the full-scale network's.
    std::set<std::string> said;
    for (const auto& r : rows)
    {
        const auto note = r.schedule + ", " + r.impairment + ": " + r.scaleWarning;
        if (!r.scaleWarning.empty() && said.insert(note).second)
        {
            std::cout << "scale: " << note << "\n";
        }
    }
}

/// Writes the rows as CSV.
void
WriteCsv(const std::string& path, const std::vector<Row>& rows)
{
    std::ostringstream out;
    out << "schedule,hbm_gb,recovery,impairment,planned_ms,measured_ms,inflation_percent,expected,"
           "delivered,late,requested,recovered,given_up,packets_lost,exact,disagreement,"
           "disagreement_measured,objective_measured_ms_error,rebuilt,parity_sent,mixed_ms\n";
    out << std::setprecision(6);
    for (const auto& r : rows)
    {
        out << r.schedule << "," << r.hbmGB << "," << r.recovery << "," << r.impairment << ","
            << r.plannedMs << "," << r.measuredMs << "," << r.inflation << "," << r.counts.expected
            << "," << r.counts.delivered << "," << r.counts.late << "," << r.counts.requested << ","
            << r.counts.recovered << "," << r.counts.givenUp << "," << r.lost << ","
            << (r.exact ? 1 : 0) << "," << r.disagreement << "," << r.disagreementMeasured << ","
            << r.objectiveMeasured << "," << r.counts.rebuilt << "," << r.counts.paritySent << ","
            << r.mixedMs << "\n";
    }
    wantext::WriteFile(path, out.str());
}

int
Run(int argc, char* argv[])
{
    Options o;
    wansim::SetSimulatorDefaults();
    CommandLine cmd(__FILE__);
    cmd.Usage("Packet-level loss and jitter sweep: round-time inflation and delivery per "
              "schedule and FPGA memory.");
    cmd.AddValue(
        "schedule",
        "Comma list of built-in schedules, each NAME or NAME:GB (FPGA memory; "
        "without: all-to-all " +
            wantext::Fixed(CliqueScheduleBuiltins::GetDefaultMemory("all-to-all") / 1e9, 0) +
            " GB, the others 0)",
        o.schedules);
    cmd.AddValue("lossRate",
                 "Loss rates to sweep, each in [0, 1) (comma list, on the lossLinks; none: no "
                 "loss runs)",
                 o.lossRates);
    cmd.AddValue("lossLinks",
                 "Links that lose packets: comma list of core, access, post",
                 o.lossLinks);
    cmd.AddValue("jitterMs",
                 "Jitter standard deviations to sweep, ms (comma list, exponential, on core "
                 "links; none: no jitter runs)",
                 o.jitterMs);
    cmd.AddValue("jitterModel",
                 "Jitter models to sweep: comma list of correlated (each link direction's "
                 "delay varies in time) and independent (a draw per packet)",
                 o.jitterModels);
    cmd.AddValue("crossTraffic",
                 "Background shares of every core link direction to sweep, each in [0, 1) "
                 "(comma list; none: no cross-traffic runs)",
                 o.crossTraffic);
    cmd.AddValue("crossTcpFlows",
                 "Elastic background traffic in every run: TCP bulk connections on every core "
                 "link direction, 0 to 64 (0: none)",
                 o.crossTcpFlows);
    cmd.AddValue("crossTcpControl",
                 "Their congestion control (ns3::TcpCubic, ns3::TcpBbr, ns3::TcpNewReno, ...)",
                 o.crossTcpControl);
    cmd.AddValue("coreQueue",
                 "Queue disc of the core links: fq-codel (ns-3's default) or fifo (1000 packets)",
                 o.coreQueue);
    cmd.AddValue("coreReserve",
                 "Share of every core link direction the planner leaves to other traffic, "
                 "[0, 1)",
                 o.coreReserve);
    cmd.AddValue("jitterCorrelationMs",
                 "Correlation time of the correlated jitter, ms",
                 o.jitterCorrelationMs);
    cmd.AddValue("recovery",
                 "Recovery policies to sweep: comma list of accept, rerequest (at the deadline), "
                 "early (as soon as a chunk is overdue), coded (parity, then rerequest), "
                 "coded+early (parity, then early) and best (the best the FPGAs allow: "
                 "coded+early sized in band, decoded at the FPGA with memory, at the island "
                 "without; without FPGAs, early)",
                 o.recovery);
    cmd.AddValue("parityBlock", "coded: data chunks per parity block", o.parityBlock);
    cmd.AddValue("parityChunks",
                 "coded: parity chunks per block (the MDS code's r: any r losses rebuilt)",
                 o.parityChunks);
    cmd.AddValue("parityDecoding",
                 "coded: where the parity is decoded: island (over the FPGA's sums) or fpga "
                 "(each sender's stream at the receiving FPGA first, in half its memory; "
                 "needs schedules with FPGA memory, NAME:GB above 0)",
                 o.parityDecoding);
    cmd.AddValue("paritySizing",
                 "coded: size each round's parity per stream from the loss its receivers "
                 "report (the FPGAs decoding at the fpga, the islands at the island), for "
                 "this block failure probability (0: every stream sends --parityChunks; "
                 "sized, --parityChunks is the most it sends)",
                 o.paritySizing);
    cmd.AddValue("scale", "Time-preserving scale (D and rates / scale)", o.scale);
    cmd.AddValue("rounds", "Rounds per run (0: one period)", o.rounds);
    cmd.AddValue("maxRequests",
                 "Requests per missing contribution before it is given up",
                 o.maxRequests);
    cmd.AddValue("collectives",
                 "Also run each schedule on today's network: comma list of ring (all-reduce) "
                 "and ps (parameter server) over TCP in each clique, under every setting "
                 "(none: not run)",
                 o.collectives);
    cmd.AddValue("output", "Write the table as CSV to this file", o.output);
    cmd.AddValue("collectivesOutput",
                 "Write the collectives' table as CSV to this file",
                 o.collectivesOutput);
    cmd.AddValue("packetOutput",
                 "Write every run's per-round results to this file (.json or .csv)",
                 o.packetOutput);
    o.traces.AddTo(cmd);
    cmd.AddValue("quiet",
                 "Nothing on standard error but errors: no progress, no warnings of options "
                 "that do nothing",
                 o.quiet);
    cmd.Parse(argc, argv);

    // Everything is checked before the first run.
    wantext::bounds::kScale.Check(o.scale, "--scale");
    wantext::bounds::kJitterCorrelationMs.Check(o.jitterCorrelationMs, "--jitterCorrelationMs");
    wantext::bounds::kRounds.Check(o.rounds, "--rounds");
    wantext::bounds::kCrossTcpFlows.Check(o.crossTcpFlows, "--crossTcpFlows");
    wantext::bounds::kMaxRequests.Check(o.maxRequests, "--maxRequests");
    wantext::bounds::kLossRate.Check(o.coreReserve, "--coreReserve");
    {
        CliqueExperimentHelper probe(WanTopology::NineCity(), PlannerConfig());
        probe.SetCoreQueue(o.coreQueue); // names a bad queue
        wantext::bounds::kParityBlock.Check(static_cast<double>(o.parityBlock), "--parityBlock");
        if (o.parityChunks < 1 || o.parityChunks > o.parityBlock ||
            o.parityBlock + o.parityChunks > WanParityCode::MAX_LENGTH)
        {
            throw std::invalid_argument("--parityBlock " + std::to_string(o.parityBlock) +
                                        " and --parityChunks " + std::to_string(o.parityChunks) +
                                        ": need 1 <= parityChunks <= parityBlock and "
                                        "parityBlock + parityChunks <= 256");
        }
        for (const auto& policy : wantext::SplitList(o.recovery))
        {
            probe.SetRecovery(policy); // names the bad policy
        }
    }
    const auto settings = Settings(o);
    wanopt::CheckOptionRules(OptionRules(o), "wan-impairments", o.quiet, std::cerr);
    o.traces.Check(WanTopology::NineCity());
    if (o.collectives != "none")
    {
        for (const auto& name : wantext::SplitList(o.collectives))
        {
            WanCollectiveExperiment::Parse(name); // names a bad collective
        }
    }
    for (const auto& [option, path] : {std::make_pair("--output", o.output),
                                       std::make_pair("--collectivesOutput", o.collectivesOutput)})
    {
        if (!path.empty() && !wantext::EndsWith(path, ".csv"))
        {
            throw std::invalid_argument(std::string(option) + " '" + path + "' must end in .csv");
        }
    }
    if (!o.packetOutput.empty())
    {
        WanResultWriter::CheckPath(o.packetOutput);
    }
    Config::SetDefault("ns3::WanIslandApplication::MaxRequests", UintegerValue(o.maxRequests));

    WanResultWriter output(WanTopology::NineCity());
    const auto rows = RunSweep(o, settings, output);
    PrintRows(rows);
    if (!o.output.empty())
    {
        WriteCsv(o.output, rows);
        std::cout << "table written to " << o.output << "\n";
    }
    const auto collectiveRows = RunCollectiveSweep(o, settings);
    PrintCollectiveRows(collectiveRows);
    if (!o.collectivesOutput.empty())
    {
        WriteCollectiveCsv(o.collectivesOutput, collectiveRows);
        std::cout << "collectives' table written to " << o.collectivesOutput << "\n";
    }
    if (!o.packetOutput.empty())
    {
        output.Write(o.packetOutput);
        std::cout << "packet-level results written to " << o.packetOutput << "\n";
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
