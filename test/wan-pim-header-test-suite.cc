/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-pim-header.h"

#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// @return the bytes with their checksum (bytes 2 and 3) made right again
std::vector<uint8_t>
Resum(std::vector<uint8_t> bytes)
{
    bytes[2] = bytes[3] = 0;
    const uint16_t sum = WanPimHeader::Checksum(bytes.data(), bytes.size());
    bytes[2] = static_cast<uint8_t>(sum >> 8);
    bytes[3] = static_cast<uint8_t>(sum & 0xff);
    return bytes;
}

/// Two groups: G1 joins S1 and S2, G2 prunes S3.
std::vector<WanPimHeader::Group>
TwoGroups()
{
    return {{Ipv4Address("232.1.0.1"), {Ipv4Address("10.0.0.1"), Ipv4Address("10.0.0.5")}, {}},
            {Ipv4Address("232.1.0.2"), {}, {Ipv4Address("10.0.0.9")}}};
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Hello and Join/Prune in the RFC 7761 wire format, byte for byte,
 * and back.
 */
class PimRoundTripTestCase : public WanTestCase
{
  public:
    PimRoundTripTestCase()
        : WanTestCase("Hello and Join-Prune: RFC 7761 bytes and back")
    {
    }

  private:
    void DoCheck() override
    {
        // Hello, holdtime 105 s: 0x20 (version 2, type 0), reserved, checksum,
        // option 1 of length 2 holding 105.  Checksum by hand: the words
        // 0x2000 + 0x0001 + 0x0002 + 0x0069 = 0x206c, complemented 0xdf93.
        const auto hello = SerializedBytes(WanPimHeader::Hello(105));
        const std::vector<uint8_t> expected{0x20, 0, 0xdf, 0x93, 0, 1, 0, 2, 0, 105};
        NS_TEST_EXPECT_MSG_EQ((hello == expected), true, "Hello bytes");
        WanPimHeader h;
        NS_TEST_EXPECT_MSG_EQ(DeserializeBytes(hello, h), 10, "read whole");
        NS_TEST_EXPECT_MSG_EQ(h.GetType(), WanPimHeader::HELLO, "type");
        NS_TEST_EXPECT_MSG_EQ(h.GetHoldtime(), 105, "holdtime");

        // Join/Prune: 4 + 6 (upstream) + 4 + (8 + 4 + 2 x 8) + (8 + 4 + 8) = 62 bytes.
        const auto jp = WanPimHeader::JoinPrune(Ipv4Address("10.0.0.2"), 210, TwoGroups());
        NS_TEST_EXPECT_MSG_EQ(jp.GetSerializedSize(), 62, "size");
        const auto bytes = SerializedBytes(jp);
        NS_TEST_ASSERT_MSG_EQ(bytes.size(), 62, "bytes");
        NS_TEST_EXPECT_MSG_EQ(int(bytes[0]), 0x23, "version 2, type 3");
        const std::vector<uint8_t> upstream{1, 0, 10, 0, 0, 2, 0, 2, 0, 210};
        NS_TEST_EXPECT_MSG_EQ(
            (std::vector<uint8_t>(bytes.begin() + 4, bytes.begin() + 14) == upstream),
            true,
            "IPv4 upstream, reserved, 2 groups, holdtime 210");
        const std::vector<uint8_t> group1{1, 0, 0, 32, 232, 1, 0, 1, 0, 2, 0, 0};
        NS_TEST_EXPECT_MSG_EQ(
            (std::vector<uint8_t>(bytes.begin() + 14, bytes.begin() + 26) == group1),
            true,
            "group 232.1.0.1/32, 2 joined, 0 pruned");
        const std::vector<uint8_t> source1{1, 0, 0x04, 32, 10, 0, 0, 1};
        NS_TEST_EXPECT_MSG_EQ(
            (std::vector<uint8_t>(bytes.begin() + 26, bytes.begin() + 34) == source1),
            true,
            "source 10.0.0.1/32 with S set, W and R clear");
        NS_TEST_EXPECT_MSG_EQ(WanPimHeader::Checksum(bytes.data(), bytes.size()),
                              0,
                              "the checksum covers the message");
        WanPimHeader back;
        NS_TEST_EXPECT_MSG_EQ(DeserializeBytes(bytes, back), 62, "read whole");
        NS_TEST_EXPECT_MSG_EQ(back.GetType(), WanPimHeader::JOIN_PRUNE, "type");
        NS_TEST_EXPECT_MSG_EQ(back.GetUpstream(), Ipv4Address("10.0.0.2"), "upstream");
        NS_TEST_EXPECT_MSG_EQ(back.GetHoldtime(), 210, "holdtime");
        NS_TEST_EXPECT_MSG_EQ((back.GetGroups() == TwoGroups()), true, "groups, joins, prunes");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Bytes that are not a well-formed Hello or Join/Prune are refused,
 * each with its reason, and leave the header as it was.
 */
class PimMalformedTestCase : public WanTestCase
{
  public:
    PimMalformedTestCase()
        : WanTestCase("malformed messages are refused with their reason")
    {
    }

  private:
    void DoCheck() override
    {
        const auto good =
            SerializedBytes(WanPimHeader::JoinPrune(Ipv4Address("10.0.0.2"), 210, TwoGroups()));
        auto flipped = good;
        flipped[20] ^= 0x01;
        auto version = good;
        version[0] = 0x33;
        auto registerMsg = good;
        registerMsg[0] = 0x21;
        auto truncated = good;
        truncated.resize(58);
        auto mask = good;
        mask[17] = 24;
        auto family = good;
        family[34] = 2;
        auto trailing = good;
        trailing.push_back(0);
        trailing.push_back(0);
        auto noHoldtime = SerializedBytes(WanPimHeader::Hello(30));
        noHoldtime[5] = 19; // the option becomes DR Priority
        const std::vector<std::pair<std::vector<uint8_t>, std::string>> cases{
            {flipped, "wrong checksum"},
            {Resum(version), "PIM version 3, not 2"},
            {Resum(registerMsg), "PIM message type 1 (only Hello, Join/Prune and Join-Ack)"},
            {Resum(truncated), "group 2 source 1: truncated encoded address"},
            {Resum(mask), "group 1: mask length 24 is not 32"},
            {Resum(family), "group 1 source 2: address family 2 is not IPv4"},
            {Resum(trailing), "2 bytes after the last group"},
            {Resum(noHoldtime), "Hello without a Holdtime option"},
            {{0x20, 0}, "shorter than the PIM header"}};
        for (const auto& [bytes, reason] : cases)
        {
            auto h = WanPimHeader::Hello(7);
            NS_TEST_EXPECT_MSG_EQ(DeserializeBytes(bytes, h), 0, reason << ": refused");
            NS_TEST_EXPECT_MSG_EQ(h.GetError(), reason, "the reason");
            NS_TEST_EXPECT_MSG_EQ(h.GetHoldtime(), 7, reason << ": the header unchanged");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The PIM message header (WanPimHeader).
 */
class WanPimHeaderTestSuite : public TestSuite
{
  public:
    WanPimHeaderTestSuite()
        : TestSuite("wan-training-pim-header", Type::UNIT)
    {
        AddTestCase(new PimRoundTripTestCase);
        AddTestCase(new PimMalformedTestCase);
    }
};

/// The suite's one instance.
static WanPimHeaderTestSuite g_wanPimHeaderTestSuite;
