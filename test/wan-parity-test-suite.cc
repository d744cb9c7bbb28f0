/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-contribution.h"
#include "ns3/wan-galois-ring.h"
#include "ns3/wan-parity-code.h"
#include "ns3/wan-parity-decoder.h"

#include <limits>
#include <set>

using namespace ns3;

/**
 * @ingroup wan-training-tests
 * @brief The stream layout by hand: 10 chunks, blocks of 4, 2 or 3 parities.
 */
class ParityLayoutTestCase : public WanTestCase
{
  public:
    ParityLayoutTestCase()
        : WanTestCase("parity layout: slots, groups and the short last block")
    {
    }

  private:
    void DoCheck() override
    {
        const uint32_t P = WanParityCode::PARITY_FLAG;
        // 0 1 2 3 p0 p1 | 4 5 6 7 p2 p3 | 8 9 p4 p5
        WanParityCode two(10, 4, 2);
        const std::vector<uint32_t>
            stream{0, 1, 2, 3, P | 0, P | 1, 4, 5, 6, 7, P | 2, P | 3, 8, 9, P | 4, P | 5};
        NS_TEST_ASSERT_MSG_EQ(two.GetStreamLength(), stream.size(), "16 slots");
        for (uint32_t s = 0; s < stream.size(); ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(two.SlotChunk(s), stream[s], "slot " << s);
            if (!WanParityCode::IsParity(stream[s]))
            {
                NS_TEST_EXPECT_MSG_EQ(two.SlotOf(stream[s]), s, "slot of chunk " << stream[s]);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(two.GetGroups(), 6, "3 blocks x 2");
        NS_TEST_EXPECT_MSG_EQ(two.GetParityChunks(), 6, "all groups used");
        // Each parity covers its whole block.
        NS_TEST_EXPECT_MSG_EQ((two.GroupChunks(0) == std::vector<uint32_t>{0, 1, 2, 3}),
                              true,
                              "g0");
        NS_TEST_EXPECT_MSG_EQ((two.GroupChunks(3) == std::vector<uint32_t>{4, 5, 6, 7}),
                              true,
                              "g3");
        NS_TEST_EXPECT_MSG_EQ((two.GroupChunks(5) == std::vector<uint32_t>{8, 9}), true, "g5");
        NS_TEST_EXPECT_MSG_EQ(two.BlockOf(7), 1, "chunk 7");
        NS_TEST_EXPECT_MSG_EQ(two.BlockOfGroup(3), 1, "group 3's block");
        NS_TEST_EXPECT_MSG_EQ(two.RowOf(3), 1, "group 3's row");
        NS_TEST_EXPECT_MSG_EQ(two.LastGroup(1), 3, "block 1's last parity");
        NS_TEST_EXPECT_MSG_EQ(two.GetBlocks(), 3, "3 blocks");
        NS_TEST_EXPECT_MSG_EQ(two.BlockEnd(4), 9, "last block ends at 9");
        NS_TEST_EXPECT_MSG_EQ(WanParityCode::GroupOfParity(P | 5), 5, "group from the wire");

        // Three parities: the last block (8, 9) sends only two.
        WanParityCode three(10, 4, 3);
        NS_TEST_EXPECT_MSG_EQ(three.GetGroups(), 9, "3 blocks x 3");
        NS_TEST_EXPECT_MSG_EQ(three.GetParityChunks(), 8, "3 + 3 + 2");
        NS_TEST_EXPECT_MSG_EQ(three.GetStreamLength(), 18, "10 + 8");
        NS_TEST_EXPECT_MSG_EQ(three.SlotChunk(16), (P | 6), "the short block's first parity");
        NS_TEST_EXPECT_MSG_EQ(three.SlotChunk(17), (P | 7), "and its second");
        NS_TEST_EXPECT_MSG_EQ(three.GroupChunks(8).empty(), true, "an unused group");
        NS_TEST_EXPECT_MSG_EQ(three.BlockParities(2), 2, "the short block's parities");
        NS_TEST_EXPECT_MSG_EQ(three.LastGroup(2), 7, "and its last");
        // Every data chunk is in its block's parities, each once.
        std::multiset<uint32_t> seen;
        for (uint32_t g = 0; g < three.GetGroups(); ++g)
        {
            for (uint32_t c : three.GroupChunks(g))
            {
                seen.insert(c);
                NS_TEST_EXPECT_MSG_EQ(three.BlockOf(c), three.BlockOfGroup(g), "block of " << c);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(seen.size(), 3 * 8 + 2 * 2, "3 per chunk, 2 in the short block");
        NS_TEST_EXPECT_MSG_EQ(seen.count(9), 2, "chunk 9 in two parities");

        // A code of 3 rows sending 2: groups keep their numbers (b x 3 + j).
        // 0 1 2 3 g0 g1 | 4 5 6 7 g3 g4 | 8 9 g6 g7
        WanParityCode sent(10, 4, 3, 2);
        const std::vector<uint32_t>
            sentStream{0, 1, 2, 3, P | 0, P | 1, 4, 5, 6, 7, P | 3, P | 4, 8, 9, P | 6, P | 7};
        NS_TEST_ASSERT_MSG_EQ(sent.GetStreamLength(), sentStream.size(), "16 slots");
        for (uint32_t s = 0; s < sentStream.size(); ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(sent.SlotChunk(s), sentStream[s], "slot " << s);
        }
        NS_TEST_EXPECT_MSG_EQ(sent.SlotOf(8), 12, "after two blocks of 4 + 2");
        NS_TEST_EXPECT_MSG_EQ(sent.GetParities(), 3, "the code's rows");
        NS_TEST_EXPECT_MSG_EQ(sent.GetSent(), 2, "rows sent");
        NS_TEST_EXPECT_MSG_EQ(sent.GetGroups(), 9, "numbered as the code's");
        NS_TEST_EXPECT_MSG_EQ(sent.GetParityChunks(), 6, "2 + 2 + 2");
        NS_TEST_EXPECT_MSG_EQ(sent.BlockParities(1), 2, "");
        NS_TEST_EXPECT_MSG_EQ(sent.LastGroup(1), 4, "block 1's last row sent");
        NS_TEST_EXPECT_MSG_EQ(sent.GroupChunks(5).size(), 4, "row 2 exists, unsent");
        // A row's parity does not depend on how many rows are sent.
        auto value = [](uint32_t c) { return int64_t(c) * 1000 - 3; };
        NS_TEST_EXPECT_MSG_EQ((sent.Encode(4, value) == three.Encode(4, value)), true, "row 1");
        NS_TEST_EXPECT_MSG_EQ(WanParityCode(10, 4, 3, 0).GetSent(), 3, "0: every row");
        auto sentError = wantest::ErrorOf([] { WanParityCode(10, 4, 3, 4); });
        NS_TEST_EXPECT_MSG_EQ(
            wantest::Mentions(sentError, "4 parity chunks sent per block, at most the code's 3"),
            true,
            sentError);

        // No parity: the stream is the data.
        WanParityCode none(5, 0, 0);
        NS_TEST_EXPECT_MSG_EQ(none.IsEnabled(), false, "off");
        NS_TEST_EXPECT_MSG_EQ(none.GetStreamLength(), 5, "5 slots");
        NS_TEST_EXPECT_MSG_EQ(none.SlotChunk(4), 4, "in order");

        auto e = wantest::ErrorOf([] { WanParityCode(10, 4, 0); });
        NS_TEST_EXPECT_MSG_EQ(wantest::Mentions(e, "0 parity chunks per block of 4, need 1 to 4"),
                              true,
                              e);
        e = wantest::ErrorOf([] { WanParityCode(10, 4, 5); });
        NS_TEST_EXPECT_MSG_EQ(wantest::Mentions(e, "5 parity chunks per block of 4"), true, e);
        e = wantest::ErrorOf([] { WanParityCode(1000, 250, 7); });
        NS_TEST_EXPECT_MSG_EQ(wantest::Mentions(e, "at most 256 chunks with the block"), true, e);
        e = wantest::ErrorOf([] { WanParityCode(WanParityCode::PARITY_FLAG, 4, 1); });
        NS_TEST_EXPECT_MSG_EQ(wantest::Mentions(e, "at most 2^31 - 1"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The trailing layout by hand: the data first, then the rows row by
 * row over the blocks, the short last block sending fewer.
 */
class ParityTrailingLayoutTestCase : public WanTestCase
{
  public:
    ParityTrailingLayoutTestCase()
        : WanTestCase("parity layout: every row after the data, row by row")
    {
    }

  private:
    void DoCheck() override
    {
        const uint32_t P = WanParityCode::PARITY_FLAG;
        // 0 .. 9 | g0 g3 g6 | g1 g4 g7 | g2 g5 (block 2 = {8, 9} has 2 rows)
        WanParityCode three(10, 4, 3, 0, WanParityCode::TRAILING);
        const std::vector<uint32_t> rows{P | 0, P | 3, P | 6, P | 1, P | 4, P | 7, P | 2, P | 5};
        NS_TEST_ASSERT_MSG_EQ(three.GetStreamLength(), 18, "10 + 3 + 3 + 2");
        for (uint32_t s = 0; s < 10; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(three.SlotChunk(s), s, "data slot " << s);
            NS_TEST_EXPECT_MSG_EQ(three.SlotOf(s), s, "slot of chunk " << s);
        }
        for (uint32_t s = 10; s < 18; ++s)
        {
            NS_TEST_EXPECT_MSG_EQ(three.SlotChunk(s), rows[s - 10], "row slot " << s);
            const uint32_t group = WanParityCode::GroupOfParity(rows[s - 10]);
            NS_TEST_EXPECT_MSG_EQ(three.SlotOfGroup(group), s, "slot of group " << group);
            NS_TEST_EXPECT_MSG_EQ(three.DataBefore(group), 9, "after all the data");
        }
        NS_TEST_EXPECT_MSG_EQ(three.GetLayout(), WanParityCode::TRAILING, "layout");
        NS_TEST_EXPECT_MSG_EQ(three.LastGroup(1), 5, "block 1's last row");

        // Two rows of three sent: 0 .. 9 | g0 g3 g6 | g1 g4 g7.
        WanParityCode sent(10, 4, 3, 2, WanParityCode::TRAILING);
        NS_TEST_EXPECT_MSG_EQ(sent.GetStreamLength(), 16, "10 + 2 x 3");
        NS_TEST_EXPECT_MSG_EQ(sent.SlotChunk(15), (P | 7), "the last row of the last block");
        NS_TEST_EXPECT_MSG_EQ(sent.SlotOfGroup(4), 14, "row 1 of block 1");

        // The same rows hold the same symbols in either layout.
        WanParityCode interleaved(10, 4, 3, 2);
        auto value = [](uint32_t c) { return int64_t(c) * 977 - 5; };
        NS_TEST_EXPECT_MSG_EQ((sent.Encode(4, value) == interleaved.Encode(4, value)), true, "g4");
        NS_TEST_EXPECT_MSG_EQ(interleaved.SlotOfGroup(4), 11, "after block 1 in the interleaved");
        NS_TEST_EXPECT_MSG_EQ(interleaved.DataBefore(4), 7, "block 1's last chunk");
        // Every slot carries a distinct chunk or row, in either layout.
        for (const auto* code : {&sent, &interleaved, &three})
        {
            std::set<uint32_t> seen;
            for (uint32_t s = 0; s < code->GetStreamLength(); ++s)
            {
                seen.insert(code->SlotChunk(s));
            }
            NS_TEST_EXPECT_MSG_EQ(seen.size(), code->GetStreamLength(), "one chunk per slot");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Parity rebuilds a lost merged chunk exactly: three peers (positions
 * 0, 1, 3; the island is 2), one block of 4 chunks, one parity, values
 * (position + 1) x (chunk + 1).
 */
class ParityRebuildTestCase : public WanTestCase
{
  public:
    ParityRebuildTestCase()
        : WanTestCase("parity rebuilds one lost merged chunk exactly, never two")
    {
    }

  private:
    static int64_t Fixed(double v)
    {
        return WanContribution::ToFixed(v);
    }

    /// A value as a parity symbol (one parity: the plain sum, word 0)
    static WanGaloisRing::Element Sym(int64_t v)
    {
        auto e = WanGaloisRing::Zero();
        e[0] = static_cast<uint64_t>(v);
        return e;
    }

    void DoCheck() override
    {
        const WanParityCode code(4, 4, 1);
        const auto peers = WanSourceSet::FromPositions({0, 1, 3});
        const std::vector<uint32_t> positions{0, 1, 3};
        auto merged = [&](uint32_t c) {
            return (1 + 2 + 4) * (c + 1.0); // sum over the peers
        };
        // The FPGA's parity sum: 7 x (1 + 2 + 3 + 4) = 70.
        int64_t parity = 0;
        for (uint32_t c = 0; c < 4; ++c)
        {
            parity = WanContribution::Add(parity, Fixed(merged(c)));
        }
        NS_TEST_EXPECT_MSG_EQ(WanContribution::FromFixed(parity), 70, "parity by hand");

        // Merged chunk 2 is lost: the others came whole.
        {
            WanParityDecoder d(code, peers);
            for (uint32_t c : {0u, 1u, 3u})
            {
                d.AddData(c, Fixed(merged(c)));
            }
            auto holds = [](uint32_t c, uint32_t) { return c != 2; };
            NS_TEST_EXPECT_MSG_EQ(d.Rebuild(0, holds).empty(), true, "no parity yet");
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(0, peers, Sym(parity)), true, "parity taken");
            const auto all = d.Rebuild(0, holds);
            NS_TEST_ASSERT_MSG_EQ(all.size(), 1, "rebuilt");
            const auto* r = &all.at(0);
            NS_TEST_EXPECT_MSG_EQ(r->chunk, 2, "chunk 2");
            NS_TEST_EXPECT_MSG_EQ((r->sources == peers), true, "all three peers");
            NS_TEST_EXPECT_MSG_EQ(WanContribution::FromFixed(r->value), 21, "7 x 3, exact");
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(0, WanSourceSet::Of(1), Sym(5)), false, "a repeat");
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(0, WanSourceSet::Of(2), Sym(5)), false, "not a peer");
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(1, peers, Sym(5)), false, "no such group");
            NS_TEST_EXPECT_MSG_EQ(std::string(d.Refusal(0, WanSourceSet::Of(1))),
                                  "repeated parity",
                                  "");
            NS_TEST_EXPECT_MSG_EQ(std::string(d.Refusal(0, WanSourceSet::Of(2))),
                                  "parity from outside the clique",
                                  "");
            NS_TEST_EXPECT_MSG_EQ(std::string(d.Refusal(1, peers)), "unexpected parity", "");
            NS_TEST_EXPECT_MSG_EQ(std::string(d.Refusal(0, WanSourceSet())),
                                  "unexpected parity",
                                  "names nobody");
        }
        // A partial sum: chunk 1 lacks position 3 only.
        {
            WanParityDecoder d(code, peers);
            for (uint32_t c : {0u, 2u, 3u})
            {
                d.AddData(c, Fixed(merged(c)));
            }
            d.AddData(1, Fixed((1 + 2) * 2.0));
            d.AddParity(0, peers, Sym(parity));
            const auto all = d.Rebuild(0, [](uint32_t c, uint32_t p) { return c != 1 || p != 3; });
            NS_TEST_ASSERT_MSG_EQ(all.size(), 1, "rebuilt");
            const auto* r = &all.at(0);
            NS_TEST_EXPECT_MSG_EQ(r->chunk, 1, "chunk 1");
            NS_TEST_EXPECT_MSG_EQ((r->sources == WanSourceSet::Of(3)), true, "position 3");
            NS_TEST_EXPECT_MSG_EQ(WanContribution::FromFixed(r->value), 8, "4 x 2");
        }
        // Two chunks short: one equation, two unknowns.
        {
            WanParityDecoder d(code, peers);
            d.AddData(0, Fixed(merged(0)));
            d.AddData(3, Fixed(merged(3)));
            d.AddParity(0, peers, Sym(parity));
            const auto r = d.Rebuild(0, [](uint32_t c, uint32_t) { return c == 0 || c == 3; });
            NS_TEST_EXPECT_MSG_EQ(r.empty(), true, "not rebuilt");
        }
        // The parity lacks position 3, whose chunks arrived: cannot be used.
        {
            WanParityDecoder d(code, peers);
            for (uint32_t c : {0u, 1u, 3u})
            {
                d.AddData(c, Fixed(merged(c)));
            }
            d.AddParity(0, WanSourceSet::FromPositions({0, 1}), Sym(Fixed(30)));
            const auto r = d.Rebuild(0, [](uint32_t c, uint32_t) { return c != 2; });
            NS_TEST_EXPECT_MSG_EQ(r.empty(), true, "parity short of a held sender");
        }
        // Wrap-around: contributions near the integer range still subtract
        // back exactly.
        {
            const WanParityCode one(2, 2, 1);
            const auto peer = WanSourceSet::Of(0);
            WanParityDecoder d(one, peer);
            const int64_t big = std::numeric_limits<int64_t>::max() - 7;
            d.AddData(0, big);
            d.AddParity(0, peer, Sym(WanContribution::Add(big, big))); // wraps
            const auto all = d.Rebuild(0, [](uint32_t c, uint32_t) { return c == 0; });
            NS_TEST_ASSERT_MSG_EQ(all.size(), 1, "rebuilt");
            const auto* r = &all.at(0);
            NS_TEST_EXPECT_MSG_EQ(r->chunk, 1, "chunk 1");
            NS_TEST_EXPECT_MSG_EQ(r->value, big, "exact after wrapping");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Three parities per block rebuild any three lost merged chunks
 * exactly, from the sum of the senders' parities (what the FPGA forwards):
 * peers at positions 0, 1 and 3, one block of 6 chunks, values (position +
 * 1) x (chunk + 1) - 3.5 (negative ones too).
 */
class MdsParityRebuildTestCase : public WanTestCase
{
  public:
    MdsParityRebuildTestCase()
        : WanTestCase("three parities rebuild any three lost merged chunks, never four")
    {
    }

  private:
    void DoCheck() override
    {
        const WanParityCode code(6, 6, 3);
        const std::vector<uint32_t> positions{0, 1, 3};
        const auto peers = WanSourceSet::FromPositions({0, 1, 3});
        auto value = [](uint32_t p, uint32_t c) {
            return WanContribution::ToFixed((p + 1.0) * (c + 1.0) - 3.5);
        };
        auto merged = [&](uint32_t c) {
            int64_t sum = 0;
            for (uint32_t p : positions)
            {
                sum = WanContribution::Add(sum, value(p, c));
            }
            return sum;
        };
        // The FPGA's sum of the three senders' parity symbols, word by word.
        std::vector<WanGaloisRing::Element> parity(3, WanGaloisRing::Zero());
        for (uint32_t j = 0; j < 3; ++j)
        {
            for (uint32_t p : positions)
            {
                parity[j] =
                    WanGaloisRing::Add(parity[j],
                                       code.Encode(j, [&](uint32_t c) { return value(p, c); }));
            }
        }
        // Row 0 is the plain sum: 7 x (1 + ... + 6) - 3 x 6 x 3.5 = 84.
        NS_TEST_EXPECT_MSG_EQ(WanContribution::FromFixed(static_cast<int64_t>(parity[0][0])),
                              84,
                              "row 0 by hand");
        // Every pattern of up to three lost chunks (41 patterns), every
        // arrival order of the parities: rebuilt exactly.
        uint32_t patterns = 0;
        for (uint32_t mask = 1; mask < 64; ++mask)
        {
            const uint32_t lost = __builtin_popcount(mask);
            if (lost > 3)
            {
                continue;
            }
            ++patterns;
            WanParityDecoder d(code, peers);
            for (uint32_t c = 0; c < 6; ++c)
            {
                if (((mask >> c) & 1) == 0)
                {
                    d.AddData(c, merged(c));
                }
            }
            auto holds = [mask](uint32_t c, uint32_t) { return ((mask >> c) & 1) == 0; };
            std::vector<WanParityDecoder::Rebuilt> got;
            for (uint32_t j = 0; j < 3 && got.empty(); ++j)
            {
                d.AddParity(j, peers, parity[j]);
                got = d.Rebuild(0, holds);
                const bool short_ = j + 1 < lost;
                NS_TEST_EXPECT_MSG_EQ(got.empty(), short_, "mask " << mask << " row " << j);
            }
            NS_TEST_ASSERT_MSG_EQ(got.size(), lost, "mask " << mask);
            for (const auto& r : got)
            {
                NS_TEST_EXPECT_MSG_EQ(((mask >> r.chunk) & 1), 1, "a lost chunk");
                NS_TEST_EXPECT_MSG_EQ(r.value, merged(r.chunk), "exact, chunk " << r.chunk);
                NS_TEST_EXPECT_MSG_EQ((r.sources == peers), true, "all peers");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(patterns, 6 + 15 + 20, "patterns");
        // Four lost: three equations, four unknowns.
        {
            WanParityDecoder d(code, peers);
            d.AddData(0, merged(0));
            d.AddData(5, merged(5));
            for (uint32_t j = 0; j < 3; ++j)
            {
                d.AddParity(j, peers, parity[j]);
            }
            const auto r = d.Rebuild(0, [](uint32_t c, uint32_t) { return c == 0 || c == 5; });
            NS_TEST_EXPECT_MSG_EQ(r.empty(), true, "four lost, not rebuilt");
        }
        // Partial sums: chunk 1 lacks position 3, chunk 4 lacks 0 and 1;
        // parity rows 1 and 2 only (row 0 lost).
        {
            WanParityDecoder d(code, peers);
            for (uint32_t c : {0u, 2u, 3u, 5u})
            {
                d.AddData(c, merged(c));
            }
            d.AddData(1, WanContribution::Add(value(0, 1), value(1, 1)));
            d.AddData(4, value(3, 4));
            d.AddParity(1, peers, parity[1]);
            d.AddParity(2, peers, parity[2]);
            const auto r = d.Rebuild(0, [](uint32_t c, uint32_t p) {
                return (c != 1 || p != 3) && (c != 4 || p == 3);
            });
            NS_TEST_ASSERT_MSG_EQ(r.size(), 2, "two chunks rebuilt");
            NS_TEST_EXPECT_MSG_EQ(r.at(0).chunk, 1, "chunk 1");
            NS_TEST_EXPECT_MSG_EQ((r.at(0).sources == WanSourceSet::Of(3)), true, "position 3");
            NS_TEST_EXPECT_MSG_EQ(r.at(0).value, value(3, 1), "its contribution");
            NS_TEST_EXPECT_MSG_EQ(r.at(1).chunk, 4, "chunk 4");
            NS_TEST_EXPECT_MSG_EQ(r.at(1).value,
                                  WanContribution::Add(value(0, 4), value(1, 4)),
                                  "positions 0 and 1");
        }
        // Parities of one block over different senders make different
        // systems: row 0 holds positions 0 and 1 only (position 3's copy
        // lost), row 1 all three; chunk 2 lacks position 3.  Row 0 cannot
        // help (every other chunk holds position 3, which it lacks); row 1
        // alone rebuilds chunk 2.
        {
            WanParityDecoder d(code, peers);
            for (uint32_t c : {0u, 1u, 3u, 4u, 5u})
            {
                d.AddData(c, merged(c));
            }
            d.AddData(2, WanContribution::Add(value(0, 2), value(1, 2)));
            auto partial = WanGaloisRing::Zero();
            for (uint32_t p : {0u, 1u})
            {
                partial =
                    WanGaloisRing::Add(partial,
                                       code.Encode(0, [&](uint32_t c) { return value(p, c); }));
            }
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(0, WanSourceSet::FromPositions({0, 1}), partial),
                                  true,
                                  "");
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(1, peers, parity[1]), true, "");
            const auto r = d.Rebuild(0, [](uint32_t c, uint32_t p) { return c != 2 || p != 3; });
            NS_TEST_ASSERT_MSG_EQ(r.size(), 1, "row 1 rebuilds chunk 2");
            NS_TEST_EXPECT_MSG_EQ(r.at(0).chunk, 2, "");
            NS_TEST_EXPECT_MSG_EQ((r.at(0).sources == WanSourceSet::Of(3)), true, "position 3");
            NS_TEST_EXPECT_MSG_EQ(r.at(0).value, value(3, 2), "its contribution, exact");
        }
        // Parities that do not fit the data (a corrupted sum) rebuild nothing.
        {
            WanParityDecoder d(code, peers);
            for (uint32_t c = 1; c < 6; ++c)
            {
                d.AddData(c, merged(c));
            }
            auto bad = parity[0];
            bad[3] += 1;
            d.AddParity(0, peers, bad);
            const auto r = d.Rebuild(0, [](uint32_t c, uint32_t) { return c != 0; });
            NS_TEST_EXPECT_MSG_EQ(r.empty(), true, "not a value: refused");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-parity test suite.
 */
class WanParityTestSuite : public TestSuite
{
  public:
    WanParityTestSuite()
        : TestSuite("wan-training-parity", Type::UNIT)
    {
        AddTestCase(new ParityLayoutTestCase);
        AddTestCase(new ParityTrailingLayoutTestCase);
        AddTestCase(new ParityRebuildTestCase);
        AddTestCase(new MdsParityRebuildTestCase);
    }
};

/// The suite's instance.
static WanParityTestSuite g_wanParityTestSuite;
