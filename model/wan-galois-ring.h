/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_GALOIS_RING_H
#define WAN_GALOIS_RING_H

#include <array>
#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The Galois ring GR(2^64, 8): polynomials of degree below 8 with
 * coefficients in Z/2^64, modulo the basic irreducible polynomial
 * f(x) = x^8 + x^4 + x^3 + x^2 + 1 (irreducible, indeed primitive, modulo 2).
 *
 * An element is 8 64-bit words, and the ring's addition is the word-wise
 * wrap-around addition an FPGA already does when it sums chunks: a code
 * whose encoding is linear over this ring commutes with that sum.  Only the
 * endpoints multiply.  Reducing every coefficient modulo 2 maps the ring
 * onto the field GF(2^8) (f read as 0x11D); an element is a unit exactly
 * when that image is not 0, so any elements whose images differ pairwise
 * have unit differences (an exceptional set), and Point gives 256 of them.
 * See Abspoel, Cramer, Damgard, Escudero and Yuan, "Efficient
 * information-theoretic secure multiparty computation over Z/p^kZ via
 * Galois rings" (TCC 2019).
 */
class WanGaloisRing
{
  public:
    /// Degree of the extension: words per element.
    static constexpr uint32_t DEGREE = 8;
    /// An element: its coefficients, constant term first.
    using Element = std::array<uint64_t, DEGREE>;
    /// An element's coefficients 1 to DEGREE - 1: what a parity chunk
    /// carries besides its value (WanChunkHeader, FpgaSlotTable).
    using Upper = std::array<uint64_t, DEGREE - 1>;

    /** @return the element 0 */
    static Element Zero();
    /** @return the element 1 */
    static Element One();

    /**
     * @param a an element
     * @param b another
     * @return a + b (word-wise, wrapping around)
     */
    static Element Add(const Element& a, const Element& b);

    /**
     * @param a an element
     * @param b another
     * @return a - b (word-wise, wrapping around)
     */
    static Element Sub(const Element& a, const Element& b);

    /**
     * @param first coefficient 0
     * @param rest coefficients 1 to DEGREE - 1
     * @return the element they make (what a parity chunk's header and an
     *         FPGA slot carry as a value and its upper words)
     */
    static Element Join(uint64_t first, const Upper& rest);
    /**
     * @param a an element
     * @return true when its coefficients 1 to DEGREE - 1 are zero: it is an
     *         integer of Z/2^64 (a chunk's value), not a wider symbol
     */
    static bool IsInteger(const Element& a);

    /**
     * @param a an element
     * @param s a scalar of Z/2^64
     * @return s a (each coefficient times s, wrapping around)
     */
    static Element Scale(const Element& a, uint64_t s);

    /**
     * @param a an element
     * @param b another
     * @return a b, reduced modulo f
     */
    static Element Mul(const Element& a, const Element& b);

    /**
     * @param a an element
     * @return whether a has an inverse (its image in GF(2^8) is not 0)
     */
    static bool IsUnit(const Element& a);

    /**
     * @param a a unit
     * @return its inverse (std::invalid_argument when a is not a unit)
     */
    static Element Inverse(const Element& a);

    /**
     * @param i 0 to 255
     * @return the i-th element of the exceptional set: coefficient b the
     *         b-th bit of i (std::invalid_argument above 255)
     */
    static Element Point(uint32_t i);

    /**
     * @param a an element
     * @return its image in GF(2^8): bit b the low bit of coefficient b
     */
    static uint8_t Residue(const Element& a);
};

} // namespace ns3

#endif /* WAN_GALOIS_RING_H */
