/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-source-set.h"

#include <vector>

using namespace ns3;

namespace
{

/**
 * @param s a set
 * @return its positions, ascending, as ForEach gives them
 */
std::vector<uint32_t>
PositionsOf(const WanSourceSet& s)
{
    std::vector<uint32_t> out;
    s.ForEach([&out](uint32_t p) { out.push_back(p); });
    return out;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Positions on both sides of the 32 and 64 boundaries are held, told
 * apart and counted; ForEach, the span and the words agree.
 */
class SourceSetBitsTestCase : public WanTestCase
{
  public:
    SourceSetBitsTestCase()
        : WanTestCase("set and test positions across the 32 and 64 boundaries")
    {
    }

  private:
    void DoCheck() override
    {
        WanSourceSet empty;
        NS_TEST_EXPECT_MSG_EQ(empty.IsEmpty(), true, "a new set is empty");
        NS_TEST_EXPECT_MSG_EQ(empty.Count(), 0, "");
        NS_TEST_EXPECT_MSG_EQ(empty.GetSpan(), 0, "");
        NS_TEST_EXPECT_MSG_EQ(empty.GetWordCount(), 0, "");

        const auto s = WanSourceSet::FromPositions({69, 0, 33, 63, 31, 32, 64});
        for (uint32_t p = 0; p < 200; ++p)
        {
            const bool held =
                p == 0 || p == 31 || p == 32 || p == 33 || p == 63 || p == 64 || p == 69;
            NS_TEST_EXPECT_MSG_EQ(s.Test(p), held, "position " << p);
        }
        NS_TEST_EXPECT_MSG_EQ(s.Count(), 7, "seven positions");
        NS_TEST_EXPECT_MSG_EQ(s.GetSpan(), 70, "up to 69");
        NS_TEST_EXPECT_MSG_EQ(s.GetWordCount(), 2, "two words");
        // Word 0: bits 0, 31, 32, 33, 63; word 1: bits 0 (64) and 5 (69).
        NS_TEST_EXPECT_MSG_EQ(s.GetWord(0), 0x8000000380000001ULL, "word 0");
        NS_TEST_EXPECT_MSG_EQ(s.GetWord(1), 0x21ULL, "word 1");
        NS_TEST_EXPECT_MSG_EQ(s.GetWord(7), 0, "beyond the set");
        NS_TEST_EXPECT_MSG_EQ((PositionsOf(s) == std::vector<uint32_t>{0, 31, 32, 33, 63, 64, 69}),
                              true,
                              "ForEach ascending");

        NS_TEST_EXPECT_MSG_EQ(WanSourceSet::FromPositions({3, 3}).Count(), 1, "a repeat once");
        const auto one = WanSourceSet::Of(63);
        NS_TEST_EXPECT_MSG_EQ(one.Count(), 1, "Of holds one");
        NS_TEST_EXPECT_MSG_EQ(one.GetSpan(), 64, "up to 63");
        NS_TEST_EXPECT_MSG_EQ(one.GetWordCount(), 1, "one word");
        const auto far = WanSourceSet::Of(1000);
        NS_TEST_EXPECT_MSG_EQ(far.GetSpan(), 1001, "up to 1000");
        NS_TEST_EXPECT_MSG_EQ(far.GetWordCount(), 16, "1000 / 64 = 15, so 16 words");
        NS_TEST_EXPECT_MSG_EQ(far.GetWord(15), uint64_t{1} << 40, "1000 = 15 x 64 + 40");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Union, intersection and equality, also between sets of different
 * widths, and equality whatever the order a set was built in.
 */
class SourceSetAlgebraTestCase : public WanTestCase
{
  public:
    SourceSetAlgebraTestCase()
        : WanTestCase("union, intersection test and equality across widths")
    {
    }

  private:
    void DoCheck() override
    {
        const auto low = WanSourceSet::FromPositions({0, 33});
        const auto high = WanSourceSet::FromPositions({63, 69});
        NS_TEST_EXPECT_MSG_EQ(low.Intersects(high), false, "disjoint");
        NS_TEST_EXPECT_MSG_EQ(high.Intersects(low), false, "disjoint, either way");
        auto both = low;
        both |= high;
        NS_TEST_EXPECT_MSG_EQ((both == WanSourceSet::FromPositions({69, 63, 33, 0})),
                              true,
                              "the union, built backwards");
        NS_TEST_EXPECT_MSG_EQ(both.Count(), 4, "four");
        NS_TEST_EXPECT_MSG_EQ(both.Intersects(WanSourceSet::Of(69)), true, "shares 69");
        NS_TEST_EXPECT_MSG_EQ(both.Intersects(WanSourceSet::Of(33)), true, "shares 33");
        NS_TEST_EXPECT_MSG_EQ(
            both.Intersects(WanSourceSet::FromPositions({1, 32, 64, 68, 70, 500})),
            false,
            "none");
        NS_TEST_EXPECT_MSG_EQ(WanSourceSet::Of(500).Intersects(both), false, "wider, none");
        NS_TEST_EXPECT_MSG_EQ((both != low), true, "differs from a part");
        NS_TEST_EXPECT_MSG_EQ((low != WanSourceSet::FromPositions({0, 32})), true, "33 is not 32");
        NS_TEST_EXPECT_MSG_EQ((WanSourceSet::Of(64) != WanSourceSet::Of(0)), true, "64 is not 0");

        // A narrow set into a wide one and back keeps the wide part.
        auto wide = WanSourceSet::Of(200);
        wide |= low;
        NS_TEST_EXPECT_MSG_EQ((wide == WanSourceSet::FromPositions({0, 33, 200})),
                              true,
                              "narrow into wide");
        auto narrow = low;
        narrow |= WanSourceSet::Of(200);
        NS_TEST_EXPECT_MSG_EQ((narrow == wide), true, "wide into narrow");

        // Emptying a high word leaves the set equal to one that never had it.
        auto trimmed = WanSourceSet::FromPositions({5, 130});
        trimmed.SetWord(2, 0);
        NS_TEST_EXPECT_MSG_EQ((trimmed == WanSourceSet::Of(5)), true, "canonical after SetWord");
        NS_TEST_EXPECT_MSG_EQ(trimmed.GetWordCount(), 1, "one word left");
        NS_TEST_EXPECT_MSG_EQ(trimmed.GetSpan(), 6, "up to 5");
        trimmed.SetWord(3, 0x3);
        NS_TEST_EXPECT_MSG_EQ((trimmed == WanSourceSet::FromPositions({5, 192, 193})),
                              true,
                              "a word set whole");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Conversion to and from the chunk header's bitmap (one element per
 * position).
 */
class SourceSetBitmapTestCase : public WanTestCase
{
  public:
    SourceSetBitmapTestCase()
        : WanTestCase("to and from a bitmap of one element per position")
    {
    }

  private:
    void DoCheck() override
    {
        std::vector<bool> bits(70, false);
        for (uint32_t p : {0, 33, 63, 69})
        {
            bits[p] = true;
        }
        const auto s = WanSourceSet::FromBits(bits);
        NS_TEST_EXPECT_MSG_EQ((s == WanSourceSet::FromPositions({0, 33, 63, 69})),
                              true,
                              "from the bitmap");
        NS_TEST_EXPECT_MSG_EQ((s.ToBits(70) == bits), true, "back, 70 elements");
        NS_TEST_EXPECT_MSG_EQ(s.ToBits(0).size(), 70, "at least its span");
        NS_TEST_EXPECT_MSG_EQ(s.ToBits(100).size(), 100, "as wide as asked");
        NS_TEST_EXPECT_MSG_EQ(s.ToBits(100)[69], true, "69 held");
        NS_TEST_EXPECT_MSG_EQ(s.ToBits(100)[70], false, "70 not");
        NS_TEST_EXPECT_MSG_EQ(WanSourceSet::FromBits(std::vector<bool>(40, false)).IsEmpty(),
                              true,
                              "a bitmap naming nobody");
        NS_TEST_EXPECT_MSG_EQ(WanSourceSet().ToBits(3).size(), 3, "an empty set, 3 wide");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The set of clique positions: bits, algebra, bitmaps.
 */
class WanSourceSetTestSuite : public TestSuite
{
  public:
    WanSourceSetTestSuite()
        : TestSuite("wan-training-source-set", Type::UNIT)
    {
        AddTestCase(new SourceSetBitsTestCase);
        AddTestCase(new SourceSetAlgebraTestCase);
        AddTestCase(new SourceSetBitmapTestCase);
    }
};

/// The suite's instance.
static WanSourceSetTestSuite g_wanSourceSetTestSuite;
