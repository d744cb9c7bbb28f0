/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-pim-header.h"

#include "ns3/log.h"

#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanPimHeader");
NS_OBJECT_ENSURE_REGISTERED(WanPimHeader);

namespace
{

/// PIM version.
const uint8_t kVersion = 2;
/// Bytes of the common header.
const uint32_t kCommonBytes = 4;
/// Address family of IPv4 (IANA), in the encoded addresses.
const uint8_t kFamilyIpv4 = 1;
/// Native encoding of the encoded addresses.
const uint8_t kEncodingNative = 0;
/// Mask length of a single address (IPv4).
const uint8_t kHostMask = 32;
/// Hello option: Holdtime.
const uint16_t kOptionHoldtime = 1;
/// Encoded-source flags: S (sparse) set, W and R clear: an (S,G) entry.
const uint8_t kSourceFlagsSG = 0x04;
/// Bytes of an encoded-unicast address, an encoded-group and an encoded-source address.
const uint32_t kUnicastBytes = 6;
const uint32_t kEncodedBytes = 8; //!< encoded-group and encoded-source addresses

/// Appends a 16-bit number in network order.
void
Put16(std::vector<uint8_t>& b, uint16_t v)
{
    b.push_back(static_cast<uint8_t>(v >> 8));
    b.push_back(static_cast<uint8_t>(v & 0xff));
}

/// Appends an IPv4 address.
void
PutAddress(std::vector<uint8_t>& b, Ipv4Address a)
{
    const uint32_t v = a.Get();
    for (int shift = 24; shift >= 0; shift -= 8)
    {
        b.push_back(static_cast<uint8_t>((v >> shift) & 0xff));
    }
}

/// Appends an encoded-group or encoded-source address (IPv4, mask 32).
void
PutEncoded(std::vector<uint8_t>& b, Ipv4Address a, uint8_t flags)
{
    b.push_back(kFamilyIpv4);
    b.push_back(kEncodingNative);
    b.push_back(flags);
    b.push_back(kHostMask);
    PutAddress(b, a);
}

/// Reads the bytes of a message, each read checked against its end.
class Reader
{
  public:
    /// @param bytes the message
    explicit Reader(const std::vector<uint8_t>& bytes)
        : m_bytes(bytes)
    {
    }

    /// @return true when n more bytes are there
    bool Has(uint32_t n) const
    {
        return m_at + n <= m_bytes.size();
    }

    /// @return the next byte
    uint8_t U8()
    {
        return m_bytes[m_at++];
    }

    /// @return the next 16-bit number (network order)
    uint16_t U16()
    {
        const uint16_t hi = U8();
        return static_cast<uint16_t>(hi << 8 | U8());
    }

    /// @return the next IPv4 address
    Ipv4Address Address()
    {
        uint32_t v = 0;
        for (int k = 0; k < 4; ++k)
        {
            v = v << 8 | U8();
        }
        return Ipv4Address(v);
    }

    /**
     * @brief Reads an encoded-group or encoded-source address.
     * @param address the address read
     * @param flags its flags byte
     * @return empty, or what is wrong with it
     */
    std::string Encoded(Ipv4Address& address, uint8_t& flags)
    {
        if (!Has(kEncodedBytes))
        {
            return "truncated encoded address";
        }
        const uint8_t family = U8();
        const uint8_t encoding = U8();
        flags = U8();
        const uint8_t mask = U8();
        address = Address();
        if (family != kFamilyIpv4 || encoding != kEncodingNative)
        {
            return "address family " + std::to_string(family) + " is not IPv4";
        }
        if (mask != kHostMask)
        {
            return "mask length " + std::to_string(mask) + " is not 32";
        }
        return "";
    }

    /// Skips n bytes.
    void Skip(uint32_t n)
    {
        m_at += n;
    }

    /// @return bytes left
    uint32_t Left() const
    {
        return static_cast<uint32_t>(m_bytes.size() - m_at);
    }

  private:
    const std::vector<uint8_t>& m_bytes; //!< the message
    size_t m_at{0};                      //!< next byte
};

/// Reads a Hello's options; @return "" or what is wrong
std::string
ReadHello(Reader& r, uint16_t& holdtime)
{
    bool found = false;
    while (r.Left() > 0)
    {
        if (!r.Has(4))
        {
            return "truncated Hello option";
        }
        const uint16_t type = r.U16();
        const uint16_t length = r.U16();
        if (!r.Has(length))
        {
            return "Hello option " + std::to_string(type) + " longer than the message";
        }
        if (type == kOptionHoldtime && length == 2)
        {
            holdtime = r.U16();
            found = true;
        }
        else
        {
            r.Skip(length);
        }
    }
    return found ? "" : "Hello without a Holdtime option";
}

/// Reads Join/Prune group k (from 0); @return "" or what is wrong
std::string
ReadGroup(Reader& r, uint8_t k, WanPimHeader::Group& g)
{
    uint8_t flags = 0;
    auto error = r.Encoded(g.group, flags);
    if (!error.empty())
    {
        return "group " + std::to_string(k + 1) + ": " + error;
    }
    if (!r.Has(4))
    {
        return "truncated Join/Prune group";
    }
    const uint16_t joins = r.U16();
    const uint16_t prunes = r.U16();
    for (uint32_t n = 0; n < uint32_t{joins} + prunes; ++n)
    {
        Ipv4Address source;
        error = r.Encoded(source, flags);
        if (!error.empty())
        {
            return "group " + std::to_string(k + 1) + " source " + std::to_string(n + 1) + ": " +
                   error;
        }
        (n < joins ? g.joins : g.prunes).push_back(source);
    }
    return "";
}

} // namespace

bool
WanPimHeader::Group::operator==(const Group& other) const
{
    return group == other.group && joins == other.joins && prunes == other.prunes;
}

Ipv4Address
WanPimHeader::AllPimRouters()
{
    return Ipv4Address("224.0.0.13");
}

TypeId
WanPimHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanPimHeader")
                            .SetParent<Header>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanPimHeader>();
    return tid;
}

TypeId
WanPimHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

WanPimHeader
WanPimHeader::Hello(uint16_t holdtime)
{
    WanPimHeader h;
    h.m_type = HELLO;
    h.m_holdtime = holdtime;
    return h;
}

WanPimHeader
WanPimHeader::JoinPrune(Ipv4Address upstream, uint16_t holdtime, const std::vector<Group>& groups)
{
    if (groups.size() > 255)
    {
        throw std::invalid_argument("a PIM Join/Prune holds at most 255 groups (got " +
                                    std::to_string(groups.size()) + ")");
    }
    for (const auto& g : groups)
    {
        if (g.joins.size() > 65535 || g.prunes.size() > 65535)
        {
            throw std::invalid_argument("a PIM Join/Prune group holds at most 65535 sources");
        }
    }
    WanPimHeader h;
    h.m_type = JOIN_PRUNE;
    h.m_upstream = upstream;
    h.m_holdtime = holdtime;
    h.m_groups = groups;
    return h;
}

WanPimHeader
WanPimHeader::JoinAck(Ipv4Address downstream, const WanPimHeader& joinPrune)
{
    WanPimHeader h = JoinPrune(downstream, joinPrune.m_holdtime, joinPrune.m_groups);
    h.m_type = JOIN_ACK;
    return h;
}

std::vector<uint8_t>
WanPimHeader::Bytes() const
{
    std::vector<uint8_t> b{static_cast<uint8_t>(kVersion << 4 | m_type), 0, 0, 0};
    if (m_type == HELLO)
    {
        Put16(b, kOptionHoldtime);
        Put16(b, 2);
        Put16(b, m_holdtime);
    }
    else
    {
        b.push_back(kFamilyIpv4);
        b.push_back(kEncodingNative);
        PutAddress(b, m_upstream);
        b.push_back(0); // reserved
        b.push_back(static_cast<uint8_t>(m_groups.size()));
        Put16(b, m_holdtime);
        for (const auto& g : m_groups)
        {
            PutEncoded(b, g.group, 0);
            Put16(b, static_cast<uint16_t>(g.joins.size()));
            Put16(b, static_cast<uint16_t>(g.prunes.size()));
            for (const auto& s : g.joins)
            {
                PutEncoded(b, s, kSourceFlagsSG);
            }
            for (const auto& s : g.prunes)
            {
                PutEncoded(b, s, kSourceFlagsSG);
            }
        }
    }
    const uint16_t sum = Checksum(b.data(), static_cast<uint32_t>(b.size()));
    b[2] = static_cast<uint8_t>(sum >> 8);
    b[3] = static_cast<uint8_t>(sum & 0xff);
    return b;
}

uint32_t
WanPimHeader::GetSerializedSize() const
{
    if (m_type == HELLO)
    {
        return kCommonBytes + 6;
    }
    uint32_t size = kCommonBytes + kUnicastBytes + 4;
    for (const auto& g : m_groups)
    {
        size += kEncodedBytes + 4 + kEncodedBytes * (g.joins.size() + g.prunes.size());
    }
    return size;
}

void
WanPimHeader::Serialize(Buffer::Iterator start) const
{
    for (uint8_t byte : Bytes())
    {
        start.WriteU8(byte);
    }
}

uint32_t
WanPimHeader::Deserialize(Buffer::Iterator start)
{
    std::vector<uint8_t> bytes(start.GetRemainingSize());
    for (auto& byte : bytes)
    {
        byte = start.ReadU8();
    }
    WanPimHeader h;
    m_error = h.Parse(bytes);
    if (!m_error.empty())
    {
        NS_LOG_LOGIC("malformed PIM message: " << m_error);
        return 0;
    }
    *this = h;
    return static_cast<uint32_t>(bytes.size());
}

std::string
WanPimHeader::Parse(const std::vector<uint8_t>& bytes)
{
    Reader r(bytes);
    if (!r.Has(kCommonBytes))
    {
        return "shorter than the PIM header";
    }
    if (Checksum(bytes.data(), static_cast<uint32_t>(bytes.size())) != 0)
    {
        return "wrong checksum";
    }
    const uint8_t first = r.U8();
    if (first >> 4 != kVersion)
    {
        return "PIM version " + std::to_string(first >> 4) + ", not 2";
    }
    r.Skip(3);
    m_type = static_cast<Type>(first & 0x0f);
    if (m_type == HELLO)
    {
        return ReadHello(r, m_holdtime);
    }
    if (m_type != JOIN_PRUNE && m_type != JOIN_ACK)
    {
        return "PIM message type " + std::to_string(m_type) +
               " (only Hello, Join/Prune and Join-Ack)";
    }
    if (!r.Has(kUnicastBytes + 4))
    {
        return "truncated Join/Prune";
    }
    if (r.U8() != kFamilyIpv4 || r.U8() != kEncodingNative)
    {
        return "upstream neighbour is not an IPv4 address";
    }
    m_upstream = r.Address();
    r.Skip(1);
    const uint8_t groups = r.U8();
    m_holdtime = r.U16();
    for (uint8_t k = 0; k < groups; ++k)
    {
        Group g;
        const auto error = ReadGroup(r, k, g);
        if (!error.empty())
        {
            return error;
        }
        m_groups.push_back(g);
    }
    return r.Left() == 0 ? "" : std::to_string(r.Left()) + " bytes after the last group";
}

void
WanPimHeader::Print(std::ostream& os) const
{
    if (m_type == HELLO)
    {
        os << "PIM Hello holdtime=" << m_holdtime;
        return;
    }
    os << (m_type == JOIN_ACK ? "PIM Join-Ack to=" : "PIM Join/Prune upstream=") << m_upstream
       << " holdtime=" << m_holdtime;
    for (const auto& g : m_groups)
    {
        os << " group=" << g.group << " joins=" << g.joins.size() << " prunes=" << g.prunes.size();
    }
}

WanPimHeader::Type
WanPimHeader::GetType() const
{
    return m_type;
}

uint16_t
WanPimHeader::GetHoldtime() const
{
    return m_holdtime;
}

Ipv4Address
WanPimHeader::GetUpstream() const
{
    return m_upstream;
}

const std::vector<WanPimHeader::Group>&
WanPimHeader::GetGroups() const
{
    return m_groups;
}

const std::string&
WanPimHeader::GetError() const
{
    return m_error;
}

uint16_t
WanPimHeader::Checksum(const uint8_t* bytes, uint32_t size)
{
    uint32_t sum = 0;
    for (uint32_t k = 0; k + 1 < size; k += 2)
    {
        sum += static_cast<uint32_t>(bytes[k]) << 8 | bytes[k + 1];
    }
    if (size % 2 == 1)
    {
        sum += static_cast<uint32_t>(bytes[size - 1]) << 8;
    }
    while (sum >> 16)
    {
        sum = (sum & 0xffff) + (sum >> 16);
    }
    return static_cast<uint16_t>(~sum & 0xffff);
}

} // namespace ns3
