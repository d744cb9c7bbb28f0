/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// WanTopology's graph: shortest paths by latency (cached per change) and
// source-specific multicast trees.

#include "wan-topology.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <stdexcept>

namespace ns3
{

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
    m_parent.assign(n, std::vector<uint32_t>(n, std::numeric_limits<uint32_t>::max()));
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
    // Destination-based, as routers forward: the next hop towards `to` is
    // v's parent in to's shortest-path tree, so every suffix of a path is
    // the path from where it starts.
    std::vector<uint32_t> path{from};
    for (uint32_t v = from; v != to; v = m_parent[to][v])
    {
        path.push_back(m_parent[to][v]);
    }
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
        // PIM-SSM: the receiver's join travels towards the source along the
        // unicast path (reverse-path forwarding), so the branch to r is the
        // reverse of GetPath(r, source): r's path in the source's tree.
        for (uint32_t v = r; v != source && !inTree[v]; v = m_parent[source][v])
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

} // namespace ns3
