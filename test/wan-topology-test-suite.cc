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
 * @ingroup wan-training-tests
 * @brief The embedded nine-city topology: size, regions and hand-summed paths.
 */
class NineCityTopologyTestCase : public WanTestCase
{
  public:
    NineCityTopologyTestCase()
        : WanTestCase("nine-city topology: cities, links and shortest paths")
    {
    }

  private:
    void DoCheck() override
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
 * @ingroup wan-training-tests
 * @brief A three-island line: paths and multicast trees by hand.
 */
class LineTopologyTestCase : public WanTestCase
{
  public:
    LineTopologyTestCase()
        : WanTestCase("three-island line: paths and source-specific trees")
    {
    }

  private:
    void DoCheck() override
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
 * @ingroup wan-training-tests
 * @brief Equal-latency paths break towards the lower city index.
 */
class TieBreakTestCase : public WanTestCase
{
  public:
    TieBreakTestCase()
        : WanTestCase("equal-latency paths go through the lower index")
    {
    }

  private:
    void DoCheck() override
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
 * @ingroup wan-training-tests
 * @brief Files: JSON and the CSV pair load, and JSON round-trips.
 */
class TopologyFileTestCase : public WanTestCase
{
  public:
    TopologyFileTestCase()
        : WanTestCase("topology files: JSON, CSV folder, round trip")
    {
    }

  private:
    void DoCheck() override
    {
        namespace fs = std::filesystem;
        const fs::path dir = CreateTempDirFilename("topology");
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
 * @ingroup wan-training-tests
 * @brief Malformed topologies get one-line errors that name the problem.
 */
class TopologyBadInputTestCase : public WanTestCase
{
  public:
    TopologyBadInputTestCase()
        : WanTestCase("malformed topologies: clear one-line errors")
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

    void DoCheck() override
    {
        const std::string two = R"({"cities":[{"code":"A"},{"code":"B"}],"links":[)";
        Expect(two + R"({"a":"A","b":"Z","one_way_ms":1,"capacity_gbps":1}]})", "unknown city 'Z'");
        Expect(two + R"({"a":"A","b":"B","one_way_ms":-3,"capacity_gbps":1}]})",
               "link A-B: one_way_ms must be from 0 to 1000 ms (got -3 ms)");
        Expect(two + R"({"a":"A","b":"B","capacity_gbps":1}]})", "has no \"one_way_ms\"");
        Expect(two + R"({"a":"A","b":"B","one_way_ms":"x","capacity_gbps":1}]})",
               "\"one_way_ms\" is not a number");
        Expect(two + R"({"a":"A","b":"B","one_way_ms":1,"capacity_gbps":0}]})",
               "link A-B: capacity_gbps must be from 0.001 to 100000 Gbps (got 0 Gbps)");
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
               "city A: ingress_gbps must be from 0.001 to 100000 Gbps (got 0 Gbps)");
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
 * @ingroup wan-training-tests
 * @brief Every number of a topology has a range (wantext::bounds): a value
 * outside it is refused with the field, the value and the range, whether it
 * comes from JSON, CSV or the API; the ends of each range are accepted.
 */
class TopologyBoundsTestCase : public WanTestCase
{
  public:
    TopologyBoundsTestCase()
        : WanTestCase("topology numbers outside their ranges are refused, ends accepted")
    {
    }

  private:
    /// Expects an error that contains `part`.
    template <typename Action>
    void Expect(Action action, const std::string& part)
    {
        std::string error = ErrorOf(action);
        NS_TEST_EXPECT_MSG_EQ(Mentions(error, part),
                              true,
                              "error '" << error << "' should mention '" << part << "'");
    }

    /// @return two cities joined by one link with these extra fields
    static std::string Json(const std::string& cityA, const std::string& link)
    {
        return R"({"cities":[{"code":"A")" + cityA +
               R"(},{"code":"B"}],)"
               R"("links":[{"a":"A","b":"B")" +
               link + "}]}";
    }

    void JsonBounds()
    {
        const std::string plain = R"(,"one_way_ms":1,"capacity_gbps":1)";
        auto json = [](const std::string& cityA, const std::string& link) {
            return [cityA, link] { WanTopology::FromJson(Json(cityA, link)); };
        };
        // The topology of the issue: 1e308 ms and 1e-300 Gbps.
        Expect(json("", R"(,"one_way_ms":1e308,"capacity_gbps":1e-300)"),
               "link A-B: one_way_ms must be from 0 to 1000 ms (got 1e+308 ms)");
        Expect(json("", R"(,"one_way_ms":1,"capacity_gbps":1e-300)"),
               "link A-B: capacity_gbps must be from 0.001 to 100000 Gbps (got 1e-300 Gbps)");
        Expect(json("", R"(,"one_way_ms":1000.5,"capacity_gbps":1)"),
               "one_way_ms must be from 0 to 1000 ms (got 1000.5 ms)");
        Expect(json("", R"(,"one_way_ms":1,"capacity_gbps":100001)"),
               "capacity_gbps must be from 0.001 to 100000 Gbps (got 100001 Gbps)");
        Expect(json(R"(,"egress_gbps":200000)", plain),
               "city A: egress_gbps must be from 0.001 to 100000 Gbps (got 200000 Gbps)");
        Expect(json(R"(,"lat":90.5)", plain),
               "city A: lat must be from -90 to 90 degrees (got 90.5 degrees)");
        Expect(json(R"(,"lon":-181)", plain),
               "city A: lon must be from -180 to 180 degrees (got -181 degrees)");
        Expect(json("", plain + R"(,"loss_rate":1)"),
               "link A-B: loss_rate must be from 0 to less than 1 (got 1)");
        Expect(json("", plain + R"(,"loss_burst":1001)"),
               "link A-B: loss_burst must be from 1 to 1000 packets (got 1001 packets)");
        Expect(json("", plain + R"(,"jitter_ms":1001)"),
               "link A-B: jitter_ms must be from 0 to 1000 ms (got 1001 ms)");
        Expect(json(R"(,"access":{"loss_rate":-0.1})", plain),
               "city A access: loss_rate must be from 0 to less than 1 (got -0.1)");
        Expect([] { WanTopology::FromJson(R"({"access_gbps":0,"cities":[],"links":[]})"); },
               "topology: access_gbps must be from 0.001 to 100000 Gbps (got 0 Gbps)");
        // The ends of the ranges are in them.
        auto ends = WanTopology::FromJson(
            Json(R"(,"lat":-90,"lon":180,"ingress_gbps":0.001,"egress_gbps":100000)",
                 R"(,"one_way_ms":1000,"capacity_gbps":100000,"loss_rate":0.999,)"
                 R"("loss_burst":1000,"jitter_ms":1000)"));
        NS_TEST_EXPECT_MSG_EQ_TOL(ends.GetPathDelay(0, 1), 1.0, 1e-15, "1000 ms accepted");
        NS_TEST_EXPECT_MSG_EQ(ends.GetCity(0).ingressBps, 1e6, "1 Mbps accepted");
        NS_TEST_EXPECT_MSG_EQ(ends.GetLinks()[0].capacityBps, 100e12, "100 Tbps accepted");
        NS_TEST_EXPECT_MSG_EQ(ends.GetLinks()[0].impairment.lossRate, 0.999, "loss below 1");
        auto zero = WanTopology::FromJson(Json("", R"(,"one_way_ms":0,"capacity_gbps":0.001)"));
        NS_TEST_EXPECT_MSG_EQ(zero.GetPathDelay(0, 1), 0.0, "0 ms accepted");
    }

    void CsvAndApiBounds()
    {
        Expect(
            [] {
                WanTopology::FromCsv("code\nA\nB\n",
                                     "a,b,one_way_ms,capacity_gbps\nA,B,1e308,1e-300\n");
            },
            "core-links.csv line 2: one_way_ms must be from 0 to 1000 ms (got 1e+308 ms)");
        Expect(
            [] {
                WanTopology::FromCsv("code\nA\nB\n",
                                     "a,b,one_way_ms,capacity_gbps\nA,B,1,1e-300\n");
            },
            "core-links.csv line 2: capacity_gbps must be from 0.001 to 100000 Gbps (got 1e-300");
        Expect(
            [] {
                WanTopology::FromCsv("code,lat,ingress_gbps\nA,0,1\nB,100,1\n",
                                     "a,b,one_way_ms,capacity_gbps\nA,B,1,1\n");
            },
            "cities.csv line 3: lat must be from -90 to 90 degrees (got 100 degrees)");
        Expect(
            [] {
                WanTopology::FromCsv("code,ingress_gbps\nA,0\nB,1\n",
                                     "a,b,one_way_ms,capacity_gbps\nA,B,1,1\n");
            },
            "cities.csv line 2: ingress_gbps must be from 0.001 to 100000 Gbps (got 0 Gbps)");
        Expect([] { LineTopology({"A", "B"}, {1000.5}); },
               "latency of link A-B must be from 0 to 1000 ms (got 1000.5 ms)");
        Expect([] { WanTopology::NineCity().SetAccessRate(1e15); },
               "access rate must be from 0.001 to 100000 Gbps (got 1e+06 Gbps)");
        Expect([] { WanTopology::NineCity().SetCoreCapacity(999e3); },
               "core capacity must be from 0.001 to 100000 Gbps (got 0.000999 Gbps)");
        Expect([] { WanTopology::FromCsv("code\nA\n", "a,b,one_way_ms,capacity_gbps\n", 0); },
               "default access rate must be from 0.001 to 100000 Gbps (got 0 Gbps)");
        Expect([] { WanTopology::RandomGeometric(1001, 4, 1); },
               "number of cities must be from 2 to 1000 cities (got 1001 cities)");
        WanTopology topo;
        WanCity city{"A", "A", "r", 0, 0, 20e9, 20e9};
        city.longitude = 200;
        Expect([&] { topo.AddCity(city); },
               "longitude of A must be from -180 to 180 degrees (got 200 degrees)");
    }

    void DoCheck() override
    {
        JsonBounds();
        CsvAndApiBounds();
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A UTF-8 byte-order mark (what spreadsheet exports write) at the
 * start of cities.csv, core-links.csv or a JSON topology is ignored.
 */
class TopologyByteOrderMarkTestCase : public WanTestCase
{
  public:
    TopologyByteOrderMarkTestCase()
        : WanTestCase("a byte-order mark at the start of a topology file is accepted")
    {
    }

  private:
    void DoCheck() override
    {
        const std::string bom = "\xEF\xBB\xBF";
        namespace fs = std::filesystem;
        const fs::path dir = CreateTempDirFilename("topology-bom");
        fs::create_directories(dir);
        std::ofstream(dir / "cities.csv") << bom + "code,name,region\nX,Ex,r1\nY,Why,r2\n";
        std::ofstream(dir / "core-links.csv")
            << bom + "a,b,one_way_ms,capacity_gbps\nX,Y,12.5,40\n";
        WanTopology csv;
        std::string error = ErrorOf([&] { csv = WanTopology::LoadFile(dir.string()); });
        fs::remove_all(dir);
        NS_TEST_EXPECT_MSG_EQ(error, "", "a CSV pair with byte-order marks loads");
        if (error.empty())
        {
            NS_TEST_EXPECT_MSG_EQ(csv.GetCity(0).code, "X", "the first column is 'code'");
            NS_TEST_EXPECT_MSG_EQ_TOL(csv.GetPathDelay(0, 1), 0.0125, 1e-15, "12.5 ms");
            NS_TEST_EXPECT_MSG_EQ(csv.GetLinks()[0].capacityBps, 40e9, "40 Gbps");
        }

        WanTopology json;
        error = ErrorOf([&] {
            json = WanTopology::FromJson(bom + R"({"cities":[{"code":"A"},{"code":"B"}],)"
                                               R"("links":[{"a":"A","b":"B","one_way_ms":7,)"
                                               R"("capacity_gbps":10}]})");
        });
        NS_TEST_EXPECT_MSG_EQ(error, "", "a JSON topology with a byte-order mark loads");
        if (error.empty())
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(json.GetPathDelay(0, 1), 0.007, 1e-15, "7 ms");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-topology test suite.
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
        AddTestCase(new TopologyBoundsTestCase);
        AddTestCase(new TopologyByteOrderMarkTestCase);
    }
};

/// The suite's instance.
static WanTopologyTestSuite g_wanTopologyTestSuite;
