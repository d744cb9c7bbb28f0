/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/clique-schedule.h"
#include "ns3/test.h"
#include "ns3/wan-network-helper.h"
#include "ns3/wan-pim-join-propagation.h"
#include "ns3/wan-pim-state.h"
#include "ns3/wan-topology.h"

#include <deque>
#include <memory>
#include <set>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// The routers of a topology, each with its PIM state and RPF from the
/// topology's unicast paths; sources are named by their city's address.
struct PimNetwork
{
    const WanTopology& topo;                          //!< the topology
    std::vector<std::unique_ptr<WanPimState>> states; //!< per city
    std::vector<uint32_t> rpfOverride;                //!< per city: forced RPF (LOCAL: none)

    /// @return the address standing for city c's source
    static Ipv4Address SourceOf(uint32_t c)
    {
        return Ipv4Address(0x0a000000u + c);
    }

    explicit PimNetwork(const WanTopology& t)
        : topo(t),
          rpfOverride(t.GetNCities(), WanPimState::LOCAL)
    {
        for (uint32_t v = 0; v < t.GetNCities(); ++v)
        {
            states.push_back(std::make_unique<WanPimState>([this, v](Ipv4Address s) {
                const uint32_t source = s.Get() - 0x0a000000u;
                if (rpfOverride[v] != WanPimState::LOCAL)
                {
                    return rpfOverride[v];
                }
                // The next hop on v's unicast path to the source.
                return source == v ? WanPimState::LOCAL : topo.GetPath(v, source).at(1);
            }));
        }
    }

    /// Carries messages hop by hop until none is left; returns how many.
    uint32_t Deliver(uint32_t from, std::vector<WanPimState::Message> messages, double now)
    {
        std::deque<std::pair<uint32_t, WanPimState::Message>> queue;
        for (const auto& m : messages)
        {
            queue.emplace_back(from, m);
        }
        uint32_t n = 0;
        while (!queue.empty())
        {
            auto [sender, m] = queue.front();
            queue.pop_front();
            ++n;
            auto& to = *states.at(m.neighbour);
            for (const auto& next : m.join ? to.Join(m.source, m.group, sender, now)
                                           : to.Prune(m.source, m.group, sender, now))
            {
                queue.emplace_back(m.neighbour, next);
            }
        }
        return n;
    }

    /// The tree of (S,G) as the routers' state has it: (upstream, router) hops.
    std::set<WanHop> Tree(uint32_t source, Ipv4Address group) const
    {
        std::set<WanHop> hops;
        for (uint32_t v = 0; v < states.size(); ++v)
        {
            if (v != source && states[v]->HasState(SourceOf(source), group))
            {
                hops.insert({states[v]->GetUpstream(SourceOf(source), group), v});
            }
        }
        return hops;
    }
};

/// A line A-B-C-D... topology of n cities, 10 ms links.
WanTopology
Line(uint32_t n)
{
    std::vector<std::string> codes;
    std::vector<double> ms;
    for (uint32_t c = 0; c < n; ++c)
    {
        codes.push_back(std::string(1, static_cast<char>('A' + c)));
        if (c + 1 < n)
        {
            ms.push_back(10);
        }
    }
    return LineTopology(codes, ms);
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief Joins build a branch hop by hop, refreshes keep it, a leave prunes
 * it at once, and state without refresh (or whose neighbour stops its
 * Hellos) expires; a changed RPF neighbour gets a Join and the old a Prune.
 */
class PimStateTimersTestCase : public WanTestCase
{
  public:
    PimStateTimersTestCase()
        : WanTestCase("(S,G) joins, refresh, prune, expiry, neighbour loss and RPF change")
    {
    }

  private:
    void DoCheck() override
    {
        const auto topo = Line(3); // A - B - C, the source at A
        PimNetwork net(topo);
        const auto S = PimNetwork::SourceOf(0);
        const auto G = WanNetworkHelper::GroupAddress(0, 0);
        auto& a = *net.states[0];
        auto& b = *net.states[1];
        auto& c = *net.states[2];
        // C's island joins: C joins B, B joins A; A's source is local.
        NS_TEST_EXPECT_MSG_EQ(net.Deliver(2, c.Join(S, G, WanPimState::LOCAL, 0), 0),
                              2,
                              "two Joins: C to B, B to A");
        NS_TEST_EXPECT_MSG_EQ((c.GetOutgoing(S, G) == std::set<uint32_t>{WanPimState::LOCAL}),
                              true,
                              "C delivers to its edge");
        NS_TEST_EXPECT_MSG_EQ((b.GetOutgoing(S, G) == std::set<uint32_t>{2}), true, "B to C");
        NS_TEST_EXPECT_MSG_EQ((a.GetOutgoing(S, G) == std::set<uint32_t>{1}), true, "A to B");
        NS_TEST_EXPECT_MSG_EQ(b.GetUpstream(S, G), 0, "B's RPF neighbour is A");
        NS_TEST_EXPECT_MSG_EQ(a.GetUpstream(S, G), WanPimState::LOCAL, "S is A's");
        // A Join from the RPF neighbour is refused (it would make a loop).
        NS_TEST_EXPECT_MSG_EQ(b.Join(S, G, 0, 1).empty(), true, "no message");
        NS_TEST_EXPECT_MSG_EQ(b.GetOutgoing(S, G).count(0), 0, "and no interface to A");

        // Refresh: C joins again every 60 s; B and A keep their state.
        for (double t : {60.0, 120.0, 180.0, 240.0})
        {
            const auto due = c.Advance(t);
            NS_TEST_EXPECT_MSG_EQ(due.size(), 1, "C's periodic Join at " << t);
            net.Deliver(2, due, t);
            net.Deliver(1, b.Advance(t), t);
        }
        NS_TEST_EXPECT_MSG_EQ(a.HasState(S, G), true, "kept alive by refreshes");
        NS_TEST_EXPECT_MSG_EQ(c.GetNextEvent(), 300, "C's next Join");

        // Without C's refreshes B's interface to C lapses 210 s after the last
        // Join (240 s): B prunes itself off A.
        const auto held = b.Advance(449); // B's own periodic Join to A, no Prune
        NS_TEST_EXPECT_MSG_EQ((held.size() == 1 && held[0].join), true, "still held at 449 s");
        const auto pruned = b.Advance(450);
        NS_TEST_ASSERT_MSG_EQ(pruned.size(), 1, "B's Prune at 450 s");
        NS_TEST_EXPECT_MSG_EQ(pruned[0].join, false, "a Prune");
        net.Deliver(1, pruned, 450);
        NS_TEST_EXPECT_MSG_EQ(b.HasState(S, G) || a.HasState(S, G), false, "state expired");

        // A leave prunes the branch at once (point-to-point: no prune delay).
        net.Deliver(2, c.Prune(S, G, WanPimState::LOCAL, 500), 500); // C's old state goes
        net.Deliver(2, c.Join(S, G, WanPimState::LOCAL, 600), 600);
        NS_TEST_EXPECT_MSG_EQ(a.HasState(S, G), true, "joined again");
        NS_TEST_EXPECT_MSG_EQ(net.Deliver(2, c.Prune(S, G, WanPimState::LOCAL, 601), 601),
                              2,
                              "C prunes B, B prunes A");
        NS_TEST_EXPECT_MSG_EQ(a.GetNEntries() + b.GetNEntries() + c.GetNEntries(), 0, "all gone");

        // A neighbour whose Hellos stop loses its interfaces.
        net.Deliver(2, c.Join(S, G, WanPimState::LOCAL, 700), 700);
        b.Hello(2, 105, 700);
        const auto alive = b.Advance(804); // B's periodic Join to A, no Prune
        NS_TEST_EXPECT_MSG_EQ((alive.size() == 1 && alive[0].join), true, "C heard within 105 s");
        const auto lost = b.Advance(805);
        NS_TEST_EXPECT_MSG_EQ((lost.size() == 1 && !lost[0].join && lost[0].neighbour == 0),
                              true,
                              "C gone: B prunes itself off A");

        // The routes change under B: Join the new RPF neighbour, Prune the old.
        const auto topo4 = Line(4);
        PimNetwork four(topo4);
        auto& b4 = *four.states[1];
        four.Deliver(2, four.states[2]->Join(S, G, WanPimState::LOCAL, 0), 0);
        four.rpfOverride[1] = 3; // B now reaches A through D
        const auto moved = b4.RpfChanged(1);
        NS_TEST_ASSERT_MSG_EQ(moved.size(), 2, "a Join and a Prune");
        NS_TEST_EXPECT_MSG_EQ((moved[0].join && moved[0].neighbour == 3), true, "Join to D");
        NS_TEST_EXPECT_MSG_EQ((!moved[1].join && moved[1].neighbour == 0), true, "Prune to A");
        NS_TEST_EXPECT_MSG_EQ(b4.GetUpstream(S, G), 3, "D upstream");
        NS_TEST_EXPECT_MSG_EQ(b4.RpfChanged(2).empty(), true, "nothing when nothing changed");

        // A neighbour heard for the first time gets a Join at once for the
        // (S,G) it is upstream of; a known one does not; holdtime 0 is a goodbye.
        const auto greeted = b4.Hello(3, 105, 3);
        NS_TEST_EXPECT_MSG_EQ((greeted.size() == 1 && greeted[0].join && greeted[0].neighbour == 3),
                              true,
                              "a Join to the new neighbour D");
        NS_TEST_EXPECT_MSG_EQ(b4.Hello(3, 105, 4).empty(), true, "none to a known neighbour");
        NS_TEST_EXPECT_MSG_EQ(b4.IsNeighbour(3, 4), true, "D alive");
        NS_TEST_EXPECT_MSG_EQ(b4.Hello(3, 0, 5).empty(), true, "a goodbye sends nothing");
        NS_TEST_EXPECT_MSG_EQ(b4.IsNeighbour(3, 5), false, "D gone at once");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Trees built by joins (every receiver joins towards the source along
 * its unicast path) equal the planner's multicast trees, on the nine cities
 * (every source, the triangles' cliques and all-to-all) and on random WANs.
 */
class PimStateTreesTestCase : public WanTestCase
{
  public:
    PimStateTreesTestCase()
        : WanTestCase("trees built by joins equal the planner's on nine cities and random WANs")
    {
    }

  private:
    void Check(const WanTopology& topo,
               const std::vector<std::vector<uint32_t>>& cliques,
               const std::string& name)
    {
        PimNetwork net(topo);
        uint32_t round = 0;
        for (const auto& clique : cliques)
        {
            for (uint32_t source : clique)
            {
                const auto group = WanNetworkHelper::GroupAddress(round, source);
                for (uint32_t r : clique)
                {
                    if (r != source)
                    {
                        net.Deliver(r,
                                    net.states[r]->Join(PimNetwork::SourceOf(source),
                                                        group,
                                                        WanPimState::LOCAL,
                                                        0),
                                    0);
                    }
                }
                const auto planned = topo.GetMulticastTree(source, clique);
                NS_TEST_EXPECT_MSG_EQ(
                    (net.Tree(source, group) == std::set<WanHop>(planned.begin(), planned.end())),
                    true,
                    name << ": the tree of source " << source);
                // Every hop's parent forwards to its child (the RPF interfaces).
                for (const auto& [parent, child] : planned)
                {
                    NS_TEST_EXPECT_MSG_EQ(net.states[parent]
                                              ->GetOutgoing(PimNetwork::SourceOf(source), group)
                                              .count(child),
                                          1,
                                          name << ": " << parent << " forwards to " << child);
                }
            }
            ++round;
        }
    }

    void DoCheck() override
    {
        const auto nine = WanTopology::NineCity();
        Check(nine, TrianglesAndAll(nine), "nine cities");
        for (uint32_t seed : {1u, 2u, 3u})
        {
            const auto random = WanTopology::RandomGeometric(24, 4, seed);
            std::vector<uint32_t> everyone;
            for (uint32_t c = 0; c < random.GetNCities(); ++c)
            {
                everyone.push_back(c);
            }
            Check(random, {everyone, {0, 5, 11, 17, 23}}, "random seed " + std::to_string(seed));
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Triggered messages repeated until confirmed, by hand: with a 0.1 s
 * retry period, a triggered Join unconfirmed at 0.1 s goes again (and again
 * at 0.2 s), a confirmation of the other kind does not stop it, the right one
 * does; a Prune replaces the pending Join to the same neighbour; a periodic
 * Join is never repeated; a neighbour gone takes its pending messages; with
 * no retry period (RFC 7761 alone) nothing is repeated.
 */
class PimStateRetryTestCase : public WanTestCase
{
  public:
    PimStateRetryTestCase()
        : WanTestCase("triggered Joins and Prunes repeated until the upstream "
                      "confirms them")
    {
    }

  private:
    void DoCheck() override
    {
        const Ipv4Address s("10.0.0.1");
        const Ipv4Address g("232.0.0.1");
        const Ipv4Address g2("232.0.0.2");
        const uint32_t up = 7;
        WanPimState::Timers t;
        t.joinPeriod = 1;
        t.joinHoldtime = 3;
        t.retryPeriod = 0.1;
        WanPimState state([](Ipv4Address) { return 7u; }, t);
        state.Hello(up, 10, 0);
        auto out = state.Join(s, g, WanPimState::LOCAL, 0);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "the triggered Join");
        NS_TEST_EXPECT_MSG_EQ(state.GetNUnconfirmed(), 1, "awaiting its confirmation");
        NS_TEST_EXPECT_MSG_EQ_TOL(state.GetNextEvent(), 0.1, 1e-12, "due again at 0.1 s");
        NS_TEST_EXPECT_MSG_EQ(state.Advance(0.0999).size(), 0, "not before the retry period");
        out = state.Advance(0.1);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "sent again at 0.1 s");
        NS_TEST_EXPECT_MSG_EQ((out[0].join && out[0].neighbour == up && out[0].group == g),
                              true,
                              "the same Join to the same neighbour");
        NS_TEST_EXPECT_MSG_EQ(state.Confirm(s, g, up, false), false, "a Prune's ack does not");
        NS_TEST_EXPECT_MSG_EQ(state.Confirm(s, g2, up, true), false, "another group's does not");
        NS_TEST_EXPECT_MSG_EQ(state.Advance(0.2).size(), 1, "and again at 0.2 s");
        NS_TEST_EXPECT_MSG_EQ(state.GetRetries(), 2, "two retries");
        NS_TEST_EXPECT_MSG_EQ(state.Confirm(s, g, up, true), true, "confirmed");
        NS_TEST_EXPECT_MSG_EQ(state.Confirm(s, g, up, true), false, "once");
        NS_TEST_EXPECT_MSG_EQ(state.GetNUnconfirmed(), 0, "nothing pending");
        NS_TEST_EXPECT_MSG_EQ(state.Advance(0.5).size(), 0, "nothing repeated after it");
        out = state.Advance(1.0);
        NS_TEST_EXPECT_MSG_EQ(out.size(), 1, "the periodic Join at 1 s");
        NS_TEST_EXPECT_MSG_EQ(state.GetNUnconfirmed(), 0, "is not awaited");
        NS_TEST_EXPECT_MSG_EQ(state.Advance(1.1).size(), 0, "nor repeated");

        // A leave before the Join is confirmed: the Prune replaces it.
        state.Join(s, g2, WanPimState::LOCAL, 1.2);
        out = state.Prune(s, g2, WanPimState::LOCAL, 1.25);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "the triggered Prune");
        NS_TEST_EXPECT_MSG_EQ(out[0].join, false, "a Prune");
        NS_TEST_EXPECT_MSG_EQ(state.GetNUnconfirmed(), 1, "one message awaited, not two");
        NS_TEST_EXPECT_MSG_EQ(state.Confirm(s, g2, up, true), false, "the Join's ack is stale");
        out = state.Advance(1.35);
        NS_TEST_ASSERT_MSG_EQ(out.size(), 1, "the Prune again at 1.35 s");
        NS_TEST_EXPECT_MSG_EQ((!out[0].join && out[0].group == g2), true, "the Prune");
        // The neighbour goes: nobody is left to confirm it.
        state.Hello(up, 0, 1.4);
        state.Advance(1.4);
        NS_TEST_EXPECT_MSG_EQ(state.GetNUnconfirmed(), 0, "forgotten with the neighbour");
        NS_TEST_EXPECT_MSG_EQ(state.GetRetries(), 3, "three retries in all");

        // RFC 7761 alone: sent once.
        WanPimState once([](Ipv4Address) { return 7u; });
        once.Hello(up, 105, 0);
        NS_TEST_EXPECT_MSG_EQ(once.Join(s, g, WanPimState::LOCAL, 0).size(), 1, "sent");
        NS_TEST_EXPECT_MSG_EQ(once.GetNUnconfirmed(), 0, "not awaited");
        NS_TEST_EXPECT_MSG_EQ(once.Advance(59).size(), 0, "nothing until the periodic Join");
        NS_TEST_EXPECT_MSG_EQ(once.Advance(60).size(), 1, "the periodic Join at 60 s");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Groups outside SSM and impossible timers are refused.
 */
class PimStateBadInputTestCase : public WanTestCase
{
  public:
    PimStateBadInputTestCase()
        : WanTestCase("non-SSM groups and impossible timers refused")
    {
    }

  private:
    void DoCheck() override
    {
        WanPimState state([](Ipv4Address) { return WanPimState::LOCAL; });
        auto e = ErrorOf([&]() {
            state.Join(Ipv4Address("10.0.0.1"), Ipv4Address("239.1.1.1"), WanPimState::LOCAL, 0);
        });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "group outside 232.0.0.0/8"), true, e);
        WanPimState::Timers t;
        t.joinHoldtime = 30; // shorter than the 60 s period
        e = ErrorOf([&]() { WanPimState([](Ipv4Address) { return 0u; }, t); });
        NS_TEST_EXPECT_MSG_EQ(Mentions(e, "holdtimes at least that long"), true, e);
        for (double retry : {-0.1, 60.0})
        {
            WanPimState::Timers r;
            r.retryPeriod = retry;
            e = ErrorOf([&]() { WanPimState([](Ipv4Address) { return 0u; }, r); });
            NS_TEST_EXPECT_MSG_EQ(e,
                                  "PIM timers: the retry period of triggered messages must be 0 "
                                  "(off) or positive and shorter than the join period",
                                  retry);
        }
    }
};

/**
 * @ingroup wan-training-tests
 * @brief WanPimJoinPropagation, by hand on the triangle (A-B 10 ms, A-C
 * 20 ms, B-C 25 ms) when A-C breaks, for A's tree: C's RPF neighbour moves
 * from A to B.  With B a member, B has the state: C's Join reaches it after
 * 25 ms.  Without B, B must join A as well: 25 + 10 = 35 ms.  Routes that do
 * not change move nothing (0), and the Prune on the broken link is lost.
 */
class PimJoinPropagationTestCase : public WanTestCase
{
  public:
    PimJoinPropagationTestCase()
        : WanTestCase("Join propagation after a route change, by hand on a triangle")
    {
    }

  private:
    void DoCheck() override
    {
        const auto before = TriangleTopology();
        const auto after = before.WithoutLink("A", "C");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanPimJoinPropagation::Delay(before, after, 0, {0, 1, 2}),
                                  0.025,
                                  1e-12,
                                  "B has the state: C's Join stops there");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanPimJoinPropagation::Delay(before, after, 0, {0, 2}),
                                  0.035,
                                  1e-12,
                                  "B joins A in turn");
        NS_TEST_EXPECT_MSG_EQ_TOL(WanPimJoinPropagation::Delay(before, before, 0, {0, 1, 2}),
                                  0.0,
                                  1e-12,
                                  "no route changed");
        // B's tree: routes B-A and B-C do not use A-C, so nothing moves.
        NS_TEST_EXPECT_MSG_EQ_TOL(WanPimJoinPropagation::Delay(before, after, 1, {0, 1, 2}),
                                  0.0,
                                  1e-12,
                                  "B's tree does not use A-C");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The wan-training-pim-state test suite.
 */
class WanPimStateTestSuite : public TestSuite
{
  public:
    WanPimStateTestSuite()
        : TestSuite("wan-training-pim-state", Type::UNIT)
    {
        AddTestCase(new PimStateTimersTestCase);
        AddTestCase(new PimStateTreesTestCase);
        AddTestCase(new PimStateRetryTestCase);
        AddTestCase(new PimStateBadInputTestCase);
        AddTestCase(new PimJoinPropagationTestCase);
    }
};

/// The suite's instance.
static WanPimStateTestSuite g_wanPimStateTestSuite;
