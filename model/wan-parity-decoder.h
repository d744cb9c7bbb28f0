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
 * @brief What a receiver knows of one round's parity, and the lost chunks
 * of a block it can rebuild from it without a round trip.
 *
 * It keeps, per data chunk, the fixed-point sum of the values held (every
 * accepted contribution, whoever sent it) and, per parity group, the sum of
 * the parity symbols received with the senders they hold.  For a block, it
 * takes the parities received that hold one same set of senders S: when no
 * chunk holds a sender outside S and e chunks lack senders of S, with e no
 * more than those parities, the parities less the held data's share are the
 * code's parity of the e chunks' missing contributions (the code is linear
 * over the ring), and the MDS code rebuilds them exactly, at any magnitude
 * (wrap-around arithmetic).  More chunks short than parities, or parities
 * missing a sender that some chunk holds, cannot be resolved: those are
 * left to the recovery policy.
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

    /// The erasures the code faced: chunks of each block that did not
    /// arrive first hand (not rebuilt, repaired or resent).
    struct Tally
    {
        uint64_t blocks{0};   //!< blocks
        uint64_t symbols{0};  //!< their chunks, data and parity
        uint64_t erasures{0}; //!< of which some sender's copy was lost
        uint64_t short_{0};   //!< blocks with more erasures than parities arrived
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
     * @brief Notes contributions that arrived first hand (from the stream,
     * not a repair or a resend), for Count.
     * @param chunk a data chunk
     * @param sources their senders
     */
    void NoteArrival(uint32_t chunk, const WanSourceSet& sources);
    /**
     * @return per block, its data chunks lacking some sender's first-hand
     *         copy plus its parity rows lacking some sender's, and whether
     *         they outnumber the rows (the MDS code's limit, so that the
     *         share of such blocks is P(Binomial(k + r, q) > r) for
     *         independent erasures at rate q)
     */
    Tally Count() const;
    /**
     * @param group a parity group
     * @param sources the senders whose parity a sum holds
     * @return why AddParity would refuse that sum (a drop reason: "unexpected
     *         parity" when the group does not exist or names nobody, "parity
     *         from outside the clique" when it names a sender this decoder does
     *         not cover, "repeated parity" when it repeats one it holds), or
     *         nullptr when it would add it
     */
    const char* Refusal(uint32_t group, const WanSourceSet& sources) const;
    /**
     * @param group a parity group
     * @param sources the senders whose parity this sum holds
     * @param symbol the sum of their parity symbols
     * @return false, and nothing added, when Refusal gives a reason
     */
    bool AddParity(uint32_t group,
                   const WanSourceSet& sources,
                   const WanGaloisRing::Element& symbol);
    /**
     * @param group a parity group
     * @return true when some of its parity arrived
     */
    bool HasParity(uint32_t group) const;
    /**
     * @param block a block
     * @param holds what the receiver holds
     * @return the chunks of the block the parity completes, ascending
     *         (empty when it cannot)
     */
    std::vector<Rebuilt> Rebuild(uint32_t block, const Holds& holds) const;
    /** @return the layout */
    const WanParityCode& GetCode() const;

  private:
    /**
     * @param block a block
     * @param rows the parity groups to use, holding the same senders
     * @param holds what the receiver holds
     * @return what they rebuild, empty when they cannot
     */
    std::vector<Rebuilt> Solve(uint32_t block,
                               const std::vector<uint32_t>& rows,
                               const Holds& holds) const;

    WanParityCode m_code;                         //!< layout and code
    std::vector<uint32_t> m_positions;            //!< senders covered
    WanSourceSet m_positionSet;                   //!< likewise, as a set
    std::vector<int64_t> m_data;                  //!< per chunk, values held
    std::vector<WanGaloisRing::Element> m_parity; //!< per group, parity received
    std::vector<WanSourceSet> m_sources;          //!< per group, its senders
    std::vector<WanSourceSet> m_arrived;          //!< per chunk, senders first hand
};

} // namespace ns3

#endif /* WAN_PARITY_DECODER_H */
