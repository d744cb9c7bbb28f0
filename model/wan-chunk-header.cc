/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-chunk-header.h"

#include "wan-contribution.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(WanChunkHeader);

namespace
{

/// Bytes of the fixed fields: kind 1, reserved 1, position 2, round 4,
/// clique 2, sender 2, chunk 4, sequence 4, contributions 2, expected 2, value 8.
const uint32_t kFixedBytes = 32;
/// Bytes of the sources' bit count.
const uint32_t kSourceCountBytes = 2;
/// The sources block (count and bitmap) is padded to a multiple of this.
const uint32_t kSourceAlignment = 4;
/// Bits per bitmap byte.
const uint32_t kBitsPerByte = 8;
/// Bitmap bytes per word of a WanSourceSet.
const uint32_t kBytesPerWord = WanSourceSet::WORD_BITS / kBitsPerByte;
/// Flag bit: a symbol's upper words follow the sources
const uint8_t kSymbolFlag = 1;
/// Bytes of a symbol's upper words
const uint32_t kUpperBytes = (WanGaloisRing::DEGREE - 1) * 8;

/// Refuses a sources bitmap longer than its 2-byte count can say.
void
CheckSourceBits(size_t bits)
{
    if (bits > WanChunkHeader::MAX_SOURCE_BITS)
    {
        throw std::invalid_argument("a chunk header names at most " +
                                    std::to_string(WanChunkHeader::MAX_SOURCE_BITS) +
                                    " sources (got " + std::to_string(bits) + ")");
    }
}

/// @return bytes of a bitmap of `bits` bits
uint32_t
BitmapBytes(uint32_t bits)
{
    return (bits + kBitsPerByte - 1) / kBitsPerByte;
}

/// @return bytes of the sources block: count, bitmap and padding
uint32_t
SourceBlockBytes(uint32_t bits)
{
    const uint32_t raw = kSourceCountBytes + BitmapBytes(bits);
    return (raw + kSourceAlignment - 1) / kSourceAlignment * kSourceAlignment;
}

} // namespace

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
WanChunkHeader::SerializedSize(uint32_t sourceBits)
{
    return kFixedBytes + SourceBlockBytes(sourceBits);
}

uint32_t
WanChunkHeader::GetSerializedSize() const
{
    return SerializedSize(m_sourceBits) + (m_hasSymbol ? kUpperBytes : 0);
}

void
WanChunkHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(m_kind);
    i.WriteU8(m_hasSymbol ? kSymbolFlag : 0);
    i.WriteHtonU16(m_position);
    i.WriteHtonU32(m_round);
    i.WriteHtonU16(m_clique);
    i.WriteHtonU16(m_sender);
    i.WriteHtonU32(m_chunk);
    i.WriteHtonU32(m_sequence);
    i.WriteHtonU16(m_contributions);
    i.WriteHtonU16(m_expected);
    i.WriteHtonU64(static_cast<uint64_t>(m_value));
    const uint32_t n = m_sourceBits;
    i.WriteHtonU16(m_sourceBits);
    // Byte b holds positions 8 b to 8 b + 7, the lowest in its lowest bit.
    for (uint32_t b = 0; b < BitmapBytes(n); ++b)
    {
        const uint64_t word = m_sources.GetWord(b / kBytesPerWord);
        i.WriteU8(static_cast<uint8_t>(word >> (b % kBytesPerWord * kBitsPerByte)));
    }
    i.WriteU8(0, SourceBlockBytes(n) - kSourceCountBytes - BitmapBytes(n));
    if (m_hasSymbol)
    {
        for (uint64_t w : m_upper)
        {
            i.WriteHtonU64(w);
        }
    }
}

uint32_t
WanChunkHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    if (i.GetRemainingSize() < kFixedBytes + kSourceCountBytes)
    {
        return 0;
    }
    WanChunkHeader h;
    const uint8_t kind = i.ReadU8();
    if (kind > REPORT)
    {
        return 0;
    }
    h.m_kind = static_cast<Kind>(kind);
    h.m_hasSymbol = (i.ReadU8() & kSymbolFlag) != 0; // other flag bits are ignored
    h.m_position = i.ReadNtohU16();
    h.m_round = i.ReadNtohU32();
    h.m_clique = i.ReadNtohU16();
    h.m_sender = i.ReadNtohU16();
    h.m_chunk = i.ReadNtohU32();
    h.m_sequence = i.ReadNtohU32();
    h.m_contributions = i.ReadNtohU16();
    h.m_expected = i.ReadNtohU16();
    h.m_value = static_cast<int64_t>(i.ReadNtohU64());
    const uint32_t n = i.ReadNtohU16();
    if (start.GetRemainingSize() <
        kFixedBytes + SourceBlockBytes(n) + (h.m_hasSymbol ? kUpperBytes : 0))
    {
        return 0;
    }
    h.m_sourceBits = static_cast<uint16_t>(n);
    // Byte b holds positions 8 b to 8 b + 7; bits past the count are padding.
    for (uint32_t b = 0; b < BitmapBytes(n); ++b)
    {
        uint64_t byte = i.ReadU8();
        const uint32_t first = b * kBitsPerByte;
        if (n - first < kBitsPerByte)
        {
            byte &= (uint64_t{1} << (n - first)) - 1;
        }
        const uint32_t k = b / kBytesPerWord;
        h.m_sources.SetWord(k, h.m_sources.GetWord(k) | byte << (b % kBytesPerWord * kBitsPerByte));
    }
    i.Next(SourceBlockBytes(n) - kSourceCountBytes - BitmapBytes(n));
    if (h.m_hasSymbol)
    {
        for (auto& w : h.m_upper)
        {
            w = i.ReadNtohU64();
        }
    }
    *this = std::move(h);
    return i.GetDistanceFrom(start);
}

void
WanChunkHeader::Print(std::ostream& os) const
{
    static const char* const kinds[] = {"DATA", "MERGED", "NACK", "REQUEST", "REPAIR", "QUERY"};
    os << (m_kind <= QUERY ? kinds[m_kind] : "?") << " round=" << m_round << " clique=" << m_clique
       << " sender=" << m_sender << " position=" << m_position << " chunk=" << m_chunk
       << " seq=" << m_sequence << " contributions=" << m_contributions << "/" << m_expected
       << " value=" << GetValue();
    if (m_hasSymbol)
    {
        os << " symbol=" << static_cast<uint64_t>(m_value);
        for (uint64_t w : m_upper)
        {
            os << ":" << w;
        }
    }
    if (m_sourceBits > 0)
    {
        os << " sources=";
        for (uint32_t p = 0; p < m_sourceBits; ++p)
        {
            os << (m_sources.Test(p) ? '1' : '0');
        }
    }
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
WanChunkHeader::SetBlockLength(uint16_t length)
{
    m_sequence = (m_sequence & 0xffff0000u) | length;
}

uint16_t
WanChunkHeader::GetBlockLength() const
{
    return static_cast<uint16_t>(m_sequence & 0xffffu);
}

void
WanChunkHeader::SetBlockRows(uint16_t rows)
{
    m_sequence = (m_sequence & 0xffffu) | (static_cast<uint32_t>(rows) << 16);
}

uint16_t
WanChunkHeader::GetBlockRows() const
{
    return static_cast<uint16_t>(m_sequence >> 16);
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
WanChunkHeader::SetPosition(uint16_t position)
{
    m_position = position;
}

uint16_t
WanChunkHeader::GetPosition() const
{
    return m_position;
}

void
WanChunkHeader::SetSources(const std::vector<bool>& sources)
{
    CheckSourceBits(sources.size());
    m_sources = WanSourceSet::FromBits(sources);
    m_sourceBits = static_cast<uint16_t>(sources.size());
}

std::vector<bool>
WanChunkHeader::GetSources() const
{
    return m_sources.ToBits(m_sourceBits);
}

void
WanChunkHeader::SetSourceSet(const WanSourceSet& sources)
{
    const uint32_t bits = sources.GetSpan();
    CheckSourceBits(bits);
    m_sources = sources;
    m_sourceBits = static_cast<uint16_t>(bits);
}

const WanSourceSet&
WanChunkHeader::GetSourceSet() const
{
    return m_sources;
}

uint16_t
WanChunkHeader::GetSourceBits() const
{
    return m_sourceBits;
}

void
WanChunkHeader::SetValue(double value)
{
    m_value = WanContribution::ToFixed(value);
}

double
WanChunkHeader::GetValue() const
{
    return WanContribution::FromFixed(m_value);
}

void
WanChunkHeader::SetFixedValue(int64_t fixed)
{
    m_value = fixed;
}

int64_t
WanChunkHeader::GetFixedValue() const
{
    return m_value;
}

void
WanChunkHeader::SetSymbol(const WanGaloisRing::Element& symbol)
{
    m_value = static_cast<int64_t>(symbol[0]);
    std::copy(symbol.begin() + 1, symbol.end(), m_upper.begin());
    m_hasSymbol = true;
}

bool
WanChunkHeader::HasSymbol() const
{
    return m_hasSymbol;
}

WanGaloisRing::Element
WanChunkHeader::GetSymbol() const
{
    return WanGaloisRing::Join(static_cast<uint64_t>(m_value), m_upper);
}

const WanGaloisRing::Upper&
WanChunkHeader::GetUpper() const
{
    return m_upper;
}

} // namespace ns3
