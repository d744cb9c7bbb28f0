/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-bfd-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(WanBfdHeader);

namespace
{

/// BFD version.
const uint8_t kVersion = 1;
/// Bytes of a control packet without authentication.
const uint8_t kLength = 24;
/// Flag bits of the second byte (after the two state bits).
const uint8_t kPoll = 0x20;
const uint8_t kFinal = 0x10; //!< F
const uint8_t kAuth = 0x04;  //!< A: authentication present (not supported)

} // namespace

TypeId
WanBfdHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::WanBfdHeader")
                            .SetParent<Header>()
                            .SetGroupName("WanTraining")
                            .AddConstructor<WanBfdHeader>();
    return tid;
}

TypeId
WanBfdHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
WanBfdHeader::GetSerializedSize() const
{
    return kLength;
}

void
WanBfdHeader::Serialize(Buffer::Iterator i) const
{
    i.WriteU8(static_cast<uint8_t>(kVersion << 5 | (diagnostic & 0x1f)));
    i.WriteU8(static_cast<uint8_t>(state << 6 | (poll ? kPoll : 0) | (final ? kFinal : 0)));
    i.WriteU8(detectMultiplier);
    i.WriteU8(kLength);
    i.WriteHtonU32(myDiscriminator);
    i.WriteHtonU32(yourDiscriminator);
    i.WriteHtonU32(desiredMinTxUs);
    i.WriteHtonU32(requiredMinRxUs);
    i.WriteHtonU32(requiredMinEchoRxUs);
}

uint32_t
WanBfdHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    if (i.GetRemainingSize() < kLength)
    {
        return 0;
    }
    WanBfdHeader h;
    const uint8_t first = i.ReadU8();
    const uint8_t second = i.ReadU8();
    h.detectMultiplier = i.ReadU8();
    const uint8_t length = i.ReadU8();
    h.myDiscriminator = i.ReadNtohU32();
    h.yourDiscriminator = i.ReadNtohU32();
    h.desiredMinTxUs = i.ReadNtohU32();
    h.requiredMinRxUs = i.ReadNtohU32();
    h.requiredMinEchoRxUs = i.ReadNtohU32();
    // RFC 5880 section 6.8.6: the checks a receiver makes before it looks further.
    if (first >> 5 != kVersion || length != kLength || (second & kAuth) != 0 ||
        h.detectMultiplier == 0 || h.myDiscriminator == 0)
    {
        return 0;
    }
    h.diagnostic = static_cast<Diagnostic>(first & 0x1f);
    h.state = static_cast<State>(second >> 6);
    h.poll = (second & kPoll) != 0;
    h.final = (second & kFinal) != 0;
    *this = h;
    return kLength;
}

void
WanBfdHeader::Print(std::ostream& os) const
{
    static const char* const names[] = {"AdminDown", "Down", "Init", "Up"};
    os << "BFD state=" << names[state] << " diag=" << int(diagnostic)
       << " mult=" << int(detectMultiplier) << " my=" << myDiscriminator
       << " your=" << yourDiscriminator << " tx=" << desiredMinTxUs << "us rx=" << requiredMinRxUs
       << "us" << (poll ? " P" : "") << (final ? " F" : "");
}

} // namespace ns3
