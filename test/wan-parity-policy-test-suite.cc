/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/test.h"
#include "ns3/uinteger.h"
#include "ns3/wan-parity-policy.h"

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The parity's layout and place of decoding reach the islands and the
 * FPGAs; bad values, and decoding at an FPGA without memory, are refused.
 */
class ParityPolicyTestCase : public WanTestCase
{
  public:
    ParityPolicyTestCase()
        : WanTestCase("parity policy: layout and decoding to islands and FPGAs, refusals")
    {
    }

  private:
    void DoCheck() override
    {
        PlannerConfig config;
        config.hbmBytes = 32e9;
        WanParityPolicy policy(config);
        policy.SetLayout(56, 7);
        policy.SetDecoding("fpga", 0.25);
        NS_TEST_EXPECT_MSG_EQ(policy.DecodesAtFpga(), true, "");
        WanIslandHelper islands;
        policy.ConfigureIslands(islands, true);
        auto island = islands.Create();
        UintegerValue u;
        BooleanValue b;
        island->GetAttribute("Parity", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "");
        island->GetAttribute("ParityBlock", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 56, "");
        island->GetAttribute("ParityChunks", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 7, "");
        FpgaAggregatorHelper fpgas;
        fpgas.SetScale(1000);
        policy.ConfigureFpgas(fpgas, true);
        auto fpga = fpgas.Create();
        fpga->GetAttribute("DecodeBytes", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 8000000, "a quarter of 32 GB, scaled by 1000");
        fpga->GetAttribute("ParityChunks", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 7, "");
        // Not coded: no parity, no decoding.
        FpgaAggregatorHelper plain;
        policy.ConfigureFpgas(plain, false);
        plain.Create()->GetAttribute("DecodeBytes", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 0, "");
        policy.SetDecoding("island", 0.5);
        FpgaAggregatorHelper island2;
        policy.ConfigureFpgas(island2, true);
        island2.Create()->GetAttribute("DecodeBytes", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 0, "decoded at the island only");

        std::string e = ErrorOf([&] { policy.SetDecoding("switch", 0.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "must be island or fpga (got 'switch')"), true, e);
        e = ErrorOf([&] { policy.SetDecoding("fpga", 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "above 0 and below 1 (got 1)"), true, e);
        e = ErrorOf([&] { policy.SetLayout(300, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "parity block"), true, e);
        e = ErrorOf([&] { policy.SetLayout(4, 5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "5 parity chunks per block of 4"), true, e);
        PlannerConfig none;
        none.hbmBytes = 0;
        WanParityPolicy bare(none);
        e = ErrorOf([&] { bare.SetDecoding("fpga", 0.5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "needs FPGA memory"), true, e);
        bare.SetDecoding("island", 0.5); // always possible
        NS_TEST_EXPECT_MSG_EQ(bare.DecodesAtFpga(), false, "");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Parity sized in band: the islands size their rows, and the FPGAs
 * report decoding at the FPGA, the islands decoding at the island.
 */
class ParitySizingPolicyTestCase : public WanTestCase
{
  public:
    ParitySizingPolicyTestCase()
        : WanTestCase("parity policy: sizing in band to islands and FPGAs, refusals")
    {
    }

  private:
    void DoCheck() override
    {
        PlannerConfig config;
        config.hbmBytes = 32e9;
        WanParityPolicy policy(config);
        policy.SetLayout(112, 40);
        // Decoded at the island (the default): the islands report.
        policy.SetSizing(1e-3, 2, 0.95);
        WanIslandHelper reporting;
        policy.ConfigureIslands(reporting, true);
        BooleanValue reports;
        reporting.Create()->GetAttribute("ReportLoss", reports);
        NS_TEST_EXPECT_MSG_EQ(reports.Get(), true, "the islands measure their sums");
        FpgaAggregatorHelper silent;
        policy.ConfigureFpgas(silent, true);
        silent.Create()->GetAttribute("ReportLoss", reports);
        NS_TEST_EXPECT_MSG_EQ(reports.Get(), false, "the FPGAs decode nothing");
        policy.SetDecoding("fpga", 0.5);
        policy.SetSizing(1e-4, 3, 0);
        WanIslandHelper islands;
        policy.ConfigureIslands(islands, true);
        auto island = islands.Create();
        BooleanValue b;
        DoubleValue d;
        UintegerValue u;
        island->GetAttribute("ParitySizing", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "");
        island->GetAttribute("ReportLoss", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), false, "the FPGAs report");
        island->GetAttribute("ParityEpsilon", d);
        NS_TEST_EXPECT_MSG_EQ(d.Get(), 1e-4, "");
        island->GetAttribute("ParityWindow", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 3, "");
        island->GetAttribute("ParityConfidence", d);
        NS_TEST_EXPECT_MSG_EQ(d.Get(), 0, "the measured rate");
        island->GetAttribute("ParityChunks", u);
        NS_TEST_EXPECT_MSG_EQ(u.Get(), 40, "the most rows");
        island->GetAttribute("ParityPrior", d);
        NS_TEST_EXPECT_MSG_EQ(d.Get(), -1, "no prior: every row before reports");
        policy.SetPrior(2e-3);
        WanIslandHelper priored;
        policy.ConfigureIslands(priored, true);
        priored.Create()->GetAttribute("ParityPrior", d);
        NS_TEST_EXPECT_MSG_EQ(d.Get(), 2e-3, "");
        FpgaAggregatorHelper fpgas;
        policy.ConfigureFpgas(fpgas, true);
        fpgas.Create()->GetAttribute("ReportLoss", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), true, "");
        // Not coded: nothing sized.
        WanIslandHelper plain;
        policy.ConfigureIslands(plain, false);
        plain.Create()->GetAttribute("ParitySizing", b);
        NS_TEST_EXPECT_MSG_EQ(b.Get(), false, "");

        auto e = ErrorOf([&] { policy.SetSizing(0.6, 2, 0.95); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "above 0 and at most 0.5 (got 0.6; 0: not sized)"),
                              true,
                              e);
        e = ErrorOf([&] { policy.SetSizing(1e-3, 0, 0.95); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "window must be at least 1 round (got 0)"), true, e);
        e = ErrorOf([&] { policy.SetPrior(1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "parity sizing's prior rate"), true, e);
        e = ErrorOf([&] { policy.SetSizing(1e-3, 2, 1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "confidence must be from 0 to less than 1 (got 1)"),
                              true,
                              e);
        policy.SetDecoding("island", 0.5);
        NS_TEST_EXPECT_MSG_EQ(policy.DecodesAtFpga(), false, "");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-parity-policy test suite.
 */
class WanParityPolicyTestSuite : public TestSuite
{
  public:
    WanParityPolicyTestSuite()
        : TestSuite("wan-training-parity-policy", Type::UNIT)
    {
        AddTestCase(new ParityPolicyTestCase);
        AddTestCase(new ParitySizingPolicyTestCase);
    }
};

/// The suite's instance.
static WanParityPolicyTestSuite g_wanParityPolicyTestSuite;
