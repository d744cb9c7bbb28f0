/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

/*
 * The benchmark's reference: the same packets pushed through plain ns-3 UDP
 * applications over the same network.  Round 1 of triangles is replayed with
 * ns-3's UdpClient and UdpServer: every island sends ceil(D / 8936) packets of
 * 8972 bytes, paced at the planner's clique rate, so the islands send as many
 * packets as in the packet-level run with multicast and FPGAs.  By default
 * each goes to one clique peer (the next member) over plain unicast
 * forwarding; with --multicast to its whole clique over the planner's
 * multicast tree (ns-3's static multicast routes, as the packet-level run
 * installs them), delivered to every receiving island: the same packet hops
 * as the packet-level run, without its FPGAs.
 *
 *   ./ns3 run "wan-udp-baseline --scale=1"
 *   ./ns3 run "wan-udp-baseline --scale=1 --multicast"
 */

#include "wan-simulator-defaults.h"

#include "ns3/applications-module.h"
#include "ns3/core-module.h"
#include "ns3/ipv4-address-generator.h"
#include "ns3/wan-multicast-route-helper.h"
#include "ns3/wan-training-module.h"
#include "ns3/wan-training-text.h"

#include <iostream>
#include <stdexcept>

using namespace ns3;

int
main(int argc, char* argv[])
{
    double scale = 100;
    double payloadBytes = 1e9;
    wansim::SetSimulatorDefaults();
    CommandLine cmd(__FILE__);
    cmd.Usage("Replays round 1 of triangles with plain ns-3 UDP applications.");
    cmd.AddValue("scale", "Time-preserving scale: D and every rate / scale", scale);
    cmd.AddValue("payload", "Model state D per island, bytes", payloadBytes);
    bool multicast = false;
    cmd.AddValue("multicast",
                 "Send each island's packets to its whole clique over the planner's multicast "
                 "tree (else to one peer, unicast)",
                 multicast);
    cmd.Parse(argc, argv);
    try
    {
        wantext::bounds::kScale.Check(scale, "--scale");
        wantext::bounds::kPayloadBytes.Check(payloadBytes, "--payload");
    }
    catch (const std::invalid_argument& e)
    {
        std::cerr << "wan-udp-baseline: error: " << e.what() << std::endl;
        return 1;
    }

    auto topo = WanTopology::NineCity();
    auto schedule = CliqueScheduleBuiltins::Triangles(topo);
    PlannerConfig config;
    config.payloadBytes = payloadBytes;
    auto plan = RoundPlanner(topo, config).PlanRound(schedule.GetRound(0));

    WanNetworkHelper net(topo);
    net.SetScale(scale);
    net.SetEdgeMulticastDelivery(false); // no FPGA: edges pass streams on to islands
    net.Install();
    const uint32_t chunkBytes = 8936;
    const uint32_t packetBytes = 8972; // chunk + 36-byte header, as in the real run
    const auto payload = static_cast<uint64_t>(payloadBytes / scale);
    const uint32_t packets = WanIslandApplication::ChunkCount(payload, chunkBytes);
    uint64_t sent = 0;
    ApplicationContainer servers;
    for (const auto& clique : plan.cliques)
    {
        const auto& m = clique.members;
        for (size_t jj = 0; jj < m.size() && m.size() > 1; ++jj)
        {
            // Unicast: to the next member, a port per member; multicast: to
            // the clique, one port, each island's server taking the others' groups.
            uint32_t server = m[(jj + 1) % m.size()];
            Ipv4Address to = net.GetIslandAddress(server);
            uint16_t port = 9000 + jj;
            if (multicast)
            {
                server = m[jj];
                to = WanNetworkHelper::GroupAddress(0, m[jj]);
                port = 9000;
                WanMulticastRouteHelper(net).InstallTree(m[jj], m, to, true);
            }
            servers.Add(UdpServerHelper(port).Install(net.GetIslands().Get(server)));
            UdpClientHelper client(to, port);
            double bits = 8.0 * (packetBytes + 30);
            client.SetAttribute("MaxPackets", UintegerValue(packets));
            client.SetAttribute("PacketSize", UintegerValue(packetBytes - 12)); // SeqTs header
            client.SetAttribute("Interval", TimeValue(Seconds(bits / (clique.rateBps / scale))));
            auto apps = client.Install(net.GetIslands().Get(m[jj]));
            apps.Start(Seconds(clique.offsets[jj]));
            sent += packets;
        }
    }
    Simulator::Stop(Seconds(plan.roundTime * 1.1 + 1));
    Simulator::Run();
    uint64_t received = 0;
    for (uint32_t k = 0; k < servers.GetN(); ++k)
    {
        received += DynamicCast<UdpServer>(servers.Get(k))->GetReceived();
    }
    std::cout << "UDP baseline (" << (multicast ? "multicast trees" : "unicast") << "): " << sent
              << " packets sent by islands, " << received << " received; "
              << Simulator::GetEventCount() << " events" << std::endl;
    Simulator::Destroy();
    return 0;
}
