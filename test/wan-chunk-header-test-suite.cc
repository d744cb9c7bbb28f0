/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/packet.h"
#include "ns3/test.h"
#include "ns3/wan-chunk-header.h"

#include <sstream>

using namespace ns3;

namespace
{

/// A raw chunk header of the given kind byte, 36 bytes, as a packet.
Ptr<Packet>
RawHeader(uint8_t kind, uint32_t bytes = 36)
{
    std::vector<uint8_t> raw(bytes, 0);
    raw[0] = kind;
    return Create<Packet>(raw.data(), bytes);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Every field survives a trip through a packet, bit for bit, with a
 * sources bitmap as wide as a 40-island clique.
 */
class ChunkHeaderRoundTripTestCase : public WanTestCase
{
  public:
    ChunkHeaderRoundTripTestCase()
        : WanTestCase("chunk header: serialize and deserialize every field, 40 sources")
    {
    }

  private:
    void DoCheck() override
    {
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::MERGED);
        h.SetRound(123456);
        h.SetClique(7);
        h.SetSender(65000);
        h.SetChunk(4000000000u);
        h.SetSequence(99);
        h.SetContributions(4);
        h.SetExpected(39);
        h.SetPosition(39);
        std::vector<bool> sources(40, false);
        for (uint32_t p : {0, 2, 31, 39})
        {
            sources[p] = true;
        }
        h.SetSources(sources);
        h.SetValue(-2.75);
        // 32 fixed bytes + 2 (count) + 5 (40 bits) padded to 8.
        NS_TEST_EXPECT_MSG_EQ(h.GetSerializedSize(), 40, "40 bytes with 40 sources");

        // The payload stays virtual: 8936 zero bytes cost no buffer.
        auto p = Create<Packet>(8936);
        p->AddHeader(h);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 8976, "header + virtual payload");
        WanChunkHeader back;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(back), 40, "reads 40 bytes");
        NS_TEST_EXPECT_MSG_EQ(back.GetKind(), WanChunkHeader::MERGED, "kind");
        NS_TEST_EXPECT_MSG_EQ(back.GetRound(), 123456, "round");
        NS_TEST_EXPECT_MSG_EQ(back.GetClique(), 7, "clique");
        NS_TEST_EXPECT_MSG_EQ(back.GetSender(), 65000, "sender");
        NS_TEST_EXPECT_MSG_EQ(back.GetChunk(), 4000000000u, "chunk");
        NS_TEST_EXPECT_MSG_EQ(back.GetSequence(), 99, "sequence");
        NS_TEST_EXPECT_MSG_EQ(back.GetContributions(), 4, "contributions");
        NS_TEST_EXPECT_MSG_EQ(back.GetExpected(), 39, "expected");
        NS_TEST_EXPECT_MSG_EQ(back.GetPosition(), 39, "position");
        NS_TEST_EXPECT_MSG_EQ((back.GetSources() == sources), true, "sources, every bit");
        NS_TEST_EXPECT_MSG_EQ(back.GetValue(), -2.75, "value, a fixed-point number");
        NS_TEST_EXPECT_MSG_EQ(back.GetFixedValue(), -2.75 * 65536, "16 fractional bits");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 8936, "payload left");

        std::ostringstream text;
        back.Print(text);
        NS_TEST_EXPECT_MSG_EQ(text.str().rfind("MERGED round=123456 clique=7", 0), 0, text.str());
        WanChunkHeader request;
        request.SetKind(WanChunkHeader::REQUEST);
        std::ostringstream requestText;
        request.Print(requestText);
        NS_TEST_EXPECT_MSG_EQ(requestText.str().rfind("REQUEST", 0), 0, requestText.str());
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The header grows with the clique: 36 bytes up to 16 sources (and
 * for a DATA chunk, which names none), 4 more for each further 32.
 */
class ChunkHeaderSizeTestCase : public WanTestCase
{
  public:
    ChunkHeaderSizeTestCase()
        : WanTestCase("chunk header: 36 bytes up to 16 sources, +4 per further 32")
    {
    }

  private:
    void DoCheck() override
    {
        // {sources, bytes}: 32 fixed + (2 + ceil(n / 8)) rounded up to 4.
        const std::vector<std::pair<uint32_t, uint32_t>> sizes =
            {{0, 36}, {3, 36}, {16, 36}, {17, 40}, {48, 40}, {49, 44}, {64, 44}, {1000, 160}};
        for (const auto& [bits, bytes] : sizes)
        {
            WanChunkHeader h;
            h.SetSources(std::vector<bool>(bits, false));
            NS_TEST_EXPECT_MSG_EQ(h.GetSerializedSize(), bytes, bits << " sources");
            NS_TEST_EXPECT_MSG_EQ(WanChunkHeader::SerializedSize(bits), bytes, "static size");
            auto p = Create<Packet>(0);
            p->AddHeader(h);
            WanChunkHeader back;
            NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(back), bytes, "read as written");
            NS_TEST_EXPECT_MSG_EQ(back.GetSources().size(), bits, "as many sources");
        }
        WanChunkHeader tooMany;
        bool refused = false;
        try
        {
            tooMany.SetSources(std::vector<bool>(65536, false));
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("at most 65535 sources") != std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "65536 sources do not fit the count");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A source set past 64 positions crosses the wire as the bitmap
 * (lowest position in the lowest bit of each byte); bits past the count are
 * padding; a position the count cannot reach is refused.
 */
class ChunkHeaderSourceSetTestCase : public WanTestCase
{
  public:
    ChunkHeaderSourceSetTestCase()
        : WanTestCase("chunk header: a source set past 64 positions, bit for bit")
    {
    }

  private:
    void DoCheck() override
    {
        WanSourceSet set;
        for (uint32_t p : {0, 33, 63, 64, 69, 1000})
        {
            set.Set(p);
        }
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::MERGED);
        h.SetSourceSet(set);
        NS_TEST_EXPECT_MSG_EQ(h.GetSourceBits(), 1001, "up to the highest held");
        // 32 fixed + 2 (count) + 126 (1001 bits) = 160.
        NS_TEST_EXPECT_MSG_EQ(h.GetSerializedSize(), 160, "160 bytes");
        auto p = Create<Packet>(0);
        p->AddHeader(h);
        std::vector<uint8_t> raw(p->GetSize());
        p->CopyData(raw.data(), raw.size());
        NS_TEST_EXPECT_MSG_EQ(raw[32] * 256 + raw[33], 1001, "bit count");
        NS_TEST_EXPECT_MSG_EQ(int(raw[34]), 0x01, "position 0");
        NS_TEST_EXPECT_MSG_EQ(int(raw[34 + 4]), 0x02, "33 = 4 x 8 + 1");
        NS_TEST_EXPECT_MSG_EQ(int(raw[34 + 7]), 0x80, "63 = 7 x 8 + 7");
        NS_TEST_EXPECT_MSG_EQ(int(raw[34 + 8]), 0x21, "64 and 69");
        NS_TEST_EXPECT_MSG_EQ(int(raw[34 + 125]), 0x01, "1000 = 125 x 8");
        WanChunkHeader back;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(back), 160, "read as written");
        NS_TEST_EXPECT_MSG_EQ((back.GetSourceSet() == set), true, "the same set");
        NS_TEST_EXPECT_MSG_EQ(back.GetSources().size(), 1001, "as a bitmap");
        NS_TEST_EXPECT_MSG_EQ(back.GetSources()[69], true, "69 in the bitmap");

        // Count 70 with every bitmap byte 0xff: the 2 bits past 69 are padding.
        WanChunkHeader padded0;
        std::vector<uint8_t> full(44, 0xff);
        full[0] = WanChunkHeader::MERGED;
        NS_TEST_EXPECT_MSG_EQ(Create<Packet>(full.data(), 44)->PeekHeader(padded0),
                              0,
                              "flag 1 set: the symbol's 56 bytes are missing");
        full[1] = 0xfe; // the other flag bits are ignored
        full[32] = 0;
        full[33] = 70;
        WanChunkHeader padded;
        NS_TEST_EXPECT_MSG_EQ(Create<Packet>(full.data(), 44)->PeekHeader(padded), 44, "44");
        NS_TEST_EXPECT_MSG_EQ(padded.GetSourceSet().Count(), 70, "70 positions, no more");
        NS_TEST_EXPECT_MSG_EQ(padded.GetSourceSet().GetSpan(), 70, "up to 69");

        WanChunkHeader edge;
        edge.SetSourceSet(WanSourceSet::Of(65534));
        NS_TEST_EXPECT_MSG_EQ(edge.GetSourceBits(), 65535, "the last position that fits");
        bool refused = false;
        try
        {
            edge.SetSourceSet(WanSourceSet::Of(65535));
        }
        catch (const std::invalid_argument& e)
        {
            refused = std::string(e.what()).find("at most 65535 sources (got 65536)") !=
                      std::string::npos;
        }
        NS_TEST_EXPECT_MSG_EQ(refused, true, "position 65535 needs 65536 bits");
        NS_TEST_EXPECT_MSG_EQ(edge.GetSourceBits(), 65535, "left unchanged");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A parity symbol's 8 words survive a trip through a packet: the
 * value field and 56 bytes after the sources, flagged in byte 1; a sender's
 * parity chunk carries its block's length.
 */
class ChunkHeaderSymbolTestCase : public WanTestCase
{
  public:
    ChunkHeaderSymbolTestCase()
        : WanTestCase("chunk header: a parity symbol, 8 words, 56 bytes after the sources")
    {
    }

  private:
    void DoCheck() override
    {
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::MERGED);
        h.SetSourceSet(WanSourceSet::FromPositions({0, 3}));
        NS_TEST_EXPECT_MSG_EQ(h.HasSymbol(), false, "none by default");
        const WanGaloisRing::Element symbol{~uint64_t{0}, 1, 2, 3, 0x8000000000000000u, 5, 6, 7};
        h.SetSymbol(symbol);
        NS_TEST_EXPECT_MSG_EQ(h.GetFixedValue(), -1, "word 0 is the value");
        NS_TEST_EXPECT_MSG_EQ(h.GetSerializedSize(), 36 + 56, "36 + 56 bytes");
        auto p = Create<Packet>(100);
        p->AddHeader(h);
        std::vector<uint8_t> raw(92);
        p->CopyData(raw.data(), raw.size());
        NS_TEST_EXPECT_MSG_EQ(int(raw[1]), 1, "flag bit 0");
        NS_TEST_EXPECT_MSG_EQ(int(raw[36 + 7]), 1, "word 1, network order");
        NS_TEST_EXPECT_MSG_EQ(int(raw[36 + 24]), 0x80, "word 4's top byte");
        WanChunkHeader back;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(back), 92, "reads 92 bytes");
        NS_TEST_EXPECT_MSG_EQ(back.HasSymbol(), true, "a symbol");
        NS_TEST_EXPECT_MSG_EQ((back.GetSymbol() == symbol), true, "every word");
        NS_TEST_EXPECT_MSG_EQ(back.GetUpper()[3], 0x8000000000000000u, "word 4");
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 100, "the payload left");
        // Cut short of the symbol: refused, unchanged.
        WanChunkHeader cut;
        NS_TEST_EXPECT_MSG_EQ(Create<Packet>(raw.data(), 91)->PeekHeader(cut), 0, "91 bytes");
        NS_TEST_EXPECT_MSG_EQ(cut.HasSymbol(), false, "unchanged");
        // A sender's parity chunk names the rows sent after its block and
        // the block's data chunks in the sequence field (bytes 16-17, 18-19).
        WanChunkHeader sent;
        sent.SetKind(WanChunkHeader::DATA);
        sent.SetChunk(0x80000007u);
        sent.SetSymbol(symbol);
        sent.SetBlockLength(56);
        sent.SetBlockRows(19);
        auto q = Create<Packet>(0);
        q->AddHeader(sent);
        q->CopyData(raw.data(), 20);
        NS_TEST_EXPECT_MSG_EQ(int(raw[19]), 56, "the sequence field's last byte");
        NS_TEST_EXPECT_MSG_EQ(int(raw[17]), 19, "its second byte");
        NS_TEST_EXPECT_MSG_EQ(int(raw[16]) + int(raw[18]), 0, "");
        WanChunkHeader read;
        q->RemoveHeader(read);
        NS_TEST_EXPECT_MSG_EQ(read.GetBlockLength(), 56, "");
        NS_TEST_EXPECT_MSG_EQ(read.GetBlockRows(), 19, "");
        NS_TEST_EXPECT_MSG_EQ(read.GetSequence(), 19u * 65536 + 56, "the same field");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Bytes that are not a chunk header are refused: an unknown kind, or
 * fewer bytes than the header (or its bitmap) needs.
 */
class ChunkHeaderRejectTestCase : public WanTestCase
{
  public:
    ChunkHeaderRejectTestCase()
        : WanTestCase("chunk header: unknown kinds and short packets are refused")
    {
    }

  private:
    void DoCheck() override
    {
        for (uint8_t kind : {0, 1, 2, 3, 4, 5, 6})
        {
            WanChunkHeader h;
            NS_TEST_EXPECT_MSG_EQ(RawHeader(kind)->PeekHeader(h), 36, "kind " << int(kind));
            NS_TEST_EXPECT_MSG_EQ(h.GetKind(), kind, "kind read");
        }
        for (uint8_t kind : {7, 200, 255})
        {
            WanChunkHeader h;
            h.SetRound(77);
            NS_TEST_EXPECT_MSG_EQ(RawHeader(kind)->PeekHeader(h), 0, "kind " << int(kind));
            NS_TEST_EXPECT_MSG_EQ(h.GetRound(), 77, "header left unchanged");
        }
        WanChunkHeader h;
        NS_TEST_EXPECT_MSG_EQ(RawHeader(1, 33)->PeekHeader(h), 0, "33 bytes: no source count");
        NS_TEST_EXPECT_MSG_EQ(Create<Packet>(0)->PeekHeader(h), 0, "an empty packet");
        // A count of 40 sources needs 8 bytes after the fixed fields; give 6.
        auto raw = std::vector<uint8_t>(38, 0);
        raw[0] = WanChunkHeader::MERGED;
        raw[33] = 40;
        NS_TEST_EXPECT_MSG_EQ(Create<Packet>(raw.data(), 38)->PeekHeader(h), 0, "short bitmap");
        raw.resize(40, 0);
        NS_TEST_EXPECT_MSG_EQ(Create<Packet>(raw.data(), 40)->PeekHeader(h), 40, "whole bitmap");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-chunk-header test suite.
 */
class WanChunkHeaderTestSuite : public TestSuite
{
  public:
    WanChunkHeaderTestSuite()
        : TestSuite("wan-training-chunk-header", Type::UNIT)
    {
        AddTestCase(new ChunkHeaderRoundTripTestCase);
        AddTestCase(new ChunkHeaderSizeTestCase);
        AddTestCase(new ChunkHeaderSourceSetTestCase);
        AddTestCase(new ChunkHeaderSymbolTestCase);
        AddTestCase(new ChunkHeaderRejectTestCase);
    }
};

/// The suite's instance.
static WanChunkHeaderTestSuite g_wanChunkHeaderTestSuite;
