/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/schedule-space.h"
#include "ns3/test.h"

#include <algorithm>
#include <random>
#include <set>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// Random numbers from a seeded Mersenne twister, raw draws only (the same
/// on every platform).
class TestRandom : public ScheduleSpace::Random
{
  public:
    /// @param seed the seed
    explicit TestRandom(uint32_t seed)
        : m_rng(seed)
    {
    }

    uint32_t UniformInt(uint32_t n) override
    {
        return m_rng() % n;
    }

    double Uniform() override
    {
        return m_rng() / 4294967296.0;
    }

    void Shuffle(std::vector<uint32_t>& values) override
    {
        for (size_t k = values.size(); k > 1; --k)
        {
            std::swap(values[k - 1], values[UniformInt(k)]);
        }
    }

  private:
    std::mt19937 m_rng; //!< the generator
};

/// @return true when every round partitions islands 0..n-1
bool
Partitions(const ScheduleSpace::Rounds& rounds, uint32_t n)
{
    for (const auto& round : rounds)
    {
        std::vector<uint32_t> count(n, 0);
        for (const auto& c : round)
        {
            for (auto v : c)
            {
                if (v >= n || ++count[v] > 1)
                {
                    return false;
                }
            }
        }
        if (std::count(count.begin(), count.end(), 1u) != n)
        {
            return false;
        }
    }
    return true;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The size of the space: partitions with a clique bound, and Lyndon
 * words over them.
 */
class SpaceCountTestCase : public WanTestCase
{
  public:
    SpaceCountTestCase()
        : WanTestCase("partitions and distinct periodic schedules are counted exactly")
    {
    }

  private:
    void DoCheck() override
    {
        // Bell numbers without a bound.
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountPartitions(3, 3), 5, "Bell(3)");
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountPartitions(4, 4), 15, "Bell(4)");
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountPartitions(6, 6), 203, "Bell(6)");
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountPartitions(9, 9), 21147, "Bell(9)");
        // Four islands in pairs and singletons: 1 + 6 + 3.
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountPartitions(4, 2), 10, "1 + 6 + 3");
        // Nine islands in pairs and singletons: the involutions of 9 (OEIS A000085).
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountPartitions(9, 2), 2620, "A000085(9)");
        // Nine islands in cliques of at most 3 (OEIS A001680).
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountPartitions(9, 3), 12644, "A001680(9)");
        // Lyndon words over 2 letters of length 1..3: a, b, ab, aab, abb.
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountSchedules(2, 3), 5, "5 words");
        // 15 rounds, periods 1 and 2: 15 + (225 - 15) / 2.
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountSchedules(15, 2), 120, "120 schedules");
        // Period 4 over 3 letters: (81 - 9) / 4 = 18 words of length 4.
        NS_TEST_EXPECT_MSG_EQ(ScheduleSpace::CountSchedules(3, 4) -
                                  ScheduleSpace::CountSchedules(3, 3),
                              18,
                              "aperiodic necklaces of length 4");
        ScheduleSpace space(4, 2, 2);
        NS_TEST_EXPECT_MSG_EQ(space.GetPartitions(), 10, "partitions of the space");
        NS_TEST_EXPECT_MSG_EQ(space.GetSize(), 10 + (100 - 10) / 2, "55 schedules");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Canonical forms: rotations and repetitions of a period are one
 * schedule; the enumeration visits each distinct schedule once.
 */
class SpaceCanonicalTestCase : public WanTestCase
{
  public:
    SpaceCanonicalTestCase()
        : WanTestCase("canonical forms and the enumeration of distinct schedules")
    {
    }

  private:
    void DoCheck() override
    {
        ScheduleSpace space(3, 3, 3);
        CliqueSchedule::Round ab{{0, 1}, {2}};
        CliqueSchedule::Round bc{{0}, {1, 2}};
        CliqueSchedule::Round ac{{0, 2}, {1}};
        const auto key = space.Key({ab, bc, ac});
        NS_TEST_EXPECT_MSG_EQ(space.Key({bc, ac, ab}), key, "a rotation is the same schedule");
        NS_TEST_EXPECT_MSG_EQ(space.Key({ac, ab, bc}), key, "another rotation");
        NS_TEST_EXPECT_MSG_NE(space.Key({ab, ac, bc}), key, "the reverse order is not");
        NS_TEST_EXPECT_MSG_EQ(space.Key({ab, ab}), space.Key({ab}), "a repeated period");
        NS_TEST_EXPECT_MSG_EQ(space.Key({bc, ab, bc, ab}), space.Key({ab, bc}), "repeated pair");
        // Restricted growth strings: ab = 001, ac = 010, bc = 011; the least
        // rotation starts with ab.
        auto form = space.Canonical({bc, ac, ab});
        NS_TEST_ASSERT_MSG_EQ(form.size(), 3, "period 3");
        NS_TEST_EXPECT_MSG_EQ((form[0] == ScheduleEvaluator::RoundKey{0, 0, 1}), true, "ab first");
        NS_TEST_EXPECT_MSG_EQ((ScheduleSpace::RoundsOf(form)[1] == bc), true, "then bc");

        // Three islands, period up to 2: 5 + (25 - 5) / 2 = 15 schedules, each once.
        ScheduleSpace small(3, 3, 2);
        std::set<std::string> seen;
        uint32_t visits = 0;
        small.ForEachSchedule([&](const ScheduleSpace::Rounds& rounds) {
            ++visits;
            seen.insert(small.Key(rounds));
            NS_TEST_EXPECT_MSG_EQ(Partitions(rounds, 3), true, "partitions");
        });
        NS_TEST_EXPECT_MSG_EQ(visits, 15, "15 visits");
        NS_TEST_EXPECT_MSG_EQ(seen.size(), 15, "15 distinct schedules");
        // Cliques of at most 2 on four islands, period 1: the 10 partitions.
        uint32_t pairsOnly = 0;
        ScheduleSpace(4, 2, 1).ForEachSchedule([&](const ScheduleSpace::Rounds& rounds) {
            ++pairsOnly;
            for (const auto& c : rounds[0])
            {
                NS_TEST_EXPECT_MSG_LT_OR_EQ(c.size(), 2, "clique bound");
            }
        });
        NS_TEST_EXPECT_MSG_EQ(pairsOnly, 10, "10 partitions");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Random schedules and moves stay in the space: valid partitions,
 * cliques and periods within the bounds, and every move changes the schedule.
 */
class SpaceMovesTestCase : public WanTestCase
{
  public:
    SpaceMovesTestCase()
        : WanTestCase("random schedules and local moves stay within the bounds")
    {
    }

  private:
    void DoCheck() override
    {
        const uint32_t n = 7;
        const uint32_t maxClique = 3;
        const uint32_t maxPeriod = 3;
        ScheduleSpace space(n, maxClique, maxPeriod);
        TestRandom random(9);
        std::set<size_t> periods;
        std::set<std::string> seen;
        for (int walk = 0; walk < 20; ++walk)
        {
            auto rounds = space.RandomSchedule(random);
            for (int step = 0; step < 200; ++step)
            {
                NS_TEST_ASSERT_MSG_EQ(Partitions(rounds, n), true, "partitions");
                NS_TEST_ASSERT_MSG_GT_OR_EQ(rounds.size(), 1, "a round at least");
                NS_TEST_ASSERT_MSG_LT_OR_EQ(rounds.size(), maxPeriod, "period bound");
                for (const auto& r : rounds)
                {
                    for (const auto& c : r)
                    {
                        NS_TEST_ASSERT_MSG_LT_OR_EQ(c.size(), maxClique, "clique bound");
                    }
                }
                periods.insert(rounds.size());
                seen.insert(space.Key(rounds));
                space.Mutate(random, rounds);
            }
        }
        NS_TEST_EXPECT_MSG_EQ(periods.size(), maxPeriod, "every period visited");
        // 4000 steps in a space of about 10^8 schedules: the walks move
        // (20 schedules if no move applied; 2986 with this seed).
        NS_TEST_EXPECT_MSG_GT(seen.size(), 2000, "the walks move");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief SeededRandom: GSL's mt19937 by its seed, so a seed gives the same
 * random schedules.
 */
class SpaceSeededRandomTestCase : public WanTestCase
{
  public:
    SpaceSeededRandomTestCase()
        : WanTestCase("seeded random numbers: the same schedules from the same seed")
    {
    }

  private:
    /// @return the keys of 50 random schedules from a seed
    static std::vector<std::string> Keys(const ScheduleSpace& space, uint64_t seed)
    {
        ScheduleSpace::SeededRandom random(seed);
        std::vector<std::string> keys;
        for (int k = 0; k < 50; ++k)
        {
            keys.push_back(space.Key(space.RandomSchedule(random)));
        }
        return keys;
    }

    void DoCheck() override
    {
        const ScheduleSpace space(9, 3, 4);
        const auto keys = Keys(space, 1);
        NS_TEST_EXPECT_MSG_EQ((Keys(space, 1) == keys), true, "the same seed");
        NS_TEST_EXPECT_MSG_EQ((Keys(space, 2) == keys), false, "another seed");
        NS_TEST_EXPECT_MSG_GT(std::set<std::string>(keys.begin(), keys.end()).size(),
                              45,
                              "distinct schedules");
        ScheduleSpace::SeededRandom random(3);
        std::vector<uint32_t> values{0, 1, 2, 3, 4, 5, 6, 7};
        random.Shuffle(values);
        NS_TEST_EXPECT_MSG_EQ(std::set<uint32_t>(values.begin(), values.end()).size(),
                              8,
                              "a shuffle keeps every value");
        const double u = random.Uniform();
        NS_TEST_EXPECT_MSG_EQ((u >= 0 && u < 1), true, "uniform in [0, 1)");
        NS_TEST_EXPECT_MSG_LT(random.UniformInt(5), 5, "below n");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-schedule-space test suite.
 */
class ScheduleSpaceTestSuite : public TestSuite
{
  public:
    ScheduleSpaceTestSuite()
        : TestSuite("wan-training-schedule-space", Type::UNIT)
    {
        AddTestCase(new SpaceCountTestCase);
        AddTestCase(new SpaceCanonicalTestCase);
        AddTestCase(new SpaceMovesTestCase);
        AddTestCase(new SpaceSeededRandomTestCase);
    }
};

/// The suite's instance.
static ScheduleSpaceTestSuite g_scheduleSpaceTestSuite;
