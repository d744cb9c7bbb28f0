/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-ring-application.h"

#include "ns3/log.h"

#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanRingApplication");
NS_OBJECT_ENSURE_REGISTERED(WanRingApplication);

TypeId
WanRingApplication::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanRingApplication")
                            .SetParent<WanCollectiveApplication>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanRingApplication>();
    return tid;
}

WanRingApplication::WanRingApplication() = default;

WanRingApplication::~WanRingApplication() = default;

void
WanRingApplication::SetRing(const std::vector<Ipv4Address>& members,
                            uint32_t position,
                            std::vector<int64_t> own,
                            std::vector<int64_t> expected)
{
    if (expected.size() != own.size())
    {
        throw std::invalid_argument("ring all-reduce: " + std::to_string(expected.size()) +
                                    " expected sums for " + std::to_string(own.size()) + " chunks");
    }
    m_ring = std::make_unique<WanRingAllReduce>(static_cast<uint32_t>(members.size()),
                                                position,
                                                std::move(own));
    m_members = members;
    m_position = position;
    m_expected = std::move(expected);
}

void
WanRingApplication::DoStart()
{
    NS_LOG_FUNCTION(this);
    if (!m_ring)
    {
        NS_FATAL_ERROR("WanRingApplication: no ring (SetRing before the application starts)");
    }
    Listen();
    Dial(NEXT, m_members[(m_position + 1) % m_members.size()]);
}

void
WanRingApplication::DoBegin()
{
    NS_LOG_INFO("member " << m_position << ": the ring begins");
    SendTo(NEXT, m_ring->Start());
}

void
WanRingApplication::DoReceive(uint32_t peer, const WanCollectiveRecord& record)
{
    SendTo(NEXT, m_ring->Receive(record));
    if (m_ring->IsComplete())
    {
        Complete(m_ring->GetSums() == m_expected);
    }
}

int64_t
WanRingApplication::PeerOf(Ipv4Address from) const
{
    const auto n = m_members.size();
    return from == m_members[(m_position + n - 1) % n] ? PREVIOUS : -1;
}

} // namespace ns3
