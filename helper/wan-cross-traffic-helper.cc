/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-cross-traffic-helper.h"

#include "wan-mpi-helper.h"

#include "ns3/inet-socket-address.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"
#include "ns3/onoff-application.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/string.h"
#include "ns3/udp-socket-factory.h"
#include "ns3/uinteger.h"
#include "ns3/wan-training-text.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanCrossTrafficHelper");

void
WanCrossTrafficHelper::SetTraffic(double utilisation, uint32_t packetBytes, double burstPackets)
{
    if (!(utilisation >= 0 && utilisation < 1))
    {
        throw std::invalid_argument("cross traffic: utilisation must be in [0, 1) (got " +
                                    wantext::Num(utilisation) + ")");
    }
    if (packetBytes < 64 || packetBytes > 8972)
    {
        throw std::invalid_argument("cross traffic: packets must be 64 to 8972 bytes (got " +
                                    std::to_string(packetBytes) + ")");
    }
    if (!(burstPackets >= 1) || std::isinf(burstPackets))
    {
        throw std::invalid_argument("cross traffic: a burst must average at least 1 packet (got " +
                                    wantext::Num(burstPackets) + ")");
    }
    m_utilisation = utilisation;
    m_packetBytes = packetBytes;
    m_burstPackets = burstPackets;
}

double
WanCrossTrafficHelper::GetUtilisation() const
{
    return m_utilisation;
}

ApplicationContainer
WanCrossTrafficHelper::Install(const WanNetworkHelper& net,
                               Time end,
                               const std::vector<uint32_t>& rankOf) const
{
    ApplicationContainer senders;
    if (m_utilisation <= 0)
    {
        return senders;
    }
    const uint16_t port = 9; // discard
    PacketSinkHelper sink("ns3::UdpSocketFactory", InetSocketAddress(Ipv4Address::GetAny(), port));
    for (uint32_t c = 0; c < net.GetRouters().GetN(); ++c)
    {
        if (WanMpiHelper::IsLocal(rankOf, c))
        {
            sink.Install(net.GetRouters().Get(c));
        }
    }
    for (const auto& link : net.GetTopology().GetLinks())
    {
        for (const auto& [from, to] : {WanHop{link.a, link.b}, WanHop{link.b, link.a}})
        {
            auto device = net.GetCoreDevice(from, to);
            DataRateValue rate;
            device->GetAttribute("DataRate", rate);
            const double bps = rate.Get().GetBitRate();
            // A packet on the wire: UDP payload and header, IP header (20),
            // PPP header (2).  On at the link's rate for bursts of
            // burstPackets on average, off long enough that the mean is the
            // utilisation.
            const double wireBytes = m_packetBytes + 20.0 + 2;
            const double on = m_burstPackets * wireBytes * 8 / bps;
            const double off = on * (1 - m_utilisation) / m_utilisation;
            const uint32_t payload = m_packetBytes - 8;
            ObjectFactory onOff("ns3::OnOffApplication");
            onOff.Set("Protocol", TypeIdValue(UdpSocketFactory::GetTypeId()));
            onOff.Set("Remote",
                      AddressValue(InetSocketAddress(net.GetCoreAddress(to, from), port)));
            // OnOffApplication paces its payload: at this rate the wire is full.
            onOff.Set("DataRate",
                      DataRateValue(DataRate(static_cast<uint64_t>(bps * payload / wireBytes))));
            onOff.Set("PacketSize", UintegerValue(payload));
            onOff.Set("OnTime",
                      StringValue("ns3::ExponentialRandomVariable[Mean=" + wantext::Num(on) + "]"));
            onOff.Set(
                "OffTime",
                StringValue("ns3::ExponentialRandomVariable[Mean=" + wantext::Num(off) + "]"));
            auto app = onOff.Create<OnOffApplication>();
            app->SetStartTime(Seconds(0));
            app->SetStopTime(end);
            if (WanMpiHelper::IsLocal(rankOf,
                                      from)) // in a distributed run, on the rank of its router only
            {
                device->GetNode()->AddApplication(app);
            }
            senders.Add(app); // every rank draws the same streams
        }
    }
    return senders;
}

int64_t
WanCrossTrafficHelper::AssignStreams(const ApplicationContainer& senders, int64_t stream)
{
    const int64_t first = stream;
    for (uint32_t i = 0; i < senders.GetN(); ++i)
    {
        stream += DynamicCast<OnOffApplication>(senders.Get(i))->AssignStreams(stream);
    }
    return stream - first;
}

} // namespace ns3
