/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TRAINING_TEST_UTILS_H
#define WAN_TRAINING_TEST_UTILS_H

#include "ns3/buffer.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/clique-schedule.h"
#include "ns3/header.h"
#include "ns3/pcap-file.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wan-topology-generator.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training-tests
 * @brief A test case whose checks (DoCheck) may let an exception escape: it
 * fails the case with the exception's message instead of ending the test
 * runner, and destroys the simulator the checks left behind, so that the
 * suite's other cases still run and report.
 */
class WanTestCase : public TestCase
{
  protected:
    using TestCase::TestCase;

    /// @brief The case's checks (what TestCase::DoRun holds).
    virtual void DoCheck() = 0;

  private:
    void DoRun() final
    {
        try
        {
            DoCheck();
        }
        catch (const std::exception& e)
        {
            Simulator::Destroy();
            NS_TEST_EXPECT_MSG_EQ(std::string(e.what()), std::string(), "uncaught exception");
        }
    }
};

namespace wantest
{

/**
 * @ingroup wan-training-tests
 * @param h a header
 * @return the bytes it serializes to
 */
inline std::vector<uint8_t>
SerializedBytes(const Header& h)
{
    Buffer b;
    b.AddAtStart(h.GetSerializedSize());
    h.Serialize(b.Begin());
    std::vector<uint8_t> bytes(b.GetSize());
    b.CopyData(bytes.data(), bytes.size());
    return bytes;
}

/**
 * @ingroup wan-training-tests
 * @param bytes what a header is read from
 * @param h the header
 * @return the bytes its Deserialize read
 */
inline uint32_t
DeserializeBytes(const std::vector<uint8_t>& bytes, Header& h)
{
    Buffer b;
    b.AddAtStart(bytes.size());
    b.Begin().Write(bytes.data(), bytes.size());
    return h.Deserialize(b.Begin());
}

/**
 * @ingroup wan-training-tests
 * @param action code expected to throw
 * @return the exception's message, or "" when nothing was thrown
 */
template <typename Action>
std::string
ErrorOf(Action action)
{
    try
    {
        action();
    }
    catch (const std::exception& e)
    {
        return e.what();
    }
    return "";
}

/**
 * @ingroup wan-training-tests
 * @param message an error message
 * @param part expected part of it
 * @return true when the message contains the part and is one line
 */
inline bool
Mentions(const std::string& message, const std::string& part)
{
    return message.find(part) != std::string::npos && message.find('\n') == std::string::npos;
}

/**
 * @ingroup wan-training-tests
 * @param texts a list of texts
 * @param k an index
 * @return the k-th text, or "" when the list is shorter (a failed size check
 *         does not stop a test case)
 */
inline std::string
Nth(const std::vector<std::string>& texts, size_t k)
{
    return k < texts.size() ? texts[k] : std::string();
}

/**
 * @ingroup wan-training-tests
 * @param scales time-preserving scales
 * @return them for a test's name: " 1000, 100 and 10" for {1000, 100, 10}
 */
inline std::string
ScaleList(const std::vector<double>& scales)
{
    std::ostringstream list;
    for (size_t k = 0; k < scales.size(); ++k)
    {
        list << (k == 0 ? " " : k + 1 == scales.size() ? " and " : ", ") << scales[k];
    }
    return list.str();
}

/**
 * @ingroup wan-training-tests
 * @param kind the shape
 * @param cities its islands
 * @param seed the generator's seed
 * @return the generated WAN, with the generator's other defaults
 */
inline WanTopology
GeneratedWan(WanTopologyGenerator::Kind kind, uint32_t cities, uint32_t seed)
{
    WanTopologyGenerator::Settings s;
    s.kind = kind;
    s.cities = cities;
    s.seed = seed;
    return WanTopologyGenerator::Generate(s);
}

/**
 * @ingroup wan-training-tests
 * @brief A topology of islands named by the codes, each with 20 Gbps access,
 * joined in a line by 100 Gbps links of the given one-way latencies.
 * @param codes city codes, in line order
 * @param delaysMs latency of each link (one fewer than codes)
 * @return the topology
 */
inline WanTopology
LineTopology(const std::vector<std::string>& codes, const std::vector<double>& delaysMs)
{
    WanTopology topo;
    for (const auto& c : codes)
    {
        WanCity city;
        city.code = c;
        city.region = "r";
        city.ingressBps = 20e9;
        city.egressBps = 20e9;
        topo.AddCity(city);
    }
    for (size_t k = 0; k < delaysMs.size(); ++k)
    {
        topo.AddLink(codes[k], codes[k + 1], delaysMs[k] * 1e-3, 100e9);
    }
    topo.Validate();
    return topo;
}

/**
 * @ingroup wan-training-tests
 * @brief Islands A, B, C (20 Gbps access) joined by direct 100 Gbps links,
 * by default of 10 (A-B), 20 (A-C) and 25 ms (B-C).
 * @param ab latency of A-B, seconds
 * @param ac latency of A-C, seconds
 * @param bc latency of B-C, seconds
 * @return the topology
 */
inline WanTopology
TriangleTopology(double ab = 0.010, double ac = 0.020, double bc = 0.025)
{
    WanTopology topo;
    for (const char* c : {"A", "B", "C"})
    {
        topo.AddCity({c, c, "r", 0, 0, 20e9, 20e9});
    }
    topo.AddLink("A", "B", ab, 100e9);
    topo.AddLink("A", "C", ac, 100e9);
    topo.AddLink("B", "C", bc, 100e9);
    topo.Validate();
    return topo;
}

/**
 * @ingroup wan-training-tests
 * @brief Islands A, B, C (20 Gbps access) joined by direct links A-B and B-C
 * of 10 ms at `directBps`, and A-C by a 15 ms detour through X and Y over
 * three 5 ms links at 50 Gbps (shorter than A-B-C, so A and C use it).  In
 * the round {A,B,C} {X} {Y} every link direction carries one stream of the
 * clique, r_c is 20 Gbps (a chunk every 3.6 us), and at A and C the
 * detour's three 1.44 us hops arrive after the direct link's one frame
 * time: 3.6 us of packet skew at 100 Gbps (0.72 us), 4.14 us at 400 Gbps
 * (0.18 us).
 * @param directBps capacity of A-B and B-C
 * @return the topology
 */
inline WanTopology
DetourTopology(double directBps)
{
    WanTopology topo;
    for (const char* c : {"A", "B", "C", "X", "Y"})
    {
        topo.AddCity({c, c, "r", 0, 0, 20e9, 20e9});
    }
    topo.AddLink("A", "B", 0.010, directBps);
    topo.AddLink("B", "C", 0.010, directBps);
    topo.AddLink("A", "X", 0.005, 50e9);
    topo.AddLink("X", "Y", 0.005, 50e9);
    topo.AddLink("Y", "C", 0.005, 50e9);
    topo.Validate();
    return topo;
}

/**
 * @ingroup wan-training-tests
 * @param path a pcap file
 * @param linkType set to the file's data link type (0 when it cannot be read)
 * @return the original length of each of its records
 */
inline std::vector<uint32_t>
PcapRecordLengths(const std::string& path, uint32_t& linkType)
{
    PcapFile file;
    file.Open(path, std::ios::in);
    linkType = file.Fail() ? 0 : file.GetDataLinkType();
    std::vector<uint32_t> lengths;
    std::vector<uint8_t> data(65536);
    uint32_t sec;
    uint32_t usec;
    uint32_t included;
    uint32_t original;
    uint32_t read;
    while (!file.Fail())
    {
        file.Read(data.data(), data.size(), sec, usec, included, original, read);
        if (!file.Fail())
        {
            lengths.push_back(original);
        }
    }
    return lengths;
}

/**
 * @ingroup wan-training-tests
 * @param topo a topology
 * @return every clique of its triangles schedule, then all its cities in one
 *         clique (the cliques whose trees the PIM tests build)
 */
inline std::vector<std::vector<uint32_t>>
TrianglesAndAll(const WanTopology& topo)
{
    std::vector<std::vector<uint32_t>> cliques;
    const auto triangles = CliqueScheduleBuiltins::Triangles(topo);
    for (uint32_t k = 0; k < triangles.GetNRounds(); ++k)
    {
        for (const auto& clique : triangles.GetRound(k))
        {
            cliques.push_back(clique);
        }
    }
    std::vector<uint32_t> all;
    for (uint32_t c = 0; c < topo.GetNCities(); ++c)
    {
        all.push_back(c);
    }
    cliques.push_back(all);
    return cliques;
}

} // namespace wantest
} // namespace ns3

#endif /* WAN_TRAINING_TEST_UTILS_H */
