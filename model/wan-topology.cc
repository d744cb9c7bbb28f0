/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-topology.h"

#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <limits>
#include <nlohmann/json.hpp>
#include <queue>
#include <sstream>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopology");

namespace
{

/// The embedded default: shared/data/nine-city/cities.csv.
const char* const kNineCityCities = R"(code,name,region,lat,lon
NYC,New York,americas,40.7803,-74.0720
LAX,Los Angeles,americas,34.0496,-118.2594
BUE,Buenos Aires,americas,-34.6037,-58.3816
LON,London,europe,51.5140,-0.1201
AMS,Amsterdam,europe,52.3009,4.9422
FRA,Frankfurt,europe,50.1215,8.6420
TYO,Tokyo,asia,35.6688,139.7657
SEO,Seoul,asia,37.5665,126.9780
SIN,Singapore,asia,1.2807,103.8551
)";

/// The embedded default: shared/data/nine-city/core-links.csv.
const char* const kNineCityLinks = R"(a,b,one_way_ms,capacity_gbps,latency_source
TYO,LAX,49.36,100,measured
TYO,SIN,33.60,100,measured
LAX,NYC,34.86,100,measured
NYC,LON,33.47,100,measured
LON,AMS,2.88,100,measured
LON,FRA,5.55,100,measured
SEO,TYO,7.32,100,geodesic
SIN,LAX,89.16,100,geodesic
SIN,FRA,64.83,100,geodesic
NYC,BUE,53.88,100,geodesic
AMS,FRA,2.23,100,geodesic
)";

const uint32_t kNone = std::numeric_limits<uint32_t>::max();

/// \return true when a JSON object has any loss or jitter field
bool
Impaired(const nlohmann::json& obj)
{
    for (const char* key :
         {"loss_rate", "loss_burst", "jitter_ms", "jitter_distribution", "reorder"})
    {
        if (obj.contains(key))
        {
            return true;
        }
    }
    return false;
}

/// \return the loss and jitter fields of an impairment
nlohmann::json
ImpairmentJson(const WanLinkImpairment& imp)
{
    return {{"loss_rate", imp.lossRate},
            {"loss_burst", imp.burstLength},
            {"jitter_ms", imp.jitterSeconds * 1e3},
            {"jitter_distribution", imp.jitterDistribution},
            {"reorder", imp.reorder}};
}

} // namespace

WanTopology
WanTopology::NineCity()
{
    return FromCsv(kNineCityCities, kNineCityLinks, 20e9);
}

WanTopology
WanTopology::LoadFile(const std::string& path, double defaultAccessBps)
{
    NS_LOG_FUNCTION(path << defaultAccessBps);
    namespace fs = std::filesystem;
    if (fs::is_directory(path))
    {
        fs::path dir(path);
        auto cities = dir / "cities.csv";
        auto links = dir / "core-links.csv";
        if (!fs::exists(cities) || !fs::exists(links))
        {
            throw std::invalid_argument("topology folder '" + path +
                                        "' must hold cities.csv and core-links.csv");
        }
        return FromCsv(wantext::ReadFile(cities.string(), "topology file"),
                       wantext::ReadFile(links.string(), "topology file"),
                       defaultAccessBps);
    }
    if (fs::path(path).extension() == ".json")
    {
        std::string text = wantext::ReadFile(path, "topology file");
        try
        {
            return FromJson(text, defaultAccessBps);
        }
        catch (const std::invalid_argument& e)
        {
            throw std::invalid_argument(path + ": " + e.what());
        }
    }
    if (!fs::exists(path))
    {
        throw std::invalid_argument("topology file '" + path + "' does not exist");
    }
    throw std::invalid_argument("topology file '" + path +
                                "' is neither a .json file nor a folder with cities.csv and "
                                "core-links.csv");
}

WanTopology
WanTopology::FromJson(const std::string& text, double defaultAccessBps)
{
    using nlohmann::json;
    json doc = wantext::ParseJson(text, "topology");
    if (!doc.is_object() || !doc.contains("cities") || !doc["cities"].is_array())
    {
        throw std::invalid_argument("topology JSON needs a \"cities\" array");
    }
    if (!doc.contains("links") || !doc["links"].is_array())
    {
        throw std::invalid_argument("topology JSON needs a \"links\" array");
    }
    auto number = [](const json& obj, const char* key, const std::string& where) -> double {
        if (!obj.contains(key))
        {
            throw std::invalid_argument(where + " has no \"" + key + "\"");
        }
        if (!obj[key].is_number())
        {
            throw std::invalid_argument(where + ": \"" + key + "\" is not a number");
        }
        return obj[key].get<double>();
    };
    auto text_of = [](const json& obj, const char* key, const std::string& fallback) {
        if (obj.contains(key) && obj[key].is_string())
        {
            return obj[key].get<std::string>();
        }
        return fallback;
    };
    // Loss and jitter fields, on a link or a city's "access" or "post".
    auto impairment = [&number, &text_of](const json& obj, const std::string& where) {
        WanLinkImpairment imp;
        imp.lossRate = obj.contains("loss_rate") ? number(obj, "loss_rate", where) : 0.0;
        imp.burstLength = obj.contains("loss_burst") ? number(obj, "loss_burst", where) : 1.0;
        imp.jitterSeconds =
            obj.contains("jitter_ms") ? number(obj, "jitter_ms", where) * 1e-3 : 0.0;
        imp.jitterDistribution = text_of(obj, "jitter_distribution", "exponential");
        if (obj.contains("reorder"))
        {
            if (!obj["reorder"].is_boolean())
            {
                throw std::invalid_argument(where + ": \"reorder\" is not true or false");
            }
            imp.reorder = obj["reorder"].get<bool>();
        }
        imp.Validate(where);
        return imp;
    };
    double access = defaultAccessBps;
    if (doc.contains("access_gbps"))
    {
        access =
            wantext::RequirePositive(number(doc, "access_gbps", "topology") * 1e9, "access_gbps");
    }
    WanTopology topo;
    uint32_t n = 0;
    for (const auto& c : doc["cities"])
    {
        std::string where = "city #" + std::to_string(++n);
        if (!c.is_object() || !c.contains("code") || !c["code"].is_string())
        {
            throw std::invalid_argument(where + " has no \"code\"");
        }
        WanCity city;
        city.code = c["code"].get<std::string>();
        where = "city " + city.code;
        city.name = text_of(c, "name", city.code);
        city.region = text_of(c, "region", "");
        city.latitude = c.contains("lat") ? number(c, "lat", where) : 0.0;
        city.longitude = c.contains("lon") ? number(c, "lon", where) : 0.0;
        city.ingressBps =
            c.contains("ingress_gbps") ? number(c, "ingress_gbps", where) * 1e9 : access;
        city.egressBps = c.contains("egress_gbps") ? number(c, "egress_gbps", where) * 1e9 : access;
        for (const char* key : {"access", "post"})
        {
            if (!c.contains(key))
            {
                continue;
            }
            if (!c[key].is_object() || !Impaired(c[key]))
            {
                throw std::invalid_argument(where + ": \"" + key +
                                            "\" needs loss or jitter fields");
            }
            auto imp = impairment(c[key], where + " " + key);
            if (std::string(key) == "post" && imp.HasJitter())
            {
                throw std::invalid_argument(where + " post: jitter would also delay the island's "
                                                    "outgoing stream; set it on access");
            }
            (std::string(key) == "access" ? city.access : city.post) = imp;
            (std::string(key) == "access" ? city.accessImpaired : city.postImpaired) = true;
        }
        topo.AddCity(city);
    }
    n = 0;
    for (const auto& l : doc["links"])
    {
        std::string where = "link #" + std::to_string(++n);
        if (!l.is_object() || !l.contains("a") || !l.contains("b") || !l["a"].is_string() ||
            !l["b"].is_string())
        {
            throw std::invalid_argument(where + " needs string ends \"a\" and \"b\"");
        }
        std::string a = l["a"].get<std::string>();
        std::string b = l["b"].get<std::string>();
        where = "link " + a + "-" + b;
        topo.AddLink(a,
                     b,
                     number(l, "one_way_ms", where) * 1e-3,
                     number(l, "capacity_gbps", where) * 1e9);
        if (Impaired(l))
        {
            topo.SetLinkImpairment(a, b, impairment(l, where));
        }
    }
    topo.Validate();
    return topo;
}

WanTopology
WanTopology::FromCsv(const std::string& citiesCsv,
                     const std::string& linksCsv,
                     double defaultAccessBps)
{
    wantext::CsvTable cities("cities.csv", citiesCsv, {"code"});
    WanTopology topo;
    for (size_t r = 0; r < cities.Rows(); ++r)
    {
        WanCity city;
        city.code = cities.Text(r, "code");
        city.name = cities.TextOr(r, "name", city.code);
        city.region = cities.TextOr(r, "region", "");
        city.latitude = cities.NumberOr(r, "lat", 0.0);
        city.longitude = cities.NumberOr(r, "lon", 0.0);
        city.ingressBps = cities.NumberOr(r, "ingress_gbps", defaultAccessBps / 1e9) * 1e9;
        city.egressBps = cities.NumberOr(r, "egress_gbps", defaultAccessBps / 1e9) * 1e9;
        topo.AddCity(city);
    }
    wantext::CsvTable links("core-links.csv", linksCsv, {"a", "b", "one_way_ms", "capacity_gbps"});
    for (size_t r = 0; r < links.Rows(); ++r)
    {
        topo.AddLink(links.Text(r, "a"),
                     links.Text(r, "b"),
                     links.Number(r, "one_way_ms") * 1e-3,
                     links.Number(r, "capacity_gbps") * 1e9);
    }
    topo.Validate();
    return topo;
}

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
    if (nRegions < 1 || nRegions > nCities)
    {
        throw std::invalid_argument("a synthetic topology needs 1 to " + std::to_string(nCities) +
                                    " regions (got " + std::to_string(nRegions) + ")");
    }
    wantext::RequirePositive(accessBps, "access rate", "bit/s");
    wantext::RequirePositive(capacityBps, "core capacity", "bit/s");
    const double pi = std::acos(-1.0);
    const double degree = pi / 180;
    gsl_rng* rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, seed);
    std::vector<std::pair<double, double>> centres;
    for (uint32_t r = 0; r < nRegions; ++r)
    {
        // Uniform on the sphere between 53 degrees south and north.
        double lat = std::asin(gsl_ran_flat(rng, -0.8, 0.8)) / degree;
        centres.emplace_back(lat, gsl_ran_flat(rng, -180, 180));
    }
    WanTopology topo;
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
        topo.AddCity(city);
    }
    gsl_rng_free(rng);

    auto km = [&topo, degree](uint32_t a, uint32_t b) {
        const auto& p = topo.GetCity(a);
        const auto& q = topo.GetCity(b);
        double dLat = (q.latitude - p.latitude) * degree;
        double dLon = (q.longitude - p.longitude) * degree;
        double h = std::pow(std::sin(dLat / 2), 2) + std::cos(p.latitude * degree) *
                                                         std::cos(q.latitude * degree) *
                                                         std::pow(std::sin(dLon / 2), 2);
        return 2 * 6371 * std::asin(std::min(1.0, std::sqrt(h)));
    };
    std::vector<std::pair<uint32_t, uint32_t>> edges;
    // Prim's minimum spanning tree keeps the graph connected.
    std::vector<bool> inTree(nCities, false);
    std::vector<double> best(nCities, std::numeric_limits<double>::infinity());
    std::vector<uint32_t> via(nCities, 0);
    best[0] = 0;
    for (uint32_t step = 0; step < nCities; ++step)
    {
        uint32_t u = kNone;
        for (uint32_t v = 0; v < nCities; ++v)
        {
            if (!inTree[v] && (u == kNone || best[v] < best[u]))
            {
                u = v;
            }
        }
        inTree[u] = true;
        if (step > 0)
        {
            edges.emplace_back(std::min(u, via[u]), std::max(u, via[u]));
        }
        for (uint32_t v = 0; v < nCities; ++v)
        {
            if (!inTree[v] && km(u, v) < best[v])
            {
                best[v] = km(u, v);
                via[v] = u;
            }
        }
    }
    // Each city's two nearest neighbours add the redundancy of a real WAN.
    for (uint32_t u = 0; u < nCities; ++u)
    {
        std::vector<uint32_t> others;
        for (uint32_t v = 0; v < nCities; ++v)
        {
            if (v != u)
            {
                others.push_back(v);
            }
        }
        std::sort(others.begin(), others.end(), [&](uint32_t a, uint32_t b) {
            return km(u, a) < km(u, b);
        });
        for (size_t k = 0; k < std::min<size_t>(2, others.size()); ++k)
        {
            edges.emplace_back(std::min(u, others[k]), std::max(u, others[k]));
        }
    }
    std::sort(edges.begin(), edges.end());
    edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
    for (const auto& [a, b] : edges)
    {
        double seconds = std::max(km(a, b) * 1.4 / 200000, 0.5e-3);
        topo.AddLink(topo.GetCity(a).code, topo.GetCity(b).code, seconds, capacityBps);
    }
    topo.Validate();
    return topo;
}

uint32_t
WanTopology::AddCity(const WanCity& city)
{
    NS_LOG_FUNCTION(this << city.code);
    if (city.code.empty())
    {
        throw std::invalid_argument("a city has an empty code");
    }
    if (HasCity(city.code))
    {
        throw std::invalid_argument("duplicate city '" + city.code + "'");
    }
    wantext::RequirePositive(city.ingressBps, "ingress rate of " + city.code);
    wantext::RequirePositive(city.egressBps, "egress rate of " + city.code);
    m_cities.push_back(city);
    Invalidate();
    return static_cast<uint32_t>(m_cities.size() - 1);
}

void
WanTopology::AddLink(const std::string& a,
                     const std::string& b,
                     double delaySeconds,
                     double capacityBps)
{
    NS_LOG_FUNCTION(this << a << b << delaySeconds << capacityBps);
    std::string name = "link " + a + "-" + b;
    if (!HasCity(a))
    {
        throw std::invalid_argument(name + " names unknown city '" + a + "'");
    }
    if (!HasCity(b))
    {
        throw std::invalid_argument(name + " names unknown city '" + b + "'");
    }
    if (a == b)
    {
        throw std::invalid_argument(name + " joins a city to itself");
    }
    if (!std::isfinite(delaySeconds) || delaySeconds < 0)
    {
        throw std::invalid_argument(name + " has a negative or invalid latency (" +
                                    wantext::Num(delaySeconds * 1e3) + " ms)");
    }
    wantext::RequirePositive(capacityBps, "capacity of " + name);
    WanLink link;
    link.a = FindCity(a);
    link.b = FindCity(b);
    for (const auto& l : m_links)
    {
        if ((l.a == link.a && l.b == link.b) || (l.a == link.b && l.b == link.a))
        {
            throw std::invalid_argument("duplicate " + name);
        }
    }
    link.delay = delaySeconds;
    link.capacityBps = capacityBps;
    m_links.push_back(link);
    Invalidate();
}

void
WanTopology::Validate() const
{
    if (m_cities.size() < 2)
    {
        throw std::invalid_argument("a topology needs at least two cities (has " +
                                    std::to_string(m_cities.size()) + ")");
    }
    ComputePaths();
    for (uint32_t j = 1; j < m_cities.size(); ++j)
    {
        if (!std::isfinite(m_dist[0][j]))
        {
            throw std::invalid_argument("topology is disconnected: no path from " +
                                        m_cities[0].code + " to " + m_cities[j].code);
        }
    }
}

uint32_t
WanTopology::GetNCities() const
{
    return static_cast<uint32_t>(m_cities.size());
}

const WanCity&
WanTopology::GetCity(uint32_t i) const
{
    if (i >= m_cities.size())
    {
        throw std::out_of_range("city index " + std::to_string(i) + " out of range");
    }
    return m_cities[i];
}

const std::vector<WanCity>&
WanTopology::GetCities() const
{
    return m_cities;
}

const std::vector<WanLink>&
WanTopology::GetLinks() const
{
    return m_links;
}

uint32_t
WanTopology::FindCity(const std::string& code) const
{
    for (uint32_t i = 0; i < m_cities.size(); ++i)
    {
        if (m_cities[i].code == code)
        {
            return i;
        }
    }
    throw std::invalid_argument("unknown city '" + code + "'");
}

bool
WanTopology::HasCity(const std::string& code) const
{
    return std::any_of(m_cities.begin(), m_cities.end(), [&code](const WanCity& c) {
        return c.code == code;
    });
}

std::vector<std::string>
WanTopology::GetRegions() const
{
    std::vector<std::string> regions;
    for (const auto& c : m_cities)
    {
        if (std::find(regions.begin(), regions.end(), c.region) == regions.end())
        {
            regions.push_back(c.region);
        }
    }
    return regions;
}

WanTopology
WanTopology::WithoutLink(const std::string& a, const std::string& b) const
{
    const uint32_t gone = GetLinkIndex(FindCity(a), FindCity(b));
    WanTopology copy;
    for (const auto& c : m_cities)
    {
        copy.AddCity(c);
    }
    for (uint32_t k = 0; k < m_links.size(); ++k)
    {
        if (k == gone)
        {
            continue;
        }
        const auto& l = m_links[k];
        copy.AddLink(m_cities[l.a].code, m_cities[l.b].code, l.delay, l.capacityBps);
        if (l.impaired)
        {
            copy.SetLinkImpairment(m_cities[l.a].code, m_cities[l.b].code, l.impairment);
        }
    }
    try
    {
        copy.Validate();
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument("without link " + a + "-" + b + ": " + e.what());
    }
    return copy;
}

void
WanTopology::SetLinkImpairment(const std::string& a,
                               const std::string& b,
                               const WanLinkImpairment& impairment)
{
    const uint32_t i = FindCity(a);
    const uint32_t j = FindCity(b);
    impairment.Validate("link " + a + "-" + b);
    auto& link = m_links[GetLinkIndex(i, j)];
    link.impaired = true;
    link.impairment = impairment;
}

uint32_t
WanTopology::GetLinkIndex(uint32_t from, uint32_t to) const
{
    for (uint32_t k = 0; k < m_links.size(); ++k)
    {
        const auto& l = m_links[k];
        if ((l.a == from && l.b == to) || (l.a == to && l.b == from))
        {
            return k;
        }
    }
    throw std::invalid_argument("no link between " + GetCity(from).code + " and " +
                                GetCity(to).code);
}

void
WanTopology::SetAccessRate(double bps)
{
    wantext::RequirePositive(bps, "access rate");
    for (auto& c : m_cities)
    {
        c.ingressBps = bps;
        c.egressBps = bps;
    }
}

void
WanTopology::SetCoreCapacity(double bps)
{
    wantext::RequirePositive(bps, "core capacity");
    for (auto& l : m_links)
    {
        l.capacityBps = bps;
    }
}

void
WanTopology::Invalidate()
{
    m_pathsValid = false;
}

void
WanTopology::ComputePaths() const
{
    if (m_pathsValid)
    {
        return;
    }
    const auto n = static_cast<uint32_t>(m_cities.size());
    std::vector<std::vector<std::pair<uint32_t, double>>> adj(n);
    for (const auto& l : m_links)
    {
        adj[l.a].emplace_back(l.b, l.delay);
        adj[l.b].emplace_back(l.a, l.delay);
    }
    for (auto& neighbours : adj)
    {
        std::sort(neighbours.begin(), neighbours.end());
    }
    const double inf = std::numeric_limits<double>::infinity();
    m_dist.assign(n, std::vector<double>(n, inf));
    m_parent.assign(n, std::vector<uint32_t>(n, kNone));
    for (uint32_t s = 0; s < n; ++s)
    {
        // Dijkstra; on equal latency the path through the lower-index
        // predecessor wins, so every source's tree is unique.
        auto& dist = m_dist[s];
        auto& parent = m_parent[s];
        using Entry = std::pair<double, uint32_t>;
        std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
        dist[s] = 0;
        queue.emplace(0.0, s);
        std::vector<bool> done(n, false);
        while (!queue.empty())
        {
            auto [d, u] = queue.top();
            queue.pop();
            if (done[u])
            {
                continue;
            }
            done[u] = true;
            for (const auto& [v, w] : adj[u])
            {
                double nd = d + w;
                if (nd < dist[v] || (nd == dist[v] && !done[v] && u < parent[v]))
                {
                    dist[v] = nd;
                    parent[v] = u;
                    queue.emplace(nd, v);
                }
            }
        }
    }
    m_pathsValid = true;
}

double
WanTopology::GetPathDelay(uint32_t from, uint32_t to) const
{
    GetCity(from);
    GetCity(to);
    ComputePaths();
    return m_dist[from][to];
}

std::vector<uint32_t>
WanTopology::GetPath(uint32_t from, uint32_t to) const
{
    GetCity(from);
    GetCity(to);
    ComputePaths();
    if (!std::isfinite(m_dist[from][to]))
    {
        throw std::invalid_argument("no path from " + m_cities[from].code + " to " +
                                    m_cities[to].code);
    }
    std::vector<uint32_t> path{to};
    for (uint32_t v = to; v != from; v = m_parent[from][v])
    {
        path.push_back(m_parent[from][v]);
    }
    std::reverse(path.begin(), path.end());
    return path;
}

std::vector<WanHop>
WanTopology::GetMulticastTree(uint32_t source, const std::vector<uint32_t>& receivers) const
{
    ComputePaths();
    std::vector<bool> inTree(m_cities.size(), false);
    for (uint32_t r : receivers)
    {
        if (r == source)
        {
            continue;
        }
        for (auto v : GetPath(source, r))
        {
            inTree[v] = true;
        }
    }
    std::vector<uint32_t> members;
    for (uint32_t v = 0; v < m_cities.size(); ++v)
    {
        if (inTree[v] && v != source)
        {
            members.push_back(v);
        }
    }
    const auto& dist = m_dist[source];
    std::stable_sort(members.begin(), members.end(), [&dist](uint32_t x, uint32_t y) {
        return dist[x] < dist[y];
    });
    std::vector<WanHop> hops;
    hops.reserve(members.size());
    for (auto v : members)
    {
        hops.emplace_back(m_parent[source][v], v);
    }
    return hops;
}

std::string
WanTopology::ToJson() const
{
    using nlohmann::json;
    json doc;
    doc["cities"] = json::array();
    for (const auto& c : m_cities)
    {
        json city = {{"code", c.code},
                     {"name", c.name},
                     {"region", c.region},
                     {"lat", c.latitude},
                     {"lon", c.longitude},
                     {"ingress_gbps", c.ingressBps / 1e9},
                     {"egress_gbps", c.egressBps / 1e9}};
        if (c.accessImpaired)
        {
            city["access"] = ImpairmentJson(c.access);
        }
        if (c.postImpaired)
        {
            city["post"] = ImpairmentJson(c.post);
        }
        doc["cities"].push_back(city);
    }
    doc["links"] = json::array();
    for (const auto& l : m_links)
    {
        json link = {{"a", m_cities[l.a].code},
                     {"b", m_cities[l.b].code},
                     {"one_way_ms", l.delay * 1e3},
                     {"capacity_gbps", l.capacityBps / 1e9}};
        if (l.impaired)
        {
            link.update(ImpairmentJson(l.impairment));
        }
        doc["links"].push_back(link);
    }
    return doc.dump(2);
}

} // namespace ns3
