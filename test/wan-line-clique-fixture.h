/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_LINE_CLIQUE_FIXTURE_H
#define WAN_LINE_CLIQUE_FIXTURE_H

#include "wan-training-test-utils.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/error-model.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/round-planner.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-multicast-route-helper.h"
#include "ns3/wan-network-helper.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

namespace ns3
{
namespace wantest
{

/**
 * @ingroup wan-training-tests
 * @brief Drops the packets with the given arrival numbers (0 = first) on a device.
 */
class DropNthErrorModel : public ErrorModel
{
  public:
    /// @param drops arrival numbers to drop
    explicit DropNthErrorModel(std::set<uint32_t> drops)
        : m_drops(std::move(drops))
    {
    }

    uint32_t m_dropped{0}; //!< packets dropped

  private:
    bool DoCorrupt(Ptr<Packet>) override
    {
        bool drop = m_drops.count(m_seen++) > 0;
        m_dropped += drop ? 1 : 0;
        return drop;
    }

    void DoReset() override
    {
    }

    std::set<uint32_t> m_drops; //!< arrival numbers to drop
    uint32_t m_seen{0};         //!< arrivals so far
};

/**
 * @ingroup wan-training-tests
 * @brief How a LineClique run is set up.
 */
struct LineCliqueOptions
{
    bool aggregation{true};               //!< FPGAs at the edges
    std::set<uint32_t> dropsAtB;          //!< arrivals dropped at island B's access device
    std::set<uint32_t> dropsAtEdgeB;      //!< arrivals from the WAN dropped at B's edge node
    bool arrivals{false};                 //!< give the islands the plan's arrivals (early repair)
    Time nackDelay{MilliSeconds(1)};      //!< the islands' NackDelay
    Time deadline{0};                     //!< the round's deadline after its start (0: none)
    bool peerIslands{false};              //!< give the islands their peers' addresses
    std::string recovery{"accept"};       //!< the islands' Recovery
    uint32_t parityBlock{0};              //!< the islands' ParityBlock (0: no Parity)
    uint32_t parityChunks{1};             //!< the islands' ParityChunks
    std::string parityLayout{"trailing"}; //!< the islands' ParityLayout
    uint64_t decodeBytes{0};              //!< the FPGAs' DecodeBytes (per-stream decoding)
    double paritySizing{0};               //!< the islands' ParityEpsilon with ParitySizing (0: off)
    uint32_t rounds{1};                   //!< rounds, 100 ms apart from 0.1 s
    std::function<void(struct LineClique&)> beforeRun; //!< called before Simulator::Run
};

/**
 * @ingroup wan-training-tests
 * @brief One clique round of the three islands A, B, C (values 1, 2, 3) of a
 * line (10 and 20 ms links), 100 chunks of 8936 bytes each, at packet level; run in the
 * constructor, torn down in the destructor.
 */
struct LineClique
{
    static constexpr uint32_t kChunks = 100;      //!< chunks per island
    static constexpr uint32_t kChunkBytes = 8936; //!< payload per chunk

    WanTopology topo = LineTopology({"A", "B", "C"}, {10, 20}); //!< topology
    WanNetworkHelper net{topo};                                 //!< network
    RoundPlan plan;                                             //!< the planner's round
    std::vector<Ptr<WanIslandApplication>> islands;             //!< per city
    std::vector<Ptr<FpgaAggregator>> fpgas;                     //!< per city (aggregation)
    Ptr<DropNthErrorModel> edgeDrops;                           //!< drops at B's edge, if any

    /// Builds, plans and runs.
    explicit LineClique(const LineCliqueOptions& o)
    {
        Ipv4AddressGenerator::Reset();
        PlannerConfig config;
        config.payloadBytes = kChunks * kChunkBytes;
        config.aggregation = o.aggregation;
        plan = RoundPlanner(topo, config).PlanRound({{0, 1, 2}});
        net.Install();
        for (uint32_t c = 0; c < 3; ++c)
        {
            auto group = WanNetworkHelper::GroupAddress(0, c);
            WanMulticastRouteHelper(net).InstallTree(c, {0, 1, 2}, group, !o.aggregation);
            auto app = CreateObject<WanIslandApplication>();
            app->SetAttribute("Fpga", Ipv4AddressValue(net.GetEdgeAddress(c)));
            app->SetAttribute("NackDelay", TimeValue(o.nackDelay));
            app->SetAttribute("Recovery", StringValue(o.recovery));
            app->SetAttribute("Parity", BooleanValue(o.parityBlock > 0));
            if (o.parityBlock > 0)
            {
                app->SetAttribute("ParityBlock", UintegerValue(o.parityBlock));
            }
            app->SetAttribute("ParityChunks", UintegerValue(o.parityChunks));
            app->SetAttribute("ParityLayout", StringValue(o.parityLayout));
            app->SetAttribute("ParitySizing", BooleanValue(o.paritySizing > 0));
            if (o.paritySizing > 0)
            {
                app->SetAttribute("ParityEpsilon", DoubleValue(o.paritySizing));
            }
            for (uint32_t k = 0; k < o.rounds; ++k)
            {
                auto r = Round(app, c, group, o);
                r.round = k;
                r.start += MilliSeconds(100 * k);
                app->AddRound(r);
            }
            net.GetIslands().Get(c)->AddApplication(app);
            islands.push_back(app);
            if (o.aggregation)
            {
                auto fpga = CreateObject<FpgaAggregator>();
                fpga->SetAttribute("Island", Ipv4AddressValue(net.GetIslandAddress(c)));
                fpga->SetAttribute("HbmBytes", UintegerValue(1000000000));
                if (o.decodeBytes > 0)
                {
                    fpga->SetAttribute("DecodeBytes", UintegerValue(o.decodeBytes));
                    fpga->SetAttribute("ParityBlock", UintegerValue(o.parityBlock));
                    fpga->SetAttribute("ParityChunks", UintegerValue(o.parityChunks));
                    fpga->SetAttribute("ReportLoss", BooleanValue(o.paritySizing > 0));
                }
                net.GetEdges().Get(c)->AddApplication(fpga);
                fpgas.push_back(fpga);
            }
        }
        if (!o.dropsAtB.empty())
        {
            auto em = CreateObject<DropNthErrorModel>(o.dropsAtB);
            net.GetAccessDevices(1).Get(0)->SetAttribute("ReceiveErrorModel", PointerValue(em));
        }
        if (!o.dropsAtEdgeB.empty())
        {
            // The edge node's device towards the router: what the WAN brings.
            edgeDrops = CreateObject<DropNthErrorModel>(o.dropsAtEdgeB);
            net.GetAccessDevices(1).Get(2)->SetAttribute("ReceiveErrorModel",
                                                         PointerValue(edgeDrops));
        }
        if (o.beforeRun)
        {
            o.beforeRun(*this);
        }
        Simulator::Stop(Seconds(2));
        Simulator::Run();
    }

    ~LineClique()
    {
        Simulator::Destroy();
    }

    /// @return island c's round: its value, position and destination
    WanIslandRound Round(Ptr<WanIslandApplication> app,
                         uint32_t c,
                         Ipv4Address group,
                         const LineCliqueOptions& o) const
    {
        UintegerValue dataPort;
        UintegerValue mergedPort;
        app->GetAttribute("DataPort", dataPort);
        app->GetAttribute("MergedPort", mergedPort);
        const auto& clique = plan.cliques[0];
        WanIslandRound r;
        r.round = 0;
        r.sender = static_cast<uint16_t>(c);
        r.start = Seconds(0.1);
        r.offset = Seconds(clique.offsets[c]);
        r.rate = DataRate(static_cast<uint64_t>(clique.rateBps));
        r.payloadBytes = kChunks * kChunkBytes;
        r.destinations = {InetSocketAddress(group, static_cast<uint16_t>(dataPort.Get()))};
        r.peers = 2;
        r.position = static_cast<uint16_t>(c);
        r.value = c + 1;
        r.deadline = o.deadline;
        for (uint32_t m = 0; o.peerIslands && m < 3; ++m)
        {
            r.peerIslands.push_back(InetSocketAddress(net.GetIslandAddress(m),
                                                      static_cast<uint16_t>(mergedPort.Get())));
        }
        for (uint32_t m = 0; o.arrivals && m < 3; ++m)
        {
            r.peerDelays.push_back(Seconds(topo.GetPathDelay(m, c)));
            r.arrivals.push_back(Seconds(clique.offsets[m]) + r.peerDelays.back());
        }
        r.viaFpga = o.aggregation;
        return r;
    }

    /// Sum island i must end with: its peers' values x (1 + 2 + ... + 100).
    static double ExpectedSum(uint32_t i)
    {
        const double values[] = {1, 2, 3};
        return (values[0] + values[1] + values[2] - values[i]) * 5050;
    }
};

} // namespace wantest
} // namespace ns3

#endif /* WAN_LINE_CLIQUE_FIXTURE_H */
