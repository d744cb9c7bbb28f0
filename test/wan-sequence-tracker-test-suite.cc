/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-sequence-tracker.h"

using namespace ns3;
using namespace ns3::wantest;

namespace
{

using Arrival = WanSequenceTracker::Arrival;

/// @return the arrival's name, for messages
const char*
Name(Arrival a)
{
    return a == Arrival::FIRST ? "first" : a == Arrival::GAP_FILLED ? "gap filled" : "duplicate";
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief In order, every number is a first copy and the window follows; a
 * copy of any earlier number is a duplicate, however far behind the window.
 */
class SequenceDuplicateTestCase : public WanTestCase
{
  public:
    SequenceDuplicateTestCase()
        : WanTestCase("a copy below the window is a duplicate, however old")
    {
    }

  private:
    void DoCheck() override
    {
        WanSequenceTracker t;
        for (uint32_t s = 0; s < 10; ++s)
        {
            auto got = Name(t.Receive(s));
            NS_TEST_EXPECT_MSG_EQ(got, std::string("first"), "seq " << s);
        }
        NS_TEST_EXPECT_MSG_EQ(t.GetWindowStart(), 10, "window past all ten");
        NS_TEST_EXPECT_MSG_EQ(t.HasGaps(), false, "no gap");
        // The MERGED packet resent twice after its window passed.
        for (uint32_t s : {3u, 3u, 0u, 9u})
        {
            auto got = Name(t.Receive(s));
            NS_TEST_EXPECT_MSG_EQ(got, std::string("duplicate"), "seq " << s);
        }
        NS_TEST_EXPECT_MSG_EQ(t.GetWindowStart(), 10, "window unmoved");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Reordering and resends: a jump opens gaps, each fills once, and
 * the window moves only over what arrived.
 */
class SequenceReorderTestCase : public WanTestCase
{
  public:
    SequenceReorderTestCase()
        : WanTestCase("reordered and resent numbers: each gap filled once")
    {
    }

  private:
    void DoCheck() override
    {
        WanSequenceTracker t;

        // {arrival, expected outcome, window start after, gaps after}
        struct Step
        {
            uint32_t seq;
            Arrival arrival;
            uint64_t window;
            std::vector<uint32_t> gaps;
        };

        const std::vector<Step> steps = {
            {0, Arrival::FIRST, 1, {}},
            {3, Arrival::FIRST, 1, {1, 2}},
            {2, Arrival::GAP_FILLED, 1, {1}},
            {2, Arrival::DUPLICATE, 1, {1}},
            {5, Arrival::FIRST, 1, {1, 4}},
            {3, Arrival::DUPLICATE, 1, {1, 4}},
            {1, Arrival::GAP_FILLED, 4, {4}},
            {1, Arrival::DUPLICATE, 4, {4}},
            {4, Arrival::GAP_FILLED, 6, {}},
            {4, Arrival::DUPLICATE, 6, {}},
            {6, Arrival::FIRST, 7, {}},
        };
        for (const auto& s : steps)
        {
            auto got = Name(t.Receive(s.seq));
            NS_TEST_EXPECT_MSG_EQ(got, std::string(Name(s.arrival)), s.seq);
            NS_TEST_EXPECT_MSG_EQ(t.GetWindowStart(), s.window, "window after " << s.seq);
            NS_TEST_EXPECT_MSG_EQ((t.GetGaps() == s.gaps), true, "gaps after " << s.seq);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Each gap is asked for at most MaxNacks times, then abandoned; an
 * abandoned number that still arrives is taken once.
 */
class SequenceNackCapTestCase : public WanTestCase
{
  public:
    SequenceNackCapTestCase()
        : WanTestCase("a gap is asked for MaxNacks times, then abandoned")
    {
    }

  private:
    void DoCheck() override
    {
        WanSequenceTracker t(3);
        t.Receive(0);
        t.Receive(4); // gaps 1, 2, 3
        t.Receive(2);
        uint32_t asked = 0;
        for (int round = 0; round < 3; ++round)
        {
            const auto nacks = t.TakeNacksDue(round, 0);
            NS_TEST_EXPECT_MSG_EQ((nacks == std::vector<uint32_t>{1, 3}), true, "round " << round);
            asked += nacks.size();
        }
        NS_TEST_EXPECT_MSG_EQ(asked, 6, "two gaps, three NACKs each");
        auto due = t.TakeNacksDue(3, 0).empty();
        NS_TEST_EXPECT_MSG_EQ(due, true, "the fourth time: abandoned");
        NS_TEST_EXPECT_MSG_EQ(t.GetAbandoned(), 2, "two abandoned");
        NS_TEST_EXPECT_MSG_EQ(t.HasGaps(), false, "none asked for");
        NS_TEST_EXPECT_MSG_EQ(t.GetWindowStart(), 5, "window past the abandoned");
        auto got = Name(t.Receive(3));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("first"), "late, taken once");
        got = Name(t.Receive(3));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("duplicate"), "then a duplicate");
        got = Name(t.Receive(1));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("first"), "the other, once");
        got = Name(t.Receive(1));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("duplicate"), "and only once");

        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([]() { WanSequenceTracker bad(0); }), "at least one NACK"),
            true,
            "MaxNacks 0 refused");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A gap is asked for again only `interval` after it was last asked
 * for (new gaps at once); a sender's count exposes the tail, which no later
 * arrival shows.
 */
class SequenceNackIntervalTestCase : public WanTestCase
{
  public:
    SequenceNackIntervalTestCase()
        : WanTestCase("a gap is asked for again only after the interval; the tail by count")
    {
    }

  private:
    void DoCheck() override
    {
        WanSequenceTracker t(5);
        t.Receive(0);
        t.Receive(2); // gap 1
        auto due = (t.TakeNacksDue(1.0, 0.5) == std::vector<uint32_t>{1});
        NS_TEST_EXPECT_MSG_EQ(due, true, "");
        t.Receive(4); // gap 3, new
        due = (t.TakeNacksDue(1.2, 0.5) == std::vector<uint32_t>{3});
        NS_TEST_EXPECT_MSG_EQ(due, true, "1 was asked 0.2 s ago: only the new gap");
        due = (t.TakeNacksDue(1.5, 0.5) == std::vector<uint32_t>{1});
        NS_TEST_EXPECT_MSG_EQ(due, true, "0.5 s on: 1 again, 3 not yet");
        auto got = Name(t.Receive(1));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("gap filled"), "");
        due = (t.TakeNacksDue(2.0, 0.5) == std::vector<uint32_t>{3});
        NS_TEST_EXPECT_MSG_EQ(due, true, "");

        // The sender has sent 0 to 7: 5, 6 and 7 are lost at the tail.
        auto opened = t.ExpectBelow(8);
        NS_TEST_EXPECT_MSG_EQ(opened, 3, "three gaps opened");
        opened = t.ExpectBelow(8);
        NS_TEST_EXPECT_MSG_EQ(opened, 0, "known already");
        opened = t.ExpectBelow(4);
        NS_TEST_EXPECT_MSG_EQ(opened, 0, "below the highest received");
        NS_TEST_EXPECT_MSG_EQ((t.GetGaps() == std::vector<uint32_t>{3, 5, 6, 7}), true, "");
        got = Name(t.Receive(7));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("gap filled"), "a resend");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A corrupt, far-off sequence number opens at most 65536 gaps.
 */
class SequenceJumpTestCase : public WanTestCase
{
  public:
    SequenceJumpTestCase()
        : WanTestCase("a far-off number opens at most 65536 gaps")
    {
    }

  private:
    void DoCheck() override
    {
        WanSequenceTracker t;
        t.Receive(0);
        auto got = Name(t.Receive(4000000000u));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("first"), "taken");
        NS_TEST_EXPECT_MSG_EQ(t.GetGaps().size(), 65536, "65536 gaps");
        NS_TEST_EXPECT_MSG_EQ(t.GetGaps().front(), 4000000000u - 65536, "the nearest ones");
        got = Name(t.Receive(5));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("duplicate"), "written off");
        got = Name(t.Receive(4000000000u - 1));
        NS_TEST_EXPECT_MSG_EQ(got, std::string("gap filled"), "a near gap fills");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-sequence-tracker test suite.
 */
class WanSequenceTrackerTestSuite : public TestSuite
{
  public:
    WanSequenceTrackerTestSuite()
        : TestSuite("wan-training-sequence-tracker", Type::UNIT)
    {
        AddTestCase(new SequenceDuplicateTestCase);
        AddTestCase(new SequenceReorderTestCase);
        AddTestCase(new SequenceNackCapTestCase);
        AddTestCase(new SequenceNackIntervalTestCase);
        AddTestCase(new SequenceJumpTestCase);
    }
};

/// The suite's instance.
static WanSequenceTrackerTestSuite g_wanSequenceTrackerTestSuite;
