/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ROUND_PLANNER_H
#define ROUND_PLANNER_H

#include "clique-schedule.h"
#include "fpga-slot-table.h"
#include "wan-linear-program.h"
#include "wan-topology.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The network's capabilities and the payload, for the round planner.
 */
struct PlannerConfig
{
    /// Model state sent by each island per round, bytes (D); > 0.
    double payloadBytes{1e9};
    /// Multicast trees replicate inside the network; false: the sender
    /// unicasts |C|-1 copies over its egress link.
    bool multicast{true};
    /// The edge FPGA sums inbound streams; false: the island's ingress
    /// carries |C|-1 streams and no alignment is needed.
    bool aggregation{true};
    /// FPGA (HBM) memory per receiver, bytes (M); >= 0.
    double hbmBytes{0};
    /// Arrival skew, seconds, that each receiver of two or more streams must
    /// absorb beyond the planned misalignment (the network's jitter); >= 0.
    /// It needs r_c x allowance of FPGA memory at that receiver, so with an
    /// allowance above 0 no clique of three or more fits in 0 bytes.
    double jitterAllowance{0};
    /// Override of every island's access rate, bit/s; > 0 when set.
    std::optional<double> accessBps;
    /// Override of every core link's capacity, bit/s; > 0 when set.
    std::optional<double> coreCapacityBps;
    /// Rate of every island's edge port, bit/s, each direction: the link
    /// between the island's WAN router and its edge node (where the FPGA
    /// sits).  Every stream to a member of a clique crosses it, so a clique of
    /// k islands runs at most at edgeBps / (k - 1); 1 Mbps to 100 Tbps.
    double edgeBps{400e9};
    /// Share of every core link direction's capacity left to other traffic,
    /// [0, 1): the streams split the rest.
    double coreReserve{0};
    /// Bytes of one packet on a link (a full IP packet of the WAN's 9000-byte
    /// MTU), for the packet-level arrival skew; 64 to 65535.
    double frameBytes{9000};
    /// How long an FPGA without memory (hbmBytes = 0) holds a chunk waiting
    /// for its other contributions, seconds (the FpgaAggregator's
    /// LineRateWindow, which CliqueExperimentHelper sets from this value);
    /// 1 ns to 1 s.
    double lineRateWindow{FpgaSlotTable::DEFAULT_LINE_RATE_WINDOW};
    /// Rate at which an FPGA without memory fills its line-rate table,
    /// bit/s: with the window and frameBytes it sets the table's slots
    /// (FpgaSlotTable::LineRateSlots; the FpgaAggregator's LineRate, which
    /// CliqueExperimentHelper sets from this value); 1 Mbps to 100 Tbps.
    double lineRateBps{FpgaSlotTable::DEFAULT_LINE_RATE};
};

/**
 * @ingroup wan-training
 * @brief Plan of one clique in one round.
 */
struct CliquePlan
{
    CliqueSchedule::Clique members;  //!< islands, ascending
    double rateBps{0};               //!< clique stream rate r_c
    std::string rateBinding;         //!< what sets r_c, e.g. "access 20 Gbps"
    double serialization{0};         //!< tau_c = D / r_c, seconds
    std::vector<double> offsets;     //!< sender start offsets s_j, seconds
    std::vector<double> memoryBytes; //!< FPGA memory each member needs as receiver
    /// Packet-level arrival skew at each member as receiver, seconds, beyond
    /// the planned alignment (with aggregation; 0 for a receiver of one stream)
    std::vector<double> skewSeconds;
    double finish{0}; //!< last byte in, seconds after round start
};

/**
 * @ingroup wan-training
 * @brief Load of one direction of a core link in one round.
 */
struct WanLinkLoad
{
    uint32_t from{0};      //!< city index
    uint32_t to{0};        //!< city index
    uint32_t streams{0};   //!< n_e
    double capacityBps{0}; //!< C_e
};

/**
 * @ingroup wan-training
 * @brief Plan of one round: rates, offsets, memory, and its time T.
 */
struct RoundPlan
{
    bool feasible{false};            //!< a round time exists
    std::string reason;              //!< why not, when infeasible
    double roundTime{0};             //!< minimal T, seconds
    std::string binding;             //!< what sets T
    std::vector<CliquePlan> cliques; //!< cliques, in the round's order
    std::vector<WanLinkLoad> links;  //!< loaded core link directions
    double peakMemoryBytes{0};       //!< largest FPGA memory of any receiver
    double requiredMemoryBytes{0};   //!< when infeasible: the least memory that would do
    double misalignedBytes{0};       //!< when infeasible: least total memory of all receivers
    /// Without FPGA memory: the least memory (whole frames) that would absorb
    /// every packet-level skew longer than the line-rate window (0: none is)
    double skewMemoryBytes{0};
    /// What the plan cannot promise although it is feasible: receivers whose
    /// packet-level skew exceeds the line-rate window, or the time the
    /// line-rate table's slots take at r_c (their chunks reach the island as
    /// partial sums)
    std::vector<std::string> warnings;
};

/**
 * @ingroup wan-training
 * @brief Plan of a whole schedule: T is the slowest round's time.
 */
struct SchedulePlan
{
    std::string schedule;          //!< schedule name
    bool feasible{false};          //!< every round is feasible
    std::string reason;            //!< the first infeasible round's reason
    double roundTime{0};           //!< T, seconds
    uint32_t bindingRound{0};      //!< index of the slowest (or infeasible) round
    std::string binding;           //!< what sets T in that round
    std::vector<RoundPlan> rounds; //!< per round
    /// Every round's warnings, each prefixed "round <k>: " (from 1)
    std::vector<std::string> warnings;
};

/**
 * @ingroup wan-training
 * @brief Finds the minimal round time T of a schedule on a network.
 *
 * For every clique of a round: each sender's stream follows its
 * shortest-path multicast tree to the other members' edge FPGAs (or |C|-1
 * unicast paths without multicast); n_e counts the streams on each direction
 * of each core link, all concurrent cliques included; the clique rate is
 * r_c = min(access rates, C_e / n_e over the links it uses), split equally.
 * A linear program (GLPK) per clique then chooses sender offsets s_j >= 0
 * minimising T_c subject to T_c >= s_j + l_ji + D / r_c and, with
 * aggregation, the FPGA memory bound r_c (max_j a_ji - min_j a_ji) <= M at
 * each receiver i, where a_ji = s_j + l_ji; T is the largest T_c (the cliques
 * share nothing else).  A second pass keeps every T_c <= T and minimises the
 * memory used.
 * When no offsets fit the memory, the round is infeasible and the reason
 * names the receiver whose arrivals cannot be aligned and the memory that
 * would be needed.
 *
 * The linear program aligns first bits by latency.  Packets add a skew of
 * their own (PacketSkew): a sender's unicast copies leave its egress one
 * frame time apart, and every store-and-forward hop adds one frame time at
 * its rate.  Without FPGA memory, a receiver whose skew exceeds the
 * line-rate window gets partial sums, and so does one whose skew exceeds
 * the time its line-rate table's N slots take at r_c (chunk k is still
 * open when chunk k + N, which shares its slot, arrives; nearer chunks
 * have slots of their own); the round stays feasible and
 * RoundPlan::warnings says so.
 */
class RoundPlanner
{
  public:
    /**
     * @param topo the network (copied; the config's overrides are applied)
     * @param config capabilities and payload; invalid values throw
     *        std::invalid_argument
     */
    RoundPlanner(const WanTopology& topo, const PlannerConfig& config);

    /**
     * @param round a partition of the islands
     * @return its plan
     */
    RoundPlan PlanRound(const CliqueSchedule::Round& round) const;
    /**
     * @param schedule a schedule valid for the topology
     * @return its plan
     */
    SchedulePlan Plan(const CliqueSchedule& schedule) const;

    /**
     * @brief The packet-level arrival skew at each member of a clique as
     * receiver: the spread, over its senders, of the time a frame takes from
     * the sender's send instant to the receiver's FPGA beyond the path
     * latency (copy k of a sender's unicast copies, in the clique's order,
     * leaves its egress k frame times after the send; each core hop adds
     * one frame time; a multicast branch point sends its copies at once).
     * @param members the clique
     * @return seconds per member (0 for a clique of two)
     */
    std::vector<double> PacketSkew(const CliqueSchedule::Clique& members) const;

    /**
     * @brief Store and forward of one frame (frameBytes) on its way from an
     * island to a peer, beyond the sender's own link (whose time is part of
     * the serialization D / r): its serialization on both edge ports, on the
     * core links of its path (the branch of the sender's multicast tree, or
     * the unicast route) and on the receiver's ingress.  A packet-level run
     * at scale S adds (S - 1) times this to the last frame's arrival.
     * @param sender city index
     * @param receiver city index
     * @return seconds
     */
    double GetFrameDelay(uint32_t sender, uint32_t receiver) const;
    /** @return the network, with the overrides applied */
    const WanTopology& GetTopology() const;
    /** @return the configuration */
    const PlannerConfig& GetConfig() const;

  private:
    /// The linear program of one clique and its variables.
    struct CliqueLp
    {
        WanLinearProgram lp;                               //!< the program
        uint32_t t{0};                                     //!< T_c, ms
        uint32_t z{0};                                     //!< largest window, GB
        std::vector<uint32_t> offset;                      //!< s_j, ms
        std::vector<std::pair<uint32_t, uint32_t>> window; //!< (hi_i, lo_i), ms
    };

    /// Sets rates and fills links of a round plan.
    void AssignRates(RoundPlan& plan) const;
    /**
     * @brief Counts the streams on every directed core hop.
     * @param plan the round's cliques
     * @param cliqueHops filled: per clique, the hops its streams use (with multiplicity)
     * @return streams per hop (n_e)
     */
    std::map<WanHop, uint32_t> CountStreams(const RoundPlan& plan,
                                            std::vector<std::vector<WanHop>>& cliqueHops) const;
    /**
     * @brief Sets a clique's rate: the least of its members' access shares and
     * its hops' capacity shares.
     * @param cp the clique (two or more members)
     * @param hops the hops its streams use
     * @param streams streams per hop in the round
     */
    void SetCliqueRate(CliquePlan& cp,
                       std::vector<WanHop> hops,
                       const std::map<WanHop, uint32_t>& streams) const;
    /**
     * @brief Pass 1: each clique's least T_c.
     * @param plan the round (rates set)
     * @param lps filled: each clique's LP
     * @param aligned filled: per clique, whether its arrivals fit the memory
     * @return T, the largest T_c of the cliques that fit
     */
    double SolveCliques(RoundPlan& plan,
                        std::vector<CliqueLp>& lps,
                        std::vector<bool>& aligned) const;
    /**
     * @brief Marks the round infeasible: the memory that would do, and the
     * receiver that needs it.
     */
    void ExplainMisalignment(RoundPlan& plan,
                             const std::vector<CliqueLp>& lps,
                             const std::vector<bool>& aligned) const;
    /// Fills offsets, memory, finish times, T and what binds it from the solved LPs.
    void SetTimes(RoundPlan& plan, const std::vector<CliqueLp>& lps) const;
    /**
     * @brief Fills each clique's packet-level skew and, without FPGA memory,
     * warns of the receivers whose skew exceeds the line-rate window or the
     * time the line-rate table's slots take at the clique's rate.
     * @param plan a feasible round
     */
    void CheckPacketSkew(RoundPlan& plan) const;
    /**
     * @param sender a sending city
     * @param receiver a receiving city of its clique
     * @param copy which of the sender's copies goes to the receiver (1: the
     *        first; always 1 with multicast)
     * @return the frame times from the sender's send instant to the
     *         receiver's FPGA, beyond the path latency, seconds
     */
    double PacketDelay(uint32_t sender, uint32_t receiver, uint32_t copy) const;
    /**
     * @param cp a clique's plan (its rate set)
     * @return the FPGA memory each of its receivers needs for the jitter
     *         allowance: r_c x allowance when it receives two or more streams
     */
    double AllowanceBytes(const CliquePlan& cp) const;
    /**
     * @param cp a clique with its rate
     * @return its LP: minimise T_c subject to arrival, serialization and memory
     */
    CliqueLp BuildCliqueLp(const CliquePlan& cp) const;
    /**
     * @brief Makes the LP minimise the clique's total FPGA memory.
     * @param lp the clique's LP (or a copy)
     * @param cp the clique
     * @param c its variables
     */
    static void SetMemoryCosts(WanLinearProgram& lp, const CliquePlan& cp, const CliqueLp& c);

    WanTopology m_topo;     //!< the network
    PlannerConfig m_config; //!< capabilities
};

} // namespace ns3

#endif /* ROUND_PLANNER_H */
