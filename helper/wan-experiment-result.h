/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_EXPERIMENT_RESULT_H
#define WAN_EXPERIMENT_RESULT_H

#include "ns3/fpga-stream-decoder.h"
#include "ns3/wan-measured-mixing.h"
#include "ns3/wan-round-counters.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Packet-level measurements of one island in one round: its counters
 * (bytes scaled back by the scale factor), when it completed, whether its
 * sum is exact and what became of the chunks it lacked.
 */
struct WanIslandRoundResult : WanRoundCounters
{
    uint32_t city{0};                   //!< city index
    double completionMs{0};             //!< from round start to its last contribution (-1: never)
    bool exact{false};                  //!< received exactly its peers' contributions, each once
    std::set<uint32_t> lateChunks;      //!< chunks with a contribution after the deadline
    std::set<uint32_t> requestedChunks; //!< chunks with a re-requested contribution
    std::set<uint32_t> givenUpChunks;   //!< chunks still lacking a contribution
    double mixedMs{0}; //!< from round start to when it averaged: its completion, or when it
                       //!< gave the rest up (-1: never)
    std::map<uint32_t, uint32_t> held; //!< per clique member (city), the chunks holding its
                                       //!< contribution (itself: every chunk)
    std::map<uint32_t, double> mixing; //!< its row of the realised mixing matrix, per member
    std::map<uint32_t, double> mixingReceived; //!< the row it would have averaged with all it
                                               //!< received by the end (late arrivals too)
    FpgaStreamDecoder::Totals stream; //!< its FPGA's per-stream decoding of the round's blocks
                                      //!< (SetParityDecoding "fpga"; zeros otherwise)
};

/**
 * @ingroup wan-training
 * @brief Packet-level measurements of one round.
 */
struct WanRoundResult
{
    bool failed{false};                //!< not run (a link was down and the policy is "fail")
    std::string note;                  //!< what changed: re-planned without a link, an island away
    std::vector<std::string> warnings; //!< the planner's (RoundPlan::warnings)
    uint64_t faultLinkPackets{0};      //!< packets sent on the faulted links during the round
    uint64_t faultLinkLost{0};         //!< of those (and any arriving), packets the links lost
    std::map<WanHop, uint64_t> corePackets; //!< packets each core link direction sent (all of them)
    std::map<WanHop, uint64_t> coreBytes;   //!< their bytes (IP and PPP headers included,
                                            //!< multiplied back by the scale)
    std::map<WanHop, uint64_t> corePeakQueueBytes; //!< most bytes waiting to be sent on each
                                                   //!< core link direction (queue disc and
                                                   //!< device queue, multiplied back by the scale)
    std::map<WanHop, double> corePeakQueueMs;      //!< the same, as time to send at the link's rate
    std::map<WanHop, uint64_t> coreQueueDrops;     //!< packets each core link direction's queues
                                                   //!< dropped (queue full, or CoDel)
    std::map<WanHop, uint64_t> coreLost; //!< packets each direction lost on the link (its loss
                                         //!< model, or broken)
    std::map<std::string, uint64_t> evictions; //!< FPGA evictions of this round's chunks
    double idleMs{0};     //!< GPU idle time added: measured minus planned T (>= 0)
    uint32_t round{0};    //!< round number
    double plannedMs{0};  //!< the planner's T of this round
    double scaleLagMs{0}; //!< what the run's scale adds to this round's T
                          //!< (WanExperimentPlanner::ScaleLag)
    double measuredMs{0}; //!< slowest island's completion
    double mixedMs{0};    //!< slowest island's mixedMs: the round's measured T for J
    std::vector<WanIslandRoundResult> islands; //!< per city
    WanMatrix mixing; //!< realised mixing matrix (WanMeasuredMixing; islands that did not mix
                      //!< keep their state)
    WanMatrix mixingReceived; //!< the same from all that was received by the end: what arrived
                              //!< after an island averaged is in it (mixingReceived - mixing:
                              //!< what a late arrival changes, WanTrainingLoop's carry)
};

/**
 * @ingroup wan-training
 * @brief A link fault as the network handled it (SetFaultDetection "bfd"):
 * when it happened, when BFD declared it, when the unicast routes changed and
 * from which round the schedule was re-planned.
 */
struct WanRouteChangeResult
{
    std::string link;          //!< "NYC-LON"
    bool up{false};            //!< the link came back (false: it failed)
    double eventS{0};          //!< when the link broke or was mended, seconds
    double detectedS{0};       //!< when BFD declared it, seconds
    double convergedS{0};      //!< when the routes changed (the notification), seconds
    int64_t replannedFrom{-1}; //!< first round re-planned (-1: none was left)
    double resumedS{-1};       //!< when that round starts: trees on the new routes (-1: none)
    double joinedS{-1}; //!< when PIM-SSM joins would have moved that round's trees to the new
                        //!< routes (WanPimState, hop by hop at the links' delays; -1: none)
};

/**
 * @ingroup wan-training
 * @brief An FPGA failure as the edge detected it (SetFaultDetection "bfd"):
 * its heartbeats stopped, and after the watchdog's misses its edge bypasses it.
 */
struct WanFpgaFailureResult
{
    std::string city;    //!< the FPGA's city code
    double failedS{0};   //!< when it failed, seconds
    double detectedS{0}; //!< when the watchdog declared it and the edge bypassed it, seconds
};

/**
 * @ingroup wan-training
 * @brief Packet-level run of a schedule.
 */
struct WanExperimentResult
{
    std::string schedule;     //!< schedule name
    bool feasible{false};     //!< the planner found a T
    std::string reason;       //!< why not
    double plannedMs{0};      //!< the planner's schedule T
    double scaleLagMs{0};     //!< the most the run's scale adds to a round's T (its frames
                              //!< store and forward the scale times longer)
    std::string scaleWarning; //!< how the scale changes what the run measures
                              //!< (WanScaleCheck; "" when it does not)
    std::vector<WanRoundResult> rounds;        //!< per simulated round
    std::map<std::string, uint64_t> evictions; //!< FPGA evictions by cause
    uint64_t peakSlots{0};                     //!< most HBM slots in use at one FPGA
    double peakHbmBytes{0};                    //!< the same, in bytes
    uint64_t events{0};                        //!< simulator events executed
    uint64_t crossTcpBytes{0}; //!< payload bytes the TCP cross traffic delivered (0: none),
                               //!< multiplied back by the scale
    bool exact{false};         //!< every island's sums exact
    std::map<std::string, uint64_t> lostPackets; //!< packets lost: "core", "access", "post"
    double disagreement{0}; //!< A of the rounds run (as one period): absences and failures count
    double disagreementMeasured{0}; //!< A of the realised mixing matrices of the rounds run
    double consensusSkew{0};        //!< how unevenly their consensus weighs the islands
                                    //!< (MixingAnalysis::GetConsensusSkew; 0 without loss)
    double mixedMs{0};              //!< measured T: the slowest round's mixedMs
    double objective{0};            //!< J planned: plannedMs x disagreement (ms-error)
    double objectiveMeasured{0};    //!< J measured: mixedMs x disagreementMeasured
    std::vector<WanRouteChangeResult> routeChanges; //!< detected faults (SetFaultDetection)
    std::vector<WanFpgaFailureResult> fpgaFailures; //!< detected FPGA failures (likewise)
    uint64_t controlPackets{0}; //!< control-plane packets sent (BFD, with fault detection)
    uint64_t controlBytes{0};   //!< their bytes (UDP payload)
    uint64_t pimPackets{0};     //!< PIM messages sent (SetTreeBuilding "pim")
    uint64_t pimBytes{0};       //!< their bytes (IP payload)
    uint64_t pimRetries{0};     //!< triggered Join/Prunes sent again, unconfirmed in time
    int64_t pimMissing{-1};     //!< (round, stream, receiver) without a whole tree at the
                                //!< round's start (-1: not checked, distributed run)
    double pimJoinMs{-1};  //!< longest time from a round's joins to its last tree built (-1: none)
    double pimSlackMs{-1}; //!< least time from a tree built to its round's start (-1: none)
};

} // namespace ns3

#endif /* WAN_EXPERIMENT_RESULT_H */
