/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-optimizer.h"

#include "wan-training-text.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sf_gamma.h>
#include <gsl/gsl_siman.h>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleOptimizer");

NS_OBJECT_ENSURE_REGISTERED(ScheduleOptimizer);

namespace
{

using Rounds = std::vector<CliqueSchedule::Round>;
using Labels = std::vector<uint32_t>;

/// Energy floor of an infeasible or never mixing schedule (above ln J of
/// any feasible one).
constexpr double kPenalty = 30;
/// Energy of each group of islands beyond the first that never meet.
constexpr double kPerComponent = 2;
/// Energies closer than this are a tie (the LP's rounding); the first found stays.
constexpr double kTie = 1e-9;
/// Temperature steps of the annealing schedule.
constexpr uint32_t kTemperatureSteps = 100;
/// Largest space that "exhaustive" accepts.
constexpr double kEnumerationCap = 1e7;

/**
 * The state of one search: the evaluator, the cache of evaluated schedules
 * and the best one so far.
 */
class Search
{
  public:
    Search(ScheduleEvaluator& evaluator,
           uint32_t maxPeriod,
           uint32_t maxClique,
           TracedCallback<double, uint64_t>& improvement)
        : m_evaluator(evaluator),
          m_n(evaluator.GetTopology().GetNCities()),
          m_maxPeriod(maxPeriod),
          m_maxClique(maxClique),
          m_improvement(improvement)
    {
    }

    /// \return round keys joined into a string of bytes
    static std::string Join(const std::vector<ScheduleEvaluator::RoundKey>& keys)
    {
        std::string key;
        for (const auto& k : keys)
        {
            key.append(reinterpret_cast<const char*>(k.data()), k.size() * sizeof(k[0]));
        }
        return key;
    }

    /// \return the canonical form as a string of bytes
    std::string Key(const Rounds& rounds) const
    {
        return Join(Canonical(rounds));
    }

    /// \return the energy of a schedule (cached by its canonical form)
    double Energy(const Rounds& rounds)
    {
        ++m_steps;
        auto canonical = Canonical(rounds);
        auto key = Join(canonical);
        auto it = m_energy.find(key);
        if (it != m_energy.end())
        {
            return it->second;
        }
        Rounds r;
        for (const auto& k : canonical)
        {
            r.push_back(ScheduleEvaluator::RoundOf(k));
        }
        auto e = m_evaluator.Evaluate(r);
        double energy = EnergyOf(e);
        m_energy.emplace(key, energy);
        if (!m_hasBest || energy < m_bestEnergy - kTie)
        {
            m_hasBest = true;
            m_bestEnergy = energy;
            m_best = r;
            NS_LOG_INFO("step " << m_steps << ": J " << e.objective << " ms-error, T "
                                << e.roundTimeMs << " ms, A " << e.disagreement);
            m_improvement(e.objective, m_steps);
        }
        return energy;
    }

    /// \return ln J, or a penalty above every feasible schedule that
    ///         decreases as the schedule comes closer to feasible and mixing
    static double EnergyOf(const ScheduleEvaluation& e)
    {
        if (e.feasible && std::isfinite(e.objective))
        {
            return std::log(std::max(e.objective, 1e-300));
        }
        double energy = kPenalty;
        if (!e.feasible)
        {
            energy += std::log1p(e.misalignedBytes / 1e6); // memory in MB that is missing
        }
        if (e.components > 1)
        {
            energy += kPerComponent * (e.components - 1);
        }
        return energy;
    }

    /// \return the rounds' keys, reduced to the primitive period and rotated
    ///         to the lexicographically least phase
    Rounds::size_type PrimitivePeriod(const std::vector<ScheduleEvaluator::RoundKey>& keys) const
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

    /// \return the canonical form: primitive period, least rotation
    std::vector<ScheduleEvaluator::RoundKey> Canonical(const Rounds& rounds) const
    {
        std::vector<ScheduleEvaluator::RoundKey> keys;
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

    /// Applies one random local move to the schedule.
    void Mutate(const gsl_rng* rng, Rounds& rounds) const
    {
        for (int attempt = 0; attempt < 100; ++attempt)
        {
            if (TryMove(rng, rounds))
            {
                return;
            }
        }
    }

    /// \return the best schedule so far
    const Rounds& GetBest() const
    {
        return m_best;
    }

    /// \return schedules visited
    uint64_t GetSteps() const
    {
        return m_steps;
    }

    /// \return distinct schedules evaluated
    uint64_t GetDistinct() const
    {
        return m_energy.size();
    }

  private:
    /// \return the size of every clique label of a round
    static std::map<uint32_t, uint32_t> Sizes(const Labels& labels)
    {
        std::map<uint32_t, uint32_t> sizes;
        for (auto l : labels)
        {
            ++sizes[l];
        }
        return sizes;
    }

    /// \return a uniform index below n
    static uint32_t Pick(const gsl_rng* rng, size_t n)
    {
        return static_cast<uint32_t>(gsl_rng_uniform_int(rng, n));
    }

    /// \return true when a move of a round's islands applied
    bool MoveIslands(const gsl_rng* rng, Labels& labels, uint32_t kind) const
    {
        auto sizes = Sizes(labels);
        const uint32_t fresh = m_n; // a label no island has
        switch (kind)
        {
        case 0: { // swap two islands of different cliques
            uint32_t i = Pick(rng, m_n);
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
            std::swap(labels[i], labels[others[Pick(rng, others.size())]]);
            return true;
        }
        case 1: { // move an island to another clique, or to its own
            uint32_t i = Pick(rng, m_n);
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
                targets.push_back(fresh);
            }
            if (targets.empty())
            {
                return false;
            }
            labels[i] = targets[Pick(rng, targets.size())];
            return true;
        }
        case 2: { // merge two cliques
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
            auto [a, b] = pairs[Pick(rng, pairs.size())];
            std::replace(labels.begin(), labels.end(), b, a);
            return true;
        }
        default: { // split a clique in two
            std::vector<uint32_t> splittable;
            for (const auto& [label, size] : sizes)
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
            uint32_t c = splittable[Pick(rng, splittable.size())];
            std::vector<uint32_t> members;
            for (uint32_t i = 0; i < m_n; ++i)
            {
                if (labels[i] == c)
                {
                    members.push_back(i);
                }
            }
            // A uniform non-empty proper subset leaves for a new clique.
            uint64_t subsets = (uint64_t{1} << std::min<size_t>(members.size(), 62)) - 2;
            uint64_t mask = 1 + static_cast<uint64_t>(gsl_rng_uniform(rng) * subsets);
            for (size_t k = 0; k < members.size() && k < 62; ++k)
            {
                if (mask & (uint64_t{1} << k))
                {
                    labels[members[k]] = fresh;
                }
            }
            return true;
        }
        }
    }

    /// \return true when a move applied
    bool TryMove(const gsl_rng* rng, Rounds& rounds) const
    {
        // Weights: swap 3, move 3, merge 1, split 1, add 1, drop 1, reorder 1.
        static const uint32_t kinds[] = {0, 0, 0, 1, 1, 1, 2, 3, 4, 5, 6};
        uint32_t kind = kinds[Pick(rng, sizeof(kinds) / sizeof(kinds[0]))];
        const auto p = rounds.size();
        if (kind == 4) // add a round: a changed copy of one of them
        {
            if (p >= m_maxPeriod)
            {
                return false;
            }
            auto labels = LabelsOf(rounds[Pick(rng, p)]);
            if (!MoveIslands(rng, labels, Pick(rng, 2)))
            {
                return false;
            }
            rounds.insert(rounds.begin() + Pick(rng, p + 1), RoundOfLabels(labels));
            return true;
        }
        if (kind == 5) // drop a round
        {
            if (p < 2)
            {
                return false;
            }
            rounds.erase(rounds.begin() + Pick(rng, p));
            return true;
        }
        if (kind == 6) // move a round to another place of the period
        {
            if (p < 3)
            {
                return false;
            }
            uint32_t from = Pick(rng, p);
            auto round = rounds[from];
            rounds.erase(rounds.begin() + from);
            uint32_t to = Pick(rng, p - 1);
            if (to >= from)
            {
                ++to;
            }
            rounds.insert(rounds.begin() + std::min<size_t>(to, rounds.size()), round);
            return true;
        }
        uint32_t k = Pick(rng, p);
        auto labels = LabelsOf(rounds[k]);
        if (!MoveIslands(rng, labels, kind))
        {
            return false;
        }
        rounds[k] = RoundOfLabels(labels);
        return true;
    }

    /// \return island -> clique label
    Labels LabelsOf(const CliqueSchedule::Round& round) const
    {
        auto key = ScheduleEvaluator::KeyOf(round, m_n);
        return Labels(key.begin(), key.end());
    }

    /// \return the round of arbitrary labels
    static CliqueSchedule::Round RoundOfLabels(const Labels& labels)
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

    ScheduleEvaluator& m_evaluator;                   //!< T, A and J
    uint32_t m_n;                                     //!< islands
    uint32_t m_maxPeriod;                             //!< largest period
    uint32_t m_maxClique;                             //!< largest clique
    TracedCallback<double, uint64_t>& m_improvement;  //!< new best
    std::unordered_map<std::string, double> m_energy; //!< energy by canonical key
    uint64_t m_steps{0};                              //!< schedules visited
    bool m_hasBest{false};                            //!< a schedule was evaluated
    double m_bestEnergy{0};                           //!< best energy
    Rounds m_best;                                    //!< best schedule
};

/// The annealer's configuration: the schedule and the search it belongs to.
struct AnnealState
{
    Search* search;
    Rounds rounds;
};

double
AnnealEnergy(void* xp)
{
    auto s = static_cast<AnnealState*>(xp);
    return s->search->Energy(s->rounds);
}

void
AnnealStep(const gsl_rng* rng, void* xp, double /* stepSize */)
{
    auto s = static_cast<AnnealState*>(xp);
    s->search->Mutate(rng, s->rounds);
}

double
AnnealDistance(void* /* xp */, void* /* yp */)
{
    return 0; // only used to print the walk, which is off
}

void
AnnealCopy(void* source, void* dest)
{
    *static_cast<AnnealState*>(dest) = *static_cast<AnnealState*>(source);
}

void*
AnnealCopyConstruct(void* xp)
{
    return new AnnealState(*static_cast<AnnealState*>(xp));
}

void
AnnealDestroy(void* xp)
{
    delete static_cast<AnnealState*>(xp);
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

/// \return a random schedule: 1 to maxPeriod rounds, each the islands in
///         random order cut into pairs and triangles (cliques the planner can
///         always align without FPGA memory), within the clique bound
Rounds
RandomSchedule(const gsl_rng* rng, uint32_t n, uint32_t maxClique, uint32_t maxPeriod)
{
    Rounds rounds;
    const uint32_t p = 1 + static_cast<uint32_t>(gsl_rng_uniform_int(rng, maxPeriod));
    std::vector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    for (uint32_t k = 0; k < p; ++k)
    {
        gsl_ran_shuffle(rng, order.data(), n, sizeof(uint32_t));
        CliqueSchedule::Round round;
        for (uint32_t i = 0; i < n;)
        {
            uint32_t size = std::min(
                {n - i, maxClique, 2 + static_cast<uint32_t>(gsl_rng_uniform_int(rng, 2))});
            CliqueSchedule::Clique clique(order.begin() + i, order.begin() + i + size);
            std::sort(clique.begin(), clique.end());
            round.push_back(clique);
            i += size;
        }
        rounds.push_back(round);
    }
    return rounds;
}

} // namespace

TypeId
ScheduleOptimizer::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ScheduleOptimizer")
            .SetParent<Object>()
            .SetGroupName("WanTraining")
            .AddConstructor<ScheduleOptimizer>()
            .AddAttribute("MaxPeriod",
                          "Largest number of rounds in the schedule's period.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&ScheduleOptimizer::m_maxPeriod),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("MaxCliqueSize",
                          "Largest clique, in islands (0: every island).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ScheduleOptimizer::m_maxCliqueSize),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Seed",
                          "Seed of the annealing's random walk (same seed, same result).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ScheduleOptimizer::m_seed),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Evaluations",
                          "Annealing steps (schedules visited, repeats included).",
                          UintegerValue(20000),
                          MakeUintegerAccessor(&ScheduleOptimizer::m_evaluations),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Restarts",
                          "Independent annealing walks that share the Evaluations: the first "
                          "from the best built-in schedule, the others from random schedules "
                          "of pairs and triangles.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&ScheduleOptimizer::m_restarts),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("ExhaustiveLimit",
                          "Largest number of distinct schedules that Search=auto enumerates.",
                          DoubleValue(50000),
                          MakeDoubleAccessor(&ScheduleOptimizer::m_exhaustiveLimit),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Search",
                          "auto (enumerate small spaces, anneal large ones), exhaustive "
                          "or annealing.",
                          StringValue("auto"),
                          MakeStringAccessor(&ScheduleOptimizer::m_search),
                          MakeStringChecker())
            .AddAttribute("InitialTemperature",
                          "Annealing start temperature, in units of ln J (0.1: a 10% worse "
                          "schedule is accepted with probability 1/e).",
                          DoubleValue(0.2),
                          MakeDoubleAccessor(&ScheduleOptimizer::m_initialTemperature),
                          MakeDoubleChecker<double>())
            .AddAttribute("FinalTemperature",
                          "Annealing stops below this temperature.",
                          DoubleValue(1e-3),
                          MakeDoubleAccessor(&ScheduleOptimizer::m_finalTemperature),
                          MakeDoubleChecker<double>())
            .AddAttribute("StartFromBuiltin",
                          "Anneal from the best built-in schedule within the bounds "
                          "(otherwise from a random schedule).",
                          BooleanValue(true),
                          MakeBooleanAccessor(&ScheduleOptimizer::m_startFromBuiltin),
                          MakeBooleanChecker())
            .AddTraceSource("Improvement",
                            "A better schedule was found: its J (ms-error) and the step.",
                            MakeTraceSourceAccessor(&ScheduleOptimizer::m_improvement),
                            "ns3::ScheduleOptimizer::ImprovementCallback");
    return tid;
}

ScheduleOptimizer::ScheduleOptimizer()
{
    NS_LOG_FUNCTION(this);
}

double
ScheduleOptimizer::CountPartitions(uint32_t nIslands, uint32_t maxCliqueSize)
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
ScheduleOptimizer::CountSchedules(double partitions, uint32_t maxPeriod)
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

OptimizerResult
ScheduleOptimizer::Optimize(const WanTopology& topo,
                            const PlannerConfig& config,
                            const MixingOptions& mixing)
{
    NS_LOG_FUNCTION(this);
    const auto start = std::chrono::steady_clock::now();
    topo.Validate();
    const uint32_t n = topo.GetNCities();
    if (m_maxPeriod < 1)
    {
        throw std::invalid_argument("period bound must be at least 1 (got 0)");
    }
    const uint32_t maxClique = m_maxCliqueSize == 0 ? n : m_maxCliqueSize;
    if (maxClique < 2)
    {
        throw std::invalid_argument("clique-size bound must be at least 2 (got 1): islands "
                                    "that never meet never mix");
    }
    if (maxClique > n)
    {
        throw std::invalid_argument("clique-size bound " + std::to_string(maxClique) +
                                    " is larger than the " + std::to_string(n) + " islands");
    }
    if (m_search != "auto" && m_search != "exhaustive" && m_search != "annealing")
    {
        throw std::invalid_argument("unknown search \"" + m_search +
                                    "\" (expected auto, exhaustive or annealing)");
    }
    if (m_evaluations < 1)
    {
        throw std::invalid_argument("the annealing needs at least 1 evaluation");
    }
    if (!(m_finalTemperature > 0) || !(m_initialTemperature > m_finalTemperature))
    {
        throw std::invalid_argument("annealing temperatures must satisfy initial > final > 0 "
                                    "(got " +
                                    wantext::Num(m_initialTemperature) + " and " +
                                    wantext::Num(m_finalTemperature) + ")");
    }

    ScheduleEvaluator evaluator(topo, config, mixing);
    Search search(evaluator, m_maxPeriod, maxClique, m_improvement);
    OptimizerResult result;
    result.partitions = CountPartitions(n, maxClique);
    result.spaceSize = CountSchedules(result.partitions, m_maxPeriod);

    // The built-in schedules within the bounds come first.
    std::map<std::string, CliqueSchedule> builtins;
    double builtinEnergy = 0;
    Rounds start0;
    for (const auto& name : CliqueSchedule::BuiltinNames())
    {
        CliqueSchedule s;
        try
        {
            s = CliqueSchedule::Builtin(name, topo);
        }
        catch (const std::invalid_argument& e)
        {
            NS_LOG_INFO("built-in " << name << " does not apply: " << e.what());
            continue;
        }
        size_t largest = 0;
        for (const auto& r : s.GetRounds())
        {
            for (const auto& c : r)
            {
                largest = std::max(largest, c.size());
            }
        }
        if (s.GetNRounds() > m_maxPeriod || largest > maxClique)
        {
            continue;
        }
        double energy = search.Energy(s.GetRounds());
        auto e = evaluator.Evaluate(s.GetRounds());
        if (result.bestBuiltin.empty() || energy < builtinEnergy)
        {
            result.bestBuiltin = name;
            result.builtin = e;
            builtinEnergy = energy;
            start0 = s.GetRounds();
        }
        builtins.emplace(search.Key(s.GetRounds()), s);
    }

    const bool enumerate =
        m_search == "exhaustive" || (m_search == "auto" && result.spaceSize <= m_exhaustiveLimit);
    if (enumerate)
    {
        if (result.spaceSize > kEnumerationCap)
        {
            throw std::invalid_argument("exhaustive search over " + wantext::Num(result.spaceSize) +
                                        " schedules is too large (at most " +
                                        wantext::Num(kEnumerationCap) + "); use annealing");
        }
        result.method = "exhaustive";
        std::vector<CliqueSchedule::Round> partitions;
        EnumeratePartitions(n, maxClique, [&partitions](const ScheduleEvaluator::RoundKey& k) {
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
            search.Energy(rounds);
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
    else
    {
        result.method = "annealing";
        gsl_rng* rng = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(rng, m_seed);
        const uint32_t restarts = std::min(m_restarts, m_evaluations);
        const uint32_t perRun = m_evaluations / restarts;
        const uint32_t blocks = std::min(kTemperatureSteps, perRun);
        gsl_siman_params_t params;
        params.n_tries = 1;
        params.iters_fixed_T = static_cast<int>(std::max<uint32_t>(1, perRun / blocks));
        params.step_size = 1;
        params.k = 1;
        params.t_initial = m_initialTemperature;
        params.mu_t = std::pow(m_initialTemperature / m_finalTemperature, 1.0 / (blocks - 0.5));
        params.t_min = m_finalTemperature;
        for (uint32_t run = 0; run < restarts; ++run)
        {
            // The first walk starts from the best built-in schedule, the
            // others from random schedules.
            AnnealState state{&search, run == 0 && m_startFromBuiltin ? start0 : Rounds{}};
            if (state.rounds.empty())
            {
                state.rounds = RandomSchedule(rng, n, maxClique, m_maxPeriod);
            }
            gsl_siman_solve(rng,
                            &state,
                            AnnealEnergy,
                            AnnealStep,
                            AnnealDistance,
                            nullptr,
                            AnnealCopy,
                            AnnealCopyConstruct,
                            AnnealDestroy,
                            0,
                            params);
        }
        gsl_rng_free(rng);
    }

    // A best schedule that is a built-in one keeps its name and round order.
    auto builtin = builtins.find(search.Key(search.GetBest()));
    result.schedule =
        builtin != builtins.end() ? builtin->second : CliqueSchedule("optimised", search.GetBest());
    result.evaluation = evaluator.Evaluate(result.schedule.GetRounds());
    result.steps = search.GetSteps();
    result.distinct = search.GetDistinct();
    result.coverage = result.spaceSize > 0 ? result.distinct / result.spaceSize : 0;
    result.roundsPlanned = evaluator.GetRoundsPlanned();
    result.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    NS_LOG_INFO(result.method << ": J " << result.evaluation.objective << " after " << result.steps
                              << " steps, " << result.distinct << " distinct schedules of "
                              << result.spaceSize);
    return result;
}

} // namespace ns3
