/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_RING_APPLICATION_H
#define WAN_RING_APPLICATION_H

#include "wan-collective-application.h"
#include "wan-ring-all-reduce.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One member of a ring all-reduce over ns-3's TCP: what an island
 * runs today to average its model with the others across a WAN (NCCL's or
 * Gloo's ring, INTELLECT-1's int8 ring over TCP), for comparison with the
 * paper's multicast trees and FPGAs on the same links.
 *
 * The member dials the next member of the ring and accepts the previous
 * member's connections (WanCollectiveApplication: connections, records, TCP
 * settings). When the collective begins it runs WanRingAllReduce: 2(N - 1)
 * steps of D / N bytes, each chunk forwarded to the next member as soon as
 * it arrives, summed while the steps reduce. The sums are checked exact
 * against the members' contributions when the member holds every chunk's sum.
 */
class WanRingApplication : public WanCollectiveApplication
{
  public:
    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    WanRingApplication();
    ~WanRingApplication() override;

    /**
     * @brief The ring, before the application starts.
     * @param members every member's island address, in ring order (at least 2)
     * @param position this member's place among them
     * @param own this member's value of each chunk
     * @param expected each chunk's sum over the members (for the check)
     * @throws std::invalid_argument naming the bad value
     */
    void SetRing(const std::vector<Ipv4Address>& members,
                 uint32_t position,
                 std::vector<int64_t> own,
                 std::vector<int64_t> expected);

  private:
    /// The peers: the next member (dialled) and the previous (accepted).
    enum Peer : uint32_t
    {
        NEXT = 0,
        PREVIOUS = 1,
    };

    void DoStart() override;
    void DoBegin() override;
    void DoReceive(uint32_t peer, const WanCollectiveRecord& record) override;
    int64_t PeerOf(Ipv4Address from) const override;

    std::vector<Ipv4Address> m_members;       //!< ring order
    uint32_t m_position{0};                   //!< this member
    std::vector<int64_t> m_expected;          //!< each chunk's sum
    std::unique_ptr<WanRingAllReduce> m_ring; //!< the logic
};

} // namespace ns3

#endif /* WAN_RING_APPLICATION_H */
