/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-reconvergence-helper.h"

#include "wan-mpi-helper.h"
#include "wan-network-helper.h"

#include "ns3/buffer.h"
#include "ns3/log.h"
#include "ns3/simple-net-device.h"
#include "ns3/simulator.h"
#include "ns3/wan-training-compat.h"
#include "ns3/wan-training-text.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanReconvergenceHelper");

namespace
{
/// A notice's size: city and peer (4 bytes each), up (1), time step (8).
constexpr uint32_t kNoticeBytes = 17;
} // namespace

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
        throw std::invalid_argument("SPF delay " + wantext::Num(wancompat::ToSeconds(delay) * 1e3) +
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
    // A link BFD declared down may be a bridge (a false alarm under loss):
    // the flooding reaches the part that is left.
    const auto rest = topo.WithoutLink(topo.GetCity(a).code, topo.GetCity(b).code, false);
    double longest = 0;
    for (uint32_t c = 0; c < rest.GetNCities(); ++c)
    {
        const double d = rest.GetPathDelay(a, c);
        longest = std::isfinite(d) ? std::max(longest, d) : longest;
    }
    return Seconds(longest);
}

void
WanReconvergenceHelper::Distribute(const std::vector<uint32_t>& rankOf)
{
    const auto& topo = m_net.GetTopology();
    if (rankOf.size() != topo.GetNCities())
    {
        throw std::invalid_argument("reconvergence: " + std::to_string(rankOf.size()) +
                                    " ranks given for " + std::to_string(topo.GetNCities()) +
                                    " cities");
    }
    m_noticeDelay = WanMpiHelper::NoticeDelay(topo, rankOf, WanMpiHelper::GetSynchroniser());
    m_notices.clear();
    // Every rank adds the same devices in the same order: the same indices.
    for (uint32_t c = 0; c < rankOf.size(); ++c)
    {
        if (rankOf[c] == m_notices.size())
        {
            auto device = CreateObject<SimpleNetDevice>();
            m_net.GetRouters().Get(c)->AddDevice(device);
            m_notices.push_back(device);
        }
    }
    const uint32_t rank = WanMpiHelper::GetRank();
    WanMpiHelper::SetReceiveCallback(m_notices.at(rank),
                                     MakeCallback(&WanReconvergenceHelper::ReceiveNotice, this));
    NS_LOG_INFO("rank " << rank << " of " << m_notices.size() << ": notices after "
                        << m_noticeDelay.As(Time::MS));
}

void
WanReconvergenceHelper::SessionChanged(bool up, Ipv4Address local, Ipv4Address, uint8_t)
{
    auto end = m_ends.find(local.Get());
    if (end == m_ends.end())
    {
        return; // not a core link end
    }
    const Report report{end->second.first, end->second.second, up, Simulator::Now()};
    if (m_notices.empty())
    {
        Handle(report);
        return;
    }
    // Every rank, this one too, handles it the notice delay from now.
    Buffer buffer;
    buffer.AddAtStart(kNoticeBytes);
    auto it = buffer.Begin();
    it.WriteHtonU32(report.city);
    it.WriteHtonU32(report.peer);
    it.WriteU8(report.up ? 1 : 0);
    it.WriteHtonU64(static_cast<uint64_t>(report.at.GetTimeStep()));
    const uint32_t rank = WanMpiHelper::GetRank();
    for (uint32_t r = 0; r < m_notices.size(); ++r)
    {
        if (r != rank)
        {
            WanMpiHelper::SendPacket(Create<Packet>(buffer.PeekData(), kNoticeBytes),
                                     report.at + m_noticeDelay,
                                     m_notices[r]);
        }
    }
    Simulator::Schedule(m_noticeDelay, &WanReconvergenceHelper::Handle, this, report);
}

void
WanReconvergenceHelper::ReceiveNotice(Ptr<Packet> packet)
{
    if (packet->GetSize() != kNoticeBytes)
    {
        NS_LOG_WARN("ignoring a notice of " << packet->GetSize() << " bytes");
        return;
    }
    uint8_t bytes[kNoticeBytes];
    packet->CopyData(bytes, kNoticeBytes);
    Buffer buffer;
    buffer.AddAtStart(kNoticeBytes);
    buffer.Begin().Write(bytes, kNoticeBytes);
    auto it = buffer.Begin();
    Report report;
    report.city = it.ReadNtohU32();
    report.peer = it.ReadNtohU32();
    report.up = it.ReadU8() != 0;
    report.at = TimeStep(static_cast<int64_t>(it.ReadNtohU64()));
    Handle(report);
}

void
WanReconvergenceHelper::Handle(Report report)
{
    const auto [city, peer] = std::minmax(report.city, report.peer);
    const std::pair<uint32_t, uint32_t> link{city, peer};
    auto& ends = m_sessionsUp[link];
    ends = report.up ? std::min(ends + 1, 2u) : (ends > 0 ? ends - 1 : 0);
    // A failure floods from the first end to detect it; a repair once both
    // ends are up again.
    const bool fails = !report.up && m_failed.insert(link).second;
    const bool heals = report.up && ends == 2 && m_failed.count(link) > 0;
    if (fails || heals)
    {
        NS_LOG_INFO("link " << link.first << "-" << link.second
                            << (report.up ? " up at both ends, the last at " : " declared down by ")
                            << report.city);
        const Time at = report.at + FloodingDelay(report.city, report.peer) + m_spfDelay;
        if (at < Simulator::Now())
        {
            NS_LOG_WARN("link " << link.first << "-" << link.second << ": flooding and SPF ("
                                << (at - report.at).As(Time::MS)
                                << ") are shorter than the notice delay ("
                                << m_noticeDelay.As(Time::MS) << "): routes change late");
        }
        Simulator::Schedule(std::max(at - Simulator::Now(), Time(0)),
                            &WanReconvergenceHelper::Converge,
                            this,
                            Change{link.first, link.second, report.up, report.at, Time(0)});
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
