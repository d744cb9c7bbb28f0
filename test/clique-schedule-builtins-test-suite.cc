/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule-builtins.h"
#include "ns3/mixing-analysis.h"
#include "ns3/round-planner.h"
#include "ns3/schedule-evaluator.h"
#include "ns3/test.h"
#include "ns3/wan-topology.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <set>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// "NYC-LAX" style names of the pairs of a schedule, in round order.
std::vector<std::string>
PairNames(const WanTopology& topo, const CliqueSchedule& s)
{
    std::vector<std::string> names;
    for (const auto& round : s.GetRounds())
    {
        for (const auto& c : round)
        {
            if (c.size() == 2)
            {
                names.push_back(topo.GetCity(c[0]).code + "-" + topo.GetCity(c[1]).code);
            }
        }
    }
    return names;
}

/// Codes of a clique, e.g. "NYC,LAX,BUE".
std::string
Codes(const WanTopology& topo, const CliqueSchedule::Clique& c)
{
    std::string s;
    for (auto v : c)
    {
        s += (s.empty() ? "" : ",") + topo.GetCity(v).code;
    }
    return s;
}

/**
 * @param topo a topology
 * @param regionOf the region of each city
 * @return a copy of the topology (cities, links) with the cities in those
 *         regions, built city by city with AddCity and AddLink
 */
WanTopology
WithRegions(const WanTopology& topo, const std::vector<uint32_t>& regionOf)
{
    WanTopology copy;
    for (uint32_t i = 0; i < topo.GetNCities(); ++i)
    {
        WanCity city = topo.GetCity(i);
        city.region = "R" + std::to_string(regionOf[i]);
        copy.AddCity(city);
    }
    for (const auto& l : topo.GetLinks())
    {
        copy.AddLink(topo.GetCity(l.a).code, topo.GetCity(l.b).code, l.delay, l.capacityBps);
    }
    copy.Validate();
    return copy;
}

/**
 * @param n number of cities
 * @param nRegions number of regions, 1 to n
 * @param rng random numbers
 * @return a region for each city: uneven region sizes (cut points drawn at
 *         random), regions given to the cities in a random order
 */
std::vector<uint32_t>
UnevenRegions(uint32_t n, uint32_t nRegions, std::mt19937& rng)
{
    std::vector<uint32_t> cuts(n - 1);
    std::iota(cuts.begin(), cuts.end(), 1);
    for (uint32_t k = 0; k + 1 < n; ++k) // Fisher-Yates with raw draws (same on every platform)
    {
        std::swap(cuts[k], cuts[k + rng() % (n - 1 - k)]);
    }
    cuts.resize(nRegions - 1);
    std::sort(cuts.begin(), cuts.end());
    cuts.push_back(n);
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    for (uint32_t k = 0; k + 1 < n; ++k)
    {
        std::swap(order[k], order[k + rng() % (n - k)]);
    }
    std::vector<uint32_t> regionOf(n);
    uint32_t region = 0;
    for (uint32_t k = 0; k < n; ++k)
    {
        while (k >= cuts[region])
        {
            ++region;
        }
        regionOf[order[k]] = region;
    }
    return regionOf;
}

/**
 * @brief The 6 + 5 + 5 line: sixteen islands on one path, regions A (A0-A5,
 * 1 ms apart), B (B0-B4: 1, 1, 1, 2 ms) and C (C0-C4, as B), joined by
 * A5-B0 (10 ms) and B4-C0 (12 ms).  Path latency is the distance along the
 * line: A0..A5 at 0..5 ms, B0..B4 at 15, 16, 17, 18, 20 and C0..C4 at 32,
 * 33, 34, 35, 37.
 * @return the topology
 */
WanTopology
SixFiveFive()
{
    WanTopology topo;
    std::vector<std::string> codes;
    for (const auto& [region, size] :
         std::vector<std::pair<std::string, int>>{{"A", 6}, {"B", 5}, {"C", 5}})
    {
        for (int k = 0; k < size; ++k)
        {
            codes.push_back(region + std::to_string(k));
            topo.AddCity({codes.back(), codes.back(), region, 0, 0, 20e9, 20e9});
        }
    }
    const std::vector<double> delaysMs{1, 1, 1, 1, 1, 10, 1, 1, 1, 2, 12, 1, 1, 1, 2};
    for (size_t k = 0; k < delaysMs.size(); ++k)
    {
        topo.AddLink(codes[k], codes[k + 1], delaysMs[k] * 1e-3, 100e9);
    }
    topo.Validate();
    return topo;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The one list of built-in names, and the construction by name.
 */
class BuiltinNamesTestCase : public WanTestCase
{
  public:
    BuiltinNamesTestCase()
        : WanTestCase("one list of built-in names; construction by name")
    {
    }

  private:
    void DoCheck() override
    {
        const std::vector<std::string> paper{"pairs", "regional", "triangles", "all-to-all"};
        NS_TEST_EXPECT_MSG_EQ((CliqueScheduleBuiltins::Names() == paper), true, "paper's order");
        NS_TEST_EXPECT_MSG_EQ((CliqueScheduleBuiltins::Names() == paper), true, "same list");
        NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::JoinedNames(),
                              "pairs, regional, triangles, all-to-all",
                              "joined");
        NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::JoinedNames(","),
                              "pairs,regional,triangles,all-to-all",
                              "joined by commas");
        NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::IsBuiltin("regional"), true, "known");
        NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::IsBuiltin("rings"), false, "unknown");
        auto line = LineTopology({"A", "B", "C"}, {10, 20});
        for (const auto& name : paper)
        {
            auto s = CliqueScheduleBuiltins::Make(name, line);
            NS_TEST_EXPECT_MSG_EQ(s.GetName(), name, "named");
            NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { s.Validate(line); }), "", name << " is valid");
        }
        std::string unknown = ErrorOf([&] { CliqueScheduleBuiltins::Make("rings", line); });
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(unknown,
                     "unknown schedule 'rings' (built-in: pairs, regional, triangles, all-to-all)"),
            true,
            unknown);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The built-in schedules on the nine-city topology, round by round.
 */
class NineCityBuiltinsTestCase : public WanTestCase
{
  public:
    NineCityBuiltinsTestCase()
        : WanTestCase("built-in schedules on the nine-city topology")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        // The doc's table, singletons included.
        const std::map<std::string, std::string> rounds{
            {"pairs",
             "{NYC,LAX} {BUE} {LON,AMS} {FRA} {TYO,SEO} {SIN} | {NYC,BUE} {LAX,TYO} {LON} "
             "{AMS,FRA} {SEO} {SIN} | {NYC,LON} {LAX} {BUE} {AMS} {FRA} {TYO,SIN} {SEO}"},
            {"regional",
             "{NYC,LAX,BUE} {LON,AMS,FRA} {TYO,SEO,SIN} | {NYC,LON} {LAX,TYO} {BUE} {AMS} "
             "{FRA,SIN} {SEO}"},
            {"triangles",
             "{NYC,LAX,BUE} {LON,AMS,FRA} {TYO,SEO,SIN} | {NYC,AMS,SIN} {LAX,LON,SEO} "
             "{BUE,FRA,TYO}"},
            {"all-to-all", "{NYC,LAX,BUE,LON,AMS,FRA,TYO,SEO,SIN}"}};
        for (const auto& [name, text] : rounds)
        {
            NS_TEST_EXPECT_MSG_EQ(CliqueScheduleBuiltins::Make(name, topo).ToString(topo),
                                  text,
                                  name);
        }

        // Pairs: the 8 edges of the minimum spanning tree by latency, each once,
        // in 3 matchings (NYC and TYO have three tree edges each).
        auto pairs = CliqueScheduleBuiltins::Pairs(topo);
        NS_TEST_EXPECT_MSG_EQ(pairs.GetNRounds(), 3, "three matchings");
        auto names = PairNames(topo, pairs);
        std::set<std::string> got(names.begin(), names.end());
        std::set<std::string> mst{"NYC-LAX",
                                  "NYC-BUE",
                                  "NYC-LON",
                                  "LAX-TYO",
                                  "LON-AMS",
                                  "AMS-FRA",
                                  "TYO-SEO",
                                  "TYO-SIN"};
        NS_TEST_EXPECT_MSG_EQ(names.size(), 8, "eight pairs in the period");
        NS_TEST_EXPECT_MSG_EQ((got == mst), true, "the MST edges, each once");

        // Regional: the three regions, then one gateway pair per pair of regions.
        auto regional = CliqueScheduleBuiltins::Regional(topo);
        NS_TEST_ASSERT_MSG_EQ(regional.GetNRounds(), 2, "two rounds");
        const auto& r1 = regional.GetRound(0);
        NS_TEST_ASSERT_MSG_EQ(r1.size(), 3, "three regional cliques");
        NS_TEST_EXPECT_MSG_EQ(Codes(topo, r1[0]), "NYC,LAX,BUE", "americas");
        NS_TEST_EXPECT_MSG_EQ(Codes(topo, r1[1]), "LON,AMS,FRA", "europe");
        NS_TEST_EXPECT_MSG_EQ(Codes(topo, r1[2]), "TYO,SEO,SIN", "asia");

        // Triangles: regional triangles, then triangles of three regions,
        // minimising the largest alignment span.
        auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        NS_TEST_ASSERT_MSG_EQ(triangles.GetNRounds(), 2, "two rounds");
        NS_TEST_EXPECT_MSG_EQ((triangles.GetRound(0) == r1), true, "round 1 is regional");
        double worst = 0;
        for (const auto& c : triangles.GetRound(1))
        {
            worst = std::max(worst, CliqueSchedule::AlignmentSpan(topo, c));
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(worst, 0.14407, 1e-9, "largest span {BUE,FRA,TYO}");

        auto all = CliqueScheduleBuiltins::AllToAll(topo);
        NS_TEST_EXPECT_MSG_EQ(all.GetNRounds(), 1, "one round");
        NS_TEST_EXPECT_MSG_EQ(all.GetRound(7)[0].size(), 9, "rounds repeat with the period");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Regions of 6, 5 and 5 islands: every region is split, and the
 * gateway round joins the parts of each region as well as the regions.
 */
class UnevenRegionsTestCase : public WanTestCase
{
  public:
    UnevenRegionsTestCase()
        : WanTestCase("regions of 6, 5 and 5: regional joins every part, by hand")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = SixFiveFive();
        // Round 1: on a line a triangle's span is its length plus the
        // difference of its two gaps, so A splits into {A0,A1,A2} and
        // {A3,A4,A5} (2 ms each); B into {B0,B1,B2} (2 ms) and {B3,B4} (2 ms),
        // the only split with no span above 2 ms; C likewise.
        // Round 2, gateway pairs cheapest first, one for every two groups:
        // A2-A3, B2-B3, C2-C3 (1 ms), A5-B0 (10), B4-C0 (12); of the islands
        // left (A0, A1, A4, B1, C1, C4): A1-B1 (15), A4-C1 (29), A0-C4 (37).
        auto regional = CliqueScheduleBuiltins::Regional(topo);
        NS_TEST_EXPECT_MSG_EQ(regional.ToString(topo),
                              "{A0,A1,A2} {A3,A4,A5} {B0,B1,B2} {B3,B4} {C0,C1,C2} {C3,C4} | "
                              "{A0,C4} {A1,B1} {A2,A3} {A4,C1} {A5,B0} {B2,B3} {B4,C0} {C2,C3}",
                              "regional on 6 + 5 + 5");
        const uint32_t n = topo.GetNCities();
        for (const auto& name : CliqueScheduleBuiltins::Names())
        {
            auto s = CliqueScheduleBuiltins::Make(name, topo);
            NS_TEST_EXPECT_MSG_EQ(ScheduleEvaluator::Components(s.GetRounds(), n),
                                  1,
                                  name << " connects every island: " << s.ToString(topo));
        }
        // Triangles: every clique after round 1 joins islands of different
        // groups, three of them while three groups are left.
        auto triangles = CliqueScheduleBuiltins::Triangles(topo);
        NS_TEST_EXPECT_MSG_EQ((triangles.GetRound(0) == regional.GetRound(0)),
                              true,
                              "round 1 is regional");
        auto groups = CliqueSchedule::Groups({triangles.GetRound(0)}, n);
        for (const auto& c : triangles.GetRound(1))
        {
            std::set<uint32_t> distinct;
            for (auto v : c)
            {
                distinct.insert(groups[v]);
            }
            NS_TEST_EXPECT_MSG_EQ(distinct.size(), c.size(), Codes(topo, c) << " joins groups");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A single region, and regions of one island each.
 */
class ExtremeRegionsTestCase : public WanTestCase
{
  public:
    ExtremeRegionsTestCase()
        : WanTestCase("one region of N and N regions of one: every built-in mixes")
    {
    }

  private:
    void DoCheck() override
    {
        for (uint32_t n : {2, 3, 4, 7, 10, 17})
        {
            auto base = WanTopology::RandomGeometric(n, 1, 5 + n);
            std::vector<uint32_t> one(n, 0);
            std::vector<uint32_t> each(n);
            std::iota(each.begin(), each.end(), 0);
            for (const auto& regionOf : {one, each})
            {
                auto topo = WithRegions(base, regionOf);
                for (const auto& name : CliqueScheduleBuiltins::Names())
                {
                    auto s = CliqueScheduleBuiltins::Make(name, topo);
                    NS_TEST_EXPECT_MSG_EQ(ScheduleEvaluator::Components(s.GetRounds(), n),
                                          1,
                                          name << ", " << n << " islands in "
                                               << topo.GetRegions().size()
                                               << " regions: " << s.ToString(topo));
                }
            }
        }
        // Nine islands in nine regions: triangles partitions them into
        // triangles, then joins the triangles with one more round of
        // triangles (three groups, one triangle of all three).
        auto nine = WithRegions(WanTopology::NineCity(), {0, 1, 2, 3, 4, 5, 6, 7, 8});
        auto triangles = CliqueScheduleBuiltins::Triangles(nine);
        NS_TEST_EXPECT_MSG_EQ(triangles.GetNRounds(), 3, "singletons, triangles, triangles");
        NS_TEST_EXPECT_MSG_EQ(triangles.GetRound(0).size(), 9, "nine singletons");
        NS_TEST_EXPECT_MSG_EQ(triangles.GetRound(1).size(), 3, "three triangles");
        NS_TEST_EXPECT_MSG_EQ(triangles.GetRound(2).size(), 3, "three triangles");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Property: on random geometric topologies with uneven regions,
 * every built-in connects every island (finite A), and pairs, regional and
 * triangles are feasible without FPGA memory.
 */
class RandomRegionsTestCase : public WanTestCase
{
  public:
    RandomRegionsTestCase()
        : WanTestCase("random topologies, uneven regions: every built-in mixes and is feasible")
    {
    }

  private:
    void DoCheck() override
    {
        std::mt19937 rng(2024);
        uint32_t cases = 0;
        for (uint32_t n = 2; n <= 24; ++n)
        {
            for (uint32_t seed = 1; seed <= (n <= 12 ? 8 : 4); ++seed)
            {
                const uint32_t nRegions = 1 + rng() % n;
                auto topo = WithRegions(WanTopology::RandomGeometric(n, 1 + rng() % n, seed),
                                        UnevenRegions(n, nRegions, rng));
                Check(topo);
                ++cases;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(cases, 11 * 8 + 12 * 4, "cases");
    }

    /// Checks every built-in schedule on one topology.
    void Check(const WanTopology& topo)
    {
        const uint32_t n = topo.GetNCities();
        RoundPlanner planner(topo, PlannerConfig{});
        for (const auto& name : CliqueScheduleBuiltins::Names())
        {
            auto s = CliqueScheduleBuiltins::Make(name, topo);
            const std::string what = name + " on " + std::to_string(n) + " islands in " +
                                     std::to_string(topo.GetRegions().size()) +
                                     " regions: " + s.ToString(topo);
            NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { s.Validate(topo); }), "", what);
            const bool connected = ScheduleEvaluator::Components(s.GetRounds(), n) == 1;
            NS_TEST_EXPECT_MSG_EQ(connected, true, what << " connects every island");
            if (connected) // a disconnected schedule would run the analysis to its limit
            {
                double a = MixingAnalysis::FromSchedule(s, n).GetAverageDisagreement();
                NS_TEST_EXPECT_MSG_EQ(std::isfinite(a), true, what << ": finite A");
            }
            if (name != "all-to-all")
            {
                NS_TEST_EXPECT_MSG_EQ(planner.Plan(s).feasible, true, what << " is feasible");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-schedule-builtins test suite.
 */
class CliqueScheduleBuiltinsTestSuite : public TestSuite
{
  public:
    CliqueScheduleBuiltinsTestSuite()
        : TestSuite("wan-training-schedule-builtins", Type::UNIT)
    {
        AddTestCase(new BuiltinNamesTestCase);
        AddTestCase(new NineCityBuiltinsTestCase);
        AddTestCase(new UnevenRegionsTestCase);
        AddTestCase(new ExtremeRegionsTestCase);
        AddTestCase(new RandomRegionsTestCase);
    }
};

/// The suite's instance.
static CliqueScheduleBuiltinsTestSuite g_cliqueScheduleBuiltinsTestSuite;
