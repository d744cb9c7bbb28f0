/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ns3/packet.h"
#include "ns3/test.h"
#include "ns3/wan-chunk-header.h"

#include <sstream>

using namespace ns3;

/**
 * \ingroup wan-training-tests
 * \brief Every field survives a trip through a packet, bit for bit.
 */
class ChunkHeaderRoundTripTestCase : public TestCase
{
  public:
    ChunkHeaderRoundTripTestCase()
        : TestCase("chunk header: serialize and deserialize every field")
    {
    }

  private:
    void DoRun() override
    {
        WanChunkHeader h;
        h.SetKind(WanChunkHeader::MERGED);
        h.SetRound(123456);
        h.SetClique(7);
        h.SetSender(65000);
        h.SetChunk(4000000000u);
        h.SetSequence(99);
        h.SetContributions(2);
        h.SetExpected(8);
        h.SetPosition(31);
        h.SetSources(0x80000005u);
        h.SetValue(-0.1 + 1e-17);
        NS_TEST_EXPECT_MSG_EQ(h.GetSerializedSize(), 36, "36 bytes");

        // The payload stays virtual: 8936 zero bytes cost no buffer.
        auto p = Create<Packet>(8936);
        p->AddHeader(h);
        NS_TEST_EXPECT_MSG_EQ(p->GetSize(), 8972, "header + virtual payload");
        WanChunkHeader back;
        NS_TEST_EXPECT_MSG_EQ(p->RemoveHeader(back), 36, "reads 36 bytes");
        NS_TEST_EXPECT_MSG_EQ(back.GetKind(), WanChunkHeader::MERGED, "kind");
        NS_TEST_EXPECT_MSG_EQ(back.GetRound(), 123456, "round");
        NS_TEST_EXPECT_MSG_EQ(back.GetClique(), 7, "clique");
        NS_TEST_EXPECT_MSG_EQ(back.GetSender(), 65000, "sender");
        NS_TEST_EXPECT_MSG_EQ(back.GetChunk(), 4000000000u, "chunk");
        NS_TEST_EXPECT_MSG_EQ(back.GetSequence(), 99, "sequence");
        NS_TEST_EXPECT_MSG_EQ(back.GetContributions(), 2, "contributions");
        NS_TEST_EXPECT_MSG_EQ(back.GetExpected(), 8, "expected");
        NS_TEST_EXPECT_MSG_EQ(back.GetPosition(), 31, "position");
        NS_TEST_EXPECT_MSG_EQ(back.GetSources(), 0x80000005u, "sources, every bit");
        NS_TEST_EXPECT_MSG_EQ(back.GetValue(), -0.1 + 1e-17, "value, bit for bit");
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
 * \ingroup wan-training-tests
 * \brief The wan-training-chunk-header test suite.
 */
class WanChunkHeaderTestSuite : public TestSuite
{
  public:
    WanChunkHeaderTestSuite()
        : TestSuite("wan-training-chunk-header", Type::UNIT)
    {
        AddTestCase(new ChunkHeaderRoundTripTestCase);
    }
};

/// The suite's instance.
static WanChunkHeaderTestSuite g_wanChunkHeaderTestSuite;
