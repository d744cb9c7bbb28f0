/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// WanTopology's file formats: the embedded nine-city data, JSON and the CSV
// pair in, JSON out.  Every number read is checked against its range in
// wantext::bounds, with the field that gave it.

#include "wan-topology.h"
#include "wan-training-text.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

namespace ns3
{

namespace
{

namespace bounds = wantext::bounds;
using nlohmann::json;

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

/// The loss and jitter fields of a link or city in a topology document.
const std::pair<const char*, WanLinkImpairment::Field> kImpairmentKeys[] = {
    {"loss_rate", WanLinkImpairment::LOSS_RATE},
    {"loss_burst", WanLinkImpairment::LOSS_BURST},
    {"jitter_ms", WanLinkImpairment::JITTER},
    {"jitter_distribution", WanLinkImpairment::JITTER_DISTRIBUTION},
    {"jitter_model", WanLinkImpairment::JITTER_MODEL},
    {"jitter_correlation_ms", WanLinkImpairment::JITTER_CORRELATION},
    {"reorder", WanLinkImpairment::REORDER},
};

/// @return the loss and jitter fields a JSON object names (WanLinkImpairment::Field bits)
uint32_t
ImpairmentFields(const json& obj)
{
    uint32_t fields = 0;
    for (const auto& [key, field] : kImpairmentKeys)
    {
        if (obj.contains(key))
        {
            fields |= field;
        }
    }
    return fields;
}

/// @return the named loss and jitter fields of an impairment
json
ImpairmentJson(const WanLinkImpairment& imp, uint32_t fields)
{
    const json all = {{"loss_rate", imp.lossRate},
                      {"loss_burst", imp.burstLength},
                      {"jitter_ms", imp.jitterSeconds * 1e3},
                      {"jitter_distribution", imp.jitterDistribution},
                      {"jitter_model", imp.jitterModel},
                      {"jitter_correlation_ms", imp.jitterCorrelationSeconds * 1e3},
                      {"reorder", imp.reorder}};
    json named = json::object();
    for (const auto& [key, field] : kImpairmentKeys)
    {
        if (fields & field)
        {
            named[key] = all[key];
        }
    }
    return named;
}

/// @return the number obj[key] in its range; throws naming `where` and the key
double
Number(const json& obj, const char* key, const std::string& where, const wantext::Range& range)
{
    if (!obj.contains(key))
    {
        throw std::invalid_argument(where + " has no \"" + key + "\"");
    }
    if (!obj[key].is_number())
    {
        throw std::invalid_argument(where + ": \"" + key + "\" is not a number");
    }
    return range.Check(obj[key].get<double>(), where + ": " + key);
}

/// @return obj[key] in its range, or the fallback when the key is absent
double
NumberOr(const json& obj,
         const char* key,
         const std::string& where,
         const wantext::Range& range,
         double fallback)
{
    return obj.contains(key) ? Number(obj, key, where, range) : fallback;
}

/// @return the text obj[key], or the fallback when absent or not text
std::string
TextOr(const json& obj, const char* key, const std::string& fallback)
{
    return obj.contains(key) && obj[key].is_string() ? obj[key].get<std::string>() : fallback;
}

/// @return the loss and jitter fields of a link or of a city's "access" or "post"
WanLinkImpairment
ImpairmentFromJson(const json& obj, const std::string& where)
{
    WanLinkImpairment imp;
    imp.lossRate = NumberOr(obj, "loss_rate", where, bounds::kLossRate, imp.lossRate);
    imp.burstLength = NumberOr(obj, "loss_burst", where, bounds::kLossBurst, imp.burstLength);
    imp.jitterSeconds =
        NumberOr(obj, "jitter_ms", where, bounds::kJitterMs, imp.jitterSeconds * 1e3) * 1e-3;
    imp.jitterDistribution = TextOr(obj, "jitter_distribution", imp.jitterDistribution);
    imp.jitterModel = TextOr(obj, "jitter_model", imp.jitterModel);
    imp.jitterCorrelationSeconds = NumberOr(obj,
                                            "jitter_correlation_ms",
                                            where,
                                            bounds::kJitterCorrelationMs,
                                            imp.jitterCorrelationSeconds * 1e3) *
                                   1e-3;
    if (obj.contains("reorder"))
    {
        if (!obj["reorder"].is_boolean())
        {
            throw std::invalid_argument(where + ": \"reorder\" is not true or false");
        }
        imp.reorder = obj["reorder"].get<bool>();
    }
    // The fields named are checked here; how they go with the link class's
    // (reorder and the model) when the network is built.
    imp.ValidateValues(where);
    return imp;
}

/// Reads a city's "access" and "post" impairments, when it has them.
void
CityImpairmentsFromJson(const json& c, const std::string& where, WanCity& city)
{
    if (c.contains("access"))
    {
        const uint32_t fields = c["access"].is_object() ? ImpairmentFields(c["access"]) : 0;
        if (fields == 0)
        {
            throw std::invalid_argument(where + ": \"access\" needs loss or jitter fields");
        }
        city.access = ImpairmentFromJson(c["access"], where + " access");
        city.accessFields = fields;
    }
    if (c.contains("post"))
    {
        const uint32_t fields = c["post"].is_object() ? ImpairmentFields(c["post"]) : 0;
        if (fields == 0)
        {
            throw std::invalid_argument(where + ": \"post\" needs loss or jitter fields");
        }
        city.post = ImpairmentFromJson(c["post"], where + " post");
        if (city.post.HasJitter())
        {
            throw std::invalid_argument(where + " post: jitter would also delay the island's "
                                                "outgoing stream; set it on access");
        }
        city.postFields = fields;
    }
}

/// @return the n-th city of a topology document
WanCity
CityFromJson(const json& c, uint32_t n, double accessGbps)
{
    if (!c.is_object() || !c.contains("code") || !c["code"].is_string())
    {
        throw std::invalid_argument("city #" + std::to_string(n) + " has no \"code\"");
    }
    WanCity city;
    city.code = c["code"].get<std::string>();
    const std::string where = "city " + city.code;
    city.name = TextOr(c, "name", city.code);
    city.region = TextOr(c, "region", "");
    city.latitude = NumberOr(c, "lat", where, bounds::kLatitude, 0.0);
    city.longitude = NumberOr(c, "lon", where, bounds::kLongitude, 0.0);
    city.ingressBps = NumberOr(c, "ingress_gbps", where, bounds::kRateGbps, accessGbps) * 1e9;
    city.egressBps = NumberOr(c, "egress_gbps", where, bounds::kRateGbps, accessGbps) * 1e9;
    CityImpairmentsFromJson(c, where, city);
    return city;
}

/// Adds the n-th link of a topology document, with its impairment.
void
AddLinkFromJson(const json& l, uint32_t n, WanTopology& topo)
{
    if (!l.is_object() || !l.contains("a") || !l.contains("b") || !l["a"].is_string() ||
        !l["b"].is_string())
    {
        throw std::invalid_argument("link #" + std::to_string(n) +
                                    " needs string ends \"a\" and \"b\"");
    }
    const auto a = l["a"].get<std::string>();
    const auto b = l["b"].get<std::string>();
    const std::string where = "link " + a + "-" + b;
    // One statement each: the latency is checked before the capacity.
    const double delaySeconds = Number(l, "one_way_ms", where, bounds::kLatencyMs) * 1e-3;
    const double capacityBps = Number(l, "capacity_gbps", where, bounds::kRateGbps) * 1e9;
    topo.AddLink(a, b, delaySeconds, capacityBps);
    if (const uint32_t fields = ImpairmentFields(l); fields != 0)
    {
        topo.SetLinkImpairment(a, b, ImpairmentFromJson(l, where), fields);
    }
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
try
{
    json doc = wantext::ParseJson(text, "topology");
    if (!doc.is_object() || !doc.contains("cities") || !doc["cities"].is_array())
    {
        throw std::invalid_argument("topology JSON needs a \"cities\" array");
    }
    if (!doc.contains("links") || !doc["links"].is_array())
    {
        throw std::invalid_argument("topology JSON needs a \"links\" array");
    }
    const double accessGbps =
        NumberOr(doc,
                 "access_gbps",
                 "topology",
                 bounds::kRateGbps,
                 bounds::kRateGbps.Check(defaultAccessBps / 1e9, "default access rate"));
    WanTopology topo;
    uint32_t n = 0;
    for (const auto& c : doc["cities"])
    {
        topo.AddCity(CityFromJson(c, ++n, accessGbps));
    }
    n = 0;
    for (const auto& l : doc["links"])
    {
        AddLinkFromJson(l, ++n, topo);
    }
    topo.Validate();
    return topo;
}
catch (const std::invalid_argument& e)
{
    // Names from the file may hold any character: the refusal stays one line.
    throw wantext::OneLine(e);
}

WanTopology
WanTopology::FromCsv(const std::string& citiesCsv,
                     const std::string& linksCsv,
                     double defaultAccessBps)
try
{
    const double accessGbps =
        bounds::kRateGbps.Check(defaultAccessBps / 1e9, "default access rate");
    wantext::CsvTable cities("cities.csv", citiesCsv, {"code"});
    WanTopology topo;
    for (size_t r = 0; r < cities.Rows(); ++r)
    {
        WanCity city;
        city.code = cities.Text(r, "code");
        city.name = cities.TextOr(r, "name", city.code);
        city.region = cities.TextOr(r, "region", "");
        city.latitude = cities.NumberOr(r, "lat", 0.0, bounds::kLatitude);
        city.longitude = cities.NumberOr(r, "lon", 0.0, bounds::kLongitude);
        city.ingressBps = cities.NumberOr(r, "ingress_gbps", accessGbps, bounds::kRateGbps) * 1e9;
        city.egressBps = cities.NumberOr(r, "egress_gbps", accessGbps, bounds::kRateGbps) * 1e9;
        topo.AddCity(city);
    }
    wantext::CsvTable links("core-links.csv", linksCsv, {"a", "b", "one_way_ms", "capacity_gbps"});
    for (size_t r = 0; r < links.Rows(); ++r)
    {
        const double delaySeconds = links.Number(r, "one_way_ms", bounds::kLatencyMs) * 1e-3;
        const double capacityBps = links.Number(r, "capacity_gbps", bounds::kRateGbps) * 1e9;
        topo.AddLink(links.Text(r, "a"), links.Text(r, "b"), delaySeconds, capacityBps);
    }
    topo.Validate();
    return topo;
}
catch (const std::invalid_argument& e)
{
    // Names from the file may hold any character: the refusal stays one line.
    throw wantext::OneLine(e);
}

std::string
WanTopology::ToJson() const
{
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
        if (c.accessFields != 0)
        {
            city["access"] = ImpairmentJson(c.access, c.accessFields);
        }
        if (c.postFields != 0)
        {
            city["post"] = ImpairmentJson(c.post, c.postFields);
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
        if (l.impairmentFields != 0)
        {
            link.update(ImpairmentJson(l.impairment, l.impairmentFields));
        }
        doc["links"].push_back(link);
    }
    return doc.dump(2);
}

} // namespace ns3
