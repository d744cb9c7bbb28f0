/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_ISLAND_HELPER_H
#define WAN_ISLAND_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/wan-island-application.h"
#include "ns3/wan-training-compat.h"

#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Installs WanIslandApplication on nodes: ns-3's ApplicationHelper
 * (from ns-3.42; wancompat::ApplicationHelper before) for the islands.
 *
 * @code
 *   WanIslandHelper islands;
 *   islands.SetAttribute("NackDelay", TimeValue(MicroSeconds(500)));
 *   islands.SetAttribute("Fpga", Ipv4AddressValue(net.GetEdgeAddress(c)));
 *   ApplicationContainer apps = islands.Install(net.GetIslands().Get(c));
 * @endcode
 */
class WanIslandHelper : public wancompat::ApplicationHelper
{
  public:
    WanIslandHelper();

    /**
     * @return an application on no node: in a distributed run, the
     *         bookkeeping of an island that another rank runs
     */
    Ptr<WanIslandApplication> Create() const;
    /**
     * @brief Fixes the random streams of the applications (they draw none
     * today; the call is there so that scripts need not change when they do).
     * @param apps applications installed by this helper
     * @param stream first stream index
     * @return the number of streams used
     */
    int64_t AssignStreams(ApplicationContainer apps, int64_t stream) const;

  protected:
    Ptr<Application> DoInstall(Ptr<Node> node) override;
};

} // namespace ns3

#endif /* WAN_ISLAND_HELPER_H */
