/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_COLLECTIVE_RECORD_H
#define WAN_COLLECTIVE_RECORD_H

#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A chunk's value on its way through a collective over TCP (ring
 * all-reduce, parameter server): what one record on the byte stream carries.
 */
struct WanCollectiveRecord
{
    uint32_t step{0};  //!< the collective's step that sends it
    uint32_t chunk{0}; //!< the chunk, 0 to C - 1
    int64_t value{0};  //!< the sum so far, fixed point (WanContribution)
};

} // namespace ns3

#endif /* WAN_COLLECTIVE_RECORD_H */
