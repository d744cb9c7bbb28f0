/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "schedule-optimizer.h"

#include "clique-schedule-builtins.h"
#include "schedule-space.h"
#include "wan-training-compat.h"
#include "wan-training-text.h"

#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_siman.h>
#include <limits>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduleOptimizer");

NS_OBJECT_ENSURE_REGISTERED(ScheduleOptimizer);

namespace
{

using Rounds = ScheduleSpace::Rounds;

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
 * (by canonical form) and the best one so far.
 */
class Search
{
  public:
    Search(ScheduleEvaluator& evaluator,
           const ScheduleSpace& space,
           TracedCallback<double, uint64_t>& improvement,
           const ScheduleTimeObjective& time)
        : m_evaluator(evaluator),
          m_space(space),
          m_improvement(improvement),
          m_time(time)
    {
    }

    /// @return the energy of a schedule (cached by its canonical form)
    double Energy(const Rounds& rounds)
    {
        ++m_steps;
        auto canonical = m_space.Canonical(rounds);
        auto key = ScheduleSpace::Join(canonical);
        auto it = m_energy.find(key);
        if (it != m_energy.end())
        {
            return it->second;
        }
        Rounds r = ScheduleSpace::RoundsOf(canonical);
        auto e = m_evaluator.Evaluate(r);
        double value = e.objective;
        double energy = EnergyOf(e);
        if (m_time.IsSet() && e.feasible && std::isfinite(e.objective))
        {
            const auto p = m_time.Predict(r, e);
            value = p.reachable ? 1e3 * p.seconds : std::numeric_limits<double>::infinity();
            // Unreachable: above every schedule that reaches the target,
            // lower as its floor comes closer to it.
            energy = p.reachable ? std::log(std::max(p.seconds, 1e-300))
                                 : kPenalty + std::log(p.floorGap / m_time.GetTargetGap());
        }
        m_energy.emplace(key, energy);
        if (!m_hasBest || energy < m_bestEnergy - kTie)
        {
            m_hasBest = true;
            m_bestEnergy = energy;
            m_best = r;
            NS_LOG_INFO("step " << m_steps << ": J " << e.objective << " ms-error, T "
                                << e.roundTimeMs << " ms, A " << e.disagreement << ", objective "
                                << value);
            m_improvement(value, m_steps);
        }
        return energy;
    }

    /// @return ln J, or a penalty above every feasible schedule that
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

    /// @return the space searched
    const ScheduleSpace& GetSpace() const
    {
        return m_space;
    }

    /// @return the best schedule so far
    const Rounds& GetBest() const
    {
        return m_best;
    }

    /// @return schedules visited
    uint64_t GetSteps() const
    {
        return m_steps;
    }

    /// @return distinct schedules evaluated
    uint64_t GetDistinct() const
    {
        return m_energy.size();
    }

  private:
    ScheduleEvaluator& m_evaluator;                   //!< T, A and J
    const ScheduleSpace& m_space;                     //!< canonical forms
    TracedCallback<double, uint64_t>& m_improvement;  //!< new best
    const ScheduleTimeObjective& m_time;              //!< time to target (when set)
    std::unordered_map<std::string, double> m_energy; //!< energy by canonical key
    uint64_t m_steps{0};                              //!< schedules visited
    bool m_hasBest{false};                            //!< a schedule was evaluated
    double m_bestEnergy{0};                           //!< best energy
    Rounds m_best;                                    //!< best schedule
};

/// The annealer's configuration: the schedule and the search it belongs to.
struct AnnealState
{
    Search* search; //!< evaluations and the space's moves
    Rounds rounds;  //!< the schedule
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
    ScheduleSpace::GslRandom random(rng);
    s->search->GetSpace().Mutate(random, s->rounds);
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

/**
 * Evaluates the built-in schedules within the bounds (the first schedules the
 * search visits) and records the best of them in the result.
 * @return the built-in schedules by canonical key; `best` gets the best one's rounds
 */
std::map<std::string, CliqueSchedule>
EvaluateBuiltins(const WanTopology& topo,
                 uint32_t maxPeriod,
                 uint32_t maxClique,
                 ScheduleEvaluator& evaluator,
                 Search& search,
                 OptimizerResult& result,
                 Rounds& best)
{
    std::map<std::string, CliqueSchedule> builtins;
    double builtinEnergy = 0;
    for (const auto& name : CliqueScheduleBuiltins::Names())
    {
        const auto s = CliqueScheduleBuiltins::Make(name, topo);
        if (s.GetNRounds() > maxPeriod || s.GetLargestClique() > maxClique)
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
            best = s.GetRounds();
        }
        builtins.emplace(search.GetSpace().Key(s.GetRounds()), s);
    }
    return builtins;
}

/// The annealing's settings (ScheduleOptimizer's attributes).
struct AnnealSettings
{
    uint32_t seed;             //!< random seed
    uint32_t evaluations;      //!< steps in all walks
    uint32_t restarts;         //!< walks
    double initialTemperature; //!< start temperature, in ln J
    double finalTemperature;   //!< stop temperature
    bool startFromBuiltin;     //!< the first walk starts from `start0`
};

/**
 * GSL simulated annealing: `restarts` walks that share the evaluations, the
 * first from start0 (when asked), the others from random schedules.
 */
void
Anneal(Search& search, const Rounds& start0, const AnnealSettings& settings)
{
    gsl_rng* rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, settings.seed);
    ScheduleSpace::GslRandom random(rng);
    const uint32_t restarts = std::min(settings.restarts, settings.evaluations);
    const uint32_t perRun = settings.evaluations / restarts;
    const uint32_t blocks = std::min(kTemperatureSteps, perRun);
    gsl_siman_params_t params;
    params.n_tries = 1;
    params.iters_fixed_T = static_cast<int>(std::max<uint32_t>(1, perRun / blocks));
    params.step_size = 1;
    params.k = 1;
    params.t_initial = settings.initialTemperature;
    params.mu_t =
        std::pow(settings.initialTemperature / settings.finalTemperature, 1.0 / (blocks - 0.5));
    params.t_min = settings.finalTemperature;
    for (uint32_t run = 0; run < restarts; ++run)
    {
        AnnealState state{&search, run == 0 && settings.startFromBuiltin ? start0 : Rounds{}};
        if (state.rounds.empty())
        {
            state.rounds = search.GetSpace().RandomSchedule(random);
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
                          EnumValue(ScheduleOptimizer::AUTO),
                          wancompat::MakeEnumMemberAccessor(&ScheduleOptimizer::m_search),
                          MakeEnumChecker(ScheduleOptimizer::AUTO,
                                          "auto",
                                          ScheduleOptimizer::EXHAUSTIVE,
                                          "exhaustive",
                                          ScheduleOptimizer::ANNEALING,
                                          "annealing"))
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

uint32_t
ScheduleOptimizer::CheckSettings(uint32_t n) const
{
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
    return maxClique;
}

void
ScheduleOptimizer::SetTimeObjective(const ScheduleTimeObjective& objective)
{
    m_time = objective;
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
    const uint32_t maxClique = CheckSettings(n);
    const ScheduleSpace space(n, maxClique, m_maxPeriod);
    ScheduleEvaluator evaluator(topo, config, mixing);
    Search search(evaluator, space, m_improvement, m_time);
    OptimizerResult result;
    result.partitions = space.GetPartitions();
    result.spaceSize = ScheduleSpace::CountSchedules(result.partitions, m_maxPeriod);

    // The built-in schedules within the bounds come first.
    Rounds start0;
    auto builtins =
        EvaluateBuiltins(topo, m_maxPeriod, maxClique, evaluator, search, result, start0);
    const bool enumerate =
        m_search == EXHAUSTIVE || (m_search == AUTO && result.spaceSize <= m_exhaustiveLimit);
    if (enumerate)
    {
        if (result.spaceSize > kEnumerationCap)
        {
            throw std::invalid_argument("exhaustive search over " + wantext::Num(result.spaceSize) +
                                        " schedules is too large (at most " +
                                        wantext::Num(kEnumerationCap) + "); use annealing");
        }
        result.method = "exhaustive";
        space.ForEachSchedule([&search](const Rounds& rounds) { search.Energy(rounds); });
    }
    else
    {
        result.method = "annealing";
        Anneal(search,
               start0,
               {m_seed,
                m_evaluations,
                m_restarts,
                m_initialTemperature,
                m_finalTemperature,
                m_startFromBuiltin});
    }

    // A best schedule that is a built-in one keeps its name and round order.
    auto builtin = builtins.find(space.Key(search.GetBest()));
    result.schedule =
        builtin != builtins.end() ? builtin->second : CliqueSchedule("optimised", search.GetBest());
    result.evaluation = evaluator.Evaluate(result.schedule.GetRounds());
    if (m_time.IsSet())
    {
        result.predicted = m_time.Predict(result.schedule.GetRounds(), result.evaluation);
        result.builtinPredicted =
            result.bestBuiltin.empty()
                ? WanPrediction{}
                : m_time.Predict(CliqueScheduleBuiltins::Make(result.bestBuiltin, topo).GetRounds(),
                                 result.builtin);
    }
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
