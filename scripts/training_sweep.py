#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Training in the loop: decentralised SGD (WanTrainingLoop) over the rounds
the packet level delivered, per schedule, network capability, loss and
policy, as means over independent runs (ns-3's RngRun: the loss, the
workload and the initial models) with 95% confidence intervals.

Every policy runs the packet level with the same recovery (--recovery,
default early: missing contributions are asked for).  Under "wait" the
islands average when they hold everything (or the recovery gives up);
under "quorum" they average what they hold at the deadline, T x (1 +
roundGuard), the recovery goes on, and what it brings later is carried to
the next round; "drop" (a comparison) averages at the deadline too but
never applies what comes later.  Loss is on the links of --lossLinks (default the core);
what the network dropped is measured: the contributions given up or
recovered, as a share of those expected.

Writes into the output folder:
  training-sweep.csv          one row per setting: means and 95% CI half-widths
  training-sweep-runs.csv     one row per run
  training-sweep-ranking.csv  per capability, workload and policy (lossless):
                              the schedules ranked by time to target and by J,
                              and Spearman's rho between the two
  training-sweep.png          loss at the islands' models against simulated
                              time, and time to target against loss
  training-sweep-packets.json every run's packet output, training included

    python3 scripts/training_sweep.py
    python3 scripts/training_sweep.py --schedule pairs triangles --lossRate 0 0.01 --runs 5 --jobs 2
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

# None of these loads ns-3 here.
from wan_training import (mean_ci, model_facts, parse_schedule_memory, run_tasks,  # noqa: E402
                          write_csv, write_sweep)

POLICIES = ("wait", "quorum", "drop")


def run_one(schedule, hbm_gb, core_gbps, loss, policy, run, settings):
    """One simulation, RngRun `run`, and the training over its rounds for
    each workload; returns its packet output and one row per workload."""
    from wan_training import ns, packet_run

    ns.RngSeedManager.SetRun(run)
    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    if core_gbps:
        config.coreCapacityBps = core_gbps * 1e9
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(settings["scale"])
    if settings["rounds"]:
        experiment.SetRounds(settings["rounds"])
    experiment.SetRoundGuard(settings["round_guard"])
    experiment.SetRecovery(settings["recovery"])
    experiment.SetAverageAtDeadline(policy != "wait")
    if loss > 0:
        impairment = ns.WanLinkImpairment()
        impairment.lossRate = loss
        for name in settings["loss_links"]:
            experiment.SetImpairment(ns.WanNetworkHelper.ParseLinkClass(name), impairment)
    if schedule.endswith(".json"):
        result = experiment.Run(ns.CliqueSchedule.LoadFile(schedule, topo))
    else:
        result = experiment.Run(ns.CliqueScheduleBuiltins.Make(schedule, topo))
    trainings = []
    for workload in settings["workloads"]:
        loop = ns.WanTrainingLoop()
        loop.SetWorkload(workload)
        loop.SetPolicy("quorum" if policy == "quorum" else "wait")
        loop.SetAttribute("Rounds", ns.UintegerValue(settings["training_rounds"]))
        loop.SetAttribute("StepSize", ns.DoubleValue(settings["step_size"]))
        loop.SetAttribute("LocalSteps", ns.UintegerValue(settings["local_steps"]))
        loop.SetAttribute("Heterogeneity", ns.DoubleValue(settings["heterogeneity"]))
        loop.SetAttribute("TargetGap", ns.DoubleValue(settings["target_gap"]))
        loop.SetAttribute("ComputeTime", ns.TimeValue(ns.Seconds(settings["compute_ms"] / 1e3)))
        trainings.append(loop.Train(result))
    capability = "today" if not core_gbps else "core %g Gbps" % core_gbps
    label = "%s %g GB, %s, %s, loss %g, run %d" % (schedule, hbm_gb, capability, policy, loss, run)
    packets = packet_run(result, topo, label,
                         {"capability": capability, "loss": loss, "policy": policy, "run": run,
                          "hbm_gb": hbm_gb, "scale": settings["scale"]}, trainings)
    return packets, run_rows(packets, schedule, hbm_gb, capability, loss, policy, run,
                             settings["time_budget"])


def loss_at(history, seconds):
    """The loss at the islands' models of the last record at or before a
    simulated time (the training as it stands then)."""
    return [h for h in history if h["time_s"] <= seconds][-1]["model_loss"]


def run_rows(packets, schedule, hbm_gb, capability, loss, policy, run, budget):
    """The figures of one run, one row per workload, from its packet output."""
    islands = [i for r in packets["rounds"] for i in r["islands"]]
    expected = sum(i["expected"] for i in islands)
    dropped = sum(i["given_up"] + i["recovered"] for i in islands)
    rows = []
    for t in packets["training"]:
        rows.append({
            "schedule": packets["schedule"],
            "hbm_gb": hbm_gb,
            "capability": capability,
            "loss": loss,
            "policy": policy,
            "workload": t["workload"],
            "run": run,
            "dropped_percent": 100 * dropped / expected if expected else 0.0,
            "given_up": sum(i["given_up"] for i in islands),
            # A round some island never averaged: infinite.
            "mixed_ms": max(math.inf if r["mixed_ms"] is None else r["mixed_ms"]
                            for r in packets["rounds"]),
            "mean_round_s": t["history"][-1]["time_s"] / max(1, t["history"][-1]["round"]),
            "disagreement": packets["disagreement"],
            "objective": packets["objective"],
            "objective_measured": (math.inf if packets["objective_measured"] is None
                                   else packets["objective_measured"]),
            "carried_weight": t["carried_weight"],
            "final_model_loss": t["final_model_loss"],
            "budget_model_loss": loss_at(t["history"], budget),
            "minimum_loss": t["minimum_loss"],
            "target_loss": t["target_loss"],
            "time_to_target_s": (math.inf if t["time_to_target_s"] is None
                                 else t["time_to_target_s"]),
            "rounds_to_target": (math.inf if t["rounds_to_target"] is None
                                 else t["rounds_to_target"]),
        })
    return rows


KEY = ("schedule", "hbm_gb", "capability", "loss", "policy", "workload")
METRICS = ("dropped_percent", "mixed_ms", "mean_round_s", "disagreement", "objective",
           "objective_measured",
           "carried_weight", "final_model_loss", "budget_model_loss", "time_to_target_s",
           "rounds_to_target")


def summarise(rows):
    """One row per setting: means over its runs with 95% CI half-widths (a
    target some run never reached: infinite), and the final loss and time to
    target against the lossless run of the same schedule, policy and workload
    (time saved: negative where the lossy run is slower)."""
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in KEY), []).append(r)
    summary = []
    for k, runs in groups.items():
        row = dict(zip(KEY, k))
        row["runs"] = len(runs)
        for metric in METRICS:
            row[metric], row[metric + "_ci95"] = mean_ci([r[metric] for r in runs])
        row["reached_runs"] = sum(math.isfinite(r["time_to_target_s"]) for r in runs)
        summary.append(row)
    for row in summary:
        base = [s for s in summary if all(s[k] == row[k] for k in KEY if k != "loss")
                and s["loss"] == 0]
        if base:
            b = base[0]
            row["final_loss_vs_lossless"] = row["final_model_loss"] / b["final_model_loss"]
            row["budget_loss_vs_lossless"] = row["budget_model_loss"] / b["budget_model_loss"]
            row["time_to_target_vs_lossless"] = (row["time_to_target_s"] / b["time_to_target_s"]
                                                 if math.isfinite(b["time_to_target_s"])
                                                 else math.nan)
    return summary


def ranks(values):
    """Ranks from 1 (the least), ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def ranking(summary):
    """Per capability, workload and policy, over the lossless schedules: their
    ranks by mean time to target and by J (planned and measured), and
    Spearman's rho (scipy) between time to target and each J, and, to tell
    why they differ, between time to target and the round's time (compute
    plus T), and between rounds to target and A."""
    from scipy import stats

    out = []
    lossless = [s for s in summary if s["loss"] == 0]
    for group in sorted({(s["capability"], s["workload"], s["policy"]) for s in lossless}):
        rows = [s for s in lossless if (s["capability"], s["workload"], s["policy"]) == group]
        if len(rows) < 2:
            continue
        time = [s["time_to_target_s"] for s in rows]
        j = [s["objective"] for s in rows]
        jm = [s["objective_measured"] for s in rows]
        def rho(x, y):
            return stats.spearmanr(x, y).correlation if len(rows) > 2 else math.nan

        rho_j, rho_m = rho(time, j), rho(time, jm)
        rho_t = rho(time, [s["mean_round_s"] for s in rows])
        rho_a = rho([s["rounds_to_target"] for s in rows], [s["disagreement"] for s in rows])
        for s, rt, rj, rjm in zip(rows, ranks(time), ranks(j), ranks(jm)):
            out.append({"capability": group[0], "workload": group[1], "policy": group[2],
                        "schedule": s["schedule"], "hbm_gb": s["hbm_gb"],
                        "time_to_target_s": s["time_to_target_s"],
                        "time_to_target_s_ci95": s["time_to_target_s_ci95"],
                        "rounds_to_target": s["rounds_to_target"],
                        "objective": s["objective"], "objective_measured": s["objective_measured"],
                        "disagreement": s["disagreement"], "mean_round_s": s["mean_round_s"],
                        "rank_time": rt, "rank_objective": rj, "rank_objective_measured": rjm,
                        "spearman_rho": rho_j, "spearman_rho_measured": rho_m,
                        "spearman_rho_round_time": rho_t,
                        "spearman_rho_rounds_disagreement": rho_a})
    return out


def mean_history(packets, setting):
    """Per training round, over the runs of a setting (schedule, capability,
    loss, policy, workload): the mean time and the mean gap of the loss at the
    islands' models to f*, as a share of the initial gap (each run its own f*)."""
    schedule, capability, loss, policy, workload = setting
    trainings = [t for p in packets for t in p["training"]
                 if p["schedule"] == schedule and p["parameters"]["capability"] == capability
                 and float(p["parameters"]["loss"]) == loss
                 and p["parameters"]["policy"] == policy and t["workload"] == workload]
    if not trainings:
        return [], []
    n = min(len(t["history"]) for t in trainings)
    times = [sum(t["history"][k]["time_s"] for t in trainings) / len(trainings) for k in range(n)]
    gaps = [sum((t["history"][k]["model_loss"] - t["minimum_loss"]) /
                (t["history"][0]["model_loss"] - t["minimum_loss"]) for t in trainings)
            / len(trainings) for k in range(n)]
    return times, gaps


def plot(summary, packets, target_gap, png_path):
    """Top: the gap of the loss at the islands' models to f* (share of the
    initial gap) against simulated time, per schedule (today's network, the
    first workload), one line style per policy, one colour per loss, up to
    three times the slowest setting's time to target; the target gap dotted.
    Bottom: time to target against loss, per schedule and policy, with the
    95% CIs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    schedules = sorted({s["schedule"] for s in summary})
    workload = summary[0]["workload"]
    capability = summary[0]["capability"]
    losses = sorted({s["loss"] for s in summary})
    policies = [p for p in POLICIES if any(s["policy"] == p for s in summary)]
    styles = dict(zip(POLICIES, ("-", "--", ":")))
    fig, axes = plt.subplots(2, len(schedules), figsize=(4.6 * len(schedules), 8), squeeze=False)
    colours = plt.rcParams["axes.prop_cycle"].by_key()["color"]
    for col, schedule in enumerate(schedules):
        ax = axes[0][col]
        reached = [s["time_to_target_s"] for s in summary if s["schedule"] == schedule and
                   s["capability"] == capability and s["workload"] == workload and
                   math.isfinite(s["time_to_target_s"])]
        for li, loss in enumerate(losses):
            for policy in policies:
                times, values = mean_history(packets, (schedule, capability, loss, policy,
                                                       workload))
                if times:
                    ax.plot(times, values, styles[policy], color=colours[li % len(colours)],
                            label="%s, loss %g%%" % (policy, 100 * loss))
        if reached:
            ax.set_xlim(0, 3 * max(reached))
        ax.axhline(target_gap, color="grey", linestyle=":", linewidth=1)
        ax.set_yscale("log")
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("%s: gap to f* at the islands' models" % workload)
        ax.set_title("%s (%s)" % (schedule, capability))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
        ax = axes[1][col]
        for policy in policies:
            style = styles[policy]
            pts = sorted([s for s in summary if s["schedule"] == schedule and
                          s["capability"] == capability and s["policy"] == policy and
                          s["workload"] == workload and math.isfinite(s["time_to_target_s"])],
                         key=lambda s: s["loss"])
            if pts:
                ax.errorbar([100 * s["loss"] for s in pts], [s["time_to_target_s"] for s in pts],
                            yerr=[s["time_to_target_s_ci95"] for s in pts], linestyle=style,
                            marker="o", capsize=3, label=policy)
        ax.set_xlabel("packet loss on the lossy links (%)")
        ax.set_ylabel("time to target loss (s)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Nine cities: training over the packet level's rounds "
                 "(means of the runs; bottom: 95% CI)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    plt.close(fig)


def main(argv=None):
    facts = model_facts()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedule", dest="configs", metavar="NAME[:GB]", nargs="+",
                        type=parse_schedule_memory,
                        default=[parse_schedule_memory(n) for n in facts["schedules"]],
                        help="schedules (built-in names or schedule files, .json) and FPGA "
                             "memory (default every built-in at its default memory)")
    parser.add_argument("--coreGbps", dest="core_gbps", metavar="GBPS", nargs="+", type=float,
                        default=[0, 25],
                        help="core capacities to compare, lossless (0: the topology's; default "
                             "0 25)")
    parser.add_argument("--lossRate", dest="loss", metavar="RATE", nargs="+", type=float,
                        default=[0, 0.01, 0.05, 0.1],
                        help="loss rates on --lossLinks, today's network (default 0 0.01 0.05 "
                             "0.1)")
    parser.add_argument("--lossLinks", dest="loss_links", nargs="+",
                        choices=facts["link_classes"], default=["core"],
                        help="link classes that lose packets (default core)")
    parser.add_argument("--policy", dest="policies", nargs="+", choices=POLICIES,
                        default=["wait", "quorum"],
                        help="training policies (default wait quorum; drop: a comparison)")
    parser.add_argument("--recovery", choices=facts["repairs"], default="early",
                        help="the islands' recovery under both policies (default early, not "
                             "the model's %s: the policies differ in what they do with late "
                             "chunks, which parity would hide)" % facts["recovery_default"])
    parser.add_argument("--workload", dest="workloads", nargs="+",
                        choices=["quadratic", "logistic"], default=["quadratic", "logistic"],
                        help="workloads (each trained on every run)")
    parser.add_argument("--runs", type=int, default=5,
                        help="independent runs (RngRun 1..N) per setting (default 5)")
    parser.add_argument("--scale", type=float, default=1000, help="scale (default 1000)")
    parser.add_argument("--rounds", type=int, default=0,
                        help="packet rounds per run (default 0: one period)")
    parser.add_argument("--roundGuard", dest="round_guard", type=float, default=0.1,
                        help="share of T between round starts: the quorum's grace window "
                             "(default 0.1)")
    parser.add_argument("--trainingRounds", dest="training_rounds", type=int, default=200,
                        help="training rounds, the packet rounds in turn (default 200)")
    parser.add_argument("--computeMs", dest="compute_ms", type=float, default=250,
                        help="compute time per local step, ms (default 250)")
    parser.add_argument("--stepSize", dest="step_size", type=float, default=0.1,
                        help="step size eta of the local steps (default 0.1)")
    parser.add_argument("--localSteps", dest="local_steps", type=int, default=1,
                        help="local steps per round (default 1)")
    parser.add_argument("--heterogeneity", type=float, default=0.5,
                        help="quadratic: spread of the islands' optima (default 0.5)")
    parser.add_argument("--targetGap", dest="target_gap", type=float, default=0.05,
                        help="target: f* + gap x (initial loss - f*) (default 0.05)")
    parser.add_argument("--timeBudget", dest="time_budget", type=float, default=20,
                        help="simulated seconds at which the loss is also read (default 20)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if not 0 <= args.target_gap <= 1 or args.step_size < 0 or args.heterogeneity < 0:
        parser.error("--targetGap must be in [0, 1], --stepSize and --heterogeneity "
                     "non-negative")
    if min(args.jobs, args.runs, args.training_rounds, args.local_steps) < 1 or \
            args.scale < 1 or args.rounds < 0:
        parser.error("--jobs, --runs, --trainingRounds, --localSteps and --scale must be at "
                     "least 1, --rounds at least 0")
    if any(not 0 <= p < 1 for p in args.loss) or any(g < 0 for g in args.core_gbps):
        parser.error("--lossRate must be in [0, 1) and --coreGbps non-negative")
    if args.round_guard < 0 or args.compute_ms < 0 or args.time_budget < 0:
        parser.error("--roundGuard, --computeMs and --timeBudget must be non-negative")
    os.makedirs(args.output, exist_ok=True)

    settings = {"recovery": args.recovery, "scale": args.scale, "rounds": args.rounds,
                "round_guard": args.round_guard, "time_budget": args.time_budget,
                "step_size": args.step_size, "local_steps": args.local_steps,
                "heterogeneity": args.heterogeneity, "target_gap": args.target_gap,
                "loss_links": args.loss_links, "workloads": args.workloads,
                "training_rounds": args.training_rounds, "compute_ms": args.compute_ms}
    tasks = []
    for schedule, gb in args.configs:
        for policy in args.policies:
            for run in range(1, args.runs + 1):
                # Lossless at each capability (the topology's first), then
                # the losses on today's network.
                tasks += [(schedule, gb, core, 0.0, policy, run, settings)
                          for core in args.core_gbps]
                tasks += [(schedule, gb, args.core_gbps[0], loss, policy, run, settings)
                          for loss in args.loss if loss > 0]
    packets, rows = zip(*run_tasks(run_one, tasks, args.jobs))
    rows = [r for group in rows for r in group]
    write_csv(os.path.join(args.output, "training-sweep-runs.csv"), rows)  # kept if a step fails
    summary = summarise(rows)
    ranked = ranking(summary)

    paths = list(write_sweep(args.output, "training-sweep", rows, summary, packets,
                             lambda summary, path: plot(summary, packets, args.target_gap,
                                                        path)))
    if ranked:
        ranking_path = os.path.join(args.output, "training-sweep-ranking.csv")
        write_csv(ranking_path, ranked)
        paths.append(ranking_path)
    for s in summary:
        print("%-10s %2g GB %-13s loss %5g %-6s %-9s dropped %5.2f%%  round %7.3f s  "
              "final %.4g +/- %.2g  to target %8.2f +/- %6.2f s (%d/%d)" % (
                  s["schedule"], s["hbm_gb"], s["capability"], s["loss"], s["policy"],
                  s["workload"], s["dropped_percent"], s["mean_round_s"], s["final_model_loss"],
                  s["final_model_loss_ci95"], s["time_to_target_s"], s["time_to_target_s_ci95"],
                  s["reached_runs"], s["runs"]))
    for group in sorted({(r["capability"], r["workload"], r["policy"]) for r in ranked}):
        rows = [r for r in ranked if (r["capability"], r["workload"], r["policy"]) == group]
        print("ranking %s, %s, %s: rho(time, J) %.2f, rho(time, J measured) %.2f, "
              "rho(time, round) %.2f, rho(rounds, A) %.2f; by time: %s" % (
            group[0], group[1], group[2], rows[0]["spearman_rho"],
            rows[0]["spearman_rho_measured"], rows[0]["spearman_rho_round_time"],
            rows[0]["spearman_rho_rounds_disagreement"],
            " < ".join(r["schedule"] for r in sorted(rows, key=lambda r: r["rank_time"]))))
    print("written: %s" % ", ".join(paths))


if __name__ == "__main__":
    main()
