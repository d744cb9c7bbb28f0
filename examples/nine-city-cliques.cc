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

#include "wan-option-rules.h"
#include "wan-packet-trace-options.h"
#include "wan-simulator-defaults.h"

#include "ns3/core-module.h"
#include "ns3/wan-training-module.h"
#include "ns3/wan-training-text.h"

#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

using namespace ns3;
namespace bounds = wantext::bounds;

NS_LOG_COMPONENT_DEFINE("NineCityCliques");

namespace
{

/// Wall-clock seconds between progress reports of a packet-level run.
const double kProgressSeconds = 5;

/// @return the default of an attribute of T, as text (an enum's name)
template <typename T>
std::string
Default(const std::string& attribute)
{
    return wancompat::AttributeDefaultText(T::GetTypeId(), attribute);
}

/// @return whether faults are BFD's to detect (--faultDetection, a name of the attribute)
bool
DetectsFaults(const std::string& mode)
{
    return wancompat::EnumFromName<CliqueExperimentHelper::FaultDetection>(
               CliqueExperimentHelper::GetTypeId(),
               "FaultDetection",
               mode,
               "fault detection") == CliqueExperimentHelper::BFD;
}

/// Every option of the program, with its default (the attributes' where they have one).
struct Options
{
    std::string topologyFile;
    std::string schedules{"all"};
    std::string scheduleFile;
    double payloadBytes{1e9};
    std::string accessGbps;
    std::string coreGbps;
    double edgeGbps{PlannerConfig().edgeBps / 1e9};
    bool multicast{true};
    bool aggregation{true};
    std::string hbmGB{"0,32"};
    std::vector<double> hbmBytes; //!< --hbmGB, parsed and checked once (CheckRanges)
    double jitterAllowanceMs{0};
    double lineRateWindowUs{PlannerConfig().lineRateWindow * 1e6};
    double coreReserve{0};
    double computeMs{250};
    double stalenessMs{1000};
    bool includeNewborn{true};
    bool normalise{true};
    double forgetting{1.0};
    std::string target;
    std::string output;
    bool packetLevel{true};
    std::string packetSchedule{"triangles"};
    /// --packetSchedule, parsed once (CheckRanges): names and FPGA memory, bytes
    std::vector<std::pair<std::string, double>> packetRuns;
    double scale{100};
    int64_t rounds{0}; // signed, so that -1 is refused rather than wrapped
    bool baselines{true};
    WanLinkImpairment impairment;
    double jitterMs{0};
    double jitterCorrelationMs{WanLinkImpairment{}.jitterCorrelationSeconds * 1e3};
    std::string lossLinks{"core"};
    std::string jitterLinks{"core"};
    std::string recovery{Default<CliqueExperimentHelper>("Recovery")};
    uint32_t parityBlock{WanIslandApplication::GetDefaultParityBlock()};
    uint32_t parityChunks{WanIslandApplication::GetDefaultParityChunks()};
    std::string linkFaults;
    std::string faultPolicy{"replan"};
    std::string faultDetection{Default<CliqueExperimentHelper>("FaultDetection")};
    std::string treeBuilding{Default<CliqueExperimentHelper>("TreeBuilding")};
    std::string mpi{"none"};
    std::string partition{"region"};
    double bfdIntervalMs{ns3::WanBfdApplication::GetDefaultInterval().GetSeconds() * 1e3};
    uint32_t bfdMultiplier{ns3::WanBfdApplication::GetDefaultMultiplier()};
    std::string fpgaFaults;
    std::string away;
    wantrace::PacketTraceOptions traces;
    bool quiet{false};
    std::string packetOutput;
    std::string training{"none"};
    std::string trainingPolicy{Default<WanTrainingLoop>("Policy")};
    int64_t trainingRounds{0};
    double roundGuard{0.1};
    double crossTraffic{0};
    int64_t crossTcpFlows{0};
    std::string crossTcpControl{"ns3::TcpCubic"};
    std::string collectives{"ring,ps"};
    std::string coreQueue{Default<WanNetworkHelper>("CoreQueue")};
    int64_t coreQueuePackets{static_cast<int64_t>(
        wancompat::AttributeDefault<UintegerValue>(WanNetworkHelper::GetTypeId(),
                                                   "CoreQueuePackets"))};
};

/// Declares the options of the table (planning, mixing, output).
void
AddTableOptions(CommandLine& cmd, Options& o)
{
    cmd.AddValue("topology",
                 "Topology file (.json, or a folder with cities.csv and core-links.csv); "
                 "empty: the embedded nine-city topology",
                 o.topologyFile);
    cmd.AddValue("schedule",
                 "Built-in schedules to compare: all, or a comma list of " +
                     CliqueScheduleBuiltins::JoinedNames(),
                 o.schedules);
    cmd.AddValue("scheduleFile", "A schedule file (JSON) to compare as well", o.scheduleFile);
    cmd.AddValue("payload", "Model state D sent per island and round, bytes", o.payloadBytes);
    cmd.AddValue("accessGbps",
                 "Access rate of every island, Gbps (empty: the topology's)",
                 o.accessGbps);
    cmd.AddValue("coreGbps",
                 "Capacity of every core link, Gbps (empty: the topology's)",
                 o.coreGbps);
    cmd.AddValue("edgeGbps",
                 "Rate of every island's edge port (router to the FPGA's edge node), Gbps: "
                 "a clique of k islands runs at most at edgeGbps / (k - 1)",
                 o.edgeGbps);
    cmd.AddValue("multicast", "Replicate inside the network (false: unicast copies)", o.multicast);
    cmd.AddValue("aggregation", "Sum inbound streams on the edge FPGA", o.aggregation);
    cmd.AddValue("hbmGB", "FPGA memory sizes to compare, GB (comma list)", o.hbmGB);
    cmd.AddValue("coreReserve",
                 "Share of every core link direction the planner leaves to other traffic, "
                 "[0, 1)",
                 o.coreReserve);
    cmd.AddValue("jitterAllowanceMs",
                 "Arrival skew each receiver of two or more streams absorbs in FPGA memory, ms",
                 o.jitterAllowanceMs);
    cmd.AddValue("lineRateWindowUs",
                 "How long an FPGA without memory holds a chunk, us (packet-level skew beyond it "
                 "is reported; the packet-level FPGAs use it)",
                 o.lineRateWindowUs);
    cmd.AddValue("computeMs", "Compute time per training step, ms (synchronous SGD)", o.computeMs);
    cmd.AddValue("stalenessMs",
                 "Staleness tolerated, ms (synchronous SGD comparison)",
                 o.stalenessMs);
    cmd.AddValue("h0", "Count the newborn term h = 0 in A", o.includeNewborn);
    cmd.AddValue("normalise", "Normalise each generation's error to 1 at birth", o.normalise);
    cmd.AddValue("forgetting", "Forgetting discount rho in (0, 1]", o.forgetting);
    cmd.AddValue("target", "Target shares pi (comma list summing to 1; empty: uniform)", o.target);
    cmd.AddValue("output", "Write the table to this file (.json or .csv)", o.output);
}

/// Declares the options of the packet-level runs.
void
AddPacketOptions(CommandLine& cmd, Options& o)
{
    cmd.AddValue("packetLevel", "Also simulate a schedule packet by packet", o.packetLevel);
    cmd.AddValue(
        "packetSchedule",
        "Schedule(s) to simulate: a built-in name, a schedule file (.json), all, "
        "or a comma list; NAME:GB gives its FPGAs GB of memory (without: all-to-all " +
            wantext::Fixed(CliqueScheduleBuiltins::GetDefaultMemory("all-to-all") / 1e9, 0) +
            " GB, the others 0)",
        o.packetSchedule);
    cmd.AddValue("lossRate",
                 "Packet-level: packet loss probability on the lossLinks, [0, 1)",
                 o.impairment.lossRate);
    cmd.AddValue("lossBurst",
                 "Packet-level: mean packets per loss event (1: independent losses)",
                 o.impairment.burstLength);
    cmd.AddValue("lossLinks",
                 "Packet-level: links that lose packets: comma list of core, access, post",
                 o.lossLinks);
    cmd.AddValue("jitterMs",
                 "Packet-level: standard deviation of each packet's extra delay, ms",
                 o.jitterMs);
    cmd.AddValue("jitterDistribution",
                 "Packet-level: exponential, uniform or normal",
                 o.impairment.jitterDistribution);
    cmd.AddValue("jitterModel",
                 "Packet-level: correlated (each link direction's delay varies in time, with "
                 "--jitterCorrelationMs) or independent (a draw per packet: multipath)",
                 o.impairment.jitterModel);
    cmd.AddValue("jitterCorrelationMs",
                 "Packet-level: correlation time of the correlated jitter, ms",
                 o.jitterCorrelationMs);
    cmd.AddValue("reorder",
                 "Packet-level: independent jitter may reorder packets",
                 o.impairment.reorder);
    cmd.AddValue("jitterLinks",
                 "Packet-level: links with jitter: comma list of core, access",
                 o.jitterLinks);
    cmd.AddValue("recovery",
                 "Packet-level: missing contributions are accepted or rerequested from their "
                 "senders at a round's deadline, or early: asked for as soon as overdue; "
                 "coded and coded+early add parity chunks that rebuild lost chunks; best: "
                 "the best the FPGAs allow (coded+early sized in band, decoded at the FPGA "
                 "with memory, at the island without; without FPGAs, early)",
                 o.recovery);
    cmd.AddValue("parityBlock", "Packet-level, coded: data chunks per parity block", o.parityBlock);
    cmd.AddValue("parityChunks",
                 "Packet-level, coded: parity chunks per block (the MDS code's r: any r "
                 "losses of a block rebuilt)",
                 o.parityChunks);
    cmd.AddValue("linkFaults",
                 "Packet-level: link outages, comma list of A-B@down-up (seconds), "
                 "e.g. NYC-LON@1.25-2",
                 o.linkFaults);
    cmd.AddValue("faultPolicy",
                 "Packet-level: rounds during an outage are replan(ned) or fail(ed)",
                 o.faultPolicy);
    cmd.AddValue("faultDetection",
                 "Packet-level: how link faults reach the schedule: oracle (known in advance, "
                 "rounds planned around them) or bfd (BFD detects them, unicast reconverges, "
                 "rounds after the notification are re-planned)",
                 o.faultDetection);
    cmd.AddValue("bfdIntervalMs", "Packet-level, bfd: BFD transmit interval, ms", o.bfdIntervalMs);
    cmd.AddValue("mpi",
                 "Packet-level: a distributed run under mpiexec with ns-3's MPI module, "
                 "synchronised by gtw (granted time window) or null (null messages), every "
                 "packet-level run in turn; none: one process",
                 o.mpi);
    cmd.AddValue("partition",
                 "Packet-level, with --mpi: cities to ranks, region, city (in turn), balanced "
                 "(each run's planned work, the busiest rank's least) or CODE:RANK for every "
                 "city",
                 o.partition);
    cmd.AddValue("treeBuilding",
                 "Packet-level: who builds the multicast trees: planner (static routes from the "
                 "planner's trees) or pim (PIM-SSM joins on the wire, made a round ahead)",
                 o.treeBuilding);
    cmd.AddValue("bfdMultiplier", "Packet-level, bfd: BFD detect multiplier", o.bfdMultiplier);
    cmd.AddValue("fpgaFaults",
                 "Packet-level: FPGA failures, comma list of CITY@time (seconds)",
                 o.fpgaFaults);
    cmd.AddValue("away",
                 "Packet-level: islands away, comma list of CITY@first-last (rounds from 0)",
                 o.away);
    cmd.AddValue("scale",
                 "Time-preserving scale of the packet-level run: D and every rate / scale",
                 o.scale);
    cmd.AddValue("rounds", "Rounds to simulate (0: one period)", o.rounds);
    cmd.AddValue("baselines", "Also simulate the no-multicast and no-FPGA baselines", o.baselines);
    o.traces.AddTo(cmd);
    cmd.AddValue("quiet",
                 "Nothing on standard error but errors: no progress (simulated time, rounds "
                 "done), no warnings of options that do nothing",
                 o.quiet);
    cmd.AddValue("crossTraffic",
                 "Packet-level: background traffic on every core link direction, share of "
                 "its capacity in [0, 1)",
                 o.crossTraffic);
    cmd.AddValue("crossTcpFlows",
                 "Packet-level: elastic background traffic, TCP bulk connections on every core "
                 "link direction, 0 to 64 (0: none)",
                 o.crossTcpFlows);
    cmd.AddValue("crossTcpControl",
                 "Packet-level: their congestion control (ns3::TcpCubic, ns3::TcpBbr, "
                 "ns3::TcpNewReno, ...)",
                 o.crossTcpControl);
    cmd.AddValue("collectives",
                 "Packet-level: also run one sync of today's collectives over TCP among every "
                 "island on the same network (ring: ring all-reduce, ps: parameter server; "
                 "comma list, or none)",
                 o.collectives);
    cmd.AddValue("coreQueue",
                 "Packet-level: queue disc of the core links, fq-codel (ns-3's default) or fifo",
                 o.coreQueue);
    cmd.AddValue("coreQueuePackets", "Packet-level: the FIFO's size, packets", o.coreQueuePackets);
    cmd.AddValue("packetOutput",
                 "Packet-level: write every run's per-round results to this file "
                 "(.json or .csv)",
                 o.packetOutput);
    cmd.AddValue("roundGuard",
                 "Packet-level: share of T added between round starts; an island's deadline "
                 "(the quorum's grace window) is T x (1 + roundGuard)",
                 o.roundGuard);
    cmd.AddValue("training",
                 "Packet-level: train over each run's rounds (WanTrainingLoop): none, quadratic "
                 "or logistic (more settings: --ns3::WanTrainingLoop::ATTRIBUTE=VALUE)",
                 o.training);
    cmd.AddValue("trainingPolicy",
                 "Training: wait (the islands average when complete, or when the recovery "
                 "gives up) or quorum (they average at the deadline, T x (1 + roundGuard), "
                 "and carry what the recovery brings later to the next round)",
                 o.trainingPolicy);
    cmd.AddValue("trainingRounds",
                 "Training rounds (0: as many as simulated); the simulated rounds are taken "
                 "in turn",
                 o.trainingRounds);
}

/// @return a FIFO size option as a packet count; throws when below 1 or too large
uint32_t
QueuePackets(int64_t packets)
{
    if (packets < 1 || packets > 1000000)
    {
        throw std::invalid_argument("--coreQueuePackets must be from 1 to 1000000 (got " +
                                    std::to_string(packets) + ")");
    }
    return static_cast<uint32_t>(packets);
}

/// Checks every number option against its range (wantext::bounds), and
/// keeps the parsed lists (--hbmGB, --packetSchedule).
void
CheckRanges(Options& o)
{
    bounds::kPayloadBytes.Check(o.payloadBytes, "--payload");
    bounds::kCrossTcpFlows.Check(o.crossTcpFlows, "--crossTcpFlows");
    bounds::kJitterMs.Check(o.jitterAllowanceMs, "--jitterAllowanceMs");
    bounds::kLineRateWindowUs.Check(o.lineRateWindowUs, "--lineRateWindowUs");
    bounds::kLossRate.Check(o.coreReserve, "--coreReserve");
    bounds::kRateGbps.Check(o.edgeGbps, "--edgeGbps");
    for (const auto& [text, option] :
         {std::pair{o.accessGbps, "--accessGbps"}, std::pair{o.coreGbps, "--coreGbps"}})
    {
        if (!text.empty())
        {
            bounds::kRateGbps.Check(wantext::ParseNumber(text, option), option);
        }
    }
    for (double gb : wantext::ParseNumbers(o.hbmGB, "--hbmGB"))
    {
        o.hbmBytes.push_back(bounds::kHbmGB.Check(gb, "--hbmGB") * 1e9);
    }
    for (const auto& item : o.packetSchedule == "all" ? CliqueScheduleBuiltins::Names()
                                                      : wantext::SplitList(o.packetSchedule))
    {
        o.packetRuns.push_back(CliqueScheduleBuiltins::SplitMemory(item));
    }
    bounds::kComputeMs.Check(o.computeMs, "--computeMs");
    bounds::kStalenessMs.Check(o.stalenessMs, "--stalenessMs");
    bounds::kForgetting.Check(o.forgetting, "--forgetting");
    if (!o.target.empty())
    {
        for (double share : wantext::ParseNumbers(o.target, "--target"))
        {
            bounds::kShare.Check(share, "--target");
        }
    }
    bounds::kScale.Check(o.scale, "--scale");
    bounds::kRounds.Check(o.rounds, "--rounds");
    bounds::kRounds.Check(o.trainingRounds, "--trainingRounds");
    bounds::kRoundGuard.Check(o.roundGuard, "--roundGuard");
    bounds::kLossRate.Check(o.impairment.lossRate, "--lossRate");
    bounds::kLossBurst.Check(o.impairment.burstLength, "--lossBurst");
    bounds::kJitterMs.Check(o.jitterMs, "--jitterMs");
    bounds::kJitterCorrelationMs.Check(o.jitterCorrelationMs, "--jitterCorrelationMs");
    if (o.impairment.reorder && o.impairment.IsCorrelated())
    {
        throw std::invalid_argument("--reorder needs --jitterModel=independent");
    }
}

/// @return the impairment fields a link or city of the topology names (WanLinkImpairment::Field)
uint32_t
OwnImpairmentFields(const WanTopology& topo)
{
    uint32_t fields = 0;
    for (const auto& l : topo.GetLinks())
    {
        fields |= l.impairmentFields;
    }
    for (uint32_t c = 0; c < topo.GetNCities(); ++c)
    {
        fields |= topo.GetCity(c).accessFields | topo.GetCity(c).postFields;
    }
    return fields;
}

/**
 * @brief The options table: every option that only some runs use, whether
 * it was set and whether this run uses it.  The packet level's options are
 * refused without it; within it, an option another option turns off (a mode
 * a sweep varies) gets a warning.
 * @param o the options
 * @param topo the topology of the runs
 * @return the rules, for wanopt::CheckOptionRules
 */
std::vector<wanopt::OptionRule>
OptionRules(const Options& o, const WanTopology& topo)
{
    const Options d;
    const auto& imp = o.impairment;
    const uint32_t own = OwnImpairmentFields(topo);
    const bool loss = imp.lossRate > 0 || (own & WanLinkImpairment::LOSS_RATE);
    const bool jitter = o.jitterMs > 0 || (own & WanLinkImpairment::JITTER);
    const bool coded = CliqueExperimentHelper::IsCoded(o.recovery);
    const bool traced = o.traces.pcap || o.traces.ascii;
    std::vector<wanopt::OptionRule> rules;
    for (const auto& [option, changed] : std::vector<std::pair<const char*, bool>>{
             {"--packetSchedule", o.packetSchedule != d.packetSchedule},
             {"--lossRate", imp.lossRate != d.impairment.lossRate},
             {"--lossBurst", imp.burstLength != d.impairment.burstLength},
             {"--lossLinks", o.lossLinks != d.lossLinks},
             {"--jitterMs", o.jitterMs != d.jitterMs},
             {"--jitterDistribution", imp.jitterDistribution != d.impairment.jitterDistribution},
             {"--jitterModel", imp.jitterModel != d.impairment.jitterModel},
             {"--jitterCorrelationMs", o.jitterCorrelationMs != d.jitterCorrelationMs},
             {"--reorder", imp.reorder != d.impairment.reorder},
             {"--jitterLinks", o.jitterLinks != d.jitterLinks},
             {"--recovery", o.recovery != d.recovery},
             {"--parityBlock", o.parityBlock != d.parityBlock},
             {"--parityChunks", o.parityChunks != d.parityChunks},
             {"--linkFaults", o.linkFaults != d.linkFaults},
             {"--faultPolicy", o.faultPolicy != d.faultPolicy},
             {"--faultDetection", o.faultDetection != d.faultDetection},
             {"--bfdIntervalMs", o.bfdIntervalMs != d.bfdIntervalMs},
             {"--bfdMultiplier", o.bfdMultiplier != d.bfdMultiplier},
             {"--mpi", o.mpi != d.mpi},
             {"--partition", o.partition != d.partition},
             {"--treeBuilding", o.treeBuilding != d.treeBuilding},
             {"--fpgaFaults", o.fpgaFaults != d.fpgaFaults},
             {"--away", o.away != d.away},
             {"--scale", o.scale != d.scale},
             {"--rounds", o.rounds != d.rounds},
             {"--baselines", o.baselines != d.baselines},
             {"--pcap", o.traces.pcap != d.traces.pcap},
             {"--ascii", o.traces.ascii != d.traces.ascii},
             {"--tracePrefix", o.traces.prefix != d.traces.prefix},
             {"--traceLinks", o.traces.links != d.traces.links},
             {"--crossTraffic", o.crossTraffic != d.crossTraffic},
             {"--crossTcpFlows", o.crossTcpFlows != d.crossTcpFlows},
             {"--crossTcpControl", o.crossTcpControl != d.crossTcpControl},
             {"--collectives", o.collectives != d.collectives},
             {"--coreQueue", o.coreQueue != d.coreQueue},
             {"--coreQueuePackets", o.coreQueuePackets != d.coreQueuePackets},
             {"--packetOutput", o.packetOutput != d.packetOutput},
             {"--roundGuard", o.roundGuard != d.roundGuard},
             {"--training", o.training != d.training}})
    {
        rules.push_back({option, changed, o.packetLevel, "--packetLevel=true", true});
    }
    const auto within =
        [&rules](const char* option, bool changed, bool applies, const std::string& needs) {
            rules.push_back({option, changed, applies, needs, false});
        };
    const std::string anyLoss = "loss: --lossRate above 0 or a topology file's loss_rate";
    const std::string anyJitter = "jitter: --jitterMs above 0 or a topology file's jitter_ms";
    within("--lossBurst", imp.burstLength != d.impairment.burstLength, loss, anyLoss);
    within("--lossLinks", o.lossLinks != d.lossLinks, imp.lossRate > 0, "--lossRate above 0");
    within("--jitterDistribution",
           imp.jitterDistribution != d.impairment.jitterDistribution,
           jitter,
           anyJitter);
    within("--jitterModel", imp.jitterModel != d.impairment.jitterModel, jitter, anyJitter);
    within("--jitterCorrelationMs",
           o.jitterCorrelationMs != d.jitterCorrelationMs,
           jitter && imp.IsCorrelated(),
           anyJitter + ", with --jitterModel=correlated");
    within("--jitterLinks", o.jitterLinks != d.jitterLinks, o.jitterMs > 0, "--jitterMs above 0");
    within("--parityBlock",
           o.parityBlock != d.parityBlock,
           coded,
           "--recovery=coded or coded+early");
    within("--parityChunks",
           o.parityChunks != d.parityChunks,
           coded,
           "--recovery=coded or coded+early");
    within("--faultPolicy",
           o.faultPolicy != d.faultPolicy,
           !o.linkFaults.empty() && !DetectsFaults(o.faultDetection),
           "--linkFaults, known in advance (--faultDetection=oracle)");
    within("--bfdIntervalMs",
           o.bfdIntervalMs != d.bfdIntervalMs,
           DetectsFaults(o.faultDetection),
           "--faultDetection=bfd");
    within("--bfdMultiplier",
           o.bfdMultiplier != d.bfdMultiplier,
           DetectsFaults(o.faultDetection),
           "--faultDetection=bfd");
    within("--partition", o.partition != d.partition, o.mpi != "none", "--mpi=gtw or null");
    within("--crossTcpControl",
           o.crossTcpControl != d.crossTcpControl,
           o.crossTcpFlows > 0,
           "--crossTcpFlows above 0");
    within("--coreQueuePackets",
           o.coreQueuePackets != d.coreQueuePackets,
           wancompat::EnumFromName<WanNetworkHelper::CoreQueue>(WanNetworkHelper::GetTypeId(),
                                                                "CoreQueue",
                                                                o.coreQueue,
                                                                "core queue") ==
               WanNetworkHelper::FIFO,
           "--coreQueue=fifo");
    const bool training = o.packetLevel && o.training != "none";
    rules.push_back({"--trainingPolicy",
                     o.trainingPolicy != d.trainingPolicy,
                     training,
                     "--training=quadratic or logistic",
                     true});
    rules.push_back({"--trainingRounds",
                     o.trainingRounds != d.trainingRounds,
                     training,
                     "--training=quadratic or logistic",
                     true});
    within("--tracePrefix", o.traces.prefix != d.traces.prefix, traced, "--pcap or --ascii");
    within("--traceLinks", o.traces.links != d.traces.links, traced, "--pcap or --ascii");
    return rules;
}

/// Adds the faults of the command line to an experiment.
void
ApplyFaults(CliqueExperimentHelper& experiment, const Options& o)
{
    experiment.SetFaultPolicy(o.faultPolicy);
    experiment.SetFaultDetection(o.faultDetection);
    experiment.SetTreeBuilding(o.treeBuilding);
    experiment.SetBfd(Seconds(o.bfdIntervalMs * 1e-3), o.bfdMultiplier);
    for (const auto& f : WanFaultList::ParseLinkFaults(o.linkFaults, "--linkFaults"))
    {
        experiment.AddLinkFault(f.a, f.b, f.downSeconds, f.upSeconds);
    }
    for (const auto& f : WanFaultList::ParseFpgaFaults(o.fpgaFaults, "--fpgaFaults"))
    {
        experiment.AddFpgaFault(f.city, f.atSeconds);
    }
    for (const auto& a : WanFaultList::ParseAbsences(o.away, "--away"))
    {
        experiment.AddIslandAbsence(a.city, a.firstRound, a.lastRound);
    }
}

/// @return the loss and jitter of each link class the options name
std::map<WanNetworkHelper::LinkClass, WanLinkImpairment>
Impairments(const Options& o)
{
    std::map<WanNetworkHelper::LinkClass, WanLinkImpairment> impairments;
    for (const auto& item : wantext::SplitList(o.lossLinks))
    {
        auto& imp = impairments[WanNetworkHelper::ParseLinkClass(item)];
        imp.lossRate = o.impairment.lossRate;
        imp.burstLength = o.impairment.burstLength;
    }
    for (const auto& item : wantext::SplitList(o.jitterLinks))
    {
        auto& imp = impairments[WanNetworkHelper::ParseLinkClass(item)];
        imp.jitterSeconds = o.jitterMs * 1e-3;
        imp.jitterDistribution = o.impairment.jitterDistribution;
        imp.jitterModel = o.impairment.jitterModel;
        imp.jitterCorrelationSeconds = o.jitterCorrelationMs * 1e-3;
        imp.reorder = o.impairment.reorder;
    }
    return impairments;
}

/// @return the planner's settings from the options
PlannerConfig
Config(const Options& o)
{
    PlannerConfig config;
    config.payloadBytes = o.payloadBytes;
    config.multicast = o.multicast;
    config.aggregation = o.aggregation;
    config.jitterAllowance = o.jitterAllowanceMs / 1e3;
    config.lineRateWindow = o.lineRateWindowUs / 1e6;
    config.coreReserve = o.coreReserve;
    config.edgeBps = o.edgeGbps * 1e9;
    if (!o.accessGbps.empty())
    {
        config.accessBps = wantext::ParseNumber(o.accessGbps, "--accessGbps") * 1e9;
    }
    if (!o.coreGbps.empty())
    {
        config.coreCapacityBps = wantext::ParseNumber(o.coreGbps, "--coreGbps") * 1e9;
    }
    return config;
}

/// @return the conventions of A from the options
MixingOptions
Mixing(const Options& o)
{
    MixingOptions mixing;
    mixing.includeNewborn = o.includeNewborn;
    mixing.normalise = o.normalise;
    mixing.forgetting = o.forgetting;
    if (!o.target.empty())
    {
        mixing.target = wantext::ParseNumbers(o.target, "--target");
    }
    return mixing;
}

/// @return the schedules of the table: the chosen built-ins and the file
std::vector<CliqueSchedule>
TableSchedules(const Options& o, const ScheduleComparisonHelper& helper)
{
    const auto& topo = helper.GetTopology();
    std::vector<CliqueSchedule> chosen;
    if (o.schedules == "all")
    {
        chosen = helper.GetSchedules();
    }
    else
    {
        for (const auto& name : wantext::SplitList(o.schedules))
        {
            chosen.push_back(CliqueScheduleBuiltins::Make(name, topo));
        }
    }
    if (!o.scheduleFile.empty())
    {
        chosen.push_back(CliqueSchedule::LoadFile(o.scheduleFile, topo));
    }
    if (chosen.empty())
    {
        throw std::invalid_argument("no schedule to compare");
    }
    return chosen;
}

/// @return training over a run's rounds (--training, --trainingPolicy, --trainingRounds)
WanTrainingRunResult
Train(const Options& o, const WanExperimentResult& result)
{
    WanTrainingLoop loop;
    loop.SetWorkload(o.training);
    loop.SetPolicy(o.trainingPolicy);
    loop.SetAttribute("Rounds", UintegerValue(static_cast<uint32_t>(o.trainingRounds)));
    loop.SetAttribute("ComputeTime", TimeValue(Seconds(o.computeMs / 1e3)));
    return loop.Train(result);
}

/// Checks the packet-level settings before anything runs.
void
CheckPacketLevel(const Options& o, const WanTopology& topo)
{
    for (const auto& [linkClass, imp] : Impairments(o))
    {
        WanNetworkHelper(topo).SetImpairment(linkClass, imp);
    }
    CliqueExperimentHelper check(topo, PlannerConfig{});
    check.SetCrossTraffic(o.crossTraffic);
    check.SetTcpCrossTraffic(static_cast<uint32_t>(o.crossTcpFlows), o.crossTcpControl);
    check.SetCoreQueue(o.coreQueue, QueuePackets(o.coreQueuePackets));
    check.SetParity(o.parityBlock, o.parityChunks);
    check.SetRecovery(o.recovery);
    check.SetRoundGuard(o.roundGuard);
    ApplyFaults(check, o);
    o.traces.Check(topo);
    if (o.collectives != "none")
    {
        for (const auto& name : wantext::SplitList(o.collectives))
        {
            WanCollectiveExperiment::Parse(name);
        }
    }
    if (o.training != "none")
    {
        WanTrainingLoop loop;
        loop.SetWorkload(o.training);
        loop.SetPolicy(o.trainingPolicy);
    }
}

/// Plans the schedules and prints (and writes) the table.
void
RunTable(const Options& o, ScheduleComparisonHelper& helper)
{
    const auto& topo = helper.GetTopology();
    auto rows = helper.Compare(o.hbmBytes);
    auto sync = helper.CompareSynchronous(o.computeMs / 1e3, o.stalenessMs / 1e3);

    std::cout << "Topology: " << topo.GetNCities() << " islands, " << topo.GetLinks().size()
              << " core links; D = " << o.payloadBytes / 1e9 << " GB, multicast "
              << (o.multicast ? "on" : "off") << ", FPGA aggregation "
              << (o.aggregation ? "on" : "off") << "\n";
    for (const auto& s : helper.GetSchedules())
    {
        std::cout << "  " << s.GetName() << ": " << s.ToString(topo) << "\n";
    }
    std::cout << "\n" << helper.FormatTable(rows, sync);
    if (!o.output.empty())
    {
        helper.Write(o.output, rows, sync);
        std::cout << "Wrote " << o.output << "\n";
    }
}

/// @return the schedule a packet run names: a schedule file (.json) or a built-in
CliqueSchedule
ScheduleOf(const std::string& name, const WanTopology& topo)
{
    return wantext::EndsWith(name, ".json") ? CliqueSchedule::LoadFile(name, topo)
                                            : CliqueScheduleBuiltins::Make(name, topo);
}

/// Runs one sync of each of today's collectives the options name, on the same network.
void
RunCollectives(const Options& o, const WanTopology& topo, const PlannerConfig& config)
{
    const auto names = wantext::SplitList(o.collectives);
    if (o.collectives == "none" || names.empty())
    {
        return;
    }
    if (WanMpiHelper::GetSize() > 1)
    {
        if (WanMpiHelper::GetRank() == 0)
        {
            std::cout << "\nToday's collectives over TCP: not run in a distributed run\n";
        }
        return;
    }
    WanCollectiveExperiment experiment(topo);
    experiment.SetScale(o.scale);
    experiment.SetPayload(config.payloadBytes);
    experiment.SetEdgeRate(config.edgeBps);
    for (const auto& [linkClass, imp] : Impairments(o))
    {
        experiment.SetImpairment(linkClass, imp);
    }
    experiment.SetCoreQueue(o.coreQueue, QueuePackets(o.coreQueuePackets));
    experiment.SetCrossTraffic(o.crossTraffic, 1472, 10);
    experiment.SetTcpCrossTraffic(static_cast<uint32_t>(o.crossTcpFlows), o.crossTcpControl);
    std::cout << "\nToday's collectives over TCP among every island, one sync (the same "
                 "network, loss, jitter, core queue and cross traffic; no multicast, no "
                 "FPGA"
              << (o.linkFaults.empty() ? "" : "; the link faults not applied") << "):\n";
    for (const auto& name : names)
    {
        const auto result = experiment.Run(WanCollectiveExperiment::Parse(name));
        std::cout << "  " << WanCollectiveExperiment::Format(result, topo);
        if (o.training != "none" && result.complete)
        {
            // The sync every round: W = J among every island.
            std::cout << WanExperimentReport::FormatTraining(
                Train(o, WanCollectiveTraining::AsRun(topo.GetNCities(), result)));
        }
    }
    // The packet runs' schedules on today's network: the collective in each clique.
    std::cout << "The schedules on today's network: the collective over TCP in each clique of a "
                 "round, the cliques at once (the same network; no multicast, no FPGA):\n";
    const WanCollectiveScheduleExperiment cliques(experiment);
    for (const auto& [schedule, memory] : o.packetRuns)
    {
        const auto s = ScheduleOf(schedule, topo);
        const uint32_t rounds = o.rounds > 0 ? static_cast<uint32_t>(o.rounds) : s.GetNRounds();
        for (const auto& name : names)
        {
            const auto kind = WanCollectiveExperiment::Parse(name);
            std::cout << "  " << schedule << ", " << WanCollectiveExperiment::Name(kind)
                      << " in each clique:\n";
            const auto run = cliques.Run(kind, s, rounds);
            std::istringstream lines(WanCollectiveScheduleExperiment::Format(run, topo));
            for (std::string line; std::getline(lines, line);)
            {
                std::cout << "    " << line << "\n";
            }
            if (o.training == "none")
            {
                continue;
            }
            const auto asRun = WanCollectiveTraining::AsRun(schedule, topo.GetNCities(), run);
            if (asRun.feasible)
            {
                std::cout << "  " << WanExperimentReport::FormatTraining(Train(o, asRun));
            }
        }
    }
}

/// Simulates the chosen schedules packet by packet, with their baselines.
void
RunPacketLevel(const Options& o, const WanTopology& topo, const PlannerConfig& config)
{
    struct Variant
    {
        const char* label;
        bool multicast;
        bool aggregation;
    };

    std::vector<Variant> variants{{"multicast + FPGA", true, true}};
    if (o.baselines)
    {
        variants.push_back({"no multicast", false, true});
        variants.push_back({"no FPGA", true, false});
    }
    WanResultWriter output(topo);
    std::cout << "\nPacket level (scale " << o.scale << ": D and rates / " << o.scale
              << ", times kept; FPGA memory per receiver:";
    for (const auto& [name, memory] : o.packetRuns)
    {
        std::cout << (&name == &o.packetRuns.front().first ? " " : ", ") << name << " "
                  << memory / 1e9 << " GB";
    }
    std::cout << ")\n";
    for (const auto& line : topo.DescribeOwnImpairments())
    {
        std::cout << "  own impairment of " << line << "\n";
    }
    for (const auto& [name, memory] : o.packetRuns)
    {
        auto schedule = ScheduleOf(name, topo);
        for (const auto& v : variants)
        {
            PlannerConfig c = config;
            c.hbmBytes = memory;
            c.multicast = v.multicast && o.multicast;
            c.aggregation = v.aggregation && o.aggregation;
            CliqueExperimentHelper experiment(topo, c);
            experiment.SetScale(o.scale);
            for (const auto& [linkClass, imp] : Impairments(o))
            {
                experiment.SetImpairment(linkClass, imp);
            }
            experiment.SetParity(o.parityBlock, o.parityChunks);
            experiment.SetRecovery(o.recovery);
            experiment.SetRoundGuard(o.roundGuard);
            // The quorum's islands average at the deadline; their recovery goes on.
            experiment.SetAverageAtDeadline(o.training != "none" && o.trainingPolicy == "quorum");
            experiment.SetCrossTraffic(o.crossTraffic);
            experiment.SetTcpCrossTraffic(static_cast<uint32_t>(o.crossTcpFlows),
                                          o.crossTcpControl);
            experiment.SetCoreQueue(o.coreQueue, QueuePackets(o.coreQueuePackets));
            experiment.SetProgress(o.quiet || WanMpiHelper::GetRank() > 0 ? 0 : kProgressSeconds);
            experiment.SetPartition(o.partition);
            ApplyFaults(experiment, o);
            o.traces.Apply(experiment, schedule.GetName() + ", " + v.label);
            if (o.rounds > 0)
            {
                experiment.SetRounds(static_cast<uint32_t>(o.rounds));
            }
            const auto result = experiment.Run(schedule);
            std::cout << name << ", " << v.label << ":\n";
            if (o.partition == "balanced" && WanMpiHelper::GetSize() > 1)
            {
                std::cout << "  ranks: " << WanMpiHelper::Describe(topo, experiment.GetRankOf())
                          << "\n";
            }
            std::cout << WanExperimentReport::Format(result, topo);
            output.Add(name + ", " + v.label, result, {{"variant", v.label}});
            if (o.training != "none" && result.feasible && WanMpiHelper::GetRank() == 0)
            {
                const auto training = Train(o, result);
                std::cout << WanExperimentReport::FormatTraining(training);
                output.AddTraining(training);
            }
        }
    }
    RunCollectives(o, topo, config);
    if (!o.packetOutput.empty() && WanMpiHelper::GetRank() == 0)
    {
        output.Write(o.packetOutput);
        std::cout << "Packet-level results written to " << o.packetOutput << "\n";
    }
}

int
Run(int argc, char* argv[])
{
    Options o;
    wansim::SetSimulatorDefaults();
    CommandLine cmd(__FILE__);
    cmd.Usage("Plans rotating-clique schedules on a WAN and prints the paper's table.");
    AddTableOptions(cmd, o);
    AddPacketOptions(cmd, o);
    cmd.Parse(argc, argv);

    // Everything is checked before the work starts.
    CheckRanges(o);
    if (!o.output.empty())
    {
        ScheduleComparisonHelper::CheckOutputPath(o.output);
    }
    ScheduleComparisonHelper helper;
    if (!o.topologyFile.empty())
    {
        helper.SetTopology(WanTopology::LoadFile(o.topologyFile));
    }
    const auto& topo = helper.GetTopology();
    wanopt::CheckOptionRules(OptionRules(o, topo), "nine-city-cliques", o.quiet, std::cerr);
    CheckPacketLevel(o, topo);
    if (!o.packetOutput.empty())
    {
        WanResultWriter::CheckPath(o.packetOutput);
    }
    const PlannerConfig config = Config(o);
    helper.SetPlannerConfig(config);
    helper.SetMixingOptions(Mixing(o));
    helper.SetSchedules(TableSchedules(o, helper));

    // A distributed run: MPI from here on; rank 0 alone prints.
    struct MpiSession
    {
        ~MpiSession()
        {
            WanMpiHelper::Disable();
        }
    } session;

    if (o.mpi != "none")
    {
        WanMpiHelper::Enable(&argc, &argv, o.mpi);
        if (WanMpiHelper::GetRank() > 0)
        {
            std::cout.rdbuf(nullptr); // rank 0 prints the run
        }
        std::cout << "Distributed run: " << WanMpiHelper::GetSize() << " ranks (" << o.mpi
                  << "), cities by " << o.partition << ": ";
        if (o.partition == "balanced")
        {
            std::cout << "each run's own (printed with it)\n";
        }
        else
        {
            std::cout << WanMpiHelper::Describe(
                             topo,
                             WanMpiHelper::Partition(topo, WanMpiHelper::GetSize(), o.partition))
                      << "\n";
        }
    }
    RunTable(o, helper);
    if (o.packetLevel)
    {
        RunPacketLevel(o, topo, config);
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
