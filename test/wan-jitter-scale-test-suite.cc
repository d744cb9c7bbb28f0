/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/test.h"
#include "ns3/wan-experiment-report.h"
#include "ns3/wan-link-impairment.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-training-compat.h"

#include <cmath>
#include <gsl/gsl_cdf.h>
#include <numeric>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// A mean with the half-width of its 95% confidence interval.
struct ScaleInterval
{
    double mean{0}; //!< the mean
    double half{0}; //!< half-width (Student's t)
};

/**
 * @param x figures of independent runs (two or more)
 * @return their mean and 95% confidence interval (Student's t)
 */
ScaleInterval
MeanInterval(const std::vector<double>& x)
{
    const double n = x.size();
    const double mean = std::accumulate(x.begin(), x.end(), 0.0) / n;
    double ss = 0;
    for (double v : x)
    {
        ss += (v - mean) * (v - mean);
    }
    const double t = gsl_cdf_tdist_Pinv(0.975, n - 1);
    return {mean, t * std::sqrt(ss / (n - 1) / n)};
}

/// What a jitter run measured, per run.
struct ScaleFigures
{
    std::vector<double> late;         //!< late contributions, share of those expected
    std::vector<double> givenUp;      //!< given-up contributions, likewise
    std::vector<double> partial;      //!< partial sums per contribution expected
    std::vector<double> disagreement; //!< A measured
    std::vector<double> lastInMs;     //!< the round's last contribution, from its start
    std::string warning;              //!< the run's scale warning (the last run's)
};

/**
 * @brief Islands A, B and C (TriangleTopology) in one clique, 0.25 GB per
 * island, one round with `accept`, correlated exponential jitter on the core
 * links: five runs (streams 1000 to 5000, as RngRun 1 to 5 would draw).
 * @param scale the time-preserving scale
 * @param hbmBytes the FPGAs' memory
 * @param jitterSeconds the jitter's standard deviation
 * @return the five runs' figures
 */
ScaleFigures
JitterRuns(double scale, double hbmBytes, double jitterSeconds)
{
    const auto topo = TriangleTopology();
    ScaleFigures f;
    for (int64_t run = 1; run <= 5; ++run)
    {
        PlannerConfig config;
        config.payloadBytes = 0.25e9;
        config.hbmBytes = hbmBytes;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(scale);
        experiment.SetRounds(1);
        experiment.SetStream(1000 * run);
        experiment.SetRecovery("accept");
        WanLinkImpairment jitter;
        jitter.jitterSeconds = jitterSeconds;
        experiment.SetImpairment(WanNetworkHelper::CORE, jitter);
        const auto r = experiment.Run(CliqueScheduleBuiltins::AllToAll(topo));
        WanRoundCounters sum;
        for (const auto& round : r.rounds)
        {
            sum += WanExperimentReport::Total(round);
        }
        const double expected = sum.expected;
        f.late.push_back(sum.late / expected);
        f.givenUp.push_back(sum.givenUp / expected);
        f.partial.push_back(sum.partialSums / expected);
        f.disagreement.push_back(r.disagreementMeasured);
        f.lastInMs.push_back(r.rounds.at(0).measuredMs);
        f.warning = r.scaleWarning;
    }
    return f;
}

/**
 * @param name the figure
 * @param x its runs
 * @return "name m +/- h" for the log of a failed check
 */
std::string
Describe(const std::string& name, const std::vector<double>& x)
{
    const auto i = MeanInterval(x);
    std::ostringstream text;
    text << name << " " << i.mean << " +/- " << i.half;
    return text.str();
}

/**
 * @param a runs at one scale
 * @param b runs at another
 * @return whether their 95% confidence intervals overlap
 */
bool
Overlap(const std::vector<double>& a, const std::vector<double>& b)
{
    const auto x = MeanInterval(a);
    const auto y = MeanInterval(b);
    return std::abs(x.mean - y.mean) <= x.half + y.half;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The mean and 95% interval of five figures, by hand: 1..5 gives
 * 3 +/- 2.776 x sqrt(2.5 / 5) = 1.963.
 */
class ScaleIntervalTestCase : public WanTestCase
{
  public:
    ScaleIntervalTestCase()
        : WanTestCase("mean and Student's t interval of five runs, by hand")
    {
    }

  private:
    void DoCheck() override
    {
        const auto i = MeanInterval({1, 2, 3, 4, 5});
        NS_TEST_EXPECT_MSG_EQ_TOL(i.mean, 3.0, 1e-12, "mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(i.half, 2.776445 * std::sqrt(0.5), 1e-5, "t(0.975, 4)");
        NS_TEST_EXPECT_MSG_EQ(Overlap({1, 1.1, 0.9, 1, 1}, {1.05, 1.1, 1, 1, 1}), true, "overlap");
        NS_TEST_EXPECT_MSG_EQ(Overlap({1, 1.1, 0.9, 1, 1}, {2, 2.1, 1.9, 2, 2}), false, "apart");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief With FPGA memory the slots live in time and the delay process is a
 * function of time, so a jitter run measures the same at scales 1000, 100
 * and 10: 3 ms of correlated jitter makes contributions late
 * (A above 1), and the late and given-up shares, the partial sums, A and the
 * last contribution's arrival agree within their 95% intervals (5 runs each);
 * run by run, the two smallest scales (100 and 10; 10 and 1, full scale, in
 * the EXTENSIVE case) agree within 1 percentage point of late
 * contributions, 0.01 of A and 1 ms of the last arrival (delays drawn per
 * packet would not: the same stream gave them 2.6 points, 0.025 and 5.5 ms
 * apart).
 */
class JitterScaleAgreementTestCase : public WanTestCase
{
  public:
    /**
     * @param scales the scales, from the largest: 1000 first, the last two
     *        compared run by run
     */
    JitterScaleAgreementTestCase(std::vector<double> scales)
        : WanTestCase("32 GB and 3 ms of correlated jitter: the same late share, given-up share, "
                      "partial sums, A and last arrival at scales" +
                      ScaleList(scales) + " (5 runs each)"),
          m_scales(std::move(scales))
    {
    }

  private:
    void DoCheck() override
    {
        std::vector<std::pair<double, ScaleFigures>> runs;
        for (double scale : m_scales)
        {
            runs.emplace_back(scale, JitterRuns(scale, 32e9, 3e-3));
            NS_TEST_EXPECT_MSG_EQ(runs.back().second.warning, "", "scale " << scale);
        }
        const auto& first = runs.front().second;

        NS_TEST_EXPECT_MSG_GT(MeanInterval(first.late).mean, 0.001, "some contributions late");
        NS_TEST_EXPECT_MSG_GT(MeanInterval(first.disagreement).mean, 1.001, "A above 1");
        // Run by run, the two smallest scales (100 and 10) see the same
        // delays (the process is the same function of time) and packets
        // short against them.
        const auto& larger = runs[runs.size() - 2].second;
        const auto& smaller = runs.back().second;
        for (size_t run = 0; run < smaller.late.size(); ++run)
        {
            NS_TEST_EXPECT_MSG_EQ_TOL(smaller.late[run],
                                      larger.late[run],
                                      0.01,
                                      "late, run " << run);
            NS_TEST_EXPECT_MSG_EQ_TOL(smaller.disagreement[run],
                                      larger.disagreement[run],
                                      0.01,
                                      "A, run " << run);
            NS_TEST_EXPECT_MSG_EQ_TOL(smaller.lastInMs[run],
                                      larger.lastInMs[run],
                                      1.0,
                                      "last in, run " << run);
        }
        const std::vector<std::pair<std::string, std::vector<double> ScaleFigures::*>> figures{
            {"late", &ScaleFigures::late},
            {"given up", &ScaleFigures::givenUp},
            {"partial sums", &ScaleFigures::partial},
            {"A", &ScaleFigures::disagreement},
            {"last in", &ScaleFigures::lastInMs}};
        for (size_t k = 1; k < runs.size(); ++k)
        {
            const auto& [scale, f] = runs[k];
            for (const auto& [name, figure] : figures)
            {
                NS_TEST_EXPECT_MSG_EQ(Overlap(f.*figure, first.*figure),
                                      true,
                                      Describe(name, f.*figure) + " at scale " +
                                          std::to_string(scale) +
                                          " against 1000: " + Describe("", first.*figure));
            }
        }
    }

    std::vector<double> m_scales; //!< the scales, 1000 first
};

/**
 * @ingroup wan-training-tests
 * @brief Without FPGA memory the line-rate window stretches with the scale
 * and the jitter does not. 10 ms of jitter against a 5 us window: at scales
 * 200 and 100 (the window at most a tenth of the jitter, as at full scale)
 * the runs carry no warning, their late shares and A agree within their
 * intervals and their partial sums within 2 percentage points; at 1000 the
 * scaled window joins chunks the full-scale one splits (5 points fewer
 * partial sums, outside the intervals), and the run says so.
 */
class JitterWindowScaleTestCase : public WanTestCase
{
  public:
    JitterWindowScaleTestCase()
        : WanTestCase("0 GB and 10 ms of jitter: scales 200 and 100 agree, 1000 differs and "
                      "is warned of")
    {
    }

  private:
    void DoCheck() override
    {
        const auto at200 = JitterRuns(200, 0, 10e-3);
        const auto at100 = JitterRuns(100, 0, 10e-3);
        const auto at1000 = JitterRuns(1000, 0, 10e-3);
        NS_TEST_EXPECT_MSG_EQ(at200.warning, "", "scale 200: the window is a tenth of the jitter");
        NS_TEST_EXPECT_MSG_EQ(at100.warning, "", "scale 100");
        NS_TEST_EXPECT_MSG_EQ(Mentions(at1000.warning, "at scale 200 or below"),
                              true,
                              "scale 1000 warned: " << at1000.warning);
        NS_TEST_EXPECT_MSG_EQ(Overlap(at200.late, at100.late),
                              true,
                              Describe("late", at200.late) + ", " + Describe("", at100.late));
        // The partial sums: a window of a tenth of the jitter still joins a
        // few more (48.2% of the contributions expected at 200, 49.5% at
        // 100); the scaled window at 1000 joins far more (36.4%).
        const auto p200 = MeanInterval(at200.partial).mean;
        const auto p100 = MeanInterval(at100.partial).mean;
        const auto p1000 = MeanInterval(at1000.partial).mean;
        NS_TEST_EXPECT_MSG_EQ_TOL(p200, p100, 0.02, "partial sums at 200 and 100");
        NS_TEST_EXPECT_MSG_LT(p1000,
                              p200 - 0.05,
                              Describe("partial at 1000", at1000.partial) + " against " +
                                  Describe("", at200.partial));
        NS_TEST_EXPECT_MSG_EQ(Overlap(at1000.partial, at200.partial), false, "apart");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Jitter runs at several scales.
 */
class WanJitterScaleTestSuite : public TestSuite
{
  public:
    WanJitterScaleTestSuite()
        : TestSuite("wan-training-jitter-scale", Type::UNIT)
    {
        AddTestCase(new ScaleIntervalTestCase);
        AddTestCase(new JitterScaleAgreementTestCase({1000, 100, 10}));
        // Full scale as well: about two minutes.
        AddTestCase(new JitterScaleAgreementTestCase({1000, 100, 10, 1}),
                    wancompat::Extensive<TestCase>);
        AddTestCase(new JitterWindowScaleTestCase);
    }
};

/// The suite's static instance.
static WanJitterScaleTestSuite g_wanJitterScaleTestSuite;
