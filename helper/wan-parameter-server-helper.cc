/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-parameter-server-helper.h"

#include "ns3/log.h"
#include "ns3/wan-parameter-server-application.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanParameterServerHelper");

WanParameterServerHelper::WanParameterServerHelper(const WanNetworkHelper& network)
    : WanCollectiveHelper(network, WanParameterServerApplication::GetTypeId(), "parameter server")
{
}

ApplicationContainer
WanParameterServerHelper::Install(const std::vector<uint32_t>& members, uint32_t server)
{
    CheckMembers(members);
    const auto at = std::find(members.begin(), members.end(), server);
    if (at == members.end())
    {
        throw std::invalid_argument("parameter server: the server, city " + std::to_string(server) +
                                    ", is not a member");
    }
    const auto s = static_cast<uint32_t>(at - members.begin());
    const uint32_t chunks = Chunks();
    const auto addresses = Addresses(members);
    const auto expected = ExpectedSums(members, chunks);
    std::vector<uint32_t> workers;
    std::copy_if(members.begin(), members.end(), std::back_inserter(workers), [server](uint32_t c) {
        return c != server;
    });
    StartInstall();
    ApplicationContainer apps;
    for (uint32_t i = 0; i < members.size(); ++i)
    {
        const bool isServer = i == s;
        const std::vector<uint32_t> peers = isServer ? workers : std::vector<uint32_t>{server};
        auto app = DynamicCast<WanParameterServerApplication>(Create(members[i], peers, peers));
        app->SetMembers(addresses, s, i, OwnValues(members[i], chunks), expected);
        apps.Add(app);
    }
    SizeReceiveBuffers();
    return apps;
}

uint32_t
WanParameterServerHelper::ChooseServer(const std::vector<uint32_t>& members) const
{
    CheckMembers(members);
    const auto& topo = m_network.GetTopology();
    const double bits = (members.size() - 1) * m_payload / m_scale * 8;
    uint32_t best = members.front();
    double bestTime = std::numeric_limits<double>::infinity();
    for (uint32_t s : members)
    {
        const auto& city = topo.GetCity(s);
        double farthest = 0;
        for (uint32_t w : members)
        {
            farthest = std::max(farthest, w == s ? 0.0 : topo.GetPathDelay(s, w));
        }
        const double time =
            bits / (std::min(city.ingressBps, city.egressBps) / m_scale) + 2 * farthest;
        if (time < bestTime)
        {
            best = s;
            bestTime = time;
        }
    }
    return best;
}

} // namespace ns3
