/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-jitter-channel.h"

#include "wan-training-compat.h"

#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#ifdef NS3_MPI
#include "ns3/mpi-interface.h"
#endif

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanJitterChannel");

NS_OBJECT_ENSURE_REGISTERED(WanJitterChannel);

namespace
{

/// @return a factory of WanDelayProcess with its default attributes
ObjectFactory
DefaultDelayProcess()
{
    // By TypeId, not by name: the name may not be registered yet while the
    // static TypeIds are built.
    ObjectFactory factory;
    factory.SetTypeId(WanDelayProcess::GetTypeId());
    return factory;
}

} // namespace

TypeId
WanJitterChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanJitterChannel")
            .SetParent<PointToPointChannel>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanJitterChannel>()
            .AddAttribute("Model",
                          "Where the extra delay comes from: correlated (a DelayProcess per "
                          "direction, sampled at each send time) or independent (a Jitter "
                          "draw per packet: multipath, reordering).",
                          EnumValue(WanJitterChannel::CORRELATED),
                          wancompat::MakeEnumMemberAccessor(&WanJitterChannel::m_model),
                          MakeEnumChecker(WanJitterChannel::CORRELATED,
                                          "correlated",
                                          WanJitterChannel::INDEPENDENT,
                                          "independent"))
            .AddAttribute("DelayProcess",
                          "Correlated model: the factory of each direction's delay "
                          "process (ns3::WanDelayProcess and its attributes); both "
                          "directions alike, each with its own random stream.",
                          ObjectFactoryValue(DefaultDelayProcess()),
                          MakeObjectFactoryAccessor(&WanJitterChannel::GetDelayProcessFactory,
                                                    &WanJitterChannel::SetDelayProcessFactory),
                          MakeObjectFactoryChecker())
            .AddAttribute("Jitter",
                          "Independent model: extra delay of each packet, seconds (a "
                          "negative draw counts as 0).",
                          StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                          MakePointerAccessor(&WanJitterChannel::m_jitter),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("ReverseJitter",
                          "Independent model: extra delay of each packet the channel's "
                          "second device sends, seconds, from its own stream (the direction "
                          "then depends on no other); unset: both directions draw from Jitter.",
                          PointerValue(),
                          MakePointerAccessor(&WanJitterChannel::m_reverseJitter),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("Reorder",
                          "Let a packet overtake an earlier one (false: FIFO order in "
                          "each direction, a packet that would overtake is held).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&WanJitterChannel::m_reorder),
                          MakeBooleanChecker())
            .AddTraceSource("Jitter",
                            "A packet takes an extra delay (after FIFO ordering).",
                            MakeTraceSourceAccessor(&WanJitterChannel::m_jitterTrace),
                            "ns3::WanJitterChannel::JitterCallback")
            .AddTraceSource("Hold",
                            "A packet arrives later than its own extra delay says (the delay "
                            "process's FIFO envelope, or a transmission time after the packet "
                            "before it): by how much.",
                            MakeTraceSourceAccessor(&WanJitterChannel::m_holdTrace),
                            "ns3::WanJitterChannel::HoldCallback");
    return tid;
}

WanJitterChannel::WanJitterChannel()
    : m_model(CORRELATED),
      m_processFactory(DefaultDelayProcess()),
      m_reorder(false)
{
    NS_LOG_FUNCTION(this);
}

void
WanJitterChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_jitter = nullptr;
    m_reverseJitter = nullptr;
    for (auto& process : m_process)
    {
        if (process)
        {
            process->Dispose();
            process = nullptr;
        }
    }
    PointToPointChannel::DoDispose();
}

int64_t
WanJitterChannel::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_jitter->SetStream(stream);
    GetDelayProcess(0)->AssignStreams(stream + 1);
    GetDelayProcess(1)->AssignStreams(stream + 2);
    if (m_reverseJitter)
    {
        m_reverseJitter->SetStream(stream + 3);
        return 4;
    }
    return 3;
}

Ptr<WanDelayProcess>
WanJitterChannel::GetDelayProcess(uint32_t direction)
{
    if (direction > 1)
    {
        throw std::invalid_argument("a point-to-point channel has directions 0 and 1, not " +
                                    std::to_string(direction));
    }
    if (!m_process[direction])
    {
        m_process[direction] = DynamicCast<WanDelayProcess>(m_processFactory.Create());
        if (!m_process[direction])
        {
            throw std::invalid_argument(
                "WanJitterChannel DelayProcess: " + m_processFactory.GetTypeId().GetName() +
                " is not a ns3::WanDelayProcess");
        }
    }
    return m_process[direction];
}

void
WanJitterChannel::SetDelayProcessFactory(ObjectFactory factory)
{
    NS_LOG_FUNCTION(this);
    m_processFactory = factory;
    m_process = {};
}

ObjectFactory
WanJitterChannel::GetDelayProcessFactory() const
{
    return m_processFactory;
}

uint64_t
WanJitterChannel::GetPackets() const
{
    return m_packets;
}

uint64_t
WanJitterChannel::GetHeldPackets() const
{
    return m_held;
}

std::pair<Time, Time>
WanJitterChannel::DrawExtra(uint32_t direction)
{
    if (m_model == CORRELATED)
    {
        const auto process = GetDelayProcess(direction);
        const Time own = process->Sample(Simulator::Now());
        return {own, process->GetFifoDelay()};
    }
    const auto& jitter = direction == 1 && m_reverseJitter ? m_reverseJitter : m_jitter;
    const Time own = Seconds(std::max(0.0, jitter->GetValue()));
    return {own, own};
}

bool
WanJitterChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    NS_ASSERT_MSG(IsInitialized(), "WanJitterChannel: both ends must be attached");
    const uint32_t wire = src == GetSource(0) ? 0 : 1;
    Ptr<PointToPointNetDevice> dst = GetDestination(wire);
    const Time now = Simulator::Now();
    const auto [own, fifo] = DrawExtra(wire);
    const Time undelayed = now + txTime + GetDelay();
    Time arrival = undelayed + (m_reorder ? own : fifo);
    ++m_packets;
    if (!m_reorder && arrival < m_lastArrival[wire] + txTime)
    {
        // Held: it arrives a transmission time after the one before it, as
        // from a FIFO queue that drains at the link's rate (so no two packets
        // reach the device at the same instant, whose order would be the
        // scheduler's, or in a distributed run MPI's).
        arrival = m_lastArrival[wire] + txTime;
    }
    if (arrival > undelayed + own)
    {
        m_holdTrace(p, arrival - undelayed - own);
        ++m_held;
    }
    m_lastArrival[wire] = std::max(m_lastArrival[wire], arrival);
    const Time extra = arrival - undelayed;
    m_jitterTrace(p, extra);
    NS_LOG_LOGIC("packet " << p->GetUid() << " extra delay " << extra.As(Time::US));
#ifdef NS3_MPI
    if (dst->GetNode()->GetSystemId() != MpiInterface::GetSystemId())
    {
        // A link cut between ranks: the other rank receives it (its device's
        // MpiReceiver), as over ns-3's PointToPointRemoteChannel.
        MpiInterface::SendPacket(p->Copy(), arrival, dst->GetNode()->GetId(), dst->GetIfIndex());
        return true;
    }
#endif
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   arrival - now,
                                   &PointToPointNetDevice::Receive,
                                   dst,
                                   p->Copy());
    return true;
}

} // namespace ns3
