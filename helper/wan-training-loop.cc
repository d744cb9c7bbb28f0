/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-training-loop.h"

#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/rng-seed-manager.h"
#include "ns3/uinteger.h"
#include "ns3/wan-training-compat.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTrainingLoop");

NS_OBJECT_ENSURE_REGISTERED(WanTrainingLoop);

namespace
{

/// Throws std::invalid_argument with the message unless the condition holds.
void
Require(bool condition, const std::string& message)
{
    if (!condition)
    {
        throw std::invalid_argument("training loop: " + message);
    }
}

/// @return the row-sum of max(0, received - mixing), summed over the rows
double
Carried(const WanMatrix& mixing, const WanMatrix& received)
{
    double carried = 0;
    for (size_t i = 0; i < mixing.size(); ++i)
    {
        for (size_t j = 0; j < mixing[i].size(); ++j)
        {
            carried += std::max(0.0, received[i][j] - mixing[i][j]);
        }
    }
    return carried;
}

/// @return the round's time, ms: when its slowest island that averaged did
double
RoundMs(const WanRoundResult& round)
{
    if (std::isfinite(round.mixedMs))
    {
        return round.mixedMs;
    }
    double slowest = 0;
    for (const auto& island : round.islands)
    {
        slowest = std::max(slowest, island.mixedMs);
    }
    return slowest;
}

} // namespace

TypeId
WanTrainingLoop::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::WanTrainingLoop")
            .SetParent<ObjectBase>()
            .SetGroupName("WanTraining")
            .AddAttribute("Workload",
                          "The local losses: quadratic (random isotropic quadratics) or "
                          "logistic (logistic regression on skewed shares)",
                          EnumValue(WanTrainingLoop::QUADRATIC),
                          wancompat::MakeEnumMemberAccessor(&WanTrainingLoop::m_workload),
                          MakeEnumChecker(WanTrainingLoop::QUADRATIC,
                                          "quadratic",
                                          WanTrainingLoop::LOGISTIC,
                                          "logistic"))
            .AddAttribute(
                "Policy",
                "What islands average: wait (what they held when they averaged) or "
                "quorum (that, and what arrived after it, one round late)",
                EnumValue(WanTrainingLoop::WAIT),
                wancompat::MakeEnumMemberAccessor(&WanTrainingLoop::m_policy),
                MakeEnumChecker(WanTrainingLoop::WAIT, "wait", WanTrainingLoop::QUORUM, "quorum"))
            .AddAttribute("Rounds",
                          "Training rounds (0: as many as the packet level ran); the packet "
                          "rounds are taken in turn",
                          UintegerValue(0),
                          MakeUintegerAccessor(&WanTrainingLoop::m_rounds),
                          MakeUintegerChecker<uint32_t>(0, 1000000))
            .AddAttribute("ComputeTime",
                          "Compute time of one local step",
                          TimeValue(Seconds(0)),
                          MakeTimeAccessor(&WanTrainingLoop::m_computeTime),
                          MakeTimeChecker(Seconds(0)))
            .AddAttribute("StepSize",
                          "Step size eta of the local gradient steps",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&WanTrainingLoop::m_stepSize),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("LocalSteps",
                          "Local gradient steps tau per round",
                          UintegerValue(1),
                          MakeUintegerAccessor(&WanTrainingLoop::m_localSteps),
                          MakeUintegerChecker<uint32_t>(1, 100000))
            .AddAttribute("Dimension",
                          "Quadratic: dimension d of the model",
                          UintegerValue(10),
                          MakeUintegerAccessor(&WanTrainingLoop::m_dimension),
                          MakeUintegerChecker<uint32_t>(1, 100000))
            .AddAttribute("Heterogeneity",
                          "Quadratic: spread of the islands' optima around the common one",
                          DoubleValue(0.5),
                          MakeDoubleAccessor(&WanTrainingLoop::m_heterogeneity),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("GradientNoise",
                          "Standard deviation of a stochastic gradient's noise per coordinate "
                          "and local step (0: full gradients)",
                          DoubleValue(0),
                          MakeDoubleAccessor(&WanTrainingLoop::m_gradientNoise),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("Skew",
                          "Logistic: share of class 1 at island 0, falling linearly to 1 - Skew "
                          "at the last island (0.5: identical shares)",
                          DoubleValue(0.9),
                          MakeDoubleAccessor(&WanTrainingLoop::m_skew),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("InitialSpread",
                          "Standard deviation of the random initial models per coordinate",
                          DoubleValue(1),
                          MakeDoubleAccessor(&WanTrainingLoop::m_initialSpread),
                          MakeDoubleChecker<double>(0))
            .AddAttribute("TargetGap",
                          "The target loss: f* + TargetGap x (the initial loss - f*)",
                          DoubleValue(0.05),
                          MakeDoubleAccessor(&WanTrainingLoop::m_targetGap),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("Seed",
                          "Base seed of the workload and the initial models (with RngRun)",
                          UintegerValue(1),
                          MakeUintegerAccessor(&WanTrainingLoop::m_seed),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

TypeId
WanTrainingLoop::GetInstanceTypeId() const
{
    return GetTypeId();
}

WanTrainingLoop::WanTrainingLoop()
{
    ConstructSelf(AttributeConstructionList()); // the attributes' defaults
}

void
WanTrainingLoop::SetWorkload(const std::string& name)
{
    m_workload = wancompat::EnumFromName<Workload>(GetTypeId(), "Workload", name, "workload");
}

void
WanTrainingLoop::SetPolicy(const std::string& name)
{
    m_policy = wancompat::EnumFromName<Policy>(GetTypeId(), "Policy", name, "training policy");
}

uint64_t
WanTrainingLoop::Seed() const
{
    return m_seed * 1000003 + RngSeedManager::GetRun();
}

double
WanTrainingLoop::ComputeSeconds() const
{
    return m_computeTime.GetSeconds() * m_localSteps;
}

WanTrainingWorkload
WanTrainingLoop::MakeWorkload(uint32_t nIslands) const
{
    if (m_workload == LOGISTIC)
    {
        WanLogisticSettings s;
        s.islands = nIslands;
        s.skew = m_skew;
        s.seed = Seed();
        return WanTrainingWorkload::Logistic(s);
    }
    WanQuadraticSettings s;
    s.islands = nIslands;
    s.dimension = m_dimension;
    s.heterogeneity = m_heterogeneity;
    s.seed = Seed();
    return WanTrainingWorkload::RandomQuadratic(s);
}

WanGossipTraining
WanTrainingLoop::MakeTraining(uint32_t nIslands) const
{
    WanGossipSettings settings;
    settings.stepSize = m_stepSize;
    settings.localSteps = m_localSteps;
    settings.initialSpread = m_initialSpread;
    settings.gradientNoise = m_gradientNoise;
    settings.seed = Seed() + 1; // the models' stream apart from the workload's
    return WanGossipTraining(MakeWorkload(nIslands), settings);
}

WanTrainingRunResult
WanTrainingLoop::Train(const WanExperimentResult& result) const
{
    NS_LOG_FUNCTION(this << result.schedule);
    Require(result.feasible,
            "schedule " + result.schedule + " was not run (" + result.reason + ")");
    Require(!result.rounds.empty(), "schedule " + result.schedule + " ran no rounds");
    const auto n = static_cast<uint32_t>(result.rounds[0].mixing.size());
    Require(n >= 1, "round 1 of " + result.schedule + " has no mixing matrix");
    for (const auto& round : result.rounds)
    {
        Require(round.mixingReceived.size() == n,
                "round " + std::to_string(round.round + 1) + " of " + result.schedule +
                    " has a received matrix of " + std::to_string(round.mixingReceived.size()) +
                    " rows (need " + std::to_string(n) + ")");
    }

    WanTrainingRunResult out;
    out.workload = wancompat::EnumName(GetTypeId(), "Workload", m_workload);
    out.policy = wancompat::EnumName(GetTypeId(), "Policy", m_policy);
    out.computeS = ComputeSeconds();
    WanGossipTraining training = MakeTraining(n);
    out.minimumLoss = training.GetWorkload().GetMinimumLoss();
    const double initial = training.GetHistory().front().modelLoss;
    out.targetLoss = out.minimumLoss + m_targetGap * (initial - out.minimumLoss);

    const auto packetRounds = static_cast<uint32_t>(result.rounds.size());
    const uint32_t rounds = m_rounds == 0 ? packetRounds : m_rounds;
    double carried = 0;
    for (uint32_t k = 0; k < rounds; ++k)
    {
        const auto& round = result.rounds[k % packetRounds];
        const double roundS = RoundMs(round) / 1e3;
        if (m_policy == QUORUM)
        {
            training.RunRound(round.mixing, round.mixingReceived, out.computeS, roundS);
            carried += Carried(round.mixing, round.mixingReceived) / n;
        }
        else
        {
            training.RunRound(round.mixing, out.computeS, roundS);
        }
        out.packetRounds.push_back(k % packetRounds + 1);
    }
    out.history = training.GetHistory();
    out.carriedWeight = carried / rounds;
    if (const auto reached = training.GetFirstAtLoss(out.targetLoss, true))
    {
        out.timeToTargetS = reached->timeS;
        out.roundsToTarget = reached->round;
    }
    NS_LOG_INFO(result.schedule << " " << out.policy << ": " << rounds << " rounds, final loss "
                                << out.history.back().modelLoss << ", target " << out.targetLoss
                                << " at " << out.timeToTargetS << " s");
    return out;
}

} // namespace ns3
