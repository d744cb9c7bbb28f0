/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-contribution-ledger.h"

using namespace ns3;
using namespace ns3::wantest;

namespace
{

using Verdict = WanContributionLedger::Verdict;

/**
 * @param set the positions held
 * @return them as a source set
 */
WanSourceSet
Sources(const std::vector<uint32_t>& set)
{
    return WanSourceSet::FromPositions(set);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Sums and single contributions are accepted once; a packet that
 * repeats any contribution already held is discarded whole, whatever order
 * the copies come in.
 */
class LedgerRepeatTestCase : public WanTestCase
{
  public:
    LedgerRepeatTestCase()
        : WanTestCase("a repeated contribution is discarded, the sum stays exact")
    {
    }

  private:
    void DoCheck() override
    {
        // A clique of 4 (this island at position 1), 2 chunks: 3 x 2 = 6 owed.
        WanContributionLedger l;
        l.AddRound(7, 2, 4, 1);
        NS_TEST_EXPECT_MSG_EQ(l.GetAccount(7).counters.expected, 6, "3 peers x 2 chunks");
        // Chunk 0: a sum of positions 0 and 2 (values 10 + 30), twice, then 3.
        const auto sum02 = Sources({0, 2});
        NS_TEST_EXPECT_MSG_EQ(int(l.Offer(7, 0, sum02, 2, 40, false)), int(Verdict::ACCEPTED), "");
        NS_TEST_EXPECT_MSG_EQ(int(l.Offer(7, 0, sum02, 2, 40, false)), int(Verdict::REPEATED), "");
        // A sum that overlaps by one position is discarded whole.
        NS_TEST_EXPECT_MSG_EQ(int(l.Offer(7, 0, Sources({2, 3}), 2, 70, false)),
                              int(Verdict::REPEATED),
                              "overlap");
        NS_TEST_EXPECT_MSG_EQ(int(l.OfferOne(7, 0, 3, 40, false)), int(Verdict::ACCEPTED), "");
        NS_TEST_EXPECT_MSG_EQ(int(l.OfferOne(7, 0, 3, 40, false)), int(Verdict::REPEATED), "");
        // Chunk 1 in reverse order, one by one: 3, 2, 0, then a resent 2.
        for (uint32_t p : {3u, 2u, 0u})
        {
            NS_TEST_EXPECT_MSG_EQ(int(l.OfferOne(7, 1, p, 100 * (p + 1), false)),
                                  int(Verdict::ACCEPTED),
                                  "position " << p);
        }
        NS_TEST_EXPECT_MSG_EQ(int(l.OfferOne(7, 1, 2, 300, false)), int(Verdict::REPEATED), "");
        const auto& a = l.GetAccount(7);
        NS_TEST_EXPECT_MSG_EQ(a.counters.delivered, 6, "each once");
        NS_TEST_EXPECT_MSG_EQ(a.counters.discarded, 4, "four repeats");
        // 40 + 40 (chunk 0) + 400 + 300 + 100 (chunk 1)
        NS_TEST_EXPECT_MSG_EQ(a.sum, 880, "exact sum");
        NS_TEST_EXPECT_MSG_EQ(l.IsComplete(7), true, "complete");
        NS_TEST_EXPECT_MSG_EQ(l.GetMissing(7).empty(), true, "nothing missing");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief What cannot be a contribution of the round is refused, not counted.
 */
class LedgerRefusalTestCase : public WanTestCase
{
  public:
    LedgerRefusalTestCase()
        : WanTestCase("unknown rounds, chunks and positions are refused")
    {
    }

  private:
    void DoCheck() override
    {
        WanContributionLedger l;
        l.AddRound(0, 3, 3, 0);
        const std::vector<std::pair<Verdict, Verdict>> cases = {
            {l.OfferOne(1, 0, 1, 5, false), Verdict::UNKNOWN_ROUND},
            {l.OfferOne(0, 3, 1, 5, false), Verdict::CHUNK_OUT_OF_RANGE},
            {l.OfferOne(0, 0, 0, 5, false), Verdict::BAD_SOURCES},               // its own
            {l.OfferOne(0, 0, 3, 5, false), Verdict::BAD_SOURCES},               // beyond
            {l.Offer(0, 0, Sources({1, 3}), 2, 5, false), Verdict::BAD_SOURCES}, // 3 beyond
            {l.Offer(0, 0, Sources({1, 2}), 3, 5, false), Verdict::BAD_SOURCES}, // 2 != 3
        };
        for (size_t k = 0; k < cases.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(int(cases[k].first), int(cases[k].second), "case " << k);
        }
        NS_TEST_EXPECT_MSG_EQ(l.GetAccount(0).counters.delivered, 0, "nothing counted");
        NS_TEST_EXPECT_MSG_EQ(l.GetAccount(0).sum, 0, "nothing summed");
        NS_TEST_EXPECT_MSG_EQ(WanContributionLedger::ToString(Verdict::CHUNK_OUT_OF_RANGE),
                              "chunk out of range",
                              "reason");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { l.AddRound(0, 3, 3, 0); }), "twice"),
                              true,
                              "a round twice");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { l.AddRound(1, 3, 3, 3); }),
                                       "position 3 outside a clique of 3"),
                              true,
                              "position outside");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { l.AddRound(2, 0, 3, 0); }), "one chunk"),
                              true,
                              "no chunk");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A 40-island clique: no 32-member limit on what a chunk can hold.
 */
class LedgerWideCliqueTestCase : public WanTestCase
{
  public:
    LedgerWideCliqueTestCase()
        : WanTestCase("a clique of 40 islands: every position tracked")
    {
    }

  private:
    void DoCheck() override
    {
        WanContributionLedger l;
        l.AddRound(0, 1, 40, 5);
        std::vector<uint32_t> low;
        std::vector<uint32_t> high;
        for (uint32_t p = 0; p < 40; ++p)
        {
            if (p != 5)
            {
                (p < 32 ? low : high).push_back(p);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(int(l.Offer(0, 0, Sources(low), 31, 31, false)),
                              int(Verdict::ACCEPTED),
                              "positions below 32");
        NS_TEST_EXPECT_MSG_EQ(
            (l.GetMissing(0) == std::vector<std::pair<uint32_t, uint32_t>>{{0, 32},
                                                                           {0, 33},
                                                                           {0, 34},
                                                                           {0, 35},
                                                                           {0, 36},
                                                                           {0, 37},
                                                                           {0, 38},
                                                                           {0, 39}}),
            true,
            "32 to 39 missing");
        NS_TEST_EXPECT_MSG_EQ(int(l.OfferOne(0, 0, 39, 1, false)), int(Verdict::ACCEPTED), "39");
        NS_TEST_EXPECT_MSG_EQ(int(l.Offer(0, 0, Sources(high), 8, 8, false)),
                              int(Verdict::REPEATED),
                              "39 again, within a sum");
        NS_TEST_EXPECT_MSG_EQ(l.GetAccount(0).counters.delivered, 32, "31 + 1");
        NS_TEST_EXPECT_MSG_EQ(l.GetMissing(0).size(), 7, "32 to 38 missing");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A 70-island clique (this island at 5, 2 chunks, 138 owed): sums
 * from positions on both sides of 32 and 64 merge, a repeat is caught in
 * either word, and the round completes at exactly the 138th contribution.
 */
class LedgerSeventyTestCase : public WanTestCase
{
  public:
    LedgerSeventyTestCase()
        : WanTestCase("a clique of 70: repeats across the 32 and 64 boundaries, exact completion")
    {
    }

  private:
    /// @return the sum of position + 1 over the positions
    static double ValueOf(const std::vector<uint32_t>& positions)
    {
        double v = 0;
        for (auto p : positions)
        {
            v += p + 1;
        }
        return v;
    }

    /// Offers the positions as one sum to chunk 0 of round 0.
    static Verdict Sum(WanContributionLedger& l, const std::vector<uint32_t>& positions)
    {
        return l.Offer(0, 0, Sources(positions), positions.size(), ValueOf(positions), false);
    }

    void DoCheck() override
    {
        WanContributionLedger l;
        l.AddRound(0, 2, 70, 5);
        NS_TEST_EXPECT_MSG_EQ(l.GetAccount(0).counters.expected, 138, "69 peers x 2 chunks");
        NS_TEST_EXPECT_MSG_EQ(int(Sum(l, {0, 33, 63, 69})), int(Verdict::ACCEPTED), "merged");
        NS_TEST_EXPECT_MSG_EQ(int(l.OfferOne(0, 0, 69, 70, false)), int(Verdict::REPEATED), "69");
        NS_TEST_EXPECT_MSG_EQ(int(Sum(l, {64, 63})), int(Verdict::REPEATED), "63, beside a new 64");
        NS_TEST_EXPECT_MSG_EQ(int(Sum(l, {32, 33})), int(Verdict::REPEATED), "33, beside 32");
        NS_TEST_EXPECT_MSG_EQ(int(Sum(l, {31, 32, 64})), int(Verdict::ACCEPTED), "new ones");
        NS_TEST_EXPECT_MSG_EQ(int(Sum(l, {70})), int(Verdict::BAD_SOURCES), "beyond the clique");
        NS_TEST_EXPECT_MSG_EQ(int(Sum(l, {5, 6})), int(Verdict::BAD_SOURCES), "its own");
        const auto& a = l.GetAccount(0);
        NS_TEST_EXPECT_MSG_EQ(a.counters.delivered, 7, "4 + 3");
        NS_TEST_EXPECT_MSG_EQ(a.counters.discarded, 3, "three repeats");
        NS_TEST_EXPECT_MSG_EQ(a.sum, 169 + 32 + 33 + 65, "the accepted sums only");
        NS_TEST_EXPECT_MSG_EQ(l.GetMissing(0).size(), 62 + 69, "chunk 0 lacks 62, chunk 1 all");

        // The rest of chunk 0 as one sum, then chunk 1 one by one from 69 down.
        std::vector<uint32_t> rest;
        for (uint32_t p = 0; p < 70; ++p)
        {
            if (p != 5 && p != 0 && p != 31 && p != 32 && p != 33 && p != 63 && p != 64 && p != 69)
            {
                rest.push_back(p);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(rest.size(), 62, "62 left");
        NS_TEST_EXPECT_MSG_EQ(int(Sum(l, rest)), int(Verdict::ACCEPTED), "the rest");
        uint32_t offered = 0;
        for (uint32_t p = 70; p-- > 0;)
        {
            if (p == 5)
            {
                continue;
            }
            NS_TEST_EXPECT_MSG_EQ(l.IsComplete(0), false, "incomplete before " << p);
            l.OfferOne(0, 1, p, p + 1, false);
            ++offered;
        }
        NS_TEST_EXPECT_MSG_EQ(offered, 69, "69 peers");
        NS_TEST_EXPECT_MSG_EQ(l.IsComplete(0), true, "complete at the 138th");
        NS_TEST_EXPECT_MSG_EQ(a.counters.delivered, 138, "each once");
        NS_TEST_EXPECT_MSG_EQ(a.sum, 2 * 2479, "twice 1 + ... + 70 - 6");
        NS_TEST_EXPECT_MSG_EQ(l.GetMissing(0).empty(), true, "nothing missing");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief At the deadline: what is missing is named, re-requested or given
 * up; what comes later counts as recovered or late and is no longer given up.
 */
class LedgerDeadlineTestCase : public WanTestCase
{
  public:
    LedgerDeadlineTestCase()
        : WanTestCase("missing, requested, recovered, late and given up, counted")
    {
    }

  private:
    void DoCheck() override
    {
        // A clique of 3 (this island at 2), 4 chunks: 8 owed.
        WanContributionLedger l;
        l.AddRound(3, 4, 3, 2);
        for (uint32_t c : {0u, 1u, 2u})
        {
            l.OfferOne(3, c, 0, 1, false);
        }
        l.OfferOne(3, 0, 1, 2, false);
        l.OfferOne(3, 3, 1, 2, false);
        // Missing: (1, 1), (2, 1), (3, 0).
        const std::vector<std::pair<uint32_t, uint32_t>> missing = {{1, 1}, {2, 1}, {3, 0}};
        NS_TEST_EXPECT_MSG_EQ((l.GetMissing(3) == missing), true, "three missing");
        NS_TEST_EXPECT_MSG_EQ(l.MarkRequested(3, 1, 1), true, "first request");
        NS_TEST_EXPECT_MSG_EQ(l.MarkRequested(3, 1, 1), false, "a retry");
        NS_TEST_EXPECT_MSG_EQ(l.MarkRequested(3, 3, 0), true, "another");
        l.GiveUp(3);
        auto a = l.GetAccount(3);
        NS_TEST_EXPECT_MSG_EQ(a.counters.requested, 2, "two re-requested");
        NS_TEST_EXPECT_MSG_EQ(a.counters.givenUp, 3, "three given up");
        NS_TEST_EXPECT_MSG_EQ((a.givenUpChunks == std::set<uint32_t>{1, 2, 3}), true, "chunks");
        NS_TEST_EXPECT_MSG_EQ((a.requestedChunks == std::set<uint32_t>{1, 3}), true, "chunks");
        // After the deadline: one requested arrives (recovered), one unasked (late).
        l.OfferOne(3, 1, 1, 2, true);
        l.OfferOne(3, 2, 1, 2, true);
        a = l.GetAccount(3);
        NS_TEST_EXPECT_MSG_EQ(a.counters.recovered, 1, "one recovered");
        NS_TEST_EXPECT_MSG_EQ(a.counters.late, 1, "one late");
        NS_TEST_EXPECT_MSG_EQ((a.lateChunks == std::set<uint32_t>{2}), true, "late chunk");
        NS_TEST_EXPECT_MSG_EQ(a.counters.givenUp, 1, "one still given up");
        NS_TEST_EXPECT_MSG_EQ((a.givenUpChunks == std::set<uint32_t>{3}), true, "its chunk");
        NS_TEST_EXPECT_MSG_EQ(a.counters.delivered, 7, "seven of eight");
        NS_TEST_EXPECT_MSG_EQ(a.sum, 3 + 4 * 2, "1 x 3 + 2 x 4");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { l.MarkRequested(3, 0, 2); }), "no such contribution"),
            true,
            "its own position cannot be requested");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A sum that does not name its senders is counted; its round is then
 * audited by count: nothing can be named missing, the shortfall is given up.
 */
class LedgerCountedOnlyTestCase : public WanTestCase
{
  public:
    LedgerCountedOnlyTestCase()
        : WanTestCase("sums without sources are counted, the round audited by count")
    {
    }

  private:
    void DoCheck() override
    {
        WanContributionLedger l;
        l.AddRound(0, 2, 4, 0); // 6 owed
        NS_TEST_EXPECT_MSG_EQ(int(l.Offer(0, 0, {}, 3, 30, false)), int(Verdict::ACCEPTED), "");
        NS_TEST_EXPECT_MSG_EQ(int(l.Offer(0, 1, {}, 0, 0, false)), int(Verdict::BAD_SOURCES), "");
        NS_TEST_EXPECT_MSG_EQ(l.GetMissing(0).empty(), true, "nothing can be named");
        l.GiveUp(0);
        NS_TEST_EXPECT_MSG_EQ(l.GetAccount(0).counters.givenUp, 3, "6 - 3 given up");
        NS_TEST_EXPECT_MSG_EQ(l.IsComplete(0), false, "incomplete");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Per position, the chunks holding its contribution, and the chunks
 * grouped by peers held (what the island averaged), kept exact as sums of
 * several positions arrive, and frozen when the round is given up or
 * when a quorum averages (Freeze); what was received by the end beside it.
 */
class LedgerHeldTestCase : public WanTestCase
{
  public:
    LedgerHeldTestCase()
        : WanTestCase(
              "chunks held, exact; averaged frozen when given up or by a quorum, received not")
    {
    }

  private:
    void DoCheck() override
    {
        // A clique of 4, this island at position 1, 4 chunks.
        WanContributionLedger l;
        l.AddRound(0, 4, 4, 1);
        const auto& a = l.GetAccount(0);
        NS_TEST_EXPECT_MSG_EQ((a.heldPerPosition == std::vector<uint32_t>{0, 4, 0, 0}),
                              true,
                              "only its own contribution");
        NS_TEST_EXPECT_MSG_EQ((a.averaged == WanHeldHistogram{{0, {0, 4, 0, 0}}}),
                              true,
                              "every chunk holds no peer");
        l.Offer(0, 0, Sources({0, 2}), 2, 0, false); // chunk 0: 0 and 2 ...
        l.OfferOne(0, 0, 3, 0, false);               // ... then 3: complete
        l.OfferOne(0, 1, 0, 0, false);               // chunk 1: 0 ...
        NS_TEST_EXPECT_MSG_EQ(
            (a.averaged ==
             WanHeldHistogram{{0, {0, 2, 0, 0}}, {1, {1, 1, 0, 0}}, {3, {1, 1, 1, 1}}}),
            true,
            "chunk 1 holds one peer for now");
        l.Offer(0, 1, Sources({2, 3}), 2, 0, false); // ... then 2 and 3: complete
        l.Offer(0, 2, Sources({0, 3}), 2, 0, false); // chunk 2: 0 and 3, never 2
        NS_TEST_EXPECT_MSG_EQ(int(l.Offer(0, 0, Sources({0, 2}), 2, 0, false)),
                              int(Verdict::REPEATED),
                              "a repeat changes nothing");
        NS_TEST_EXPECT_MSG_EQ((a.heldPerPosition == std::vector<uint32_t>{3, 4, 2, 3}),
                              true,
                              "chunks 0-2 hold 0 and 3, chunks 0-1 hold 2");
        const WanHeldHistogram averaged{{0, {0, 1, 0, 0}}, {2, {1, 1, 0, 1}}, {3, {2, 2, 2, 2}}};
        NS_TEST_EXPECT_MSG_EQ((a.averaged == averaged), true, "chunk 3 none, chunk 2 two, 0-1 all");
        NS_TEST_EXPECT_MSG_EQ((a.received == averaged), true, "received: the same, so far");
        // Given up, then position 2 of chunk 3 comes late: held, not averaged.
        l.GiveUp(0);
        l.OfferOne(0, 3, 2, 0, true);
        NS_TEST_EXPECT_MSG_EQ((a.heldPerPosition == std::vector<uint32_t>{3, 4, 3, 3}),
                              true,
                              "the late contribution is held");
        NS_TEST_EXPECT_MSG_EQ((a.averaged == averaged), true, "but was not averaged");
        const WanHeldHistogram received{{1, {0, 1, 1, 0}}, {2, {1, 1, 0, 1}}, {3, {2, 2, 2, 2}}};
        NS_TEST_EXPECT_MSG_EQ((a.received == received),
                              true,
                              "received: chunk 3 holds one peer now, 2 two, 0-1 all");

        // A quorum freezes what was averaged and gives nothing up: a
        // re-requested contribution that comes later is received and counted
        // as recovered.
        WanContributionLedger q;
        q.AddRound(0, 2, 3, 0);
        q.OfferOne(0, 0, 1, 0, false);
        q.OfferOne(0, 0, 2, 0, false);
        q.OfferOne(0, 1, 1, 0, false);
        q.Freeze(0);
        NS_TEST_EXPECT_MSG_EQ(q.MarkRequested(0, 1, 2), true, "chunk 1 of 2 asked for");
        q.OfferOne(0, 1, 2, 0, true);
        const auto& b = q.GetAccount(0);
        NS_TEST_EXPECT_MSG_EQ((b.averaged == WanHeldHistogram{{1, {1, 1, 0}}, {2, {1, 1, 1}}}),
                              true,
                              "averaged: chunk 1 with one peer, chunk 0 with two");
        NS_TEST_EXPECT_MSG_EQ((b.received == WanHeldHistogram{{2, {2, 2, 2}}}),
                              true,
                              "received: both with two");
        NS_TEST_EXPECT_MSG_EQ(b.counters.recovered, 1, "recovered");
        NS_TEST_EXPECT_MSG_EQ(b.counters.givenUp, 0, "nothing given up");
        NS_TEST_EXPECT_MSG_EQ(q.IsComplete(0), true, "complete after all");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-contribution-ledger test suite.
 */
class WanContributionLedgerTestSuite : public TestSuite
{
  public:
    WanContributionLedgerTestSuite()
        : TestSuite("wan-training-contribution-ledger", Type::UNIT)
    {
        AddTestCase(new LedgerRepeatTestCase);
        AddTestCase(new LedgerRefusalTestCase);
        AddTestCase(new LedgerWideCliqueTestCase);
        AddTestCase(new LedgerSeventyTestCase);
        AddTestCase(new LedgerDeadlineTestCase);
        AddTestCase(new LedgerCountedOnlyTestCase);
        AddTestCase(new LedgerHeldTestCase);
    }
};

/// The suite's instance.
static WanContributionLedgerTestSuite g_wanContributionLedgerTestSuite;
