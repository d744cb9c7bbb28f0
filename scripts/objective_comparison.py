#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The optimizer's two objectives side by side: the schedule that minimises
the paper's J = T x A and the one that minimises the predicted time to
target (ScheduleOptimizer::SetTimeObjective, WanTimeToTargetPredictor's
isotropic moments), each found on the nine cities for each capability (today,
and every core link at --coreGbps), then both run at packet level (lossless,
one period) and trained over RngRun 1..--runs with the training loop: the
simulated time to target of the gap averaged over the runs, with a bootstrap
95% interval over the runs (as scripts/predictor_validation.py measures it).

The time objective takes the workload's constants from RngRun 1's workload
and initial models (WanWorkloadConstants::Of), H, C and eta, and the target
as a multiple of what exact averaging settles at (the floor, from the
gradients' noise).

Writes into the output folder:
  objective-comparison.csv   per capability, workload and objective: the
                             schedule found, its T, A and J, its predicted
                             and simulated time to target
  objective-comparison.png   simulated time to target per objective

    python3 scripts/objective_comparison.py
    python3 scripts/objective_comparison.py --workloads quadratic --runs 2 --evaluations 2000
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

# None of these loads ns-3 here.
from predictor_validation import regime_rows, time_of, training_loop  # noqa: E402
from wan_training import run_tasks, write_csv  # noqa: E402


def training_loop_of(ns, workload, args, run):
    """The training loop of one run, as the validation configures it."""
    return training_loop(ns, workload, run, args.stepSize, args.localSteps, args.noise,
                         args.dimension,
                         args.heterogeneity if workload == "quadratic" else args.skew,
                         max(1, args.trainingSteps // args.localSteps))


def objective_of(ns, cppyy, workload, args):
    """The time objective: RngRun 1's constants, the training, the target."""
    start = training_loop_of(ns, workload, args, 1).MakeTraining(9)
    models = cppyy.gbl.std.vector[cppyy.gbl.std.vector["double"]]()
    for i in range(9):
        models.push_back(start.GetModel(i))
    constants = ns.WanWorkloadConstants.Of(start.GetWorkload(), models, args.noise ** 2)
    training = ns.WanPredictorTraining()
    training.stepSize = args.stepSize
    training.localSteps = args.localSteps
    training.computeS = args.computeMs / 1e3
    average = ns.WanPredictorRound()
    average.mixing = [[1.0 / 9] * 9 for _ in range(9)]
    floor = ns.WanTimeToTargetPredictor([average], training).GetFloorGap(
        constants.curvature, constants.noise, 9, constants.dimension)
    return ns.ScheduleTimeObjective(constants, training, args.target * floor), floor


def simulate(ns, topo, config, schedule, workload, floor, args):
    """The schedule at packet level, trained over the runs: its rounds'
    times and the rounds to target of the runs' averaged gap (with its
    bootstrap interval)."""
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(args.scale)
    experiment.SetRounds(schedule.GetNRounds())
    result = experiment.Run(schedule)
    seconds = [r.mixedMs / 1e3 for r in result.rounds]
    curves = []
    for run in range(1, args.runs + 1):
        outcome = training_loop_of(ns, workload, args, run).Train(result)
        curves.append([h.modelLoss - outcome.minimumLoss for h in outcome.history])
    settings = {"args": args, "targets": [args.target], "target_shares": []}
    row = regime_rows("", ("", 0, "", ""), {"simulated": curves}, floor, settings)[0]
    return seconds, row


def compare(core_gbps, workload, args):
    """Both objectives' schedules for one capability and workload; one row each."""
    import cppyy
    from wan_training import ns

    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = args.hbmGB * 1e9
    if core_gbps:
        config.coreCapacityBps = core_gbps * 1e9
    time, floor = objective_of(ns, cppyy, workload, args)
    rows = []
    for objective in ("J", "time"):
        helper = ns.CliqueScheduleHelper(topo, config)
        helper.SetOptimizerAttribute("MaxPeriod", ns.UintegerValue(args.maxPeriod))
        helper.SetOptimizerAttribute("MaxCliqueSize", ns.UintegerValue(args.maxClique))
        helper.SetOptimizerAttribute("Evaluations", ns.UintegerValue(args.evaluations))
        if objective == "time":
            helper.SetTimeObjective(time)
        found = helper.Optimize()
        e = found.evaluation
        predicted = time.Predict(found.schedule.GetRounds(), e.roundTimeMs)
        seconds, sim = simulate(ns, topo, config, found.schedule, workload, floor, args)
        c = args.computeMs / 1e3
        rows.append({
            "capability": "core %g Gbps" % core_gbps if core_gbps else "today",
            "workload": workload, "objective": objective,
            "schedule": str(found.schedule.ToString(topo)),
            "period": found.schedule.GetNRounds(), "t_ms": e.roundTimeMs,
            "a": e.disagreement, "j": e.objective,
            "predicted_s": predicted.seconds if predicted.reachable else math.inf,
            "simulated_s": time_of(sim["rounds_simulated"], args.localSteps, c, seconds),
            "simulated_low_s": time_of(sim["rounds_simulated_low"], args.localSteps, c, seconds),
            "simulated_high_s": time_of(sim["rounds_simulated_high"], args.localSteps, c,
                                        seconds),
            "rounds_simulated": sim["rounds_simulated"],
            "rounds_each_run": sim["rounds_each_run"]})
    return rows


def plot(rows, png_path):
    """Simulated time to target per capability and workload, J's schedule
    against the time objective's, with the bootstrap intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = sorted({(r["capability"], r["workload"]) for r in rows})
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for k, objective in enumerate(("J", "time")):
        values, low, high = [], [], []
        for g in groups:
            r = [x for x in rows if (x["capability"], x["workload"]) == g
                 and x["objective"] == objective][0]
            finite = math.isfinite(r["simulated_s"])
            values.append(r["simulated_s"] if finite else 0)
            low.append(r["simulated_s"] - r["simulated_low_s"] if finite else 0)
            high.append(r["simulated_high_s"] - r["simulated_s"]
                        if finite and math.isfinite(r["simulated_high_s"]) else 0)
        ax.bar([i + 0.4 * k for i in range(len(groups))], values, 0.4, yerr=[low, high],
               capsize=3, label="minimising %s" % objective)
    ax.set_xticks([i + 0.2 for i in range(len(groups))])
    ax.set_xticklabels(["%s\n%s" % g for g in groups])
    ax.set_ylabel("simulated time to target, s")
    ax.set_title("The schedule each objective finds, trained at packet level")
    ax.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--coreGbps", type=float, nargs="*", default=[25],
                        help="core capacities besides today's")
    parser.add_argument("--workloads", nargs="+", default=["quadratic", "logistic"],
                        choices=["quadratic", "logistic"])
    parser.add_argument("--runs", type=int, default=5, help="RngRun 1..N of each training")
    parser.add_argument("--localSteps", type=int, default=5, help="H")
    parser.add_argument("--computeMs", type=float, default=250, help="C per local step, ms")
    parser.add_argument("--stepSize", type=float, default=0.1, help="eta")
    parser.add_argument("--noise", type=float, default=0.3,
                        help="standard deviation of the gradients' noise")
    parser.add_argument("--heterogeneity", type=float, default=0.3, help="quadratic: zeta")
    parser.add_argument("--skew", type=float, default=0.9, help="logistic: skew")
    parser.add_argument("--dimension", type=int, default=200, help="quadratic: d")
    parser.add_argument("--target", type=float, default=5,
                        help="the target, a multiple of exact averaging's floor (above 1)")
    parser.add_argument("--trainingSteps", type=int, default=3000,
                        help="local steps each training runs")
    parser.add_argument("--hbmGB", type=float, default=32, help="FPGA memory per receiver, GB")
    parser.add_argument("--maxPeriod", type=int, default=3, help="optimizer: largest period")
    parser.add_argument("--maxClique", type=int, default=0,
                        help="optimizer: largest clique (0: every island)")
    parser.add_argument("--evaluations", type=int, default=20000, help="optimizer: steps")
    parser.add_argument("--scale", type=float, default=1000, help="packet level's scale")
    parser.add_argument("--seed", type=int, default=1, help="seed of the bootstrap")
    parser.add_argument("--bootstrap", type=int, default=1000, help="bootstrap samples")
    parser.add_argument("--jobs", type=int, default=1, help="settings run at once")
    parser.add_argument("--output", default=".", help="output folder")
    args = parser.parse_args()
    if args.target <= 1:
        parser.error("--target must be above 1 (a multiple of the floor)")
    for name in ("runs", "localSteps", "trainingSteps", "evaluations", "jobs", "bootstrap"):
        if getattr(args, name) < 1:
            parser.error("--%s must be at least 1" % name)
    tasks = [(core, w, args) for core in [0] + args.coreGbps for w in args.workloads]
    rows = [row for rs in run_tasks(compare, tasks, args.jobs) for row in rs]
    os.makedirs(args.output, exist_ok=True)
    csv_path = os.path.join(args.output, "objective-comparison.csv")
    write_csv(csv_path, rows)
    png_path = os.path.join(args.output, "objective-comparison.png")
    plot(rows, png_path)
    for r in rows:
        print("%-14s %-9s %-5s T %7.1f ms, A %5.3f, J %6.0f; predicted %7.2f s, simulated "
              "%7.2f s [%.2f, %.2f]" % (r["capability"], r["workload"], r["objective"],
                                        r["t_ms"], r["a"], r["j"], r["predicted_s"],
                                        r["simulated_s"], r["simulated_low_s"],
                                        r["simulated_high_s"]))
    print("wrote", csv_path)
    print("wrote", png_path)


if __name__ == "__main__":
    main()
