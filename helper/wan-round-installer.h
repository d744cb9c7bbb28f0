/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ROUND_INSTALLER_H
#define WAN_ROUND_INSTALLER_H

#include "wan-network-helper.h"

#include "ns3/application-container.h"
#include "ns3/ipv4-address.h"
#include "ns3/round-planner.h"
#include "ns3/wan-experiment-plan.h"
#include "ns3/wan-island-application.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief A multicast group of one round: its source and members.
 */
struct WanMulticastGroup
{
    uint32_t source{0};            //!< sending city
    Ipv4Address group;             //!< group address
    std::vector<uint32_t> members; //!< the clique
};

/**
 * @ingroup wan-training
 * @brief Gives the islands the rounds of a plan and installs each round's
 * multicast trees: at the start of a run every round, and a re-planned round
 * again (its trees move, its islands' rounds are replaced).
 *
 * Each sender's round carries its planned start, offset, clique rate and
 * deadline, with D and the rate divided by the time-preserving scale; its
 * destinations are the round's group (multicast) or each peer's edge or
 * island (unicast copies).  With trees built by PIM, the routers' part of a
 * tree is PIM's: only the edge routes are installed.
 */
class WanRoundInstaller
{
  public:
    /**
     * @param net the built network (its trees change)
     * @param config the planner's switches (multicast, aggregation, D)
     * @param scale the time-preserving scale
     * @param pim trees built by PIM-SSM (CliqueExperimentHelper::SetTreeBuilding)
     * @param islands one WanIslandApplication per city
     * @throws std::invalid_argument when the scale leaves no payload to send
     */
    WanRoundInstaller(WanNetworkHelper& net,
                      const PlannerConfig& config,
                      double scale,
                      bool pim,
                      const ApplicationContainer& islands);

    /// @return the groups of every round of the plan, installed
    std::vector<WanMulticastGroup> InstallAll(const WanExperimentPlan& plan);
    /**
     * @brief Gives the islands one round of the plan (AddRound, or
     * ReplaceRound for a re-planned one, whose trees move) and installs its
     * multicast trees.
     * @param round the planned round
     * @param replace the round was installed before (re-planned)
     * @return the round's groups
     */
    std::vector<WanMulticastGroup> Install(const WanPlannedRound& round, bool replace);

  private:
    /// @return a sender's round as its island runs it (no destinations yet)
    WanIslandRound SenderRound(const WanPlannedRound& round,
                               const WanPlannedStream& stream,
                               uint16_t mergedPort) const;
    /// Installs (or moves) a stream's tree.  @return its group
    WanMulticastGroup InstallTree(const WanPlannedRound& round,
                                  const WanPlannedStream& stream,
                                  bool replace);

    WanNetworkHelper& m_net;        //!< the network
    PlannerConfig m_config;         //!< the planner's switches
    double m_scale;                 //!< time-preserving scale
    bool m_pim;                     //!< PIM builds the routers' part of the trees
    ApplicationContainer m_islands; //!< per city
    uint64_t m_payload;             //!< D as simulated (bytes / scale)
};

} // namespace ns3

#endif /* WAN_ROUND_INSTALLER_H */
