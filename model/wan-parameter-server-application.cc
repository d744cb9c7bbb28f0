/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parameter-server-application.h"

#include "ns3/log.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanParameterServerApplication");
NS_OBJECT_ENSURE_REGISTERED(WanParameterServerApplication);

TypeId
WanParameterServerApplication::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanParameterServerApplication")
                            .SetParent<WanCollectiveApplication>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanParameterServerApplication>();
    return tid;
}

WanParameterServerApplication::WanParameterServerApplication() = default;

WanParameterServerApplication::~WanParameterServerApplication() = default;

void
WanParameterServerApplication::SetMembers(const std::vector<Ipv4Address>& members,
                                          uint32_t server,
                                          uint32_t position,
                                          std::vector<int64_t> own,
                                          std::vector<int64_t> expected)
{
    if (expected.size() != own.size())
    {
        throw std::invalid_argument("parameter server: " + std::to_string(expected.size()) +
                                    " expected sums for " + std::to_string(own.size()) + " chunks");
    }
    m_logic = std::make_unique<WanParameterServer>(static_cast<uint32_t>(members.size()),
                                                   server,
                                                   position,
                                                   std::move(own));
    m_members = members;
    m_server = server;
    m_position = position;
    m_expected = std::move(expected);
}

void
WanParameterServerApplication::DoStart()
{
    NS_LOG_FUNCTION(this);
    if (!m_logic)
    {
        NS_FATAL_ERROR("WanParameterServerApplication: no members (SetMembers before the "
                       "application starts)");
    }
    if (m_logic->IsServer())
    {
        Listen();
    }
    else
    {
        Dial(m_server, m_members[m_server]);
    }
}

void
WanParameterServerApplication::DoBegin()
{
    NS_LOG_INFO("member " << m_position << (m_logic->IsServer() ? " (server)" : " (worker)")
                          << ": the exchange begins");
    if (!m_logic->IsServer())
    {
        SendTo(m_server, m_logic->Start());
    }
}

void
WanParameterServerApplication::DoReceive(uint32_t peer, const WanCollectiveRecord& record)
{
    const auto sums = m_logic->Receive(peer, record);
    if (!sums.empty())
    {
        for (uint32_t w = 0; w < m_members.size(); ++w)
        {
            if (w != m_server)
            {
                SendTo(w, sums);
            }
        }
    }
    if (m_logic->IsComplete())
    {
        Complete(m_logic->GetSums() == m_expected);
    }
}

int64_t
WanParameterServerApplication::PeerOf(Ipv4Address from) const
{
    const auto it = std::find(m_members.begin(), m_members.end(), from);
    if (it == m_members.end() || static_cast<uint32_t>(it - m_members.begin()) == m_position)
    {
        return -1;
    }
    return it - m_members.begin();
}

} // namespace ns3
