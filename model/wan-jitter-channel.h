/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_JITTER_CHANNEL_H
#define WAN_JITTER_CHANNEL_H

#include "wan-delay-process.h"

#include "ns3/nstime.h"
#include "ns3/object-factory.h"
#include "ns3/point-to-point-channel.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <array>
#include <utility>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A point-to-point channel whose packets take a random extra delay.
 *
 * Each packet arrives after the transmission time, the channel's Delay and an
 * extra delay, which Model chooses:
 *
 * - correlated (the default): each direction has its own WanDelayProcess
 *   (made from the DelayProcess factory), sampled at the packet's send time,
 *   so the delay is a function of time that varies on the process's
 *   correlation time, as a single path's queueing does (with Reorder false,
 *   the process's FIFO envelope: a function of time too);
 * - independent: each packet draws its own delay from the Jitter random
 *   variable (seconds; a negative draw counts as 0), as on a path that
 *   load-balances over routes of different delays (multipath).  With Reorder
 *   it lets packets overtake each other.  Without it, FIFO order makes every
 *   packet wait for the latest arrival so far: the delay becomes the running
 *   maximum of the draws over a window whose packet count grows with the
 *   packet rate, an artefact of independent draws on a single path.
 *
 * With Reorder false (the default) the channel keeps FIFO order in each
 * direction: a packet arrives no earlier than a transmission time after the
 * one sent before it, as from a queue that drains at the link's rate, so that
 * no two packets reach a device at the same instant.  GetHeldPackets counts
 * the packets that arrive later than their own delay says (the envelope or
 * this rule).
 *
 * Use it in place of PointToPointChannel (PointToPointNetDevice::Attach, or
 * WanNetworkHelper, which installs it on the links given jitter).  On a link
 * cut between the ranks of a distributed run it replaces ns-3's
 * PointToPointRemoteChannel: a packet for the other rank goes there through
 * MPI with its drawn arrival time (each direction draws on its sender's rank,
 * so with ReverseJitter or the correlated model a distributed run draws what
 * a sequential one does).
 */
class WanJitterChannel : public PointToPointChannel
{
  public:
    /// Where each packet's extra delay comes from.
    enum Model
    {
        CORRELATED, //!< a WanDelayProcess per direction, sampled at send times
        INDEPENDENT //!< an independent draw per packet (multipath, reordering)
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();

    WanJitterChannel();

    bool TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime) override;

    /**
     * @brief Fixes the random streams of the jitter: the independent draw
     * and the delay process of each direction, whatever the Model.
     * @param stream first stream index to use
     * @return the number of streams used (3, or 4 with ReverseJitter)
     */
    int64_t AssignStreams(int64_t stream);

    /**
     * @param direction 0 for the packets device 0 sends, 1 for device 1's
     * @return that direction's delay process (made from DelayProcess on
     *         first use)
     */
    Ptr<WanDelayProcess> GetDelayProcess(uint32_t direction);

    /** @return the packets sent on the channel, both directions */
    uint64_t GetPackets() const;

    /**
     * @return the packets held so as not to overtake the one sent before
     *         them (FIFO order), both directions
     */
    uint64_t GetHeldPackets() const;

    /**
     * TracedCallback signature for a packet's extra delay.
     * @param [in] packet the packet
     * @param [in] extra the extra delay it takes
     */
    typedef void (*JitterCallback)(Ptr<const Packet> packet, Time extra);

    /**
     * TracedCallback signature for a packet held for FIFO order.
     * @param [in] packet the packet
     * @param [in] held how much later it arrives than its own delay says
     */
    typedef void (*HoldCallback)(Ptr<const Packet> packet, Time held);

  protected:
    void DoDispose() override;

  private:
    /**
     * @brief Sets the DelayProcess factory; processes already made are
     * dropped, so the next packet or AssignStreams makes them anew.
     * @param factory a factory of WanDelayProcess
     */
    void SetDelayProcessFactory(ObjectFactory factory);
    /** @return the DelayProcess factory */
    ObjectFactory GetDelayProcessFactory() const;

    /**
     * @param direction 0 or 1
     * @return the extra delay of a packet sent now in that direction: its
     *         own, and the least that keeps FIFO order (the delay process's
     *         envelope; its own in the independent model)
     */
    std::pair<Time, Time> DrawExtra(uint32_t direction);

    Model m_model;                                         //!< correlated or independent
    ObjectFactory m_processFactory;                        //!< makes the delay processes
    std::array<Ptr<WanDelayProcess>, 2> m_process;         //!< per direction (correlated)
    Ptr<RandomVariableStream> m_jitter;                    //!< extra delay, seconds (independent)
    Ptr<RandomVariableStream> m_reverseJitter;             //!< device 1's, when set (independent)
    bool m_reorder;                                        //!< allow overtaking
    std::array<Time, 2> m_lastArrival;                     //!< per direction, for FIFO order
    uint64_t m_packets{0};                                 //!< packets sent
    uint64_t m_held{0};                                    //!< packets held for FIFO order
    TracedCallback<Ptr<const Packet>, Time> m_jitterTrace; //!< extra delay per packet
    TracedCallback<Ptr<const Packet>, Time> m_holdTrace;   //!< FIFO hold per held packet
};

} // namespace ns3

#endif /* WAN_JITTER_CHANNEL_H */
