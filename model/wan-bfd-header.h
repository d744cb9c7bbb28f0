/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_BFD_HEADER_H
#define WAN_BFD_HEADER_H

#include "ns3/header.h"

#include <cstdint>
#include <ostream>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A BFD control packet (RFC 5880 section 4.1), the 24-byte mandatory
 * section without authentication: version 1, diagnostic, state, the P, F, C,
 * A, D and M bits, detect multiplier, length, my and your discriminators,
 * desired minimum transmit, required minimum receive and required minimum
 * echo receive intervals (microseconds).  Single-hop BFD runs over UDP port
 * 3784 (RFC 5881, kPort).
 *
 * Deserialize refuses what is not such a packet (version not 1, a length
 * other than 24, the A bit set, a zero detect multiplier or my
 * discriminator, fewer than 24 bytes): it returns 0 and leaves the header as
 * it was.
 */
class WanBfdHeader : public Header
{
  public:
    /// UDP port of single-hop BFD control packets.
    static constexpr uint16_t kPort = 3784;

    /// Session states (RFC 5880 section 4.1).
    enum State : uint8_t
    {
        ADMIN_DOWN = 0, //!< administratively down
        DOWN = 1,       //!< down
        INIT = 2,       //!< the remote end is heard, not yet sure it hears us
        UP = 3          //!< both ends hear each other
    };

    /// Diagnostic codes (RFC 5880 section 4.1), those a session sets.
    enum Diagnostic : uint8_t
    {
        NO_DIAGNOSTIC = 0,  //!< none
        DETECTION_TIME = 1, //!< control detection time expired
        NEIGHBOR_DOWN = 3,  //!< the neighbour signalled session down
        ADMINISTRATIVE = 7  //!< administratively down
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    /**
     * @param start where the packet begins
     * @return 24, or 0 when the bytes are not a valid control packet
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    State state{DOWN};                    //!< the sender's session state
    Diagnostic diagnostic{NO_DIAGNOSTIC}; //!< why its session last left Up
    bool poll{false};                     //!< P: poll
    bool final{false};                    //!< F: final (answers a poll)
    uint8_t detectMultiplier{3};          //!< detect time multiplier
    uint32_t myDiscriminator{1};          //!< the sender's discriminator (non-zero)
    uint32_t yourDiscriminator{0};        //!< the receiver's, as last heard (0: not yet)
    uint32_t desiredMinTxUs{1000000};     //!< desired minimum transmit interval, us
    uint32_t requiredMinRxUs{1000000};    //!< required minimum receive interval, us
    uint32_t requiredMinEchoRxUs{0};      //!< required minimum echo receive interval, us
};

} // namespace ns3

#endif /* WAN_BFD_HEADER_H */
