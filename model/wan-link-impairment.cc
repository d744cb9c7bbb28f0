/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-link-impairment.h"

#include "wan-training-text.h"

#include "ns3/double.h"
#include "ns3/pointer.h"

#include <cmath>
#include <stdexcept>

namespace ns3
{

void
WanLinkImpairment::Validate(const std::string& where) const
{
    if (!(lossRate >= 0 && lossRate <= 1))
    {
        throw std::invalid_argument(where + ": loss rate must be in [0, 1] (got " +
                                    wantext::Num(lossRate) + ")");
    }
    if (!(burstLength >= 1) || std::isinf(burstLength))
    {
        throw std::invalid_argument(where + ": loss burst length must be at least 1 packet (got " +
                                    wantext::Num(burstLength) + ")");
    }
    if (!(jitterSeconds >= 0) || std::isinf(jitterSeconds))
    {
        throw std::invalid_argument(where + ": jitter must be zero or positive (got " +
                                    wantext::Num(jitterSeconds * 1e3) + " ms)");
    }
    if (jitterDistribution != "exponential" && jitterDistribution != "uniform" &&
        jitterDistribution != "normal")
    {
        throw std::invalid_argument(where + ": unknown jitter distribution \"" +
                                    jitterDistribution +
                                    "\" (expected exponential, uniform or normal)");
    }
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
    // A burst of L packets starts with probability p at a packet outside a
    // burst, so the loss fraction is p L / (1 + p (L - 1)) = lossRate.
    const double length = std::round(burstLength);
    const double p = lossRate >= 1 ? 1 : lossRate / (length - lossRate * (length - 1));
    auto size = CreateObject<ConstantRandomVariable>();
    size->SetAttribute("Constant", DoubleValue(length));
    auto model = CreateObject<BurstErrorModel>();
    model->SetAttribute("BurstSize", PointerValue(size));
    model->SetBurstRate(p);
    return model;
}

Ptr<RandomVariableStream>
WanLinkImpairment::MakeJitter() const
{
    const double sd = jitterSeconds;
    if (jitterDistribution == "uniform")
    {
        auto u = CreateObject<UniformRandomVariable>();
        u->SetAttribute("Min", DoubleValue(0));
        u->SetAttribute("Max", DoubleValue(sd * std::sqrt(12.0)));
        return u;
    }
    if (jitterDistribution == "normal")
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

} // namespace ns3
