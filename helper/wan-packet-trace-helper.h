/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_PACKET_TRACE_HELPER_H
#define WAN_PACKET_TRACE_HELPER_H

#include "wan-network-helper.h"

#include "ns3/net-device-container.h"
#include "ns3/wan-topology.h"

#include <cstdint>
#include <set>
#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Packet traces of a built WAN (WanNetworkHelper): pcap files and ns-3
 * ASCII traces of the devices of some link classes and some cities, named as
 * ns-3 names them (prefix-<node>-<device>.pcap and .tr).
 *
 * @code
 *   WanPacketTraceHelper traces(topo);
 *   const auto selection = traces.Parse("core,NYC"); // checked before the run
 *   net.Install();
 *   WanPacketTraceHelper::EnablePcap(net, "out/wan", selection);
 * @endcode
 */
class WanPacketTraceHelper
{
  public:
    /**
     * @brief Devices to trace: every device of some link classes and of some
     * cities.
     */
    struct Selection
    {
        std::set<WanNetworkHelper::LinkClass> classes; //!< CORE: both devices of every core
                                                       //!< link; ACCESS: both links of every
                                                       //!< city (island-edge, edge-router);
                                                       //!< POST_AGGREGATION: every island's
                                                       //!< device (the merged stream as the
                                                       //!< island gets it)
        std::set<uint32_t> cities; //!< city indices: every device of the city's router (core
                                   //!< links too), edge node and island
    };

    /// @param topo the topology whose city codes a selection may name
    explicit WanPacketTraceHelper(const WanTopology& topo);

    /**
     * @param items comma list of link classes ("core", "access", "post") and
     *        city codes, e.g. "core,NYC"
     * @return the selection; throws std::invalid_argument naming an item that
     *         is neither, or when the list is empty
     */
    Selection Parse(const std::string& items) const;
    /**
     * @brief Checks a trace file prefix: not empty, and its folder (if it
     * names one) exists; throws std::invalid_argument otherwise.
     * @param prefix file name prefix, with its folder
     */
    static void CheckPrefix(const std::string& prefix);
    /**
     * @param net a network whose Install has run
     * @param selection link classes and cities
     * @return their devices, each once, by node and device index; in a
     *         distributed run, those of this rank's nodes only
     */
    static NetDeviceContainer GetDevices(const WanNetworkHelper& net, const Selection& selection);
    /**
     * @brief Writes a pcap file (PPP link type) per selected device, with
     * ns-3's names: prefix-<node>-<device>.pcap.  Node ids follow Install:
     * routers 0 to n-1, edge nodes n to 2n-1, islands 2n to 3n-1, in city
     * order; device 0 of every node is its loopback.  After Install, before
     * the simulation runs.  Throws std::invalid_argument when a file cannot
     * be written.
     * @param net the built network
     * @param prefix file name prefix, with its folder
     * @param selection the devices
     */
    static void EnablePcap(const WanNetworkHelper& net,
                           const std::string& prefix,
                           const Selection& selection);
    /**
     * @brief Writes an ns-3 ASCII trace (enqueue, dequeue, drop, receive) per
     * selected device: prefix-<node>-<device>.tr, named as EnablePcap's files.
     * The lines show the packets' headers only when ns-3 keeps packet metadata
     * (Packet::EnablePrinting, called before the first packet is created).
     * @param net the built network
     * @param prefix file name prefix, with its folder
     * @param selection the devices
     */
    static void EnableAscii(const WanNetworkHelper& net,
                            const std::string& prefix,
                            const Selection& selection);

  private:
    const WanTopology& m_topo; //!< the topology (city codes)
};

} // namespace ns3

#endif /* WAN_PACKET_TRACE_HELPER_H */
