/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EXPERIMENT_PLAN_H
#define WAN_EXPERIMENT_PLAN_H

#include "clique-schedule.h"
#include "round-planner.h"
#include "wan-topology.h"

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A core link outage, by simulation time.
 */
struct WanLinkFault
{
    uint32_t a{0};  //!< city index of one end
    uint32_t b{0};  //!< city index of the other end
    double down{0}; //!< when it goes down, seconds
    double up{0};   //!< when it comes back, seconds
};

/**
 * @ingroup wan-training
 * @brief An island away for some rounds.
 */
struct WanIslandAbsence
{
    uint32_t city{0};  //!< the island
    uint32_t first{0}; //!< first round away
    uint32_t last{0};  //!< last round away
};

/**
 * @ingroup wan-training
 * @brief What a link fault does to the rounds it overlaps.
 */
enum class WanFaultPolicy
{
    REPLAN, //!< re-plan them without the link (trees, rates, offsets)
    FAIL,   //!< do not run them
};

/**
 * @ingroup wan-training
 * @brief One sender's stream in one round.
 */
struct WanPlannedStream
{
    uint32_t clique{0};            //!< clique index in the round
    uint32_t sender{0};            //!< sending city
    uint32_t position{0};          //!< the sender's position in its clique (ascending)
    std::vector<uint32_t> members; //!< the clique, ascending (the sender included)
    double offset{0};              //!< planned start after the round start, seconds
    double rateBps{0};             //!< stream rate per copy, bit/s (unscaled)
    std::vector<WanHop> tree;      //!< multicast tree hops (empty without multicast)
};

/**
 * @ingroup wan-training
 * @brief One simulated round: its plan, or why it does not run.
 */
struct WanPlannedRound
{
    uint32_t round{0};                     //!< round number
    bool failed{false};                    //!< not run
    std::string note;                      //!< what changed (re-planned, away, failed), "; "-joined
    double start{0};                       //!< start, seconds
    double deadline{0};                    //!< after the start: when missing chunks are handled
                                           //!< and the next round starts, seconds
    RoundPlan plan;                        //!< the planner's plan of the round (when run)
    std::optional<WanTopology> routes;     //!< the links in use, when some are down
    CliqueSchedule::Round ran;             //!< the cliques that mix (singletons when failed)
    std::vector<WanPlannedStream> streams; //!< every sender's stream (cliques of two or more)
};

/**
 * @ingroup wan-training
 * @brief A packet-level experiment as data: what each round runs.
 */
struct WanExperimentPlan
{
    std::string schedule;                //!< schedule name
    bool feasible{false};                //!< the planner found a T for the schedule
    std::string reason;                  //!< why not
    double roundTime{0};                 //!< the schedule's T, seconds
    double period{0};                    //!< the schedule's round window: T x (1 + guard), seconds
    double slotTimeout{0};               //!< FPGA slot lifetime, seconds
    double disagreement{0};              //!< A of the rounds run, as one period
    std::vector<WanPlannedRound> rounds; //!< per simulated round
};

/**
 * @ingroup wan-training
 * @brief Turns a schedule, link faults and island absences into the plan of
 * every simulated round; no simulator needed.
 *
 * Rounds start T x (1 + guard) apart, T being the schedule's round time.
 * Each round takes the schedule's plan, unless an island is away (its
 * clique runs without it) or a link fault overlaps the round's window [start,
 * start + T x (1 + guard)): then it is re-planned for what is left, or fails
 * (WanFaultPolicy::FAIL, or when the re-plan is infeasible).  A round
 * re-planned slower than T lasts its own T' x (1 + guard), and the rounds
 * after it start that much later, so rounds never overlap.  Missing
 * contributions are handled at the round's deadline, when the next round
 * starts. An FPGA slot waits the planned
 * skew of its arrivals (memory / rate) plus half the gap between rounds, so a
 * partial sum left by a loss reaches the island before that deadline.
 */
class WanExperimentPlanner
{
  public:
    /**
     * @param topo the network
     * @param config the planner's switches; invalid values throw
     */
    WanExperimentPlanner(const WanTopology& topo, const PlannerConfig& config);

    /** @param rounds rounds to simulate, >= 1 (default: one period) */
    void SetRounds(uint32_t rounds);
    /** @param guard fraction of T added between round starts, >= 0 (default 0.1) */
    void SetRoundGuard(double guard);
    /**
     * @param a code of one end
     * @param b code of the other
     * @param downSeconds when it goes down, >= 0
     * @param upSeconds when it comes back, later and finite; an unknown link,
     *        or one whose loss disconnects the network, throws
     */
    void AddLinkFault(const std::string& a,
                      const std::string& b,
                      double downSeconds,
                      double upSeconds);
    /** @param policy what a link fault does to its rounds */
    void SetFaultPolicy(WanFaultPolicy policy);
    /**
     * @param city the city code
     * @param firstRound first round away
     * @param lastRound last round away, >= firstRound
     */
    void AddIslandAbsence(const std::string& city, uint32_t firstRound, uint32_t lastRound);

    /** @return the link faults, in the order added */
    const std::vector<WanLinkFault>& GetLinkFaults() const;
    /** @return the topology with the planner's overrides applied */
    const WanTopology& GetTopology() const;
    /** @return the planner's switches */
    const PlannerConfig& GetConfig() const;

    /**
     * @param schedule a schedule valid for the topology
     * @return the plan of every simulated round (feasible = false and no
     *         rounds when the schedule has no T)
     */
    WanExperimentPlan Plan(const CliqueSchedule& schedule) const;

    /**
     * @brief What a packet-level run at a time-preserving scale adds to a
     * round's T: its frames are the scale times longer, so each store and
     * forward on a sender's way to a peer (RoundPlanner::GetFrameDelay)
     * takes (scale - 1) times more than at full scale.
     * @param round a planned round (not failed)
     * @param scale the scale, >= 1
     * @return max over its senders j and receivers i of (s_j + l_ji + tau_c
     *         + (scale - 1) x frame delay_ji), less the round's T, seconds
     */
    double ScaleLag(const WanPlannedRound& round, double scale) const;
    /**
     * @brief Re-plans a plan's rounds from one on around core links the
     * network reported down (a fault detected at run time, not known in
     * advance): their trees, rates and offsets avoid the links, and their
     * starts follow on from the first one's.  When the links down cut the
     * network in two (BFD declaring a bridge down under loss), the rounds
     * from `from` on fail instead, with the partition in their note, until a
     * later Replan finds the network whole again.
     * @param plan the plan being run; its rounds from `from` on are replaced
     * @param schedule its schedule
     * @param from the first round to re-plan (none when past the last)
     * @param down the core links down, (a, b) city indices (none: every link)
     * @param note the note of the re-planned rounds (empty: none)
     */
    void Replan(WanExperimentPlan& plan,
                const CliqueSchedule& schedule,
                uint32_t from,
                const std::set<std::pair<uint32_t, uint32_t>>& down,
                const std::string& note) const;
    /// Forgets the link faults added (they are then the network's events only).
    void ClearLinkFaults();

    /**
     * @param policy "replan" or "fail"
     * @return the policy; anything else throws std::invalid_argument
     */
    static WanFaultPolicy ParseFaultPolicy(const std::string& policy);

  private:
    /**
     * @brief Applies absences and link faults to round k.
     * @param k the round
     * @param period the schedule's window of a round, seconds
     * @param scheduled the schedule's round
     * @param scheduledPlan its plan
     * @param out its start set; filled: failed, note, routes, plan, ran
     */
    void PlanRound(uint32_t k,
                   double period,
                   const CliqueSchedule::Round& scheduled,
                   const RoundPlan& scheduledPlan,
                   WanPlannedRound& out) const;
    /**
     * @param round a round that runs
     * @return its streams, with their trees over the round's links
     */
    std::vector<WanPlannedStream> Streams(const WanPlannedRound& round) const;
    /**
     * @brief Plans the rounds from `from` on (the rounds exist), and the
     * plan's A.
     * @param plan the plan
     * @param schedule its schedule
     * @param scheduled the planner's plan of the schedule
     * @param from first round
     * @param start its start, seconds
     * @param routes the links in use, when some are down
     * @param note the rounds' note (empty: none)
     */
    void PlanFrom(WanExperimentPlan& plan,
                  const CliqueSchedule& schedule,
                  const SchedulePlan& scheduled,
                  uint32_t from,
                  double start,
                  const std::optional<WanTopology>& routes,
                  const std::string& note) const;

    RoundPlanner m_planner;                          //!< plans the schedule and re-plans rounds
    uint32_t m_rounds{0};                            //!< rounds (0: one period)
    double m_guard{0.1};                             //!< gap between rounds, fraction of T
    std::vector<WanLinkFault> m_linkFaults;          //!< link outages
    WanFaultPolicy m_policy{WanFaultPolicy::REPLAN}; //!< what outages do to rounds
    std::vector<WanIslandAbsence> m_absences;        //!< islands away
};

} // namespace ns3

#endif /* WAN_EXPERIMENT_PLAN_H */
