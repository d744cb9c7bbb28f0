/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_NETWORK_HELPER_H
#define WAN_NETWORK_HELPER_H

#include "ns3/ipv4-address.h"
#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-base.h"
#include "ns3/wan-link-impairment.h"
#include "ns3/wan-topology.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Builds the packet-level network of a WanTopology.
 *
 * Per city: a core router, an edge node (where the FPGA aggregator runs) and
 * an island node.  The island's access link joins it to the edge node (the
 * island's final hop, at the topology's egress rate from the island and
 * ingress rate towards it, zero delay); a local link at the edge rate joins
 * the edge node to the router.  Core links are point-to-point links with the
 * topology's one-way latency and capacity.  Every device has the WAN MTU
 * (9000 bytes by default).  IPv4 addresses come from 10.0.0.0/8, one /30 per
 * link.  Unicast routes are static routes computed from the topology: every
 * router forwards a packet for a city along WanTopology::GetPath (lowest
 * latency, the tie-breaking of the planner), so unicast traffic (the
 * no-multicast baseline, NACKs, re-requests and repairs) takes the paths the
 * planner assumes; they are recomputed when a core link goes down or up.
 *
 * Multicast trees are installed as PIM-SSM would build them: for a source
 * island S and group G, every router on S's shortest-path tree gets an (S,G)
 * route whose input interface is the one facing S (reverse-path forwarding:
 * a packet of S arriving on any other interface matches no route and is
 * dropped) and whose outputs are the tree's branches, so each tree link
 * carries one copy.  (ns-3's static multicast routes match the group and the
 * input interface, not the origin; every (round, source) gets its own group
 * from GroupAddress, so group and interface identify (S,G).)
 *
 * The time-preserving scale divides every rate by a factor (and the
 * applications divide the payload by the same factor), so latencies and
 * serialization times stay as they are while the packet count drops.
 */
class Ipv4AddressHelper;
class Ipv4StaticRouting;
class Node;
class PointToPointHelper;

class WanNetworkHelper : public ObjectBase
{
  public:
    /// The queue disc of the core link devices (attribute CoreQueue).
    enum CoreQueue
    {
        FQ_CODEL, //!< ns-3's default, FqCoDelQueueDisc: flows kept apart
        FIFO      //!< FifoQueueDisc: one drop-tail queue, as many WAN routers have
    };

    /**
     * @brief Get the type ID.
     * @return the object TypeId
     */
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;

    /**
     * @param topo the topology to build
     */
    explicit WanNetworkHelper(const WanTopology& topo);

    /**
     * @param bps rate of the local link between router and edge node (the
     *        FPGA's port), > 0; default PlannerConfig::edgeBps (400 Gbps),
     *        which the planner counts the streams through
     */
    void SetEdgeRate(double bps);
    /**
     * @param bytes MTU of every device (default 9000)
     */
    void SetMtu(uint32_t bytes);
    /**
     * @param deliver whether edge nodes deliver the multicast streams that
     *        arrive from their router to their own sockets (an FPGA's), as
     *        well as forwarding them by their routes (default true; false
     *        when no FPGA listens, which saves a local delivery per packet)
     */
    void SetEdgeMulticastDelivery(bool deliver);
    /**
     * @brief Distributed runs: the MPI rank (ns-3 system id) of each city's
     * router, edge node and island (WanMpiHelper::Partition); before Install.
     * Core links between ranks become ns-3's remote point-to-point channels.
     * @param rankOfCity per city its rank (empty: all on rank 0)
     */
    void SetSystemIds(const std::vector<uint32_t>& rankOfCity);
    /**
     * @param factor every rate is divided by this factor, >= 1 (default 1)
     */
    void SetScale(double factor);
    /**
     * @brief The queue disc of every core link device: the attributes
     * CoreQueue and CoreQueuePackets, checked; throws
     * std::invalid_argument naming what is wrong.
     * @param kind a name of the CoreQueue attribute: "fq-codel" (ns-3's
     *        default, FqCoDelQueueDisc, which keeps flows apart) or "fifo"
     *        (FifoQueueDisc: one drop-tail queue, as many WAN routers have)
     * @param packets the FIFO's size in packets, >= 1 (not used by fq-codel)
     */
    void SetCoreQueue(const std::string& kind, uint32_t packets);
    /**
     * @brief The queue disc of every core link device, its size kept.
     * @param kind a name of the CoreQueue attribute
     */
    void SetCoreQueue(const std::string& kind);

    /// The kinds of links an impairment applies to.
    enum LinkClass
    {
        CORE,             //!< router-router WAN links, both directions
        ACCESS,           //!< loss island->edge, edge->router, router->edge; jitter both ways
        POST_AGGREGATION, //!< edge->island: the FPGA's merged stream (loss only)
    };

    /**
     * @brief Impairs every link of a class (before Install).
     * @param linkClass the links
     * @param impairment loss and jitter; invalid values throw
     *        std::invalid_argument (jitter on the post-aggregation hop too: it
     *        shares the island's access link, so set it on ACCESS)
     */
    void SetImpairment(LinkClass linkClass, const WanLinkImpairment& impairment);
    /**
     * @brief Impairs one core link, in place of its class's impairment (the
     * same as WanTopology::SetLinkImpairment, which topology files use).
     * @param a code of one end city
     * @param b code of the other
     * @param impairment loss and jitter
     */
    void SetLinkImpairment(const std::string& a,
                           const std::string& b,
                           const WanLinkImpairment& impairment);
    /**
     * @param name "core", "access" or "post"
     * @return the link class; throws std::invalid_argument otherwise
     */
    static LinkClass ParseLinkClass(const std::string& name);
    /// @return the link classes by name ("core", "access", "post")
    static const std::map<std::string, LinkClass>& GetLinkClassNames();

    /**
     * @brief Fixes the random streams of the loss and jitter models (after
     * Install).
     * @param stream first stream index
     * @return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);
    /**
     * @param linkClass a link class
     * @return packets its links have lost so far
     */
    uint64_t GetLostPackets(LinkClass linkClass) const;

    /**
     * @brief Creates the nodes, links, IPv4 stacks, addresses and unicast
     * routes.  Call once.
     */
    void Install();

    /** @return the topology */
    const WanTopology& GetTopology() const;
    /** @return the scale, the rates' divisor (SetScale) */
    double GetScale() const;
    /** @return the router-edge rate before the scale, bit/s (SetEdgeRate) */
    double GetEdgeRate() const;
    /** @return the routers, by city index */
    const NodeContainer& GetRouters() const;
    /** @return the edge (FPGA) nodes, by city index */
    const NodeContainer& GetEdges() const;
    /** @return the island nodes, by city index */
    const NodeContainer& GetIslands() const;
    /**
     * @param city city index
     * @return the island's address (on its access link)
     */
    Ipv4Address GetIslandAddress(uint32_t city) const;
    /**
     * @param city city index
     * @return the edge node's address on the access link (the island's gateway)
     */
    Ipv4Address GetEdgeAddress(uint32_t city) const;
    /**
     * @param from city index of a router
     * @param to city index of an adjacent router
     * @return the device of `from` on the core link towards `to`
     */
    Ptr<NetDevice> GetCoreDevice(uint32_t from, uint32_t to) const;
    /**
     * @param from city index of one end
     * @param to city index of the other end
     * @return from's address on the core link to `to`
     */
    Ipv4Address GetCoreAddress(uint32_t from, uint32_t to) const;
    /**
     * @param city city index
     * @return the island's access device, the edge node's access device, the
     *         edge node's device towards the router, the router's device
     *         towards the edge node
     */
    NetDeviceContainer GetAccessDevices(uint32_t city) const;

    /**
     * @brief Takes a core link down or up: both routers' interfaces, then the
     * unicast routes are recomputed (multicast trees are the caller's).
     * @param a city index of one end
     * @param b city index of the other
     * @param up true to bring it back
     */
    void SetLinkUp(uint32_t a, uint32_t b, bool up);
    /**
     * @brief Takes a core link out of the unicast routes, or puts it back,
     * leaving its interfaces up (what a link-state protocol does when it
     * learns of a failure: the link itself may still carry, e.g. BFD).
     * @param a city index of one end
     * @param b city index of the other
     * @param routed false to route around it
     */
    void SetLinkRouted(uint32_t a, uint32_t b, bool routed);
    /**
     * @brief Breaks a core link, or mends it, as the hardware would: while
     * broken, both directions lose every packet (their loss models are set
     * aside and come back when it is mended), and nothing else is told:
     * interfaces stay up and routes unchanged until a control plane (BFD and
     * WanReconvergenceHelper) notices.
     * @param a city index of one end
     * @param b city index of the other
     * @param broken true to break it
     */
    void SetLinkBroken(uint32_t a, uint32_t b, bool broken);
    /**
     * @param round round number
     * @param source sending city
     * @return a source-specific group address in 232.0.0.0/8
     */
    static Ipv4Address GroupAddress(uint32_t round, uint32_t source);

  private:
    /**
     * @brief Creates a core link's devices, impairments and addresses.
     * @param link the link
     * @param p2p the device and channel helper
     * @param address the address helper
     */
    void InstallCoreLink(const WanLink& link, PointToPointHelper& p2p, Ipv4AddressHelper& address);
    /**
     * @brief Creates a city's access and edge links, impairments, addresses
     * and the routes of its island, edge node and router to its island.
     * @param c the city
     * @param p2p the device and channel helper
     * @param address the address helper
     */
    void InstallCity(uint32_t c, PointToPointHelper& p2p, Ipv4AddressHelper& address);
    /**
     * @brief (Re)installs every router's unicast routes from the topology's
     * paths over the links that are up: each router forwards a packet for a
     * city's networks to the next hop of WanTopology::GetPath, so packets
     * follow the paths the planner assumes.
     */
    void InstallUnicastRoutes();
    /**
     * @param node a node of this network
     * @return its static routing protocol
     */
    static Ptr<Ipv4StaticRouting> StaticRouting(Ptr<Node> node);
    /**
     * @param device a device with an IPv4 interface
     * @return the interface's index on its node
     */
    static uint32_t InterfaceOf(Ptr<NetDevice> device);
    /// Scaled rate as an ns-3 DataRate string.
    std::string Rate(double bps) const;
    /**
     * @param own a link's own loss and jitter
     * @param fields the fields of own that are the link's (WanLinkImpairment::Field bits)
     * @param linkClass the link's class, which gives the other fields
     * @param where the link, for the message
     * @return the link's impairment; throws std::invalid_argument when the
     *         fields do not go together (reorder with the correlated model)
     */
    WanLinkImpairment OwnOver(const WanLinkImpairment& own,
                              uint32_t fields,
                              LinkClass linkClass,
                              const std::string& where) const;
    /**
     * @brief Applies an impairment to a link's devices.
     * @param devices the two devices of the link
     * @param receivers which of the two receive through the error model
     * @param impairment loss and jitter
     * @param linkClass for the loss counters
     */
    void Impair(const NetDeviceContainer& devices,
                const std::vector<uint32_t>& receivers,
                const WanLinkImpairment& impairment,
                LinkClass linkClass);

    WanTopology m_topo;                       //!< topology
    double m_edgeBps;                         //!< router-edge rate
    uint32_t m_mtu{9000};                     //!< device MTU
    CoreQueue m_coreQueue{FQ_CODEL};          //!< queue disc of the core devices (attribute)
    uint32_t m_coreQueuePackets{0};           //!< its size, when a FIFO (attribute)
    double m_scale{1};                        //!< rate divisor
    bool m_installed{false};                  //!< Install was called
    bool m_edgeDelivery{true};                //!< edges deliver inbound multicast locally
    std::vector<uint32_t> m_systemIds;        //!< per city its rank (empty: all on 0)
    NodeContainer m_routers;                  //!< routers by city
    NodeContainer m_edges;                    //!< edge nodes by city
    NodeContainer m_islands;                  //!< islands by city
    std::vector<NetDeviceContainer> m_access; //!< per city: island, edge, edge-up, router-down
    std::vector<Ipv4Address> m_islandAddress; //!< per city
    std::vector<Ipv4Address> m_edgeAddress;   //!< per city
    std::map<std::pair<uint32_t, uint32_t>, Ptr<NetDevice>> m_core; //!< (from, to) -> device
    std::map<std::pair<uint32_t, uint32_t>, Ipv4Address>
        m_coreAddress;                                    //!< (from, to) -> from's address
    std::vector<std::vector<Ipv4Address>> m_cityNetworks; //!< per city: access and edge-router
    std::set<std::pair<uint32_t, uint32_t>> m_down;       //!< core links down (lower index first)
    std::map<std::pair<uint32_t, uint32_t>, Ptr<ErrorModel>>
        m_broken; //!< broken direction (from, to) -> the loss model set aside
    std::map<LinkClass, WanLinkImpairment> m_impairment; //!< per link class
    std::vector<Ptr<ErrorModel>> m_errorModels;          //!< installed loss models
    std::vector<Ptr<Object>> m_jitterChannels;           //!< installed jitter channels
    std::map<LinkClass, uint64_t> m_lost;                //!< packets lost per class
};

} // namespace ns3

#endif /* WAN_NETWORK_HELPER_H */
