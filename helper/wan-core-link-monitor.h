/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_CORE_LINK_MONITOR_H
#define WAN_CORE_LINK_MONITOR_H

#include "wan-experiment-result.h"
#include "wan-network-helper.h"

#include "ns3/data-rate.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/queue-item.h"
#include "ns3/wan-experiment-plan.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Counts what every core link direction of a built network does, per
 * round of a plan: packets and bytes it starts to send, the peak of the
 * bytes waiting in its queue disc and device queue, the packets its queues
 * drop and those lost on the link.  A packet counts in the round whose
 * window (start to deadline) is under way, or after the last one.
 *
 * It connects to trace sources: it must outlive the simulation and stay
 * where it was built (not copyable).
 */
class WanCoreLinkMonitor
{
  public:
    /// What one core link direction did in one round.
    struct Round
    {
        uint64_t packets{0};        //!< packets it started to send
        uint64_t bytes{0};          //!< their bytes (as simulated)
        uint64_t peakQueueBytes{0}; //!< most bytes waiting (queue disc and device queue)
        uint64_t queueDrops{0};     //!< packets its queues dropped
        uint64_t lost{0};           //!< packets lost on the link (loss model, or broken)
    };

    /// @param plan the plan run: its rounds' windows
    explicit WanCoreLinkMonitor(const WanExperimentPlan& plan);
    WanCoreLinkMonitor(const WanCoreLinkMonitor&) = delete;
    WanCoreLinkMonitor& operator=(const WanCoreLinkMonitor&) = delete;

    /// Connects to every core link direction's device, queue and queue disc.
    void Watch(const WanNetworkHelper& net);
    /**
     * @brief A re-planned round's window moves.
     * @param round the round
     * @param end its new deadline
     */
    void SetRoundEnd(uint32_t round, Time end);
    /// In a distributed run: every rank's counts summed on rank 0 (a collective call).
    void GatherToRoot();
    /**
     * @brief Fills a round's core link figures, every direction's.
     * @param round the round
     * @param scale the time-preserving scale (bytes are multiplied back by it)
     * @param result the round's result
     */
    void Fill(uint32_t round, double scale, WanRoundResult& result) const;
    /// @return the counts as text, for Merge on another process
    std::string Save() const;
    /// Adds counts saved by another rank (Save) to these.
    void Merge(const std::string& saved);

  private:
    /// The bytes waiting on a core link direction now.
    struct Queue
    {
        DataRate rate;           //!< the link's rate (as simulated)
        uint64_t discBytes{0};   //!< in its queue disc
        uint64_t deviceBytes{0}; //!< in its device's queue
        Time since;              //!< when they last changed
    };

    /// @return what a direction does in the round under way at `at`
    Round& Current(WanHop hop, Time at);
    /// A direction starts to send a packet.
    static void CountPacket(WanCoreLinkMonitor* monitor, WanHop hop, Ptr<const Packet> packet);
    /// A direction's device queue dropped a packet.
    static void CountDrop(WanCoreLinkMonitor* monitor, WanHop hop, Ptr<const Packet> packet);
    /// A direction's queue disc dropped a packet.
    static void CountDiscDrop(WanCoreLinkMonitor* monitor,
                              WanHop hop,
                              Ptr<const QueueDiscItem> item);
    /// A direction lost a packet on the link (its receiver's loss model).
    static void CountLoss(WanCoreLinkMonitor* monitor, WanHop hop, Ptr<const Packet> packet);
    /// One of a direction's queues (`device`: the device's) changed to `bytes`.
    static void TrackQueue(WanCoreLinkMonitor* monitor,
                           WanHop hop,
                           bool device,
                           uint32_t before,
                           uint32_t bytes);

    std::vector<Time> m_roundEnds;                 //!< when each round's window ends
    std::vector<std::map<WanHop, Round>> m_rounds; //!< per round (and one after the last)
    std::map<WanHop, Queue> m_queues;              //!< the queues now
};

} // namespace ns3

#endif /* WAN_CORE_LINK_MONITOR_H */
