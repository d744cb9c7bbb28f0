#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""What a sync costs the simulator: events and wall time per megabyte the
islands send, for the paper's system (one round of a schedule on the
intelligent network) and for today's collectives over ns-3's TCP (ring
all-reduce, parameter server) among the nine islands, for the same D and
scale.

The runs are lossless and deterministic (their events do not vary); wall time
does, so each system runs --repeats times, interleaved (paper, ring, ps,
paper, ...) in one process after one unrecorded warm-up run of each, and the
figures are means with 95% confidence intervals.  The ratios against the
paper's system are taken per repeat (each system's run against the paper's
run of the same repeat), then averaged.  Bytes are the islands' own payload
at the run's scale (island chunks with their parity, or TCP records), what
the simulation moves.  A benchmark, not a test: its figures depend on the
machine.

Writes into the output folder:
  collectives-benchmark-runs.csv  one row per run
  collectives-benchmark.csv       per system: means, 95% CI half-widths, ratios
  collectives-benchmark.png       events and wall time per MB, per system

    python3 scripts/collectives_benchmark.py
    python3 scripts/collectives_benchmark.py --scale 10 --repeats 5
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

# None of these loads ns-3 here.
from wan_training import (builtin_schedules, mean_ci, parse_schedule_memory,  # noqa: E402
                          write_tables)

SYSTEMS = ("paper", "ring", "ps")
METRICS = ("wall_s", "events", "mb_sent", "events_per_mb", "wall_ms_per_mb")


def run_paper(schedule, hbm_gb, scale):
    """One round of the schedule on the intelligent network: (events, bytes, exact)."""
    from wan_training import ns

    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(scale)
    experiment.SetRounds(1)
    result = experiment.Run(ns.CliqueScheduleBuiltins.Make(schedule, topo))
    # The islands' records count full-scale bytes; the simulation moved 1 / scale.
    sent = sum(float(i.bytesOut) for r in result.rounds for i in r.islands) / scale
    return int(result.events), sent, bool(result.exact)


def run_tcp(system, scale):
    """One sync of a collective over TCP among every island: (events, bytes, exact)."""
    from wan_training import ns

    experiment = ns.WanCollectiveExperiment(ns.WanTopology.NineCity())
    experiment.SetScale(scale)
    r = experiment.Run(ns.WanCollectiveExperiment.Parse(system))
    return int(r.events), float(r.bytes), bool(r.complete) and bool(r.exact)


def run_one(system, schedule, hbm_gb, scale, repeat):
    """One timed run of a system."""
    start = time.perf_counter()
    if system == "paper":
        events, sent, exact = run_paper(schedule, hbm_gb, scale)
    else:
        events, sent, exact = run_tcp(system, scale)
    wall = time.perf_counter() - start
    mb = sent / 1e6
    return {"system": system, "schedule": schedule, "hbm_gb": hbm_gb, "scale": scale,
            "repeat": repeat, "wall_s": wall, "events": events, "mb_sent": mb,
            "events_per_mb": events / mb, "wall_ms_per_mb": 1e3 * wall / mb, "exact": exact}


def summarise(rows):
    """Per system: the repeats' means with their 95% CI half-widths, and the
    per-repeat ratios against the paper's system."""
    paper = {r["repeat"]: r for r in rows if r["system"] == "paper"}
    summary = []
    for system in SYSTEMS:
        runs = [r for r in rows if r["system"] == system]
        if not runs:
            continue
        s = {k: runs[0][k] for k in ("system", "schedule", "hbm_gb", "scale")}
        s["repeats"] = len(runs)
        for metric in METRICS:
            s[metric], s[metric + "_ci95"] = mean_ci([float(r[metric]) for r in runs])
        for metric in ("events_per_mb", "wall_ms_per_mb", "wall_s"):
            pairs = [r[metric] / paper[r["repeat"]][metric] for r in runs if r["repeat"] in paper]
            s[metric + "_vs_paper"], s[metric + "_vs_paper_ci95"] = (
                mean_ci(pairs) if pairs else (float("nan"), float("nan")))
        s["exact"] = all(r["exact"] for r in runs)
        summary.append(s)
    return summary


def plot(summary, path):
    """Events and wall time per MB sent, one bar per system, with the CIs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6))
    names = [s["system"] for s in summary]
    for ax, metric, label in ((axes[0], "events_per_mb", "simulator events per MB sent"),
                              (axes[1], "wall_ms_per_mb", "wall time per MB sent, ms")):
        ax.bar(names, [s[metric] for s in summary],
               yerr=[s[metric + "_ci95"] for s in summary], capsize=4)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3, axis="y")
    fig.suptitle("Nine cities, scale %g, %s: one sync (means of %d repeats, 95%% CI)"
                 % (summary[0]["scale"], summary[0]["schedule"], summary[0]["repeats"]),
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS),
                        help="systems to time (default all; the paper's system is always run, "
                        "the ratios are against it)")
    parser.add_argument("--schedule", default="all-to-all:32",
                        help="the paper's schedule and FPGA memory, NAME or NAME:GB (default "
                        "all-to-all:32: every island averages every other, as an all-reduce)")
    parser.add_argument("--scale", type=float, default=100, help="scale (default 100)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed runs of each system, interleaved (default 5)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.scale < 1:
        parser.error("--repeats must be at least 1, --scale at least 1")
    try:
        schedule, hbm_gb = parse_schedule_memory(args.schedule)
    except ValueError as e:
        parser.error("--schedule: %s" % e)
    if schedule not in builtin_schedules():
        parser.error("--schedule: unknown schedule '%s' (built-in: %s)"
                     % (schedule, ", ".join(builtin_schedules())))
    os.makedirs(args.output, exist_ok=True)

    systems = ["paper"] + [s for s in args.systems if s != "paper"]
    for system in systems:  # warm-up: the bindings' first calls, not timed
        run_one(system, schedule, hbm_gb, args.scale, 0)
    rows = []
    for repeat in range(1, args.repeats + 1):
        for system in systems:
            rows.append(run_one(system, schedule, hbm_gb, args.scale, repeat))
            print("  repeat %d: %s done" % (repeat, system), file=sys.stderr)
    summary = summarise(rows)
    paths = write_tables(args.output, "collectives-benchmark", rows, summary, plot)
    for s in summary:
        print("%-6s %10.0f events  %8.3f MB sent  %9.0f events/MB (%5.2fx)  "
              "%7.2f +/- %5.2f ms/MB (%5.2f +/- %4.2fx)  wall %6.2f s  exact %s" % (
                  s["system"], s["events"], s["mb_sent"], s["events_per_mb"],
                  s["events_per_mb_vs_paper"], s["wall_ms_per_mb"], s["wall_ms_per_mb_ci95"],
                  s["wall_ms_per_mb_vs_paper"], s["wall_ms_per_mb_vs_paper_ci95"], s["wall_s"],
                  s["exact"]))
    print("written: %s" % ", ".join(paths))


if __name__ == "__main__":
    main()
