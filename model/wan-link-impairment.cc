/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-link-impairment.h"

#include "wan-delay-process.h"
#include "wan-jitter-channel.h"
#include "wan-training-compat.h"
#include "wan-training-text.h"

#include "ns3/double.h"
#include "ns3/nstime.h"
#include "ns3/pointer.h"
#include "ns3/string.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

namespace ns3
{

namespace
{

/// A jitter distribution's value from its name (WanDelayProcess's Distribution).
WanDelayProcess::Distribution
DistributionOf(const std::string& name)
{
    return wancompat::EnumFromName<WanDelayProcess::Distribution>(WanDelayProcess::GetTypeId(),
                                                                  "Distribution",
                                                                  name,
                                                                  "jitter distribution");
}

} // namespace

void
WanLinkImpairment::Validate(const std::string& where) const
{
    ValidateValues(where);
    if (reorder && IsCorrelated())
    {
        throw std::invalid_argument(where + ": reorder needs the independent jitter model (a "
                                            "correlated delay is one path's, which keeps order)");
    }
}

void
WanLinkImpairment::ValidateValues(const std::string& where) const
{
    namespace bounds = wantext::bounds;
    bounds::kLossRate.Check(lossRate, where + ": loss rate");
    bounds::kLossBurst.Check(burstLength, where + ": loss burst length");
    bounds::kJitterMs.Check(jitterSeconds * 1e3, where + ": jitter");
    // The names are the attributes' (WanDelayProcess::Distribution,
    // WanJitterChannel::Model), which the channel is configured with.
    try
    {
        DistributionOf(jitterDistribution);
        wancompat::RequireEnumName(WanJitterChannel::GetTypeId(),
                                   "Model",
                                   jitterModel,
                                   "jitter model");
    }
    catch (const std::invalid_argument& e)
    {
        throw std::invalid_argument(where + ": " + e.what());
    }
    bounds::kJitterCorrelationMs.Check(jitterCorrelationSeconds * 1e3,
                                       where + ": jitter correlation time");
}

void
WanLinkImpairment::ValidateOwn(const std::string& where, uint32_t fields) const
{
    if (fields == ALL_FIELDS)
    {
        Validate(where);
    }
    else if (fields != 0)
    {
        ValidateValues(where);
    }
}

std::string
WanLinkImpairment::DefaultJitterDistribution()
{
    return wancompat::AttributeDefaultText(WanDelayProcess::GetTypeId(), "Distribution");
}

std::string
WanLinkImpairment::DefaultJitterModel()
{
    return wancompat::AttributeDefaultText(WanJitterChannel::GetTypeId(), "Model");
}

bool
WanLinkImpairment::IsCorrelated() const
{
    return wancompat::EnumFromName<WanJitterChannel::Model>(WanJitterChannel::GetTypeId(),
                                                            "Model",
                                                            jitterModel,
                                                            "jitter model") ==
           WanJitterChannel::CORRELATED;
}

bool
WanLinkImpairment::HasLoss() const
{
    return lossRate > 0;
}

bool
WanLinkImpairment::HasJitter() const
{
    return jitterSeconds > 0 || reorder;
}

Ptr<ErrorModel>
WanLinkImpairment::MakeErrorModel() const
{
    if (!HasLoss())
    {
        return nullptr;
    }
    if (burstLength <= 1)
    {
        auto model = CreateObject<RateErrorModel>();
        model->SetUnit(RateErrorModel::ERROR_UNIT_PACKET);
        model->SetRate(lossRate);
        return model;
    }
    // ns-3's BurstErrorModel draws at every packet, and a draw below p starts
    // (or restarts) a burst of L: a packet is kept only when the last L draws
    // all missed, so the loss fraction is 1 - (1 - p)^L = lossRate.
    const double length = std::round(burstLength);
    const double p = 1 - std::pow(1 - lossRate, 1 / length);
    auto size = CreateObject<ConstantRandomVariable>();
    size->SetAttribute("Constant", DoubleValue(length));
    auto model = CreateObject<BurstErrorModel>();
    model->SetAttribute("BurstSize", PointerValue(size));
    model->SetBurstRate(p);
    return model;
}

ObjectFactory
WanLinkImpairment::MakeDelayProcess() const
{
    ObjectFactory factory;
    factory.SetTypeId(WanDelayProcess::GetTypeId());
    factory.Set("StdDev", TimeValue(Seconds(jitterSeconds)));
    factory.Set("CorrelationTime", TimeValue(Seconds(jitterCorrelationSeconds)));
    factory.Set("Distribution", StringValue(jitterDistribution));
    return factory;
}

Ptr<RandomVariableStream>
WanLinkImpairment::MakeJitter() const
{
    const double sd = jitterSeconds;
    const auto distribution = DistributionOf(jitterDistribution);
    if (distribution == WanDelayProcess::UNIFORM)
    {
        auto u = CreateObject<UniformRandomVariable>();
        u->SetAttribute("Min", DoubleValue(0));
        u->SetAttribute("Max", DoubleValue(sd * std::sqrt(12.0)));
        return u;
    }
    if (distribution == WanDelayProcess::NORMAL)
    {
        auto n = CreateObject<NormalRandomVariable>();
        n->SetAttribute("Mean", DoubleValue(3 * sd));
        n->SetAttribute("Variance", DoubleValue(sd * sd));
        n->SetAttribute("Bound", DoubleValue(3 * sd));
        return n;
    }
    auto e = CreateObject<ExponentialRandomVariable>();
    e->SetAttribute("Mean", DoubleValue(sd));
    e->SetAttribute("Bound", DoubleValue(0));
    return e;
}

WanLinkImpairment
WanLinkImpairment::Over(const WanLinkImpairment& base, uint32_t fields) const
{
    WanLinkImpairment merged = base;
    auto take = [&](Field field, auto member) {
        if (fields & field)
        {
            merged.*member = this->*member;
        }
    };
    take(LOSS_RATE, &WanLinkImpairment::lossRate);
    take(LOSS_BURST, &WanLinkImpairment::burstLength);
    take(JITTER, &WanLinkImpairment::jitterSeconds);
    take(JITTER_DISTRIBUTION, &WanLinkImpairment::jitterDistribution);
    take(JITTER_MODEL, &WanLinkImpairment::jitterModel);
    take(JITTER_CORRELATION, &WanLinkImpairment::jitterCorrelationSeconds);
    take(REORDER, &WanLinkImpairment::reorder);
    return merged;
}

std::string
WanLinkImpairment::Describe(uint32_t fields) const
{
    std::ostringstream text;
    const char* sep = "";
    auto item = [&](Field field, auto&&... parts) {
        if (fields & field)
        {
            text << sep;
            (text << ... << parts);
            sep = ", ";
        }
    };
    item(LOSS_RATE, "loss ", lossRate * 100, "%");
    item(LOSS_BURST, "loss burst ", burstLength, " packets");
    item(JITTER, "jitter ", jitterSeconds * 1e3, " ms");
    item(JITTER_DISTRIBUTION, "jitter distribution ", jitterDistribution);
    item(JITTER_MODEL, "jitter model ", jitterModel);
    item(JITTER_CORRELATION, "jitter correlation ", jitterCorrelationSeconds * 1e3, " ms");
    item(REORDER, "reorder ", reorder ? "true" : "false");
    return text.str();
}

} // namespace ns3
