/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/fpga-stream-decoder.h"
#include "ns3/test.h"
#include "ns3/wan-parity-code.h"

#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// One sender's stream: its values and its code.
struct Stream
{
    WanParityCode code;          //!< layout and code
    std::vector<int64_t> values; //!< per data chunk, fixed point

    /**
     * @param group a parity group
     * @return its parity symbol over the values
     */
    WanGaloisRing::Element Parity(uint32_t group) const
    {
        return code.Encode(group, [this](uint32_t c) { return values[c]; });
    }

    /**
     * @param group a parity group
     * @return the data chunks of its block
     */
    uint32_t Length(uint32_t group) const
    {
        return static_cast<uint32_t>(code.BlockChunks(code.BlockOfGroup(group)).size());
    }
};

/// @return the id of chunk `chunk` of round 3, clique 1
FpgaChunkId
Id(uint32_t chunk)
{
    return FpgaChunkId{3, 1, chunk};
}

/// @return the id of parity group `group` of round 3, clique 1
FpgaChunkId
ParityId(uint32_t group)
{
    return Id(WanParityCode::PARITY_FLAG | group);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief A sender's lost chunks rebuilt from its own parity: two of a block
 * of 4 with two parities, a short last block, a parity that came before the
 * data it was short of, a copy that repeats a rebuilt chunk, and the report
 * of each block once its stream is idle (a block idle itself waits while its
 * stream still sends).
 */
class StreamDecoderRebuildTestCase : public WanTestCase
{
  public:
    StreamDecoderRebuildTestCase()
        : WanTestCase("stream decoding: lost chunks rebuilt from their sender's parity")
    {
    }

  private:
    void DoCheck() override
    {
        // 6 chunks in blocks of 4 with 2 parities: block 0 is chunks 0-3
        // (groups 0, 1), block 1 chunks 4-5 (groups 2, 3).
        const Stream s{WanParityCode(6, 4, 2), {10, -20, 30, 1LL << 62, -7, 123456789}};
        FpgaStreamDecoder d(4, 2, 100, 0.5);
        // Block 0 loses chunks 1 and 3: one parity is not enough, two are.
        NS_TEST_EXPECT_MSG_EQ(d.AddData(Id(0), 2, s.values[0], true, 0.0).repeat, false, "");
        NS_TEST_EXPECT_MSG_EQ(d.AddData(Id(2), 2, s.values[2], true, 0.1).repeat, false, "");
        NS_TEST_EXPECT_MSG_EQ(d.GetBuffered(), 2, "two copies");
        auto out = d.AddParity(ParityId(0), 2, s.Length(0), s.Parity(0), 0.2);
        NS_TEST_EXPECT_MSG_EQ(out.size(), 0, "two lost, one parity");
        NS_TEST_EXPECT_MSG_EQ(d.GetBuffered(), 3, "and the parity");
        out = d.AddParity(ParityId(1), 2, s.Length(1), s.Parity(1), 0.3);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 2, "two lost, two parities");
        NS_TEST_EXPECT_MSG_EQ(out.at(0).id.chunk, 1, "");
        NS_TEST_EXPECT_MSG_EQ(out.at(0).id.round, 3, "");
        NS_TEST_EXPECT_MSG_EQ(out.at(0).id.clique, 1, "");
        NS_TEST_EXPECT_MSG_EQ(out.at(0).position, 2, "");
        NS_TEST_EXPECT_MSG_EQ(out.at(0).value, -20, "exact");
        NS_TEST_EXPECT_MSG_EQ(out.at(1).id.chunk, 3, "");
        NS_TEST_EXPECT_MSG_EQ(out.at(1).value, 1LL << 62, "exact at 2^62");
        NS_TEST_EXPECT_MSG_EQ(d.GetBuffered(), 0, "decoded: the copies freed");
        NS_TEST_EXPECT_MSG_EQ(d.GetPeakBuffered(), 4, "two data, two parities");
        // The lost chunk's own copy, late: it repeats what was rebuilt.
        NS_TEST_EXPECT_MSG_EQ(d.AddData(Id(1), 2, s.values[1], true, 0.35).repeat,
                              true,
                              "a rebuilt chunk's copy is not summed again");

        // Block 1 (2 chunks, its parity says so) loses chunk 5: its first
        // parity rebuilds it.
        d.AddData(Id(4), 2, s.values[4], true, 0.4);
        out = d.AddParity(ParityId(2), 2, s.Length(2), s.Parity(2), 0.45);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "short block, one lost");
        NS_TEST_EXPECT_MSG_EQ(out.at(0).id.chunk, 5, "");
        NS_TEST_EXPECT_MSG_EQ(out.at(0).value, 123456789, "exact");
        // Its second parity is lost.

        // Another sender (position 0): data reordered behind the parity.
        // Chunks 0 and 1 came, then parity 0 (two short), then chunk 2:
        // that arrival lets parity 0 rebuild chunk 3.
        const Stream t{WanParityCode(6, 4, 2), {1, 2, 3, 4, 5, 6}};
        d.AddData(Id(0), 0, t.values[0], true, 0.5);
        d.AddData(Id(1), 0, t.values[1], true, 0.5);
        NS_TEST_EXPECT_MSG_EQ(d.AddParity(ParityId(0), 0, 4, t.Parity(0), 0.55).size(), 0, "");
        auto added = d.AddData(Id(2), 0, t.values[2], true, 0.6);
        NS_TEST_ASSERT_MSG_EQ(added.rebuilt.size(), 1, "the data arrival completes the system");
        NS_TEST_EXPECT_MSG_EQ(added.rebuilt.at(0).id.chunk, 3, "");
        NS_TEST_EXPECT_MSG_EQ(added.rebuilt.at(0).value, 4, "");
        NS_TEST_EXPECT_MSG_EQ(added.rebuilt.at(0).position, 0, "");

        // Reports once its stream is idle 0.5 s: block 0 of position 2 was
        // last heard at 0.35, its stream at 0.45 (a trailing row of block 0
        // could still come).
        NS_TEST_EXPECT_MSG_EQ(d.Expire(0.86).size(), 0, "position 2's stream heard at 0.45");
        auto blocks = d.Expire(0.96);
        NS_TEST_ASSERT_MSG_EQ(blocks.size(), 2, "both blocks of position 2");
        NS_TEST_EXPECT_MSG_EQ(blocks.at(1).block, 1, "");
        NS_TEST_EXPECT_MSG_EQ(blocks.at(0).position, 2, "");
        NS_TEST_EXPECT_MSG_EQ(blocks.at(0).block, 0, "");
        NS_TEST_EXPECT_MSG_EQ(blocks.at(0).symbols, 6, "4 data, 2 parities");
        // Chunks 1 and 3 lost (chunk 1's late copy came after its rebuild).
        NS_TEST_EXPECT_MSG_EQ(blocks.at(0).erasures, 2, "");
        NS_TEST_EXPECT_MSG_EQ(blocks.at(0).rebuilt, 2, "");
        NS_TEST_EXPECT_MSG_EQ(blocks.at(0).short_, false, "");
        // A copy of that block's chunk after it closed is summed, not counted.
        auto late = d.AddData(Id(2), 2, s.values[2], true, 0.97);
        NS_TEST_EXPECT_MSG_EQ(late.repeat, false, "");
        NS_TEST_EXPECT_MSG_EQ(late.rebuilt.size(), 0, "");
        blocks = d.Flush();
        NS_TEST_ASSERT_MSG_EQ(blocks.size(), 1, "block 0 of position 0");
        const auto& totals = d.GetTotals();
        NS_TEST_EXPECT_MSG_EQ(totals.blocks, 3, "");
        // Block 1 of position 2: 2 data + 2 parities, chunk 5 and parity 3
        // lost; block 0 of position 0: 6 symbols, chunk 3 and parity 1 lost.
        NS_TEST_EXPECT_MSG_EQ(totals.symbols, 6 + 4 + 6, "");
        NS_TEST_EXPECT_MSG_EQ(totals.erasures, 2 + 2 + 2, "");
        NS_TEST_EXPECT_MSG_EQ(totals.rebuilt, 2 + 1 + 1, "");
        NS_TEST_EXPECT_MSG_EQ(totals.short_, 0, "");
        NS_TEST_EXPECT_MSG_EQ(totals.evicted, 0, "");
        NS_TEST_EXPECT_MSG_EQ(d.GetBuffered(), 0, "");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief What the decoder measures for a stream's sender: each block's data
 * chunks missing when its first parity came (once per block), and a block's
 * symbols with the rows its stream sent, fewer than the code's.
 */
class StreamDecoderLossTestCase : public WanTestCase
{
  public:
    StreamDecoderLossTestCase()
        : WanTestCase("stream decoding: each block's loss at its first parity, rows sent")
    {
    }

  private:
    void DoCheck() override
    {
        // A code of 3 rows on blocks of 4, the stream sending 2 of them:
        // groups 0, 1 (block 0) and 3, 4 (block 1, chunks 4-5).
        const Stream s{WanParityCode(6, 4, 3, 2), {5, 6, 7, 8, 9, 10}};
        FpgaStreamDecoder d(4, 3, 100, 0.5);
        d.AddData(Id(0), 1, s.values[0], true, 0.0);
        d.AddData(Id(2), 1, s.values[2], true, 0.0);
        NS_TEST_EXPECT_MSG_EQ(d.TakeLosses().size(), 0, "no parity yet");
        d.AddParity(ParityId(0), 1, 4, s.Parity(0), 0.1, 2);
        auto losses = d.TakeLosses();
        NS_TEST_ASSERT_MSG_EQ(losses.size(), 1, "block 0's first parity");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).round, 3, "");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).clique, 1, "");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).position, 1, "");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).block, 0, "");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).chunks, 4, "");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).arrived, 2, "chunks 1 and 3 missing");
        // Its second parity rebuilds both; no second measurement.
        NS_TEST_EXPECT_MSG_EQ(d.AddParity(ParityId(1), 1, 4, s.Parity(1), 0.2, 2).size(), 2, "");
        NS_TEST_EXPECT_MSG_EQ(d.TakeLosses().size(), 0, "once per block");
        // Block 1, short (2 chunks), all in; its parity arrives second, in
        // row 1 (group 4): measured with nothing missing.
        d.AddData(Id(4), 1, s.values[4], true, 0.3);
        d.AddData(Id(5), 1, s.values[5], true, 0.3);
        d.AddParity(ParityId(4), 1, 2, s.Parity(4), 0.35, 2);
        losses = d.TakeLosses();
        NS_TEST_ASSERT_MSG_EQ(losses.size(), 1, "");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).block, 1, "group 4 is block 1's (3 rows a block)");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).chunks, 2, "the short block");
        NS_TEST_EXPECT_MSG_EQ(losses.at(0).arrived, 2, "");
        // Symbols count the rows sent: 4 + 2 and 2 + 2, not 4 + 3.
        d.Flush();
        const auto& totals = d.GetTotals();
        NS_TEST_EXPECT_MSG_EQ(totals.symbols, 6 + 4, "");
        NS_TEST_EXPECT_MSG_EQ(totals.erasures, 2 + 1, "chunks 1 and 3; block 1's row 0");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief What the code cannot do: more losses than parities, a corrupted
 * parity, and a full HBM that takes the oldest block's copies.
 */
class StreamDecoderLimitsTestCase : public WanTestCase
{
  public:
    StreamDecoderLimitsTestCase()
        : WanTestCase("stream decoding: beyond the code, corrupted parity, HBM full")
    {
    }

  private:
    void DoCheck() override
    {
        const Stream s{WanParityCode(4, 4, 2), {5, 6, 7, 8}};
        {
            // Three lost of four with two parities.
            FpgaStreamDecoder d(4, 2, 100, 0.5);
            d.AddData(Id(0), 1, s.values[0], true, 0.0);
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(ParityId(0), 1, 4, s.Parity(0), 0.1).size(), 0, "");
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(ParityId(1), 1, 4, s.Parity(1), 0.1).size(), 0, "");
            auto blocks = d.Expire(1.0);
            NS_TEST_ASSERT_MSG_EQ(blocks.size(), 1, "");
            NS_TEST_EXPECT_MSG_EQ(blocks.at(0).erasures, 3, "");
            NS_TEST_EXPECT_MSG_EQ(blocks.at(0).short_, true, "3 erasures, 2 parities");
            NS_TEST_EXPECT_MSG_EQ(blocks.at(0).rebuilt, 0, "");
            NS_TEST_EXPECT_MSG_EQ(d.GetBuffered(), 0, "closed: the copies freed");
        }
        {
            // A parity whose symbol was corrupted (a word above the value
            // set): the solution is not a value, nothing is rebuilt.
            FpgaStreamDecoder d(4, 2, 100, 0.5);
            for (uint32_t c : {0, 1, 2})
            {
                d.AddData(Id(c), 1, s.values[c], true, 0.0);
            }
            auto bad = s.Parity(0);
            bad[3] += 1;
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(ParityId(0), 1, 4, bad, 0.1).size(), 0, "refused");
            NS_TEST_EXPECT_MSG_EQ(d.GetBuffered(), 0, "given up: freed");
            const auto blocks = d.Flush();
            NS_TEST_ASSERT_MSG_EQ(blocks.size(), 1, "");
            NS_TEST_EXPECT_MSG_EQ(blocks.at(0).undecodable, true, "counted");
            NS_TEST_EXPECT_MSG_EQ(blocks.at(0).rebuilt, 0, "");
            NS_TEST_EXPECT_MSG_EQ(d.GetTotals().undecodable, 1, "");
        }
        {
            // HBM for 5 chunks, two senders' blocks of 4: the third chunk of
            // position 1 takes position 0's copies (the oldest block), whose
            // parity then rebuilds nothing; position 1 still decodes.
            const Stream t{WanParityCode(4, 4, 2), {50, 60, 70, 80}};
            FpgaStreamDecoder d(4, 2, 5, 0.5);
            for (uint32_t c : {0, 1, 2})
            {
                d.AddData(Id(c), 0, s.values[c], true, 0.0);
            }
            d.AddData(Id(0), 1, t.values[0], true, 0.0);
            d.AddData(Id(1), 1, t.values[1], true, 0.0);
            NS_TEST_EXPECT_MSG_EQ(d.GetBuffered(), 5, "full");
            d.AddData(Id(2), 1, t.values[2], true, 0.0);
            NS_TEST_EXPECT_MSG_EQ(d.GetBuffered(), 3, "position 0's three copies evicted");
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(ParityId(0), 0, 4, s.Parity(0), 0.1).size(),
                                  0,
                                  "evicted: not decoded here");
            auto out = d.AddParity(ParityId(0), 1, 4, t.Parity(0), 0.1);
            NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "");
            NS_TEST_EXPECT_MSG_EQ(out.at(0).value, 80, "");
            auto blocks = d.Flush();
            NS_TEST_EXPECT_MSG_EQ(d.GetTotals().evicted, 1, "");
            NS_TEST_EXPECT_MSG_EQ(d.GetTotals().rebuilt, 1, "");
        }
        {
            // No HBM for decoding: every block evicted, nothing rebuilt.
            FpgaStreamDecoder d(4, 2, 0, 0.5);
            for (uint32_t c : {0, 1, 2})
            {
                d.AddData(Id(c), 0, s.values[c], true, 0.0);
            }
            NS_TEST_EXPECT_MSG_EQ(d.AddParity(ParityId(0), 0, 4, s.Parity(0), 0.1).size(), 0, "");
            d.Flush();
            NS_TEST_EXPECT_MSG_EQ(d.GetTotals().evicted, 1, "");
            NS_TEST_EXPECT_MSG_EQ(d.GetPeakBuffered(), 0, "");
        }
        std::string e = ErrorOf([] { FpgaStreamDecoder(4, 5, 10, 0.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "5 parity chunks per block of 4"), true, e);
        e = ErrorOf([] { FpgaStreamDecoder(4, 2, 10, 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "stream decoding timeout"), true, e);
        e = ErrorOf([] { FpgaStreamDecoder(0, 1, 10, 0.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "blocks of 0 data chunks"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-stream-decoder test suite.
 */
class FpgaStreamDecoderTestSuite : public TestSuite
{
  public:
    FpgaStreamDecoderTestSuite()
        : TestSuite("wan-training-stream-decoder", Type::UNIT)
    {
        AddTestCase(new StreamDecoderRebuildTestCase);
        AddTestCase(new StreamDecoderLossTestCase);
        AddTestCase(new StreamDecoderLimitsTestCase);
    }
};

/// The suite's instance.
static FpgaStreamDecoderTestSuite g_fpgaStreamDecoderTestSuite;
