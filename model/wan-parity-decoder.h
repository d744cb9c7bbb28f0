/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PARITY_DECODER_H
#define WAN_PARITY_DECODER_H

#include "wan-parity-code.h"
#include "wan-source-set.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief What a receiver knows of one round's parity groups, and the one
 * lost chunk per group it can rebuild from them without a round trip.
 *
 * It keeps, per group, the fixed-point sum of the data values held (every
 * accepted contribution to a chunk of the group, whoever sent it) and the
 * sum of the parity received with the senders it holds.  When every chunk
 * of the group holds no sender the parity lacks and exactly one chunk lacks
 * senders the parity holds, the parity minus the data held is exactly that
 * chunk's missing contributions (wrap-around arithmetic makes this exact at
 * any magnitude).  Two chunks short in one group, or a parity missing a
 * sender that some chunk holds, cannot be resolved: those are left to the
 * recovery policy.
 *
 * With aggregation one decoder covers all of a round's peers (the FPGA sums
 * their parity); without it, the island keeps one per peer.
 */
class WanParityDecoder
{
  public:
    /// A chunk's missing contributions, rebuilt.
    struct Rebuilt
    {
        uint32_t chunk{0};    //!< the data chunk
        WanSourceSet sources; //!< the senders it was missing
        int64_t value{0};     //!< their sum, fixed point
    };

    /// Tells whether a chunk holds a sender's contribution.
    using Holds = std::function<bool(uint32_t chunk, uint32_t position)>;

    /**
     * @param code the stream's layout
     * @param positions the senders this decoder covers
     */
    WanParityDecoder(const WanParityCode& code, const WanSourceSet& positions);

    /**
     * @param chunk a data chunk
     * @param value contributions to it just held (fixed point)
     */
    void AddData(uint32_t chunk, int64_t value);
    /**
     * @param group a parity group
     * @param sources the senders whose parity this sum holds
     * @param value the sum (fixed point)
     * @return false, and nothing added, when it repeats a sender already
     *         held, names a sender outside the decoder or the group does not
     *         exist
     */
    bool AddParity(uint32_t group, const WanSourceSet& sources, int64_t value);
    /**
     * @param group a parity group
     * @return true when some of its parity arrived
     */
    bool HasParity(uint32_t group) const;
    /**
     * @param group a parity group
     * @param holds what the receiver holds
     * @return the one chunk of the group the parity can complete, if any
     */
    std::optional<Rebuilt> Rebuild(uint32_t group, const Holds& holds) const;
    /** @return the layout */
    const WanParityCode& GetCode() const;

  private:
    /// One group's sums.
    struct Group
    {
        int64_t data{0};      //!< data values held
        int64_t parity{0};    //!< parity received
        WanSourceSet sources; //!< senders of the parity received
    };

    WanParityCode m_code;              //!< layout
    std::vector<uint32_t> m_positions; //!< senders covered
    WanSourceSet m_positionSet;        //!< likewise, as a set
    std::vector<Group> m_groups;       //!< per group
};

} // namespace ns3

#endif /* WAN_PARITY_DECODER_H */
