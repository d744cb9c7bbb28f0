/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-galois-ring.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

namespace
{

/// f modulo 2, as a GF(2^8) modulus: x^8 + x^4 + x^3 + x^2 + 1.
constexpr uint32_t FIELD_MODULUS = 0x11D;

/**
 * @param a an element of GF(2^8)
 * @param b another
 * @return their product modulo FIELD_MODULUS
 */
uint8_t
FieldMul(uint8_t a, uint8_t b)
{
    uint32_t product = 0;
    uint32_t x = a;
    for (uint32_t bit = 0; bit < 8; ++bit)
    {
        if (b & (1u << bit))
        {
            product ^= x << bit;
        }
    }
    for (int bit = 14; bit >= 8; --bit)
    {
        if (product & (1u << bit))
        {
            product ^= FIELD_MODULUS << (bit - 8);
        }
    }
    return static_cast<uint8_t>(product);
}

/**
 * @param a a non-zero element of GF(2^8)
 * @return its inverse, a^254
 */
uint8_t
FieldInverse(uint8_t a)
{
    uint8_t result = 1;
    uint8_t power = a;
    for (uint32_t e = 254; e > 0; e >>= 1)
    {
        if (e & 1)
        {
            result = FieldMul(result, power);
        }
        power = FieldMul(power, power);
    }
    return result;
}

} // namespace

WanGaloisRing::Element
WanGaloisRing::Zero()
{
    return Element{};
}

WanGaloisRing::Element
WanGaloisRing::One()
{
    Element one{};
    one[0] = 1;
    return one;
}

WanGaloisRing::Element
WanGaloisRing::Add(const Element& a, const Element& b)
{
    Element sum;
    for (uint32_t i = 0; i < DEGREE; ++i)
    {
        sum[i] = a[i] + b[i];
    }
    return sum;
}

WanGaloisRing::Element
WanGaloisRing::Sub(const Element& a, const Element& b)
{
    Element difference;
    for (uint32_t i = 0; i < DEGREE; ++i)
    {
        difference[i] = a[i] - b[i];
    }
    return difference;
}

WanGaloisRing::Element
WanGaloisRing::Join(uint64_t first, const Upper& rest)
{
    Element out{};
    out[0] = first;
    std::copy(rest.begin(), rest.end(), out.begin() + 1);
    return out;
}

bool
WanGaloisRing::IsInteger(const Element& a)
{
    return std::all_of(a.begin() + 1, a.end(), [](uint64_t w) { return w == 0; });
}

WanGaloisRing::Element
WanGaloisRing::Scale(const Element& a, uint64_t s)
{
    Element out{};
    for (uint32_t t = 0; t < DEGREE; ++t)
    {
        out[t] = a[t] * s;
    }
    return out;
}

WanGaloisRing::Element
WanGaloisRing::Mul(const Element& a, const Element& b)
{
    std::array<uint64_t, 2 * DEGREE - 1> product{};
    for (uint32_t i = 0; i < DEGREE; ++i)
    {
        for (uint32_t j = 0; j < DEGREE; ++j)
        {
            product[i + j] += a[i] * b[j];
        }
    }
    // x^8 = -(x^4 + x^3 + x^2 + 1) modulo f, from the top term down.
    for (uint32_t t = 2 * DEGREE - 2; t >= DEGREE; --t)
    {
        const uint64_t c = product[t];
        product[t] = 0;
        product[t - DEGREE + 4] -= c;
        product[t - DEGREE + 3] -= c;
        product[t - DEGREE + 2] -= c;
        product[t - DEGREE] -= c;
    }
    Element reduced;
    for (uint32_t i = 0; i < DEGREE; ++i)
    {
        reduced[i] = product[i];
    }
    return reduced;
}

uint8_t
WanGaloisRing::Residue(const Element& a)
{
    uint8_t bits = 0;
    for (uint32_t i = 0; i < DEGREE; ++i)
    {
        bits |= static_cast<uint8_t>((a[i] & 1) << i);
    }
    return bits;
}

bool
WanGaloisRing::IsUnit(const Element& a)
{
    return Residue(a) != 0;
}

WanGaloisRing::Element
WanGaloisRing::Inverse(const Element& a)
{
    const uint8_t residue = Residue(a);
    if (residue == 0)
    {
        throw std::invalid_argument("Galois ring: the element is not a unit (it is 0 modulo 2)");
    }
    // The inverse modulo 2, then Newton's step b <- b (2 - a b), which
    // doubles the bits of precision: 1, 2, 4, ..., 64.
    Element b = Point(FieldInverse(residue));
    Element two{};
    two[0] = 2;
    for (uint32_t bits = 1; bits < 64; bits *= 2)
    {
        b = Mul(b, Sub(two, Mul(a, b)));
    }
    return b;
}

WanGaloisRing::Element
WanGaloisRing::Point(uint32_t i)
{
    if (i > 255)
    {
        throw std::invalid_argument("Galois ring: point " + std::to_string(i) +
                                    " outside the exceptional set (0 to 255)");
    }
    Element p{};
    for (uint32_t bit = 0; bit < DEGREE; ++bit)
    {
        p[bit] = (i >> bit) & 1;
    }
    return p;
}

} // namespace ns3
