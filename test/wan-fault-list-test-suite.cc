/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-fault-list.h"
#include "ns3/wan-training-text.h"

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The three fault lists read by hand: every field, the order kept,
 * one round for "CITY@round", blanks and empty items dropped.
 */
class FaultListReadTestCase : public WanTestCase
{
  public:
    FaultListReadTestCase()
        : WanTestCase("fault lists: links, FPGAs and absences read field by field")
    {
    }

  private:
    void DoCheck() override
    {
        const auto links = WanFaultList::ParseLinkFaults(" NYC-LON@0.5-2, ,SEA-SFO@1e3-2e3", "-l");
        NS_TEST_ASSERT_MSG_EQ(links.size(), 2, "two link faults");
        NS_TEST_EXPECT_MSG_EQ(links[0].a + "|" + links[0].b, "NYC|LON", "first link");
        NS_TEST_EXPECT_MSG_EQ(links[0].downSeconds, 0.5, "down");
        NS_TEST_EXPECT_MSG_EQ(links[0].upSeconds, 2, "up");
        NS_TEST_EXPECT_MSG_EQ(links[1].a + "|" + links[1].b, "SEA|SFO", "second link");
        NS_TEST_EXPECT_MSG_EQ(links[1].upSeconds, 2000, "exponents");

        const auto fpgas = WanFaultList::ParseFpgaFaults("LON@0.01,NYC@3", "-f");
        NS_TEST_ASSERT_MSG_EQ(fpgas.size(), 2, "two FPGA faults");
        NS_TEST_EXPECT_MSG_EQ(fpgas[1].city, "NYC", "city");
        NS_TEST_EXPECT_MSG_EQ(fpgas[1].atSeconds, 3, "time");

        const auto away = WanFaultList::ParseAbsences("LON@0, NYC@3-5", "-a");
        NS_TEST_ASSERT_MSG_EQ(away.size(), 2, "two absences");
        NS_TEST_EXPECT_MSG_EQ(away[0].firstRound, 0, "one round: first");
        NS_TEST_EXPECT_MSG_EQ(away[0].lastRound, 0, "one round: last");
        NS_TEST_EXPECT_MSG_EQ(away[1].city, "NYC", "city");
        NS_TEST_EXPECT_MSG_EQ(away[1].firstRound, 3, "first");
        NS_TEST_EXPECT_MSG_EQ(away[1].lastRound, 5, "last");

        NS_TEST_EXPECT_MSG_EQ(WanFaultList::ParseLinkFaults("", "-l").size(), 0, "none");
        NS_TEST_EXPECT_MSG_EQ(WanFaultList::ParseAbsences(" , ", "-a").size(), 0, "none");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Each malformed item refused with one line naming the option, the
 * item and what is wrong; control characters in an item are written out.
 */
class FaultListRefusalTestCase : public WanTestCase
{
  public:
    FaultListRefusalTestCase()
        : WanTestCase("fault lists: malformed items refused in one line")
    {
    }

  private:
    void DoCheck() override
    {
        struct Case
        {
            std::string list; //!< l, f or a
            std::string text; //!< the option's text
            std::string part; //!< expected in the message
        };

        const std::vector<Case> cases{
            {"l", "NYC-LON", "-l: \"NYC-LON\" is not A-B@down-up"},
            {"l", "NYC@1-2", "-l: \"NYC@1-2\" is not A-B@down-up"},
            {"l", "-LON@1-2", "is not A-B@down-up"},
            {"l", "NYC-@1-2", "is not A-B@down-up"},
            {"l", "NYC-LON@1", "is not A-B@down-up"},
            {"l", "NYC-LON@", "is not A-B@down-up"},
            {"l", "NYC-LON@x-2", "-l: \"NYC-LON@x-2\": 'x' is not a number"},
            {"l", "NYC-LON@1-2e7", "-l: \"NYC-LON@1-2e7\" must be from 0 to 1e+06 s (got 2e+07 s)"},
            {"l", "NYC-LON@nan-2", "'nan' is not a number"},
            {"f", "@3", "-f: \"@3\" is not CITY@at"},
            {"f", "LON@1-2", "-f: \"LON@1-2\": '1-2' is not a number"},
            {"f", "LON@-1", "must be from 0 to 1e+06 s (got -1 s)"},
            {"a", "LON@1.5", "-a: \"LON@1.5\": round 1.5 is not a whole number"},
            {"a", "LON@2-1e6", "must be from 0 to 100000 rounds (got 1e+06 rounds)"},
            {"a", "LON", "is not CITY@first-last or CITY@round"},
            {"a", "LON@1\x01", "-a: \"LON@1\\x01\": '1\\x01' is not a number"},
        };
        for (const auto& c : cases)
        {
            const auto error = ErrorOf([&c] {
                if (c.list == "l")
                {
                    WanFaultList::ParseLinkFaults(c.text, "-l");
                }
                else if (c.list == "f")
                {
                    WanFaultList::ParseFpgaFaults(c.text, "-f");
                }
                else
                {
                    WanFaultList::ParseAbsences(c.text, "-a");
                }
            });
            NS_TEST_EXPECT_MSG_EQ(Mentions(error, c.part),
                                  true,
                                  c.text << ": got \"" << error << "\"");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief wantext::Printable: control characters written out, long text cut.
 */
class PrintableTestCase : public WanTestCase
{
  public:
    PrintableTestCase()
        : WanTestCase("text quoted in a message stays on one line")
    {
    }

  private:
    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ(wantext::Printable("a\tb\r\nc\x01\x7f"
                                                 "d"),
                              "a\\tb\\r\\nc\\x01\\x7fd",
                              "escaped");
        NS_TEST_EXPECT_MSG_EQ(wantext::Printable("S\xC3\xA3o Paulo"),
                              "S\xC3\xA3o Paulo",
                              "UTF-8 kept");
        NS_TEST_EXPECT_MSG_EQ(wantext::Printable(std::string(80, 'x')), std::string(80, 'x'), "80");
        NS_TEST_EXPECT_MSG_EQ(wantext::Printable(std::string(81, 'x')),
                              std::string(80, 'x') + "...",
                              "cut after 80");
        NS_TEST_EXPECT_MSG_EQ(wantext::Printable(std::string("a\0b", 3)), "a\\x00b", "NUL");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Suite of WanFaultList.
 */
class WanFaultListTestSuite : public TestSuite
{
  public:
    WanFaultListTestSuite()
        : TestSuite("wan-training-fault-list", Type::UNIT)
    {
        AddTestCase(new FaultListReadTestCase);
        AddTestCase(new FaultListRefusalTestCase);
        AddTestCase(new PrintableTestCase);
    }
};

/// The suite's one instance.
static WanFaultListTestSuite g_wanFaultListTestSuite;
