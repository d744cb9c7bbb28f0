/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_BFD_HELPER_H
#define WAN_BFD_HELPER_H

#include "wan-network-helper.h"

#include "ns3/application-container.h"
#include "ns3/object-factory.h"
#include "ns3/wan-training-compat.h"

#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Installs single-hop BFD (WanBfdApplication) on the routers of a
 * built WAN: one application per router, one session per core link end,
 * between the two ends' addresses of the link.
 */
class WanBfdHelper : public wancompat::ApplicationHelper
{
  public:
    WanBfdHelper();

    using wancompat::ApplicationHelper::Install;

    /**
     * @param net a WAN whose Install has run
     * @return one application per router, in city order; in a distributed
     *         run only this rank's routers have theirs installed (the others
     *         are made and configured, not run)
     */
    ApplicationContainer Install(const WanNetworkHelper& net) const;
    /**
     * @param apps applications Install returned
     * @param stream first random stream
     * @return the streams used
     */
    static int64_t AssignStreams(const ApplicationContainer& apps, int64_t stream);
};

} // namespace ns3

#endif /* WAN_BFD_HELPER_H */
