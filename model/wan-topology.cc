/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// WanTopology's data: cities and core links, checked as they are added.
// Paths are in wan-topology-paths.cc, file formats in wan-topology-formats.cc,
// the synthetic generator in wan-topology-random.cc.

#include "wan-topology.h"

#include "wan-training-text.h"

#include "ns3/log.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTopology");

namespace bounds = wantext::bounds;

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
        throw std::invalid_argument("duplicate city '" + wantext::Printable(city.code) + "'");
    }
    bounds::kRateGbps.Check(city.ingressBps / 1e9, "ingress rate of " + city.code);
    bounds::kRateGbps.Check(city.egressBps / 1e9, "egress rate of " + city.code);
    bounds::kLatitude.Check(city.latitude, "latitude of " + city.code);
    bounds::kLongitude.Check(city.longitude, "longitude of " + city.code);
    city.access.ValidateOwn("city " + city.code + " access", city.accessFields);
    city.post.ValidateOwn("city " + city.code + " post", city.postFields);
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
        throw std::invalid_argument(name + " names unknown city '" + wantext::Printable(a) + "'");
    }
    if (!HasCity(b))
    {
        throw std::invalid_argument(name + " names unknown city '" + wantext::Printable(b) + "'");
    }
    if (a == b)
    {
        throw std::invalid_argument(name + " joins a city to itself");
    }
    bounds::kLatencyMs.Check(delaySeconds * 1e3, "latency of " + name);
    bounds::kRateGbps.Check(capacityBps / 1e9, "capacity of " + name);
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

double
WanTopology::GetLargestOwnJitter() const
{
    double sigma = 0;
    for (const auto& link : m_links)
    {
        if (link.impairmentFields & WanLinkImpairment::JITTER)
        {
            sigma = std::max(sigma, link.impairment.jitterSeconds);
        }
    }
    for (const auto& city : m_cities)
    {
        if (city.accessFields & WanLinkImpairment::JITTER)
        {
            sigma = std::max(sigma, city.access.jitterSeconds);
        }
    }
    return sigma;
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
    throw std::invalid_argument("unknown city '" + wantext::Printable(code) + "'");
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
WanTopology::WithoutLink(const std::string& a, const std::string& b, bool connected) const
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
        if (l.impairmentFields != 0)
        {
            copy.SetLinkImpairment(m_cities[l.a].code,
                                   m_cities[l.b].code,
                                   l.impairment,
                                   l.impairmentFields);
        }
    }
    if (!connected)
    {
        return copy;
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
                               const WanLinkImpairment& impairment,
                               uint32_t fields)
{
    const uint32_t i = FindCity(a);
    const uint32_t j = FindCity(b);
    fields &= WanLinkImpairment::ALL_FIELDS;
    impairment.ValidateOwn("link " + a + "-" + b, fields);
    auto& link = m_links[GetLinkIndex(i, j)];
    link.impairmentFields = fields;
    link.impairment = impairment;
}

std::vector<std::string>
WanTopology::DescribeOwnImpairments() const
{
    std::vector<std::string> lines;
    auto line = [&lines](const std::string& what,
                         const WanLinkImpairment& imp,
                         uint32_t fields,
                         const char* linkClass) {
        if (fields != 0)
        {
            lines.push_back(what + ": " + imp.Describe(fields) +
                            (fields == WanLinkImpairment::ALL_FIELDS
                                 ? ""
                                 : std::string(" (the rest: ") + linkClass + ")"));
        }
    };
    for (const auto& l : m_links)
    {
        line("link " + m_cities[l.a].code + "-" + m_cities[l.b].code,
             l.impairment,
             l.impairmentFields,
             "core");
    }
    for (const auto& c : m_cities)
    {
        line("city " + c.code + " access", c.access, c.accessFields, "access");
        line("city " + c.code + " post", c.post, c.postFields, "post");
    }
    return lines;
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
    bounds::kRateGbps.Check(bps / 1e9, "access rate");
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
    bounds::kRateGbps.Check(bps / 1e9, "core capacity");
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

} // namespace ns3
