/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-repair-queue.h"

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @param address an IPv4 address
 * @param port a port
 * @return the two as a socket address
 */
InetSocketAddress
At(const char* address, uint16_t port)
{
    return InetSocketAddress(Ipv4Address(address), port);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Repairs leave in the order asked; a request for a chunk queued
 * already for the same requester is suppressed until that repair leaves.
 */
class RepairQueueOrderTestCase : public WanTestCase
{
  public:
    RepairQueueOrderTestCase()
        : WanTestCase("repairs leave in order; a repeated request is suppressed while queued")
    {
    }

  private:
    void DoCheck() override
    {
        WanRepairQueue q;
        NS_TEST_EXPECT_MSG_EQ(q.IsEmpty(), true, "");
        NS_TEST_EXPECT_MSG_EQ(q.Push({0, 5, 3, At("10.0.0.1", 9001)}), true, "first request");
        // The same chunk for the same island, even from another port: suppressed.
        NS_TEST_EXPECT_MSG_EQ(q.Push({0, 5, 3, At("10.0.0.1", 9000)}), false, "same requester");
        NS_TEST_EXPECT_MSG_EQ(q.Push({0, 5, 3, At("10.0.0.2", 9001)}), true, "another island");
        NS_TEST_EXPECT_MSG_EQ(q.Push({1, 6, 3, At("10.0.0.1", 9001)}), true, "another round");
        NS_TEST_EXPECT_MSG_EQ(q.Push({0, 5, 4, At("10.0.0.1", 9001)}), true, "another chunk");
        NS_TEST_EXPECT_MSG_EQ(q.GetSize(), 4, "one of five suppressed");

        const Time packet = NanoSeconds(7200);
        auto first = q.Pop(Seconds(0), packet, 1);
        NS_TEST_EXPECT_MSG_EQ(first.round, 5, "");
        NS_TEST_EXPECT_MSG_EQ(first.chunk, 3, "");
        NS_TEST_EXPECT_MSG_EQ(first.to.GetIpv4(), Ipv4Address("10.0.0.1"), "oldest first");
        NS_TEST_EXPECT_MSG_EQ(first.to.GetPort(), 9001, "where the first request came from");
        // Once it has left, the chunk is queued again for that island.
        NS_TEST_EXPECT_MSG_EQ(q.Push({0, 5, 3, At("10.0.0.1", 9001)}), true, "left: queued again");
        NS_TEST_EXPECT_MSG_EQ(q.Push({0, 5, 3, At("10.0.0.2", 9001)}), false, "still queued");
        NS_TEST_EXPECT_MSG_EQ(q.Front().to.GetIpv4(), Ipv4Address("10.0.0.2"), "");
        auto second = q.Pop(Seconds(0), packet, 1);
        auto third = q.Pop(Seconds(0), packet, 1);
        auto fourth = q.Pop(Seconds(0), packet, 1);
        auto fifth = q.Pop(Seconds(0), packet, 1);
        NS_TEST_EXPECT_MSG_EQ(second.to.GetIpv4(), Ipv4Address("10.0.0.2"), "");
        NS_TEST_EXPECT_MSG_EQ(third.round, 6, "");
        NS_TEST_EXPECT_MSG_EQ(third.index, 1, "");
        NS_TEST_EXPECT_MSG_EQ(fourth.chunk, 4, "");
        NS_TEST_EXPECT_MSG_EQ(fifth.chunk, 3, "the re-queued one last");
        NS_TEST_EXPECT_MSG_EQ(fifth.round, 5, "");
        NS_TEST_EXPECT_MSG_EQ(q.IsEmpty(), true, "");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&] { q.Front(); }), "no repair"), true, "");
        const auto popEmpty = ErrorOf([&] { q.Pop(Seconds(0), packet, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(popEmpty, "no repair"), true, popEmpty);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The pacer holds each repair a packet time at the repair budget
 * after the one before, counted from when that one left.
 */
class RepairQueuePacingTestCase : public WanTestCase
{
  public:
    RepairQueuePacingTestCase()
        : WanTestCase("the pacer spaces repairs one packet time at the budget apart")
    {
    }

  private:
    void DoCheck() override
    {
        WanRepairQueue q;
        // Nothing sent yet: a first repair may leave at once.
        NS_TEST_EXPECT_MSG_EQ(q.GetWait(MilliSeconds(3)), Time(0), "idle pacer");
        for (uint32_t chunk = 0; chunk < 3; ++chunk)
        {
            q.Push({0, 1, chunk, At("10.0.0.9", 9001)});
        }
        // 9000 bytes at 10 Gbps: 7.2 us; at a budget of 0.25, 28.8 us apart.
        const Time packet = NanoSeconds(7200);
        q.Pop(MicroSeconds(1000), packet, 0.25);
        NS_TEST_EXPECT_MSG_EQ(q.GetWait(MicroSeconds(1000)), NanoSeconds(28800), "7.2 / 0.25 us");
        NS_TEST_EXPECT_MSG_EQ(q.GetWait(MicroSeconds(1010)), NanoSeconds(18800), "10 us later");
        NS_TEST_EXPECT_MSG_EQ(q.GetWait(MicroSeconds(1040)), Time(0), "past: at once");
        // Sent late (at 1040 us), the next is held from then; at a budget of
        // 2 (a packet time at twice the rate), 3.6 us.
        q.Pop(MicroSeconds(1040), packet, 2);
        NS_TEST_EXPECT_MSG_EQ(q.GetWait(MicroSeconds(1040)), NanoSeconds(3600), "7.2 / 2 us");
        NS_TEST_EXPECT_MSG_EQ(q.GetWait(MicroSeconds(1042)), NanoSeconds(1600), "");
        NS_TEST_EXPECT_MSG_EQ(q.GetSize(), 1, "one left");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The repairs an island owes, in order, paced.
 */
class WanRepairQueueTestSuite : public TestSuite
{
  public:
    WanRepairQueueTestSuite()
        : TestSuite("wan-training-repair-queue", Type::UNIT)
    {
        AddTestCase(new RepairQueueOrderTestCase);
        AddTestCase(new RepairQueuePacingTestCase);
    }
};

/// The suite's one instance.
static WanRepairQueueTestSuite g_wanRepairQueueTestSuite;
