/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-round-counters.h"

namespace ns3
{

const std::vector<WanRoundCounters::Field>&
WanRoundCounters::Fields()
{
    static const std::vector<Field> fields{{"bytesIn", &WanRoundCounters::bytesIn},
                                           {"bytesOut", &WanRoundCounters::bytesOut},
                                           {"packetsIn", &WanRoundCounters::packetsIn},
                                           {"partialSums", &WanRoundCounters::partialSums},
                                           {"nacks", &WanRoundCounters::nacks},
                                           {"retransmissions", &WanRoundCounters::retransmissions},
                                           {"expected", &WanRoundCounters::expected},
                                           {"delivered", &WanRoundCounters::delivered},
                                           {"late", &WanRoundCounters::late},
                                           {"requested", &WanRoundCounters::requested},
                                           {"requests", &WanRoundCounters::requests},
                                           {"recovered", &WanRoundCounters::recovered},
                                           {"givenUp", &WanRoundCounters::givenUp},
                                           {"discarded", &WanRoundCounters::discarded},
                                           {"repairsSent", &WanRoundCounters::repairsSent},
                                           {"dropped", &WanRoundCounters::dropped},
                                           {"paritySent", &WanRoundCounters::paritySent},
                                           {"rebuilt", &WanRoundCounters::rebuilt},
                                           {"parityBlocks", &WanRoundCounters::parityBlocks},
                                           {"paritySymbols", &WanRoundCounters::paritySymbols},
                                           {"erasures", &WanRoundCounters::erasures},
                                           {"blocksShort", &WanRoundCounters::blocksShort},
                                           {"parityRows", &WanRoundCounters::parityRows},
                                           {"lossReports", &WanRoundCounters::lossReports}};
    return fields;
}

WanRoundCounters&
WanRoundCounters::operator+=(const WanRoundCounters& other)
{
    for (const auto& [name, field] : Fields())
    {
        this->*field += other.*field;
    }
    return *this;
}

WanRoundCounters
operator+(WanRoundCounters a, const WanRoundCounters& b)
{
    a += b;
    return a;
}

} // namespace ns3
