/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-line-clique-fixture.h"
#include "wan-training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/test.h"

#include <stdexcept>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

/// The line's options for early repair: a deadline far off, the plan's arrivals.
LineCliqueOptions
EarlyOptions()
{
    LineCliqueOptions o;
    o.deadline = Seconds(0.8);
    o.peerIslands = true;
    o.arrivals = true;
    o.recovery = "early";
    return o;
}

/**
 * @param times where REPAIR send times go
 * @param p a packet an island sent
 */
void
RecordRepair(std::vector<double>* times, Ptr<const Packet> p)
{
    WanChunkHeader h;
    p->PeekHeader(h);
    if (h.GetKind() == WanChunkHeader::REPAIR)
    {
        times->push_back(Simulator::Now().GetSeconds());
    }
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The last MERGED packet is lost on the hop into B: no later packet
 * shows the gap, yet the plan says when it was due.  B QUERYs its FPGA, whose
 * answer (behind every MERGED packet it sent) exposes the gap, and the NACK
 * brings it back: exact, from the nearest holder, long before the deadline.
 */
class EarlyTailTestCase : public WanTestCase
{
  public:
    EarlyTailTestCase()
        : WanTestCase("a lost tail MERGED packet is repaired by the FPGA before the deadline")
    {
    }

  private:
    void DoCheck() override
    {
        auto o = EarlyOptions();
        o.dropsAtB = {99};
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, "all in");
        NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
        NS_TEST_EXPECT_MSG_EQ(rec.retransmissions, 1, "the FPGA resent it");
        NS_TEST_EXPECT_MSG_EQ(rec.requested, 0, "no sender was asked");
        NS_TEST_EXPECT_MSG_EQ(rec.givenUp + rec.late, 0, "nothing given up or late");
        NS_TEST_EXPECT_MSG_EQ(run.fpgas[1]->GetQueries(), 1, "one QUERY");
        const double took = (rec.completion - rec.start).GetSeconds();
        NS_TEST_EXPECT_MSG_LT(took, run.plan.roundTime + 0.01, "within 10 ms of the planned T");
        NS_TEST_EXPECT_MSG_LT(took, 0.8, "before the deadline");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Without FPGAs, C's first DATA chunk into B is lost: C's chunk
 * ReorderWindow places later reveals it, B asks C once and the round ends
 * within a round trip of its planned T (the line's T, 31 ms, is shorter than
 * the 40 ms round trip to C).
 */
class EarlyRevealTestCase : public WanTestCase
{
  public:
    EarlyRevealTestCase()
        : WanTestCase("without FPGAs a lost chunk is asked for once its sender's later chunks come")
    {
    }

  private:
    void DoCheck() override
    {
        auto o = EarlyOptions();
        o.aggregation = false;
        o.dropsAtB = {100};
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, "all in");
        NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
        NS_TEST_EXPECT_MSG_EQ(rec.requested, 1, "one contribution asked for");
        NS_TEST_EXPECT_MSG_EQ(rec.requests, 1, "once");
        NS_TEST_EXPECT_MSG_EQ(rec.recovered, 1, "");
        NS_TEST_EXPECT_MSG_EQ(rec.discarded, 0, "no duplicate");
        const double took = (rec.completion - rec.start).GetSeconds();
        // Asked for when C's chunk 3 came, answered a 40 ms round trip later.
        NS_TEST_EXPECT_MSG_LT(took, run.plan.roundTime + 0.04, "within a round trip of T");
        NS_TEST_EXPECT_MSG_LT(took, 0.8, "long before the deadline");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A DATA chunk from the WAN is lost before B's FPGA, which holds HBM:
 * the FPGA asks the sender itself and sums the repair, so B gets whole sums
 * and asks nobody; without in-network repair B recovers it end to end.
 */
class InNetworkRepairTestCase : public WanTestCase
{
  public:
    InNetworkRepairTestCase()
        : WanTestCase("the FPGA asks the sender for a lost contribution and sums the repair")
    {
    }

  private:
    void DoCheck() override
    {
        auto o = EarlyOptions();
        o.dropsAtEdgeB = {50};
        {
            LineClique run(o);
            const auto rec = run.islands[1]->GetRecord(0);
            NS_TEST_EXPECT_MSG_EQ(run.edgeDrops->m_dropped, 1, "one DATA chunk lost");
            NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
            NS_TEST_EXPECT_MSG_EQ(rec.delivered, 200, "");
            NS_TEST_EXPECT_MSG_EQ(rec.partialSums, 0, "whole sums only");
            NS_TEST_EXPECT_MSG_EQ(rec.requested, 0, "the island asked nobody");
            NS_TEST_EXPECT_MSG_EQ(run.fpgas[1]->GetRepairRequests(), 1, "the FPGA asked once");
            NS_TEST_EXPECT_MSG_EQ(run.fpgas[1]->GetRepairsIn(), 1, "and summed the repair");
            const uint32_t sent =
                run.islands[0]->GetRecord(0).repairsSent + run.islands[2]->GetRecord(0).repairsSent;
            NS_TEST_EXPECT_MSG_EQ(sent, 1, "one REPAIR on the wire");
            NS_TEST_EXPECT_MSG_LT((rec.completion - rec.start).GetSeconds(),
                                  run.plan.roundTime + 0.04,
                                  "within a round trip of T");
        }
        o.beforeRun = [](LineClique& line) {
            for (const auto& fpga : line.fpgas)
            {
                fpga->SetAttribute("RepairInNetwork", BooleanValue(false));
            }
        };
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact end to end");
        NS_TEST_EXPECT_MSG_EQ(rec.partialSums, 1, "the FPGA released the chunk as it was");
        NS_TEST_EXPECT_MSG_EQ(rec.requested, 1, "the island asked the sender");
        NS_TEST_EXPECT_MSG_EQ(run.fpgas[1]->GetRepairRequests(), 0, "");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Twenty DATA chunks into B are lost; A and C answer B's requests
 * from a queue paced at RepairBudget x the stream rate: no two REPAIRs of
 * one island closer than a packet time / budget, every sum exact.
 */
class RepairBudgetTestCase : public WanTestCase
{
  public:
    RepairBudgetTestCase()
        : WanTestCase("repairs leave at most RepairBudget x the stream rate")
    {
    }

  private:
    void DoCheck() override
    {
        auto o = EarlyOptions();
        o.aggregation = false;
        for (uint32_t k = 40; k < 80; k += 2)
        {
            o.dropsAtB.insert(k);
        }
        std::vector<std::vector<double>> sent(3);
        o.beforeRun = [&sent](LineClique& line) {
            for (uint32_t c = 0; c < 3; ++c)
            {
                line.islands[c]->SetAttribute("RepairBudget", DoubleValue(0.25));
                line.islands[c]->TraceConnectWithoutContext(
                    "Tx",
                    MakeBoundCallback(&RecordRepair, &sent[c]));
            }
        };
        LineClique run(o);
        const auto rec = run.islands[1]->GetRecord(0);
        NS_TEST_EXPECT_MSG_EQ(rec.sum, LineClique::ExpectedSum(1), "exact");
        NS_TEST_EXPECT_MSG_EQ(rec.requested, 20, "twenty asked for");
        NS_TEST_EXPECT_MSG_EQ(sent[0].size() + sent[2].size(), 20, "twenty REPAIRs");
        const double packet = 8.0 * (8936 + 36 + 30) / run.plan.cliques[0].rateBps;
        double closest = 1;
        for (const auto& times : sent)
        {
            for (size_t k = 1; k < times.size(); ++k)
            {
                closest = std::min(closest, times[k] - times[k - 1]);
            }
        }
        NS_TEST_EXPECT_MSG_GT(closest, 4 * packet - 1e-9, "four packet times apart at 25%");
        NS_TEST_EXPECT_MSG_LT(closest, 4 * packet + 1e-6, "and no more while queued");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief A round's plan of arrivals must name every clique member.
 */
class EarlyBadRoundTestCase : public WanTestCase
{
  public:
    EarlyBadRoundTestCase()
        : WanTestCase("a round whose arrivals miss a member is refused")
    {
    }

  private:
    void DoCheck() override
    {
        auto app = CreateObject<WanIslandApplication>();
        WanIslandRound r;
        r.payloadBytes = 1000;
        r.rate = DataRate("1Mbps");
        r.peers = 2;
        r.arrivals = {Seconds(0), Seconds(0.01)};
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&]() { app->AddRound(r); }),
                                       "island round 0 needs the planned arrival and latency of "
                                       "every clique member, or none"),
                              true,
                              "two arrivals for three members");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief Recovery that does not wait for the deadline.
 */
class WanEarlyRepairTestSuite : public TestSuite
{
  public:
    WanEarlyRepairTestSuite()
        : TestSuite("wan-training-early-repair", Type::UNIT)
    {
        AddTestCase(new EarlyTailTestCase);
        AddTestCase(new EarlyRevealTestCase);
        AddTestCase(new InNetworkRepairTestCase);
        AddTestCase(new RepairBudgetTestCase);
        AddTestCase(new EarlyBadRoundTestCase);
    }
};

/// The suite's instance.
static WanEarlyRepairTestSuite g_wanEarlyRepairTestSuite;
