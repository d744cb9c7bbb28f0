/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-topology.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

using namespace ns3;
using namespace ns3::wantest;

/**
 * \ingroup wan-training-tests
 * \brief The embedded nine-city topology: size, regions and hand-summed paths.
 */
class NineCityTopologyTestCase : public TestCase
{
  public:
    NineCityTopologyTestCase()
        : TestCase("nine-city topology: cities, links and shortest paths")
    {
    }

  private:
    void DoRun() override
    {
        auto topo = WanTopology::NineCity();
        NS_TEST_ASSERT_MSG_EQ(topo.GetNCities(), 9, "nine cities");
        NS_TEST_ASSERT_MSG_EQ(topo.GetLinks().size(), 11, "eleven core links");
        auto regions = topo.GetRegions();
        NS_TEST_ASSERT_MSG_EQ(regions.size(), 3, "three regions");
        NS_TEST_EXPECT_MSG_EQ(regions[0], "americas", "regions in order of appearance");
        const auto nyc = topo.FindCity("NYC");
        const auto tyo = topo.FindCity("TYO");
        const auto bue = topo.FindCity("BUE");
        const auto sin = topo.FindCity("SIN");
        // No direct NYC-TYO link: NYC-LAX-TYO = 34.86 + 49.36 ms.
        NS_TEST_EXPECT_MSG_EQ_TOL(topo.GetPathDelay(nyc, tyo), 0.08422, 1e-12, "NYC-TYO");
        auto path = topo.GetPath(nyc, tyo);
        NS_TEST_ASSERT_MSG_EQ(path.size(), 3, "NYC-LAX-TYO");
        NS_TEST_EXPECT_MSG_EQ(topo.GetCity(path[1]).code, "LAX", "via LAX");
        // BUE-NYC-LON-AMS-FRA-SIN = 53.88 + 33.47 + 2.88 + 2.23 + 64.83 ms, shorter
        // than any route through LAX and shorter than LON-FRA direct (5.55 ms).
        NS_TEST_EXPECT_MSG_EQ_TOL(topo.GetPathDelay(bue, sin), 0.15729, 1e-12, "BUE-SIN");
        NS_TEST_EXPECT_MSG_EQ(topo.GetPath(bue, sin).size(), 6, "BUE-SIN hops");
        NS_TEST_EXPECT_MSG_EQ_TOL(topo.GetPathDelay(sin, bue),
                                  topo.GetPathDelay(bue, sin),
                                  1e-15,
                                  "symmetric");
        NS_TEST_EXPECT_MSG_EQ(topo.GetCity(nyc).ingressBps, 20e9, "20 Gbps access");
        NS_TEST_EXPECT_MSG_EQ(topo.GetLinks()[0].capacityBps, 100e9, "100 Gbps core");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief A three-island line: paths and multicast trees by hand.
 */
class LineTopologyTestCase : public TestCase
{
  public:
    LineTopologyTestCase()
        : TestCase("three-island line: paths and source-specific trees")
    {
    }

  private:
    void DoRun() override
    {
        auto topo = LineTopology({"A", "B", "C"}, {10, 20});
        NS_TEST_EXPECT_MSG_EQ_TOL(topo.GetPathDelay(0, 2), 0.030, 1e-15, "A-C = 10 + 20 ms");
        auto tree = topo.GetMulticastTree(0, {1, 2});
        NS_TEST_ASSERT_MSG_EQ(tree.size(), 2, "A's tree has two hops");
        NS_TEST_EXPECT_MSG_EQ((tree[0] == WanHop{0, 1}), true, "A->B first");
        NS_TEST_EXPECT_MSG_EQ((tree[1] == WanHop{1, 2}), true, "then B->C");
        tree = topo.GetMulticastTree(1, {0, 1, 2});
        NS_TEST_ASSERT_MSG_EQ(tree.size(), 2, "B branches to both ends");
        NS_TEST_EXPECT_MSG_EQ((tree[0] == WanHop{1, 0}), true, "B->A (10 ms) first");
        NS_TEST_EXPECT_MSG_EQ((tree[1] == WanHop{1, 2}), true, "B->C");
        tree = topo.GetMulticastTree(2, {0});
        NS_TEST_EXPECT_MSG_EQ(tree.size(), 2, "C reaches A through B");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Equal-latency paths break towards the lower city index.
 */
class TieBreakTestCase : public TestCase
{
  public:
    TieBreakTestCase()
        : TestCase("equal-latency paths go through the lower index")
    {
    }

  private:
    void DoRun() override
    {
        WanTopology topo;
        for (const char* c : {"A", "B", "C", "D"})
        {
            topo.AddCity({c, c, "r", 0, 0, 20e9, 20e9});
        }
        topo.AddLink("A", "C", 0.001, 100e9);
        topo.AddLink("C", "D", 0.001, 100e9);
        topo.AddLink("A", "B", 0.001, 100e9);
        topo.AddLink("B", "D", 0.001, 100e9);
        auto path = topo.GetPath(0, 3);
        NS_TEST_ASSERT_MSG_EQ(path.size(), 3, "two hops");
        NS_TEST_EXPECT_MSG_EQ(path[1], 1, "through B, the lower index");
        path = topo.GetPath(3, 0);
        NS_TEST_EXPECT_MSG_EQ(path[1], 1, "back through B as well");
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Files: JSON and the CSV pair load, and JSON round-trips.
 */
class TopologyFileTestCase : public TestCase
{
  public:
    TopologyFileTestCase()
        : TestCase("topology files: JSON, CSV folder, round trip")
    {
    }

  private:
    void DoRun() override
    {
        namespace fs = std::filesystem;
        auto dir = fs::temp_directory_path() / "wan-training-topology-test";
        fs::create_directories(dir);
        {
            std::ofstream(dir / "cities.csv") << "code,name,region,lat,lon,ingress_gbps\n"
                                                 "X,Ex,r1,0,0,10\nY,Why,r2,1,1,\n";
            std::ofstream(dir / "core-links.csv")
                << "# comment line\na,b,one_way_ms,capacity_gbps\nX,Y,12.5,40\n";
        }
        auto csv = WanTopology::LoadFile(dir.string(), 5e9);
        NS_TEST_ASSERT_MSG_EQ(csv.GetNCities(), 2, "two cities");
        NS_TEST_EXPECT_MSG_EQ(csv.GetCity(0).ingressBps, 10e9, "column value");
        NS_TEST_EXPECT_MSG_EQ(csv.GetCity(0).egressBps, 5e9, "default access");
        NS_TEST_EXPECT_MSG_EQ_TOL(csv.GetPathDelay(0, 1), 0.0125, 1e-15, "12.5 ms");
        NS_TEST_EXPECT_MSG_EQ(csv.GetLinks()[0].capacityBps, 40e9, "40 Gbps");

        auto nine = WanTopology::NineCity();
        auto json = dir / "nine.json";
        std::ofstream(json) << nine.ToJson();
        auto back = WanTopology::LoadFile(json.string());
        NS_TEST_ASSERT_MSG_EQ(back.GetNCities(), 9, "round trip keeps the cities");
        for (uint32_t i = 0; i < 9; ++i)
        {
            for (uint32_t j = 0; j < 9; ++j)
            {
                NS_TEST_EXPECT_MSG_EQ_TOL(back.GetPathDelay(i, j),
                                          nine.GetPathDelay(i, j),
                                          1e-12,
                                          "round trip keeps the latencies");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(back.GetCity(8).region, "asia", "and the regions");
        fs::remove_all(dir);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief Malformed topologies get one-line errors that name the problem.
 */
class TopologyBadInputTestCase : public TestCase
{
  public:
    TopologyBadInputTestCase()
        : TestCase("malformed topologies: clear one-line errors")
    {
    }

  private:
    void Expect(const std::string& json, const std::string& part)
    {
        std::string error = ErrorOf([&json] { WanTopology::FromJson(json); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(error, part),
                              true,
                              "error '" << error << "' should mention '" << part << "'");
    }

    void DoRun() override
    {
        const std::string two = R"({"cities":[{"code":"A"},{"code":"B"}],"links":[)";
        Expect(two + R"({"a":"A","b":"Z","one_way_ms":1,"capacity_gbps":1}]})", "unknown city 'Z'");
        Expect(two + R"({"a":"A","b":"B","one_way_ms":-3,"capacity_gbps":1}]})",
               "negative or invalid latency");
        Expect(two + R"({"a":"A","b":"B","capacity_gbps":1}]})", "has no \"one_way_ms\"");
        Expect(two + R"({"a":"A","b":"B","one_way_ms":"x","capacity_gbps":1}]})",
               "\"one_way_ms\" is not a number");
        Expect(two + R"({"a":"A","b":"B","one_way_ms":1,"capacity_gbps":0}]})",
               "capacity of link A-B must be positive");
        Expect(two + R"({"a":"A","b":"A","one_way_ms":1,"capacity_gbps":1}]})", "to itself");
        Expect(two + R"({"a":"A","b":"B","one_way_ms":1,"capacity_gbps":1},)"
                     R"({"a":"B","b":"A","one_way_ms":2,"capacity_gbps":1}]})",
               "duplicate link B-A");
        Expect(R"({"cities":[{"code":"A"},{"code":"A"}],"links":[]})", "duplicate city 'A'");
        Expect(R"({"cities":[{"code":"A"},{"code":"B"},{"code":"C"}],"links":[)"
               R"({"a":"A","b":"B","one_way_ms":1,"capacity_gbps":1}]})",
               "topology is disconnected: no path from A to C");
        Expect(R"({"cities":[{"code":"A"}],"links":[]})", "at least two cities");
        Expect(R"({"cities":[{"code":"A","ingress_gbps":0},{"code":"B"}],"links":[]})",
               "ingress rate of A must be positive");
        Expect("{not json", "does not parse");
        Expect(R"({"links":[]})", "needs a \"cities\" array");

        std::string csv = ErrorOf([] {
            WanTopology::FromCsv("code\nA\nB\n", "a,b,one_way_ms,capacity_gbps\nA,B,,100\n");
        });
        NS_TEST_EXPECT_MSG_EQ(Mentions(csv, "core-links.csv line 2: missing one_way_ms"),
                              true,
                              "missing CSV latency: " << csv);
        csv = ErrorOf([] { WanTopology::FromCsv("code\nA\nB\n", "a,b,one_way_ms\nA,B,1\n"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(csv, "core-links.csv has no column 'capacity_gbps'"),
                              true,
                              "missing CSV column: " << csv);
        csv = ErrorOf([] {
            WanTopology::FromCsv("code\nA\nB\n", "a,b,one_way_ms,capacity_gbps\nA,B,1ms,100\n");
        });
        NS_TEST_EXPECT_MSG_EQ(Mentions(csv, "'1ms' is not a number"), true, csv);
        std::string file = ErrorOf([] { WanTopology::LoadFile("/nonexistent/topo.json"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(file, "cannot open topology file"), true, file);
        std::string overrides = ErrorOf([] { WanTopology::NineCity().SetAccessRate(0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(overrides, "access rate must be positive"), true, overrides);
    }
};

/**
 * \ingroup wan-training-tests
 * \brief The wan-training-topology test suite.
 */
class WanTopologyTestSuite : public TestSuite
{
  public:
    WanTopologyTestSuite()
        : TestSuite("wan-training-topology", Type::UNIT)
    {
        AddTestCase(new NineCityTopologyTestCase);
        AddTestCase(new LineTopologyTestCase);
        AddTestCase(new TieBreakTestCase);
        AddTestCase(new TopologyFileTestCase);
        AddTestCase(new TopologyBadInputTestCase);
    }
};

/// The suite's instance.
static WanTopologyTestSuite g_wanTopologyTestSuite;
