/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_AGREEMENT_CHECK_H
#define WAN_AGREEMENT_CHECK_H

#include "clique-experiment-helper.h"

#include "ns3/wan-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief One schedule on one WAN: the planner's round times against the
 * packet level's, without loss or jitter.
 */
struct WanAgreementRow
{
    std::string wan;         //!< the WAN's label, e.g. "ring-40-7"
    uint32_t cities{0};      //!< its islands
    std::string schedule;    //!< built-in schedule
    double hbmGB{0};         //!< FPGA memory of the run
    bool feasible{false};    //!< the planner found a T
    std::string reason;      //!< why not
    uint32_t rounds{0};      //!< rounds simulated
    double plannedMs{0};     //!< the planner's T of the slowest round simulated
    double measuredMs{0};    //!< the packet level's, of the same round
    double scaleLagMs{0};    //!< what the scale adds (WanExperimentResult::scaleLagMs)
    double excessPercent{0}; //!< worst round's (measured - planned - lag) / planned, %
    double shortPercent{0};  //!< worst round's (planned - measured) / planned, %
    bool exact{false};       //!< every island's sums exact
    uint32_t warnings{0};    //!< the planner's warnings about the rounds simulated
    std::string verdict;     //!< "agrees", "warned", "DISAGREES" or "infeasible"
};

/**
 * @ingroup wan-training
 * @brief Runs every built-in schedule on a WAN at packet level, with no loss
 * or jitter, and says whether the packet level agrees with the planner: every
 * sum exact and each round's measured T within the tolerance of the planner's
 * (plus what the scale adds to an arrival, WanExperimentResult::scaleLagMs),
 * or else a warning of the planner's about the round ("warned").  A schedule
 * runs without FPGA memory where the planner finds it feasible so, with
 * CliqueScheduleBuiltins::GetAmpleMemory() (32 GB) otherwise.
 */
class WanAgreementCheck
{
  public:
    /**
     * @param scale the packet level's time-preserving scale, >= 1
     * @param tolerance the share of T by which measured may differ, (0, 1)
     * @param rounds rounds simulated per schedule, >= 1
     */
    WanAgreementCheck(double scale = 1000, double tolerance = 0.02, uint32_t rounds = 1);

    /**
     * @param topo the WAN
     * @param label its name in the rows
     * @return a row per built-in schedule (CliqueScheduleBuiltins::Names)
     */
    std::vector<WanAgreementRow> Run(const WanTopology& topo, const std::string& label) const;

    /**
     * @param topo the WAN
     * @param label its name in the row
     * @param schedule a built-in schedule's name
     * @return its row
     */
    WanAgreementRow RunSchedule(const WanTopology& topo,
                                const std::string& label,
                                const std::string& schedule) const;

    /**
     * @brief The verdict on a run: "agrees" when every sum is exact and each
     * round's measured T is within the tolerance of the planner's T (plus
     * the round's scale lag) both ways; otherwise "warned" when the planner
     * warned of a round simulated, "DISAGREES" when not.
     * @param result a feasible run
     * @param tolerance share of T
     * @param row the row whose times, counts and verdict are filled
     */
    static void Judge(const WanExperimentResult& result, double tolerance, WanAgreementRow& row);

  private:
    double m_scale;     //!< packet-level scale
    double m_tolerance; //!< share of T
    uint32_t m_rounds;  //!< rounds per schedule
};

} // namespace ns3

#endif // WAN_AGREEMENT_CHECK_H
