/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-result-writer.h"

#include "ns3/log.h"
#include "ns3/wan-training-text.h"

#include <limits>
#include <set>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanResultWriter");

namespace
{

using nlohmann::json;

/// The document's schema name and version.
const char* const kSchema = "wan-training-packet-output";
/// Version of the schema: raised when a field changes meaning or goes.
const int kVersion = 1;

/// @return a map keyed by city index as an object keyed by city code
template <typename V>
json
ByCode(const std::map<uint32_t, V>& byCity, const std::vector<std::string>& codes)
{
    json object = json::object();
    for (const auto& [city, value] : byCity)
    {
        object[codes.at(city)] = value;
    }
    return object;
}

/// @return a time in ms as JSON: null when it never came (negative or infinite)
json
MsJson(double ms)
{
    return wantext::JsonNumber(ms < 0 ? std::numeric_limits<double>::quiet_NaN() : ms);
}

/// @return an island's counters and outcome as JSON
json
IslandJson(const WanIslandRoundResult& i, const std::vector<std::string>& codes)
{
    json island{{"city", codes.at(i.city)},
                {"completion_ms", MsJson(i.completionMs)},
                {"exact", i.exact},
                {"bytes_in", i.bytesIn},
                {"bytes_out", i.bytesOut},
                {"packets_in", i.packetsIn},
                {"partial_sums", i.partialSums},
                {"nacks", i.nacks},
                {"retransmissions", i.retransmissions},
                {"expected", i.expected},
                {"delivered", i.delivered},
                {"late", i.late},
                {"requested", i.requested},
                {"requests", i.requests},
                {"recovered", i.recovered},
                {"given_up", i.givenUp},
                {"repeats", i.discarded},
                {"repairs_sent", i.repairsSent},
                {"dropped", i.dropped},
                {"parity_sent", i.paritySent},
                {"rebuilt", i.rebuilt},
                {"parity_blocks", i.parityBlocks},
                {"parity_symbols", i.paritySymbols},
                {"erasures", i.erasures},
                {"blocks_short", i.blocksShort},
                {"parity_rows", i.parityRows},
                {"loss_reports", i.lossReports},
                {"mixed_ms", MsJson(i.mixedMs)},
                {"held", ByCode(i.held, codes)},
                {"mixing", ByCode(i.mixing, codes)},
                {"mixing_received", ByCode(i.mixingReceived, codes)}};
    // Its FPGA's per-stream decoding: stream_blocks ... stream_evicted.
    for (const auto& [name, field] : FpgaStreamDecoder::Totals::Fields())
    {
        island[std::string("stream_") + name] = i.stream.*field;
    }
    return island;
}

/// @return the value of a key in a map, or zero when it has none
template <typename V>
V
MapValue(const std::map<WanHop, V>& map, WanHop key)
{
    const auto it = map.find(key);
    return it == map.end() ? V{0} : it->second;
}

/// @return a CSV cell of a JSON scalar (empty for null)
std::string
CsvValue(const json& value)
{
    if (value.is_null())
    {
        return "";
    }
    return wantext::CsvCell(value.is_string() ? value.get<std::string>() : value.dump());
}

/// Appends one CSV row per scalar of `object`, nested objects as dotted metrics.
void
FlattenCsv(std::ostringstream& csv,
           const std::string& prefix,
           const std::string& key,
           const json& object,
           const std::string& subject = "",
           const std::set<std::string>& skip = {})
{
    for (const auto& [name, value] : object.items())
    {
        if (skip.count(name) > 0 || value.is_array())
        {
            continue;
        }
        if (value.is_object())
        {
            FlattenCsv(csv, prefix, key + name + ".", value, subject);
            continue;
        }
        csv << prefix << wantext::CsvCell(subject) << "," << wantext::CsvCell(key + name) << ","
            << CsvValue(value) << "\n";
    }
}

/// @return one round as JSON, cities by their codes
json
RoundJson(const WanRoundResult& r, const std::vector<std::string>& codes)
{
    json round{{"round", r.round + 1},
               {"failed", r.failed},
               {"note", r.note},
               {"planned_ms", wantext::JsonNumber(r.plannedMs)},
               {"scale_lag_ms", wantext::JsonNumber(r.scaleLagMs)},
               {"measured_ms", wantext::JsonNumber(r.measuredMs)},
               {"idle_ms", wantext::JsonNumber(r.idleMs)},
               {"mixed_ms", wantext::JsonNumber(r.mixedMs)},
               {"fault_link_packets", r.faultLinkPackets},
               {"fault_link_lost", r.faultLinkLost},
               {"evictions", r.evictions},
               {"islands", json::array()},
               {"core_links", json::array()}};
    for (const auto& i : r.islands)
    {
        round["islands"].push_back(IslandJson(i, codes));
    }
    for (const auto& [hop, packets] : r.corePackets)
    {
        round["core_links"].push_back(
            json{{"from", codes.at(hop.first)},
                 {"to", codes.at(hop.second)},
                 {"packets", packets},
                 {"bytes", r.coreBytes.at(hop)},
                 {"peak_queue_bytes", MapValue(r.corePeakQueueBytes, hop)},
                 {"peak_queue_ms", MapValue(r.corePeakQueueMs, hop)},
                 {"queue_drops", MapValue(r.coreQueueDrops, hop)}});
    }
    return round;
}

/// @return one run as JSON, cities by their codes
json
RunJson(const std::string& label,
        const WanExperimentResult& result,
        const std::map<std::string, std::string>& parameters,
        const std::vector<std::string>& codes)
{
    json run{{"label", label},
             {"parameters", parameters},
             {"schedule", result.schedule},
             {"feasible", result.feasible},
             {"reason", result.reason},
             {"planned_ms", wantext::JsonNumber(result.plannedMs)},
             {"scale_lag_ms", wantext::JsonNumber(result.scaleLagMs)},
             {"scale_warning", result.scaleWarning},
             {"exact", result.exact},
             {"events", result.events},
             {"cross_tcp_bytes", result.crossTcpBytes},
             {"disagreement", wantext::JsonNumber(result.disagreement)},
             {"disagreement_measured", wantext::JsonNumber(result.disagreementMeasured)},
             {"consensus_skew", wantext::JsonNumber(result.consensusSkew)},
             {"mixed_ms", wantext::JsonNumber(result.mixedMs)},
             {"objective", wantext::JsonNumber(result.objective)},
             {"objective_measured", wantext::JsonNumber(result.objectiveMeasured)},
             {"peak_hbm_slots", result.peakSlots},
             {"peak_hbm_bytes", result.peakHbmBytes},
             {"evictions", result.evictions},
             {"lost_packets", result.lostPackets},
             {"control_packets", result.controlPackets},
             {"control_bytes", result.controlBytes},
             {"pim_packets", result.pimPackets},
             {"pim_bytes", result.pimBytes},
             {"pim_retries", result.pimRetries},
             {"pim_missing", result.pimMissing < 0 ? json(nullptr) : json(result.pimMissing)},
             {"pim_join_ms", result.pimJoinMs < 0 ? json(nullptr) : json(result.pimJoinMs)},
             {"pim_slack_ms", result.pimJoinMs < 0 ? json(nullptr) : json(result.pimSlackMs)},
             {"route_changes", json::array()},
             {"rounds", json::array()},
             {"training", json::array()}};
    for (const auto& r : result.rounds)
    {
        run["rounds"].push_back(RoundJson(r, codes));
    }
    for (const auto& c : result.routeChanges)
    {
        run["route_changes"].push_back(json{
            {"link", c.link},
            {"up", c.up},
            {"event_s", c.eventS},
            {"detected_s", c.detectedS},
            {"converged_s", c.convergedS},
            {"replanned_from", c.replannedFrom < 0 ? json(nullptr) : json(c.replannedFrom + 1)},
            {"resumed_s", c.resumedS < 0 ? json(nullptr) : json(c.resumedS)},
            {"joined_s", c.joinedS < 0 ? json(nullptr) : json(c.joinedS)}});
    }
    return run;
}

/// @return a training as JSON
json
TrainingJson(const WanTrainingRunResult& t)
{
    const auto& last = t.history.back();
    json training{
        {"workload", t.workload},
        {"policy", t.policy},
        {"compute_s", t.computeS},
        {"minimum_loss", wantext::JsonNumber(t.minimumLoss)},
        {"target_loss", wantext::JsonNumber(t.targetLoss)},
        {"time_to_target_s", t.timeToTargetS < 0 ? json(nullptr) : json(t.timeToTargetS)},
        {"rounds_to_target", t.roundsToTarget < 0 ? json(nullptr) : json(t.roundsToTarget)},
        {"carried_weight", t.carriedWeight},
        {"final_loss", wantext::JsonNumber(last.loss)},
        {"final_model_loss", wantext::JsonNumber(last.modelLoss)},
        {"final_consensus_distance", wantext::JsonNumber(last.consensusDistance)},
        {"history", json::array()}};
    for (const auto& r : t.history)
    {
        training["history"].push_back(json{
            {"round", r.round},
            {"packet_round", r.round == 0 ? json(nullptr) : json(t.packetRounds.at(r.round - 1))},
            {"time_s", r.timeS},
            {"loss", wantext::JsonNumber(r.loss)},
            {"local_loss", wantext::JsonNumber(r.localLoss)},
            {"model_loss", wantext::JsonNumber(r.modelLoss)},
            {"consensus_distance", wantext::JsonNumber(r.consensusDistance)}});
    }
    return training;
}

} // namespace

WanResultWriter::WanResultWriter(const WanTopology& topo)
{
    for (uint32_t c = 0; c < topo.GetNCities(); ++c)
    {
        m_codes.push_back(topo.GetCity(c).code);
    }
}

void
WanResultWriter::Add(const std::string& label, const WanExperimentResult& result)
{
    Add(label, result, {});
}

void
WanResultWriter::Add(const std::string& label,
                     const WanExperimentResult& result,
                     const std::map<std::string, std::string>& parameters)
{
    NS_LOG_FUNCTION(this << label);
    m_runs.push_back(RunJson(label, result, parameters, m_codes).dump());
}

void
WanResultWriter::AddTraining(const WanTrainingRunResult& training)
{
    if (m_runs.empty())
    {
        throw std::invalid_argument("packet output: training added before any run");
    }
    if (training.history.empty() || training.packetRounds.size() + 1 != training.history.size())
    {
        throw std::invalid_argument("packet output: a training of " +
                                    std::to_string(training.history.size()) + " records and " +
                                    std::to_string(training.packetRounds.size()) +
                                    " rounds (need one record more than rounds)");
    }
    auto run = json::parse(m_runs.back());
    run["training"].push_back(TrainingJson(training));
    m_runs.back() = run.dump();
}

uint32_t
WanResultWriter::GetN() const
{
    return static_cast<uint32_t>(m_runs.size());
}

std::string
WanResultWriter::ToJson() const
{
    json runs = json::array();
    for (const auto& run : m_runs)
    {
        runs.push_back(json::parse(run));
    }
    return json{{"schema", kSchema}, {"version", kVersion}, {"runs", runs}}.dump(1) + "\n";
}

std::string
WanResultWriter::ToCsv() const
{
    std::ostringstream csv;
    csv << "run,label,round,scope,subject,metric,value\n";
    for (size_t k = 0; k < m_runs.size(); ++k)
    {
        const auto run = json::parse(m_runs[k]);
        const auto head =
            std::to_string(k + 1) + "," + wantext::CsvCell(run["label"].get<std::string>()) + ",";
        FlattenCsv(csv, head + ",run,", "", run, "", {"label"});
        for (const auto& change : run["route_changes"])
        {
            FlattenCsv(csv,
                       head + ",route_change,",
                       "",
                       change,
                       change["link"].get<std::string>(),
                       {"link"});
        }
        for (const auto& t : run["training"])
        {
            const auto subject =
                t["workload"].get<std::string>() + "/" + t["policy"].get<std::string>();
            FlattenCsv(csv, head + ",training,", "", t, subject, {"workload", "policy"});
            for (const auto& r : t["history"])
            {
                FlattenCsv(csv,
                           head + r["round"].dump() + ",training_round,",
                           "",
                           r,
                           subject,
                           {"round"});
            }
        }
        for (const auto& round : run["rounds"])
        {
            const auto roundHead = head + round["round"].dump() + ",";
            FlattenCsv(csv, roundHead + "round,", "", round, "", {"round"});
            for (const auto& island : round["islands"])
            {
                FlattenCsv(csv,
                           roundHead + "island,",
                           "",
                           island,
                           island["city"].get<std::string>(),
                           {"city"});
            }
            for (const auto& link : round["core_links"])
            {
                FlattenCsv(csv,
                           roundHead + "core_link,",
                           "",
                           link,
                           link["from"].get<std::string>() + ">" + link["to"].get<std::string>(),
                           {"from", "to"});
            }
        }
    }
    return csv.str();
}

void
WanResultWriter::CheckPath(const std::string& path)
{
    wantext::CheckOutputPath(path, "packet output");
}

void
WanResultWriter::Write(const std::string& path) const
{
    CheckPath(path);
    wantext::WriteFile(path, wantext::EndsWith(path, ".json") ? ToJson() : ToCsv());
}

} // namespace ns3
