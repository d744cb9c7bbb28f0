/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-bfd-session.h"

#include "ns3/log.h"

#include <algorithm>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanBfdSession");

namespace
{

/// While a session is not Up it transmits at most once a second (RFC 5880 6.8.3).
const Time kSlowTx = Seconds(1);
/// The largest interval the 32-bit microsecond fields hold.
const Time kMaxInterval = MicroSeconds(UINT32_MAX);

/// @return an interval in whole microseconds for the packet's fields
uint32_t
Microseconds(Time t)
{
    return static_cast<uint32_t>(t.GetMicroSeconds());
}

} // namespace

WanBfdSession::WanBfdSession(const Config& config)
    : m_config(config)
{
    if (config.myDiscriminator == 0)
    {
        throw std::invalid_argument("BFD: my discriminator must be non-zero");
    }
    if (config.detectMultiplier == 0)
    {
        throw std::invalid_argument("BFD: the detect multiplier must be at least 1");
    }
    for (const auto& [t, what] : {std::pair{config.desiredMinTx, "desired minimum transmit"},
                                  std::pair{config.requiredMinRx, "required minimum receive"}})
    {
        if (!t.IsStrictlyPositive() || t > kMaxInterval || t.GetMicroSeconds() < 1)
        {
            throw std::invalid_argument(std::string("BFD: the ") + what +
                                        " interval must be from 1 us to 4295 s");
        }
    }
}

WanBfdHeader
WanBfdSession::MakePacket() const
{
    WanBfdHeader h;
    h.state = m_state;
    h.diagnostic = m_diagnostic;
    h.detectMultiplier = m_config.detectMultiplier;
    h.myDiscriminator = m_config.myDiscriminator;
    h.yourDiscriminator = m_remoteDiscriminator;
    h.desiredMinTxUs =
        Microseconds(m_state == WanBfdHeader::UP ? m_config.desiredMinTx
                                                 : std::max(m_config.desiredMinTx, kSlowTx));
    h.requiredMinRxUs = Microseconds(m_config.requiredMinRx);
    return h;
}

bool
WanBfdSession::Receive(const WanBfdHeader& p, Time now)
{
    // Section 6.8.6: packets for another session, or that do not know this
    // one while it is past Down, are discarded.
    if (p.yourDiscriminator != 0 && p.yourDiscriminator != m_config.myDiscriminator)
    {
        return false;
    }
    if (p.yourDiscriminator == 0 && m_state != WanBfdHeader::DOWN &&
        m_state != WanBfdHeader::ADMIN_DOWN)
    {
        return false;
    }
    m_remoteDiscriminator = p.myDiscriminator;
    m_remoteMultiplier = p.detectMultiplier;
    m_remoteDesiredMinTx = MicroSeconds(p.desiredMinTxUs);
    m_remoteRequiredMinRx = MicroSeconds(p.requiredMinRxUs);
    m_lastReceived = now;
    if (m_state == WanBfdHeader::ADMIN_DOWN)
    {
        return false;
    }
    const auto before = m_state;
    if (p.state == WanBfdHeader::ADMIN_DOWN)
    {
        if (m_state != WanBfdHeader::DOWN)
        {
            m_diagnostic = WanBfdHeader::NEIGHBOR_DOWN;
            m_state = WanBfdHeader::DOWN;
        }
    }
    else if (m_state == WanBfdHeader::DOWN)
    {
        if (p.state == WanBfdHeader::DOWN)
        {
            m_state = WanBfdHeader::INIT;
        }
        else if (p.state == WanBfdHeader::INIT)
        {
            m_state = WanBfdHeader::UP;
        }
    }
    else if (m_state == WanBfdHeader::INIT)
    {
        if (p.state == WanBfdHeader::INIT || p.state == WanBfdHeader::UP)
        {
            m_state = WanBfdHeader::UP;
        }
    }
    else if (p.state == WanBfdHeader::DOWN) // Up
    {
        m_diagnostic = WanBfdHeader::NEIGHBOR_DOWN;
        m_state = WanBfdHeader::DOWN;
    }
    NS_LOG_LOGIC("discriminator " << m_config.myDiscriminator << ": " << int(before) << " -> "
                                  << int(m_state));
    return true;
}

bool
WanBfdSession::CheckDetection(Time now)
{
    if ((m_state != WanBfdHeader::UP && m_state != WanBfdHeader::INIT) ||
        now - m_lastReceived < GetDetectionTime())
    {
        return false;
    }
    m_state = WanBfdHeader::DOWN;
    m_diagnostic = WanBfdHeader::DETECTION_TIME;
    m_remoteDiscriminator = 0; // section 6.8.1: forgotten once the session is down
    return true;
}

Time
WanBfdSession::GetTransmitInterval(double u) const
{
    Time desired = m_config.desiredMinTx;
    if (m_state != WanBfdHeader::UP)
    {
        desired = std::max(desired, kSlowTx);
    }
    const Time interval = std::max(desired, m_remoteRequiredMinRx);
    // Section 6.8.7: less a random 0 to 25% (10 to 25% with a multiplier of 1).
    const double cut = m_config.detectMultiplier == 1 ? 0.10 + 0.15 * u : 0.25 * u;
    return interval * (1 - cut);
}

Time
WanBfdSession::GetDetectionTime() const
{
    return std::max(m_config.requiredMinRx, m_remoteDesiredMinTx) * int64_t{m_remoteMultiplier};
}

WanBfdHeader::State
WanBfdSession::GetState() const
{
    return m_state;
}

WanBfdHeader::Diagnostic
WanBfdSession::GetDiagnostic() const
{
    return m_diagnostic;
}

Time
WanBfdSession::GetLastReceived() const
{
    return m_lastReceived;
}

} // namespace ns3
