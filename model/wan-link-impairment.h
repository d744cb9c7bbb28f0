/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef WAN_LINK_IMPAIRMENT_H
#define WAN_LINK_IMPAIRMENT_H

#include "ns3/error-model.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/random-variable-stream.h"

#include <cstdint>
#include <string>

namespace ns3
{

/**
 * @ingroup wan-training
 * @brief What a WAN does to the packets of one link: loss (uniform or in
 * bursts) and random extra delay (jitter), with or without reordering.
 *
 * Loss: each packet is lost with probability lossRate.  With burstLength 1
 * losses are independent (ns-3's RateErrorModel); with burstLength L > 1 they
 * come in bursts of L packets (ns-3's BurstErrorModel), the burst start rate
 * chosen so that the long-run loss fraction is still lossRate.
 *
 * Jitter: each packet takes an extra delay with standard deviation
 * jitterSeconds and the stationary distribution jitterDistribution:
 * "exponential" (mean = standard deviation), "uniform" (on [0, sqrt(12) sd])
 * or "normal" (mean 3 sd, truncated to [0, 6 sd]).  jitterModel says how the
 * delays of successive packets relate: "correlated" (the default) makes the
 * delay a process in time with correlation time jitterCorrelationSeconds
 * (WanDelayProcess, one per link direction), as a single path's queueing
 * varies; "independent" draws each packet's delay on its own, as a path that
 * balances over routes does, and with reorder lets packets overtake each
 * other (reorder needs the independent model).  Links with jitter use a
 * WanJitterChannel.
 */
struct WanLinkImpairment
{
    double lossRate{0};      //!< packet loss probability, [0, 1)
    double burstLength{1};   //!< mean packets per loss event, 1 to 1000
    double jitterSeconds{0}; //!< extra delay's standard deviation, 0 to 1 s
    /// exponential, uniform or normal (WanDelayProcess's Distribution; its default)
    std::string jitterDistribution{DefaultJitterDistribution()};
    /// correlated or independent (WanJitterChannel's Model; its default)
    std::string jitterModel{DefaultJitterModel()};
    double jitterCorrelationSeconds{0.01}; //!< correlated: tau, 1 us to 1000 s
    bool reorder{false};                   //!< independent: allow packets to overtake

    /**
     * @brief Checks the values against their ranges (loss rate 0 to less
     * than 1, burst 1 to 1000 packets, jitter 0 to 1000 ms, correlation time
     * 0.001 to 1e6 ms) and the names (distribution, model; reorder only
     * with the independent model); throws std::invalid_argument naming the
     * value, its range and the link.
     * @param where the link or link class, for the message
     */
    void Validate(const std::string& where) const;

    /**
     * @brief Checks the values against their ranges and the names, as
     * Validate does, but not how the fields go together (reorder with the
     * model): for a link's own fields, which the link's class completes.
     * @param where the link, for the message
     */
    void ValidateValues(const std::string& where) const;

    /**
     * @brief Checks a link's own fields: all of them as Validate does, some
     * of them as ValidateValues does (the link's class completes them and
     * the network checks the whole), none not at all.
     * @param where the link, for the message
     * @param fields the link's own fields (Field bits)
     */
    void ValidateOwn(const std::string& where, uint32_t fields) const;
    /** @return the default of WanDelayProcess's Distribution attribute, by name */
    static std::string DefaultJitterDistribution();
    /** @return the default of WanJitterChannel's Model attribute, by name */
    static std::string DefaultJitterModel();
    /** @return true when the link loses packets */
    bool HasLoss() const;
    /** @return true when the link delays packets at random */
    bool HasJitter() const;
    /** @return a receive error model for the loss (null without loss) */
    Ptr<ErrorModel> MakeErrorModel() const;
    /** @return true for the correlated jitter model */
    bool IsCorrelated() const;
    /** @return the independent model's extra-delay random variable (seconds) */
    Ptr<RandomVariableStream> MakeJitter() const;
    /**
     * @return the correlated model's delay process, as a factory of
     *         WanDelayProcess (one per link direction)
     */
    ObjectFactory MakeDelayProcess() const;

    /**
     * @brief The fields of an impairment, one bit each: those a topology file
     * names for one link replace its link class's, the others stay the
     * class's (Over).
     */
    enum Field : uint32_t
    {
        LOSS_RATE = 1U << 0,           //!< lossRate ("loss_rate")
        LOSS_BURST = 1U << 1,          //!< burstLength ("loss_burst")
        JITTER = 1U << 2,              //!< jitterSeconds ("jitter_ms")
        JITTER_DISTRIBUTION = 1U << 3, //!< jitterDistribution ("jitter_distribution")
        JITTER_MODEL = 1U << 4,        //!< jitterModel ("jitter_model")
        JITTER_CORRELATION = 1U << 5,  //!< jitterCorrelationSeconds ("jitter_correlation_ms")
        REORDER = 1U << 6,             //!< reorder ("reorder")
        ALL_FIELDS = (1U << 7) - 1,    //!< every field
    };

    /**
     * @param base the impairment of the link's class
     * @param fields the fields to take from this one (Field bits)
     * @return base, with those fields replaced by this one's
     */
    WanLinkImpairment Over(const WanLinkImpairment& base, uint32_t fields) const;

    /**
     * @param fields the fields to describe (Field bits)
     * @return those fields as text, e.g. "loss 1%, jitter 0 ms"
     */
    std::string Describe(uint32_t fields) const;
};

} // namespace ns3

#endif /* WAN_LINK_IMPAIRMENT_H */
