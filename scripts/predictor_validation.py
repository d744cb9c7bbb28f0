#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Time to target, predicted and simulated: WanTimeToTargetPredictor against
the training loop (WanTrainingLoop) over the rounds the packet level
delivered, on many schedules of the nine cities and a grid of regimes, with
J = T x A, A, T and the round's cost as the predictors to beat.

Schedules: the built-ins (each with its default FPGA memory), the
optimizer's (ScheduleOptimizer, minimising J under four bounds) and random
clique schedules (ScheduleSpace::RandomSchedule: pairs and triangles,
ScheduleSpace::SeededRandom with --seed; period 2 to 4, every island
connected over the period).  Each runs once at packet level, lossless (its
rounds are the same for every RngRun: no loss, no jitter); the training then
runs RngRun 1..--runs (the workload, the initial models and the gradients'
noise) for every workload, H, heterogeneity and noise.  Round r of the
training takes packet round r mod P (its measured T and realised W), as the
predictor does.

Targets are gaps above f* of the global loss at the islands' own models
(WanTrainingLoop's time to target): --targets multiples of what exact
averaging every round settles at (the floor, WanTimeToTargetPredictor::
GetFloorGap, from the noise), or --targetShares of the initial gap.  The
time to a target is rounds x H x C plus the rounds' T; a schedule that does
not reach it within --trainingSteps local steps (rounds = steps / H) counts
as never (infinite), in the training and in each prediction alike.  Each
is read on the gap averaged over the runs (the predictors predict the
expected gap; one run's gap may dip below a target near the floor by
chance), with a bootstrap 95% interval over the runs; each run's own rounds
are kept beside it.

Predictors: "exact" (quadratic only: the moment recursion from the
workload's optima and the initial models), "moments" (the isotropic moment
recursion from the workload's constants), "closed" (the closed form), and
the baselines "J", "A", "T" and "cost" (H x C + T), which rank but do not
predict a time.  Per regime (workload, H, C, heterogeneity, noise, target),
over the schedules: Spearman's and Kendall's rank correlations between
each predictor and the simulated time to target, with bootstrap 95%
intervals (resampling the schedules), the median |log(predicted /
simulated)| over the schedules both reach, and the top-1 regret (simulated
time of the predictor's best / the best simulated, infinite when the
predictor's best never reaches the target).  "distinct" says whether the
simulated times differ beyond their 95% intervals (the fastest schedule's
interval below the slowest reaching one's).

Writes into the output folder:
  predictor-validation-runs.csv       per schedule, regime and target: rounds
                                      to it, simulated (with its interval and
                                      each run's) and predicted
  predictor-validation-schedules.csv  per schedule: period, T, A, J
  predictor-validation.csv            per regime and predictor: the figures above
  predictor-validation.png            predicted against simulated time, and
                                      Spearman's rho per regime

    python3 scripts/predictor_validation.py
    python3 scripts/predictor_validation.py --random 2 --runs 2 --localSteps 1 --jobs 2
"""

import argparse
import math
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

# None of these loads ns-3 here.
from wan_training import (builtin_schedules, mean_ci, model_facts, run_tasks,  # noqa: E402
                          write_csv, write_tables)

PREDICTORS = ("exact", "moments", "closed")
BASELINES = ("J", "A", "T", "cost")
# The optimizer's bounds: (largest clique, largest period, FPGA memory GB).
OPTIMIZER_BOUNDS = ((2, 3, 0), (3, 3, 0), (4, 2, 32), (0, 2, 32))


def random_schedules(count, seed, islands=9, max_period=4):
    """`count` random schedules from ScheduleSpace::RandomSchedule (pairs and
    triangles, ScheduleSpace::SeededRandom with the seed) of period 2 to
    max_period whose cliques connect every island over the period, distinct;
    each a list of rounds, a round a list of cliques of island indices."""
    from wan_training import ns

    space = ns.ScheduleSpace(islands, 3, max_period)
    random_ = ns.ScheduleSpace.SeededRandom(seed)
    out, keys = [], set()
    while len(out) < count:
        rounds = space.RandomSchedule(random_)
        key = bytes(str(space.Key(rounds)), "latin-1", "replace")
        if (rounds.size() >= 2 and ns.ScheduleEvaluator.Components(rounds, islands) == 1
                and key not in keys):
            keys.add(key)
            out.append([[list(c) for c in r] for r in rounds])
    return out


def schedule_specs(args):
    """The schedules as (name, kind, spec, GB): the built-ins, the
    optimizer's, the random ones."""
    memory = model_facts()["memory_gb"]
    specs = [(name, "builtin", name, memory.get(name, 0.0)) for name in builtin_schedules()
             if name in args.builtins]
    for clique, period, gb in OPTIMIZER_BOUNDS[:args.optimized]:
        specs.append(("optimized-c%d-p%d" % (clique, period), "optimized", (clique, period), gb))
    for k, rounds in enumerate(random_schedules(args.random, args.seed), 1):
        specs.append(("random-%d" % k, "random", rounds, 0.0))
    return specs


def make_schedule(ns, topo, config, name, kind, spec):
    """The CliqueSchedule of one spec."""
    import cppyy

    if kind == "builtin":
        return ns.CliqueScheduleBuiltins.Make(spec, topo)
    if kind == "optimized":
        helper = ns.CliqueScheduleHelper(topo, config)
        helper.SetOptimizerAttribute("MaxCliqueSize", ns.UintegerValue(spec[0]))
        helper.SetOptimizerAttribute("MaxPeriod", ns.UintegerValue(spec[1]))
        return helper.Optimize().schedule
    rounds = cppyy.gbl.std.vector[ns.CliqueSchedule.Round]()
    for r in spec:
        round_ = ns.CliqueSchedule.Round()
        for clique in r:
            round_.push_back(cppyy.gbl.std.vector["uint32_t"](clique))
        rounds.push_back(round_)
    return ns.CliqueSchedule(name, rounds)


def regimes(args):
    """The training settings that change the trajectory: (workload, H,
    heterogeneity level, noise level)."""
    return [(w, h, het, noise) for w in args.workloads for h in args.localSteps
            for het in ("low", "high") if het in args.heterogeneityLevels
            for noise in ("low", "high") if noise in args.noiseLevels]


def rounds_to(gaps, target):
    """The first round whose gap is at or below the target, or None."""
    return next((r for r, g in enumerate(gaps) if g <= target), None)


def training_loop(ns, workload, run, step_size, steps, noise, dimension, heterogeneity, rounds):
    """A training loop of RngRun `run`: eta, H and the gradients' noise; the
    quadratic's dimension and heterogeneity, or the logistic's skew (given
    as `heterogeneity`); `rounds` training rounds."""
    ns.RngSeedManager.SetRun(run)
    loop = ns.WanTrainingLoop()
    loop.SetWorkload(workload)
    loop.SetAttribute("Rounds", ns.UintegerValue(rounds))
    loop.SetAttribute("StepSize", ns.DoubleValue(step_size))
    loop.SetAttribute("LocalSteps", ns.UintegerValue(steps))
    loop.SetAttribute("GradientNoise", ns.DoubleValue(noise))
    if workload == "quadratic":
        loop.SetAttribute("Dimension", ns.UintegerValue(dimension))
        loop.SetAttribute("Heterogeneity", ns.DoubleValue(heterogeneity))
    else:
        loop.SetAttribute("Skew", ns.DoubleValue(heterogeneity))
    return loop


def regime_rows(name, regime, curves, floor, settings):
    """One row per target: the rounds to it of the gap averaged over the runs,
    simulated (with a bootstrap 95% interval over the runs, and each run's
    own rounds) and predicted (each predictor's gap averaged likewise)."""
    import numpy

    simulated = numpy.array(curves["simulated"])
    mean = {key: numpy.mean(numpy.array(c), axis=0) for key, c in curves.items()}
    rng = numpy.random.default_rng(settings["args"].seed)
    picks = rng.integers(0, len(simulated), size=(settings["args"].bootstrap, len(simulated)))
    resampled = simulated[picks].mean(axis=1)
    targets = ([("%gx floor" % k, k * floor) for k in settings["targets"]] +
               [("%g of the gap" % s, s * mean["simulated"][0])
                for s in settings["target_shares"]])
    rows = []
    for label, target in targets:
        if target <= floor:
            continue  # no noise: the floor is 0, and so is k x it
        boot = sorted(math.inf if r is None else r
                      for r in (rounds_to(c, target) for c in resampled))
        workload, steps, het, noise = regime
        row = {"schedule": name, "workload": workload, "local_steps": steps,
               "heterogeneity": het, "noise": noise, "target": label, "target_gap": target,
               "rounds_simulated": rounds_to(mean["simulated"], target),
               "rounds_simulated_low": boot[int(0.025 * (len(boot) - 1))],
               "rounds_simulated_high": boot[int(0.975 * (len(boot) - 1))],
               "rounds_each_run": ";".join(str(rounds_to(c, target)) for c in simulated)}
        for key in PREDICTORS:
            row["rounds_" + key] = rounds_to(mean[key], target) if key in mean else None
        rows.append(row)
    return rows


def train_schedule(name, kind, spec, gb, settings):
    """Runs one schedule at packet level, then every training and
    prediction over its rounds; returns its row and the rows of its runs."""
    import cppyy
    from wan_training import ns

    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = gb * 1e9
    schedule = make_schedule(ns, topo, config, name, kind, spec)
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(settings["scale"])
    experiment.SetRounds(schedule.GetNRounds())
    result = experiment.Run(schedule)
    if not result.feasible:
        raise SystemExit("predictor_validation.py: %s is infeasible (%s)" % (name, result.reason))
    seconds = [r.mixedMs / 1e3 for r in result.rounds]
    period = cppyy.gbl.std.vector[ns.WanPredictorRound]()
    for r in result.rounds:
        p = ns.WanPredictorRound()
        p.mixing = r.mixing
        p.seconds = r.mixedMs / 1e3
        period.push_back(p)
    row = {"schedule": name, "kind": kind, "hbm_gb": gb, "period": len(seconds),
           "t_ms": 1e3 * sum(seconds) / len(seconds), "a": result.disagreement,
           "j": result.objective}
    runs = []
    for workload, steps, het, noise in regimes(settings["args"]):
        sigma = settings["noise"][noise]
        training = ns.WanPredictorTraining()
        training.stepSize = settings["step_size"]
        training.localSteps = steps
        predictor = ns.WanTimeToTargetPredictor(period, training)
        rounds = max(1, settings["training_steps"] // steps)
        curves = {}
        floors = []
        for run in range(1, settings["runs"] + 1):
            het_value = (settings["heterogeneity"] if workload == "quadratic"
                         else settings["skew"])[het]
            loop = training_loop(ns, workload, run, settings["step_size"], steps, sigma,
                                 settings["dimension"], het_value, rounds)
            start = loop.MakeTraining(9)
            outcome = loop.Train(result)
            best = outcome.minimumLoss
            simulated = [h.modelLoss - best for h in outcome.history]
            models = cppyy.gbl.std.vector[cppyy.gbl.std.vector["double"]]()
            for i in range(9):
                models.push_back(start.GetModel(i))
            work = start.GetWorkload()
            constants = ns.WanWorkloadConstants.Of(work, models, sigma * sigma)
            gaps = {"moments": list(predictor.MomentGaps(constants, rounds)),
                    "closed": list(predictor.ClosedFormGaps(constants, rounds))}
            if workload == "quadratic":
                moments = ns.WanQuadraticMoments()
                centres = cppyy.gbl.std.vector[cppyy.gbl.std.vector["double"]]()
                for i in range(9):
                    centres.push_back(work.GetCentre(i))
                moments.centres = centres
                moments.curvature = work.GetCurvature()
                moments.noise = sigma * sigma
                moments.initialMeans = models
                gaps["exact"] = list(predictor.ExactGaps(moments, rounds))
            curves.setdefault("simulated", []).append(simulated)
            for key, g in gaps.items():
                curves.setdefault(key, []).append(g)
            floors.append(predictor.GetFloorGap(constants.curvature, constants.noise, 9,
                                                constants.dimension))
        runs.extend(regime_rows(name, (workload, steps, het, noise), curves,
                                statistics.fmean(floors), settings))
    return row, runs, seconds


def time_of(rounds, steps, compute_s, seconds):
    """rounds x H x C plus the rounds' T in turn (inf for None or inf)."""
    if rounds is None or not math.isfinite(rounds):
        return math.inf
    period = len(seconds)
    network = rounds // period * sum(seconds) + sum(seconds[:rounds % period])
    return rounds * steps * compute_s + network


def spearman_kendall(x, y):
    """Spearman's and Kendall's rank correlations (scipy; infinite values
    rank last and tie), NaN when either side is constant."""
    from scipy import stats

    if len(set(x)) < 2 or len(set(y)) < 2:
        return math.nan, math.nan
    big = 1e300
    x = [min(v, big) for v in x]
    y = [min(v, big) for v in y]
    return stats.spearmanr(x, y)[0], stats.kendalltau(x, y)[0]


def bootstrap(x, y, samples, seed):
    """95% bootstrap interval of Spearman's rho, resampling the pairs (numpy:
    every resample's ranks at once; resamples with a constant side are
    left out)."""
    import numpy
    from scipy import stats

    big = 1e300
    x = numpy.minimum(numpy.array(x, dtype=float), big)
    y = numpy.minimum(numpy.array(y, dtype=float), big)
    pick = numpy.random.default_rng(seed).integers(0, len(x), size=(samples, len(x)))
    rx = stats.rankdata(x[pick], axis=1)
    ry = stats.rankdata(y[pick], axis=1)
    rx -= rx.mean(axis=1, keepdims=True)
    ry -= ry.mean(axis=1, keepdims=True)
    norm = numpy.sqrt((rx * rx).sum(axis=1) * (ry * ry).sum(axis=1))
    rho = (rx * ry).sum(axis=1)[norm > 0] / norm[norm > 0]
    if rho.size == 0:
        return math.nan, math.nan
    return float(numpy.quantile(rho, 0.025)), float(numpy.quantile(rho, 0.975))


def summarise(rows, schedules, seconds, args):
    """One row per regime and predictor: rank correlations with their
    bootstrap intervals, median |log| error, top-1 regret."""
    by = {}
    for r in rows:
        key = (r["workload"], r["local_steps"], r["heterogeneity"], r["noise"], r["target"])
        by.setdefault(key, {}).setdefault(r["schedule"], []).append(r)
    info = {s["schedule"]: s for s in schedules}
    summary = []
    for (workload, steps, het, noise, target), per in sorted(by.items()):
        names = sorted(per)
        for compute_ms in args.computeMs:
            c = compute_ms / 1e3
            def time(name, field):
                return time_of(per[name][0][field], steps, c, seconds[name])

            sim = [time(n, "rounds_simulated") for n in names]
            finite = [n for n in names if math.isfinite(time(n, "rounds_simulated"))]
            distinct = (len(finite) >= 2 and
                        min(time(n, "rounds_simulated_high") for n in finite) <
                        max(time(n, "rounds_simulated_low") for n in finite))
            base = {"workload": workload, "local_steps": steps, "compute_ms": compute_ms,
                    "heterogeneity": het, "noise": noise, "target": target,
                    "schedules": len(names), "reached": len(finite), "distinct": distinct}
            for key in PREDICTORS + BASELINES:
                if key == "exact" and workload != "quadratic":
                    continue  # the exact recursion needs a quadratic
                if key in PREDICTORS:
                    pred = [time(n, "rounds_" + key) for n in names]
                else:
                    pred = [{"J": info[n]["j"], "A": info[n]["a"], "T": info[n]["t_ms"],
                             "cost": steps * compute_ms + info[n]["t_ms"]}[key] for n in names]
                rho, tau = spearman_kendall(pred, sim)
                low, high = bootstrap(pred, sim, args.bootstrap, args.seed)
                both = [(p, s) for p, s in zip(pred, sim)
                        if key in PREDICTORS and math.isfinite(p) and math.isfinite(s) and s > 0]
                errors = [abs(math.log(p / s)) for p, s in both if p > 0]
                best_sim = min(sim)
                chosen = sim[min(range(len(names)), key=lambda i: pred[i])]
                summary.append(dict(base, predictor=key, spearman=rho, spearman_low=low,
                                    spearman_high=high, kendall=tau,
                                    median_log_error=(statistics.median(errors) if errors
                                                      else math.nan),
                                    regret=(chosen / best_sim if math.isfinite(best_sim)
                                            and best_sim > 0 else math.nan)))
    return summary


def plot(summary, rows, seconds, args, png_path):
    """Left: predicted against simulated time (moments), every regime with
    C the first --computeMs; right: Spearman's rho per regime, per predictor."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 5))
    c = args.computeMs[0] / 1e3
    for key, marker in (("exact", "o"), ("moments", "x"), ("closed", "+")):
        xs, ys = [], []
        for r in rows:
            s = time_of(r["rounds_simulated"], r["local_steps"], c, seconds[r["schedule"]])
            p = time_of(r["rounds_" + key], r["local_steps"], c, seconds[r["schedule"]])
            if math.isfinite(s) and math.isfinite(p) and s > 0 and p > 0:
                xs.append(s)
                ys.append(p)
        if xs:
            left.loglog(xs, ys, marker, label=key, alpha=0.5)
    left.plot(left.get_xlim(), left.get_xlim(), "k--", linewidth=0.8)
    left.set_xlabel("simulated time to target, s (C = %g ms)" % args.computeMs[0])
    left.set_ylabel("predicted time to target, s")
    left.set_title("Time to target, per schedule and regime")
    left.legend()
    for k, key in enumerate(PREDICTORS + BASELINES):
        values = [s["spearman"] for s in summary if s["predictor"] == key
                  and not math.isnan(s["spearman"])]
        if values:
            right.plot([k] * len(values), values, "_", markersize=14, alpha=0.4)
    right.set_xticks(range(len(PREDICTORS + BASELINES)))
    right.set_xticklabels(PREDICTORS + BASELINES)
    right.axhline(0.9, color="k", linestyle="--", linewidth=0.8)
    right.set_ylabel("Spearman's rho with the simulated time")
    right.set_title("Ranking the schedules, per regime")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--builtins", nargs="*", default=builtin_schedules(),
                        help="built-in schedules (default: all)")
    parser.add_argument("--optimized", type=int, default=len(OPTIMIZER_BOUNDS),
                        help="the optimizer's schedules, 0 to %d (bounds: largest clique, "
                             "period and GB %s)" % (len(OPTIMIZER_BOUNDS), OPTIMIZER_BOUNDS))
    parser.add_argument("--random", type=int, default=16, help="random clique schedules")
    parser.add_argument("--seed", type=int, default=1,
                        help="seed of the random schedules and the bootstrap")
    parser.add_argument("--runs", type=int, default=5, help="RngRun 1..N of each training")
    parser.add_argument("--workloads", nargs="+", default=["quadratic", "logistic"],
                        choices=["quadratic", "logistic"])
    parser.add_argument("--localSteps", type=int, nargs="+", default=[1, 5, 20],
                        help="H, local steps between averagings")
    parser.add_argument("--computeMs", type=float, nargs="+", default=[0, 50, 250, 1000],
                        help="C, compute time of a local step, ms")
    parser.add_argument("--heterogeneityLevels", nargs="+", default=["low", "high"],
                        choices=["low", "high"])
    parser.add_argument("--noiseLevels", nargs="+", default=["low", "high"],
                        choices=["low", "high"])
    parser.add_argument("--heterogeneity", type=float, nargs=2, default=[0.03, 0.3],
                        help="quadratic: the optima's spread, low and high")
    parser.add_argument("--dimension", type=int, default=200,
                        help="quadratic: d (the gap's relative fluctuation falls as 1 / sqrt(N d))")
    parser.add_argument("--skew", type=float, nargs=2, default=[0.6, 0.9],
                        help="logistic: class 1's share at island 0, low and high")
    parser.add_argument("--noise", type=float, nargs=2, default=[0.3, 1.0],
                        help="standard deviation of the gradients' noise, low and high")
    parser.add_argument("--targets", type=float, nargs="*", default=[1.2, 2, 5],
                        help="targets: multiples of exact averaging's floor")
    parser.add_argument("--targetShares", type=float, nargs="*", default=[],
                        help="targets: shares of the initial gap")
    parser.add_argument("--stepSize", type=float, default=0.1, help="eta")
    parser.add_argument("--trainingSteps", type=int, default=3000,
                        help="local steps each training runs (rounds = steps / H)")
    parser.add_argument("--scale", type=float, default=1000, help="packet level's scale")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap samples")
    parser.add_argument("--jobs", type=int, default=1, help="schedules run at once")
    parser.add_argument("--output", default=".", help="output folder")
    args = parser.parse_args()
    for name, value, least in (("--runs", args.runs, 1), ("--trainingSteps", args.trainingSteps, 1),
                               ("--jobs", args.jobs, 1), ("--bootstrap", args.bootstrap, 1),
                               ("--dimension", args.dimension, 1)):
        if value < least:
            parser.error("%s must be at least %d (got %d)" % (name, least, value))
    if any(h < 1 for h in args.localSteps) or any(c < 0 for c in args.computeMs):
        parser.error("--localSteps must be at least 1 and --computeMs non-negative")
    if not args.targets and not args.targetShares:
        parser.error("no target: give --targets or --targetShares")
    if any(s <= 0 or s >= 1 for s in args.targetShares) or any(k <= 1 for k in args.targets):
        parser.error("--targetShares must be in (0, 1) and --targets above 1")
    specs = schedule_specs(args)
    if len(specs) < 2:
        parser.error("fewer than 2 schedules to rank")
    settings = {"args": args, "runs": args.runs, "scale": args.scale,
                "step_size": args.stepSize, "training_steps": args.trainingSteps,
                "dimension": args.dimension,
                "heterogeneity": dict(zip(("low", "high"), args.heterogeneity)),
                "skew": dict(zip(("low", "high"), args.skew)),
                "noise": dict(zip(("low", "high"), args.noise)),
                "targets": args.targets, "target_shares": args.targetShares}
    results = run_tasks(train_schedule, [spec + (settings,) for spec in specs], args.jobs)
    schedules = [r[0] for r in results]
    rows = [row for r in results for row in r[1]]
    seconds = {r[0]["schedule"]: r[2] for r in results}
    summary = summarise(rows, schedules, seconds, args)
    os.makedirs(args.output, exist_ok=True)
    write_csv(os.path.join(args.output, "predictor-validation-schedules.csv"), schedules)
    paths = write_tables(args.output, "predictor-validation",
                         [dict(r, **{k: ("" if v is None else v) for k, v in r.items()
                                     if k.startswith("rounds_")}) for r in rows],
                         summary, lambda s, path: plot(s, rows, seconds, args, path))
    for path in paths:
        print("wrote", path)
    report(summary)


def report(summary):
    """Per predictor, over the regimes whose simulated times differ: how many
    meet Spearman >= 0.9, the median error and regret."""
    print("%-8s %8s %12s %12s %12s" % ("predictor", "regimes", "rho>=0.9", "median err",
                                         "regret<=5%"))
    for key in PREDICTORS + BASELINES:
        rows = [s for s in summary if s["predictor"] == key and s["distinct"]]
        if not rows:
            continue
        good = sum(s["spearman"] >= 0.9 for s in rows if not math.isnan(s["spearman"]))
        errors = [s["median_log_error"] for s in rows if not math.isnan(s["median_log_error"])]
        regret = sum(s["regret"] <= 1.05 for s in rows if not math.isnan(s["regret"]))
        print("%-8s %8d %12d %12s %12d" % (key, len(rows), good,
                                           "%.3f" % statistics.median(errors) if errors else "-",
                                           regret))


if __name__ == "__main__":
    main()
