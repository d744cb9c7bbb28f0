/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/round-planner.h"
#include "ns3/test.h"

#include <algorithm>
#include <map>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// Scale of the runs: 1 MB of state, 112 chunks of 8936 bytes per stream.
const double kScale = 1000;
/// Chunks per stream at that scale.
const uint64_t kChunks = (1000000 + 8935) / 8936;

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The planner's contention, checked against the simulated network:
 * every core link direction carries exactly the planner's stream count n_e
 * times the chunks of a stream, and no other direction carries anything;
 * each island sends one copy per stream (multicast) or one per peer, and
 * receives one stream (aggregation) or one per peer.
 *
 * The packet counts come from the devices (PhyTxBegin), not from the
 * applications that the plan paces, so a planner that miscounts contention
 * (a multicast stream once per receiver path instead of once per tree link,
 * or unicast copies on another path than the network's) fails here.
 */
class PlannerLinkLoadTestCase : public WanTestCase
{
  public:
    /**
     * @param name what is run
     * @param topo the topology
     * @param config the switches
     */
    PlannerLinkLoadTestCase(const std::string& name,
                            const WanTopology& topo,
                            const PlannerConfig& config)
        : WanTestCase("core link loads as the planner counts them: " + name),
          m_topo(topo),
          m_config(config)
    {
    }

  private:
    void DoCheck() override
    {
        uint32_t checked = 0;
        for (const auto& name : CliqueScheduleBuiltins::Names())
        {
            const auto schedule = CliqueScheduleBuiltins::Make(name, m_topo);
            for (uint32_t k = 0; k < schedule.GetNRounds(); ++k)
            {
                const auto round = schedule.GetRound(k);
                const auto plan = RoundPlanner(m_topo, m_config).PlanRound(round);
                if (!plan.feasible)
                {
                    continue;
                }
                CheckRound(name + " round " + std::to_string(k), round, plan);
                ++checked;
            }
        }
        NS_TEST_EXPECT_MSG_GT(checked, 3, "rounds checked");
    }

    /// Runs one round alone and compares the network's counts with the plan.
    void CheckRound(const std::string& what,
                    const CliqueSchedule::Round& round,
                    const RoundPlan& plan)
    {
        CliqueExperimentHelper experiment(m_topo, m_config);
        experiment.SetScale(kScale);
        experiment.SetRecovery("accept"); // the data alone: no parity, no reports
        // No BFD or PIM packets beside the streams: the links carry what the
        // planner counts and nothing else.
        experiment.SetFaultDetection("oracle");
        experiment.SetTreeBuilding("planner");
        const auto result = experiment.Run(CliqueSchedule(what, {round}));
        NS_TEST_ASSERT_MSG_EQ(result.rounds.size(), 1, what);
        const auto& r = result.rounds[0];
        NS_TEST_EXPECT_MSG_EQ(result.exact, true, what << ": exact sums");
        std::map<WanHop, uint64_t> expected;
        for (const auto& load : plan.links)
        {
            expected[{load.from, load.to}] = load.streams * kChunks;
        }
        for (const auto& link : m_topo.GetLinks())
        {
            for (const auto& hop : {WanHop{link.a, link.b}, WanHop{link.b, link.a}})
            {
                const auto want = expected.count(hop) ? expected.at(hop) : 0;
                const auto got = r.corePackets.count(hop) ? r.corePackets.at(hop) : 0;
                NS_TEST_EXPECT_MSG_EQ(got,
                                      want,
                                      what << ": packets on " << m_topo.GetCity(hop.first).code
                                           << "->" << m_topo.GetCity(hop.second).code);
            }
        }
        // Access links: a stream per copy sent, a stream per sum received.
        // Every stream out carries the same bytes (the state and its chunk
        // headers); every stream in one packet per chunk, unless a chunk
        // reached the island in partial sums (each such packet is one).
        double streamBytes = 0;
        for (const auto& island : r.islands)
        {
            uint32_t peers = 0;
            for (const auto& clique : round)
            {
                if (std::find(clique.begin(), clique.end(), island.city) != clique.end())
                {
                    peers = static_cast<uint32_t>(clique.size() - 1);
                }
            }
            const uint64_t out = m_config.multicast ? 1 : peers;
            const uint64_t in = m_config.aggregation ? 1 : peers;
            const double perStream = static_cast<double>(island.bytesOut) / out;
            streamBytes = streamBytes > 0 ? streamBytes : perStream;
            NS_TEST_EXPECT_MSG_EQ(perStream,
                                  streamBytes,
                                  what << ": copies out of " << island.city);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(island.packetsIn,
                                        in * kChunks,
                                        what << ": streams into " << island.city);
            NS_TEST_EXPECT_MSG_LT_OR_EQ(island.packetsIn,
                                        in * kChunks + island.partialSums,
                                        what << ": streams into " << island.city);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(streamBytes / m_config.payloadBytes,
                                  1.005,
                                  0.005,
                                  what << ": a stream is the state and its chunk headers");
    }

    WanTopology m_topo;     //!< topology
    PlannerConfig m_config; //!< switches
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-experiment-links test suite.
 */
class CliqueExperimentLinksTestSuite : public TestSuite
{
  public:
    CliqueExperimentLinksTestSuite()
        : TestSuite("wan-training-experiment-links", Type::UNIT)
    {
        const auto nine = WanTopology::NineCity();
        PlannerConfig config;
        config.hbmBytes = 32e9;
        AddTestCase(new PlannerLinkLoadTestCase("nine cities, multicast + FPGA", nine, config));
        PlannerConfig unicast = config;
        unicast.multicast = false;
        AddTestCase(new PlannerLinkLoadTestCase("nine cities, no multicast", nine, unicast));
        PlannerConfig noFpga = config;
        noFpga.aggregation = false;
        AddTestCase(new PlannerLinkLoadTestCase("nine cities, no FPGA", nine, noFpga));
        for (uint32_t seed : {4, 5})
        {
            AddTestCase(
                new PlannerLinkLoadTestCase("12 random cities, seed " + std::to_string(seed),
                                            WanTopology::RandomGeometric(12, 3, seed),
                                            config));
        }
    }
};

/// The suite's instance.
static CliqueExperimentLinksTestSuite g_cliqueExperimentLinksTestSuite;
