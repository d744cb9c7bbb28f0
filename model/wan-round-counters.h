/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ROUND_COUNTERS_H
#define WAN_ROUND_COUNTERS_H

#include <cstdint>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief What one island counted in one round, or the sum of several such
 * counts (`+=`): the traffic it saw and what became of its peers'
 * contributions.
 *
 * The island application fills one per round (WanIslandRecord), the
 * recorder and the experiment results carry them, and totals over islands or
 * rounds are sums of them.
 */
struct WanRoundCounters
{
    uint64_t bytesIn{0};         //!< bytes received (UDP payload, chunk header included)
    uint64_t bytesOut{0};        //!< bytes of DATA and parity chunks sent (likewise)
    uint64_t packetsIn{0};       //!< packets received (first copies)
    uint64_t partialSums{0};     //!< MERGED packets holding fewer contributions than the chunk
    uint64_t nacks{0};           //!< NACKs and QUERYs sent to the FPGA
    uint64_t retransmissions{0}; //!< resent MERGED packets that filled a gap
    uint64_t expected{0};        //!< peers' contributions expected (peers x chunks)
    uint64_t delivered{0};       //!< peers' contributions received, each once
    uint64_t late{0};            //!< of which after the deadline, unasked
    uint64_t requested{0};       //!< contributions re-requested from their senders
    uint64_t requests{0};        //!< REQUEST packets sent (retries included)
    uint64_t recovered{0};       //!< re-requested contributions that arrived
    uint64_t givenUp{0};         //!< contributions never received
    uint64_t discarded{0};       //!< sums discarded: they repeated a contribution
    uint64_t repairsSent{0};     //!< chunks resent to a peer that asked
    uint64_t dropped{0};         //!< packets of the round that could not be used
    uint64_t paritySent{0};      //!< parity chunks sent (every copy)
    uint64_t rebuilt{0};         //!< contributions rebuilt from parity (of delivered)
    uint64_t parityBlocks{0};    //!< parity blocks received (per decoder: per peer without FPGA)
    uint64_t paritySymbols{0};   //!< their chunks, data and parity
    uint64_t erasures{0};        //!< of which some sender's first-hand copy was lost
    uint64_t blocksShort{0};     //!< blocks with more erasures than parity chunks
    uint64_t parityRows{0};      //!< parity rows its stream sent per block (ParitySizing)
    uint64_t lossReports{0};     //!< REPORTs its stream's receivers sent back

    /**
     * @brief Adds every counter of another count to this one.
     * @param other the count to add
     * @return this count
     */
    WanRoundCounters& operator+=(const WanRoundCounters& other);

    /// A counter: its name and member.
    using Field = std::pair<const char*, uint64_t WanRoundCounters::*>;
    /** @return every counter, in declaration order */
    static const std::vector<Field>& Fields();
};

/**
 * @ingroup wan-training
 * @param a a count
 * @param b another count
 * @return their sum, counter by counter
 */
WanRoundCounters operator+(WanRoundCounters a, const WanRoundCounters& b);

} // namespace ns3

#endif /* WAN_ROUND_COUNTERS_H */
