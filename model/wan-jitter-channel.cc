/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-jitter-channel.h"

#include "ns3/boolean.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/point-to-point-net-device.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/string.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanJitterChannel");

NS_OBJECT_ENSURE_REGISTERED(WanJitterChannel);

TypeId
WanJitterChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanJitterChannel")
            .SetParent<PointToPointChannel>()
            .SetGroupName("WanTraining")
            .AddConstructor<WanJitterChannel>()
            .AddAttribute("Jitter",
                          "Extra delay of each packet, seconds (a negative draw counts as 0).",
                          StringValue("ns3::ConstantRandomVariable[Constant=0]"),
                          MakePointerAccessor(&WanJitterChannel::m_jitter),
                          MakePointerChecker<RandomVariableStream>())
            .AddAttribute("Reorder",
                          "Let a packet overtake an earlier one (false: FIFO order in "
                          "each direction).",
                          BooleanValue(false),
                          MakeBooleanAccessor(&WanJitterChannel::m_reorder),
                          MakeBooleanChecker())
            .AddTraceSource("Jitter",
                            "A packet takes an extra delay (after FIFO ordering).",
                            MakeTraceSourceAccessor(&WanJitterChannel::m_jitterTrace),
                            "ns3::WanJitterChannel::JitterCallback");
    return tid;
}

WanJitterChannel::WanJitterChannel()
    : m_reorder(false)
{
    NS_LOG_FUNCTION(this);
}

void
WanJitterChannel::DoDispose()
{
    NS_LOG_FUNCTION(this);
    m_jitter = nullptr;
    PointToPointChannel::DoDispose();
}

int64_t
WanJitterChannel::AssignStreams(int64_t stream)
{
    m_jitter->SetStream(stream);
    return 1;
}

bool
WanJitterChannel::TransmitStart(Ptr<const Packet> p, Ptr<PointToPointNetDevice> src, Time txTime)
{
    NS_LOG_FUNCTION(this << p << src << txTime);
    NS_ASSERT_MSG(IsInitialized(), "WanJitterChannel: both ends must be attached");
    const uint32_t wire = src == GetSource(0) ? 0 : 1;
    Ptr<PointToPointNetDevice> dst = GetDestination(wire);
    const Time now = Simulator::Now();
    Time arrival = now + txTime + GetDelay() + Seconds(std::max(0.0, m_jitter->GetValue()));
    if (!m_reorder)
    {
        arrival = std::max(arrival, m_lastArrival[wire]);
    }
    m_lastArrival[wire] = std::max(m_lastArrival[wire], arrival);
    const Time extra = arrival - (now + txTime + GetDelay());
    m_jitterTrace(p, extra);
    NS_LOG_LOGIC("packet " << p->GetUid() << " extra delay " << extra.As(Time::US));
    Simulator::ScheduleWithContext(dst->GetNode()->GetId(),
                                   arrival - now,
                                   &PointToPointNetDevice::Receive,
                                   dst,
                                   p->Copy());
    return true;
}

} // namespace ns3
