/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-chunk-header.h"

#include <cstring>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(WanChunkHeader);

TypeId
WanChunkHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanChunkHeader")
                            .SetParent<Header>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanChunkHeader>();
    return tid;
}

TypeId
WanChunkHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
WanChunkHeader::GetSerializedSize() const
{
    // kind 1, position 1, pad 2, round 4, clique 2, sender 2, chunk 4,
    // sequence 4, contributions 2, expected 2, sources 4, value 8
    return 36;
}

void
WanChunkHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_kind);
    i.WriteU8(m_position);
    i.WriteHtonU16(0);
    i.WriteHtonU32(m_round);
    i.WriteHtonU16(m_clique);
    i.WriteHtonU16(m_sender);
    i.WriteHtonU32(m_chunk);
    i.WriteHtonU32(m_sequence);
    i.WriteHtonU16(m_contributions);
    i.WriteHtonU16(m_expected);
    i.WriteHtonU32(m_sources);
    uint64_t bits;
    std::memcpy(&bits, &m_value, sizeof(bits));
    i.WriteHtonU64(bits);
}

uint32_t
WanChunkHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_kind = static_cast<Kind>(i.ReadU8());
    m_position = i.ReadU8();
    i.ReadNtohU16();
    m_round = i.ReadNtohU32();
    m_clique = i.ReadNtohU16();
    m_sender = i.ReadNtohU16();
    m_chunk = i.ReadNtohU32();
    m_sequence = i.ReadNtohU32();
    m_contributions = i.ReadNtohU16();
    m_expected = i.ReadNtohU16();
    m_sources = i.ReadNtohU32();
    uint64_t bits = i.ReadNtohU64();
    std::memcpy(&m_value, &bits, sizeof(bits));
    return i.GetDistanceFrom(start);
}

void
WanChunkHeader::Print(std::ostream& os) const
{
    static const char* const kinds[] = {"DATA", "MERGED", "NACK", "REQUEST", "REPAIR"};
    os << (m_kind <= REPAIR ? kinds[m_kind] : "?") << " round=" << m_round << " clique=" << m_clique
       << " sender=" << m_sender << " chunk=" << m_chunk << " seq=" << m_sequence
       << " contributions=" << m_contributions << "/" << m_expected << " value=" << m_value;
}

void
WanChunkHeader::SetKind(Kind kind)
{
    m_kind = kind;
}

WanChunkHeader::Kind
WanChunkHeader::GetKind() const
{
    return m_kind;
}

void
WanChunkHeader::SetRound(uint32_t round)
{
    m_round = round;
}

uint32_t
WanChunkHeader::GetRound() const
{
    return m_round;
}

void
WanChunkHeader::SetClique(uint16_t clique)
{
    m_clique = clique;
}

uint16_t
WanChunkHeader::GetClique() const
{
    return m_clique;
}

void
WanChunkHeader::SetSender(uint16_t sender)
{
    m_sender = sender;
}

uint16_t
WanChunkHeader::GetSender() const
{
    return m_sender;
}

void
WanChunkHeader::SetChunk(uint32_t chunk)
{
    m_chunk = chunk;
}

uint32_t
WanChunkHeader::GetChunk() const
{
    return m_chunk;
}

void
WanChunkHeader::SetSequence(uint32_t sequence)
{
    m_sequence = sequence;
}

uint32_t
WanChunkHeader::GetSequence() const
{
    return m_sequence;
}

void
WanChunkHeader::SetContributions(uint16_t n)
{
    m_contributions = n;
}

uint16_t
WanChunkHeader::GetContributions() const
{
    return m_contributions;
}

void
WanChunkHeader::SetExpected(uint16_t n)
{
    m_expected = n;
}

uint16_t
WanChunkHeader::GetExpected() const
{
    return m_expected;
}

void
WanChunkHeader::SetPosition(uint8_t position)
{
    m_position = position;
}

uint8_t
WanChunkHeader::GetPosition() const
{
    return m_position;
}

void
WanChunkHeader::SetSources(uint32_t sources)
{
    m_sources = sources;
}

uint32_t
WanChunkHeader::GetSources() const
{
    return m_sources;
}

void
WanChunkHeader::SetValue(double value)
{
    m_value = value;
}

double
WanChunkHeader::GetValue() const
{
    return m_value;
}

} // namespace ns3
