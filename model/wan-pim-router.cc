/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-pim-router.h"

#include "ns3/inet-socket-address.h"
#include "ns3/ipv4-header.h"
#include "ns3/ipv4-raw-socket-factory.h"
#include "ns3/ipv4-route.h"
#include "ns3/ipv4-routing-protocol.h"
#include "ns3/ipv4-static-routing-helper.h"
#include "ns3/ipv4-static-routing.h"
#include "ns3/ipv4.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"
#include "ns3/socket.h"
#include "ns3/trace-source-accessor.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanPimRouter");

NS_OBJECT_ENSURE_REGISTERED(WanPimRouter);

namespace
{
/// The RPF interface of a source the unicast routes do not reach.
constexpr uint32_t kNoRoute = 0xfffffffeu;

/// A holdtime as the whole seconds PIM carries; refuses what cannot be carried.
uint16_t
HoldtimeSeconds(Time t, const char* name)
{
    const double s = t.GetSeconds();
    if (!(s >= 1 && s <= 65535) || std::fabs(s - std::round(s)) > 1e-9)
    {
        throw std::invalid_argument(std::string("WanPimRouter: ") + name +
                                    " must be whole seconds from 1 to 65535 (PIM carries "
                                    "holdtimes in seconds)");
    }
    return static_cast<uint16_t>(std::lround(s));
}
} // namespace

TypeId
WanPimRouter::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanPimRouter")
            .SetParent<Application>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanPimRouter>()
            .AddAttribute("HelloPeriod",
                          "Hello_Period: time between Hellos on each interface (RFC 7761: 30 s)",
                          TimeValue(Seconds(30)),
                          MakeTimeAccessor(&WanPimRouter::m_helloPeriod),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("HelloHoldtime",
                          "Hello holdtime: how long neighbours keep this router without "
                          "a Hello, whole seconds (RFC 7761: 3.5 x Hello_Period = 105 s)",
                          TimeValue(Seconds(105)),
                          MakeTimeAccessor(&WanPimRouter::m_helloHoldtime),
                          MakeTimeChecker(Seconds(1), Seconds(65535)))
            .AddAttribute("JoinPeriod",
                          "t_periodic: time between periodic Joins to the upstream "
                          "neighbour (RFC 7761: 60 s)",
                          TimeValue(Seconds(60)),
                          MakeTimeAccessor(&WanPimRouter::m_joinPeriod),
                          MakeTimeChecker(MilliSeconds(1)))
            .AddAttribute("JoinHoldtime",
                          "J/P holdtime: how long an upstream router keeps a joined "
                          "interface without refresh, whole seconds (RFC 7761: 3.5 x "
                          "t_periodic = 210 s)",
                          TimeValue(Seconds(210)),
                          MakeTimeAccessor(&WanPimRouter::m_joinHoldtime),
                          MakeTimeChecker(Seconds(1), Seconds(65535)))
            .AddAttribute("JoinRetryPeriod",
                          "Time after which a triggered Join or Prune not yet confirmed by "
                          "the upstream router's Join-Ack is sent again (a router with a "
                          "period acknowledges the Join/Prunes it accepts); 0: sent once, "
                          "a lost one waits for the periodic Join (RFC 7761 alone)",
                          TimeValue(MilliSeconds(100)),
                          MakeTimeAccessor(&WanPimRouter::m_joinRetry),
                          MakeTimeChecker(Seconds(0)))
            .AddTraceSource("Tx",
                            "A PIM message was sent (the message, the interface)",
                            MakeTraceSourceAccessor(&WanPimRouter::m_txTrace),
                            "ns3::WanPimRouter::MessageTracedCallback")
            .AddTraceSource("Rx",
                            "A PIM message was accepted (the message, the interface)",
                            MakeTraceSourceAccessor(&WanPimRouter::m_rxTrace),
                            "ns3::WanPimRouter::MessageTracedCallback")
            .AddTraceSource("Drop",
                            "A PIM message was dropped (the message, why)",
                            MakeTraceSourceAccessor(&WanPimRouter::m_dropTrace),
                            "ns3::WanPimRouter::DropTracedCallback")
            .AddTraceSource("Forwarding",
                            "An (S,G) multicast route was programmed or removed",
                            MakeTraceSourceAccessor(&WanPimRouter::m_forwardingTrace),
                            "ns3::WanPimRouter::ForwardingTracedCallback");
    return tid;
}

WanPimRouter::WanPimRouter()
{
    NS_LOG_FUNCTION(this);
}

WanPimRouter::~WanPimRouter()
{
    NS_LOG_FUNCTION(this);
}

void
WanPimRouter::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_sockets.clear();
    m_state.reset();
    Application::DoDispose();
}

double
WanPimRouter::Now()
{
    return Simulator::Now().GetSeconds();
}

void
WanPimRouter::AddInterface(uint32_t interface, Ipv4Address neighbour)
{
    NS_LOG_FUNCTION(this << interface << neighbour);
    m_neighbours[interface] = neighbour;
}

void
WanPimRouter::SetEdgeInterface(uint32_t interface)
{
    m_edge = interface;
}

WanPimState&
WanPimRouter::State()
{
    if (!m_state)
    {
        // Built on first use, from the attributes as they are then.
        WanPimState::Timers timers;
        timers.joinPeriod = m_joinPeriod.GetSeconds();
        timers.joinHoldtime = HoldtimeSeconds(m_joinHoldtime, "JoinHoldtime");
        timers.helloHoldtime = HoldtimeSeconds(m_helloHoldtime, "HelloHoldtime");
        timers.retryPeriod = m_joinRetry.GetSeconds();
        m_state = std::make_unique<WanPimState>([this](Ipv4Address source) { return Rpf(source); },
                                                timers);
    }
    return *m_state;
}

const WanPimState&
WanPimRouter::GetState() const
{
    return const_cast<WanPimRouter*>(this)->State();
}

std::optional<uint32_t>
WanPimRouter::InterfaceOf(Ipv4Address neighbour) const
{
    for (const auto& [interface, address] : m_neighbours)
    {
        if (address == neighbour)
        {
            return interface;
        }
    }
    return std::nullopt;
}

uint32_t
WanPimRouter::Rpf(Ipv4Address source) const
{
    auto ipv4 = GetNode()->GetObject<Ipv4>();
    Ipv4Header header;
    header.SetDestination(source);
    Socket::SocketErrno error = Socket::ERROR_NOTERROR;
    auto route = ipv4->GetRoutingProtocol()->RouteOutput(Create<Packet>(), header, nullptr, error);
    if (!route)
    {
        return kNoRoute;
    }
    const auto interface =
        static_cast<uint32_t>(ipv4->GetInterfaceForDevice(route->GetOutputDevice()));
    return m_neighbours.count(interface) > 0 ? interface : WanPimState::LOCAL;
}

void
WanPimRouter::JoinLocal(Ipv4Address source, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << source << group);
    Apply(State().Join(source, group, WanPimState::LOCAL, Now()));
}

void
WanPimRouter::LeaveLocal(Ipv4Address source, Ipv4Address group)
{
    NS_LOG_FUNCTION(this << source << group);
    Apply(State().Prune(source, group, WanPimState::LOCAL, Now()));
}

void
WanPimRouter::RoutesChanged()
{
    NS_LOG_FUNCTION(this);
    Apply(State().RpfChanged(Now()));
}

void
WanPimRouter::NeighbourDown(Ipv4Address neighbour)
{
    NS_LOG_FUNCTION(this << neighbour);
    if (const auto interface = InterfaceOf(neighbour))
    {
        State().Hello(*interface, 0, Now());
        Apply(State().Advance(Now()));
    }
}

void
WanPimRouter::NeighbourUp(Ipv4Address neighbour)
{
    NS_LOG_FUNCTION(this << neighbour);
    if (const auto interface = InterfaceOf(neighbour))
    {
        Send(*interface, WanPimHeader::Hello(HoldtimeSeconds(m_helloHoldtime, "HelloHoldtime")));
    }
}

Ipv4Address
WanPimRouter::GetLocalAddress(Ipv4Address neighbour) const
{
    const auto interface = InterfaceOf(neighbour);
    return interface ? GetNode()->GetObject<Ipv4>()->GetAddress(*interface, 0).GetLocal()
                     : Ipv4Address::GetAny();
}

void
WanPimRouter::StartApplication()
{
    NS_LOG_FUNCTION(this);
    State();
    auto ipv4 = GetNode()->GetObject<Ipv4>();
    for (const auto& [interface, neighbour] : m_neighbours)
    {
        auto socket = Socket::CreateSocket(GetNode(), Ipv4RawSocketFactory::GetTypeId());
        socket->SetAttribute("Protocol", UintegerValue(WanPimHeader::kProtocol));
        socket->BindToNetDevice(ipv4->GetNetDevice(interface));
        socket->SetRecvCallback(MakeCallback(&WanPimRouter::Receive, this).Bind(interface));
        m_sockets[interface] = socket;
    }
    m_running = true;
    // What was queued before the start and not delivered by a convergence.
    for (const auto& [neighbour, message] : TakePending())
    {
        Transmit(InterfaceOf(neighbour).value(), message);
    }
    SendHellos();
    Apply({});
}

void
WanPimRouter::StopApplication()
{
    NS_LOG_FUNCTION(this);
    m_running = false;
    m_timer.Cancel();
    m_hello.Cancel();
    for (auto& [interface, socket] : m_sockets)
    {
        socket->SetRecvCallback(MakeNullCallback<void, Ptr<Socket>>());
        socket->Close();
    }
    m_sockets.clear();
}

void
WanPimRouter::Greet()
{
    const auto holdtime = HoldtimeSeconds(m_helloHoldtime, "HelloHoldtime");
    for (const auto& [interface, neighbour] : m_neighbours)
    {
        Send(interface, WanPimHeader::Hello(holdtime));
    }
}

void
WanPimRouter::SendHellos()
{
    Greet();
    if (m_running)
    {
        m_hello = Simulator::Schedule(m_helloPeriod, &WanPimRouter::SendHellos, this);
    }
}

void
WanPimRouter::Send(uint32_t interface, const WanPimHeader& message)
{
    ++m_sent;
    m_bytes += message.GetSerializedSize();
    if (!m_running)
    {
        m_pending.emplace_back(m_neighbours.at(interface), message);
        return;
    }
    Transmit(interface, message);
}

void
WanPimRouter::Transmit(uint32_t interface, const WanPimHeader& message)
{
    Ptr<Packet> packet = Create<Packet>();
    packet->AddHeader(message);
    m_txTrace(packet, interface);
    m_sockets.at(interface)->SendTo(packet, 0, InetSocketAddress(WanPimHeader::AllPimRouters(), 0));
}

std::vector<std::pair<Ipv4Address, WanPimHeader>>
WanPimRouter::TakePending()
{
    std::vector<std::pair<Ipv4Address, WanPimHeader>> out;
    out.swap(m_pending);
    return out;
}

void
WanPimRouter::Apply(const std::vector<WanPimState::Message>& messages)
{
    // One Join/Prune per upstream neighbour, its (S,G) entries grouped by G.
    std::map<uint32_t, std::vector<WanPimHeader::Group>> out;
    for (const auto& m : messages)
    {
        if (m_neighbours.count(m.neighbour) == 0)
        {
            NS_LOG_LOGIC("no PIM neighbour towards " << m.source << ": nothing sent");
            continue;
        }
        auto& groups = out[m.neighbour];
        auto it = std::find_if(groups.begin(), groups.end(), [&m](const WanPimHeader::Group& g) {
            return g.group == m.group;
        });
        if (it == groups.end())
        {
            groups.push_back({m.group, {}, {}});
            it = std::prev(groups.end());
        }
        (m.join ? it->joins : it->prunes).push_back(m.source);
    }
    const auto holdtime = HoldtimeSeconds(m_joinHoldtime, "JoinHoldtime");
    for (const auto& [interface, groups] : out)
    {
        Send(interface, WanPimHeader::JoinPrune(m_neighbours.at(interface), holdtime, groups));
    }
    Program();
    m_timer.Cancel();
    const double next = m_state->GetNextEvent();
    if (m_running && next < std::numeric_limits<double>::infinity())
    {
        // One nanosecond past the due time, so that the state sees it due.
        const Time at = NanoSeconds(static_cast<int64_t>(std::ceil(next * 1e9)) + 1);
        m_timer = Simulator::Schedule(std::max(Time(0), at - Simulator::Now()),
                                      &WanPimRouter::Timer,
                                      this);
    }
}

void
WanPimRouter::Timer()
{
    Apply(m_state->Advance(Now()));
}

void
WanPimRouter::Program()
{
    std::map<std::pair<Ipv4Address, Ipv4Address>, Route> want;
    for (const auto& [source, group] : m_state->GetEntries())
    {
        const uint32_t upstream = m_state->GetUpstream(source, group);
        if (upstream == kNoRoute)
        {
            continue;
        }
        Route r;
        r.input = upstream == WanPimState::LOCAL ? m_edge : upstream;
        for (auto o : m_state->GetOutgoing(source, group))
        {
            r.output.push_back(o == WanPimState::LOCAL ? m_edge : o);
        }
        std::sort(r.output.begin(), r.output.end());
        want.emplace(std::make_pair(source, group), r);
    }
    auto routing = Ipv4StaticRoutingHelper().GetStaticRouting(GetNode()->GetObject<Ipv4>());
    for (const auto& [key, r] : m_routes)
    {
        auto it = want.find(key);
        if (it == want.end() || !(it->second == r))
        {
            routing->RemoveMulticastRoute(key.first, key.second, r.input);
            if (it == want.end())
            {
                NS_LOG_INFO("(" << key.first << ", " << key.second << ") removed");
                m_forwardingTrace(key.first, key.second, 0, 0);
            }
        }
    }
    for (const auto& [key, r] : want)
    {
        auto it = m_routes.find(key);
        if (it == m_routes.end() || !(it->second == r))
        {
            routing->AddMulticastRoute(key.first, key.second, r.input, r.output);
            NS_LOG_INFO("(" << key.first << ", " << key.second << ") in " << r.input << ", "
                            << r.output.size() << " out");
            m_forwardingTrace(key.first,
                              key.second,
                              r.input,
                              static_cast<uint32_t>(r.output.size()));
        }
    }
    m_routes = std::move(want);
}

void
WanPimRouter::Drop(Ptr<const Packet> packet, const std::string& reason)
{
    NS_LOG_LOGIC("PIM message dropped: " << reason);
    ++m_dropped;
    m_dropTrace(packet, reason);
}

void
WanPimRouter::Receive(uint32_t interface, Ptr<Socket> socket)
{
    Ptr<Packet> packet;
    Address from;
    while ((packet = socket->RecvFrom(from)))
    {
        Ipv4Header ip;
        packet->RemoveHeader(ip);
        WanPimHeader message;
        if (packet->PeekHeader(message) == 0)
        {
            Drop(packet, message.GetError());
            continue;
        }
        if (m_neighbours.at(interface) != ip.GetSource())
        {
            Drop(packet, "not from the neighbour on this link");
            continue;
        }
        m_rxTrace(packet, interface);
        Deliver(ip.GetSource(), message);
    }
}

void
WanPimRouter::Deliver(Ipv4Address from, const WanPimHeader& message)
{
    NS_LOG_FUNCTION(this << from);
    auto drop = [this, &message](const std::string& reason) {
        Ptr<Packet> packet = Create<Packet>();
        packet->AddHeader(message);
        Drop(packet, reason);
    };
    const auto found = InterfaceOf(from);
    if (!found)
    {
        drop("not from a PIM neighbour");
        return;
    }
    const uint32_t interface = *found;
    const double now = Now();
    auto& state = State();
    if (message.GetType() == WanPimHeader::HELLO)
    {
        ++m_received;
        Apply(state.Hello(interface, message.GetHoldtime(), now));
        return;
    }
    if (!state.IsNeighbour(interface, now))
    {
        drop("Join/Prune from a router without a Hello");
        return;
    }
    if (message.GetUpstream() != GetLocalAddress(from))
    {
        drop(message.GetType() == WanPimHeader::JOIN_ACK
                 ? "Join-Ack for another router"
                 : "Join/Prune for another upstream router");
        return;
    }
    if (message.GetType() == WanPimHeader::JOIN_ACK)
    {
        ++m_received;
        Confirmed(interface, message);
        return;
    }
    std::vector<WanPimState::Message> out;
    try
    {
        for (const auto& g : message.GetGroups())
        {
            for (const auto& s : g.joins)
            {
                const auto more = state.Join(s, g.group, interface, now);
                out.insert(out.end(), more.begin(), more.end());
            }
            for (const auto& s : g.prunes)
            {
                const auto more = state.Prune(s, g.group, interface, now);
                out.insert(out.end(), more.begin(), more.end());
            }
        }
    }
    catch (const std::invalid_argument& e)
    {
        drop(e.what()); // a group outside 232/8: the rest is not read
        Apply(out);
        return;
    }
    ++m_received;
    if (m_joinRetry.IsStrictlyPositive())
    {
        Send(interface, WanPimHeader::JoinAck(from, message));
    }
    Apply(out);
}

void
WanPimRouter::Confirmed(uint32_t interface, const WanPimHeader& ack)
{
    for (const auto& g : ack.GetGroups())
    {
        for (const auto& s : g.joins)
        {
            m_state->Confirm(s, g.group, interface, true);
        }
        for (const auto& s : g.prunes)
        {
            m_state->Confirm(s, g.group, interface, false);
        }
    }
}

uint64_t
WanPimRouter::GetMessagesSent() const
{
    return m_sent;
}

uint64_t
WanPimRouter::GetBytesSent() const
{
    return m_bytes;
}

uint64_t
WanPimRouter::GetMessagesReceived() const
{
    return m_received;
}

uint64_t
WanPimRouter::GetMessagesDropped() const
{
    return m_dropped;
}

uint64_t
WanPimRouter::GetRetries() const
{
    return m_state ? m_state->GetRetries() : 0;
}

} // namespace ns3
