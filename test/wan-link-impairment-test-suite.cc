/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-experiment-helper.h"
#include "ns3/clique-schedule-builtins.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/test.h"
#include "ns3/wan-link-impairment.h"
#include "ns3/wan-network-helper.h"

#include <cmath>
#include <string>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

/**
 * @ingroup wan-training-tests
 * @brief Loss models: the long-run loss fraction, and bursts of the asked length.
 */
class ImpairmentLossTestCase : public WanTestCase
{
  public:
    ImpairmentLossTestCase()
        : WanTestCase("loss: uniform and bursty models lose the asked fraction")
    {
    }

  private:
    /// Runs n packets through a model; returns (lost fraction, mean burst length).
    static std::pair<double, double> Measure(const WanLinkImpairment& imp, uint32_t n)
    {
        auto model = imp.MakeErrorModel();
        if (auto rate = DynamicCast<RateErrorModel>(model))
        {
            rate->AssignStreams(7);
        }
        if (auto burst = DynamicCast<BurstErrorModel>(model))
        {
            burst->AssignStreams(7);
        }
        uint32_t lost = 0;
        uint32_t bursts = 0;
        bool previous = false;
        for (uint32_t k = 0; k < n; ++k)
        {
            auto p = Create<Packet>(1000);
            bool corrupt = model->IsCorrupt(p);
            lost += corrupt ? 1 : 0;
            bursts += (corrupt && !previous) ? 1 : 0;
            previous = corrupt;
        }
        return {double(lost) / n, bursts > 0 ? double(lost) / bursts : 0};
    }

    void DoCheck() override
    {
        WanLinkImpairment none;
        NS_TEST_EXPECT_MSG_EQ(none.HasLoss(), false, "no loss by default");
        NS_TEST_EXPECT_MSG_EQ(none.MakeErrorModel(), nullptr, "no model");

        WanLinkImpairment uniform;
        uniform.lossRate = 0.01;
        auto [f1, b1] = Measure(uniform, 200000);
        // 2000 expected losses: 3 standard deviations are 0.067%.
        NS_TEST_EXPECT_MSG_EQ_TOL(f1, 0.01, 0.0007, "1% uniform");
        NS_TEST_EXPECT_MSG_LT(b1, 1.05, "independent losses rarely touch");

        WanLinkImpairment bursty;
        bursty.lossRate = 0.05;
        bursty.burstLength = 4;
        auto [f2, b2] = Measure(bursty, 200000);
        NS_TEST_EXPECT_MSG_EQ_TOL(f2, 0.05, 0.003, "5% in bursts");
        NS_TEST_EXPECT_MSG_EQ_TOL(b2, 4, 0.25, "bursts of 4 packets");

        // High loss in long bursts, where the burst start rate matters: ns-3's
        // BurstErrorModel draws at every packet and a draw below p (re)starts a
        // burst of L, so a packet is lost unless the last L draws all missed:
        // loss = 1 - (1 - p)^L.  At 30% and L = 4, p = 1 - 0.7^(1/4) = 0.0853;
        // p = 0.3 / 4 would lose 26.8%, and the p of bursts that cannot overlap,
        // p L / (1 + p (L - 1)) = 0.3, would lose 33.4%.  Losses of packets less than
        // L apart are correlated: with q = 1 - p, the variance per packet is
        // 0.3 x 0.7 + 2 sum_{d=1..3} (q^(4+d) - 0.7^2) = 0.793, so over 200000
        // packets sigma = sqrt(0.793 / 200000) = 0.0020; the tolerance is 3 sigma.
        WanLinkImpairment heavy;
        heavy.lossRate = 0.3;
        heavy.burstLength = 4;
        double f3 = Measure(heavy, 200000).first;
        NS_TEST_EXPECT_MSG_EQ_TOL(f3, 0.3, 0.006, "30% in bursts of 4");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Jitter distributions have the asked standard deviation.
 */
class ImpairmentJitterTestCase : public WanTestCase
{
  public:
    ImpairmentJitterTestCase()
        : WanTestCase("jitter: exponential, uniform and normal with the asked spread")
    {
    }

  private:
    void DoCheck() override
    {
        struct Case
        {
            const char* distribution;
            double mean;   //!< in units of the standard deviation
            double spread; //!< likewise
        };

        // The normal is truncated at 3 sd on both sides: its spread is 0.9866 sd.
        for (const auto& c : {Case{"exponential", 1, 1},
                              Case{"uniform", std::sqrt(3.0), 1},
                              Case{"normal", 3, 0.9866}})
        {
            WanLinkImpairment imp;
            imp.jitterSeconds = 2e-3;
            imp.jitterDistribution = c.distribution;
            imp.Validate("test");
            NS_TEST_EXPECT_MSG_EQ(imp.HasJitter(), true, "jitter");
            auto x = imp.MakeJitter();
            x->SetStream(3);
            const uint32_t n = 100000;
            double sum = 0;
            double sq = 0;
            double lo = 1;
            for (uint32_t k = 0; k < n; ++k)
            {
                double v = x->GetValue();
                sum += v;
                sq += v * v;
                lo = std::min(lo, v);
            }
            double mean = sum / n;
            double sd = std::sqrt(sq / n - mean * mean);
            NS_TEST_EXPECT_MSG_EQ_TOL(mean, c.mean * 2e-3, 0.02 * 2e-3, c.distribution);
            NS_TEST_EXPECT_MSG_EQ_TOL(sd, c.spread * 2e-3, 0.02 * 2e-3, c.distribution);
            NS_TEST_EXPECT_MSG_GT_OR_EQ(lo, 0, "never negative");
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Bad loss and jitter settings are refused, naming the link.
 */
class ImpairmentBadInputTestCase : public WanTestCase
{
  public:
    ImpairmentBadInputTestCase()
        : WanTestCase("impossible loss and jitter settings")
    {
    }

  private:
    void DoCheck() override
    {
        auto check = [](const WanLinkImpairment& imp) {
            return ErrorOf([&imp]() { imp.Validate("core links"); });
        };
        WanLinkImpairment a;
        a.lossRate = 1.5;
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(check(a), "core links: loss rate must be from 0 to less than 1 (got 1.5)"),
            true,
            "loss above 1");
        a.lossRate = 1;
        NS_TEST_EXPECT_MSG_EQ(Mentions(check(a), "loss rate must be from 0 to less than 1 (got 1)"),
                              true,
                              "a link that loses everything");
        a.lossRate = -0.1;
        NS_TEST_EXPECT_MSG_EQ(Mentions(check(a), "loss rate must be from 0 to less than 1"),
                              true,
                              "negative");
        a.lossRate = 0.999;
        NS_TEST_EXPECT_MSG_EQ(check(a), "", "just below 1 is allowed");
        WanLinkImpairment b;
        b.jitterSeconds = -1e-3;
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(check(b), "core links: jitter must be from 0 to 1000 ms (got -1 ms)"),
            true,
            "negative jitter");
        b.jitterSeconds = 1.001;
        NS_TEST_EXPECT_MSG_EQ(Mentions(check(b), "jitter must be from 0 to 1000 ms (got 1001 ms)"),
                              true,
                              "jitter above a second");
        b.jitterSeconds = 1;
        NS_TEST_EXPECT_MSG_EQ(check(b), "", "a second of jitter is allowed");
        WanLinkImpairment c;
        c.burstLength = 0.5;
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(check(c),
                     "loss burst length must be from 1 to 1000 packets (got 0.5 packets)"),
            true,
            "burst");
        c.burstLength = 1001;
        NS_TEST_EXPECT_MSG_EQ(Mentions(check(c), "from 1 to 1000 packets (got 1001 packets)"),
                              true,
                              "burst too long");
        WanLinkImpairment d;
        d.jitterDistribution = "pareto";
        NS_TEST_EXPECT_MSG_EQ(Mentions(check(d), "unknown jitter distribution \"pareto\""),
                              true,
                              "distribution");

        // Jitter model, correlation time (s), reorder: the error, or "" when valid.
        struct ModelCase
        {
            std::string model;
            double tau;
            bool reorder;
            std::string error;
        };

        for (const auto& c : std::vector<ModelCase>{
                 {"fractal",
                  0.01,
                  false,
                  "core links: unknown jitter model \"fractal\" (expected correlated or "
                  "independent)"},
                 {"correlated",
                  0,
                  false,
                  "core links: jitter correlation time must be from 0.001 to 1e+06 ms (got 0 ms)"},
                 {"correlated", 1001, false, "must be from 0.001 to 1e+06 ms (got 1.001e+06 ms)"},
                 {"correlated", 1000, false, ""},
                 {"correlated",
                  0.01,
                  true,
                  "core links: reorder needs the independent jitter model"},
                 {"independent", 0.01, true, ""}})
        {
            WanLinkImpairment m;
            m.jitterModel = c.model;
            m.jitterCorrelationSeconds = c.tau;
            m.reorder = c.reorder;
            const auto error = check(m);
            NS_TEST_EXPECT_MSG_EQ((c.error.empty() ? error.empty() : Mentions(error, c.error)),
                                  true,
                                  c.model << ", " << c.tau << " s, reorder " << c.reorder << ": "
                                          << error);
        }

        auto topo = WanTopology::NineCity();
        WanNetworkHelper net(topo);
        WanLinkImpairment jitter;
        jitter.jitterSeconds = 1e-3;
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(
                ErrorOf([&]() { net.SetImpairment(WanNetworkHelper::POST_AGGREGATION, jitter); }),
                "set it on access links"),
            true,
            "jitter after the FPGA");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { net.SetLinkImpairment("NYC", "TYO", jitter); }),
                     "no link between NYC and TYO"),
            true,
            "impairing a link that does not exist");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { net.SetLinkImpairment("NYC", "XXX", jitter); }), "XXX"),
            true,
            "unknown city");
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([]() { WanNetworkHelper::ParseLinkClass("satellite"); }),
                     "unknown link class \"satellite\""),
            true,
            "unknown link class");

        // In a topology file.
        std::string text = R"({"cities": [{"code": "A"}, {"code": "B"}],
            "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100,
                       "loss_rate": 2}]})";
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { WanTopology::FromJson(text); }),
                                       "link A-B: loss_rate must be from 0 to less than 1 (got 2)"),
                              true,
                              "bad loss in a file");
        std::string good = R"({"cities": [{"code": "A"}, {"code": "B"}],
            "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100,
                       "loss_rate": 0.01, "loss_burst": 3, "jitter_ms": 2,
                       "jitter_distribution": "uniform", "jitter_model": "independent",
                       "reorder": true}]})";
        auto t = WanTopology::FromJson(good);
        const auto& link = t.GetLinks().at(0);
        NS_TEST_EXPECT_MSG_EQ(
            link.impairmentFields,
            uint32_t{WanLinkImpairment::LOSS_RATE | WanLinkImpairment::LOSS_BURST |
                     WanLinkImpairment::JITTER | WanLinkImpairment::JITTER_DISTRIBUTION |
                     WanLinkImpairment::JITTER_MODEL | WanLinkImpairment::REORDER},
            "the fields the file names");
        NS_TEST_EXPECT_MSG_EQ(link.impairment.lossRate, 0.01, "loss");
        NS_TEST_EXPECT_MSG_EQ(link.impairment.burstLength, 3, "burst");
        NS_TEST_EXPECT_MSG_EQ_TOL(link.impairment.jitterSeconds, 2e-3, 1e-15, "jitter");
        NS_TEST_EXPECT_MSG_EQ(link.impairment.jitterDistribution, "uniform", "distribution");
        NS_TEST_EXPECT_MSG_EQ(link.impairment.reorder, true, "reorder");
        NS_TEST_EXPECT_MSG_EQ(link.impairment.jitterModel, "independent", "model");
        auto back = WanTopology::FromJson(t.ToJson());
        NS_TEST_EXPECT_MSG_EQ(back.GetLinks().at(0).impairment.burstLength, 3, "round trip");
        NS_TEST_EXPECT_MSG_EQ(back.GetLinks().at(0).impairment.jitterModel,
                              "independent",
                              "model round trip");
        // The correlated model by default, with its correlation time.
        std::string correlated = R"({"cities": [{"code": "A"}, {"code": "B"}],
            "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100,
                       "jitter_ms": 1, "jitter_correlation_ms": 250}]})";
        const auto c1 = WanTopology::FromJson(correlated).GetLinks().at(0).impairment;
        NS_TEST_EXPECT_MSG_EQ(c1.jitterModel, "correlated", "correlated by default");
        NS_TEST_EXPECT_MSG_EQ_TOL(c1.jitterCorrelationSeconds, 0.25, 1e-15, "correlation time");
        const auto c2 = WanTopology::FromJson(WanTopology::FromJson(correlated).ToJson())
                            .GetLinks()
                            .at(0)
                            .impairment;
        NS_TEST_EXPECT_MSG_EQ_TOL(c2.jitterCorrelationSeconds, 0.25, 1e-15, "written back");
        // Reorder without a model: the core class's model completes the
        // link, so the network refuses it with the correlated one and takes
        // it with the independent one.
        std::string loose = R"({"cities": [{"code": "A"}, {"code": "B"}],
            "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100,
                       "jitter_ms": 1, "reorder": true}]})";
        const auto looseTopo = WanTopology::FromJson(loose);
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() {
                                           WanNetworkHelper network(looseTopo);
                                           network.Install();
                                       }),
                                       "link A-B: reorder needs the independent jitter model"),
                              true,
                              "reorder with the core class's correlated model");
        WanLinkImpairment independent;
        independent.jitterModel = "independent";
        NS_TEST_EXPECT_MSG_EQ(ErrorOf([&]() {
                                  WanNetworkHelper network(looseTopo);
                                  network.SetImpairment(WanNetworkHelper::CORE, independent);
                                  network.Install();
                              }),
                              "",
                              "reorder with the core class's independent model");
        Simulator::Destroy();

        // A city's access links and post-aggregation hop.
        std::string cities = R"({"cities": [{"code": "A", "access": {"loss_rate": 0.02,
                                  "jitter_ms": 1}, "post": {"loss_rate": 0.03}},
                                 {"code": "B"}],
            "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100}]})";
        auto withCities = WanTopology::FromJson(cities);
        const auto& a0 = withCities.GetCity(0);
        NS_TEST_EXPECT_MSG_EQ(a0.accessFields,
                              uint32_t{WanLinkImpairment::LOSS_RATE | WanLinkImpairment::JITTER},
                              "access from the file");
        NS_TEST_EXPECT_MSG_EQ(a0.access.lossRate, 0.02, "access loss");
        NS_TEST_EXPECT_MSG_EQ_TOL(a0.access.jitterSeconds, 1e-3, 1e-15, "access jitter");
        NS_TEST_EXPECT_MSG_EQ(a0.postFields,
                              uint32_t{WanLinkImpairment::LOSS_RATE},
                              "post from the file");
        NS_TEST_EXPECT_MSG_EQ(a0.post.lossRate, 0.03, "post loss");
        NS_TEST_EXPECT_MSG_EQ(withCities.GetCity(1).accessFields, 0U, "B untouched");
        auto citiesBack = WanTopology::FromJson(withCities.ToJson());
        NS_TEST_EXPECT_MSG_EQ(citiesBack.GetCity(0).post.lossRate, 0.03, "round trip");
        std::string postJitter = R"({"cities": [{"code": "A", "post": {"jitter_ms": 1}},
                                     {"code": "B"}],
            "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100}]})";
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(ErrorOf([&]() { WanTopology::FromJson(postJitter); }), "city A post: jitter"),
            true,
            "jitter after the FPGA in a file");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A link's own impairment field replaces only that field: the others
 * stay its class's.  By hand: Over and Describe, a file's named fields written
 * back alone; at packet level, the nine cities with "jitter_ms": 0 on every
 * core link keep the core class's 1% loss (the whole class replaced, as when
 * every field is named, they lose nothing).
 */
class ImpairmentOwnFieldsTestCase : public WanTestCase
{
  public:
    ImpairmentOwnFieldsTestCase()
        : WanTestCase("a link's own impairment fields replace only those fields of its class")
    {
    }

  private:
    void DoCheck() override
    {
        WanLinkImpairment base;
        base.lossRate = 0.01;
        base.burstLength = 4;
        base.jitterSeconds = 2e-3;
        WanLinkImpairment own;
        own.jitterSeconds = 0;
        own.lossRate = 0.5; // not named below: ignored
        const auto merged = own.Over(base, WanLinkImpairment::JITTER);
        NS_TEST_EXPECT_MSG_EQ(merged.lossRate, 0.01, "loss from the class");
        NS_TEST_EXPECT_MSG_EQ(merged.burstLength, 4, "burst from the class");
        NS_TEST_EXPECT_MSG_EQ(merged.jitterSeconds, 0, "jitter of its own");
        const auto all = own.Over(base, WanLinkImpairment::ALL_FIELDS);
        NS_TEST_EXPECT_MSG_EQ(all.lossRate, 0.5, "every field its own");
        NS_TEST_EXPECT_MSG_EQ(all.burstLength, 1, "every field its own (burst)");
        NS_TEST_EXPECT_MSG_EQ(own.Describe(WanLinkImpairment::JITTER), "jitter 0 ms", "text");
        NS_TEST_EXPECT_MSG_EQ(
            base.Describe(WanLinkImpairment::LOSS_RATE | WanLinkImpairment::LOSS_BURST),
            "loss 1%, loss burst 4 packets",
            "text of two fields");

        // A file that names only the jitter: the loss stays the class's.
        std::string jitterOnly = R"({"cities": [{"code": "A"}, {"code": "B"}],
            "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100,
                       "jitter_ms": 0}]})";
        const auto topo = WanTopology::FromJson(jitterOnly);
        NS_TEST_EXPECT_MSG_EQ(topo.GetLinks().at(0).impairmentFields,
                              uint32_t{WanLinkImpairment::JITTER},
                              "only the jitter named");
        NS_TEST_EXPECT_MSG_EQ(topo.DescribeOwnImpairments().size(), 1, "one line");
        NS_TEST_EXPECT_MSG_EQ(topo.DescribeOwnImpairments().at(0),
                              "link A-B: jitter 0 ms (the rest: core)",
                              "which link and what");
        const auto back = WanTopology::FromJson(topo.ToJson());
        NS_TEST_EXPECT_MSG_EQ(back.GetLinks().at(0).impairmentFields,
                              uint32_t{WanLinkImpairment::JITTER},
                              "written back with the jitter alone");
        NS_TEST_EXPECT_MSG_EQ(WanTopology::NineCity().DescribeOwnImpairments().size(),
                              0,
                              "none of their own");

        // Packet level: every core link names its jitter (0 ms), the core
        // class loses 1% of packets.
        auto run = [](uint32_t fields) {
            auto nine = WanTopology::NineCity();
            WanLinkImpairment noJitter;
            const auto links = nine.GetLinks(); // a copy: the loop changes the topology
            for (const auto& l : links)
            {
                nine.SetLinkImpairment(nine.GetCity(l.a).code,
                                       nine.GetCity(l.b).code,
                                       noJitter,
                                       fields);
            }
            CliqueExperimentHelper experiment(nine, PlannerConfig{});
            experiment.SetScale(1000);
            experiment.SetRounds(1);
            WanLinkImpairment loss;
            loss.lossRate = 0.01;
            experiment.SetImpairment(WanNetworkHelper::CORE, loss);
            return experiment.Run(CliqueScheduleBuiltins::Triangles(nine)).lostPackets.at("core");
        };
        NS_TEST_EXPECT_MSG_GT(run(WanLinkImpairment::JITTER), 0, "the class's loss kept");
        NS_TEST_EXPECT_MSG_EQ(run(WanLinkImpairment::ALL_FIELDS),
                              0,
                              "every field named: the link's own, lossless");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Packet level: jitter on the core delays rounds but loses nothing;
 * loss on the core is counted.
 */
class ImpairmentPacketLevelTestCase : public WanTestCase
{
  public:
    ImpairmentPacketLevelTestCase()
        : WanTestCase("packet level: core jitter inflates rounds, sums stay exact; losses counted")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        PlannerConfig config;
        config.hbmBytes = 32e9;
        auto schedule = CliqueScheduleBuiltins::Triangles(topo);

        CliqueExperimentHelper clean(topo, config);
        clean.SetScale(1000);
        auto base = clean.Run(schedule);
        NS_TEST_ASSERT_MSG_EQ(base.exact, true, "lossless run exact");
        NS_TEST_EXPECT_MSG_EQ(base.lostPackets.at("core"), 0, "nothing lost");

        WanLinkImpairment jitter;
        jitter.jitterSeconds = 1e-3;
        std::vector<double> measured;
        for (int run = 0; run < 2; ++run)
        {
            CliqueExperimentHelper jittery(topo, config);
            jittery.SetScale(1000);
            jittery.SetImpairment(WanNetworkHelper::CORE, jitter);
            auto r = jittery.Run(schedule);
            NS_TEST_EXPECT_MSG_EQ(r.exact, true, "jitter loses nothing");
            measured.push_back(r.rounds.at(0).measuredMs);
            // Every packet crosses at least one core link, each adding 1 ms on
            // average (FIFO order only adds to it).
            for (size_t k = 0; k < r.rounds.size(); ++k)
            {
                NS_TEST_EXPECT_MSG_GT(r.rounds[k].measuredMs,
                                      base.rounds[k].measuredMs + 1,
                                      "round " << k + 1 << " takes longer");
            }
        }
        NS_TEST_EXPECT_MSG_EQ(measured[0], measured[1], "same streams, same run");

        WanLinkImpairment loss;
        loss.lossRate = 0.01;
        CliqueExperimentHelper lossy(topo, config);
        lossy.SetScale(1000);
        lossy.SetRounds(1);
        lossy.SetImpairment(WanNetworkHelper::CORE, loss);
        auto r = lossy.Run(schedule);
        NS_TEST_EXPECT_MSG_GT(r.lostPackets.at("core"), 0, "core losses counted");
        NS_TEST_EXPECT_MSG_EQ(r.lostPackets.at("access"), 0, "no access losses");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Loss on every link with re-requests: nothing lost, nothing counted
 * twice, for each of the four schedules; with "accept" the gaps are counted.
 */
class ImpairmentRecoveryTestCase : public WanTestCase
{
  public:
    ImpairmentRecoveryTestCase()
        : WanTestCase("1% loss everywhere: re-requests give exact sums on all four schedules")
    {
    }

  private:
    void DoCheck() override
    {
        auto topo = WanTopology::NineCity();
        WanLinkImpairment loss;
        loss.lossRate = 0.01;
        for (const auto& name : CliqueScheduleBuiltins::Names())
        {
            PlannerConfig config;
            config.hbmBytes = name == "all-to-all" ? 32e9 : 0;
            CliqueExperimentHelper experiment(topo, config);
            experiment.SetScale(1000);
            experiment.SetRecovery("rerequest");
            for (auto c : {WanNetworkHelper::CORE,
                           WanNetworkHelper::ACCESS,
                           WanNetworkHelper::POST_AGGREGATION})
            {
                experiment.SetImpairment(c, loss);
            }
            auto r = experiment.Run(CliqueScheduleBuiltins::Make(name, topo));
            NS_TEST_EXPECT_MSG_GT(r.lostPackets.at("core") + r.lostPackets.at("access") +
                                      r.lostPackets.at("post"),
                                  0,
                                  name << ": packets were lost");
            uint64_t requested = 0;
            for (const auto& round : r.rounds)
            {
                for (const auto& i : round.islands)
                {
                    // Exact: every peer's contribution once, with the exact sum.
                    NS_TEST_EXPECT_MSG_EQ(i.exact, true, name << " island " << i.city);
                    NS_TEST_EXPECT_MSG_EQ(i.delivered, i.expected, "all delivered");
                    NS_TEST_EXPECT_MSG_EQ(i.givenUp, 0, "none given up");
                    NS_TEST_EXPECT_MSG_EQ(i.recovered, i.requested, "every request answered");
                    NS_TEST_EXPECT_MSG_LT_OR_EQ(i.requestedChunks.size(),
                                                i.requested,
                                                "chunks named in the record");
                    NS_TEST_EXPECT_MSG_EQ(i.givenUpChunks.empty(), true, "no chunk given up");
                    requested += i.requested;
                }
                NS_TEST_EXPECT_MSG_GT(round.measuredMs, round.plannedMs, "repairs take time");
            }
            NS_TEST_EXPECT_MSG_GT(requested, 0, name << ": contributions re-requested");
            NS_TEST_EXPECT_MSG_EQ(r.exact, true, name << ": every sum exact");
        }

        // Accepting the gaps: what is missing is given up, and counted.
        PlannerConfig config;
        CliqueExperimentHelper experiment(topo, config);
        experiment.SetScale(1000);
        experiment.SetRecovery("accept");
        experiment.SetImpairment(WanNetworkHelper::CORE, loss);
        auto r = experiment.Run(CliqueScheduleBuiltins::Triangles(topo));
        uint64_t givenUp = 0;
        for (const auto& round : r.rounds)
        {
            for (const auto& i : round.islands)
            {
                NS_TEST_EXPECT_MSG_EQ(i.delivered + i.givenUp, i.expected, "each counted once");
                NS_TEST_EXPECT_MSG_EQ(i.requested, 0, "nothing re-requested");
                NS_TEST_EXPECT_MSG_LT_OR_EQ(i.givenUpChunks.size(), i.givenUp, "chunks named");
                NS_TEST_EXPECT_MSG_EQ(i.givenUpChunks.empty(), (i.givenUp == 0), "one per gap");
                givenUp += i.givenUp;
            }
        }
        NS_TEST_EXPECT_MSG_GT(givenUp, 0, "gaps accepted");
        NS_TEST_EXPECT_MSG_EQ(r.exact, false, "sums lack the lost contributions");

        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { experiment.SetRecovery("pray"); }),
                                       "unknown recovery policy \"pray\""),
                              true,
                              "unknown policy");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The coded policies on the nine cities at 1% loss on every link:
 * parity is sent and counted, it rebuilds contributions, and what it cannot
 * rebuild is repaired: every sum exact.  Bad policies and layouts are refused.
 */
class ImpairmentCodedTestCase : public WanTestCase
{
  public:
    ImpairmentCodedTestCase()
        : WanTestCase("coded policies: parity rebuilds, the rest is repaired, sums exact")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = WanTopology::NineCity();
        WanLinkImpairment loss;
        loss.lossRate = 0.01;
        for (const std::string policy : {"coded", "coded+early"})
        {
            PlannerConfig config;
            config.hbmBytes = 32e9;
            CliqueExperimentHelper experiment(topo, config);
            experiment.SetScale(1000);
            experiment.SetRounds(1);
            experiment.SetRecovery(policy);
            for (auto c : {WanNetworkHelper::CORE,
                           WanNetworkHelper::ACCESS,
                           WanNetworkHelper::POST_AGGREGATION})
            {
                experiment.SetImpairment(c, loss);
            }
            const auto r = experiment.Run(CliqueScheduleBuiltins::Make("all-to-all", topo));
            uint64_t rebuilt = 0;
            for (const auto& i : r.rounds.at(0).islands)
            {
                // 112 chunks: 4 blocks of at most 32, one parity each, one
                // multicast copy.
                NS_TEST_EXPECT_MSG_EQ(i.paritySent, 4, policy << " island " << i.city);
                NS_TEST_EXPECT_MSG_EQ(i.exact, true, policy << " island " << i.city);
                NS_TEST_EXPECT_MSG_EQ(i.givenUp, 0, "none given up");
                rebuilt += i.rebuilt;
            }
            NS_TEST_EXPECT_MSG_GT(rebuilt, 0, policy << ": contributions rebuilt from parity");
            NS_TEST_EXPECT_MSG_EQ(r.exact, true, policy << ": every sum exact");
        }

        PlannerConfig config;
        CliqueExperimentHelper experiment(topo, config);
        auto e = ErrorOf([&]() { experiment.SetRecovery("coded+late"); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e,
                                       "unknown recovery policy \"coded+late\" (expected accept "
                                       "or rerequest or early or coded or coded+early or best)"),
                              true,
                              e);
        e = ErrorOf([&]() { experiment.SetParity(4, 5); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "5 parity chunks per block of 4, need 1 to 4"), true, e);
        e = ErrorOf([&]() { experiment.SetParity(0, 1); });
        NS_TEST_EXPECT_MSG_EQ(
            Mentions(e, "parity block must be from 1 to 255 chunks (got 0 chunks)"),
            true,
            e);
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The link impairment test suite.
 */
class WanLinkImpairmentTestSuite : public TestSuite
{
  public:
    WanLinkImpairmentTestSuite()
        : TestSuite("wan-training-impairment", Type::UNIT)
    {
        AddTestCase(new ImpairmentLossTestCase);
        AddTestCase(new ImpairmentJitterTestCase);
        AddTestCase(new ImpairmentBadInputTestCase);
        AddTestCase(new ImpairmentOwnFieldsTestCase);
        AddTestCase(new ImpairmentPacketLevelTestCase);
        AddTestCase(new ImpairmentRecoveryTestCase);
        AddTestCase(new ImpairmentCodedTestCase);
    }
};

/// The suite's static instance.
static WanLinkImpairmentTestSuite g_wanLinkImpairmentTestSuite;
