/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/enum.h"
#include "ns3/nstime.h"
#include "ns3/string.h"
#include "ns3/test.h"
#include "ns3/wan-delay-process.h"
#include "ns3/wan-training-compat.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/**
 * @param stdDev the process's StdDev
 * @param tau its CorrelationTime
 * @param distribution its Distribution
 * @param stream its random stream
 * @param resolution its grid step
 * @return a delay process
 */
Ptr<WanDelayProcess>
MakeProcess(Time stdDev,
            Time tau,
            const std::string& distribution,
            int64_t stream = 7,
            Time resolution = MicroSeconds(100))
{
    auto p = CreateObject<WanDelayProcess>();
    p->SetAttribute("StdDev", TimeValue(stdDev));
    p->SetAttribute("CorrelationTime", TimeValue(tau));
    p->SetAttribute("Resolution", TimeValue(resolution));
    p->SetAttribute("Distribution", StringValue(distribution));
    p->AssignStreams(stream);
    return p;
}

/**
 * @param p a delay process
 * @param count samples
 * @param step time between samples
 * @return the delays, seconds
 */
std::vector<double>
Samples(Ptr<WanDelayProcess> p, uint32_t count, Time step)
{
    std::vector<double> x;
    for (uint32_t k = 0; k < count; ++k)
    {
        x.push_back(p->Sample(step * k).GetSeconds());
    }
    return x;
}

/// @return the mean of x
double
Mean(const std::vector<double>& x)
{
    return std::accumulate(x.begin(), x.end(), 0.0) / x.size();
}

/// @return the sample standard deviation of x
double
Spread(const std::vector<double>& x)
{
    const double m = Mean(x);
    double v = 0;
    for (double a : x)
    {
        v += (a - m) * (a - m);
    }
    return std::sqrt(v / (x.size() - 1));
}

/// @return the correlation of x[k] and x[k + 1]
double
LagOneCorrelation(const std::vector<double>& x)
{
    const std::vector<double> a(x.begin(), x.end() - 1);
    const std::vector<double> b(x.begin() + 1, x.end());
    const double ma = Mean(a);
    const double mb = Mean(b);
    double sab = 0;
    double saa = 0;
    double sbb = 0;
    for (size_t k = 0; k < a.size(); ++k)
    {
        sab += (a[k] - ma) * (b[k] - mb);
        saa += (a[k] - ma) * (a[k] - ma);
        sbb += (b[k] - mb) * (b[k] - mb);
    }
    return sab / std::sqrt(saa * sbb);
}

/// @return the ranks of x (0 for the least)
std::vector<double>
Ranks(const std::vector<double>& x)
{
    std::vector<size_t> order(x.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](size_t i, size_t j) { return x[i] < x[j]; });
    std::vector<double> rank(x.size());
    for (size_t r = 0; r < order.size(); ++r)
    {
        rank[order[r]] = r;
    }
    return rank;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The increasing map from the state to the delay, at hand-computed
 * points, and the stationary mean and spread it implies.
 */
class DelayMapTestCase : public WanTestCase
{
  public:
    DelayMapTestCase()
        : WanTestCase("state to delay: hand-computed quantiles, mean and spread")
    {
    }

  private:
    void DoCheck() override
    {
        const Time ms = MilliSeconds(1);
        auto e = MakeProcess(ms, ms, "exponential");
        // -ln(1 - Phi(z)): ln 2 at z = 0; Phi(-1) = 0.158655, -ln = 1.841022.
        NS_TEST_EXPECT_MSG_EQ_TOL(e->DelayOf(0), 0.693147e-3, 1e-9, "exponential median");
        NS_TEST_EXPECT_MSG_EQ_TOL(e->DelayOf(1), 1.841022e-3, 1e-9, "exponential at z = 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(e->DelayOf(-1), 0.172754e-3, 1e-9, "exponential at z = -1");
        NS_TEST_EXPECT_MSG_EQ(e->GetMean(), MilliSeconds(1), "exponential mean");
        auto u = MakeProcess(ms, ms, "uniform");
        // sqrt(12) Phi(z) ms: sqrt(3) at z = 0, 3.464102 x 0.841345 at z = 1.
        NS_TEST_EXPECT_MSG_EQ_TOL(u->DelayOf(0), 1.732051e-3, 1e-9, "uniform median");
        NS_TEST_EXPECT_MSG_EQ_TOL(u->DelayOf(1), 2.914504e-3, 1e-9, "uniform at z = 1");
        NS_TEST_EXPECT_MSG_EQ_TOL(u->DelayOf(-40), 0, 1e-12, "uniform never negative");
        auto n = MakeProcess(ms, ms, "normal");
        NS_TEST_EXPECT_MSG_EQ_TOL(n->DelayOf(0.5), 3.5e-3, 1e-12, "normal: 3 + z ms");
        NS_TEST_EXPECT_MSG_EQ(n->DelayOf(-4), 0, "normal clipped at 0");
        NS_TEST_EXPECT_MSG_EQ_TOL(n->DelayOf(4), 6e-3, 1e-12, "normal clipped at 6 ms");
        NS_TEST_EXPECT_MSG_EQ(n->GetMean(), MilliSeconds(3), "normal mean");
        NS_TEST_EXPECT_MSG_EQ_TOL(n->GetStdDev().GetSeconds(),
                                  0.9975e-3,
                                  2e-9,
                                  "normal spread 0.9975 ms");
        auto quiet = MakeProcess(Seconds(0), ms, "exponential");
        const Time none = quiet->Sample(Seconds(1));
        NS_TEST_EXPECT_MSG_EQ(none, Seconds(0), "no spread, no delay");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Over many samples the delay has the stationary mean and spread of
 * its distribution, and is never negative.
 */
class DelayStationaryTestCase : public WanTestCase
{
  public:
    DelayStationaryTestCase()
        : WanTestCase("stationary mean and standard deviation of each distribution")
    {
    }

  private:
    void DoCheck() override
    {
        struct Case
        {
            std::string distribution;
            double mean;   //!< ms
            double spread; //!< ms
            double max;    //!< ms, largest possible delay (0: unbounded)
        };

        // sigma 1 ms, samples tau apart (correlation 0.37, so the 100000
        // samples weigh as about 46000 independent ones: standard error of
        // the mean 0.5%, of the exponential's spread 1%).
        for (const auto& c : std::vector<Case>{{"exponential", 1, 1, 0},
                                               {"uniform", std::sqrt(3.0), 1, std::sqrt(12.0)},
                                               {"normal", 3, 0.9975, 6}})
        {
            // Samples on the grid (of 10 ms here): the process's own values.
            auto p =
                MakeProcess(MilliSeconds(1), MilliSeconds(10), c.distribution, 7, MilliSeconds(10));
            auto x = Samples(p, 100000, MilliSeconds(10));
            NS_TEST_EXPECT_MSG_EQ_TOL(Mean(x) * 1e3, c.mean, 0.02 * c.mean, c.distribution);
            NS_TEST_EXPECT_MSG_EQ_TOL(Spread(x) * 1e3, c.spread, 0.04, c.distribution);
            NS_TEST_EXPECT_MSG_EQ_TOL(p->GetMean().GetSeconds() * 1e3,
                                      c.mean,
                                      1e-6,
                                      c.distribution << ": GetMean");
            NS_TEST_EXPECT_MSG_EQ_TOL(p->GetStdDev().GetSeconds() * 1e3,
                                      c.spread,
                                      1e-6,
                                      c.distribution << ": GetStdDev");
            NS_TEST_EXPECT_MSG_GT_OR_EQ(*std::min_element(x.begin(), x.end()),
                                        0.0,
                                        c.distribution << " never negative");
            if (c.max > 0)
            {
                NS_TEST_EXPECT_MSG_LT_OR_EQ(*std::max_element(x.begin(), x.end()) * 1e3,
                                            c.max + 1e-6,
                                            c.distribution << " bounded");
            }
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Samples dt apart have correlation e^{-dt/tau} (normal) and rank
 * correlation (6 / pi) asin(e^{-dt/tau} / 2) (exponential), whatever the
 * number of samples taken in between.
 */
class DelayCorrelationTestCase : public WanTestCase
{
  public:
    DelayCorrelationTestCase()
        : WanTestCase("lag correlation exp(-dt over tau), independent of the sampling density")
    {
    }

  private:
    void DoCheck() override
    {
        // Normal: Pearson correlation e^{-dt/tau}, tau = 10 ms, 50000 samples
        // (standard error (1 - rho^2) / sqrt(50000): 0.001 to 0.004).
        for (double ratio : {0.1, 1.0, 3.0})
        {
            auto p = MakeProcess(MilliSeconds(1), MilliSeconds(10), "normal", 7, MilliSeconds(1));
            auto x = Samples(p, 50000, MicroSeconds(10000 * ratio));
            NS_TEST_EXPECT_MSG_EQ_TOL(LagOneCorrelation(x),
                                      std::exp(-ratio),
                                      0.015,
                                      "dt/tau " << ratio);
        }
        // Exponential: rank correlation at dt = tau, (6/pi) asin(e^-1 / 2) = 0.35331.
        auto e = MakeProcess(MilliSeconds(1), MilliSeconds(10), "exponential", 7, MilliSeconds(10));
        const double rank = LagOneCorrelation(Ranks(Samples(e, 50000, MilliSeconds(10))));
        NS_TEST_EXPECT_MSG_EQ_TOL(rank, 0.35331, 0.015, "exponential rank correlation");
        // Sampled 100 times per tau, every 100th sample still has correlation
        // e^-1 with the next and unit spread: the exact transition composes.
        auto dense = MakeProcess(MilliSeconds(1), MilliSeconds(10), "normal");
        auto all = Samples(dense, 2000000, MicroSeconds(100));
        std::vector<double> sparse;
        for (size_t k = 0; k < all.size(); k += 100)
        {
            sparse.push_back(all[k]);
        }
        NS_TEST_EXPECT_MSG_EQ_TOL(LagOneCorrelation(sparse), std::exp(-1.0), 0.015, "dense");
        NS_TEST_EXPECT_MSG_EQ_TOL(Spread(sparse) * 1e3, 0.9975, 0.04, "dense spread");
        NS_TEST_EXPECT_MSG_EQ_TOL(LagOneCorrelation(all), std::exp(-0.01), 0.001, "dt = tau/100");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The delay is a function of time: a grid of Resolution, straight
 * lines between its points, and the FIFO envelope over every grid point
 * passed, whatever the times sampled.
 */
class DelayFunctionOfTimeTestCase : public WanTestCase
{
  public:
    DelayFunctionOfTimeTestCase()
        : WanTestCase("a function of time: grid, interpolation and FIFO envelope, whatever the "
                      "sampling")
    {
    }

  private:
    void DoCheck() override
    {
        // sigma 1 ms, tau 10 ms, grid 100 us: each step moves the delay by
        // about 0.14 ms, faster than time at times, so the envelope rises
        // above the process.
        const Time h = MicroSeconds(100);
        auto grid = MakeProcess(MilliSeconds(1), MilliSeconds(10), "exponential", 5);
        std::vector<double> at;   // d(k h), seconds
        std::vector<double> peak; // max of g h + d(g h) over g <= k
        for (int k = 0; k <= 2000; ++k)
        {
            at.push_back(grid->Sample(h * k).GetSeconds());
            const double arrival = (h * k).GetSeconds() + at.back();
            peak.push_back(peak.empty() ? arrival : std::max(peak.back(), arrival));
        }
        // Sampled every 37 us, or every 1.3 ms: the same function.
        for (Time step : {MicroSeconds(37), MicroSeconds(1300)})
        {
            auto p = MakeProcess(MilliSeconds(1), MilliSeconds(10), "exponential", 5);
            double worst = 0;
            double worstFifo = 0;
            uint32_t raised = 0;
            for (Time t = MicroSeconds(0); t < h * 2000; t += step)
            {
                const double d = p->Sample(t).GetSeconds();
                const double f = p->GetFifoDelay().GetSeconds();
                const auto k = static_cast<size_t>(t.GetNanoSeconds() / h.GetNanoSeconds());
                const double frac = (t - h * k).GetSeconds() / h.GetSeconds();
                const double expected = at[k] + (at[k + 1] - at[k]) * frac;
                worst = std::max(worst, std::abs(d - expected));
                // The envelope: the latest arrival of a packet sent at any
                // grid time so far, or now.
                const double latest = std::max(peak[k], t.GetSeconds() + d);
                worstFifo = std::max(worstFifo, std::abs(f - (latest - t.GetSeconds())));
                raised += f > d + 1e-12 ? 1 : 0;
                NS_TEST_ASSERT_MSG_GT_OR_EQ(f, d, "the envelope is never below");
            }
            // Within the nanosecond a Time rounds to.
            NS_TEST_EXPECT_MSG_LT(worst, 1.01e-9, "interpolated, every " << step.As(Time::US));
            NS_TEST_EXPECT_MSG_LT(worstFifo, 2.01e-9, "envelope, every " << step.As(Time::US));
            NS_TEST_EXPECT_MSG_GT(raised, 0, "some samples raised, every " << step.As(Time::US));
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Random streams: the same stream gives the same sequence; a
 * sample at the time of the last one repeats it; time never goes back.
 */
class DelayStreamTestCase : public WanTestCase
{
  public:
    DelayStreamTestCase()
        : WanTestCase("same stream, same sequence; repeated and earlier sample times")
    {
    }

  private:
    void DoCheck() override
    {
        auto a = Samples(MakeProcess(MilliSeconds(1), MilliSeconds(10), "exponential", 3),
                         1000,
                         MicroSeconds(250));
        auto b = Samples(MakeProcess(MilliSeconds(1), MilliSeconds(10), "exponential", 3),
                         1000,
                         MicroSeconds(250));
        auto c = Samples(MakeProcess(MilliSeconds(1), MilliSeconds(10), "exponential", 4),
                         1000,
                         MicroSeconds(250));
        NS_TEST_EXPECT_MSG_EQ((a == b), true, "stream 3 twice: the same delays");
        NS_TEST_EXPECT_MSG_EQ((a == c), false, "stream 4: other delays");

        auto p = MakeProcess(MilliSeconds(1), MilliSeconds(10), "normal");
        const Time first = p->Sample(MilliSeconds(5));
        const double state = p->GetState();
        const Time again = p->Sample(MilliSeconds(5));
        NS_TEST_EXPECT_MSG_EQ(again, first, "same time, same delay");
        NS_TEST_EXPECT_MSG_EQ(p->GetState(), state, "same time, same state");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { p->Sample(MilliSeconds(4)); }),
                     "delay process sampled at 0.004000 s, before its last sample at 0.005000 s"),
            true,
            "time does not go back");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Attribute values outside their ranges are refused.
 */
class DelayAttributeTestCase : public WanTestCase
{
  public:
    DelayAttributeTestCase()
        : WanTestCase("bad attribute values are refused")
    {
    }

  private:
    void DoCheck() override
    {
        auto p = CreateObject<WanDelayProcess>();
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("StdDev", TimeValue(Seconds(1))),
                              true,
                              "a second of spread is allowed");
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("StdDev", TimeValue(MilliSeconds(1001))),
                              false,
                              "spread above 1 s");
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("StdDev", TimeValue(MilliSeconds(-1))),
                              false,
                              "negative spread");
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("CorrelationTime", TimeValue(Seconds(0))),
                              false,
                              "no correlation time");
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("CorrelationTime", TimeValue(Seconds(1001))),
                              false,
                              "correlation time above 1000 s");
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("Resolution", TimeValue(Seconds(0))),
                              false,
                              "no grid step");
        NS_TEST_EXPECT_MSG_EQ(p->SetAttributeFailSafe("Resolution", TimeValue(MilliSeconds(1001))),
                              false,
                              "grid step above 1 s");
        NS_TEST_EXPECT_MSG_EQ(
            p->SetAttributeFailSafe("Distribution", EnumValue(WanDelayProcess::UNIFORM)),
            true,
            "uniform");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([]() {
                         wancompat::RequireEnumName(WanDelayProcess::GetTypeId(),
                                                    "Distribution",
                                                    "pareto",
                                                    "jitter distribution");
                     }),
                     "unknown jitter distribution \"pareto\" (expected exponential or uniform "
                     "or normal)"),
            true,
            "an unknown distribution is refused before it is set");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The delay process's test suite.
 */
class WanDelayProcessTestSuite : public TestSuite
{
  public:
    WanDelayProcessTestSuite()
        : TestSuite("wan-training-delay-process", Type::UNIT)
    {
        AddTestCase(new DelayMapTestCase);
        AddTestCase(new DelayStationaryTestCase);
        AddTestCase(new DelayCorrelationTestCase);
        AddTestCase(new DelayFunctionOfTimeTestCase);
        AddTestCase(new DelayStreamTestCase);
        AddTestCase(new DelayAttributeTestCase);
    }
};

/// The suite's static instance.
static WanDelayProcessTestSuite g_wanDelayProcessTestSuite;
