/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_BFD_SESSION_H
#define WAN_BFD_SESSION_H

#include "wan-bfd-header.h"

#include "ns3/nstime.h"

#include <cstdint>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief The state machine of one BFD session in asynchronous mode (RFC 5880
 * sections 6.2, 6.8.1 to 6.8.7), without authentication, demand mode or
 * echo: what a router's end of a core link does with the control packets it
 * receives, when its detection timer expires and how often it transmits.
 *
 * A plain class: the caller gives it packets and the time, and sends what
 * MakePacket returns every GetTransmitInterval.  Detection time is the
 * remote detect multiplier times the larger of the local required minimum
 * receive interval and the remote desired minimum transmit interval; the
 * transmit interval is the larger of the local desired minimum transmit
 * interval (at least 1 s while the session is not Up, as the RFC requires)
 * and the remote required minimum receive interval, reduced by a random 0
 * to 25% (10 to 25% with a detect multiplier of 1).
 */
class WanBfdSession
{
  public:
    /// The local end's parameters.
    struct Config
    {
        uint32_t myDiscriminator{1};          //!< non-zero, unique on the router
        Time desiredMinTx{MilliSeconds(10)};  //!< desired minimum transmit interval (> 0)
        Time requiredMinRx{MilliSeconds(10)}; //!< required minimum receive interval (> 0)
        uint8_t detectMultiplier{3};          //!< detect time multiplier (>= 1)
    };

    /**
     * @param config the local end's parameters; a zero discriminator,
     *        multiplier or interval throws std::invalid_argument
     */
    explicit WanBfdSession(const Config& config);

    /** @return the control packet this end sends now */
    WanBfdHeader MakePacket() const;
    /**
     * @brief Processes a received control packet (RFC 5880 section 6.8.6).
     * @param packet the packet
     * @param now when it arrived
     * @return false when it was discarded (not for this session)
     */
    bool Receive(const WanBfdHeader& packet, Time now);
    /**
     * @brief Checks the detection timer.
     * @param now the time
     * @return true when the session went down now, its detection time past
     *         since the last packet received (diagnostic DETECTION_TIME)
     */
    bool CheckDetection(Time now);
    /**
     * @param u a uniform random number in [0, 1) (the caller's stream)
     * @return the interval until the next transmission, jittered
     */
    Time GetTransmitInterval(double u) const;
    /** @return the detection time (zero while nothing was heard) */
    Time GetDetectionTime() const;
    /** @return the session state */
    WanBfdHeader::State GetState() const;
    /** @return why the session last went down */
    WanBfdHeader::Diagnostic GetDiagnostic() const;
    /** @return when the last packet was received */
    Time GetLastReceived() const;

  private:
    Config m_config;                                                    //!< the local end
    WanBfdHeader::State m_state{WanBfdHeader::DOWN};                    //!< session state
    WanBfdHeader::Diagnostic m_diagnostic{WanBfdHeader::NO_DIAGNOSTIC}; //!< last diagnostic
    uint32_t m_remoteDiscriminator{0}; //!< the remote end's discriminator (0: not heard)
    uint8_t m_remoteMultiplier{0};     //!< its detect multiplier
    Time m_remoteDesiredMinTx;         //!< its desired minimum transmit interval
    Time m_remoteRequiredMinRx;        //!< its required minimum receive interval
    Time m_lastReceived;               //!< last packet received
};

} // namespace ns3

#endif /* WAN_BFD_SESSION_H */
