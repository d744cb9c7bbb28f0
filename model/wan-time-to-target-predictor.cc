/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "wan-time-to-target-predictor.h"

#include "wan-training-text.h"

#include "ns3/log.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("WanTimeToTargetPredictor");

namespace
{

/// Rounds after which a gap sequence that has not settled is refused.
constexpr uint64_t kMaxRounds = 10000000;
/// Relative change of a period's gaps under which they have settled.
constexpr double kSettled = 1e-12;

/// Throws std::invalid_argument with the predictor's prefix unless ok.
void
Require(bool ok, const std::string& what)
{
    if (!ok)
    {
        throw std::invalid_argument("time-to-target predictor: " + what);
    }
}

/// @return the period's mixing matrices as Eigen's, once for a whole run
std::vector<Eigen::MatrixXd>
Mixings(const std::vector<WanPredictorRound>& period)
{
    std::vector<Eigen::MatrixXd> out;
    for (const auto& round : period)
    {
        const auto& m = round.mixing;
        Eigen::MatrixXd e(m.size(), m.size());
        for (size_t i = 0; i < m.size(); ++i)
        {
            for (size_t j = 0; j < m.size(); ++j)
            {
                e(i, j) = m[i][j];
            }
        }
        out.push_back(e);
    }
    return out;
}

/// @return the rows as an N x d Eigen matrix, each of dimension d
Eigen::MatrixXd
Rows(const std::vector<std::vector<double>>& rows, size_t d, const std::string& what)
{
    Eigen::MatrixXd out(rows.size(), d);
    for (size_t i = 0; i < rows.size(); ++i)
    {
        Require(rows[i].size() == d,
                what + " " + std::to_string(i) + " has " + std::to_string(rows[i].size()) +
                    " numbers (need " + std::to_string(d) + ")");
        for (size_t k = 0; k < d; ++k)
        {
            out(i, k) = rows[i][k];
        }
    }
    return out;
}

/// @return the squared distances of x from its mean, averaged, and the mean's from `to`
std::pair<double, double>
SpreadAndMean(const Eigen::MatrixXd& x, const Eigen::RowVectorXd& to)
{
    const Eigen::RowVectorXd mean = x.colwise().mean();
    const double spread = (x.rowwise() - mean).squaredNorm() / x.rows();
    return {spread, (mean - to).squaredNorm()};
}

} // namespace

WanWorkloadConstants
WanWorkloadConstants::Of(const WanTrainingWorkload& workload,
                         const std::vector<std::vector<double>>& initialModels,
                         double noise)
{
    const uint32_t n = workload.GetNIslands();
    const uint32_t d = workload.GetDimension();
    Require(initialModels.size() == n,
            std::to_string(initialModels.size()) + " initial models for " + std::to_string(n) +
                " islands");
    Require(std::isfinite(noise) && noise >= 0,
            "gradient noise " + wantext::Num(noise) + " (need a non-negative variance)");
    WanWorkloadConstants c;
    c.islands = n;
    c.dimension = d;
    c.noise = noise;
    const std::vector<double> best = workload.GetMinimiser();
    const Eigen::RowVectorXd optimum = Eigen::Map<const Eigen::RowVectorXd>(best.data(), d);
    Eigen::MatrixXd optima(n, d);
    if (workload.GetKind() == WanTrainingWorkload::Kind::QUADRATIC)
    {
        c.curvature = workload.GetCurvature();
        optima = Rows(
            [&] {
                std::vector<std::vector<double>> centres;
                for (uint32_t i = 0; i < n; ++i)
                {
                    centres.push_back(workload.GetCentre(i));
                }
                return centres;
            }(),
            d,
            "centre");
    }
    else
    {
        // The Hessian's trace by central differences of the global gradient.
        const double h = 1e-5;
        double trace = 0;
        std::vector<double> x = best;
        std::vector<double> up;
        std::vector<double> down;
        for (uint32_t k = 0; k < d; ++k)
        {
            x[k] = best[k] + h;
            workload.GlobalGradient(x, up);
            x[k] = best[k] - h;
            workload.GlobalGradient(x, down);
            x[k] = best[k];
            trace += (up[k] - down[k]) / (2 * h);
        }
        c.curvature = trace / d;
        Require(c.curvature > 0, "the workload's curvature at its optimum is not positive");
        std::vector<double> g;
        for (uint32_t i = 0; i < n; ++i)
        {
            workload.Gradient(i, best, g);
            for (uint32_t k = 0; k < d; ++k)
            {
                optima(i, k) = best[k] - g[k] / c.curvature;
            }
        }
    }
    c.heterogeneity = (optima.rowwise() - optimum).squaredNorm() / n;
    const auto [spread, mean] = SpreadAndMean(Rows(initialModels, d, "initial model"), optimum);
    c.initialSpread = spread;
    c.initialMean = mean;
    return c;
}

WanTimeToTargetPredictor::WanTimeToTargetPredictor(std::vector<WanPredictorRound> period,
                                                   WanPredictorTraining training)
    : m_period(std::move(period)),
      m_training(training)
{
    Require(!m_period.empty(), "a period of 0 rounds (need at least 1)");
    Require(m_training.localSteps >= 1, "0 local steps between averagings (need at least 1)");
    Require(std::isfinite(m_training.computeS) && m_training.computeS >= 0,
            "compute time " + wantext::Num(m_training.computeS) +
                " s per local step (need a non-negative time)");
    Require(std::isfinite(m_training.stepSize) && m_training.stepSize > 0,
            "step size " + wantext::Num(m_training.stepSize) + " (need a positive one)");
    std::vector<WanMatrix> mixing;
    for (size_t r = 0; r < m_period.size(); ++r)
    {
        const double t = m_period[r].seconds;
        Require(std::isfinite(t) && t >= 0,
                "round " + std::to_string(r + 1) + " takes " + wantext::Num(t) +
                    " s (need a non-negative time)");
        mixing.push_back(m_period[r].mixing);
    }
    try
    {
        MixingAnalysis check(mixing); // refuses a matrix that is not doubly stochastic
        m_islands = check.GetNIslands();
    }
    catch (const std::invalid_argument& e)
    {
        Require(false, e.what());
    }
    const auto n = static_cast<Eigen::Index>(m_islands);
    const Eigen::MatrixXd average = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
    Eigen::MatrixXd product = Eigen::MatrixXd::Identity(n, n) - average;
    for (const auto& w : Mixings(m_period))
    {
        product = (w - average) * product;
    }
    const double norm = Eigen::JacobiSVD<Eigen::MatrixXd>(product).singularValues()(0);
    m_consensusRate = std::pow(norm * norm, 1.0 / m_period.size());
    NS_LOG_INFO("period of " << m_period.size() << " rounds, consensus rate " << m_consensusRate
                             << " per round");
}

double
WanTimeToTargetPredictor::Contraction(double curvature) const
{
    const double step = m_training.stepSize * curvature;
    Require(std::isfinite(curvature) && curvature > 0,
            "curvature " + wantext::Num(curvature) + " (need a positive one)");
    Require(step < 2,
            "step size x curvature is " + wantext::Num(step) +
                " (need below 2: the local steps diverge)");
    return std::pow(1 - step, m_training.localSteps);
}

double
WanTimeToTargetPredictor::NoiseGain(double curvature) const
{
    const double b = 1 - m_training.stepSize * curvature;
    double sum = 0;
    double power = 1;
    for (uint32_t k = 0; k < m_training.localSteps; ++k)
    {
        sum += power;
        power *= b * b;
    }
    return m_training.stepSize * m_training.stepSize * sum;
}

uint32_t
WanTimeToTargetPredictor::GetPeriod() const
{
    return static_cast<uint32_t>(m_period.size());
}

double
WanTimeToTargetPredictor::SecondsOf(uint64_t rounds) const
{
    double network = 0;
    for (const auto& round : m_period)
    {
        network += round.seconds;
    }
    const uint64_t periods = rounds / m_period.size();
    double total = static_cast<double>(periods) * network;
    for (uint64_t r = 0; r < rounds % m_period.size(); ++r)
    {
        total += m_period[r].seconds;
    }
    return total + static_cast<double>(rounds) * m_training.localSteps * m_training.computeS;
}

double
WanTimeToTargetPredictor::GetConsensusRate() const
{
    return m_consensusRate;
}

double
WanTimeToTargetPredictor::GetEffectiveNeighbours(double curvature) const
{
    const double a2 = std::pow(Contraction(curvature), 2);
    const auto n = static_cast<Eigen::Index>(m_islands);
    const Eigen::MatrixXd average = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
    const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(n, n);
    // The period's Lyapunov equation, solved by iteration from S = 0 (each
    // round a contraction by a^2 at least); the trace averaged over the
    // period's phases once settled.
    const auto mixings = Mixings(m_period);
    Eigen::MatrixXd s = Eigen::MatrixXd::Zero(n, n);
    double last = -1;
    for (uint64_t p = 0; p < kMaxRounds / m_period.size(); ++p)
    {
        double trace = 0;
        for (const auto& w : mixings)
        {
            const Eigen::MatrixXd b = w - average;
            s = b * (a2 * s + identity) * b.transpose();
            trace += s.trace() / m_period.size();
        }
        if (std::abs(trace - last) <= kSettled * std::max(trace, 1e-300))
        {
            return m_islands / (1 + (1 - a2) * trace);
        }
        last = trace;
    }
    Require(false, "the noise's disagreement did not settle");
    return 0;
}

double
WanTimeToTargetPredictor::GetFloorGap(double curvature,
                                      double noise,
                                      uint32_t islands,
                                      uint32_t dimension) const
{
    const double a2 = std::pow(Contraction(curvature), 2);
    return curvature * dimension * noise * NoiseGain(curvature) / (2.0 * islands * (1 - a2));
}

void
WanTimeToTargetPredictor::CheckTarget(double targetGap, double floor) const
{
    Require(std::isfinite(targetGap) && targetGap > floor,
            "a target gap of " + wantext::Num(targetGap) +
                " is at or below the floor exact averaging settles at (" + wantext::Num(floor) +
                ")");
}

WanPrediction
WanTimeToTargetPredictor::Predict(const std::vector<double>& gaps, double targetGap) const
{
    WanPrediction p;
    p.initialGap = gaps.front();
    for (size_t r = 0; r < gaps.size(); ++r)
    {
        if (gaps[r] <= targetGap)
        {
            p.reachable = true;
            p.rounds = r;
            p.seconds = SecondsOf(r);
            break;
        }
    }
    const size_t period = m_period.size();
    p.floorGap = *std::min_element(gaps.end() - std::min(period, gaps.size()), gaps.end());
    return p;
}

namespace
{

/**
 * Runs a gap sequence until it reaches the target or settles: a period
 * whose gaps differ from the period before by less than kSettled each.
 * @param period rounds per period
 * @param first the gap before the first round
 * @param next the gap after the next round
 * @param target the target gap (negative: run `rounds` rounds)
 * @param rounds rounds to run when there is no target
 * @return the gaps, from before the first round
 */
std::vector<double>
RunGaps(size_t period,
        double first,
        const std::function<double()>& next,
        double target,
        uint64_t rounds)
{
    std::vector<double> gaps{first};
    const bool untilTarget = target >= 0;
    const uint64_t most = untilTarget ? kMaxRounds : rounds;
    for (uint64_t r = 1; r <= most; ++r)
    {
        gaps.push_back(next());
        if (!untilTarget)
        {
            continue;
        }
        if (gaps.back() <= target)
        {
            return gaps;
        }
        if (r % period == 0 && r >= 2 * period)
        {
            bool settled = true;
            for (size_t k = 0; k < period && settled; ++k)
            {
                const double now = gaps[gaps.size() - 1 - k];
                const double before = gaps[gaps.size() - 1 - k - period];
                settled = std::abs(now - before) <= kSettled * std::max(now, 1e-300);
            }
            if (settled)
            {
                return gaps;
            }
        }
    }
    Require(!untilTarget, "the gap neither reached the target nor settled in 10^7 rounds");
    return gaps;
}

} // namespace

uint32_t
WanTimeToTargetPredictor::Dimension(const WanQuadraticMoments& moments) const
{
    Require(moments.centres.size() == m_islands,
            std::to_string(moments.centres.size()) + " optima for " + std::to_string(m_islands) +
                " islands");
    Require(moments.initialMeans.size() == m_islands,
            std::to_string(moments.initialMeans.size()) + " initial models for " +
                std::to_string(m_islands) + " islands");
    Require(!moments.centres[0].empty(), "optima of 0 dimensions (need at least 1)");
    Require(std::isfinite(moments.noise) && moments.noise >= 0,
            "gradient noise " + wantext::Num(moments.noise) + " (need a non-negative variance)");
    Require(std::isfinite(moments.initialVariance) && moments.initialVariance >= 0,
            "initial variance " + wantext::Num(moments.initialVariance) +
                " (need a non-negative one)");
    return static_cast<uint32_t>(moments.centres[0].size());
}

std::vector<double>
WanTimeToTargetPredictor::ExactRun(const WanQuadraticMoments& moments,
                                   double targetGap,
                                   uint64_t rounds) const
{
    const size_t d = Dimension(moments);
    const double a = Contraction(moments.curvature);
    const double s2 = moments.noise * NoiseGain(moments.curvature);
    const Eigen::MatrixXd centres = Rows(moments.centres, d, "optimum");
    const Eigen::RowVectorXd optimum = centres.colwise().mean();
    const Eigen::MatrixXd g = centres.rowwise() - optimum;
    Eigen::MatrixXd m = Rows(moments.initialMeans, d, "initial model").rowwise() - optimum;
    const auto n = static_cast<Eigen::Index>(m_islands);
    const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(n, n);
    Eigen::MatrixXd s = moments.initialVariance * identity;
    const double scale = moments.curvature / (2.0 * m_islands);
    auto gap = [&] { return scale * (m.squaredNorm() + d * s.trace()); };
    const auto mixings = Mixings(m_period);
    uint64_t round = 0;
    auto next = [&] {
        const Eigen::MatrixXd& w = mixings[round++ % mixings.size()];
        m = w * (a * m + (1 - a) * g);
        s = w * (a * a * s + s2 * identity) * w.transpose();
        return gap();
    };
    return RunGaps(m_period.size(), gap(), next, targetGap, rounds);
}

std::vector<double>
WanTimeToTargetPredictor::ExactGaps(const WanQuadraticMoments& moments, uint64_t rounds) const
{
    return ExactRun(moments, -1, rounds);
}

WanPrediction
WanTimeToTargetPredictor::Exact(const WanQuadraticMoments& moments, double targetGap) const
{
    CheckTarget(targetGap,
                GetFloorGap(moments.curvature, moments.noise, m_islands, Dimension(moments)));
    return Predict(ExactRun(moments, targetGap, 0), targetGap);
}

std::vector<double>
WanTimeToTargetPredictor::ClosedFormRun(const WanWorkloadConstants& c,
                                        double targetGap,
                                        uint64_t rounds) const
{
    CheckConstants(c);
    const double a = Contraction(c.curvature);
    const double a2 = a * a;
    const double s2 = c.noise * NoiseGain(c.curvature);
    const double q = std::sqrt(m_consensusRate);
    const double aq = std::abs(a) * q;
    const double n = m_islands;
    const double d = c.dimension;
    const double drift = c.heterogeneity * std::pow((1 - a) * q / (1 - aq), 2);
    const double noiseShare = 1 / GetEffectiveNeighbours(c.curvature) - 1 / n;
    uint64_t r = 0;
    auto gap = [&] {
        const double rr = static_cast<double>(r);
        const double mean =
            c.initialMean * std::pow(a2, rr) + d * s2 * (1 - std::pow(a2, rr)) / (n * (1 - a2));
        const double decay = std::pow(aq, rr);
        const double disagreement = c.initialSpread * decay * decay +
                                    drift * (1 - decay) * (1 - decay) +
                                    d * s2 * noiseShare * (1 - decay * decay) / (1 - a2);
        return c.curvature / 2 * (mean + disagreement);
    };
    const double first = gap();
    auto next = [&] {
        ++r;
        return gap();
    };
    return RunGaps(m_period.size(), first, next, targetGap, rounds);
}

void
WanTimeToTargetPredictor::CheckConstants(const WanWorkloadConstants& c) const
{
    Require(c.islands == m_islands,
            "constants of " + std::to_string(c.islands) + " islands for a schedule of " +
                std::to_string(m_islands));
    Require(c.dimension >= 1, "a model of 0 dimensions (need at least 1)");
    for (const auto& [value, what] : {std::pair{c.noise, "gradient noise"},
                                      std::pair{c.heterogeneity, "heterogeneity"},
                                      std::pair{c.initialMean, "initial distance"},
                                      std::pair{c.initialSpread, "initial spread"}})
    {
        Require(std::isfinite(value) && value >= 0,
                std::string(what) + " " + wantext::Num(value) + " (need a non-negative value)");
    }
}

std::vector<double>
WanTimeToTargetPredictor::MomentsRun(const WanWorkloadConstants& c,
                                     double targetGap,
                                     uint64_t rounds) const
{
    CheckConstants(c);
    const double a = Contraction(c.curvature);
    const double s2 = c.noise * NoiseGain(c.curvature);
    const auto n = static_cast<Eigen::Index>(m_islands);
    const double d = c.dimension;
    const Eigen::MatrixXd identity = Eigen::MatrixXd::Identity(n, n);
    const Eigen::MatrixXd average = Eigen::MatrixXd::Constant(n, n, 1.0 / n);
    // Per coordinate: the optima's deviations G of covariance gamma (I - J),
    // tr = N zeta^2 / d; the models' second moment K; their covariance with
    // G, L (0 at the start: the initial models do not know the optima).
    const double across = n > 1 ? n / (d * (n - 1.0)) : 0;
    const Eigen::MatrixXd gamma = c.heterogeneity * across * (identity - average);
    Eigen::MatrixXd k = c.initialMean / d * Eigen::MatrixXd::Constant(n, n, 1.0) +
                        c.initialSpread * across * (identity - average);
    Eigen::MatrixXd l = Eigen::MatrixXd::Zero(n, n);
    const double scale = c.curvature * d / (2.0 * m_islands);
    auto gap = [&] { return scale * k.trace(); };
    const auto mixings = Mixings(m_period);
    uint64_t round = 0;
    auto next = [&] {
        const Eigen::MatrixXd& w = mixings[round++ % mixings.size()];
        const Eigen::MatrixXd before = a * a * k + a * (1 - a) * (l + l.transpose()) +
                                       (1 - a) * (1 - a) * gamma + s2 * identity;
        k = w * before * w.transpose();
        l = w * (a * l + (1 - a) * gamma);
        return gap();
    };
    return RunGaps(m_period.size(), gap(), next, targetGap, rounds);
}

std::vector<double>
WanTimeToTargetPredictor::MomentGaps(const WanWorkloadConstants& constants, uint64_t rounds) const
{
    return MomentsRun(constants, -1, rounds);
}

WanPrediction
WanTimeToTargetPredictor::Moments(const WanWorkloadConstants& c, double targetGap) const
{
    CheckTarget(targetGap, GetFloorGap(c.curvature, c.noise, c.islands, c.dimension));
    return Predict(MomentsRun(c, targetGap, 0), targetGap);
}

std::vector<double>
WanTimeToTargetPredictor::ClosedFormGaps(const WanWorkloadConstants& c, uint64_t rounds) const
{
    return ClosedFormRun(c, -1, rounds);
}

WanPrediction
WanTimeToTargetPredictor::ClosedForm(const WanWorkloadConstants& c, double targetGap) const
{
    CheckTarget(targetGap, GetFloorGap(c.curvature, c.noise, c.islands, c.dimension));
    return Predict(ClosedFormRun(c, targetGap, 0), targetGap);
}

} // namespace ns3
