/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_COLLECTIVE_EXPERIMENT_H
#define WAN_COLLECTIVE_EXPERIMENT_H

#include "wan-cross-traffic-helper.h"
#include "wan-network-helper.h"
#include "wan-tcp-cross-traffic-helper.h"

#include "ns3/object-factory.h"
#include "ns3/wan-topology.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief What a sync with one of today's collectives over TCP measured.
 */
struct WanCollectiveResult
{
    std::string kind;              //!< "ring all-reduce" or "parameter server"
    std::vector<uint32_t> members; //!< the members (a ring in its order)
    int64_t server{-1};            //!< the parameter server's city (-1: a ring)
    bool complete{false};          //!< every member completed before the limit
    bool exact{false};             //!< and every member's sums are exact
    double seconds{0};             //!< time of the sync: the last member's completion
    uint64_t bytes{0};             //!< record bytes all members sent (at the scale)
    uint64_t maxEgressBytes{0};    //!< the most any member sent
    uint64_t maxIngressBytes{0};   //!< the most any member received
    uint64_t retransmissions{0};   //!< TCP segments sent again, all members
    uint64_t refused{0};           //!< records refused, all members
    uint64_t events{0};            //!< simulator events of the run
    uint64_t crossTcpBytes{0};     //!< payload bytes the TCP cross traffic delivered (at the scale)
    std::vector<std::string> warnings; //!< buffers below a path's product
};

/**
 * @ingroup wan-training
 * @brief Runs one sync of today's collectives over ns-3's TCP (a ring
 * all-reduce, WanRingAllReduceHelper; a parameter server,
 * WanParameterServerHelper) on a WAN built as the paper's system's
 * experiments build it (WanNetworkHelper: the same scale, edge rate, core
 * queues, loss and jitter per link class, cross traffic), so the two can be
 * put side by side. The run ends when every member holds every sum, or at
 * the time limit (the result then says incomplete).
 */
class WanCollectiveExperiment
{
  public:
    /// The collectives.
    enum Kind
    {
        RING,             //!< ring all-reduce
        PARAMETER_SERVER, //!< parameter server
    };

    /**
     * @param topo the WAN (copied)
     */
    explicit WanCollectiveExperiment(const WanTopology& topo);

    /**
     * @param name "ring" or "ps" (also "parameter-server")
     * @return its kind
     * @throws std::invalid_argument naming the unknown name
     */
    static Kind Parse(const std::string& name);
    /**
     * @param kind a collective
     * @return its name in results: "ring all-reduce" or "parameter server"
     */
    static std::string Name(Kind kind);

    /// @param factor the network's scale, >= 1 (WanNetworkHelper::SetScale)
    void SetScale(double factor);
    /// @param bytes D, each member's model state before the scale, > 0
    void SetPayload(double bytes);
    /// @param bps the island-edge link's rate (WanNetworkHelper::SetEdgeRate)
    void SetEdgeRate(double bps);
    /// @param bytes every device's MTU, >= 576 (WanNetworkHelper::SetMtu; TCP's
    /// segments follow it)
    void SetMtu(uint32_t bytes);
    /**
     * @param linkClass a link class
     * @param impairment its loss and jitter
     */
    void SetImpairment(WanNetworkHelper::LinkClass linkClass, const WanLinkImpairment& impairment);
    /**
     * @param kind the core links' queue disc (WanNetworkHelper::SetCoreQueue)
     * @param packets a FIFO's size, >= 1 (WanNetworkHelper's CoreQueuePackets)
     */
    void SetCoreQueue(const std::string& kind, uint32_t packets);
    /**
     * @param utilisation background share of each core direction, [0, 1)
     * @param packetBytes its packets' size
     * @param burstPackets mean packets per burst
     */
    void SetCrossTraffic(double utilisation, uint32_t packetBytes, double burstPackets);
    /**
     * @param flows TCP bulk connections per core link direction, 0 to 64
     *        (WanTcpCrossTrafficHelper; 0: none)
     * @param congestion their congestion control, a TcpCongestionOps's name
     * @throws std::invalid_argument naming the value refused
     */
    void SetTcpCrossTraffic(uint32_t flows, const std::string& congestion = "ns3::TcpCubic");
    /**
     * @param name an attribute of the members' application
     *        (WanCollectiveApplication: CongestionControl, Connections, ...)
     * @param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);
    /// @param seconds simulated time after the collective begins before a run gives up, > 0
    void SetTimeLimit(double seconds);
    /// @param stream the first random stream of the network's loss and jitter
    void SetStream(int64_t stream);

    /**
     * @param kind the collective
     * @param members the members' cities (empty: every city); a ring is
     *        run in WanRingAllReduceHelper::ChooseOrder's order, a server
     *        at WanParameterServerHelper::ChooseServer's city
     * @return what the sync measured
     * @throws std::invalid_argument naming a bad member
     */
    WanCollectiveResult Run(Kind kind, std::vector<uint32_t> members = {}) const;
    /**
     * @brief Runs one collective in each group at once, on one network: the
     * cliques of a schedule's round, which share its links. A group of one
     * city runs nothing (it keeps its own state) and has no result.
     * @param kind the collective
     * @param groups disjoint groups of cities, each run as Run runs its members
     * @return a result per group of two or more cities, in the groups' order
     * @throws std::invalid_argument naming a bad member or a city in two groups
     */
    std::vector<WanCollectiveResult> RunGroups(
        Kind kind,
        const std::vector<std::vector<uint32_t>>& groups) const;

    /**
     * @param result a run's result
     * @param topo its topology
     * @return one line: kind, members, time, bytes, retransmissions, exact
     */
    static std::string Format(const WanCollectiveResult& result, const WanTopology& topo);

  private:
    /**
     * @param net the network to build
     */
    void BuildNetwork(WanNetworkHelper& net) const;
    /**
     * @brief Installs the collective among a group, as the settings say.
     * @param net the network, built
     * @param kind the collective
     * @param members the group's cities, two or more
     * @param result where its kind, members, server and warnings go
     * @return the members' applications
     */
    ApplicationContainer Install(WanNetworkHelper& net,
                                 Kind kind,
                                 const std::vector<uint32_t>& members,
                                 WanCollectiveResult& result) const;
    /**
     * @brief A group's figures, from its members once the run is over.
     * @param apps the members' applications
     * @param result where the figures go
     */
    static void Collect(const ApplicationContainer& apps, WanCollectiveResult& result);

    WanTopology m_topo;                                                    //!< the WAN
    double m_scale{1};                                                     //!< the scale
    double m_payload{1e9};                                                 //!< D
    std::optional<double> m_edgeBps;                                       //!< edge rate
    std::optional<uint32_t> m_mtu;                                         //!< device MTU
    std::map<WanNetworkHelper::LinkClass, WanLinkImpairment> m_impairment; //!< per class
    std::optional<std::pair<std::string, uint32_t>> m_coreQueue;           //!< kind, packets
    WanCrossTrafficHelper m_crossTraffic;                                  //!< background
    WanTcpCrossTrafficHelper m_tcpCrossTraffic; //!< elastic background traffic
    std::vector<std::pair<std::string, Ptr<AttributeValue>>> m_attributes; //!< of the members
    double m_limit{600};                                                   //!< time limit, s
    int64_t m_stream{1};                                                   //!< first stream
};

} // namespace ns3

#endif /* WAN_COLLECTIVE_EXPERIMENT_H */
