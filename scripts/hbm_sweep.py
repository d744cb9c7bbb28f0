#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""FPGA memory sweep: the best schedule the optimizer finds and its J as the
HBM per FPGA grows from 0 to 32 GB, beside each of the paper's four schedules.

Writes hbm-sweep.csv and hbm-sweep.png into the output folder.  Each memory
size is an independent optimisation; --jobs runs them in parallel processes.
The jitter axis: for each jitter allowance (--jitterMs, the arrival skew every
receiver of two or more streams absorbs), the least FPGA memory each of the
paper's schedules needs, as hbm-jitter.csv and hbm-jitter.png.

    python3 scripts/hbm_sweep.py
    python3 scripts/hbm_sweep.py --hbmGB 0 0.1 0.2 1 32 --evaluations 5000 --jobs 2
    python3 scripts/hbm_sweep.py --jitterMs 0.1 1 10
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from wan_training import run_tasks, warn_unused_options, write_csv  # noqa: E402  (no ns-3 loaded here)

def run_one(hbm_gb, evaluations, max_period, seed):
    """The optimizer's best schedule and the built-ins' J at one memory size."""
    from wan_training import evaluation_dict, ns

    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    helper = ns.CliqueScheduleHelper(topo, config)
    helper.SetOptimizerAttribute("Evaluations", ns.UintegerValue(evaluations))
    helper.SetOptimizerAttribute("MaxPeriod", ns.UintegerValue(max_period))
    helper.SetOptimizerAttribute("Seed", ns.UintegerValue(seed))
    best = helper.Optimize()
    row = {
        "hbm_gb": hbm_gb,
        "best": str(best.schedule.GetName()),
        "best_schedule": str(best.schedule.ToString(topo)),
        "best_T_ms": float(best.evaluation.roundTimeMs),
        "best_A": float(best.evaluation.disagreement),
        "best_J": float(best.evaluation.objective),
        "search": str(best.method),
        "distinct": int(best.distinct),
    }
    for name in [str(n) for n in ns.CliqueScheduleBuiltins.Names()]:
        e = evaluation_dict(helper.Evaluate(helper.Builtin(name)))
        row["J_" + name] = e["objective"] if e["feasible"] else math.nan
    return row


def memory_for_jitter(jitter_ms):
    """The least FPGA memory (GB) each built-in schedule needs to absorb a
    jitter allowance: 0 when it runs without memory."""
    from wan_training import evaluation_dict, ns

    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.jitterAllowance = jitter_ms * 1e-3
    helper = ns.CliqueScheduleHelper(topo, config)
    row = {"jitter_ms": jitter_ms}
    for name in [str(n) for n in ns.CliqueScheduleBuiltins.Names()]:
        e = evaluation_dict(helper.Evaluate(helper.Builtin(name)))
        row["GB_" + name] = 0.0 if e["feasible"] else e["required_memory_bytes"] / 1e9
    return row


def new_figure():
    """A figure of the size both plots have (matplotlib without a display)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(7, 4.4))


def save_figure(fig, ax, path, xlabel, ylabel, title):
    """Labels, grid and legend as both plots have them; writes and closes."""
    import matplotlib.pyplot as plt

    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_jitter(rows, path):
    """The least memory against the jitter allowance, per schedule (log-log)."""
    fig, ax = new_figure()
    for name in [key[3:] for key in rows[0] if key.startswith("GB_")]:
        ax.plot([r["jitter_ms"] for r in rows], [r["GB_" + name] for r in rows], marker="o",
                markersize=3, label=name)
    ax.set_xscale("log")
    ax.set_yscale("symlog", linthresh=1e-3)
    save_figure(fig, ax, path, "jitter allowance (ms of arrival skew each receiver absorbs)",
                "least FPGA memory per receiver (GB)",
                "Nine cities: FPGA memory the schedules need to absorb jitter")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hbmGB", dest="hbm_gb", metavar="GB", nargs="+", type=float,
                        default=[0, 0.05, 0.1, 0.15, 0.2, 0.5, 1, 2, 4, 8, 16, 32],
                        help="FPGA memory sizes, GB")
    parser.add_argument("--evaluations", type=int, default=20000,
                        help="annealing steps per size (default 20000)")
    parser.add_argument("--maxPeriod", dest="max_period", metavar="N", type=int, default=3,
                        help="largest period (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="annealing seed (default 1)")
    parser.add_argument("--jitterMs", dest="jitter_ms", metavar="MS", nargs="*", type=float,
                        default=[0.1, 0.3, 1, 3, 10],
                        help="jitter allowances, ms (none: no jitter axis)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.evaluations < 1 or args.max_period < 1 or min(args.hbm_gb) < 0:
        parser.error("--jobs, --evaluations and --maxPeriod must be at least 1, "
                     "--hbmGB non-negative")
    if any(not 0 < j <= 1000 for j in args.jitter_ms):
        parser.error("--jitterMs must be above 0 and at most 1000 ms")
    os.makedirs(args.output, exist_ok=True)

    tasks = [(h, args.evaluations, args.max_period, args.seed) for h in args.hbm_gb]
    rows = run_tasks(run_one, tasks, args.jobs)
    # The annealing's options do nothing where every space was enumerated.
    annealed = any(r["search"] == "annealing" for r in rows)
    warn_unused_options(parser, args, [
        (option, dest, annealed, "a space too large to enumerate (a larger --maxPeriod)")
        for option, dest in (("--evaluations", "evaluations"), ("--seed", "seed"))])
    jitter_rows = run_tasks(memory_for_jitter, [(j,) for j in args.jitter_ms], args.jobs)

    csv_path = os.path.join(args.output, "hbm-sweep.csv")
    write_csv(csv_path, rows)

    fig, ax = new_figure()
    x = [max(r["hbm_gb"], 0.01) for r in rows]
    # The built-ins' columns, J_<name>, in the model's order.
    for name in [key[2:] for key in rows[0] if key.startswith("J_")]:
        ax.plot(x, [r["J_" + name] for r in rows], marker="o", markersize=3, label=name)
    ax.plot(x, [r["best_J"] for r in rows], marker="s", color="black", linewidth=2,
            label="optimizer's best")
    ax.set_xscale("log")
    png_path = os.path.join(args.output, "hbm-sweep.png")
    save_figure(fig, ax, png_path, "FPGA memory per receiver (GB; 0 plotted at 0.01)",
                "J = T x A (ms-error)",
                "Nine cities: J of the best schedule found as FPGA memory grows")
    for r in rows:
        print("%6g GB  best %-10s J %6.0f  (%s)" % (r["hbm_gb"], r["best"], r["best_J"],
                                                  r["best_schedule"]))
    written = [csv_path, png_path]
    if jitter_rows:
        jitter_csv = os.path.join(args.output, "hbm-jitter.csv")
        write_csv(jitter_csv, jitter_rows)
        jitter_png = os.path.join(args.output, "hbm-jitter.png")
        plot_jitter(jitter_rows, jitter_png)
        written += [jitter_csv, jitter_png]
        for r in jitter_rows:
            print("jitter %5g ms: " % r["jitter_ms"] + ", ".join(
                "%s %.4g GB" % (key[3:], value) for key, value in r.items()
                if key.startswith("GB_")))
    print("written: %s" % ", ".join(written))
    return rows


if __name__ == "__main__":
    main()
