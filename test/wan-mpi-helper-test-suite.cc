/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-mpi-helper.h"
#include "ns3/wan-topology.h"

#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief Cities to ranks: whole regions, cities in turn, or a user's map;
 * the lookahead is the smallest delay of a cut core link; bad maps refused.
 */
class MpiPartitionTestCase : public WanTestCase
{
  public:
    MpiPartitionTestCase()
        : WanTestCase("partitions of the WAN across ranks and their lookahead")
    {
    }

  private:
    void DoCheck() override
    {
        const auto nine = WanTopology::NineCity();
        // Three regions of three (Americas, Europe, Asia, in that order): the
        // second goes to the empty rank, the third to the first rank (tie).
        const auto byRegion = WanMpiHelper::Partition(nine, 2, "region");
        const std::vector<uint32_t> expected{0, 0, 0, 1, 1, 1, 0, 0, 0};
        NS_TEST_EXPECT_MSG_EQ((byRegion == expected), true, "Europe on rank 1");
        // Cut: the transatlantic links from Europe; the shortest, NYC-LON.
        const double nycLon = nine.GetPathDelay(nine.FindCity("NYC"), nine.FindCity("LON"));
        NS_TEST_EXPECT_MSG_EQ_TOL(WanMpiHelper::Lookahead(nine, byRegion),
                                  nycLon,
                                  1e-12,
                                  "lookahead: NYC-LON's delay");
        NS_TEST_EXPECT_MSG_EQ((WanMpiHelper::Partition(nine, 3, "region") ==
                               std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 2, 2, 2}),
                              true,
                              "a region per rank");
        NS_TEST_EXPECT_MSG_EQ((WanMpiHelper::Partition(nine, 2, "city") ==
                               std::vector<uint32_t>{0, 1, 0, 1, 0, 1, 0, 1, 0}),
                              true,
                              "cities in turn");
        const auto one = WanMpiHelper::Partition(nine, 1, "region");
        NS_TEST_EXPECT_MSG_EQ((WanMpiHelper::Lookahead(nine, one) > 1e9), true, "no cut: infinite");
        const auto user =
            WanMpiHelper::Partition(nine,
                                    2,
                                    "NYC:0,LAX:0,BUE:0,LON:0,AMS:0,FRA:0,TYO:1,SEO:1,SIN:1");
        NS_TEST_EXPECT_MSG_EQ(user[6] + user[7] + user[8] + user[0], 3, "the user's map");

        auto e = ErrorOf([&]() { WanMpiHelper::Partition(nine, 2, "NYC:0,LAX:1"); });
        NS_TEST_EXPECT_MSG_EQ(e, "partition: no rank for BUE", e);
        e = ErrorOf([&]() { WanMpiHelper::Partition(nine, 2, "XYZ:0"); });
        NS_TEST_EXPECT_MSG_EQ(e, "partition: unknown city \"XYZ\"", e);
        e = ErrorOf([&]() {
            WanMpiHelper::Partition(nine,
                                    2,
                                    "NYC:0,LAX:0,BUE:0,LON:0,AMS:0,FRA:0,TYO:0,SEO:0,SIN:2");
        });
        NS_TEST_EXPECT_MSG_EQ(e, "partition: rank of SIN must be 0 to 1", e);
        e = ErrorOf([&]() {
            WanMpiHelper::Partition(nine,
                                    2,
                                    "NYC:0,LAX:0,BUE:0,LON:0,AMS:0,FRA:0,TYO:0,SEO:0,SIN:0");
        });
        NS_TEST_EXPECT_MSG_EQ(e, "partition: rank 1 runs no city", e);
        e = ErrorOf([&]() { WanMpiHelper::Partition(nine, 10, "region"); });
        NS_TEST_EXPECT_MSG_EQ(e, "partition: 10 ranks for 9 cities (1 to 9)", e);
        e = ErrorOf([&]() { WanMpiHelper::Partition(nine, 4, "region"); });
        NS_TEST_EXPECT_MSG_EQ(e, "partition: rank 3 runs no city", e);
        e = ErrorOf([&]() { WanMpiHelper::Partition(nine, 2, "banana"); });
        NS_TEST_EXPECT_MSG_EQ(e,
                              "partition \"banana\": expected CODE:RANK, region, city or balanced",
                              e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The notice delay: the largest, over the pairs of ranks a core link
 * joins, of their smallest cut-link delay; the null-message synchroniser
 * refuses ranks that share no link.
 */
class MpiNoticeDelayTestCase : public WanTestCase
{
  public:
    MpiNoticeDelayTestCase()
        : WanTestCase("notice delay: each pair of ranks' lookahead, the largest; null messages "
                      "need neighbouring ranks")
    {
    }

  private:
    void DoCheck() override
    {
        // A-B 10 ms, B-C 20 ms, C-D 5 ms.
        const auto line = LineTopology({"A", "B", "C", "D"}, {10, 20, 5});
        const auto ms = [](Time t) { return t.GetSeconds() * 1e3; };
        // Ranks {A}, {B, C}, {D}: pairs (0,1) 10 ms, (1,2) 5 ms; 0 and 2 share none.
        const std::vector<uint32_t> three{0, 1, 1, 2};
        NS_TEST_EXPECT_MSG_EQ_TOL(ms(WanMpiHelper::NoticeDelay(line, three, "gtw")),
                                  10.0,
                                  1e-9,
                                  "gtw: the larger pair's");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanMpiHelper::Lookahead(line, three) * 1e3,
                                  5.0,
                                  1e-9,
                                  "the lookahead: the smallest");
        auto e = ErrorOf([&]() { WanMpiHelper::NoticeDelay(line, three, "null"); });
        NS_TEST_EXPECT_MSG_EQ(e,
                              "ranks 0 and 2 share no core link: the null-message synchroniser "
                              "cannot carry notices between them (use --mpi=gtw or another "
                              "partition)",
                              e);
        // {A, B}, {C, D}: one pair, cut at B-C.
        NS_TEST_EXPECT_MSG_EQ_TOL(ms(WanMpiHelper::NoticeDelay(line, {0, 0, 1, 1}, "null")),
                                  20.0,
                                  1e-9,
                                  "one pair: its cut link");
        // {A, C}, {B, D}: A-B 10, B-C 20, C-D 5 all cut, smallest 5.
        NS_TEST_EXPECT_MSG_EQ_TOL(ms(WanMpiHelper::NoticeDelay(line, {0, 1, 0, 1}, "null")),
                                  5.0,
                                  1e-9,
                                  "one pair, three cut links: the smallest");
        NS_TEST_EXPECT_MSG_EQ_TOL(ms(WanMpiHelper::NoticeDelay(line, {0, 0, 0, 0}, "null")),
                                  0.0,
                                  1e-9,
                                  "one rank: none");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Without MPI started, the helper describes one rank: gathering
 * returns this process's text, sums its count; a synchroniser that does not
 * exist is refused, and without MPI in the build so is any.
 */
class MpiOneRankTestCase : public WanTestCase
{
  public:
    MpiOneRankTestCase()
        : WanTestCase("one rank when MPI is not started; bad synchronisers refused")
    {
    }

  private:
    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ(WanMpiHelper::IsEnabled(), false, "not started");
        NS_TEST_EXPECT_MSG_EQ(WanMpiHelper::GetRank(), 0, "rank 0");
        NS_TEST_EXPECT_MSG_EQ(WanMpiHelper::GetSize(), 1, "one rank");
        const auto all = WanMpiHelper::GatherToRoot("text");
        NS_TEST_EXPECT_MSG_EQ((all == std::vector<std::string>{"text"}), true, "its own text");
        NS_TEST_EXPECT_MSG_EQ(WanMpiHelper::Sum(42), 42, "its own count");
        int argc = 0;
        char** argv = nullptr;
        auto e = ErrorOf([&]() { WanMpiHelper::Enable(&argc, &argv, "optimistic"); });
        NS_TEST_EXPECT_MSG_EQ(e,
                              "unknown MPI synchroniser \"optimistic\" (expected gtw or null)",
                              e);
        if (!WanMpiHelper::IsBuiltIn())
        {
            e = ErrorOf([&]() { WanMpiHelper::Enable(&argc, &argv, "gtw"); });
            NS_TEST_EXPECT_MSG_EQ(Mentions(e, "this ns-3 was built without MPI"), true, e);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The MPI helper test suite.
 */
class WanMpiHelperTestSuite : public TestSuite
{
  public:
    WanMpiHelperTestSuite()
        : TestSuite("wan-training-mpi", Type::UNIT)
    {
        AddTestCase(new MpiPartitionTestCase);
        AddTestCase(new MpiNoticeDelayTestCase);
        AddTestCase(new MpiOneRankTestCase);
    }
};

/// The suite's instance.
static WanMpiHelperTestSuite g_wanMpiHelperTestSuite;
