/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-scale-check.h"

using namespace ns3;

/**
 * @ingroup wan-training-tests
 * @brief Jitter against the line-rate window, by hand: 1 ms of jitter and a
 * 5 us window (50 us at scale 10, 5 ms at 1000).
 */
class JitterWindowTestCase : public WanTestCase
{
  public:
    JitterWindowTestCase()
        : WanTestCase("jitter against the line-rate window: when the scale changes "
                      "the answer")
    {
    }

  private:
    void DoCheck() override
    {
        // 5 ms at scale 1000 absorbs most of 1 ms, 5 us does not: warned, and
        // the scale that gives the full-scale answer is 1 ms / 50 us = 20.
        const auto text = WanScaleCheck::JitterAgainstWindow(1e-3, 5e-6, 1000);
        NS_TEST_EXPECT_MSG_EQ(text,
                              "jitter of 1 ms against the FPGAs' line-rate window of 5 ms at "
                              "scale 1000 (5 us at full scale): the scaled window absorbs skew "
                              "the full-scale one does not, so late contributions, partial sums "
                              "and A depend on the scale (at scale 20 or below the window is at "
                              "most a tenth of the jitter, as at full scale; or give the FPGAs "
                              "memory)",
                              "scale 1000");
        NS_TEST_EXPECT_MSG_NE(WanScaleCheck::JitterAgainstWindow(1e-3, 5e-6, 100), "", "0.5 ms");
        // 50 us and 100 us: a tenth of the jitter, as 5 us is.
        NS_TEST_EXPECT_MSG_EQ(WanScaleCheck::JitterAgainstWindow(1e-3, 5e-6, 10), "", "scale 10");
        NS_TEST_EXPECT_MSG_EQ(WanScaleCheck::JitterAgainstWindow(1e-3, 5e-6, 20), "", "scale 20");
        NS_TEST_EXPECT_MSG_NE(WanScaleCheck::JitterAgainstWindow(1e-3, 5e-6, 21), "", "scale 21");
        // Jitter well inside the window at full scale: absorbed at every scale.
        NS_TEST_EXPECT_MSG_EQ(WanScaleCheck::JitterAgainstWindow(0.5e-6, 5e-6, 1000), "", "small");
        NS_TEST_EXPECT_MSG_EQ(WanScaleCheck::JitterAgainstWindow(0, 5e-6, 1000), "", "none");
        NS_TEST_EXPECT_MSG_EQ(WanScaleCheck::JitterAgainstWindow(1e-3, 5e-6, 1), "", "full scale");
        // 20 us of jitter: no scale above 1 keeps the window a tenth of it.
        NS_TEST_EXPECT_MSG_NE(
            WanScaleCheck::JitterAgainstWindow(20e-6, 5e-6, 100).find("(give the FPGAs memory)"),
            std::string::npos,
            "memory is the only remedy");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief TCP at a scale, by hand: scale 1000 has a path's product in 1000
 * times fewer segments, reached log2(1000) = 9.97 round trips sooner; full
 * scale is not warned.
 */
class TcpAtScaleTestCase : public WanTestCase
{
  public:
    TcpAtScaleTestCase()
        : WanTestCase("TCP at a scale: warned above full scale, with the round trips slow "
                      "start saves")
    {
    }

  private:
    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ(WanScaleCheck::TcpAtScale(1000),
                              "TCP at scale 1000: windows, slow start and device queues count "
                              "segments, so a path's bandwidth-delay product is 1000 times fewer "
                              "segments than at full scale (slow start reaches it 9.97 round "
                              "trips sooner; a queue of packets drains in 1000 times its "
                              "full-scale time): times over TCP are not scale-free (compare "
                              "systems at one scale, the lowest a study affords)",
                              "scale 1000");
        NS_TEST_EXPECT_MSG_NE(WanScaleCheck::TcpAtScale(1024).find("reaches it 10 round trips"),
                              std::string::npos,
                              "log2(1024)");
        NS_TEST_EXPECT_MSG_NE(WanScaleCheck::TcpAtScale(1.5), "", "any scale above 1");
        NS_TEST_EXPECT_MSG_EQ(WanScaleCheck::TcpAtScale(1), "", "full scale");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Suite of WanScaleCheck.
 */
class WanScaleCheckTestSuite : public TestSuite
{
  public:
    WanScaleCheckTestSuite()
        : TestSuite("wan-training-scale-check", Type::UNIT)
    {
        AddTestCase(new JitterWindowTestCase);
        AddTestCase(new TcpAtScaleTestCase);
    }
};

/// The suite's one instance.
static WanScaleCheckTestSuite g_wanScaleCheckTestSuite;
