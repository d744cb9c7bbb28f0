/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-source-set.h"

#include <algorithm>

namespace ns3
{

namespace
{

/// @return the number of set bits of w
uint32_t
PopCount(uint64_t w)
{
#if __cplusplus >= 202002L
    return static_cast<uint32_t>(std::popcount(w));
#else
    return static_cast<uint32_t>(__builtin_popcountll(w));
#endif
}

/// @return the index of the highest set bit of w (w != 0)
uint32_t
HighestBit(uint64_t w)
{
#if __cplusplus >= 202002L
    return static_cast<uint32_t>(63 - std::countl_zero(w));
#else
    return static_cast<uint32_t>(63 - __builtin_clzll(w));
#endif
}

} // namespace

WanSourceSet
WanSourceSet::Of(uint32_t position)
{
    WanSourceSet s;
    s.Set(position);
    return s;
}

WanSourceSet
WanSourceSet::FromPositions(const std::vector<uint32_t>& positions)
{
    WanSourceSet s;
    for (auto p : positions)
    {
        s.Set(p);
    }
    return s;
}

WanSourceSet
WanSourceSet::FromBits(const std::vector<bool>& bits)
{
    WanSourceSet s;
    for (uint32_t p = 0; p < bits.size(); ++p)
    {
        if (bits[p])
        {
            s.Set(p);
        }
    }
    return s;
}

std::vector<bool>
WanSourceSet::ToBits(uint32_t width) const
{
    std::vector<bool> bits(std::max(width, GetSpan()), false);
    ForEach([&bits](uint32_t p) { bits[p] = true; });
    return bits;
}

void
WanSourceSet::Set(uint32_t position)
{
    const uint32_t k = position / WORD_BITS;
    const uint64_t bit = uint64_t{1} << (position % WORD_BITS);
    if (k == 0)
    {
        m_low |= bit;
        return;
    }
    if (m_high.size() < k)
    {
        m_high.resize(k, 0);
    }
    m_high[k - 1] |= bit;
}

bool
WanSourceSet::Test(uint32_t position) const
{
    return ((GetWord(position / WORD_BITS) >> (position % WORD_BITS)) & 1u) != 0;
}

uint32_t
WanSourceSet::Count() const
{
    uint32_t n = PopCount(m_low);
    for (uint64_t w : m_high)
    {
        n += PopCount(w);
    }
    return n;
}

bool
WanSourceSet::IsEmpty() const
{
    return m_low == 0 && m_high.empty();
}

uint32_t
WanSourceSet::GetSpan() const
{
    if (!m_high.empty())
    {
        const auto k = static_cast<uint32_t>(m_high.size());
        return k * WORD_BITS + HighestBit(m_high.back()) + 1;
    }
    return m_low == 0 ? 0 : HighestBit(m_low) + 1;
}

bool
WanSourceSet::Intersects(const WanSourceSet& other) const
{
    if ((m_low & other.m_low) != 0)
    {
        return true;
    }
    const size_t n = std::min(m_high.size(), other.m_high.size());
    for (size_t k = 0; k < n; ++k)
    {
        if ((m_high[k] & other.m_high[k]) != 0)
        {
            return true;
        }
    }
    return false;
}

WanSourceSet&
WanSourceSet::operator|=(const WanSourceSet& other)
{
    m_low |= other.m_low;
    if (m_high.size() < other.m_high.size())
    {
        m_high.resize(other.m_high.size(), 0);
    }
    for (size_t k = 0; k < other.m_high.size(); ++k)
    {
        m_high[k] |= other.m_high[k];
    }
    return *this;
}

bool
WanSourceSet::operator==(const WanSourceSet& other) const
{
    return m_low == other.m_low && m_high == other.m_high;
}

bool
WanSourceSet::operator!=(const WanSourceSet& other) const
{
    return !(*this == other);
}

uint32_t
WanSourceSet::GetWordCount() const
{
    return m_high.empty() ? (m_low == 0 ? 0 : 1) : static_cast<uint32_t>(m_high.size()) + 1;
}

uint64_t
WanSourceSet::GetWord(uint32_t k) const
{
    if (k == 0)
    {
        return m_low;
    }
    return k <= m_high.size() ? m_high[k - 1] : 0;
}

void
WanSourceSet::SetWord(uint32_t k, uint64_t bits)
{
    if (k == 0)
    {
        m_low = bits;
        return;
    }
    if (m_high.size() < k)
    {
        if (bits == 0)
        {
            return;
        }
        m_high.resize(k, 0);
    }
    m_high[k - 1] = bits;
    Trim();
}

void
WanSourceSet::Trim()
{
    while (!m_high.empty() && m_high.back() == 0)
    {
        m_high.pop_back();
    }
}

} // namespace ns3
