/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-test-utils.h"

#include "ns3/test.h"
#include "ns3/wan-galois-ring.h"
#include "ns3/wan-mds-code.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

using namespace ns3;
using namespace ns3::wantest;

namespace
{

using Element = WanGaloisRing::Element;
using Symbol = WanMdsCode::Symbol;

/**
 * @param rng a generator
 * @return an element with random words
 */
Element
RandomElement(std::mt19937_64& rng)
{
    Element e;
    for (auto& w : e)
    {
        w = rng();
    }
    return e;
}

/**
 * @param rng a generator
 * @param k symbols
 * @param length elements per symbol
 * @return k random symbols
 */
std::vector<Symbol>
RandomData(std::mt19937_64& rng, uint32_t k, size_t length)
{
    std::vector<Symbol> data(k, Symbol(length));
    for (auto& symbol : data)
    {
        for (auto& e : symbol)
        {
            e = RandomElement(rng);
        }
    }
    return data;
}

/**
 * @param a symbols
 * @param b as many symbols of the same lengths
 * @return their sums, symbol by symbol
 */
std::vector<Symbol>
AddAll(const std::vector<Symbol>& a, const std::vector<Symbol>& b)
{
    std::vector<Symbol> sum = a;
    for (size_t s = 0; s < a.size(); ++s)
    {
        for (size_t e = 0; e < a[s].size(); ++e)
        {
            sum[s][e] = WanGaloisRing::Add(a[s][e], b[s][e]);
        }
    }
    return sum;
}

} // namespace

/**
 * @ingroup wan-training-tests
 * @brief The ring by hand: x times x^7 is x^8 = -(x^4 + x^3 + x^2 + 1)
 * modulo f; 1 + 2x and the points are units, 2 is not; a random unit times
 * its inverse is 1; multiplication distributes over the FPGA's addition.
 */
class GaloisRingTestCase : public WanTestCase
{
  public:
    GaloisRingTestCase()
        : WanTestCase("GR(2^64, 8) by hand: reduction, units, inverses, distributivity")
    {
    }

  private:
    void DoCheck() override
    {
        Element x{};
        x[1] = 1;
        Element x7{};
        x7[7] = 1;
        const Element x8 = WanGaloisRing::Mul(x, x7);
        const uint64_t minusOne = ~uint64_t{0};
        NS_TEST_EXPECT_MSG_EQ((x8 == Element{minusOne, 0, minusOne, minusOne, minusOne, 0, 0, 0}),
                              true,
                              "x^8 = -(x^4 + x^3 + x^2 + 1)");
        Element a = WanGaloisRing::One();
        a[1] = 2; // 1 + 2x: 1 modulo 2
        NS_TEST_EXPECT_MSG_EQ(WanGaloisRing::IsUnit(a), true, "1 + 2x");
        NS_TEST_EXPECT_MSG_EQ(
            (WanGaloisRing::Mul(a, WanGaloisRing::Inverse(a)) == WanGaloisRing::One()),
            true,
            "(1 + 2x) / (1 + 2x)");
        Element two{};
        two[0] = 2;
        NS_TEST_EXPECT_MSG_EQ(WanGaloisRing::IsUnit(two), false, "2 is 0 modulo 2");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([&] { WanGaloisRing::Inverse(two); }), "not a unit"),
                              true,
                              "2 has no inverse");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([] { WanGaloisRing::Point(256); }),
                                       "point 256 outside the exceptional set (0 to 255)"),
                              true,
                              "256 points");
        std::mt19937_64 rng(11);
        uint32_t inverted = 0;
        uint32_t distributes = 0;
        for (uint32_t n = 0; n < 1000; ++n)
        {
            auto u = RandomElement(rng);
            u[0] |= 1; // odd constant term: a unit
            inverted +=
                WanGaloisRing::Mul(u, WanGaloisRing::Inverse(u)) == WanGaloisRing::One() ? 1 : 0;
            const auto b = RandomElement(rng);
            const auto c = RandomElement(rng);
            distributes +=
                WanGaloisRing::Mul(u, WanGaloisRing::Add(b, c)) ==
                        WanGaloisRing::Add(WanGaloisRing::Mul(u, b), WanGaloisRing::Mul(u, c))
                    ? 1
                    : 0;
        }
        NS_TEST_EXPECT_MSG_EQ(inverted, 1000, "u / u = 1");
        NS_TEST_EXPECT_MSG_EQ(distributes, 1000, "u (b + c) = u b + u c");
        // Every difference of two of the 256 points is a unit.
        uint32_t units = 0;
        for (uint32_t i = 0; i < 256; ++i)
        {
            for (uint32_t j = i + 1; j < 256; ++j)
            {
                units += WanGaloisRing::IsUnit(
                             WanGaloisRing::Sub(WanGaloisRing::Point(i), WanGaloisRing::Point(j)))
                             ? 1
                             : 0;
            }
        }
        NS_TEST_EXPECT_MSG_EQ(units, 256 * 255 / 2, "an exceptional set");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief With one parity symbol the code is the plain sum the islands sent
 * before; encoding commutes with the FPGA's addition: eight senders'
 * parities summed are the parities of their summed data.
 */
class MdsCodeLinearTestCase : public WanTestCase
{
  public:
    MdsCodeLinearTestCase()
        : WanTestCase(
              "one parity is the plain sum; the sum of encodings is the encoding of the sum")
    {
    }

  private:
    void DoCheck() override
    {
        std::mt19937_64 rng(12);
        const WanMdsCode single(32, 1);
        const auto data = RandomData(rng, 32, 3);
        Symbol sum(3, WanGaloisRing::Zero());
        for (const auto& d : data)
        {
            for (size_t e = 0; e < 3; ++e)
            {
                sum[e] = WanGaloisRing::Add(sum[e], d[e]);
            }
        }
        NS_TEST_EXPECT_MSG_EQ((single.Encode(data).at(0) == sum), true, "r = 1: the sum");

        const WanMdsCode code(32, 4);
        auto total = RandomData(rng, 32, 3);
        auto parities = code.Encode(total);
        for (uint32_t sender = 1; sender < 8; ++sender)
        {
            const auto more = RandomData(rng, 32, 3);
            total = AddAll(total, more);
            parities = AddAll(parities, code.Encode(more));
        }
        NS_TEST_EXPECT_MSG_EQ((parities == code.Encode(total)), true, "eight senders");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([] { WanMdsCode(0, 4); }),
                                       "0 data and 4 parity symbols (need at least 1 data symbol "
                                       "and at most 256 in all)"),
                              true,
                              "no data");
        NS_TEST_EXPECT_MSG_EQ(Mentions(ErrorOf([] { WanMdsCode(250, 7); }), "at most 256"),
                              true,
                              "257 symbols");
        const auto words = std::vector<uint64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        NS_TEST_EXPECT_MSG_EQ((WanMdsCode::ToWords(WanMdsCode::FromWords(words), 10) == words),
                              true,
                              "words round trip, padded to 16");
        NS_TEST_EXPECT_MSG_EQ(WanMdsCode::FromWords(words).size(), 2, "two elements");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief 10^4 random erasure patterns of at most r symbols (data and parity
 * alike, k = 32, r = 4, and k = 128, r = 4) decode bit-exactly; r + 1 lost
 * data symbols are refused with one line.
 */
class MdsCodeErasureTestCase : public WanTestCase
{
  public:
    MdsCodeErasureTestCase()
        : WanTestCase("10^4 random erasure patterns of at most r symbols decode bit-exactly")
    {
    }

  private:
    void DoCheck() override
    {
        std::mt19937_64 rng(13);
        uint32_t patterns = 0;
        uint32_t exact = 0;
        uint32_t rebuilt = 0;
        for (uint32_t k : {32u, 128u})
        {
            const uint32_t r = 4;
            const WanMdsCode code(k, r);
            for (uint32_t block = 0; block < 50; ++block)
            {
                const auto data = RandomData(rng, k, 2);
                const auto parity = code.Encode(data);
                for (uint32_t trial = 0; trial < 100; ++trial)
                {
                    std::vector<uint32_t> order(k + r);
                    std::iota(order.begin(), order.end(), 0);
                    std::shuffle(order.begin(), order.end(), rng);
                    const uint32_t losses = rng() % (r + 1);
                    std::vector<std::optional<Symbol>> got(data.begin(), data.end());
                    std::vector<std::optional<Symbol>> gotParity(parity.begin(), parity.end());
                    for (uint32_t l = 0; l < losses; ++l)
                    {
                        auto& slot = order[l] < k ? got[order[l]] : gotParity[order[l] - k];
                        rebuilt += order[l] < k ? 1 : 0;
                        slot.reset();
                    }
                    const auto decoded = code.Decode(got, gotParity);
                    exact += decoded == data ? 1 : 0;
                    ++patterns;
                }
            }
        }
        NS_TEST_EXPECT_MSG_EQ(patterns, 10000, "patterns");
        NS_TEST_EXPECT_MSG_EQ(exact, 10000, "decoded bit-exactly");
        NS_TEST_EXPECT_MSG_GT(rebuilt, 10000, "data symbols rebuilt");

        const WanMdsCode code(32, 4);
        const auto data = RandomData(rng, 32, 1);
        const auto parity = code.Encode(data);
        std::vector<std::optional<Symbol>> got(data.begin(), data.end());
        std::vector<std::optional<Symbol>> gotParity(parity.begin(), parity.end());
        for (uint32_t i = 0; i < 5; ++i)
        {
            got[3 * i].reset();
        }
        const auto error = ErrorOf([&] { code.Decode(got, gotParity); });
        NS_TEST_EXPECT_MSG_EQ(error,
                              "MDS code: cannot rebuild 5 lost data symbols from 4 parity symbols",
                              "r + 1 losses");
    }
};

/**
 * @ingroup wan-training-tests
 * @brief The MDS code's test suite.
 */
class WanMdsCodeTestSuite : public TestSuite
{
  public:
    WanMdsCodeTestSuite()
        : TestSuite("wan-training-mds-code", Type::UNIT)
    {
        AddTestCase(new GaloisRingTestCase);
        AddTestCase(new MdsCodeLinearTestCase);
        AddTestCase(new MdsCodeErasureTestCase);
    }
};

/// The suite's static instance.
static WanMdsCodeTestSuite g_wanMdsCodeTestSuite;
