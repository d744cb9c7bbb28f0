/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TOPOLOGY_GENERATOR_H
#define WAN_TOPOLOGY_GENERATOR_H

#include "wan-topology.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief Test WANs beyond the nine cities: rings with chords, grids, random
 * geometric graphs and long chains, with uneven link capacities.
 *
 * Cities lie on a plane (a map of up to 8000 km a side; latitude and longitude
 * are the map's kilometres / 111, for plots); a link's one-way latency is its
 * length times a route factor of 1.4 at 200 000 km/s (fibre), at least
 * 0.5 ms.  Each link's capacity is drawn from the capacities given; every
 * island has the same access rate.  Regions (for the regional and triangle
 * schedules) are groups of about six neighbouring cities.  The same settings
 * and seed give the same WAN (GSL's MT19937).
 */
class WanTopologyGenerator
{
  public:
    /// The shapes of WAN the generator draws.
    enum Kind
    {
        RING,      //!< a ring with a few long chords (about one per eight cities)
        GRID,      //!< a rectangular grid, rows x columns, nearly square
        GEOMETRIC, //!< random points joined within a radius, plus a spanning tree
        CHAIN,     //!< a line: the longest paths, a hop per city
    };

    /// What to draw.
    struct Settings
    {
        Kind kind{RING};        //!< the shape
        uint32_t cities{16};    //!< number of cities, 4 to 1000
        uint32_t seed{1};       //!< random seed
        double accessBps{20e9}; //!< every island's access rate, bit/s
        std::vector<double> capacitiesBps{100e9, 200e9, 400e9}; //!< link capacities drawn from
    };

    /**
     * @param settings what to draw; a number of cities outside 4 to 1000, an
     *        empty list of capacities or a rate outside 1 Mbps to 100 Tbps is
     *        refused (std::invalid_argument naming it)
     * @return the validated topology; cities are named G01, G02, ...
     */
    static WanTopology Generate(const Settings& settings);

    /**
     * @param kind a shape
     * @return its name: ring, grid, geometric or chain
     */
    static std::string KindName(Kind kind);

    /**
     * @param name ring, grid, geometric or chain
     * @return the shape; another name is refused (std::invalid_argument
     *         listing the names)
     */
    static Kind KindFromName(const std::string& name);

    /** @return every shape, in the order of Kind */
    static std::vector<Kind> Kinds();
};

} // namespace ns3

#endif // WAN_TOPOLOGY_GENERATOR_H
