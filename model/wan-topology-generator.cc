/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology-generator.h"

#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <gsl/gsl_rng.h>
#include <limits>
#include <memory>
#include <set>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopologyGenerator");

namespace
{

const double kPi = std::acos(-1.0);   //!< pi
const double kKmPerDegree = 111.0;    //!< the map's kilometres per degree
const double kRouteFactor = 1.4;      //!< fibre route length / straight line
const double kFibreKmPerS = 200000.0; //!< light in fibre
const double kMinDelay = 0.5e-3;      //!< the shortest link, s
const uint32_t kCitiesPerRegion = 6;  //!< about this many cities per region

/// A city on the map, km.
struct Point
{
    double x; //!< east, km
    double y; //!< north, km
};

/// Undirected edges between city indices (lower first).
using Edges = std::set<std::pair<uint32_t, uint32_t>>;

/// GSL's generator, freed on every path out.
using Rng = std::unique_ptr<gsl_rng, decltype(&gsl_rng_free)>;

double
Distance(const Point& p, const Point& q)
{
    return std::hypot(p.x - q.x, p.y - q.y);
}

/// @return a uniform draw in [lo, hi)
double
Uniform(gsl_rng* rng, double lo, double hi)
{
    return lo + (hi - lo) * gsl_rng_uniform(rng);
}

void
Join(Edges& edges, uint32_t a, uint32_t b)
{
    if (a != b)
    {
        edges.emplace(std::min(a, b), std::max(a, b));
    }
}

/// A ring on a circle of 1500 to 4000 km radius, with about n / 8 chords
/// between cities at least a quarter of the ring apart.
void
Ring(gsl_rng* rng, uint32_t n, std::vector<Point>& points, Edges& edges)
{
    const double radius = Uniform(rng, 1500, 4000);
    const double step = 2 * kPi / n;
    for (uint32_t i = 0; i < n; ++i)
    {
        const double angle = i * step + Uniform(rng, -0.2, 0.2) * step;
        points.push_back({radius * std::cos(angle), radius * std::sin(angle)});
        Join(edges, i, (i + 1) % n);
    }
    const uint32_t chords = std::max<uint32_t>(1, n / 8);
    for (uint32_t k = 0, tries = 0; k < chords && tries < 100 * chords; ++tries)
    {
        const auto a = static_cast<uint32_t>(gsl_rng_uniform_int(rng, n));
        const auto b = static_cast<uint32_t>(gsl_rng_uniform_int(rng, n));
        const uint32_t apart = std::min((a + n - b) % n, (b + n - a) % n);
        if (apart >= n / 4 && edges.count({std::min(a, b), std::max(a, b)}) == 0)
        {
            Join(edges, a, b);
            ++k;
        }
    }
}

/// A grid of nearly square shape, 400 to 1200 km between neighbours.
void
Grid(gsl_rng* rng, uint32_t n, std::vector<Point>& points, Edges& edges)
{
    const auto cols = static_cast<uint32_t>(std::ceil(std::sqrt(static_cast<double>(n))));
    const double spacing = Uniform(rng, 400, 1200);
    for (uint32_t i = 0; i < n; ++i)
    {
        const uint32_t row = i / cols;
        const uint32_t col = i % cols;
        points.push_back(
            {(col + Uniform(rng, -0.2, 0.2)) * spacing, (row + Uniform(rng, -0.2, 0.2)) * spacing});
        if (col > 0)
        {
            Join(edges, i - 1, i);
        }
        if (row > 0)
        {
            Join(edges, i - cols, i);
        }
    }
}

/// Adds the minimum spanning tree of the points' distances (Prim).
void
SpanningTree(const std::vector<Point>& points, Edges& edges)
{
    const auto n = static_cast<uint32_t>(points.size());
    std::vector<bool> in(n, false);
    std::vector<double> best(n, std::numeric_limits<double>::infinity());
    std::vector<uint32_t> via(n, 0);
    best[0] = 0;
    for (uint32_t step = 0; step < n; ++step)
    {
        uint32_t u = n;
        for (uint32_t v = 0; v < n; ++v)
        {
            if (!in[v] && (u == n || best[v] < best[u]))
            {
                u = v;
            }
        }
        in[u] = true;
        if (step > 0)
        {
            Join(edges, u, via[u]);
        }
        for (uint32_t v = 0; v < n; ++v)
        {
            if (!in[v] && Distance(points[u], points[v]) < best[v])
            {
                best[v] = Distance(points[u], points[v]);
                via[v] = u;
            }
        }
    }
}

/// Uniform points on a square of constant density, joined within the radius
/// that gives a mean degree of about 3.5, plus their spanning tree.
void
Geometric(gsl_rng* rng, uint32_t n, std::vector<Point>& points, Edges& edges)
{
    const double side = std::min(8000.0, 1000 * std::sqrt(static_cast<double>(n)));
    for (uint32_t i = 0; i < n; ++i)
    {
        points.push_back({Uniform(rng, 0, side), Uniform(rng, 0, side)});
    }
    const double radius = side * std::sqrt(3.5 / (kPi * n));
    for (uint32_t a = 0; a < n; ++a)
    {
        for (uint32_t b = a + 1; b < n; ++b)
        {
            if (Distance(points[a], points[b]) <= radius)
            {
                Join(edges, a, b);
            }
        }
    }
    SpanningTree(points, edges);
}

/// A line of cities 200 to 600 km apart.
void
Chain(gsl_rng* rng, uint32_t n, std::vector<Point>& points, Edges& edges)
{
    double x = 0;
    for (uint32_t i = 0; i < n; ++i)
    {
        x += i == 0 ? 0 : Uniform(rng, 200, 600);
        points.push_back({x, Uniform(rng, -100, 100)});
        if (i > 0)
        {
            Join(edges, i - 1, i);
        }
    }
}

/// @return each city's region: the nearest of n / 6 centres picked farthest
/// first from city 0
std::vector<uint32_t>
Regions(const std::vector<Point>& points)
{
    const auto n = static_cast<uint32_t>(points.size());
    const uint32_t count = std::max<uint32_t>(1, (n + kCitiesPerRegion / 2) / kCitiesPerRegion);
    std::vector<uint32_t> centres{0};
    std::vector<double> nearest(n, std::numeric_limits<double>::infinity());
    while (centres.size() < count)
    {
        uint32_t far = 0;
        for (uint32_t v = 0; v < n; ++v)
        {
            nearest[v] = std::min(nearest[v], Distance(points[v], points[centres.back()]));
            far = nearest[v] > nearest[far] ? v : far;
        }
        centres.push_back(far);
    }
    std::vector<uint32_t> region(n, 0);
    for (uint32_t v = 0; v < n; ++v)
    {
        for (uint32_t r = 1; r < count; ++r)
        {
            if (Distance(points[v], points[centres[r]]) <
                Distance(points[v], points[centres[region[v]]]))
            {
                region[v] = r;
            }
        }
    }
    return region;
}

} // namespace

WanTopology
WanTopologyGenerator::Generate(const Settings& settings)
{
    NS_LOG_FUNCTION(KindName(settings.kind) << settings.cities << settings.seed);
    const uint32_t n = settings.cities;
    if (n < 4 || n > wantext::bounds::kCities.max)
    {
        throw std::invalid_argument("a generated WAN needs 4 to 1000 cities (got " +
                                    std::to_string(n) + ")");
    }
    if (settings.capacitiesBps.empty())
    {
        throw std::invalid_argument("a generated WAN needs at least one link capacity");
    }
    wantext::bounds::kRateGbps.Check(settings.accessBps / 1e9, "access rate");
    for (double c : settings.capacitiesBps)
    {
        wantext::bounds::kRateGbps.Check(c / 1e9, "link capacity");
    }
    Rng rng(gsl_rng_alloc(gsl_rng_mt19937), &gsl_rng_free);
    gsl_rng_set(rng.get(), settings.seed);
    std::vector<Point> points;
    Edges edges;
    switch (settings.kind)
    {
    case RING:
        Ring(rng.get(), n, points, edges);
        break;
    case GRID:
        Grid(rng.get(), n, points, edges);
        break;
    case GEOMETRIC:
        Geometric(rng.get(), n, points, edges);
        break;
    case CHAIN:
        Chain(rng.get(), n, points, edges);
        break;
    }

    // The map's degrees, shrunk to fit the globe where a shape is wider.
    double widest = 1;
    for (const auto& p : points)
    {
        widest = std::max({widest, std::abs(p.x) / 179, std::abs(p.y) / 89});
    }
    const double degree = std::max(kKmPerDegree, widest);
    const auto region = Regions(points);
    const size_t digits = std::max<size_t>(2, std::to_string(n).size());
    WanTopology topo;
    std::vector<std::string> codes;
    for (uint32_t i = 0; i < n; ++i)
    {
        const std::string number = std::to_string(i + 1);
        WanCity city;
        city.code = "G" + std::string(digits - number.size(), '0') + number;
        city.name = "Generated " + number;
        city.region = "region-" + std::to_string(region[i] + 1);
        city.latitude = points[i].y / degree;
        city.longitude = points[i].x / degree;
        city.ingressBps = settings.accessBps;
        city.egressBps = settings.accessBps;
        topo.AddCity(city);
        codes.push_back(city.code);
    }
    for (const auto& [a, b] : edges)
    {
        const double delay =
            std::max(kMinDelay, Distance(points[a], points[b]) * kRouteFactor / kFibreKmPerS);
        const auto pick = gsl_rng_uniform_int(rng.get(), settings.capacitiesBps.size());
        topo.AddLink(codes[a], codes[b], delay, settings.capacitiesBps[pick]);
    }
    topo.Validate();
    return topo;
}

std::string
WanTopologyGenerator::KindName(Kind kind)
{
    switch (kind)
    {
    case RING:
        return "ring";
    case GRID:
        return "grid";
    case GEOMETRIC:
        return "geometric";
    case CHAIN:
        return "chain";
    }
    return "unknown";
}

WanTopologyGenerator::Kind
WanTopologyGenerator::KindFromName(const std::string& name)
{
    std::vector<std::string> names;
    for (auto kind : Kinds())
    {
        if (KindName(kind) == name)
        {
            return kind;
        }
        names.push_back(KindName(kind));
    }
    throw std::invalid_argument("unknown kind of generated WAN '" + wantext::Printable(name) +
                                "' (" + wantext::JoinOr(names) + ")");
}

std::vector<WanTopologyGenerator::Kind>
WanTopologyGenerator::Kinds()
{
    return {RING, GRID, GEOMETRIC, CHAIN};
}

} // namespace ns3
