/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-line-clique-fixture.h"
#include "wan-training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"

#include <set>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// The line with parity: blocks of 10 chunks, `parities` parity chunks each,
/// accept, and NACKs only after the run (2 s): no round trip repairs anything.
LineCliqueOptions
CodedOptions(uint32_t parities)
{
    LineCliqueOptions o;
    o.parityBlock = 10;
    o.parityChunks = parities;
    o.nackDelay = Seconds(5);
    return o;
}

/// ParitySized: keeps (rows, rate) in `out`.
void
Sized(std::vector<std::pair<uint32_t, double>>* out,
      uint32_t /* round */,
      uint32_t rows,
      double rate)
{
    out->emplace_back(rows, rate);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The FPGA sums the islands' parity like any chunk; B loses merged
 * chunk 5 on its access hop and rebuilds both peers' contributions from the
 * parity of its group, exactly and without a round trip.  With the rows
 * trailing the data (10 blocks of 10) the round completes one slot after
 * the lossless one: block 0's row is the first after chunk 99.  With each
 * block's row after it the lossless round ends 9 slots later (the rows of
 * blocks 0 to 8 go before chunk 99) and the lossy one with it.  Parity
 * chunks are sent and counted.
 */
class CodedMergedTestCase : public WanTestCase
{
  public:
    CodedMergedTestCase()
        : WanTestCase("parity rebuilds a lost MERGED chunk exactly, without a round trip")
    {
    }

  private:
    void DoCheck() override
    {
        Time lossless;
        {
            LineClique run(CodedOptions(1));
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact without loss");
            NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 0, "nothing to rebuild");
            NS_TEST_EXPECT_MSG_EQ(rec.paritySent, 10, "10 blocks, one parity each, one group");
            NS_TEST_EXPECT_MSG_EQ(rec.packetsIn, 110, "100 sums and 10 parity sums");
            const uint32_t wire = LineClique::kChunkBytes + WanChunkHeader().GetSerializedSize();
            // A parity chunk is a full chunk and carries its symbol's 7 other
            // words (56 bytes) in its header.
            NS_TEST_EXPECT_MSG_EQ(rec.bytesOut,
                                  110 * wire + 10 * 56,
                                  "parity chunks are full chunks");
            lossless = rec.completion;
        }
        auto interleaved = CodedOptions(1);
        interleaved.parityLayout = "interleaved";
        const Time between = LineClique(interleaved).islands[1]->GetRecord(0).completion;
        const Time slot = (between - lossless) / 9;
        NS_TEST_EXPECT_MSG_GT(slot, MicroSeconds(1), "a packet's time at the stream's rate");
        for (const std::string layout : {"trailing", "interleaved"})
        {
            auto o = CodedOptions(1);
            o.parityLayout = layout;
            o.dropsAtB = {5};
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, layout << ": all in");
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), layout << ": exact");
            NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 2, layout << ": A's and C's contributions");
            NS_TEST_EXPECT_MSG_EQ(rec.givenUp, 0, layout << ": nothing given up");
            const Time expected = layout == "trailing" ? lossless + slot : between;
            NS_TEST_EXPECT_MSG_EQ_TOL(rec.completion,
                                      expected,
                                      NanoSeconds(2),
                                      layout << ": done when its block's row is in");
            NS_TEST_EXPECT_MSG_EQ(rec.nacks + rec.retransmissions, 0, layout << ": no resend");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Without FPGAs each sender's parity reaches B apart: C's first DATA
 * chunk into B is lost and rebuilt from C's parity alone.
 */
class CodedDataTestCase : public WanTestCase
{
  public:
    CodedDataTestCase()
        : WanTestCase("without FPGAs a sender's lost chunk is rebuilt from its own parity")
    {
    }

  private:
    void DoCheck() override
    {
        auto o = CodedOptions(1);
        o.aggregation = false;
        // A's stream comes first: its 100 data chunks, then its 10 rows, each
        // in two IP fragments (a row's header carries 56 more bytes).
        o.dropsAtB = {120};
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, "all in");
        NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
        NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 1, "C's contribution");
        NS_TEST_EXPECT_MSG_EQ(rec.requested, 0, "nobody asked");
        NS_TEST_EXPECT_MSG_EQ(rec.parityBlocks, 20, "10 blocks of each peer");
        NS_TEST_EXPECT_MSG_EQ(rec.erasures, 1, "one");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Two losses in one block cannot be rebuilt from one parity (they
 * stay missing); two parities (the MDS code) rebuild them wherever they
 * fall, three rebuild any three, never four.
 */
class CodedBurstTestCase : public WanTestCase
{
  public:
    CodedBurstTestCase()
        : WanTestCase("one parity cannot rebuild two losses in a block; r parities rebuild any r")
    {
    }

  private:
    void DoCheck() override
    {
        {
            auto o = CodedOptions(1);
            o.dropsAtB = {0, 2}; // chunks 0 and 2: both in the block's one group
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 0, "two unknowns, one equation");
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, 196, "two chunks short, two peers each");
            NS_TEST_EXPECT_MSG_EQ(rec.sum,
                                  LineClique::ExpectedSum(1) - (1 + 3) * (1 + 3),
                                  "without (1 + 3) x (1 + 3): chunks 0 and 2 of A and C");
        }
        for (const std::set<uint32_t>& drops :
             {std::set<uint32_t>{0, 2}, std::set<uint32_t>{0, 1}, std::set<uint32_t>{3, 9}})
        {
            auto o = CodedOptions(2);
            o.dropsAtB = drops; // two in block 0, apart or in a burst
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 4, "both chunks, both peers, " << *drops.begin());
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
            NS_TEST_EXPECT_MSG_EQ(rec.paritySent, 20, "two per block");
        }
        {
            auto o = CodedOptions(3);
            o.dropsAtB = {1, 5, 8}; // three in block 0
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 6, "three chunks, two peers each");
            // The erasures the code faced: 10 blocks of 10 + 3, three erased.
            NS_TEST_EXPECT_MSG_EQ(rec.parityBlocks, 10, "blocks");
            NS_TEST_EXPECT_MSG_EQ(rec.paritySymbols, 130, "chunks of the blocks");
            NS_TEST_EXPECT_MSG_EQ(rec.erasures, 3, "erasures");
            NS_TEST_EXPECT_MSG_EQ(rec.blocksShort, 0, "none beyond the code");
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
            NS_TEST_EXPECT_MSG_EQ(rec.givenUp, 0, "nothing given up");
        }
        auto o = CodedOptions(3);
        o.dropsAtB = {0, 2, 4, 6}; // four in block 0: three equations, four unknowns
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 0, "not rebuilt");
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, 192, "four chunks short, two peers each");
        NS_TEST_EXPECT_MSG_EQ(rec.erasures, 4, "erasures");
        NS_TEST_EXPECT_MSG_EQ(rec.blocksShort, 1, "block 0, beyond the code");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief With early repair, a chunk found overdue waits for its group's
 * parity before anyone is asked: a loss the parity rebuilds costs no
 * request; two in one group are both asked for, and the first repair lets
 * the parity rebuild the second.
 */
class CodedEarlyTestCase : public WanTestCase
{
  public:
    CodedEarlyTestCase()
        : WanTestCase("coded + early: the parity is waited for before a request")
    {
    }

  private:
    void DoCheck() override
    {
        auto o = CodedOptions(1);
        o.aggregation = false;
        o.deadline = Seconds(0.8);
        o.peerIslands = true;
        o.arrivals = true;
        o.recovery = "early";
        o.dropsAtB = {120}; // C's chunk 0 (after A's 120 arrivals): rebuilt
        {
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
            NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 1, "from C's parity");
            NS_TEST_EXPECT_MSG_EQ(rec.requests, 0, "no request");
        }
        o.dropsAtB = {120, 122}; // C's chunks 0 and 2: one group, two losses
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
        NS_TEST_EXPECT_MSG_EQ(rec.requested, 2, "both asked for, once the parity could not");
        NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 1, "the first repair lets the parity rebuild the other");
        NS_TEST_EXPECT_MSG_EQ(rec.discarded, 1, "whose own repair is then a repeat");
        const double took = (rec.completion - rec.start).GetSeconds();
        NS_TEST_EXPECT_MSG_LT(took, run.plan.roundTime + 0.05, "within a round trip of T");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief More parity chunks than data chunks per block is refused.
 */
class CodedBadAttributeTestCase : public WanTestCase
{
  public:
    CodedBadAttributeTestCase()
        : WanTestCase("a parity layout with more parities than chunks per block is refused")
    {
    }

  private:
    void DoCheck() override
    {
        auto app = CreateObject<WanIslandApplication>();
        app->SetAttribute("Parity", BooleanValue(true));
        app->SetAttribute("ParityBlock", UintegerValue(4));
        app->SetAttribute("ParityChunks", UintegerValue(5));
        WanIslandRound r;
        r.payloadBytes = 100000;
        r.rate = DataRate("1Gbps");
        const auto e = ErrorOf([&]() { app->AddRound(r); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "5 parity chunks per block of 4, need 1 to 4"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Where the parity is decoded: A's chunk 1 and C's chunk 2 (one
 * block, one parity) are lost before B's FPGA.  Decoded by the island, over
 * the sums, the block has two erasures (the union of the two streams'
 * losses) and one parity: nothing is rebuilt.  Decoded per stream at the
 * FPGA, each stream lost one chunk and its own parity rebuilds it: every
 * sum is exact, the round ends within a chunk's time of the lossless one.  Without room in
 * HBM for a block's copies the FPGA decodes nothing.
 */
class CodedAtFpgaTestCase : public WanTestCase
{
  public:
    CodedAtFpgaTestCase()
        : WanTestCase("parity decoded per stream at the FPGA: one path's losses, not the union")
    {
    }

  private:
    void DoCheck() override
    {
        Time lossless; // the rows trailing
        Time between;  // each block's row after it
        {
            auto o = CodedOptions(1);
            o.decodeBytes = 100000000;
            LineClique run(o);
            lossless = run.islands[1]->GetRecord(0).completion;
            const auto& totals = run.fpgas[1]->GetStreamDecoder()->GetTotals();
            NS_TEST_EXPECT_MSG_EQ(totals.blocks, 20, "10 blocks of A's stream and of C's");
            NS_TEST_EXPECT_MSG_EQ(totals.symbols, 220, "110 chunks each");
            NS_TEST_EXPECT_MSG_EQ(totals.erasures, 0, "lossless");
        }
        {
            auto o = CodedOptions(1);
            o.decodeBytes = 100000000;
            o.parityLayout = "interleaved";
            between = LineClique(o).islands[1]->GetRecord(0).completion;
        }
        // A's and C's chunks reach B's edge in turn: arrival 2 is A's chunk
        // 1, arrival 5 C's chunk 2.
        auto o = CodedOptions(1);
        o.dropsAtEdgeB = {2, 5};
        o.beforeRun = [](LineClique& run) {
            // Not asked of the senders either: only the parity repairs.
            run.fpgas[1]->SetAttribute("RepairInNetwork", BooleanValue(false));
        };
        {
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(run.edgeDrops->m_dropped, 2, "");
            NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 0, "two erasures over the sums, one parity");
            NS_TEST_EXPECT_MSG_EQ(rec.erasures, 2, "the union of both streams' losses");
            NS_TEST_EXPECT_MSG_EQ(rec.blocksShort, 1, "");
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, 198, "");
            NS_TEST_EXPECT_MSG_EQ((run.fpgas[1]->GetStreamDecoder() == nullptr),
                                  true,
                                  "no decoder");
        }
        o.decodeBytes = 100000000;
        // A lossy block's copies wait in HBM for its rows: with the rows
        // trailing, until the stream's data are in (block 0 of each stream,
        // 9 copies each, beside each stream's block in progress, 9 each, and
        // a row: 37); with each block's row after it, the two lossy blocks
        // and a row (19).
        for (const auto& [layout, peak] : {std::pair<std::string, uint64_t>{"trailing", 37},
                                           std::pair<std::string, uint64_t>{"interleaved", 19}})
        {
            o.parityLayout = layout;
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, "all in");
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
            NS_TEST_EXPECT_MSG_EQ(rec.rebuilt, 0, "the island had nothing left to rebuild");
            NS_TEST_EXPECT_MSG_EQ(rec.erasures, 0, "");
            // The two rebuilt sums leave with the block's parity, late: the
            // access hop, as fast as the stream, stays one chunk behind.
            const Time chunk = MicroSeconds(8);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(rec.completion -
                                            (layout == "trailing" ? lossless : between),
                                        chunk,
                                        layout << ": within a chunk's time of the lossless round");
            const auto& totals = run.fpgas[1]->GetStreamDecoder()->GetTotals();
            NS_TEST_EXPECT_MSG_EQ(totals.rebuilt, 2, "one per stream");
            NS_TEST_EXPECT_MSG_EQ(totals.erasures, 2, "one per stream");
            NS_TEST_EXPECT_MSG_EQ(totals.short_, 0, "");
            NS_TEST_EXPECT_MSG_EQ(totals.evicted, 0, "");
            NS_TEST_EXPECT_MSG_EQ(run.fpgas[1]->GetStreamDecoder()->GetPeakBuffered(),
                                  peak,
                                  layout << ": copies freed as blocks complete or decode");
        }
        o.parityLayout = "trailing";
        // Room for 3 chunks: every block's copies are taken before its parity.
        o.decodeBytes = 3 * 9000;
        {
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, 198, "not decoded at the FPGA, nor after");
            const auto& totals = run.fpgas[1]->GetStreamDecoder()->GetTotals();
            NS_TEST_EXPECT_MSG_EQ(totals.rebuilt, 0, "");
            NS_TEST_EXPECT_MSG_GT(totals.evicted, 0, "blocks evicted for lack of HBM");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Parity sized per round and stream from the FPGAs' reports: round
 * 0 sends the code's 4 rows per block of 10; B's FPGA loses A's chunk 1
 * and C's chunk 2 and reports them, so that round 1 sends the least rows
 * for each stream's worst receiver (epsilon 1e-2): A and C 3 (1 of 100,
 * Wilson upper bound 5.45%), B 2 (0 of 100, 3.70%).
 */
class CodedSizedTestCase : public WanTestCase
{
  public:
    CodedSizedTestCase()
        : WanTestCase("parity sized per round and stream from the loss the FPGAs report")
    {
    }

  private:
    void DoCheck() override
    {
        auto o = CodedOptions(4);
        o.decodeBytes = 100000000;
        o.paritySizing = 1e-2;
        o.rounds = 2;
        o.dropsAtEdgeB = {2, 5};
        // Per island: (rows, rate) as each round started.
        std::vector<std::vector<std::pair<uint32_t, double>>> sized(3);
        o.beforeRun = [&](LineClique& run) {
            for (uint32_t c = 0; c < 3; ++c)
            {
                run.fpgas[c]->SetAttribute("RepairInNetwork", BooleanValue(false));
                run.islands[c]->TraceConnectWithoutContext("ParitySized",
                                                           MakeBoundCallback(&Sized, &sized[c]));
            }
        };
        LineClique run(o);
        NS_TEST_EXPECT_MSG_EQ(run.edgeDrops->m_dropped, 2, "");
        const std::vector<uint32_t> rows{3, 2, 3}; // A, B, C in round 1
        for (uint32_t c = 0; c < 3; ++c)
        {
            NS_TEST_ASSERT_MSG_EQ(sized[c].size(), 2, "sized as each round starts");
            NS_TEST_EXPECT_MSG_EQ(sized[c][0].first, 4, "no report yet: every row");
            NS_TEST_EXPECT_MSG_EQ(sized[c][0].second, -1, "no rate");
            NS_TEST_EXPECT_MSG_EQ(sized[c][1].first, rows[c], "island " << c);
            const auto first = run.islands[c]->GetRecord(0);
            const auto second = run.islands[c]->GetRecord(1);
            NS_TEST_EXPECT_MSG_EQ(first.parityRows, 4, "");
            NS_TEST_EXPECT_MSG_EQ(second.parityRows, rows[c], "");
            NS_TEST_EXPECT_MSG_EQ(first.paritySent, 40, "10 blocks x 4");
            NS_TEST_EXPECT_MSG_EQ(second.paritySent, 10 * rows[c], "10 blocks x rows");
            // Each of the two receivers' FPGAs reports each of 10 blocks.
            NS_TEST_EXPECT_MSG_EQ(first.lossReports, 20, "");
            NS_TEST_EXPECT_MSG_EQ(second.lossReports, 20, "");
            for (uint32_t k = 0; k < 2; ++k)
            {
                const auto rec = run.islands[c]->GetRecord(k);
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, "round " << k);
                NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(c), "exact");
            }
        }
        // The worst receiver's upper bound: 1 of 100 for A and C, 0 for B.
        const double z = 1.959963984540054;
        NS_TEST_EXPECT_MSG_EQ_TOL(sized[0][1].second, 0.05448619617870529, 1e-12, "A");
        NS_TEST_EXPECT_MSG_EQ_TOL(sized[1][1].second, z * z / (100 + z * z), 1e-12, "B");
        NS_TEST_EXPECT_MSG_EQ_TOL(sized[2][1].second, 0.05448619617870529, 1e-12, "C");
        // B's FPGA rebuilt both losses from the streams' parity.
        const auto& totals = run.fpgas[1]->GetStreamDecoder()->GetTotals();
        NS_TEST_EXPECT_MSG_EQ(totals.rebuilt, 2, "");
        NS_TEST_EXPECT_MSG_EQ(totals.blocks, 40, "10 blocks of A's and C's streams, 2 rounds");
        // Round 1's blocks carried their streams' rows: 10 + 3 symbols each.
        NS_TEST_EXPECT_MSG_EQ(totals.symbols, 20 * 14 + 20 * 13, "");
        NS_TEST_EXPECT_MSG_EQ(run.fpgas[1]->GetLossReports(), 40, "one per block it decoded");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Parity decoded at the island, sized from what the islands report
 * (ReportLoss): B loses merged chunk 5 of round 0 on its access hop; at each
 * block's first parity every island REPORTs to its two peers how many of
 * the block's 10 sums hold both peers' contributions, and counts it for
 * itself.  Every sender then sizes round 1 from the same three receivers,
 * the worst B (1 of 100): Wilson's upper end 0.0545, 3 rows of 4, at A, B
 * and C alike; B rebuilds both contributions to chunk 5 from the sums'
 * parity.
 */
class CodedSizedAtIslandTestCase : public WanTestCase
{
  public:
    CodedSizedAtIslandTestCase()
        : WanTestCase("parity decoded at the island, sized from the sums' erasures islands report")
    {
    }

  private:
    void DoCheck() override
    {
        auto o = CodedOptions(4);
        o.paritySizing = 1e-2;
        o.rounds = 2;
        o.peerIslands = true;
        o.dropsAtB = {5};
        std::vector<std::vector<std::pair<uint32_t, double>>> sized(3);
        o.beforeRun = [&](LineClique& run) {
            for (uint32_t c = 0; c < 3; ++c)
            {
                run.islands[c]->SetAttribute("ReportLoss", BooleanValue(true));
                run.islands[c]->TraceConnectWithoutContext("ParitySized",
                                                           MakeBoundCallback(&Sized, &sized[c]));
            }
        };
        LineClique run(o);
        for (uint32_t c = 0; c < 3; ++c)
        {
            NS_TEST_ASSERT_MSG_EQ(sized[c].size(), 2, "sized as each round starts");
            NS_TEST_EXPECT_MSG_EQ(sized[c][0].first, 4, "no report yet: every row");
            NS_TEST_EXPECT_MSG_EQ(sized[c][1].first, 3, "island " << c);
            NS_TEST_EXPECT_MSG_EQ_TOL(sized[c][1].second,
                                      0.05448619617870529,
                                      1e-12,
                                      "B's 1 of 100, island " << c);
            // Its two peers report each of the 10 blocks of each round.
            NS_TEST_EXPECT_MSG_EQ(run.islands[c]->GetRecord(0).lossReports, 20, "");
            NS_TEST_EXPECT_MSG_EQ(run.islands[c]->GetRecord(1).lossReports, 20, "");
            NS_TEST_EXPECT_MSG_EQ(run.islands[c]->GetRecord(1).paritySent, 30, "10 x 3");
            for (uint32_t k = 0; k < 2; ++k)
            {
                const auto rec = run.islands[c]->GetRecord(k);
                NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, "round " << k);
                NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(c), "exact");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(run.islands[1]->GetRecord(0).rebuilt, 2, "A's and C's to chunk 5");
        NS_TEST_EXPECT_MSG_EQ(run.islands[1]->GetRecord(0).requested, 0, "nobody asked");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Coded repair at packet level.
 */
class WanCodedRepairTestSuite : public TestSuite
{
  public:
    WanCodedRepairTestSuite()
        : TestSuite("wan-training-coded-repair", Type::UNIT)
    {
        AddTestCase(new CodedMergedTestCase);
        AddTestCase(new CodedDataTestCase);
        AddTestCase(new CodedBurstTestCase);
        AddTestCase(new CodedEarlyTestCase);
        AddTestCase(new CodedAtFpgaTestCase);
        AddTestCase(new CodedSizedTestCase);
        AddTestCase(new CodedSizedAtIslandTestCase);
        AddTestCase(new CodedBadAttributeTestCase);
    }
};

/// The suite's instance.
static WanCodedRepairTestSuite g_wanCodedRepairTestSuite;
