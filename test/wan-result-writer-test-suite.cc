/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/clique-schedule.h"
#include "ns3/test.h"
#include "ns3/wan-result-writer.h"
#include "ns3/wan-training-text.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// @return a topology of two cities, A and B, one link
WanTopology
TwoCities()
{
    WanTopology topo;
    for (const char* code : {"A", "B"})
    {
        WanCity c;
        c.code = code;
        c.name = code;
        c.region = "r";
        c.ingressBps = 20e9;
        c.egressBps = 20e9;
        topo.AddCity(c);
    }
    topo.AddLink("A", "B", 0.01, 100e9);
    return topo;
}

/// @return a hand-made result: round 1 complete, round 2 never completed at B
WanExperimentResult
HandResult()
{
    WanExperimentResult r;
    r.schedule = "pair";
    r.feasible = true;
    r.plannedMs = 420.5;
    r.events = 1234;
    r.crossTcpBytes = 5678;
    r.exact = false;
    r.disagreement = 0.5;
    r.disagreementMeasured = 0.625;
    r.consensusSkew = 0.125;
    r.mixedMs = 418;
    r.objective = 210.25;
    r.objectiveMeasured = 261.25;
    r.peakSlots = 3;
    r.peakHbmBytes = 27e3;
    r.evictions = {{"completion", 7}, {"timeout", 2}};
    r.lostPackets = {{"core", 1}, {"access", 0}, {"post", 0}};
    WanRoundResult first;
    first.round = 0;
    first.plannedMs = 410;
    first.measuredMs = 415.25;
    first.idleMs = 5.25;
    first.mixedMs = 415.25;
    first.evictions = {{"completion", 7}, {"timeout", 0}};
    first.corePackets = {{{0, 1}, 10}, {{1, 0}, 11}};
    first.coreBytes = {{{0, 1}, 90000}, {{1, 0}, 99000}};
    first.corePeakQueueBytes = {{{0, 1}, 18004}};
    first.corePeakQueueMs = {{{0, 1}, 0.25}};
    WanIslandRoundResult b;
    b.city = 1;
    b.completionMs = 415.25;
    b.exact = true;
    b.bytesIn = 1000;
    b.bytesOut = 2000;
    b.expected = 5;
    b.delivered = 5;
    b.discarded = 3;
    b.stream.erasures = 4;
    b.stream.rebuilt = 3;
    b.givenUp = 0;
    b.mixedMs = 415.25;
    b.held = {{0, 3}, {1, 3}};
    b.mixing = {{0, 0.5}, {1, 0.5}};
    b.mixingReceived = {{0, 0.5}, {1, 0.5}};
    first.islands.push_back(b);
    WanRoundResult second = first;
    second.round = 1;
    second.note = "re-planned, without A-B";
    second.measuredMs = std::numeric_limits<double>::infinity();
    second.idleMs = std::numeric_limits<double>::infinity();
    second.evictions = {{"completion", 0}, {"timeout", 2}};
    second.islands[0].completionMs = -1;
    second.islands[0].exact = false;
    second.islands[0].givenUp = 4;
    second.islands[0].mixedMs = 418; // it gave them up then
    second.islands[0].held = {{0, 1}, {1, 3}};
    second.islands[0].mixing = {{0, 0.25}, {1, 0.75}};
    second.mixedMs = 418;
    r.rounds = {first, second};
    return r;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The JSON document holds every figure of a result, under the
 * documented names, with rounds counted from 1 and a time that never came
 * as null.
 */
class ResultWriterJsonTestCase : public WanTestCase
{
  public:
    ResultWriterJsonTestCase()
        : WanTestCase("JSON: every figure under its documented name")
    {
    }

  private:
    void DoCheck() override
    {
        WanResultWriter writer(TwoCities());
        writer.Add("pair, hand", HandResult(), {{"lossRate", "0.01"}});
        NS_TEST_ASSERT_MSG_EQ(writer.GetN(), 1, "one run");
        const auto doc = nlohmann::json::parse(writer.ToJson());
        NS_TEST_EXPECT_MSG_EQ(doc["schema"].get<std::string>(),
                              "wan-training-packet-output",
                              "schema");
        NS_TEST_EXPECT_MSG_EQ(doc["version"].get<int>(), 1, "version");
        const auto& run = doc["runs"][0];
        NS_TEST_EXPECT_MSG_EQ(run["label"].get<std::string>(), "pair, hand", "label");
        NS_TEST_EXPECT_MSG_EQ(run["parameters"]["lossRate"].get<std::string>(), "0.01", "param");
        NS_TEST_EXPECT_MSG_EQ(run["planned_ms"].get<double>(), 420.5, "planned T");
        NS_TEST_EXPECT_MSG_EQ(run["events"].get<uint64_t>(), 1234, "events");
        NS_TEST_EXPECT_MSG_EQ(run["cross_tcp_bytes"].get<uint64_t>(), 5678, "TCP cross traffic");
        NS_TEST_EXPECT_MSG_EQ(run["exact"].get<bool>(), false, "exact");
        NS_TEST_EXPECT_MSG_EQ(run["peak_hbm_slots"].get<uint64_t>(), 3, "slots");
        NS_TEST_EXPECT_MSG_EQ(run["evictions"]["timeout"].get<uint64_t>(), 2, "timeouts");
        NS_TEST_EXPECT_MSG_EQ(run["lost_packets"]["core"].get<uint64_t>(), 1, "core loss");
        NS_TEST_EXPECT_MSG_EQ(run["disagreement"].get<double>(), 0.5, "A planned");
        NS_TEST_EXPECT_MSG_EQ(run["disagreement_measured"].get<double>(), 0.625, "A measured");
        NS_TEST_EXPECT_MSG_EQ(run["consensus_skew"].get<double>(), 0.125, "skew");
        NS_TEST_EXPECT_MSG_EQ(run["mixed_ms"].get<double>(), 418, "T measured");
        NS_TEST_EXPECT_MSG_EQ(run["objective"].get<double>(), 210.25, "J planned");
        NS_TEST_EXPECT_MSG_EQ(run["objective_measured"].get<double>(), 261.25, "J measured");
        NS_TEST_ASSERT_MSG_EQ(run["rounds"].size(), 2, "two rounds");
        const auto& first = run["rounds"][0];
        NS_TEST_EXPECT_MSG_EQ(first["round"].get<int>(), 1, "rounds count from 1");
        NS_TEST_EXPECT_MSG_EQ(first["measured_ms"].get<double>(), 415.25, "measured T");
        NS_TEST_EXPECT_MSG_EQ(first["evictions"]["completion"].get<uint64_t>(), 7, "evictions");
        const auto& island = first["islands"][0];
        NS_TEST_EXPECT_MSG_EQ(island["city"].get<std::string>(), "B", "city code");
        NS_TEST_EXPECT_MSG_EQ(island["bytes_out"].get<uint64_t>(), 2000, "bytes out");
        NS_TEST_EXPECT_MSG_EQ(island["repeats"].get<uint64_t>(), 3, "repeats discarded");
        NS_TEST_EXPECT_MSG_EQ(island["mixed_ms"].get<double>(), 415.25, "averaged");
        NS_TEST_EXPECT_MSG_EQ(island["held"]["A"].get<uint32_t>(), 3, "chunks held of A");
        NS_TEST_EXPECT_MSG_EQ(island["mixing"]["B"].get<double>(), 0.5, "weight of itself");
        NS_TEST_EXPECT_MSG_EQ(island["mixing_received"]["A"].get<double>(), 0.5, "received");
        NS_TEST_EXPECT_MSG_EQ(island["stream_erasures"].get<uint64_t>(), 4, "its FPGA's");
        NS_TEST_EXPECT_MSG_EQ(island["stream_rebuilt"].get<uint64_t>(), 3, "its FPGA's");
        NS_TEST_EXPECT_MSG_EQ(island.size(), 38, "every counter, the outcome and the mixing");
        NS_TEST_EXPECT_MSG_EQ(run["training"].size(), 0, "no training");
        NS_TEST_EXPECT_MSG_EQ(first["mixed_ms"].get<double>(), 415.25, "round averaged");
        const auto& ab = first["core_links"][0];
        NS_TEST_EXPECT_MSG_EQ(ab["from"].get<std::string>() + ab["to"].get<std::string>(),
                              "AB",
                              "direction");
        NS_TEST_EXPECT_MSG_EQ(ab["bytes"].get<uint64_t>(), 90000, "bytes");
        NS_TEST_EXPECT_MSG_EQ(ab["peak_queue_bytes"].get<uint64_t>(), 18004, "queue");
        NS_TEST_EXPECT_MSG_EQ(ab["peak_queue_ms"].get<double>(), 0.25, "queue time");
        NS_TEST_EXPECT_MSG_EQ(first["core_links"][1]["peak_queue_bytes"].get<uint64_t>(),
                              0,
                              "B->A never queued");
        const auto& second = run["rounds"][1];
        NS_TEST_EXPECT_MSG_EQ(second["measured_ms"].is_null(), true, "never completed: null");
        NS_TEST_EXPECT_MSG_EQ(second["islands"][0]["completion_ms"].is_null(), true, "null");
        NS_TEST_EXPECT_MSG_EQ(second["islands"][0]["given_up"].get<uint64_t>(), 4, "given up");
        NS_TEST_EXPECT_MSG_EQ(second["islands"][0]["mixed_ms"].get<double>(), 418, "gave up");
        NS_TEST_EXPECT_MSG_EQ(second["islands"][0]["mixing"]["A"].get<double>(), 0.25, "A less");
        NS_TEST_EXPECT_MSG_EQ(second["note"].get<std::string>(), "re-planned, without A-B", "");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The CSV table holds the same figures, one per row, and a file name
 * that says neither format is refused.
 */
class ResultWriterCsvTestCase : public WanTestCase
{
  public:
    ResultWriterCsvTestCase()
        : WanTestCase("CSV: one figure per row; the file name says the format")
    {
    }

  private:
    void DoCheck() override
    {
        WanResultWriter writer(TwoCities());
        writer.Add("pair, hand", HandResult());
        const auto csv = writer.ToCsv();
        std::istringstream lines(csv);
        std::string line;
        std::getline(lines, line);
        NS_TEST_EXPECT_MSG_EQ(line, "run,label,round,scope,subject,metric,value", "header");
        uint32_t rows = 0;
        while (std::getline(lines, line))
        {
            ++rows;
        }
        // run: 25 scalars (the label has its column; 6 of PIM, 2 of the
        // scale; the TCP cross traffic's bytes), 2 evictions, 3 losses, no parameters, no route
        // change; per round: 9 scalars, 2 evictions, 34 island scalars (the city is the subject), 2
        // held, 2 mixing and 2 mixing_received, 2 links x 5 figures.
        NS_TEST_EXPECT_MSG_EQ(rows, 25 + 2 + 3 + 2 * (9 + 2 + 34 + 2 + 2 + 2 + 2 * 5), "figures");
        for (const char* expected : {"1,\"pair, hand\",,run,,evictions.timeout,2\n",
                                     "1,\"pair, hand\",1,island,B,repeats,3\n",
                                     "1,\"pair, hand\",,run,,disagreement_measured,0.625\n",
                                     "1,\"pair, hand\",2,island,B,held.A,1\n",
                                     "1,\"pair, hand\",2,island,B,mixing.B,0.75\n",
                                     "1,\"pair, hand\",2,round,,measured_ms,\n",
                                     "1,\"pair, hand\",2,round,,note,\"re-planned, without A-B\"\n",
                                     "1,\"pair, hand\",1,core_link,A>B,peak_queue_bytes,18004\n",
                                     "1,\"pair, hand\",1,core_link,B>A,packets,11\n"})
        {
            NS_TEST_EXPECT_MSG_NE(csv.find(expected), std::string::npos, "row " << expected);
        }
        bool thrown = false;
        try
        {
            writer.Write("results.txt");
        }
        catch (const std::invalid_argument& e)
        {
            thrown = std::string(e.what()) == "packet output 'results.txt' must end in .csv or "
                                              ".json";
        }
        NS_TEST_EXPECT_MSG_EQ(thrown, true, "a .txt file is refused, by name");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Training added to a run: its summary and records under the
 * documented names, in JSON and CSV; a time never reached is null; training
 * before any run is refused.
 */
class ResultWriterTrainingTestCase : public WanTestCase
{
  public:
    ResultWriterTrainingTestCase()
        : WanTestCase("training: summary and records in JSON and CSV")
    {
    }

  private:
    void DoCheck() override
    {
        WanTrainingRunResult t;
        t.workload = "quadratic";
        t.policy = "quorum";
        t.computeS = 0.25;
        t.minimumLoss = 0.5;
        t.targetLoss = 0.75;
        t.carriedWeight = 0.125;
        t.packetRounds = {1, 2};
        for (uint32_t k = 0; k < 3; ++k)
        {
            WanTrainingRecord r;
            r.round = k;
            r.timeS = 0.5 * k;
            r.loss = 4.0 / (k + 1);
            r.localLoss = 1;
            r.modelLoss = 8.0 / (k + 1);
            r.consensusDistance = 2;
            t.history.push_back(r);
        }
        WanResultWriter writer(TwoCities());
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { writer.AddTraining(t); }),
                              "packet output: training added before any run",
                              "refused");
        writer.Add("pair, hand", HandResult());
        writer.AddTraining(t);
        const auto doc = nlohmann::json::parse(writer.ToJson());
        NS_TEST_ASSERT_MSG_EQ(doc["runs"][0]["training"].size(), 1, "one training");
        const auto& j = doc["runs"][0]["training"][0];
        NS_TEST_EXPECT_MSG_EQ(j["policy"].get<std::string>(), "quorum", "policy");
        NS_TEST_EXPECT_MSG_EQ(j["compute_s"].get<double>(), 0.25, "compute");
        NS_TEST_EXPECT_MSG_EQ(j["time_to_target_s"].is_null(), true, "never: null");
        NS_TEST_EXPECT_MSG_EQ(j["rounds_to_target"].is_null(), true, "never: null");
        NS_TEST_EXPECT_MSG_EQ(j["carried_weight"].get<double>(), 0.125, "carried");
        NS_TEST_EXPECT_MSG_EQ(j["final_model_loss"].get<double>(), 8.0 / 3, "final");
        NS_TEST_ASSERT_MSG_EQ(j["history"].size(), 3, "three records");
        NS_TEST_EXPECT_MSG_EQ(j["history"][0]["packet_round"].is_null(), true, "round 0");
        NS_TEST_EXPECT_MSG_EQ(j["history"][2]["packet_round"].get<int>(), 2, "packet round");
        NS_TEST_EXPECT_MSG_EQ(j["history"][2]["time_s"].get<double>(), 1, "time");
        NS_TEST_EXPECT_MSG_EQ(j["history"][1]["model_loss"].get<double>(), 4, "model loss");
        const auto csv = writer.ToCsv();
        for (const char* expected :
             {"1,\"pair, hand\",,training,quadratic/quorum,carried_weight,0.125\n",
              "1,\"pair, hand\",,training,quadratic/quorum,time_to_target_s,\n",
              "1,\"pair, hand\",2,training_round,quadratic/quorum,packet_round,2\n",
              "1,\"pair, hand\",1,training_round,quadratic/quorum,loss,2.0\n"})
        {
            NS_TEST_EXPECT_MSG_NE(csv.find(expected), std::string::npos, "row " << expected);
        }
        t.packetRounds.pop_back();
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { writer.AddTraining(t); }),
                              "packet output: a training of 3 records and 1 rounds (need one "
                              "record more than rounds)",
                              "refused");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A packet-level run's rounds hold its evictions (each counted in its
 * own round) and the core links' queues: two rounds of triangles at scale
 * 1000 have no queue in round 1 and at most one packet waiting in round 2
 * (a packet an idle link sends at once does not count).
 */
class ResultWriterRunTestCase : public WanTestCase
{
  public:
    ResultWriterRunTestCase()
        : WanTestCase("a run: evictions per round add up; core queues of triangles")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        CliqueExperimentHelper experiment(topo, PlannerConfig{});
        experiment.SetScale(1000);
        experiment.SetRounds(2);
        experiment.SetRecovery("accept"); // the data's chunks alone
        // No BFD or PIM packets in the core queues: only the streams wait there.
        experiment.SetFaultDetection("oracle");
        experiment.SetTreeBuilding("planner");
        const auto result = experiment.Run(CliqueScheduleBuiltins::Make("triangles", topo));
        NS_TEST_ASSERT_MSG_EQ(result.rounds.size(), 2, "two rounds");
        for (const auto& [cause, total] : result.evictions)
        {
            NS_TEST_EXPECT_MSG_EQ(result.rounds[0].evictions.at(cause) +
                                      result.rounds[1].evictions.at(cause),
                                  total,
                                  cause << ": the rounds add up to the run");
        }
        NS_TEST_EXPECT_MSG_EQ(result.rounds[0].evictions.at("completion"), 1008, "9 x 112");
        uint64_t peakFirst = 0;
        uint64_t peakSecond = 0;
        for (const auto& [hop, bytes] : result.rounds[0].corePeakQueueBytes)
        {
            peakFirst = std::max(peakFirst, bytes);
        }
        for (const auto& [hop, bytes] : result.rounds[1].corePeakQueueBytes)
        {
            peakSecond = std::max(peakSecond, bytes);
        }
        NS_TEST_EXPECT_MSG_EQ(peakFirst, 0, "round 1: no packet waits");
        // One 9000-byte IP packet and its 2-byte PPP header, times the scale.
        NS_TEST_EXPECT_MSG_EQ(peakSecond, 9002 * 1000, "round 2: one packet waits at most");
        const WanHop nycLon{topo.FindCity("NYC"), topo.FindCity("LON")};
        NS_TEST_EXPECT_MSG_EQ_TOL(result.rounds[1].corePeakQueueMs.at(nycLon),
                                  9002 * 8 / 100e6 * 1e3,
                                  1e-9,
                                  "NYC->LON: one packet's time at 100 Mbps (scaled)");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Packet-level results as JSON and CSV (WanResultWriter).
 */
class WanResultWriterTestSuite : public TestSuite
{
  public:
    WanResultWriterTestSuite()
        : TestSuite("wan-training-result-writer", Type::UNIT)
    {
        AddTestCase(new ResultWriterJsonTestCase);
        AddTestCase(new ResultWriterCsvTestCase);
        AddTestCase(new ResultWriterTrainingTestCase);
        AddTestCase(new ResultWriterRunTestCase);
    }
};

/// The suite's one instance.
static WanResultWriterTestSuite g_wanResultWriterTestSuite;
