/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-reconvergence-helper.h"

#include "wan-network-helper.h"

#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanReconvergenceHelper");

WanReconvergenceHelper::WanReconvergenceHelper(WanNetworkHelper& net)
    : m_net(net),
      m_spfDelay(MilliSeconds(50))
{
    const auto& topo = net.GetTopology();
    for (const auto& link : topo.GetLinks())
    {
        m_ends[net.GetCoreAddress(link.a, link.b).Get()] = {link.a, link.b};
        m_ends[net.GetCoreAddress(link.b, link.a).Get()] = {link.b, link.a};
    }
}

void
WanReconvergenceHelper::SetSpfDelay(Time delay)
{
    if (delay.IsNegative() || delay > Seconds(10))
    {
        throw std::invalid_argument("SPF delay " + wantext::Num(delay.GetSeconds() * 1e3) +
                                    " ms must be from 0 to 10000 ms");
    }
    m_spfDelay = delay;
}

Time
WanReconvergenceHelper::GetSpfDelay() const
{
    return m_spfDelay;
}

void
WanReconvergenceHelper::Watch(const ApplicationContainer& bfd)
{
    for (uint32_t i = 0; i < bfd.GetN(); ++i)
    {
        const bool connected =
            bfd.Get(i)->TraceConnectWithoutContext(
                "SessionUp",
                MakeCallback(&WanReconvergenceHelper::SessionChanged, this).Bind(true)) &&
            bfd.Get(i)->TraceConnectWithoutContext(
                "SessionDown",
                MakeCallback(&WanReconvergenceHelper::SessionChanged, this).Bind(false));
        if (!connected)
        {
            throw std::invalid_argument("reconvergence watches BFD applications only");
        }
    }
}

void
WanReconvergenceHelper::SetChangeCallback(Callback<void, const Change&> callback)
{
    m_callback = callback;
}

const std::vector<WanReconvergenceHelper::Change>&
WanReconvergenceHelper::GetChanges() const
{
    return m_changes;
}

Time
WanReconvergenceHelper::FloodingDelay(uint32_t a, uint32_t b) const
{
    const auto& topo = m_net.GetTopology();
    const auto rest = topo.WithoutLink(topo.GetCity(a).code, topo.GetCity(b).code);
    double longest = 0;
    for (uint32_t c = 0; c < rest.GetNCities(); ++c)
    {
        const double d = rest.GetPathDelay(a, c);
        longest = std::isfinite(d) ? std::max(longest, d) : longest;
    }
    return Seconds(longest);
}

void
WanReconvergenceHelper::SessionChanged(bool up, Ipv4Address local, Ipv4Address, uint8_t)
{
    auto end = m_ends.find(local.Get());
    if (end == m_ends.end())
    {
        return; // not a core link end
    }
    const auto [city, peer] = end->second;
    const std::pair<uint32_t, uint32_t> link{std::min(city, peer), std::max(city, peer)};
    auto& ends = m_sessionsUp[link];
    ends = up ? std::min(ends + 1, 2u) : (ends > 0 ? ends - 1 : 0);
    // A failure floods from the first end to detect it; a repair once both
    // ends are up again.
    const bool fails = !up && m_failed.insert(link).second;
    const bool heals = up && ends == 2 && m_failed.count(link) > 0;
    if (fails || heals)
    {
        NS_LOG_INFO("link " << link.first << "-" << link.second
                            << (up ? " up at both ends, the last at " : " declared down by ")
                            << city);
        Simulator::Schedule(FloodingDelay(city, peer) + m_spfDelay,
                            &WanReconvergenceHelper::Converge,
                            this,
                            Change{link.first, link.second, up, Simulator::Now(), Time(0)});
    }
}

void
WanReconvergenceHelper::Converge(Change change)
{
    const std::pair<uint32_t, uint32_t> link{change.a, change.b};
    const bool failed = m_failed.count(link) > 0;
    if (change.up != (m_sessionsUp[link] == 2) || (!change.up && !failed))
    {
        return; // it changed again before the routes did
    }
    if (change.up)
    {
        m_failed.erase(link);
    }
    m_net.SetLinkRouted(change.a, change.b, change.up);
    change.converged = Simulator::Now();
    NS_LOG_INFO("routes " << (change.up ? "use" : "avoid") << " link " << change.a << "-"
                          << change.b);
    m_changes.push_back(change);
    if (!m_callback.IsNull())
    {
        m_callback(change);
    }
}

} // namespace ns3
