/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-line-clique-fixture.h"
#include "wan-training-test-utils.h"

#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wan-round-recorder.h"

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The recorder gathers, from trace sources only, what each island
 * received (the same records the islands keep), whether its sum is exact,
 * and the FPGAs' evictions and peak occupancy.
 */
class RecorderLineCliqueTestCase : public WanTestCase
{
  public:
    RecorderLineCliqueTestCase()
        : WanTestCase("recorder: each island's record, exactness, evictions and peak HBM")
    {
    }

  private:
    void DoCheck() override
    {
        WanRoundRecorder recorder;
        LineCliqueOptions o;
        o.dropsAtB = {5};
        o.deadline = Seconds(0.8);
        o.beforeRun = [&recorder](LineClique& run) {
            for (uint32_t c = 0; c < 3; ++c)
            {
                recorder.WatchIsland(run.islands[c]);
                recorder.WatchFpga(run.fpgas[c], c);
            }
        };
        LineClique run(o);
        for (uint32_t c = 0; c < 3; ++c)
        {
            const auto* r = recorder.Find(0, c);
            NS_TEST_ASSERT_MSG_EQ((r != nullptr), true, "island " << c << " reported round 0");
            const auto kept = run.islands[c]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(r->delivered, 200, "two peers x 100 chunks");
            NS_TEST_EXPECT_MSG_EQ(r->sum, LineClique::ExpectedSum(c), "the sum");
            NS_TEST_EXPECT_MSG_EQ(r->bytesIn, kept.bytesIn, "as the island kept it");
            NS_TEST_EXPECT_MSG_EQ(r->bytesOut, kept.bytesOut, "as the island kept it");
            NS_TEST_EXPECT_MSG_EQ(r->nacks, kept.nacks, "as the island kept it");
            NS_TEST_EXPECT_MSG_EQ(r->value, c + 1, "its value");
            NS_TEST_EXPECT_MSG_EQ(r->chunks, 100, "its chunks");
            NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(0, c), true, "exact at " << c);
        }
        NS_TEST_EXPECT_MSG_EQ(recorder.Find(0, 1)->retransmissions, 1, "B's resent packet");
        NS_TEST_EXPECT_MSG_EQ((recorder.Find(1, 0) == nullptr), true, "no round 1");
        NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(1, 0), false, "nothing reported: not exact");
        const auto total = recorder.GetTotal(0);
        NS_TEST_EXPECT_MSG_EQ(total.delivered, 600, "three islands x 200");
        NS_TEST_EXPECT_MSG_EQ(total.expected, 600, "three islands x 200");
        NS_TEST_EXPECT_MSG_EQ(total.packetsIn, 300, "one MERGED packet per chunk each");
        const std::map<std::string, uint64_t> evictions = {{"completion", 300},
                                                           {"conflict", 0},
                                                           {"flush", 0},
                                                           {"request", 0},
                                                           {"timeout", 0}};
        NS_TEST_EXPECT_MSG_EQ((recorder.GetEvictions() == evictions), true, "100 per FPGA");
        uint64_t peak = 0;
        for (const auto& f : run.fpgas)
        {
            peak = std::max(peak, f->GetSlotTable()->GetPeakOccupancy());
        }
        NS_TEST_EXPECT_MSG_GT(peak, 0, "slots were used");
        NS_TEST_EXPECT_MSG_EQ(recorder.GetPeakSlots(), peak, "the tables' own peak");
        NS_TEST_EXPECT_MSG_EQ(recorder.GetDrops().empty(), true, "nothing dropped");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Exactness comes from the records: a wrong sum, a short count or a
 * clique member that reported nothing makes an island's round inexact; a
 * later report of the same round replaces the earlier one.
 */
class RecorderExactnessTestCase : public WanTestCase
{
  public:
    RecorderExactnessTestCase()
        : WanTestCase("recorder: exact only with the right count, sum and every member")
    {
    }

  private:
    /// @return island `city`'s record of round 2, clique 1 of {0, 1, 2}, 4 chunks
    /// (island 3 is alone in clique 0)
    static WanIslandRecord Record(uint32_t city, double sum)
    {
        WanIslandRecord r;
        r.round = 2;
        r.clique = 1;
        r.sender = static_cast<uint16_t>(city);
        r.peers = 2;
        r.value = city + 1;
        r.chunks = 4;
        r.expected = 8;
        r.delivered = 8;
        r.sum = sum;
        return r;
    }

    void DoCheck() override
    {
        // Values 1, 2, 3; x (1 + 2 + 3 + 4) = 10.
        WanRoundRecorder recorder;
        recorder.RecordRound(Record(0, 50));
        recorder.RecordRound(Record(1, 40));
        NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(2, 0), false, "island 2 has not reported");
        recorder.RecordRound(Record(2, 30));
        auto otherClique = Record(3, 0);
        otherClique.clique = 0;
        otherClique.peers = 0;
        otherClique.delivered = 0;
        otherClique.expected = 0;
        recorder.RecordRound(otherClique);
        NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(2, 0), true, "(2 + 3) x 10");
        NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(2, 1), true, "(1 + 3) x 10");
        NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(2, 2), true, "(1 + 2) x 10");
        recorder.RecordRound(Record(1, 41));
        NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(2, 1), false, "a later, wrong report");
        auto shortCount = Record(2, 30);
        shortCount.delivered = 7;
        recorder.RecordRound(shortCount);
        NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(2, 2), false, "one contribution short");
        NS_TEST_EXPECT_MSG_EQ(recorder.IsExact(2, 0), true, "the others' values still known");
        NS_TEST_EXPECT_MSG_EQ(recorder.GetTotal(2).delivered, 23, "8 + 8 + 7");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief When an island averaged a round: its completion when it first
 * reports a complete round, else the time of that first report; later
 * reports (a late arrival) change nothing.
 */
class RecorderMixedAtTestCase : public WanTestCase
{
  public:
    RecorderMixedAtTestCase()
        : WanTestCase("recorder: an island averages at its completion, or when it gives up")
    {
    }

  private:
    void DoCheck() override
    {
        WanRoundRecorder recorder;
        auto report = [&recorder](uint32_t city, double at, double completion) {
            WanIslandRecord r;
            r.sender = city;
            r.completion = Seconds(completion);
            Simulator::Schedule(Seconds(at), &WanRoundRecorder::RecordRound, &recorder, r);
        };
        report(1, 2, 1.5); // complete at 1.5 s, reported at the deadline (2 s) ...
        report(1, 3, 1.5); // ... and again
        report(2, 2, 0);   // given up at 2 s ...
        report(2, 4, 3.5); // ... then completed by a late arrival
        Simulator::Run();
        Simulator::Destroy();
        NS_TEST_EXPECT_MSG_EQ(recorder.GetMixedAt(0, 1), Seconds(1.5), "its completion");
        NS_TEST_EXPECT_MSG_EQ(recorder.GetMixedAt(0, 2), Seconds(2), "when it gave up");
        NS_TEST_EXPECT_MSG_EQ(recorder.Find(0, 2)->completion, Seconds(3.5), "latest record");
        NS_TEST_EXPECT_MSG_EQ(recorder.GetMixedAt(0, 3), Time(0), "never reported");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A distributed run's bookkeeping: what one recorder saved, merged
 * into another that holds the other islands, gives the records, mixing
 * times, evictions (summed), drops, peak (the larger) and FPGA stream
 * blocks of both.
 */
class RecorderMergeTestCase : public WanTestCase
{
  public:
    RecorderMergeTestCase()
        : WanTestCase("recorder: one rank's records saved and merged into rank 0's")
    {
    }

  private:
    void DoCheck() override
    {
        WanRoundRecorder rank0;
        WanRoundRecorder rank1;
        WanIslandRecord a;
        a.round = 3;
        a.sender = 0;
        a.delivered = 7;
        a.sum = 12.5;
        a.completion = NanoSeconds(1234567891);
        WanIslandRecord b = a;
        b.sender = 5;
        b.requested = 2;
        b.lateChunks = {4, 9};
        b.heldPerPosition = {3, 0, 3};
        b.averaged = {{2, {1, 2}}, {3, {4}}};
        rank0.RecordRound(a);
        rank1.RecordRound(b);
        rank0.RecordEviction(3, 0, "completion", 2);
        rank1.RecordEviction(3, 1, "completion", 2);
        rank1.RecordEviction(4, 1, "timeout", 1);
        rank0.RecordPeak(0, 5);
        rank1.RecordPeak(0, 9);
        rank1.RecordDrop(nullptr, "malformed");
        FpgaStreamDecoder::Block block;
        block.round = 3;
        block.symbols = 10;
        block.erasures = 3;
        block.rebuilt = 2;
        block.short_ = true;
        WanRoundRecorder::RecordStreamBlock(&rank1, 5, block);
        WanRoundRecorder::RecordStreamBlock(&rank1, 5, block);
        rank0.Merge(rank1.Save());
        const auto* merged = rank0.Find(3, 5);
        NS_TEST_ASSERT_MSG_NE(merged, nullptr, "rank 1's island");
        NS_TEST_EXPECT_MSG_EQ(merged->requested, 2, "its counters");
        NS_TEST_EXPECT_MSG_EQ(merged->completion, NanoSeconds(1234567891), "its completion");
        NS_TEST_EXPECT_MSG_EQ((merged->lateChunks == std::set<uint32_t>{4, 9}), true, "late");
        NS_TEST_EXPECT_MSG_EQ((merged->heldPerPosition == b.heldPerPosition), true, "held");
        NS_TEST_EXPECT_MSG_EQ((merged->averaged == b.averaged), true, "averaged");
        NS_TEST_EXPECT_MSG_EQ(merged->sum, 12.5, "its sum");
        NS_TEST_EXPECT_MSG_EQ(rank0.GetMixedAt(3, 5), NanoSeconds(1234567891), "mixed");
        NS_TEST_EXPECT_MSG_EQ(rank0.Find(3, 0)->delivered, 7, "rank 0's own island kept");
        NS_TEST_EXPECT_MSG_EQ(rank0.GetEvictions().at("completion"), 2, "summed");
        NS_TEST_EXPECT_MSG_EQ(rank0.GetEvictions(4).at("timeout"), 1, "per round");
        NS_TEST_EXPECT_MSG_EQ(rank0.GetPeakSlots(), 9, "the larger peak");
        NS_TEST_EXPECT_MSG_EQ(rank0.GetDrops().at("malformed"), 1, "drops");
        const auto stream = rank0.GetIslandResult(3, 5, 1).stream;
        NS_TEST_EXPECT_MSG_EQ(stream.blocks, 2, "its FPGA's stream blocks");
        NS_TEST_EXPECT_MSG_EQ(stream.symbols, 20, "");
        NS_TEST_EXPECT_MSG_EQ(stream.erasures, 6, "");
        NS_TEST_EXPECT_MSG_EQ(stream.rebuilt, 4, "");
        NS_TEST_EXPECT_MSG_EQ(stream.short_, 2, "");
        NS_TEST_EXPECT_MSG_EQ(stream.evicted, 0, "");
        NS_TEST_EXPECT_MSG_EQ(rank0.GetIslandResult(3, 0, 1).stream.blocks, 0, "none for island 0");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { rank0.Merge("{}"); }), "not a saved round recorder"),
            true,
            "bad text refused");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-round-recorder test suite.
 */
class WanRoundRecorderTestSuite : public TestSuite
{
  public:
    WanRoundRecorderTestSuite()
        : TestSuite("wan-training-round-recorder", Type::UNIT)
    {
        AddTestCase(new RecorderMixedAtTestCase);
        AddTestCase(new RecorderLineCliqueTestCase);
        AddTestCase(new RecorderExactnessTestCase);
        AddTestCase(new RecorderMergeTestCase);
    }
};

/// The suite's instance.
static WanRoundRecorderTestSuite g_wanRoundRecorderTestSuite;
