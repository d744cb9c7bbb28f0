/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULE_SPACE_H
#define SCHEDULE_SPACE_H

#include "clique-schedule.h"
#include "schedule-evaluator.h"

#include <cstdint>
#include <functional>
#include <gsl/gsl_rng.h>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The space of periodic rotating-clique schedules that the schedule
 * optimizer searches: periods of 1 to a largest period, each round a
 * partition of N islands into cliques of at most a largest size.
 *
 * Two schedules that differ by a rotation of the period, or that repeat a
 * shorter period, have the same T and A; the canonical form (primitive
 * period, least rotation of the rounds' restricted growth strings) names
 * each distinct schedule once, so the space is the set of Lyndon words of
 * length up to the largest period over the partitions.  The class counts and
 * enumerates that space, draws random schedules and applies the annealing's
 * local moves; it holds no evaluation and no random generator of its own.
 */
class ScheduleSpace
{
  public:
    /// The rounds of a period.
    using Rounds = std::vector<CliqueSchedule::Round>;
    /// A canonical form: the rounds' restricted growth strings.
    using CanonicalForm = std::vector<ScheduleEvaluator::RoundKey>;

    /**
     * @ingroup wan-training
     * @brief The random numbers that random schedules and moves draw.
     */
    class Random
    {
      public:
        virtual ~Random() = default;
        /**
         * @param n the number of values, > 0
         * @return a uniform integer from 0 to n - 1
         */
        virtual uint32_t UniformInt(uint32_t n) = 0;
        /** @return a uniform number in [0, 1) */
        virtual double Uniform() = 0;
        /**
         * @brief Puts the values in a uniformly random order.
         * @param values the values
         */
        virtual void Shuffle(std::vector<uint32_t>& values) = 0;
    };

    /**
     * @brief Random numbers from a GSL generator the caller owns (the
     * optimizer's annealing passes its own).
     */
    class GslRandom : public Random
    {
      public:
        /// @param rng the generator (not owned)
        explicit GslRandom(const gsl_rng* rng);
        uint32_t UniformInt(uint32_t n) override;
        double Uniform() override;
        void Shuffle(std::vector<uint32_t>& values) override;

      private:
        const gsl_rng* m_rng; //!< the generator
    };

    /**
     * @brief Random numbers from GSL's mt19937 with a seed (gsl_rng_set), for
     * random schedules outside a search (scripts, tests): a seed gives the
     * same schedules on every platform with the same GSL.
     */
    class SeededRandom : public GslRandom
    {
      public:
        /// @param seed the generator's seed
        explicit SeededRandom(uint64_t seed);
        ~SeededRandom() override;
        SeededRandom(const SeededRandom&) = delete;
        SeededRandom& operator=(const SeededRandom&) = delete;

      private:
        /// @param rng a new generator, owned from here on
        /// @param seed its seed
        SeededRandom(gsl_rng* rng, uint64_t seed);

        gsl_rng* m_owned; //!< the generator
    };

    /**
     * @param nIslands N
     * @param maxClique largest clique, 1 to N
     * @param maxPeriod largest period, >= 1
     */
    ScheduleSpace(uint32_t nIslands, uint32_t maxClique, uint32_t maxPeriod);

    /**
     * @param nIslands N
     * @param maxCliqueSize largest clique
     * @return the number of partitions of N islands into cliques of at most
     *         that size (a double: it grows faster than any integer type)
     */
    static double CountPartitions(uint32_t nIslands, uint32_t maxCliqueSize);
    /**
     * @param partitions the number of distinct rounds
     * @param maxPeriod largest period
     * @return the number of distinct schedules: Lyndon words of length 1 to
     *         maxPeriod over that many rounds
     */
    static double CountSchedules(double partitions, uint32_t maxPeriod);
    /** @return the number of partitions of this space's islands */
    double GetPartitions() const;
    /** @return the number of distinct schedules of this space */
    double GetSize() const;

    /**
     * @param rounds a schedule's rounds
     * @return its canonical form: primitive period, least rotation
     */
    CanonicalForm Canonical(const Rounds& rounds) const;
    /**
     * @param form a canonical form
     * @return the form as a string of bytes (a hash key)
     */
    static std::string Join(const CanonicalForm& form);
    /**
     * @param rounds a schedule's rounds
     * @return Join(Canonical(rounds))
     */
    std::string Key(const Rounds& rounds) const;
    /**
     * @param form a canonical form
     * @return the rounds it names
     */
    static Rounds RoundsOf(const CanonicalForm& form);

    /**
     * @brief Calls visit for every distinct schedule once: the Lyndon words
     * of length up to the largest period over the partitions (Duval's
     * generator, partitions in lexicographic order of their restricted
     * growth strings).
     * @param visit called with each schedule's rounds
     */
    void ForEachSchedule(const std::function<void(const Rounds&)>& visit) const;

    /**
     * @param random random numbers
     * @return a random schedule: 1 to the largest period rounds, each the
     *         islands in random order cut into pairs and triangles (cliques
     *         the planner can always align without FPGA memory), within the
     *         clique bound
     */
    Rounds RandomSchedule(Random& random) const;
    /**
     * @brief Applies one random local move: swap two islands between cliques,
     * move an island to another clique or to its own, merge two cliques,
     * split a clique, add a round, drop a round, or move a round to another
     * place of the period (up to 100 tries for a move that applies).
     * @param random random numbers
     * @param rounds the schedule; changed in place
     */
    void Mutate(Random& random, Rounds& rounds) const;

  private:
    /// Island -> clique label of one round.
    using Labels = std::vector<uint32_t>;

    /// @return true when a move applied
    bool TryMove(Random& random, Rounds& rounds) const;
    /// @return true when a move of a round's islands (kind 0 to 3) applied
    bool MoveIslands(Random& random, Labels& labels, uint32_t kind) const;
    /// @return true when two islands of different cliques were swapped
    bool SwapIslands(Random& random, Labels& labels) const;
    /// @return true when an island moved to another clique or its own
    bool MoveIsland(Random& random, Labels& labels) const;
    /// @return true when two cliques were merged
    bool MergeCliques(Random& random, Labels& labels) const;
    /// @return true when a clique was split in two
    bool SplitClique(Random& random, Labels& labels) const;
    /// @return island -> clique label of a round
    Labels LabelsOf(const CliqueSchedule::Round& round) const;
    /// @return the round of arbitrary labels
    static CliqueSchedule::Round RoundOfLabels(const Labels& labels);

    uint32_t m_n;         //!< islands
    uint32_t m_maxClique; //!< largest clique
    uint32_t m_maxPeriod; //!< largest period
};

} // namespace ns3

#endif /* SCHEDULE_SPACE_H */
