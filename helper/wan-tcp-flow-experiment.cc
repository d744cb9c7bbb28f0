/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-tcp-flow-experiment.h"

#include "wan-network-helper.h"
#include "wan-simulator-session.h"

#include "ns3/bulk-send-helper.h"
#include "ns3/config.h"
#include "ns3/inet-socket-address.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/packet-sink-helper.h"
#include "ns3/packet-sink.h"
#include "ns3/simulator.h"
#include "ns3/tcp-congestion-ops.h"
#include "ns3/tcp-cubic.h"
#include "ns3/tcp-l4-protocol.h"
#include "ns3/tcp-socket-factory.h"
#include "ns3/tcp-socket.h"
#include "ns3/uinteger.h"
#include "ns3/wan-training-compat.h"
#include "ns3/wan-training-text.h"

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTcpFlowExperiment");

namespace
{

/// IPv4 header, TCP header and its timestamp option (12 bytes, padded).
constexpr uint32_t kTcpIpOverhead = 20 + 20 + 12;

/// TcpSocket's defaults set for one run, restored when it ends.
class TcpSocketDefaults
{
  public:
    /**
     * @param name an attribute of ns3::TcpSocket
     * @param value its default for the run
     */
    void Set(const std::string& name, const AttributeValue& value)
    {
        TypeId::AttributeInformation info;
        TcpSocket::GetTypeId().LookupAttributeByName(name, &info);
        m_saved.emplace_back(name, info.initialValue);
        Config::SetDefault("ns3::TcpSocket::" + name, value);
    }

    ~TcpSocketDefaults()
    {
        for (const auto& [name, value] : m_saved)
        {
            Config::SetDefault("ns3::TcpSocket::" + name, *value);
        }
    }

  private:
    std::vector<std::pair<std::string, Ptr<const AttributeValue>>> m_saved; //!< the defaults before
};

} // namespace

WanTcpFlowExperiment::WanTcpFlowExperiment(double rttSeconds, double rateBps)
    : m_rtt(wantext::RequirePositive(rttSeconds, "TCP flow round-trip time", "s")),
      m_rate(wantext::RequirePositive(rateBps, "TCP flow link rate", "bit/s")),
      m_congestion(TcpCubic::GetTypeId())
{
}

void
WanTcpFlowExperiment::SetLoss(double p)
{
    if (!(p >= 0 && p < 1))
    {
        throw std::invalid_argument("TCP flow: loss probability " + wantext::Num(p) +
                                    " (need one in [0, 1))");
    }
    m_loss = p;
}

void
WanTcpFlowExperiment::SetCongestionControl(TypeId congestion)
{
    if (!wancompat::MakeCongestionControl(congestion))
    {
        throw std::invalid_argument("TCP flow: " + congestion.GetName() +
                                    " is not a TcpCongestionOps");
    }
    m_congestion = congestion;
}

void
WanTcpFlowExperiment::SetBuffers(uint32_t sendBytes, uint32_t receiveBytes)
{
    m_sendBytes = sendBytes;
    m_recvBytes = receiveBytes;
}

void
WanTcpFlowExperiment::SetStream(int64_t stream)
{
    m_stream = stream;
}

WanTcpFlowResult
WanTcpFlowExperiment::Run(double seconds, double warmupSeconds) const
{
    if (!(warmupSeconds >= 0 && seconds > warmupSeconds))
    {
        throw std::invalid_argument("TCP flow: a run of " + wantext::Num(seconds) +
                                    " s with a warm-up of " + wantext::Num(warmupSeconds) +
                                    " s (need 0 <= warm-up < run)");
    }
    WanTopology topo;
    topo.AddCity({"A", "A", "r", 0, 0, m_rate, m_rate});
    topo.AddCity({"B", "B", "r", 0, 0, m_rate, m_rate});
    topo.AddLink("A", "B", m_rtt / 2, m_rate);
    topo.Validate();
    TcpSocketDefaults defaults;
    WanSimulatorSession session;
    WanNetworkHelper net(topo);
    WanLinkImpairment loss;
    loss.lossRate = m_loss;
    net.SetImpairment(WanNetworkHelper::CORE, loss);
    net.Install();
    net.AssignStreams(m_stream);
    WanTcpFlowResult result;
    result.segmentBytes = net.GetIslands().Get(0)->GetObject<Ipv4>()->GetMtu(1) - kTcpIpOverhead;
    defaults.Set("SegmentSize", UintegerValue(result.segmentBytes));
    if (m_sendBytes > 0)
    {
        defaults.Set("SndBufSize", UintegerValue(m_sendBytes));
    }
    if (m_recvBytes > 0)
    {
        defaults.Set("RcvBufSize", UintegerValue(m_recvBytes));
    }
    for (uint32_t i = 0; i < 2; ++i)
    {
        net.GetIslands().Get(i)->GetObject<TcpL4Protocol>()->SetAttribute(
            "SocketType",
            TypeIdValue(m_congestion));
    }
    const uint16_t port = 5001;
    PacketSinkHelper sinkHelper(TcpSocketFactory::GetTypeId().GetName(),
                                InetSocketAddress(Ipv4Address::GetAny(), port));
    auto sink = sinkHelper.Install(net.GetIslands().Get(1));
    BulkSendHelper bulk(TcpSocketFactory::GetTypeId().GetName(),
                        InetSocketAddress(net.GetIslandAddress(1), port));
    // Writes of a segment each: fewer packets merged in TCP's buffer, whose
    // metadata ns-3 keeps in 16-bit offsets.
    bulk.SetAttribute("SendSize", UintegerValue(result.segmentBytes));
    auto sender = bulk.Install(net.GetIslands().Get(0));
    const Time warmup = Seconds(warmupSeconds);
    sink.Get(0)->TraceConnectWithoutContext(
        "Rx",
        Callback<void, Ptr<const Packet>, const Address&>(
            [&result, warmup](Ptr<const Packet> packet, const Address&) {
                if (Simulator::Now() >= warmup)
                {
                    result.bytes += packet->GetSize();
                }
            }));
    sink.Start(Seconds(0));
    sender.Start(Seconds(0));
    Simulator::Stop(Seconds(seconds));
    Simulator::Run();
    result.goodputBps = result.bytes * 8.0 / (seconds - warmupSeconds);
    result.lostPackets = net.GetLostPackets(WanNetworkHelper::CORE);
    return result;
}

} // namespace ns3
