/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-round-counters.h"

#include <vector>

using namespace ns3;

/**
 * @ingroup wan-training-tests
 * @brief `+=` adds every counter, each to itself.
 */
class RoundCountersSumTestCase : public WanTestCase
{
  public:
    RoundCountersSumTestCase()
        : WanTestCase("+= adds every counter to its own")
    {
    }

  private:
    void DoCheck() override
    {
        // Each counter a distinct power of two in a; b is a three times.
        using C = WanRoundCounters;
        const std::vector<uint64_t C::*> counters = {
            &C::bytesIn,    &C::bytesOut,        &C::packetsIn,    &C::partialSums,
            &C::nacks,      &C::retransmissions, &C::expected,     &C::delivered,
            &C::late,       &C::requested,       &C::requests,     &C::recovered,
            &C::givenUp,    &C::discarded,       &C::repairsSent,  &C::dropped,
            &C::paritySent, &C::rebuilt,         &C::parityBlocks, &C::paritySymbols,
            &C::erasures,   &C::blocksShort,     &C::parityRows,   &C::lossReports};
        NS_TEST_ASSERT_MSG_EQ(counters.size() * sizeof(uint64_t), sizeof(C), "every counter");
        // Fields() names each counter once, in this order.
        NS_TEST_ASSERT_MSG_EQ(C::Fields().size(), counters.size(), "every counter named");
        for (size_t k = 0; k < counters.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ((C::Fields()[k].second == counters[k]), true, "counter " << k);
        }
        C a;
        for (size_t k = 0; k < counters.size(); ++k)
        {
            a.*counters[k] = uint64_t{1} << k;
        }
        C b = a;
        b += a;
        b += a;
        const C c = a + b;
        for (size_t k = 0; k < counters.size(); ++k)
        {
            NS_TEST_EXPECT_MSG_EQ(b.*counters[k], 3 * (uint64_t{1} << k), "counter " << k);
            NS_TEST_EXPECT_MSG_EQ(c.*counters[k], 4 * (uint64_t{1} << k), "counter " << k);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-round-counters test suite.
 */
class WanRoundCountersTestSuite : public TestSuite
{
  public:
    WanRoundCountersTestSuite()
        : TestSuite("wan-training-round-counters", Type::UNIT)
    {
        AddTestCase(new RoundCountersSumTestCase);
    }
};

/// The suite's instance.
static WanRoundCountersTestSuite g_wanRoundCountersTestSuite;
