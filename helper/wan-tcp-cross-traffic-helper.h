/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TCP_CROSS_TRAFFIC_HELPER_H
#define WAN_TCP_CROSS_TRAFFIC_HELPER_H

#include "wan-network-helper.h"

#include "ns3/application-container.h"
#include "ns3/nstime.h"
#include "ns3/type-id.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Elastic background traffic on every core link direction of a built
 * WAN: long TCP bulk connections (WanTcpBulkSender, ns-3's TCP with the
 * congestion control given) from the router at one end to a sink
 * (WanTcpBulkSink) on the router at the other, through the same queues as
 * the training streams. Where WanCrossTrafficHelper's UDP bursts take their
 * share whatever the load, these back off on loss (or, with BBR, on the
 * rate they measure) and take what the training streams leave: the kind of
 * traffic a shared WAN carries most.
 *
 * Each connection's send buffer is twice its link's bandwidth-delay product
 * (the link's rate at the network's scale, times its round trip: twice its
 * propagation delay and one frame's serialization), at least two segments;
 * each sink's receive buffer is over twice the largest send buffer of the
 * connections it accepts (plus two segments and the window scale's
 * rounding), so a connection is held by its congestion window and send
 * buffer, never by the receiver's window, and is set before the SYN; a
 * receive buffer stays within TCP's largest window, 65535 x 2^14 bytes
 * (RFC 7323: at full scale, a 100 Gbps link's product over 43 ms of round
 * trip exceeds it, and its send buffers are held to that). The
 * segment size is the link's MTU less the IPv4 and TCP headers (with
 * timestamps).
 */
class WanTcpCrossTrafficHelper
{
  public:
    WanTcpCrossTrafficHelper();

    /**
     * @param flows bulk connections on each core link direction, 0 to 64
     *        (0, the default: none)
     * @param congestion their congestion control, a TcpCongestionOps
     *        (ns3::TcpCubic, the default; ns3::TcpBbr, ns3::TcpNewReno, ...)
     * @throws std::invalid_argument naming the value out of range or the
     *         type that is not a congestion control
     */
    void SetFlows(uint32_t flows, TypeId congestion);
    /**
     * @param name a TcpCongestionOps's TypeId name (ns3::TcpCubic, ...)
     * @return its TypeId
     * @throws std::invalid_argument when no type has that name
     */
    static TypeId CongestionControl(const std::string& name);
    /// @return the connections on each core link direction (0: none)
    uint32_t GetFlows() const;
    /// @return their congestion control
    TypeId GetCongestionControl() const;

    /**
     * @brief Installs a sink on every router and the connections of every
     * core link direction, from time 0 to `end`. In a distributed run each
     * rank installs those of its routers.
     * @param net the built network
     * @param end when the senders and sinks stop
     * @param rankOf per city its rank (empty: one process)
     * @return the sinks, then the senders, installed (none when there are
     *         no flows)
     */
    ApplicationContainer Install(const WanNetworkHelper& net,
                                 Time end,
                                 const std::vector<uint32_t>& rankOf) const;

    /**
     * @param net the built network
     * @param from a city
     * @param to an adjacent city
     * @return the bandwidth-delay product of the core link direction, bytes
     *         (as the class says)
     */
    static double BandwidthDelayProduct(const WanNetworkHelper& net, uint32_t from, uint32_t to);
    /**
     * @param apps what Install returned
     * @param scale a factor (the network's scale, to count at full scale)
     * @return bytes the sinks among them received, times the factor
     */
    static uint64_t GetBytesReceived(const ApplicationContainer& apps, double scale = 1);
    /**
     * @param apps what Install returned
     * @return segments the senders among them sent again
     */
    static uint64_t GetRetransmissions(const ApplicationContainer& apps);

  private:
    uint32_t m_flows{0}; //!< connections on each core link direction
    TypeId m_congestion; //!< their congestion control
};

} // namespace ns3

#endif /* WAN_TCP_CROSS_TRAFFIC_HELPER_H */
