/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_JITTER_CHANNEL_H
#define WAN_JITTER_CHANNEL_H

#include "ns3/nstime.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>

namespace ns3
{

/**
 * \ingroup wan-training
 * \brief A point-to-point channel whose packets take a random extra delay.
 *
 * Each packet arrives after the transmission time, the channel's Delay and an
 * extra delay drawn from the Jitter random variable (seconds; a negative draw
 * counts as 0).  With Reorder false (the default) the channel keeps FIFO order
 * in each direction: a packet never arrives before the one sent before it, as
 * on a single path whose queueing varies.  With Reorder true every packet
 * keeps its own draw, so a later packet may overtake an earlier one, as on a
 * path that load-balances over several routes.
 *
 * Use it in place of PointToPointChannel (PointToPointNetDevice::Attach, or
 * WanNetworkHelper, which installs it on the links given jitter).
 */
class WanJitterChannel : public PointToPointChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    WanJitterChannel();

    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /**
     * \brief Fixes the random stream of the jitter.
     * \param stream first stream index to use
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * TracedCallback signature for a packet's extra delay.
     * \param [in] packet the packet
     * \param [in] extra the extra delay it takes
     */
    typedef void (*JitterCallback)(Ptr<const Packet> packet, Time extra);

  protected:
    void DoDispose() override;

  private:
    Ptr<RandomVariableStream> m_jitter;                    //!< extra delay, seconds
    bool m_reorder;                                        //!< allow overtaking
    std::array<Time, 2> m_lastArrival;                     //!< per direction, for FIFO order
    TracedCallback<Ptr<const Packet>, Time> m_jitterTrace; //!< extra delay per packet
};

} // namespace ns3

#endif /* WAN_JITTER_CHANNEL_H */
