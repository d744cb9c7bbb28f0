/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/staleness-model.h"
#include "ns3/test.h"

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The paper's figures: 80% idle, 5x with enough staleness.
 */
class StalenessFiguresTestCase : public WanTestCase
{
  public:
    StalenessFiguresTestCase()
        : WanTestCase("80% idle GPUs and the 5x speedup from tolerating staleness")
    {
    }

  private:
    void DoCheck() override
    {
        StalenessModel m(0.25, 1.0);
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetIdleFraction(), 0.8, 1e-15, "1 / (0.25 + 1)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetSpeedup(0), 1.0, 1e-15, "no staleness, no gain");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetSpeedup(0.5), 1.25 / 0.75, 1e-12, "half hidden");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetSpeedup(1.0), 5.0, 1e-12, "1 / (1 - 0.8)");
        NS_TEST_EXPECT_MSG_EQ_TOL(m.GetSpeedup(3.0), 5.0, 1e-12, "no more past full overlap");
        NS_TEST_EXPECT_MSG_EQ(m.GetFullOverlapStaleness(), 1.0, "S = x");

        // Two islands 30 ms apart, 20 Gbps, 1 GB: 2 (30 ms + 1/2 x 400 ms).
        auto pair = LineTopology({"A", "B"}, {30});
        NS_TEST_EXPECT_MSG_EQ_TOL(StalenessModel::AllReduceSeconds(pair, 1e9),
                                  0.46,
                                  1e-12,
                                  "reduce-scatter + all-gather");
        // Nine cities: longest path BUE-SIN 157.29 ms, 8/9 of 400 ms.
        NS_TEST_EXPECT_MSG_EQ_TOL(StalenessModel::AllReduceSeconds(WanTopology::NineCity(), 1e9),
                                  2 * (0.15729 + 0.4 * 8 / 9),
                                  1e-12,
                                  "about one second");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Impossible parameters are refused with clear errors.
 */
class StalenessBadInputTestCase : public WanTestCase
{
  public:
    StalenessBadInputTestCase()
        : WanTestCase("impossible staleness parameters")
    {
    }

  private:
    void DoCheck() override
    {
        std::string e = ErrorOf([] { StalenessModel(0, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "compute time per step must be positive"), true, e);
        e = ErrorOf([] { StalenessModel(1, -1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "exchange time must be zero or positive"), true, e);
        e = ErrorOf([] { StalenessModel(1, 1).GetSpeedup(-0.1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "staleness must be zero or positive"), true, e);
        e = ErrorOf([] { StalenessModel::AllReduceSeconds(WanTopology::NineCity(), 0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "payload must be positive"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-staleness test suite.
 */
class StalenessModelTestSuite : public TestSuite
{
  public:
    StalenessModelTestSuite()
        : TestSuite("wan-training-staleness", Type::UNIT)
    {
        AddTestCase(new StalenessFiguresTestCase);
        AddTestCase(new StalenessBadInputTestCase);
    }
};

/// The suite's instance.
static StalenessModelTestSuite g_stalenessModelTestSuite;
