/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_MDS_CODE_H
#define WAN_MDS_CODE_H

#include "wan-galois-ring.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A systematic MDS erasure code over the Galois ring GR(2^64, 8):
 * k data symbols and r parity symbols, any r of the k + r lost and rebuilt.
 *
 * A symbol is a sequence of ring elements (a chunk's 64-bit words, 8 to an
 * element).  Parity j is sum over i of G[j][i] d_i with the generalized
 * Cauchy matrix G[j][i] = (x_0 - y_i) / (x_j - y_i), the points y_i =
 * WanGaloisRing::Point(i) (data) and x_j = Point(k + j) (parity) all in the
 * exceptional set.  Every square submatrix of G is invertible (its
 * determinant is a product of unit differences over a product of unit
 * differences), so the code is MDS: any r erasures are rebuilt, k + r up to
 * 256.  Row 0 is all ones: with r = 1 the parity is the plain word-wise
 * sum of the data, the single parity the islands sent before.  Encoding is
 * linear over the ring, so the sum (wrapping around) of several senders'
 * encodings is the encoding of the sum of their data: an FPGA that adds
 * chunks adds parities too.
 */
class WanMdsCode
{
  public:
    /// A symbol: a chunk as ring elements.
    using Symbol = std::vector<WanGaloisRing::Element>;

    /**
     * @param dataSymbols k, at least 1
     * @param paritySymbols r, with k + r at most 256
     *        (std::invalid_argument otherwise)
     */
    WanMdsCode(uint32_t dataSymbols, uint32_t paritySymbols);

    /** @return k */
    uint32_t GetDataSymbols() const;
    /** @return r */
    uint32_t GetParitySymbols() const;

    /**
     * @param j parity row, below r
     * @param i data column, below k
     * @return G[j][i]
     */
    const WanGaloisRing::Element& GetCoefficient(uint32_t j, uint32_t i) const;

    /**
     * @param data k symbols of one length
     * @return the r parity symbols (std::invalid_argument when the count or
     *         the lengths do not fit)
     */
    std::vector<Symbol> Encode(const std::vector<Symbol>& data) const;

    /**
     * @brief Rebuilds the data from what arrived.
     * @param data k entries, a symbol or nothing (lost)
     * @param parity r entries, likewise
     * @return the k data symbols; std::invalid_argument when more data
     *         symbols are lost than parities arrived (the message says how
     *         many of each), or lengths differ
     */
    std::vector<Symbol> Decode(const std::vector<std::optional<Symbol>>& data,
                               const std::vector<std::optional<Symbol>>& parity) const;

    /**
     * @param words a chunk's 64-bit words
     * @return them as a symbol, the last element padded with zeros
     */
    static Symbol FromWords(const std::vector<uint64_t>& words);

    /**
     * @param symbol a symbol
     * @param count words to keep
     * @return its first `count` words
     */
    static std::vector<uint64_t> ToWords(const Symbol& symbol, size_t count);

  private:
    uint32_t m_k;                                         //!< data symbols
    uint32_t m_r;                                         //!< parity symbols
    std::vector<std::vector<WanGaloisRing::Element>> m_g; //!< G, r rows of k
};

} // namespace ns3

#endif /* WAN_MDS_CODE_H */
