/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TCP_FLOW_EXPERIMENT_H
#define WAN_TCP_FLOW_EXPERIMENT_H

#include "ns3/type-id.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief What one long TCP flow measured.
 */
struct WanTcpFlowResult
{
    double goodputBps{0};     //!< payload delivered after the warm-up, bit/s
    uint64_t bytes{0};        //!< payload bytes delivered after the warm-up
    uint64_t lostPackets{0};  //!< packets the core link lost (both directions)
    uint32_t segmentBytes{0}; //!< the segment size used
};

/**
 * @ingroup wan-training
 * @brief One long TCP flow (ns-3's BulkSendApplication to a PacketSink)
 * between two islands of a WanNetworkHelper network, joined by one core link
 * of half the round-trip time, with random loss on that link: the setting of
 * the module's TCP validations against WanTcpModel (Mathis et al., RFC 9438,
 * buffer / RTT), which say how far the collectives' TCP can be trusted.
 * The segment size is the island MTU's (9000 bytes, less 52 of IPv4 and TCP
 * headers with timestamps), SACK on, delayed ACKs every 2 segments (ns-3's
 * defaults); the socket settings are ns-3's TcpSocket defaults for the run
 * only (restored after it).
 */
class WanTcpFlowExperiment
{
  public:
    /**
     * @param rttSeconds the path's round-trip propagation, > 0
     * @param rateBps the access and core links' rate, > 0
     */
    WanTcpFlowExperiment(double rttSeconds, double rateBps);

    /// @param p the loss probability of each packet on the core link, each direction, [0, 1)
    void SetLoss(double p);
    /// @param congestion a TcpCongestionOps (ns3::TcpNewReno, ns3::TcpCubic, ...)
    void SetCongestionControl(TypeId congestion);
    /**
     * @param sendBytes the sender's buffer (0: ns-3's default, 131072)
     * @param receiveBytes the receiver's (0: ns-3's default)
     */
    void SetBuffers(uint32_t sendBytes, uint32_t receiveBytes);
    /// @param stream the first random stream of the loss
    void SetStream(int64_t stream);

    /**
     * @param seconds how long the flow runs, > warmupSeconds
     * @param warmupSeconds how long before the goodput is counted, >= 0
     * @return what it measured
     */
    WanTcpFlowResult Run(double seconds, double warmupSeconds) const;

  private:
    double m_rtt;            //!< round-trip propagation, s
    double m_rate;           //!< link rate, bit/s
    double m_loss{0};        //!< loss on the core link
    TypeId m_congestion;     //!< congestion control
    uint32_t m_sendBytes{0}; //!< sender's buffer (0: default)
    uint32_t m_recvBytes{0}; //!< receiver's buffer (0: default)
    int64_t m_stream{1};     //!< first random stream
};

} // namespace ns3

#endif /* WAN_TCP_FLOW_EXPERIMENT_H */
