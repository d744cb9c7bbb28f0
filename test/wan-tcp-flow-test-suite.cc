/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/test.h"
#include "ns3/wan-tcp-flow-experiment.h"
#include "ns3/wan-tcp-model.h"

#include <cmath>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief The closed forms by hand. Mathis with delayed ACKs: C = sqrt(3/4),
 * at p = 1% a window of 8.660 segments; of 8948 bytes every 20 ms, 30.996
 * Mbit/s. CUBIC at p = 1%: the cubic region's (0.4 x 3.7 / 1.2)^(1/4) =
 * 1.05384, times (RTT / p)^(3/4): at 200 ms 20^(3/4) = 9.4574, so 9.9666
 * segments, above the Reno-friendly 8.660; at 20 ms 2^(3/4) x 1.05384 =
 * 1.7724, below it, so 8.660. A buffer of 131072 bytes over 80 ms: 13.107
 * Mbit/s, its 14 whole segments of 8948 bytes 12.527. Bad values refused.
 */
class TcpModelTestCase : public WanTestCase
{
  public:
    TcpModelTestCase()
        : WanTestCase("TCP closed forms by hand: Mathis, RFC 9438, buffer over RTT")
    {
    }

  private:
    void DoCheck() override
    {
        NS_TEST_EXPECT_MSG_EQ_TOL(WanTcpModel::RenoWindow(0.01), 8.6603, 1e-4, "sqrt(3/4) / 0.1");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanTcpModel::RenoWindow(0.01, 1),
                                  12.2474,
                                  1e-4,
                                  "sqrt(3/2) / 0.1");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanTcpModel::Rate(WanTcpModel::RenoWindow(0.01), 8948, 0.020),
                                  30.996e6,
                                  1e3,
                                  "");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanTcpModel::CubicWindow(0.200, 0.01), 9.9666, 1e-3, "cubic");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanTcpModel::CubicWindow(0.020, 0.01),
                                  8.6603,
                                  1e-4,
                                  "Reno-friendly");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanTcpModel::BufferRate(131072, 0.080), 13.1072e6, 1, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanTcpModel::BufferRate(131072, 0.080, 8948),
                                  12.5272e6,
                                  1,
                                  "14 whole segments");
        auto e = ErrorOf([] { WanTcpModel::RenoWindow(0); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "loss probability 0"), true, e);
        e = ErrorOf([] { WanTcpModel::CubicWindow(0, 0.01); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "round-trip time"), true, e);
        e = ErrorOf([] { WanTcpFlowExperiment(0.02, 1e9).Run(1, 2); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "warm-up of 2 s"), true, e);
        e = ErrorOf([] { WanTcpFlowExperiment(0.02, 1e9).SetLoss(1); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "loss probability 1"), true, e);
        e = ErrorOf(
            [] { WanTcpFlowExperiment(0.02, 1e9).SetCongestionControl(TcpSocket::GetTypeId()); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "is not a TcpCongestionOps"), true, e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief ns-3's TCP against the closed forms, one flow on an 1 Gbit/s path.
 * Lossless with ns-3's default buffers (131072 bytes) over 80 ms: the
 * window is the buffer, buffer / RTT = 13.107 Mbit/s, within 5% (its 14
 * whole segments, 12.527 Mbit/s, within 1%; measured 12.47). NewReno at 0.1%
 * loss over 20 ms, with buffers over its window, against Mathis (27.4
 * segments, 98.0 Mbit/s; measured 87.1), and CUBIC at 1% over 200 ms against
 * RFC 9438 (9.97 segments, 3.57 Mbit/s; measured 4.05): within 20%.
 */
class TcpFlowTestCase : public WanTestCase
{
  public:
    TcpFlowTestCase()
        : WanTestCase("one TCP flow: buffer over RTT, Mathis (NewReno), RFC 9438 (CUBIC)")
    {
    }

  private:
    void DoCheck() override
    {
        WanTcpFlowExperiment lossless(0.080, 1e9);
        const auto window = lossless.Run(20, 2);
        NS_TEST_EXPECT_MSG_EQ(window.segmentBytes, 8948, "9000 - 52");
        NS_TEST_EXPECT_MSG_EQ(window.lostPackets, 0, "");
        const double cap = WanTcpModel::BufferRate(131072, 0.080);
        NS_TEST_EXPECT_MSG_EQ_TOL(window.goodputBps, cap, 0.05 * cap, "buffer / RTT");
        const double whole = WanTcpModel::BufferRate(131072, 0.080, 8948);
        NS_TEST_EXPECT_MSG_EQ_TOL(window.goodputBps, whole, 0.01 * whole, "its whole segments");

        WanTcpFlowExperiment reno(0.020, 1e9);
        reno.SetCongestionControl(TcpNewReno::GetTypeId());
        reno.SetLoss(0.001);
        reno.SetBuffers(1 << 22, 1 << 22); // over the 27-segment window Mathis gives
        const auto mathis = reno.Run(100, 5);
        const double expected = WanTcpModel::Rate(WanTcpModel::RenoWindow(0.001), 8948, 0.020);
        NS_TEST_EXPECT_MSG_GT(mathis.lostPackets, 100, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(mathis.goodputBps, expected, 0.2 * expected, "Mathis");

        WanTcpFlowExperiment cubic(0.200, 1e9);
        cubic.SetCongestionControl(TcpCubic::GetTypeId());
        cubic.SetLoss(0.01);
        const auto rfc = cubic.Run(400, 20);
        const double average =
            WanTcpModel::Rate(WanTcpModel::CubicWindow(0.200, 0.01), 8948, 0.200);
        NS_TEST_EXPECT_MSG_GT(rfc.lostPackets, 100, "");
        NS_TEST_EXPECT_MSG_EQ_TOL(rfc.goodputBps, average, 0.2 * average, "RFC 9438");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-tcp-flow test suite.
 */
class WanTcpFlowTestSuite : public TestSuite
{
  public:
    WanTcpFlowTestSuite()
        : TestSuite("wan-training-tcp-flow", Type::UNIT)
    {
        AddTestCase(new TcpModelTestCase);
        AddTestCase(new TcpFlowTestCase);
    }
};

/// The suite's one instance.
static WanTcpFlowTestSuite g_wanTcpFlowTestSuite;
