/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-training-text.h"

#include <cmath>
#include <limits>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief Ranges: closed and open ends, NaN, and the message that names the
 * field, the value and the range.
 */
class TextRangeTestCase : public WanTestCase
{
  public:
    TextRangeTestCase()
        : WanTestCase("ranges: ends, open ends, NaN and the one-line message")
    {
    }

  private:
    void DoCheck() override
    {
        const wantext::Range closed{0, 1000, "ms"};
        NS_TEST_EXPECT_MSG_EQ(closed.Contains(0), true, "closed minimum");
        NS_TEST_EXPECT_MSG_EQ(closed.Contains(1000), true, "closed maximum");
        NS_TEST_EXPECT_MSG_EQ(closed.Contains(-1e-9), false, "below");
        NS_TEST_EXPECT_MSG_EQ(closed.Contains(1000.001), false, "above");
        NS_TEST_EXPECT_MSG_EQ(closed.Contains(std::nan("")), false, "NaN");
        NS_TEST_EXPECT_MSG_EQ(closed.Contains(std::numeric_limits<double>::infinity()),
                              false,
                              "infinity");
        NS_TEST_EXPECT_MSG_EQ(closed.Text(), "from 0 to 1000 ms", "closed text");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { closed.Check(1e308, "--jitterMs"); }),
                              "--jitterMs must be from 0 to 1000 ms (got 1e+308 ms)",
                              "message");
        NS_TEST_EXPECT_MSG_EQ(closed.Check(12.5, "x"), 12.5, "a value inside is returned");

        const auto& loss = wantext::bounds::kLossRate;
        NS_TEST_EXPECT_MSG_EQ(loss.Contains(0.999999), true, "just below 1");
        NS_TEST_EXPECT_MSG_EQ(loss.Contains(1), false, "1 is outside");
        NS_TEST_EXPECT_MSG_EQ(loss.Text(), "from 0 to less than 1", "open maximum text");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { loss.Check(1, "--lossRate"); }),
                              "--lossRate must be from 0 to less than 1 (got 1)",
                              "no unit");

        const auto& forgetting = wantext::bounds::kForgetting;
        NS_TEST_EXPECT_MSG_EQ(forgetting.Contains(0), false, "0 is outside");
        NS_TEST_EXPECT_MSG_EQ(forgetting.Contains(1), true, "1 is inside");
        NS_TEST_EXPECT_MSG_EQ(forgetting.Text(), "above 0 and at most 1", "open minimum text");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The programs' parsing helpers: lists, numbers, joining, byte-order
 * marks.
 */
class TextParsingTestCase : public WanTestCase
{
  public:
    TextParsingTestCase()
        : WanTestCase("parsing helpers: lists, numbers, byte-order marks")
    {
    }

  private:
    void DoCheck() override
    {
        auto items = wantext::SplitList(" core, access,,post ");
        NS_TEST_ASSERT_MSG_EQ(items.size(), 3, "empty items dropped");
        NS_TEST_EXPECT_MSG_EQ(items[1], "access", "items trimmed");
        NS_TEST_EXPECT_MSG_EQ(wantext::SplitList("").size(), 0, "empty list");
        NS_TEST_EXPECT_MSG_EQ(wantext::Join(items, "+"), "core+access+post", "joined");
        NS_TEST_EXPECT_MSG_EQ(wantext::JoinOr(items), "core, access or post", "a choice");
        NS_TEST_EXPECT_MSG_EQ(wantext::JoinOr({"pim"}), "pim", "one name");

        NS_TEST_EXPECT_MSG_EQ(wantext::ParseNumber(" 1e9 ", "--payload"), 1e9, "exponent");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([] { wantext::ParseNumber("32GB", "--hbmGB"); }),
                              "--hbmGB: '32GB' is not a number",
                              "trailing text");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([] { wantext::ParseNumber("inf", "x"); }), "'inf' is not a number"),
            true,
            "infinity");
        auto numbers = wantext::ParseNumbers("0, 8,32", "--hbmGB");
        NS_TEST_ASSERT_MSG_EQ(numbers.size(), 3, "three numbers");
        NS_TEST_EXPECT_MSG_EQ(numbers[2], 32, "the last");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([] { wantext::ParseNumbers(",", "--hbmGB"); }),
                              "--hbmGB is empty",
                              "no number");

        const std::string bom = "\xEF\xBB\xBF";
        NS_TEST_EXPECT_MSG_EQ(wantext::StripBom(bom + "code"), "code", "mark removed");
        NS_TEST_EXPECT_MSG_EQ(wantext::StripBom("code" + bom), "code" + bom, "only at the start");
        std::string error = ErrorOf([&] {
            wantext::CsvTable table("cities.csv", bom + "code,lat\nA,1.5\n", {"code"});
            NS_TEST_EXPECT_MSG_EQ(table.Text(0, "code"), "A", "header read past the mark");
            NS_TEST_EXPECT_MSG_EQ(table.Number(0, "lat", wantext::bounds::kLatitude),
                                  1.5,
                                  "a number in its range");
        });
        NS_TEST_EXPECT_MSG_EQ(error, "", "a CSV table with a byte-order mark reads");
        NS_TEST_EXPECT_MSG_EQ(wantext::ParseJson(bom + "[1]", "x").size(), 1, "JSON past the mark");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-text test suite.
 */
class WanTrainingTextTestSuite : public TestSuite
{
  public:
    WanTrainingTextTestSuite()
        : TestSuite("wan-training-text", Type::UNIT)
    {
        AddTestCase(new TextRangeTestCase);
        AddTestCase(new TextParsingTestCase);
    }
};

/// The suite's instance.
static WanTrainingTextTestSuite g_wanTrainingTextTestSuite;
