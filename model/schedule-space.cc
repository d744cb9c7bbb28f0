/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-space.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_sf_gamma.h>
#include <map>
#include <numeric>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleSpace");

namespace
{

/// @return the size of every clique label of a round
std::map<uint32_t, uint32_t>
Sizes(const std::vector<uint32_t>& labels)
{
    std::map<uint32_t, uint32_t> sizes;
    for (auto l : labels)
    {
        ++sizes[l];
    }
    return sizes;
}

/// @return the length of the shortest period that the keys repeat
size_t
PrimitivePeriod(const ScheduleSpace::CanonicalForm& keys)
{
    const auto p = keys.size();
    for (size_t d = 1; d < p; ++d)
    {
        if (p % d != 0)
        {
            continue;
        }
        bool repeats = true;
        for (size_t i = d; i < p && repeats; ++i)
        {
            repeats = keys[i] == keys[i - d];
        }
        if (repeats)
        {
            return d;
        }
    }
    return p;
}

/// Calls emit(key) for every partition of n islands into cliques of at most
/// maxClique islands, as restricted growth strings in lexicographic order.
template <typename Emit>
void
EnumeratePartitions(uint32_t n, uint32_t maxClique, Emit emit)
{
    ScheduleEvaluator::RoundKey key(n, 0);
    std::vector<uint32_t> sizes(n + 1, 0);
    std::function<void(uint32_t, uint32_t)> place = [&](uint32_t i, uint32_t used) {
        if (i == n)
        {
            emit(key);
            return;
        }
        for (uint32_t c = 0; c <= used && c < n; ++c)
        {
            if (sizes[c] < maxClique)
            {
                key[i] = static_cast<uint16_t>(c);
                ++sizes[c];
                place(i + 1, std::max(used, c + 1));
                --sizes[c];
            }
        }
    };
    place(0, 0);
}

} // namespace

ScheduleSpace::ScheduleSpace(uint32_t nIslands, uint32_t maxClique, uint32_t maxPeriod)
    : m_n(nIslands),
      m_maxClique(maxClique),
      m_maxPeriod(maxPeriod)
{
}

double
ScheduleSpace::CountPartitions(uint32_t nIslands, uint32_t maxCliqueSize)
{
    // a(n) = sum_j C(n-1, j-1) a(n-j): the clique of the first island has j members.
    std::vector<double> a(nIslands + 1, 0.0);
    a[0] = 1;
    for (uint32_t n = 1; n <= nIslands; ++n)
    {
        for (uint32_t j = 1; j <= std::min(n, maxCliqueSize); ++j)
        {
            a[n] += gsl_sf_choose(n - 1, j - 1) * a[n - j];
        }
    }
    return a[nIslands];
}

double
ScheduleSpace::CountSchedules(double partitions, uint32_t maxPeriod)
{
    // Lyndon words of length p over m letters: (1/p) sum_{d | p} mu(d) m^(p/d).
    auto mobius = [](uint32_t d) {
        int sign = 1;
        for (uint32_t f = 2; f * f <= d; ++f)
        {
            if (d % f == 0)
            {
                d /= f;
                if (d % f == 0)
                {
                    return 0;
                }
                sign = -sign;
            }
        }
        return d > 1 ? -sign : sign;
    };
    double total = 0;
    for (uint32_t p = 1; p <= maxPeriod; ++p)
    {
        double words = 0;
        for (uint32_t d = 1; d <= p; ++d)
        {
            if (p % d == 0)
            {
                words += mobius(d) * std::pow(partitions, p / d);
            }
        }
        total += words / p;
    }
    return total;
}

double
ScheduleSpace::GetPartitions() const
{
    return CountPartitions(m_n, m_maxClique);
}

double
ScheduleSpace::GetSize() const
{
    return CountSchedules(GetPartitions(), m_maxPeriod);
}

ScheduleSpace::CanonicalForm
ScheduleSpace::Canonical(const Rounds& rounds) const
{
    CanonicalForm keys;
    for (const auto& r : rounds)
    {
        keys.push_back(ScheduleEvaluator::KeyOf(r, m_n));
    }
    keys.resize(PrimitivePeriod(keys));
    auto best = keys;
    for (size_t shift = 1; shift < keys.size(); ++shift)
    {
        std::rotate(keys.begin(), keys.begin() + 1, keys.end());
        if (keys < best)
        {
            best = keys;
        }
    }
    return best;
}

std::string
ScheduleSpace::Join(const CanonicalForm& form)
{
    std::string key;
    for (const auto& k : form)
    {
        key.append(reinterpret_cast<const char*>(k.data()), k.size() * sizeof(k[0]));
    }
    return key;
}

std::string
ScheduleSpace::Key(const Rounds& rounds) const
{
    return Join(Canonical(rounds));
}

ScheduleSpace::Rounds
ScheduleSpace::RoundsOf(const CanonicalForm& form)
{
    Rounds rounds;
    for (const auto& k : form)
    {
        rounds.push_back(ScheduleEvaluator::RoundOf(k));
    }
    return rounds;
}

void
ScheduleSpace::ForEachSchedule(const std::function<void(const Rounds&)>& visit) const
{
    std::vector<CliqueSchedule::Round> partitions;
    EnumeratePartitions(m_n, m_maxClique, [&partitions](const ScheduleEvaluator::RoundKey& k) {
        partitions.push_back(ScheduleEvaluator::RoundOf(k));
    });
    // Lyndon words of length <= P over the partitions (Duval's generator).
    const int64_t m = partitions.size();
    std::vector<int64_t> w{-1};
    while (!w.empty())
    {
        ++w.back();
        Rounds rounds;
        for (auto letter : w)
        {
            rounds.push_back(partitions[letter]);
        }
        visit(rounds);
        const size_t len = w.size();
        while (w.size() < m_maxPeriod)
        {
            w.push_back(w[w.size() - len]);
        }
        while (!w.empty() && w.back() == m - 1)
        {
            w.pop_back();
        }
    }
}

ScheduleSpace::Rounds
ScheduleSpace::RandomSchedule(Random& random) const
{
    Rounds rounds;
    const uint32_t p = 1 + random.UniformInt(m_maxPeriod);
    std::vector<uint32_t> order(m_n);
    std::iota(order.begin(), order.end(), 0);
    for (uint32_t k = 0; k < p; ++k)
    {
        random.Shuffle(order);
        CliqueSchedule::Round round;
        for (uint32_t i = 0; i < m_n;)
        {
            uint32_t size = std::min({m_n - i, m_maxClique, 2 + random.UniformInt(2)});
            CliqueSchedule::Clique clique(order.begin() + i, order.begin() + i + size);
            std::sort(clique.begin(), clique.end());
            round.push_back(clique);
            i += size;
        }
        rounds.push_back(round);
    }
    return rounds;
}

void
ScheduleSpace::Mutate(Random& random, Rounds& rounds) const
{
    for (int attempt = 0; attempt < 100; ++attempt)
    {
        if (TryMove(random, rounds))
        {
            return;
        }
    }
}

bool
ScheduleSpace::TryMove(Random& random, Rounds& rounds) const
{
    // Weights: swap 3, move 3, merge 1, split 1, add 1, drop 1, reorder 1.
    static const uint32_t kinds[] = {0, 0, 0, 1, 1, 1, 2, 3, 4, 5, 6};
    const uint32_t kind = kinds[random.UniformInt(sizeof(kinds) / sizeof(kinds[0]))];
    const auto p = static_cast<uint32_t>(rounds.size());
    if (kind == 4) // add a round: a changed copy of one of them
    {
        if (p >= m_maxPeriod)
        {
            return false;
        }
        auto labels = LabelsOf(rounds[random.UniformInt(p)]);
        if (!MoveIslands(random, labels, random.UniformInt(2)))
        {
            return false;
        }
        rounds.insert(rounds.begin() + random.UniformInt(p + 1), RoundOfLabels(labels));
        return true;
    }
    if (kind == 5) // drop a round
    {
        if (p < 2)
        {
            return false;
        }
        rounds.erase(rounds.begin() + random.UniformInt(p));
        return true;
    }
    if (kind == 6) // move a round to another place of the period
    {
        if (p < 3)
        {
            return false;
        }
        const uint32_t from = random.UniformInt(p);
        auto round = rounds[from];
        rounds.erase(rounds.begin() + from);
        uint32_t to = random.UniformInt(p - 1);
        if (to >= from)
        {
            ++to;
        }
        rounds.insert(rounds.begin() + std::min<size_t>(to, rounds.size()), round);
        return true;
    }
    const uint32_t k = random.UniformInt(p);
    auto labels = LabelsOf(rounds[k]);
    if (!MoveIslands(random, labels, kind))
    {
        return false;
    }
    rounds[k] = RoundOfLabels(labels);
    return true;
}

bool
ScheduleSpace::MoveIslands(Random& random, Labels& labels, uint32_t kind) const
{
    switch (kind)
    {
    case 0:
        return SwapIslands(random, labels);
    case 1:
        return MoveIsland(random, labels);
    case 2:
        return MergeCliques(random, labels);
    default:
        return SplitClique(random, labels);
    }
}

bool
ScheduleSpace::SwapIslands(Random& random, Labels& labels) const
{
    const uint32_t i = random.UniformInt(m_n);
    std::vector<uint32_t> others;
    for (uint32_t j = 0; j < m_n; ++j)
    {
        if (labels[j] != labels[i])
        {
            others.push_back(j);
        }
    }
    if (others.empty())
    {
        return false;
    }
    std::swap(labels[i], labels[others[random.UniformInt(others.size())]]);
    return true;
}

bool
ScheduleSpace::MoveIsland(Random& random, Labels& labels) const
{
    auto sizes = Sizes(labels);
    const uint32_t i = random.UniformInt(m_n);
    std::vector<uint32_t> targets;
    for (const auto& [label, size] : sizes)
    {
        if (label != labels[i] && size < m_maxClique)
        {
            targets.push_back(label);
        }
    }
    if (sizes[labels[i]] > 1)
    {
        targets.push_back(m_n); // a label no island has: a clique of its own
    }
    if (targets.empty())
    {
        return false;
    }
    labels[i] = targets[random.UniformInt(targets.size())];
    return true;
}

bool
ScheduleSpace::MergeCliques(Random& random, Labels& labels) const
{
    auto sizes = Sizes(labels);
    std::vector<std::pair<uint32_t, uint32_t>> pairs;
    for (auto a = sizes.begin(); a != sizes.end(); ++a)
    {
        for (auto b = std::next(a); b != sizes.end(); ++b)
        {
            if (a->second + b->second <= m_maxClique)
            {
                pairs.emplace_back(a->first, b->first);
            }
        }
    }
    if (pairs.empty())
    {
        return false;
    }
    auto [a, b] = pairs[random.UniformInt(pairs.size())];
    std::replace(labels.begin(), labels.end(), b, a);
    return true;
}

bool
ScheduleSpace::SplitClique(Random& random, Labels& labels) const
{
    std::vector<uint32_t> splittable;
    for (const auto& [label, size] : Sizes(labels))
    {
        if (size > 1)
        {
            splittable.push_back(label);
        }
    }
    if (splittable.empty())
    {
        return false;
    }
    const uint32_t c = splittable[random.UniformInt(splittable.size())];
    std::vector<uint32_t> members;
    for (uint32_t i = 0; i < m_n; ++i)
    {
        if (labels[i] == c)
        {
            members.push_back(i);
        }
    }
    // A uniform non-empty proper subset leaves for a new clique (label m_n).
    uint64_t subsets = (uint64_t{1} << std::min<size_t>(members.size(), 62)) - 2;
    uint64_t mask = 1 + static_cast<uint64_t>(random.Uniform() * subsets);
    for (size_t k = 0; k < members.size() && k < 62; ++k)
    {
        if (mask & (uint64_t{1} << k))
        {
            labels[members[k]] = m_n;
        }
    }
    return true;
}

ScheduleSpace::Labels
ScheduleSpace::LabelsOf(const CliqueSchedule::Round& round) const
{
    auto key = ScheduleEvaluator::KeyOf(round, m_n);
    return Labels(key.begin(), key.end());
}

CliqueSchedule::Round
ScheduleSpace::RoundOfLabels(const Labels& labels)
{
    std::map<uint32_t, uint16_t> renumber;
    ScheduleEvaluator::RoundKey key;
    for (auto l : labels)
    {
        auto it = renumber.emplace(l, static_cast<uint16_t>(renumber.size())).first;
        key.push_back(it->second);
    }
    return ScheduleEvaluator::RoundOf(key);
}

ScheduleSpace::GslRandom::GslRandom(const gsl_rng* rng)
    : m_rng(rng)
{
}

uint32_t
ScheduleSpace::GslRandom::UniformInt(uint32_t n)
{
    return static_cast<uint32_t>(gsl_rng_uniform_int(m_rng, n));
}

double
ScheduleSpace::GslRandom::Uniform()
{
    return gsl_rng_uniform(m_rng);
}

void
ScheduleSpace::GslRandom::Shuffle(std::vector<uint32_t>& values)
{
    gsl_ran_shuffle(m_rng, values.data(), values.size(), sizeof(uint32_t));
}

ScheduleSpace::SeededRandom::SeededRandom(uint64_t seed)
    : SeededRandom(gsl_rng_alloc(gsl_rng_mt19937), seed)
{
}

ScheduleSpace::SeededRandom::SeededRandom(gsl_rng* rng, uint64_t seed)
    : GslRandom(rng),
      m_owned(rng)
{
    gsl_rng_set(m_owned, static_cast<unsigned long>(seed));
}

ScheduleSpace::SeededRandom::~SeededRandom()
{
    gsl_rng_free(m_owned);
}

} // namespace ns3
