/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-round-counters.h"

namespace ns3
{

WanRoundCounters&
WanRoundCounters::operator+=(const WanRoundCounters& other)
{
    bytesIn += other.bytesIn;
    bytesOut += other.bytesOut;
    packetsIn += other.packetsIn;
    partialSums += other.partialSums;
    nacks += other.nacks;
    retransmissions += other.retransmissions;
    expected += other.expected;
    delivered += other.delivered;
    late += other.late;
    requested += other.requested;
    requests += other.requests;
    recovered += other.recovered;
    givenUp += other.givenUp;
    discarded += other.discarded;
    repairsSent += other.repairsSent;
    paritySent += other.paritySent;
    rebuilt += other.rebuilt;
    dropped += other.dropped;
    return *this;
}

WanRoundCounters
operator+(WanRoundCounters a, const WanRoundCounters& b)
{
    a += b;
    return a;
}

} // namespace ns3
