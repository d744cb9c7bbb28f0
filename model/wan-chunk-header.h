/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_CHUNK_HEADER_H
#define WAN_CHUNK_HEADER_H

#include "wan-galois-ring.h"
#include "wan-source-set.h"

#include "ns3/header.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Header of every packet of the exchange: a chunk of model state, a
 * merged (partial) sum, or a request to resend.
 *
 * The payload bytes of a chunk stay virtual; the header carries the real
 * contribution value (WanContribution), so that sums can be checked exactly.
 * Fixed fields, 32 bytes in network byte order: kind, a reserved byte,
 * position, round, clique, sender, chunk index, sequence number (of the
 * post-aggregation hop), contributions summed, contributions expected,
 * value.  Then the sources a sum holds: their number of bits (2 bytes) and a
 * bitmap, one bit per position in the clique, padded with zeros to a
 * multiple of 4 bytes.  A header without sources, or with up to 16, is
 * 36 bytes; each further 32 positions add 4.  A parity chunk carries a
 * symbol of GR(2^64, 8) (WanGaloisRing, WanParityCode) instead of one
 * value: its first word is the value field, flag bit 0 of the byte after
 * the kind says that its other 7 words follow the sources, 56 bytes more.
 *
 * A REPORT (an FPGA to a sender, WanLossEstimator) names the stream's round,
 * clique and position, the block in the chunk field, the block's data
 * chunks in the expected field and those that had arrived when its first
 * parity did in the contributions field.
 *
 * Deserialize refuses what is not such a header (an unknown kind, or fewer
 * bytes than the header needs): it returns 0 and leaves the header as it was.
 */
class WanChunkHeader : public Header
{
  public:
    /// Most positions the sources bitmap holds (its count is 2 bytes), so
    /// the largest clique whose sums name their senders.
    static constexpr uint32_t MAX_SOURCE_BITS = 65535;

    /// What the packet is.
    enum Kind : uint8_t
    {
        DATA = 0,    //!< one sender's chunk
        MERGED = 1,  //!< a (partial) sum from the edge FPGA to its island
        NACK = 2,    //!< the island asks the FPGA to resend a sequence number
        REQUEST = 3, //!< an island asks a peer to resend one chunk to it
        REPAIR = 4,  //!< the peer's chunk, resent to the island that asked
        QUERY = 5,   //!< an island asks its FPGA for one chunk it lacks (release or resend)
        REPORT = 6   //!< an FPGA tells a sender what one block of its stream lost: the
                     //!< stream's position, the block (chunk field), its data chunks
                     //!< (expected) and those that arrived (contributions)
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
     * @param start where the header begins
     * @return the bytes read, or 0 when the bytes are not a chunk header
     *         (unknown kind, or too few bytes); the header is then unchanged
     */
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    /**
     * @param sourceBits positions in the sources bitmap
     * @return the serialized size of a header with that many
     */
    static uint32_t SerializedSize(uint32_t sourceBits);

    /** @param kind what the packet is */
    void SetKind(Kind kind);
    /** @return what the packet is */
    Kind GetKind() const;
    /** @param round round number */
    void SetRound(uint32_t round);
    /** @return round number */
    uint32_t GetRound() const;
    /** @param clique clique index within the round */
    void SetClique(uint16_t clique);
    /** @return clique index within the round */
    uint16_t GetClique() const;
    /** @param sender sending island (city index) */
    void SetSender(uint16_t sender);
    /** @return sending island (city index) */
    uint16_t GetSender() const;
    /** @param chunk chunk index within the model state */
    void SetChunk(uint32_t chunk);
    /** @return chunk index */
    uint32_t GetChunk() const;
    /** @param sequence sequence number on the post-aggregation hop */
    void SetSequence(uint32_t sequence);
    /** @return sequence number */
    uint32_t GetSequence() const;
    /**
     * @brief A sender's parity chunk names the data chunks of its block (a
     * stream's last block may be short), in the low 16 bits of the sequence
     * field, which only the post-aggregation hop uses; an FPGA that decodes
     * per stream (FpgaStreamDecoder) needs it.
     * @param length data chunks of the block
     */
    void SetBlockLength(uint16_t length);
    /** @return the data chunks of a parity chunk's block (0: not given) */
    uint16_t GetBlockLength() const;
    /**
     * @brief A sender's parity chunk names the parity rows its stream sends
     * after the block (sized per round, WanLossEstimator), in the high 16
     * bits of the sequence field.
     * @param rows parity chunks sent after the block
     */
    void SetBlockRows(uint16_t rows);
    /** @return the parity rows sent after a parity chunk's block (0: not given) */
    uint16_t GetBlockRows() const;
    /** @param n contributions summed in this packet */
    void SetContributions(uint16_t n);
    /** @return contributions summed */
    uint16_t GetContributions() const;
    /** @param n contributions that complete the chunk */
    void SetExpected(uint16_t n);
    /** @return contributions that complete the chunk */
    uint16_t GetExpected() const;
    /**
     * @param position the sender's position in its clique (members
     *        ascending); in a REQUEST, the position of the peer asked
     */
    void SetPosition(uint16_t position);
    /** @return the sender's position in its clique */
    uint16_t GetPosition() const;
    /**
     * @param sources the senders a sum holds, one element per position in
     *        the clique (empty: not tracked); at most MAX_SOURCE_BITS
     *        positions
     */
    void SetSources(const std::vector<bool>& sources);
    /** @return the senders a sum holds, one element per bitmap position */
    std::vector<bool> GetSources() const;
    /**
     * @param sources the senders a sum holds (empty: not tracked); the
     *        bitmap spans them, up to the highest, which must be below
     *        MAX_SOURCE_BITS
     */
    void SetSourceSet(const WanSourceSet& sources);
    /** @return the senders a sum holds */
    const WanSourceSet& GetSourceSet() const;
    /** @return the positions in the sources bitmap (0: not tracked) */
    uint16_t GetSourceBits() const;
    /**
     * @param value the contribution (or sum), carried as a fixed-point
     *        integer (WanContribution::ToFixed)
     */
    void SetValue(double value);
    /** @return the contribution (or sum) */
    double GetValue() const;
    /** @param fixed the contribution (or sum) as a fixed-point integer */
    void SetFixedValue(int64_t fixed);
    /** @return the contribution (or sum) as a fixed-point integer */
    int64_t GetFixedValue() const;
    /**
     * @param symbol a parity symbol (or a sum of them): word 0 becomes the
     *        value, the other 7 are carried after the sources
     */
    void SetSymbol(const WanGaloisRing::Element& symbol);
    /** @return true when the header carries a whole symbol */
    bool HasSymbol() const;
    /**
     * @return the symbol: the value and the 7 words carried (zeros when
     *         the header carries none)
     */
    WanGaloisRing::Element GetSymbol() const;
    /** @return the symbol's words 1 to 7 (zeros when the header carries none) */
    const WanGaloisRing::Upper& GetUpper() const;

  private:
    Kind m_kind{DATA};              //!< kind
    uint16_t m_position{0};         //!< sender's position in the clique
    uint32_t m_round{0};            //!< round
    uint16_t m_clique{0};           //!< clique
    uint16_t m_sender{0};           //!< sender
    uint32_t m_chunk{0};            //!< chunk
    uint32_t m_sequence{0};         //!< sequence number
    uint16_t m_contributions{1};    //!< contributions summed
    uint16_t m_expected{1};         //!< contributions expected
    int64_t m_value{0};             //!< value, fixed point
    uint16_t m_sourceBits{0};       //!< positions in the sources bitmap
    WanSourceSet m_sources;         //!< senders held
    bool m_hasSymbol{false};        //!< whether the upper words are carried
    WanGaloisRing::Upper m_upper{}; //!< a symbol's words 1 to 7
};

} // namespace ns3

#endif /* WAN_CHUNK_HEADER_H */
