/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-compat.h"

#include "ns3/object-factory.h"
#include "ns3/tcp-congestion-ops.h"

namespace ns3
{
namespace wancompat
{

Ptr<TcpCongestionOps>
MakeCongestionControl(TypeId tid)
{
    // ns-3.37's TcpCubic names TcpSocketBase as its parent TypeId (later
    // releases TcpCongestionOps), so TypeId::IsChildOf cannot tell: make one.
    if (!tid.HasConstructor())
    {
        return nullptr;
    }
    ObjectFactory factory;
    factory.SetTypeId(tid);
    return DynamicCast<TcpCongestionOps>(factory.Create());
}

} // namespace wancompat
} // namespace ns3
