/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// WanTopology's synthetic generator: random geometric WANs.

#include "wan-topology.h"
#include "wan-training-text.h"

#include <algorithm>
#include <cmath>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <limits>
#include <stdexcept>

namespace ns3
{

namespace
{

const double kDegree = std::acos(-1.0) / 180; //!< one degree, radians

/// Undirected edges (lower index first) between city indices.
using EdgeList = std::vector<std::pair<uint32_t, uint32_t>>;

/// @return the great-circle distance between two cities, km
double
DistanceKm(const WanCity& p, const WanCity& q)
{
    double dLat = (q.latitude - p.latitude) * kDegree;
    double dLon = (q.longitude - p.longitude) * kDegree;
    double h = std::pow(std::sin(dLat / 2), 2) + std::cos(p.latitude * kDegree) *
                                                     std::cos(q.latitude * kDegree) *
                                                     std::pow(std::sin(dLon / 2), 2);
    return 2 * 6371 * std::asin(std::min(1.0, std::sqrt(h)));
}

/// @return the cities C01, C02, ... scattered around random region centres
std::vector<WanCity>
ScatterCities(uint32_t nCities, uint32_t nRegions, uint32_t seed, double accessBps)
{
    gsl_rng* rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    std::vector<std::pair<double, double>> centres;
    for (uint32_t r = 0; r < nRegions; ++r)
    {
        // Uniform on the sphere between 53 degrees south and north.
        double lat = std::asin(gsl_ran_flat(rng, -0.8, 0.8)) / kDegree;
        centres.emplace_back(lat, gsl_ran_flat(rng, -180, 180));
    }
    std::vector<WanCity> cities;
    const size_t digits = std::max<size_t>(2, std::to_string(nCities).size());
    for (uint32_t i = 0; i < nCities; ++i)
    {
        WanCity city;
        std::string number = std::to_string(i + 1);
        city.code = "C" + std::string(digits - number.size(), '0') + number;
        city.name = "City " + number;
        city.region = "region-" + std::to_string(i % nRegions + 1);
        const auto& centre = centres[i % nRegions];
        city.latitude = std::clamp(centre.first + gsl_ran_gaussian(rng, 6), -80.0, 80.0);
        city.longitude = std::remainder(centre.second + gsl_ran_gaussian(rng, 8), 360.0);
        city.ingressBps = accessBps;
        city.egressBps = accessBps;
        cities.push_back(city);
    }
    gsl_rng_free(rng);
    return cities;
}

/// @return the edges of the minimum spanning tree of the distances (Prim)
EdgeList
SpanningTree(const std::vector<WanCity>& cities)
{
    const auto n = static_cast<uint32_t>(cities.size());
    const uint32_t none = std::numeric_limits<uint32_t>::max();
    EdgeList edges;
    std::vector<bool> inTree(n, false);
    std::vector<double> best(n, std::numeric_limits<double>::infinity());
    std::vector<uint32_t> via(n, 0);
    best[0] = 0;
    for (uint32_t step = 0; step < n; ++step)
    {
        uint32_t u = none;
        for (uint32_t v = 0; v < n; ++v)
        {
            if (!inTree[v] && (u == none || best[v] < best[u]))
            {
                u = v;
            }
        }
        inTree[u] = true;
        if (step > 0)
        {
            edges.emplace_back(std::min(u, via[u]), std::max(u, via[u]));
        }
        for (uint32_t v = 0; v < n; ++v)
        {
            const double km = DistanceKm(cities[u], cities[v]);
            if (!inTree[v] && km < best[v])
            {
                best[v] = km;
                via[v] = u;
            }
        }
    }
    return edges;
}

/// @return the edges from each city to its two nearest neighbours
EdgeList
NearestNeighbours(const std::vector<WanCity>& cities)
{
    const auto n = static_cast<uint32_t>(cities.size());
    EdgeList edges;
    for (uint32_t u = 0; u < n; ++u)
    {
        std::vector<uint32_t> others;
        for (uint32_t v = 0; v < n; ++v)
        {
            if (v != u)
            {
                others.push_back(v);
            }
        }
        std::sort(others.begin(), others.end(), [&](uint32_t a, uint32_t b) {
            return DistanceKm(cities[u], cities[a]) < DistanceKm(cities[u], cities[b]);
        });
        for (size_t k = 0; k < std::min<size_t>(2, others.size()); ++k)
        {
            edges.emplace_back(std::min(u, others[k]), std::max(u, others[k]));
        }
    }
    return edges;
}

} // namespace

WanTopology
WanTopology::RandomGeometric(uint32_t nCities,
                             uint32_t nRegions,
                             uint32_t seed,
                             double accessBps,
                             double capacityBps)
{
    if (nCities < 2)
    {
        throw std::invalid_argument("a synthetic topology needs at least 2 cities (got " +
                                    std::to_string(nCities) + ")");
    }
    wantext::bounds::kCities.Check(nCities, "a synthetic topology's number of cities");
    if (nRegions < 1 || nRegions > nCities)
    {
        throw std::invalid_argument("a synthetic topology needs 1 to " + std::to_string(nCities) +
                                    " regions (got " + std::to_string(nRegions) + ")");
    }
    wantext::bounds::kRateGbps.Check(accessBps / 1e9, "access rate");
    wantext::bounds::kRateGbps.Check(capacityBps / 1e9, "core capacity");
    WanTopology topo;
    const auto cities = ScatterCities(nCities, nRegions, seed, accessBps);
    for (const auto& city : cities)
    {
        topo.AddCity(city);
    }
    // The spanning tree keeps the graph connected; each city's two nearest
    // neighbours add the redundancy of a real WAN.
    EdgeList edges = SpanningTree(cities);
    const EdgeList near = NearestNeighbours(cities);
    edges.insert(edges.end(), near.begin(), near.end());
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    for (const auto& [a, b] : edges)
    {
        // Fibre at 200 000 km/s along a route 1.4 times the great circle.
        double seconds = std::max(DistanceKm(cities[a], cities[b]) * 1.4 / 200000, 0.5e-3);
        topo.AddLink(cities[a].code, cities[b].code, seconds, capacityBps);
    }
    topo.Validate();
    return topo;
}

} // namespace ns3
