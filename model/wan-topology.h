/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_H
#define WAN_TOPOLOGY_H

#include "wan-link-impairment.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * @defgroup wan-training Distributed training over an intelligent WAN
 *
 * Islands of compute, one per city, train one model across a wide area
 * network that takes part: multicast trees replicate each island's update,
 * and an FPGA at each island's edge sums the streams sent to it.  The
 * analytic model (topology, rotating-clique schedules, mixing, the round
 * planner, the optimizer) and the packet-level model (island applications,
 * multicast trees, FPGA aggregators, loss, jitter and faults) are described
 * in the module's documentation (doc/wan-training.rst).
 */

/**
 * @defgroup wan-training-tests Tests of wan-training
 * @ingroup wan-training
 */

/**
 * @ingroup wan-training
 * @brief One city of a WAN: a core router with one island of compute behind it.
 */
struct WanCity
{
    std::string code;     //!< short unique code, e.g. "NYC"
    std::string name;     //!< human-readable name
    std::string region;   //!< region label used by the built-in schedules
    double latitude{0};   //!< degrees (informational)
    double longitude{0};  //!< degrees (informational)
    double ingressBps{0}; //!< island access rate from the network, bit/s
    double egressBps{0};  //!< island access rate into the network, bit/s
    /// the fields its access links' own loss and jitter name (WanLinkImpairment::Field
    /// bits; the others are the access class's; 0: none of their own)
    uint32_t accessFields{0};
    WanLinkImpairment access; //!< loss and jitter of its access links, the named fields
    /// the fields its post-aggregation hop's own loss names (as accessFields)
    uint32_t postFields{0};
    WanLinkImpairment post; //!< loss of its post-aggregation hop, the named fields
};

/**
 * @ingroup wan-training
 * @brief An undirected core link; each direction has the full capacity.
 */
struct WanLink
{
    uint32_t a{0};         //!< index of one end city
    uint32_t b{0};         //!< index of the other end city
    double delay{0};       //!< one-way propagation delay, seconds
    double capacityBps{0}; //!< capacity of each direction, bit/s
    /// the fields its own loss and jitter name (WanLinkImpairment::Field bits; the
    /// others are the core class's; 0: none of its own)
    uint32_t impairmentFields{0};
    WanLinkImpairment impairment; //!< its loss and jitter, the named fields
};

/**
 * @ingroup wan-training
 * @brief A directed hop (from, to) between two adjacent cities.
 */
using WanHop = std::pair<uint32_t, uint32_t>;

/**
 * @ingroup wan-training
 * @brief The WAN: cities (each with an island behind an access link) joined by
 * core links.
 *
 * Traffic follows shortest paths by latency.  Ties are broken towards the
 * lower city index, so paths and trees are deterministic.  Paths are
 * destination-based, as routers forward: GetPath(from, to) follows the
 * shortest-path tree rooted at `to`, so the rest of a path from any city on it
 * is that city's own path (WanNetworkHelper installs exactly these routes).
 * The multicast tree of a source is the source-rooted shortest-path tree
 * pruned to the receivers: the union of the reversed paths from the receivers
 * to the source, which is what PIM-SSM builds with reverse-path forwarding.
 *
 * Invalid input (unknown city, duplicate city, disconnected graph, a number
 * outside its range, ...) raises std::invalid_argument with a one-line message
 * naming the problem.  The ranges (one-way latency 0 to 1000 ms, access rates
 * and capacities 1 Mbps to 100 Tbps, latitude and longitude, loss and jitter)
 * are those of the module's input ranges table (doc: Input ranges); file
 * readers name the field that gave the value.
 */
class WanTopology
{
  public:
    WanTopology() = default;

    /**
     * @brief The paper's nine-city topology (embedded; see the module docs for
     * where its numbers come from).
     * @return New York, Los Angeles, Buenos Aires, London, Amsterdam, Frankfurt,
     *         Tokyo, Seoul, Singapore, 11 core links of 100 Gbps, 20 Gbps access.
     */
    static WanTopology NineCity();

    /**
     * @brief Loads a topology file.
     * @param path a JSON file (".json"), or a folder holding "cities.csv" and
     *        "core-links.csv"; a leading UTF-8 byte-order mark is ignored
     * @param defaultAccessBps access rate of cities whose file gives none
     * @return the validated topology
     */
    static WanTopology LoadFile(const std::string& path, double defaultAccessBps = 20e9);

    /**
     * @brief Parses a topology from JSON text.
     *
     * Format: {"cities": [{"code", "name", "region", "lat", "lon",
     * "ingress_gbps", "egress_gbps", "access": {...}, "post": {...}}...],
     * "links": [{"a", "b", "one_way_ms", "capacity_gbps", "loss_rate",
     * "loss_burst", "jitter_ms", "jitter_distribution", "jitter_model",
     * "jitter_correlation_ms", "reorder"}...],
     * "access_gbps": 20}.  Only "code" (cities) and "a", "b", "one_way_ms",
     * "capacity_gbps" (links) are required.  A city's "access" and "post"
     * objects take the same loss and jitter fields as a link (no jitter on
     * "post"): its access links' and post-aggregation hop's impairments.
     * @param text the JSON document
     * @param defaultAccessBps access rate when neither the city nor the
     *        document gives one
     * @return the validated topology
     */
    static WanTopology FromJson(const std::string& text, double defaultAccessBps = 20e9);

    /**
     * @brief Parses the CSV pair of the nine-city data folder.
     *
     * cities: header "code,name,region,lat,lon" (optional columns
     * "ingress_gbps", "egress_gbps"); links: header
     * "a,b,one_way_ms,capacity_gbps" (further columns ignored).
     * @param citiesCsv text of cities.csv
     * @param linksCsv text of core-links.csv
     * @param defaultAccessBps access rate of cities without one
     * @return the validated topology
     */
    static WanTopology FromCsv(const std::string& citiesCsv,
                               const std::string& linksCsv,
                               double defaultAccessBps = 20e9);

    /**
     * @brief A synthetic WAN: cities scattered around random region centres on
     * the globe, joined by the minimum spanning tree of their distances plus
     * each city's two nearest neighbours.  One-way latency is the great-circle
     * distance times a route factor of 1.4 at 200 000 km/s (fibre).
     * @param nCities number of cities (2 to 1000)
     * @param nRegions number of regions (1 to nCities); city i is in region i mod nRegions
     * @param seed random seed (same seed, same topology)
     * @param accessBps access rate of every island
     * @param capacityBps capacity of every core link
     * @return the validated topology; cities are named C01, C02, ...
     */
    static WanTopology RandomGeometric(uint32_t nCities,
                                       uint32_t nRegions,
                                       uint32_t seed,
                                       double accessBps = 20e9,
                                       double capacityBps = 100e9);

    /**
     * @brief Adds a city.
     * @param city the city; its code must be new and non-empty, its access
     *        rates 1 Mbps to 100 Tbps, its latitude and longitude in degrees
     *        (-90 to 90, -180 to 180)
     * @return the index of the new city
     */
    uint32_t AddCity(const WanCity& city);

    /**
     * @brief Adds a core link between two known cities.
     * @param a code of one end
     * @param b code of the other end
     * @param delaySeconds one-way latency, 0 to 1 s
     * @param capacityBps capacity per direction, 1 Mbps to 100 Tbps
     */
    void AddLink(const std::string& a,
                 const std::string& b,
                 double delaySeconds,
                 double capacityBps);

    /**
     * @brief Gives a core link its own loss and jitter, in place of those of
     * all core links (see WanNetworkHelper::SetImpairment): the fields named
     * replace the core class's, the others stay the class's.
     * @param a code of one end
     * @param b code of the other end
     * @param impairment loss and jitter; invalid values, unknown cities or a
     *        missing link throw std::invalid_argument
     * @param fields the fields of impairment that are the link's own
     *        (WanLinkImpairment::Field bits; a topology file's: those it names)
     */
    void SetLinkImpairment(const std::string& a,
                           const std::string& b,
                           const WanLinkImpairment& impairment,
                           uint32_t fields = WanLinkImpairment::ALL_FIELDS);

    /**
     * @return one line per link and city with impairment fields of its own,
     *         e.g. "link NYC-LON: jitter 0 ms (the rest: core)"; empty when
     *         there is none
     */
    std::vector<std::string> DescribeOwnImpairments() const;

    /**
     * @param a code of one end
     * @param b code of the other end
     * @param connected whether the rest must be connected (false: a city cut
     *        off has no path, GetPathDelay infinite, as routing sees a
     *        partition)
     * @return a copy of this topology without the core link a-b; throws
     *         std::invalid_argument when there is no such link or, when
     *         connected is true, when the rest is disconnected
     */
    WanTopology WithoutLink(const std::string& a,
                            const std::string& b,
                            bool connected = true) const;

    /**
     * @brief Checks that there are at least two cities and that the graph is
     * connected; throws std::invalid_argument otherwise.
     */
    void Validate() const;

    /** @return the number of cities (= islands) */
    uint32_t GetNCities() const;
    /**
     * @param i city index
     * @return the city
     */
    const WanCity& GetCity(uint32_t i) const;
    /** @return all cities, in index order */
    const std::vector<WanCity>& GetCities() const;
    /** @return all core links */
    const std::vector<WanLink>& GetLinks() const;
    /**
     * @return the largest jitter (standard deviation, seconds) that a core
     *         link or a city's access link names as its own (0: none)
     */
    double GetLargestOwnJitter() const;
    /**
     * @param code a city code
     * @return its index; throws std::invalid_argument for an unknown code
     */
    uint32_t FindCity(const std::string& code) const;
    /**
     * @param code a city code
     * @return true if the topology has this city
     */
    bool HasCity(const std::string& code) const;
    /** @return the region labels, in order of first appearance */
    std::vector<std::string> GetRegions() const;
    /**
     * @param from city index
     * @param to an adjacent city index
     * @return the index into GetLinks() of the link joining them;
     *         throws std::invalid_argument if they are not adjacent
     */
    uint32_t GetLinkIndex(uint32_t from, uint32_t to) const;

    /**
     * @brief Sets the ingress and egress access rate of every island.
     * @param bps rate, 1 Mbps to 100 Tbps
     */
    void SetAccessRate(double bps);
    /**
     * @brief Sets the capacity of every core link.
     * @param bps capacity per direction, 1 Mbps to 100 Tbps
     */
    void SetCoreCapacity(double bps);

    /**
     * @param from source city index
     * @param to destination city index
     * @return the one-way latency of the shortest path, seconds
     */
    double GetPathDelay(uint32_t from, uint32_t to) const;
    /**
     * @param from source city index
     * @param to destination city index
     * @return the cities along the shortest path, both ends included
     */
    std::vector<uint32_t> GetPath(uint32_t from, uint32_t to) const;
    /**
     * @brief The source-specific shortest-path multicast tree.
     * @param source the sending city
     * @param receivers the receiving cities (the source itself is ignored)
     * @return the directed hops of the tree, each once, ordered by distance
     *         from the source
     */
    std::vector<WanHop> GetMulticastTree(uint32_t source,
                                         const std::vector<uint32_t>& receivers) const;

    /** @return a JSON document that FromJson reads back to the same topology */
    std::string ToJson() const;

  private:
    /// Computes the shortest-path tree of every source (once per change).
    void ComputePaths() const;
    /// Forgets the cached paths after a change.
    void Invalidate();

    std::vector<WanCity> m_cities;                       //!< cities by index
    std::vector<WanLink> m_links;                        //!< core links
    mutable std::vector<std::vector<double>> m_dist;     //!< [src][dst] latency
    mutable std::vector<std::vector<uint32_t>> m_parent; //!< [src][dst] previous hop
    mutable bool m_pathsValid{false};                    //!< cache is current
};

} // namespace ns3

#endif /* WAN_TOPOLOGY_H */
