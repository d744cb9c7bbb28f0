/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-topology-generator.h"

#include <set>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// @return the number of links at each city
std::vector<uint32_t>
Degrees(const WanTopology& topo)
{
    std::vector<uint32_t> degree(topo.GetNCities(), 0);
    for (const auto& l : topo.GetLinks())
    {
        ++degree[l.a];
        ++degree[l.b];
    }
    return degree;
}

/// @return the most core hops on a shortest path between two cities
size_t
Diameter(const WanTopology& topo)
{
    size_t hops = 0;
    for (uint32_t a = 0; a < topo.GetNCities(); ++a)
    {
        for (uint32_t b = 0; b < topo.GetNCities(); ++b)
        {
            hops = std::max(hops, topo.GetPath(a, b).size() - 1);
        }
    }
    return hops;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Each shape has its links, counted by hand, and the generator's
 * latencies, capacities, access rates and regions.
 */
class GeneratorShapesTestCase : public WanTestCase
{
  public:
    GeneratorShapesTestCase()
        : WanTestCase("shapes: links counted by hand, latencies from lengths, regions")
    {
    }

  private:
    void DoCheck() override
    {
        using G = WanTopologyGenerator;
        // A chain of 20: 19 links, 19 hops end to end.
        auto chain = GeneratedWan(G::CHAIN, 20, 3);
        NS_TEST_EXPECT_MSG_EQ(chain.GetNCities(), 20, "cities");
        NS_TEST_EXPECT_MSG_EQ(chain.GetLinks().size(), 19, "a line");
        NS_TEST_EXPECT_MSG_EQ(Diameter(chain), 19, "the longest path");
        // A 4 x 4 grid: 2 x 4 x 3 = 24 links, corner to corner in 6 hops.
        auto grid = GeneratedWan(G::GRID, 16, 3);
        NS_TEST_EXPECT_MSG_EQ(grid.GetLinks().size(), 24, "a 4 x 4 grid");
        NS_TEST_EXPECT_MSG_EQ(Diameter(grid), 6, "corner to corner");
        // 18 cities in 5 columns (rows of 5, 5, 5, 3): 4 + 4 + 4 + 2 across,
        // 13 down.
        NS_TEST_EXPECT_MSG_EQ(GeneratedWan(G::GRID, 18, 3).GetLinks().size(), 14 + 13, "ragged");
        // A ring of 40: 40 links and 5 chords; every city on at least two.
        auto ring = GeneratedWan(G::RING, 40, 3);
        NS_TEST_EXPECT_MSG_EQ(ring.GetLinks().size(), 45, "ring and chords");
        for (auto d : Degrees(ring))
        {
            NS_TEST_EXPECT_MSG_GT_OR_EQ(d, 2, "on the ring");
        }
        NS_TEST_EXPECT_MSG_LT_OR_EQ(Diameter(ring), 20, "half the ring at most");
        // A random geometric graph is connected (its spanning tree) and denser.
        auto geo = GeneratedWan(G::GEOMETRIC, 50, 3);
        NS_TEST_EXPECT_MSG_GT_OR_EQ(geo.GetLinks().size(), 49, "spanning tree at least");
        for (uint32_t b = 1; b < geo.GetNCities(); ++b)
        {
            NS_TEST_EXPECT_MSG_GT(geo.GetPath(0, b).size(), 1, "connected");
        }
        for (const auto* topo : {&chain, &grid, &ring, &geo})
        {
            std::set<std::string> regions;
            for (const auto& l : topo->GetLinks())
            {
                NS_TEST_EXPECT_MSG_GT_OR_EQ(l.delay, 0.5e-3, "at least 0.5 ms");
                NS_TEST_EXPECT_MSG_LT(l.delay, 0.1, "a continent at most");
                NS_TEST_EXPECT_MSG_EQ(
                    (l.capacityBps == 100e9 || l.capacityBps == 200e9 || l.capacityBps == 400e9),
                    true,
                    "a capacity of the list");
            }
            for (uint32_t c = 0; c < topo->GetNCities(); ++c)
            {
                NS_TEST_EXPECT_MSG_EQ(topo->GetCity(c).ingressBps, 20e9, "access");
                regions.insert(topo->GetCity(c).region);
            }
            // About six cities a region: round(n / 6).
            const auto n = topo->GetNCities();
            NS_TEST_EXPECT_MSG_EQ(regions.size(), (n + 3) / 6, "regions of " << n);
        }
        NS_TEST_EXPECT_MSG_EQ(chain.GetCity(0).code, "G01", "names");
        NS_TEST_EXPECT_MSG_EQ(GeneratedWan(G::CHAIN, 120, 1).GetCity(119).code,
                              "G120",
                              "three digits");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Uneven capacities come from the list given; a chain's latencies
 * follow its 200 to 600 km spacing.
 */
class GeneratorCapacitiesTestCase : public WanTestCase
{
  public:
    GeneratorCapacitiesTestCase()
        : WanTestCase("capacities drawn from the list; chain spacing 200 to 600 km")
    {
    }

  private:
    void DoCheck() override
    {
        WanTopologyGenerator::Settings s;
        s.kind = WanTopologyGenerator::CHAIN;
        s.cities = 64;
        s.capacitiesBps = {50e9, 400e9};
        s.accessBps = 40e9;
        auto topo = WanTopologyGenerator::Generate(s);
        std::map<double, uint32_t> drawn;
        for (const auto& l : topo.GetLinks())
        {
            ++drawn[l.capacityBps];
            // 200 to 600 km across, up to 200 km off the line; x 1.4 / 200 000 km/s.
            NS_TEST_EXPECT_MSG_GT_OR_EQ(l.delay, 200 * 1.4 / 200000, "200 km at least");
            NS_TEST_EXPECT_MSG_LT_OR_EQ(l.delay, 633 * 1.4 / 200000, "hypot(600, 200) at most");
        }
        NS_TEST_EXPECT_MSG_EQ(drawn.size(), 2, "both capacities drawn");
        NS_TEST_EXPECT_MSG_GT(drawn[50e9], 10, "about half each");
        NS_TEST_EXPECT_MSG_GT(drawn[400e9], 10, "about half each");
        NS_TEST_EXPECT_MSG_EQ(topo.GetCity(63).egressBps, 40e9, "access rate");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The same settings give the same WAN; another seed another; bad
 * settings are refused with one line naming them.
 */
class GeneratorSeedTestCase : public WanTestCase
{
  public:
    GeneratorSeedTestCase()
        : WanTestCase("same seed, same WAN; bad settings refused")
    {
    }

  private:
    void DoCheck() override
    {
        using G = WanTopologyGenerator;
        for (auto kind : G::Kinds())
        {
            NS_TEST_EXPECT_MSG_EQ(GeneratedWan(kind, 24, 7).ToJson(),
                                  GeneratedWan(kind, 24, 7).ToJson(),
                                  G::KindName(kind) << ": reproducible");
            NS_TEST_EXPECT_MSG_NE(GeneratedWan(kind, 24, 7).ToJson(),
                                  GeneratedWan(kind, 24, 8).ToJson(),
                                  G::KindName(kind) << ": the seed matters");
            NS_TEST_EXPECT_MSG_EQ(G::KindFromName(G::KindName(kind)), kind, "names");
        }
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([] { G::KindFromName("star"); }),
                              "unknown kind of generated WAN 'star' (ring, grid, geometric or "
                              "chain)",
                              "kind");
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([] { GeneratedWan(G::RING, 3, 1); }),
                              "a generated WAN needs 4 to 1000 cities (got 3)",
                              "too few");
        G::Settings s;
        s.capacitiesBps.clear();
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { G::Generate(s); }),
                              "a generated WAN needs at least one link capacity",
                              "no capacity");
        s.capacitiesBps = {0};
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&] { G::Generate(s); }).find("link capacity"),
                              0,
                              "zero capacity");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Suite of WanTopologyGenerator.
 */
class WanTopologyGeneratorTestSuite : public TestSuite
{
  public:
    WanTopologyGeneratorTestSuite()
        : TestSuite("wan-training-topology-generator", Type::UNIT)
    {
        AddTestCase(new GeneratorShapesTestCase);
        AddTestCase(new GeneratorCapacitiesTestCase);
        AddTestCase(new GeneratorSeedTestCase);
    }
};

/// The suite's one instance.
static WanTopologyGeneratorTestSuite g_wanTopologyGeneratorTestSuite;
