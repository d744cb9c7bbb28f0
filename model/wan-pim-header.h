/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PIM_HEADER_H
#define WAN_PIM_HEADER_H

#include "ns3/header.h"
#include "ns3/ipv4-address.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A PIM version 2 message of the two kinds source-specific multicast
 * needs (RFC 7761 section 4.9, RFC 4607): Hello with its Holdtime option, and
 * Join/Prune for (S,G) entries, in the RFC's wire format (IPv4 encodings).
 *
 * Common header (4 bytes): version 2 and type in one byte, a reserved byte,
 * the Internet checksum of the whole message.  Hello (type 0): options as
 * type-length-value, Holdtime (type 1, 2 bytes) first; other options are
 * skipped when read.  Join/Prune (type 3): the encoded-unicast upstream
 * neighbour (6 bytes), a reserved byte, the number of groups, the holdtime
 * (seconds); per group its encoded-group address (8 bytes), the numbers of
 * joined and pruned sources and their encoded-source addresses (8 bytes each,
 * flags S = 1 for an (S,G) entry, W = R = 0).
 *
 * Deserialize refuses what is not such a message (version not 2, another
 * type, a wrong checksum, an address family other than IPv4, a mask length
 * other than 32, a message shorter than its counts say): it returns 0 and
 * GetError says why.  PIM is IP protocol 103 (kProtocol).
 */
class WanPimHeader : public Header
{
  public:
    /// IP protocol number of PIM.
    static constexpr uint8_t kProtocol = 103;
    /// The ALL-PIM-ROUTERS group, 224.0.0.13, to which Hellos go.
    static Ipv4Address AllPimRouters();

    /// The message types this header reads and writes.
    enum Type : uint8_t
    {
        HELLO = 0,      //!< neighbour discovery and liveness
        JOIN_PRUNE = 3, //!< (S,G) joins and prunes towards the upstream neighbour
        JOIN_ACK = 7    //!< a Join/Prune confirmed (RFC 3973's Graft-Ack type and format)
    };

    /// One group of a Join/Prune message, with the sources joined and pruned.
    struct Group
    {
        Ipv4Address group;                         //!< the multicast group G
        std::vector<Ipv4Address> joins;            //!< sources S joined for (S,G)
        std::vector<Ipv4Address> prunes;           //!< sources S pruned for (S,G)
        bool operator==(const Group& other) const; //!< same group, joins and prunes
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
     * @param start where the message begins (the bytes to its end are read)
     * @return the bytes read, or 0 when the bytes are not a well-formed
     *         Hello or Join/Prune (see GetError); the header is then unchanged
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * @param holdtime seconds a neighbour keeps this router (0: it leaves)
     * @return a Hello
     */
    static WanPimHeader Hello(uint16_t holdtime);
    /**
     * @param upstream the upstream (RPF) neighbour the message is for
     * @param holdtime seconds the joined state lasts without refresh
     * @param groups the groups, with their sources joined and pruned
     * @return a Join/Prune
     */
    static WanPimHeader JoinPrune(Ipv4Address upstream,
                                  uint16_t holdtime,
                                  const std::vector<Group>& groups);

    /**
     * @brief The acknowledgement of a Join/Prune: its groups echoed back, as
     * RFC 3973's Graft-Ack echoes a Graft (type 7, the Join/Prune format).
     * @param downstream the router whose Join/Prune it confirms (the
     *        message's upstream neighbour field, as in a Graft-Ack)
     * @param joinPrune the Join/Prune confirmed
     * @return a Join-Ack
     */
    static WanPimHeader JoinAck(Ipv4Address downstream, const WanPimHeader& joinPrune);

    /** @return the message type */
    Type GetType() const;
    /** @return the holdtime (Hello: the Holdtime option; Join/Prune: its field) */
    uint16_t GetHoldtime() const;
    /** @return the upstream neighbour of a Join/Prune (of a Join-Ack: the router
     * it confirms to) */
    Ipv4Address GetUpstream() const;
    /** @return the groups of a Join/Prune */
    const std::vector<Group>& GetGroups() const;
    /** @return why the last Deserialize refused the bytes (empty: it did not) */
    const std::string& GetError() const;

    /**
     * @brief The Internet checksum (RFC 1071) of some bytes.
     * @param bytes the bytes
     * @param size how many
     * @return the one's complement of the one's complement sum
     */
    static uint16_t Checksum(const uint8_t* bytes, uint32_t size);

  private:
    /// @return the whole message, its checksum filled in
    std::vector<uint8_t> Bytes() const;
    /**
     * @brief Reads a message's bytes into this header.
     * @param bytes the message, common header included
     * @return empty, or why the bytes are not a well-formed message
     */
    std::string Parse(const std::vector<uint8_t>& bytes);

    Type m_type{HELLO};          //!< message type
    uint16_t m_holdtime{105};    //!< holdtime, seconds
    Ipv4Address m_upstream;      //!< Join/Prune: upstream neighbour
    std::vector<Group> m_groups; //!< Join/Prune: groups
    std::string m_error;         //!< why the last Deserialize refused
};

} // namespace ns3

#endif /* WAN_PIM_HEADER_H */
