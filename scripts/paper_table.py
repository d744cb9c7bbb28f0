#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The paper's table: the four schedules without and with FPGA memory, the
round planner's T, A and J beside the packet-level round time.

Writes paper-table.csv and paper-table.png into the output folder.  Each
(schedule, memory) pair is an independent simulation; --jobs runs them in
parallel processes.

    python3 scripts/paper_table.py
    python3 scripts/paper_table.py --hbmGB 0 8 32 --scale 1000 --jobs 2 --output results
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from wan_training import builtin_schedules, run_tasks, write_csv  # noqa: E402  (no ns-3 here)

def run_one(schedule, hbm_gb, scale, rounds):
    """Planner and packet level for one schedule and FPGA memory size."""
    from wan_training import evaluation_dict, experiment_rows, ns, packet_run

    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    helper = ns.CliqueScheduleHelper(topo, config)
    plan = evaluation_dict(helper.Evaluate(helper.Builtin(schedule)))
    # A does not depend on feasibility (the evaluator skips it when infeasible).
    mixing = ns.MixingAnalysis.FromSchedule(helper.Builtin(schedule), topo.GetNCities())
    row = {
        "schedule": schedule,
        "hbm_gb": hbm_gb,
        "feasible": plan["feasible"],
        "planner_T_ms": plan["round_time_ms"] if plan["feasible"] else math.nan,
        "A": float(mixing.GetAverageDisagreement()),
        "J_ms_error": plan["objective"] if plan["feasible"] else math.nan,
        "packet_T_ms": math.nan,
        "packet_vs_planner_percent": math.nan,
        "exact": "",
    }
    if plan["feasible"]:
        experiment = ns.CliqueExperimentHelper(topo, config)
        experiment.SetScale(scale)
        experiment.SetRecovery("accept")  # the paper's and the planner's rounds: data alone
        if rounds > 0:
            experiment.SetRounds(rounds)
        measured = experiment_rows(packet_run(experiment.Run(helper.Builtin(schedule)), topo))
        row["packet_T_ms"] = max(r["measured_ms"] for r in measured)
        row["packet_vs_planner_percent"] = 100 * (row["packet_T_ms"] / row["planner_T_ms"] - 1)
        row["exact"] = all(r["exact"] for r in measured)
    return row


def plot(rows, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sizes = sorted({r["hbm_gb"] for r in rows})
    fig, axes = plt.subplots(1, len(sizes), figsize=(5 * len(sizes), 4.2), squeeze=False)
    for ax, size in zip(axes[0], sizes):
        chosen = [r for r in rows if r["hbm_gb"] == size]
        x = range(len(chosen))
        planner = [r["planner_T_ms"] for r in chosen]
        packet = [r["packet_T_ms"] for r in chosen]
        ax.bar([i - 0.2 for i in x], [0 if math.isnan(v) else v for v in planner], 0.4,
               label="round planner")
        ax.bar([i + 0.2 for i in x], [0 if math.isnan(v) else v for v in packet], 0.4,
               label="packet level")
        for i, r in zip(x, chosen):
            label = "infeasible" if not r["feasible"] else "J %.0f" % r["J_ms_error"]
            ax.text(i, (0 if math.isnan(r["planner_T_ms"]) else r["planner_T_ms"]) + 15, label,
                    ha="center", fontsize=8)
        ax.set_xticks(list(x))
        ax.set_xticklabels([r["schedule"] for r in chosen])
        ax.set_xlabel("schedule")
        ax.set_ylabel("round time T (ms)")
        ax.set_title("FPGA memory %g GB" % size)
        ax.legend(loc="upper left", fontsize=8)
    fig.suptitle("Nine cities, D = 1 GB: planned and simulated round time (J = T x A above bars)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedule", dest="schedules", metavar="NAME", nargs="+",
                        help="built-in schedules (default: all of the model's)")
    parser.add_argument("--hbmGB", dest="hbm_gb", metavar="GB",
                        nargs="+", type=float, default=[0, 32],
                        help="FPGA memory sizes, GB (default: 0 32)")
    parser.add_argument("--scale", type=float, default=100,
                        help="time-preserving scale of the packet level (default 100)")
    parser.add_argument("--rounds", type=int, default=0,
                        help="rounds to simulate (default: one period)")
    parser.add_argument("--jobs", type=int, default=1,
                        help="parallel processes (default 1; each loads ns-3 in about 5 s)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if args.scale < 1 or args.jobs < 1 or any(h < 0 for h in args.hbm_gb):
        parser.error("--scale and --jobs must be at least 1 and --hbmGB non-negative")
    names = builtin_schedules()
    unknown = [s for s in args.schedules or [] if s not in names]
    if unknown:
        parser.error("unknown schedule %s (expected %s)" % (unknown[0], ", ".join(names)))
    args.schedules = args.schedules or names
    os.makedirs(args.output, exist_ok=True)

    tasks = [(s, h, args.scale, args.rounds) for h in args.hbm_gb for s in args.schedules]
    rows = []
    rows = run_tasks(run_one, tasks, args.jobs)

    csv_path = os.path.join(args.output, "paper-table.csv")
    write_csv(csv_path, rows)
    png_path = os.path.join(args.output, "paper-table.png")
    plot(rows, png_path)
    for r in rows:
        print("%-11s %4g GB  T %7.1f ms  A %6.3f  J %7.0f  packet %7.1f ms  %s" % (
            r["schedule"], r["hbm_gb"], r["planner_T_ms"], r["A"], r["J_ms_error"],
            r["packet_T_ms"], "exact" if r["exact"] is True else ""))
    print("written: %s, %s" % (csv_path, png_path))
    return rows


if __name__ == "__main__":
    main()
