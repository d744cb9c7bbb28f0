/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_TCP_TEST_UTILS_H
#define WAN_TCP_TEST_UTILS_H

#include "ns3/boolean.h"
#include "ns3/config.h"
#include "ns3/uinteger.h"

namespace ns3
{
namespace wantest
{

/**
 * @ingroup wan-training-tests
 * @brief TCP at the access rate from the first segment, so that a
 * collective's time can be counted by hand: an initial window of 10000
 * segments (over any test path's bandwidth-delay product), and CUBIC's
 * HyStart off. (With so large a window ns-3.37's TcpCubic runs HyStart
 * before its first reset and subtracts Time::Min() from the time, a signed
 * overflow; HyStart has nothing to find when the window starts above the
 * product.) Config::Reset undoes it.
 */
inline void
SetLineRateTcp()
{
    Config::SetDefault("ns3::TcpSocket::InitialCwnd", UintegerValue(10000));
    Config::SetDefault("ns3::TcpCubic::HyStart", BooleanValue(false));
}

} // namespace wantest
} // namespace ns3

#endif /* WAN_TCP_TEST_UTILS_H */
