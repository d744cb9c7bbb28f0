/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/config.h"
#include "ns3/double.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-best-recovery.h"
#include "ns3/wan-loss-estimator.h"
#include "ns3/wan-parity-sizer.h"

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @param schedule a built-in schedule
 * @param hbmBytes each FPGA's HBM
 * @param loss loss rate on every core link
 * @param scale the run's scale
 * @param rounds rounds run
 * @param recovery the recovery ("": the default, best)
 * @return a run on the nine cities
 */
WanExperimentResult
RunNine(const std::string& schedule,
        double hbmBytes,
        double loss,
        double scale = 1000,
        uint32_t rounds = 2,
        const std::string& recovery = "")
{
    const auto topo = WanTopology::NineCity();
    PlannerConfig config;
    config.hbmBytes = hbmBytes;
    CliqueExperimentHelper experiment(topo, config);
    if (!recovery.empty())
    {
        experiment.SetRecovery(recovery);
    }
    experiment.SetScale(scale);
    experiment.SetRounds(rounds);
    if (loss > 0)
    {
        WanLinkImpairment impairment;
        impairment.lossRate = loss;
        experiment.SetImpairment(WanNetworkHelper::CORE, impairment);
    }
    return experiment.Run(CliqueScheduleBuiltins::Make(schedule, topo));
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief What the default recovery runs: the MDS code sized in band with its
 * prior, decoded at the FPGA with memory and at the island without, the
 * FPGAs or the islands reporting; without FPGAs, no parity.
 */
class BestRecoveryChoiceTestCase : public WanTestCase
{
  public:
    BestRecoveryChoiceTestCase()
        : WanTestCase("best recovery: sized in band, decoded at the FPGA or the island, none "
                      "without FPGAs")
    {
    }

  private:
    void DoCheck() override
    {
        PlannerConfig config;
        config.hbmBytes = 32e9;
        const WanBestRecovery best(config);
        NS_TEST_EXPECT_MSG_EQ(best.IsCoded(), true, "FPGA memory");
        NS_TEST_EXPECT_MSG_EQ(best.GetParity().GetBlock(), 112, "");
        NS_TEST_EXPECT_MSG_EQ(best.GetParity().GetParities(), 40, "at most");
        NS_TEST_EXPECT_MSG_EQ(best.GetParity().DecodesAtFpga(), true, "");
        WanIslandHelper islands;
        best.GetParity().ConfigureIslands(islands, best.IsCoded());
        auto island = islands.Create();
        BooleanValue b;
        DoubleValue d;
        island->GetAttribute("ParitySizing", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "sized in band");
        island->GetAttribute("ParityEpsilon", d);
        NS_TEST_EXPECT_MSG_EQ(d.Get(), 0.01, "");
        island->GetAttribute("ParityPrior", d);
        NS_TEST_EXPECT_MSG_EQ(d.Get(), 0.05, "");
        FpgaAggregatorHelper fpgas;
        fpgas.SetScale(1000);
        best.GetParity().ConfigureFpgas(fpgas, best.IsCoded());
        auto fpga = fpgas.Create();
        UintegerValue u;
        fpga->GetAttribute("DecodeBytes", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 16000000, "half of 32 GB, scaled by 1000");
        fpga->GetAttribute("ReportLoss", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "");
        // The prior's rows: the least r with P(X > r) <= 0.01 for X binomial
        // (112 + r, 0.05): P(X > 11) = 0.0206 at r = 11, P(X > 12) = 0.0094 at
        // r = 12 (summed apart from GSL).
        NS_TEST_EXPECT_MSG_EQ(WanParitySizer::Parities(112, 0.05, 0.01, 40), 12, "12 rows");

        island->GetAttribute("ReportLoss", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), false, "the FPGAs report");

        PlannerConfig bare;
        bare.hbmBytes = 0;
        const WanBestRecovery sums(bare);
        NS_TEST_EXPECT_MSG_EQ(sums.IsCoded(), true, "FPGAs without memory");
        NS_TEST_EXPECT_MSG_EQ(sums.GetParity().DecodesAtFpga(), false, "at the island");
        NS_TEST_EXPECT_MSG_EQ(sums.GetParity().GetParities(), 40, "");
        WanIslandHelper summing;
        sums.GetParity().ConfigureIslands(summing, sums.IsCoded());
        auto reporter = summing.Create();
        reporter->GetAttribute("ReportLoss", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "the islands report their sums' erasures");
        reporter->GetAttribute("ParitySizing", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "");
        PlannerConfig unicast;
        unicast.hbmBytes = 32e9;
        unicast.aggregation = false;
        NS_TEST_EXPECT_MSG_EQ(WanBestRecovery(unicast).IsCoded(), false, "no FPGAs");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The default recovery in a run: all-to-all on the nine cities with
 * 32 GB.  At scale 1000 a stream is one block of 112 chunks, whose rows
 * follow all its data: lossless, the first round sends all 40 rows (a
 * stream of one block sends every row before any report) and the second the rows sized from
 * what the FPGAs reported; at scale 100 (10 blocks) the first round sends
 * the prior's 12.  With 1% loss on the core the parity rebuilds what was
 * lost and every sum is exact.  Without memory (triangles, 0 GB) the
 * islands decode and report: with 1% loss on the core, every island
 * receives its peers' reports and the parity rebuilds sums.
 */
class BestRecoveryRunTestCase : public WanTestCase
{
  public:
    BestRecoveryRunTestCase()
        : WanTestCase("best recovery: the default run sends the prior's rows, then sized ones")
    {
    }

  private:
    void DoCheck() override
    {
        // Round 1's rows: each receiver reported round 0's one block of 112
        // without erasures, whose 95% Wilson upper end is z^2 / (112 + z^2).
        const double z = 1.959963984540054;
        const uint32_t sized =
            WanParitySizer::Parities(112, WanLossEstimator::WilsonUpper(0, 112, z), 0.01, 40);
        const auto lossless = RunNine("all-to-all", 32e9, 0);
        for (const auto& i : lossless.rounds.at(0).islands)
        {
            NS_TEST_EXPECT_MSG_EQ(i.parityRows, 40, "every row, island " << i.city);
            NS_TEST_EXPECT_MSG_EQ(i.paritySent, 40, "one block of 112, one multicast copy");
        }
        for (const auto& i : lossless.rounds.at(1).islands)
        {
            NS_TEST_EXPECT_MSG_EQ(i.parityRows, sized, "sized from reports, island " << i.city);
        }
        NS_TEST_EXPECT_MSG_EQ(lossless.exact, true, "");
        // Scale 100: 10 MB in 1120 chunks of at most 8936 bytes, 10 blocks of 112.
        const auto blocks = RunNine("all-to-all", 32e9, 0, 100, 1);
        for (const auto& i : blocks.rounds.at(0).islands)
        {
            NS_TEST_EXPECT_MSG_EQ(i.parityRows, 12, "the prior's rows, island " << i.city);
            NS_TEST_EXPECT_MSG_EQ(i.paritySent, 120, "10 blocks x 12");
        }

        const auto lossy = RunNine("all-to-all", 32e9, 0.01);
        uint64_t rebuilt = 0;
        for (const auto& round : lossy.rounds)
        {
            for (const auto& i : round.islands)
            {
                rebuilt += i.rebuilt;
            }
        }
        NS_TEST_EXPECT_MSG_GT(lossy.lostPackets.at("core"), 0, "loss on the core");
        NS_TEST_EXPECT_MSG_GT(rebuilt, 0, "the parity rebuilt lost chunks");
        NS_TEST_EXPECT_MSG_EQ(lossy.exact, true, "every sum exact");

        const auto bare = RunNine("triangles", 0, 0.01);
        uint64_t reports = 0;
        uint64_t rebuiltSums = 0;
        for (const auto& round : bare.rounds)
        {
            for (const auto& i : round.islands)
            {
                reports += i.lossReports;
                rebuiltSums += i.rebuilt;
            }
        }
        NS_TEST_EXPECT_MSG_GT(reports, 0, "the islands reported their sums' erasures");
        NS_TEST_EXPECT_MSG_GT(rebuiltSums, 0, "the parity rebuilt sums");
        NS_TEST_EXPECT_MSG_EQ(bare.exact, true, "every sum exact");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Lossless, the default recovery's rounds take what the data alone
 * take (within 0.5%), with several blocks per stream (scale 100): its rows
 * trail the data (ParityLayout).  All-to-all with 32 GB decodes at the FPGA
 * (one round: the prior's 12 rows per block); triangles without memory
 * decode at the island (two rounds: the prior's rows, then the rows sized
 * from the reports).  Interleaved, the same rows go out between the data
 * and cost their share of the serialization (the old layout fails it).
 */
class BestRecoveryLosslessTestCase : public WanTestCase
{
  public:
    BestRecoveryLosslessTestCase()
        : WanTestCase("best recovery: lossless rounds take what the data alone take")
    {
    }

  private:
    void DoCheck() override
    {
        struct Case
        {
            std::string schedule; //!< built-in schedule
            double hbmBytes;      //!< HBM
            uint32_t rounds;      //!< rounds run
        };

        for (const Case& c : {Case{"all-to-all", 32e9, 1}, Case{"triangles", 0, 2}})
        {
            const auto best = RunNine(c.schedule, c.hbmBytes, 0, 100, c.rounds);
            const auto data = RunNine(c.schedule, c.hbmBytes, 0, 100, c.rounds, "accept");
            Config::SetDefault("ns3::WanIslandApplication::ParityLayout",
                               StringValue("interleaved"));
            const auto between = RunNine(c.schedule, c.hbmBytes, 0, 100, c.rounds);
            Config::Reset();
            NS_TEST_EXPECT_MSG_EQ(best.exact, true, c.schedule);
            for (uint32_t k = 0; k < c.rounds; ++k)
            {
                const double alone = data.rounds.at(k).measuredMs;
                uint64_t rows = 0;
                for (const auto& i : best.rounds.at(k).islands)
                {
                    rows += i.paritySent;
                }
                NS_TEST_EXPECT_MSG_GT(rows, 0, c.schedule << " round " << k << " sends rows");
                NS_TEST_EXPECT_MSG_EQ_TOL(best.rounds.at(k).measuredMs,
                                          alone,
                                          0.005 * alone,
                                          c.schedule << " round " << k << ": rows after the data");
                NS_TEST_EXPECT_MSG_GT(between.rounds.at(k).measuredMs,
                                      1.005 * alone,
                                      c.schedule << " round " << k << ": rows between the data");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-best-recovery test suite.
 */
class WanBestRecoveryTestSuite : public TestSuite
{
  public:
    WanBestRecoveryTestSuite()
        : TestSuite("wan-training-best-recovery", Type::UNIT)
    {
        AddTestCase(new BestRecoveryChoiceTestCase);
        AddTestCase(new BestRecoveryRunTestCase);
        AddTestCase(new BestRecoveryLosslessTestCase);
    }
};

/// The suite's instance.
static WanBestRecoveryTestSuite g_wanBestRecoveryTestSuite;
