/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_CROSS_TRAFFIC_HELPER_H
#define WAN_CROSS_TRAFFIC_HELPER_H

#include "wan-network-helper.h"

#include "ns3/application-container.h"
#include "ns3/nstime.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Background traffic on every core link direction of a built WAN:
 * bursts at the link's rate (ns-3's OnOffApplication, on and off times
 * exponential) from the router at one end to a discard sink on the router
 * at the other, through the same queues as the training streams.
 */
class WanCrossTrafficHelper
{
  public:
    /**
     * @param utilisation mean share of each direction's capacity, [0, 1)
     *        (0, the default: none)
     * @param packetBytes bytes of each packet (IP payload: UDP header and
     *        data), 64 to 8972 (default 1472)
     * @param burstPackets mean packets per burst, >= 1 (default 10)
     * @throws std::invalid_argument naming the value out of range
     */
    void SetTraffic(double utilisation, uint32_t packetBytes, double burstPackets);
    /// @return the mean share of each direction's capacity (0: none)
    double GetUtilisation() const;
    /**
     * @brief Installs a sink on every router and a sender on every core link
     * direction, from time 0 to `end`.  In a distributed run each rank
     * installs those of its routers, yet creates every sender so that every
     * rank draws the same random streams (AssignStreams).
     * @param net the built network
     * @param end when the senders stop
     * @param rankOf per city its rank (empty: one process)
     * @return every sender, installed or not (none when the utilisation is 0)
     */
    ApplicationContainer Install(const WanNetworkHelper& net,
                                 Time end,
                                 const std::vector<uint32_t>& rankOf) const;
    /**
     * @param senders what Install returned
     * @param stream first random stream
     * @return the number of streams used
     */
    static int64_t AssignStreams(const ApplicationContainer& senders, int64_t stream);

  private:
    double m_utilisation{0};      //!< background share of each core direction
    uint32_t m_packetBytes{1472}; //!< packet size (UDP payload + header)
    double m_burstPackets{10};    //!< mean packets per burst
};

} // namespace ns3

#endif /* WAN_CROSS_TRAFFIC_HELPER_H */
