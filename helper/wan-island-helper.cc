/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-island-helper.h"

#include "ns3/node.h"
#include "ns3/wan-island-application.h"

namespace ns3
{

WanIslandHelper::WanIslandHelper()
{
    m_factory.SetTypeId(WanIslandApplication::GetTypeId());
}

void
WanIslandHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    m_factory.Set(name, value);
}

ApplicationContainer
WanIslandHelper::Install(NodeContainer nodes) const
{
    ApplicationContainer apps;
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        apps.Add(Install(*it));
    }
    return apps;
}

ApplicationContainer
WanIslandHelper::Install(Ptr<Node> node) const
{
    auto app = Create();
    node->AddApplication(app);
    return ApplicationContainer(app);
}

Ptr<WanIslandApplication>
WanIslandHelper::Create() const
{
    return m_factory.Create<WanIslandApplication>();
}

int64_t
WanIslandHelper::AssignStreams(ApplicationContainer apps, int64_t stream) const
{
    (void)apps;
    (void)stream;
    return 0;
}

} // namespace ns3
