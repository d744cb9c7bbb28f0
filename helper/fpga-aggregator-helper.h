/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FPGA_AGGREGATOR_HELPER_H
#define FPGA_AGGREGATOR_HELPER_H

#include "ns3/application-container.h"
#include "ns3/attribute.h"
#include "ns3/fpga-aggregator.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"
#include "ns3/wan-training-compat.h"

#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Installs FpgaAggregator on edge nodes (ns-3's ApplicationHelper;
 * wancompat::ApplicationHelper before ns-3.42), optionally at a
 * time-preserving scale: attributes are set unscaled (SetAttribute), and
 * Install and Create scale them.
 *
 * At scale f (WanNetworkHelper::SetScale divides every rate by f) the
 * aggregator keeps what it is in packets and in time: its HBM holds as many
 * slots of the f-times smaller state (HbmBytes / f), its line rate is
 * divided by f and its line-rate window stretched by f, so the window still
 * holds as many packets and lasts as many packet times.
 */
class FpgaAggregatorHelper : public wancompat::ApplicationHelper
{
  public:
    FpgaAggregatorHelper();

    /**
     * @param factor the network's time-preserving scale, >= 1 (default 1)
     */
    void SetScale(double factor);
    /**
     * @return an aggregator on no node, scaled as Install's: in a
     *         distributed run, the bookkeeping of an FPGA that another rank runs
     */
    Ptr<FpgaAggregator> Create() const;
    /**
     * @brief Fixes the random streams of the aggregators (they draw none
     * today).
     * @param apps aggregators installed by this helper
     * @param stream first stream index
     * @return the number of streams used
     */
    int64_t AssignStreams(ApplicationContainer apps, int64_t stream) const;

  protected:
    Ptr<Application> DoInstall(Ptr<Node> node) override;

  private:
    double m_scale{1}; //!< time-preserving scale
};

} // namespace ns3

#endif /* FPGA_AGGREGATOR_HELPER_H */
