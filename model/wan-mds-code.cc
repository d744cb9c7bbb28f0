/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-mds-code.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace ns3
{

namespace
{

using Element = WanGaloisRing::Element;
using Symbol = WanMdsCode::Symbol;

/**
 * @param to a symbol, in place: to - factor x from
 * @param factor a ring element
 * @param from a symbol of the same length
 */
void
SubtractScaled(Symbol& to, const Element& factor, const Symbol& from)
{
    for (size_t e = 0; e < to.size(); ++e)
    {
        to[e] = WanGaloisRing::Sub(to[e], WanGaloisRing::Mul(factor, from[e]));
    }
}

/**
 * @param symbol a symbol, in place: factor x symbol
 * @param factor a ring element
 */
void
Scale(Symbol& symbol, const Element& factor)
{
    for (auto& e : symbol)
    {
        e = WanGaloisRing::Mul(factor, e);
    }
}

/**
 * @brief Solves m x = s in place over the ring (m square and invertible:
 * each column has a unit pivot), leaving x in s.
 * @param m the matrix, rows
 * @param s the right-hand sides, one symbol per row
 */
void
Solve(std::vector<std::vector<Element>>& m, std::vector<Symbol>& s)
{
    const size_t n = m.size();
    for (size_t c = 0; c < n; ++c)
    {
        size_t pivot = c;
        while (pivot < n && !WanGaloisRing::IsUnit(m[pivot][c]))
        {
            ++pivot;
        }
        if (pivot == n)
        {
            throw std::logic_error("MDS code: a submatrix of the generator is singular");
        }
        std::swap(m[pivot], m[c]);
        std::swap(s[pivot], s[c]);
        const Element inverse = WanGaloisRing::Inverse(m[c][c]);
        for (auto& e : m[c])
        {
            e = WanGaloisRing::Mul(inverse, e);
        }
        Scale(s[c], inverse);
        for (size_t q = 0; q < n; ++q)
        {
            if (q == c)
            {
                continue;
            }
            const Element factor = m[q][c];
            for (size_t b = 0; b < n; ++b)
            {
                m[q][b] = WanGaloisRing::Sub(m[q][b], WanGaloisRing::Mul(factor, m[c][b]));
            }
            SubtractScaled(s[q], factor, s[c]);
        }
    }
}

} // namespace

WanMdsCode::WanMdsCode(uint32_t dataSymbols, uint32_t paritySymbols)
    : m_k(dataSymbols),
      m_r(paritySymbols)
{
    if (m_k == 0 || m_k + m_r > 256)
    {
        throw std::invalid_argument("MDS code: " + std::to_string(m_k) + " data and " +
                                    std::to_string(m_r) +
                                    " parity symbols (need at least 1 data symbol and at most "
                                    "256 in all)");
    }
    for (uint32_t j = 0; j < m_r; ++j)
    {
        std::vector<Element> row;
        const Element x = WanGaloisRing::Point(m_k + j);
        const Element x0 = WanGaloisRing::Point(m_k);
        for (uint32_t i = 0; i < m_k; ++i)
        {
            const Element y = WanGaloisRing::Point(i);
            row.push_back(WanGaloisRing::Mul(WanGaloisRing::Sub(x0, y),
                                             WanGaloisRing::Inverse(WanGaloisRing::Sub(x, y))));
        }
        m_g.push_back(std::move(row));
    }
}

uint32_t
WanMdsCode::GetDataSymbols() const
{
    return m_k;
}

uint32_t
WanMdsCode::GetParitySymbols() const
{
    return m_r;
}

const WanGaloisRing::Element&
WanMdsCode::GetCoefficient(uint32_t j, uint32_t i) const
{
    return m_g.at(j).at(i);
}

std::vector<WanMdsCode::Symbol>
WanMdsCode::Encode(const std::vector<Symbol>& data) const
{
    if (data.size() != m_k)
    {
        throw std::invalid_argument("MDS code: " + std::to_string(data.size()) +
                                    " data symbols given, " + std::to_string(m_k) + " expected");
    }
    const size_t length = data.front().size();
    std::vector<Symbol> parity(m_r, Symbol(length, WanGaloisRing::Zero()));
    for (uint32_t i = 0; i < m_k; ++i)
    {
        if (data[i].size() != length)
        {
            throw std::invalid_argument("MDS code: data symbols of different lengths");
        }
        for (uint32_t j = 0; j < m_r; ++j)
        {
            for (size_t e = 0; e < length; ++e)
            {
                parity[j][e] =
                    WanGaloisRing::Add(parity[j][e], WanGaloisRing::Mul(m_g[j][i], data[i][e]));
            }
        }
    }
    return parity;
}

std::vector<WanMdsCode::Symbol>
WanMdsCode::Decode(const std::vector<std::optional<Symbol>>& data,
                   const std::vector<std::optional<Symbol>>& parity) const
{
    if (data.size() != m_k || parity.size() != m_r)
    {
        throw std::invalid_argument("MDS code: " + std::to_string(data.size()) + " data and " +
                                    std::to_string(parity.size()) + " parity entries given, " +
                                    std::to_string(m_k) + " and " + std::to_string(m_r) +
                                    " expected");
    }
    std::vector<uint32_t> lost;
    for (uint32_t i = 0; i < m_k; ++i)
    {
        if (!data[i])
        {
            lost.push_back(i);
        }
    }
    std::vector<uint32_t> rows;
    for (uint32_t j = 0; j < m_r && rows.size() < lost.size(); ++j)
    {
        if (parity[j])
        {
            rows.push_back(j);
        }
    }
    if (rows.size() < lost.size())
    {
        throw std::invalid_argument("MDS code: cannot rebuild " + std::to_string(lost.size()) +
                                    " lost data symbols from " + std::to_string(rows.size()) +
                                    " parity symbols");
    }
    std::vector<Symbol> out;
    for (const auto& d : data)
    {
        out.push_back(d ? *d : Symbol());
    }
    if (lost.empty())
    {
        return out;
    }
    const size_t length = parity[rows.front()]->size();
    // What the lost symbols owe each parity row: the parity less the
    // received data's share.
    std::vector<std::vector<Element>> m;
    std::vector<Symbol> s;
    for (uint32_t j : rows)
    {
        Symbol owed = *parity[j];
        if (owed.size() != length)
        {
            throw std::invalid_argument("MDS code: parity symbols of different lengths");
        }
        for (uint32_t i = 0; i < m_k; ++i)
        {
            if (data[i])
            {
                if (data[i]->size() != length)
                {
                    throw std::invalid_argument("MDS code: data and parity of different lengths");
                }
                SubtractScaled(owed, m_g[j][i], *data[i]);
            }
        }
        std::vector<Element> row;
        for (uint32_t i : lost)
        {
            row.push_back(m_g[j][i]);
        }
        m.push_back(std::move(row));
        s.push_back(std::move(owed));
    }
    Solve(m, s);
    for (size_t b = 0; b < lost.size(); ++b)
    {
        out[lost[b]] = std::move(s[b]);
    }
    return out;
}

WanMdsCode::Symbol
WanMdsCode::FromWords(const std::vector<uint64_t>& words)
{
    const uint32_t d = WanGaloisRing::DEGREE;
    Symbol symbol((words.size() + d - 1) / d, WanGaloisRing::Zero());
    for (size_t w = 0; w < words.size(); ++w)
    {
        symbol[w / d][w % d] = words[w];
    }
    return symbol;
}

std::vector<uint64_t>
WanMdsCode::ToWords(const Symbol& symbol, size_t count)
{
    const uint32_t d = WanGaloisRing::DEGREE;
    if (count > symbol.size() * d)
    {
        throw std::invalid_argument("MDS code: " + std::to_string(count) +
                                    " words asked of a symbol of " +
                                    std::to_string(symbol.size() * d));
    }
    std::vector<uint64_t> words(count);
    for (size_t w = 0; w < count; ++w)
    {
        words[w] = symbol[w / d][w % d];
    }
    return words;
}

} // namespace ns3
