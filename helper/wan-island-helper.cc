/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-island-helper.h"

#include "ns3/node.h"
#include "ns3/wan-island-application.h"

namespace ns3
{

WanIslandHelper::WanIslandHelper()
    : wancompat::ApplicationHelper(WanIslandApplication::GetTypeId())
{
}

Ptr<Application>
WanIslandHelper::DoInstall(Ptr<Node> node)
{
    auto app = Create();
    node->AddApplication(app);
    return app;
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
