#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Link failure sweep at packet level: a core link (NYC-LON by default) breaks
in the middle of a round and only the network learns of it (BFD sessions on
every core link, link-state reconvergence, the schedule re-planned from the
next round boundary: CliqueExperimentHelper::SetFaultDetection("bfd")).  Per
BFD interval it measures the detection time, the unicast convergence time,
the time until the rounds run on trees that avoid the link (the first
re-planned round's start; and when PIM-SSM joins moved them: measured on the
wire with PIM, the default, computed from the PIM state machine with the
planner's static trees, --trees planner), the packets the link lost, the rounds affected,
and the round time added over the run without the failure, per schedule, as
means over independent runs (ns-3's RngRun: BFD's jitter) with 95%
confidence intervals.

Writes into the output folder:
  failure-sweep.csv           one row per schedule and interval: means, CI half-widths
  failure-sweep-runs.csv      one row per run
  failure-sweep.png           times against the BFD interval, with the CIs
  failure-sweep-packets.json  every run's per-round packet-level results

    python3 scripts/failure_sweep.py
    python3 scripts/failure_sweep.py --schedule triangles --bfdMs 10 100 --runs 5 --jobs 2
    python3 scripts/failure_sweep.py --trees planner
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

# None of these loads ns-3 here.
from wan_training import (mean_ci, model_facts, parse_schedule_memory, run_tasks,  # noqa: E402
                          write_sweep)

AFFECTED = 1.05  # a round is affected when its islands average 5% later than without the fault


def fault_time(schedule, hbm_gb, scale, rounds, round_index):
    """The middle of a round of the plan (seconds), the round given by index."""
    from wan_training import ns

    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    planner = ns.WanExperimentPlanner(topo, config)
    planner.SetRounds(rounds)
    plan = planner.Plan(ns.CliqueScheduleBuiltins.Make(schedule, topo))
    if not plan.feasible:
        raise SystemExit("%s at %g GB: %s" % (schedule, hbm_gb, plan.reason))
    r = plan.rounds[min(round_index, plan.rounds.size() - 1)]
    return r.start + r.plan.roundTime / 2


def run_one(schedule, hbm_gb, link, at, bfd_ms, multiplier, recovery, run, scale, rounds,
            trees):
    """One simulation, RngRun `run`; bfd_ms None: the run without the fault."""
    from wan_training import ns, packet_run

    ns.RngSeedManager.SetRun(run)
    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(scale)
    experiment.SetRounds(rounds)
    experiment.SetRecovery(recovery)
    experiment.SetTreeBuilding(trees)
    if bfd_ms is not None:
        experiment.SetFaultDetection("bfd")
        experiment.SetBfd(ns.Seconds(bfd_ms * 1e-3), multiplier)
        a, b = link.split("-")
        experiment.AddLinkFault(a, b, at, at + 1000)  # mended long after the run
    label = "%s %g GB, %s, BFD %s ms, run %d" % (schedule, hbm_gb, recovery,
                                                  "none" if bfd_ms is None else "%g" % bfd_ms, run)
    packets = packet_run(experiment.Run(ns.CliqueScheduleBuiltins.Make(schedule, topo)), topo, label,
                         {"schedule": schedule, "hbm_gb": hbm_gb, "link": link, "at": at,
                          "bfdMs": "none" if bfd_ms is None else bfd_ms,
                          "multiplier": multiplier, "recovery": recovery, "run": run,
                          "scale": scale, "trees": trees})
    return packets


def mixed(r):
    """When a round's islands averaged, ms (infinite: never)."""
    return math.inf if r["mixed_ms"] is None else r["mixed_ms"]


def run_row(packets, base, schedule, hbm_gb, bfd_ms, run):
    """The figures of one run with the fault, against the run without it."""
    down = [c for c in packets["route_changes"] if not c["up"]]
    change = down[0] if down else None
    rounds = packets["rounds"]
    extra = sum(mixed(r) - mixed(b) for r, b in zip(rounds, base["rounds"]))
    islands = [i for r in rounds for i in r["islands"]]
    row = {
        "schedule": schedule,
        "hbm_gb": hbm_gb,
        "bfd_ms": bfd_ms,
        "run": run,
        "detected": change is not None,
        "detection_ms": None,
        "convergence_ms": None,
        "trees_ms": None,
        "joins_ms": None,
        "lost_packets": sum(r["fault_link_lost"] for r in rounds),
        "rounds_affected": sum(mixed(r) > AFFECTED * mixed(b)
                               for r, b in zip(rounds, base["rounds"])),
        "extra_ms": extra,
        "given_up": sum(i["given_up"] for i in islands),
        "pim_messages": packets.get("pim_packets", 0),
        "exact": packets["exact"],
    }
    if change is not None:
        row["detection_ms"] = 1e3 * (change["detected_s"] - change["event_s"])
        row["convergence_ms"] = 1e3 * (change["converged_s"] - change["detected_s"])
        if change["resumed_s"] is not None:
            row["trees_ms"] = 1e3 * (change["resumed_s"] - change["event_s"])
        if change.get("joined_s") is not None:
            # When PIM's joins moved the trees (measured with --trees pim).
            row["joins_ms"] = 1e3 * (change["joined_s"] - change["event_s"])
    return row


METRICS = ("detection_ms", "convergence_ms", "trees_ms", "joins_ms", "lost_packets",
           "rounds_affected", "extra_ms", "given_up", "pim_messages")


def summarise(rows):
    """One row per schedule, memory and BFD interval: means over its runs."""
    groups = {}
    for r in rows:
        groups.setdefault((r["schedule"], r["hbm_gb"], r["bfd_ms"]), []).append(r)
    summary = []
    for (schedule, gb, bfd), runs in groups.items():
        row = {"schedule": schedule, "hbm_gb": gb, "bfd_ms": bfd, "runs": len(runs),
               "detected_runs": sum(r["detected"] for r in runs),
               "exact_runs": sum(bool(r["exact"]) for r in runs)}
        for metric in METRICS:
            values = [r[metric] for r in runs if r[metric] is not None]
            if values:
                row[metric], row[metric + "_ci95"] = mean_ci(values)
        summary.append(row)
    return summary


def plot(summary, configs, png_path):
    """Detection, convergence and tree times, and the round time added,
    against the BFD interval, per schedule, with the 95% CIs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (times, cost) = plt.subplots(1, 2, figsize=(11, 4.2))
    styles = {"detection_ms": "o-", "convergence_ms": "s--", "trees_ms": "^:", "joins_ms": "v-."}
    for schedule, gb in configs:
        pts = sorted((s for s in summary if s["schedule"] == schedule and s["hbm_gb"] == gb),
                     key=lambda s: s["bfd_ms"])
        if not pts:
            continue
        x = [s["bfd_ms"] for s in pts]
        for metric, style in styles.items():
            # Only the intervals where it happened (no round left: no trees moved).
            have = [s for s in pts if metric in s]
            if have:
                times.errorbar([s["bfd_ms"] for s in have], [s[metric] for s in have],
                               yerr=[s[metric + "_ci95"] for s in have], fmt=style, capsize=3,
                               label="%s %g GB: %s" % (schedule, gb, metric[:-3]))
        if all("extra_ms" in s for s in pts):
            cost.errorbar(x, [s["extra_ms"] for s in pts], yerr=[s["extra_ms_ci95"] for s in pts],
                          fmt="o-", capsize=3, label="%s, %g GB" % (schedule, gb))
    for ax in (times, cost):
        ax.set_xscale("log")
        ax.set_xlabel("BFD interval (ms), detect multiplier as given")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    times.set_yscale("log")
    times.set_ylabel("ms (convergence: after detection)")
    times.set_title("Detection, convergence, trees on new routes")
    cost.set_ylabel("round time added (ms)")
    cost.set_title("What the failure costs the run")
    fig.suptitle("Nine cities: a core link breaks mid-round (means of the runs, 95% CI)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    plt.close(fig)


def main(argv=None):
    facts = model_facts()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedule", dest="configs", metavar="NAME[:GB]", nargs="+",
                        type=parse_schedule_memory,
                        default=[parse_schedule_memory(t) for t in ("triangles", "all-to-all")],
                        help="schedules and FPGA memory (default triangles:0 all-to-all:32)")
    parser.add_argument("--link", default="NYC-LON", help="the core link that breaks (A-B)")
    parser.add_argument("--round", dest="round_index", type=int, default=1,
                        help="the round (from 0) in whose middle it breaks (default 1)")
    parser.add_argument("--bfdMs", dest="bfd_ms", metavar="MS", nargs="+", type=float,
                        default=[10, 30, 100, 300, 1000], help="BFD intervals, ms")
    parser.add_argument("--multiplier", type=int, default=facts["bfd_multiplier"],
                        help="BFD detect multiplier (default %d, WanBfdApplication's)"
                             % facts["bfd_multiplier"])
    parser.add_argument("--recovery", default="early", choices=facts["recovery"],
                        help="recovery policy of the islands (default early, not the model's "
                             "%s: the sweep measures detection and reconvergence, which parity "
                             "would hide)" % facts["recovery_default"])
    parser.add_argument("--runs", type=int, default=5,
                        help="independent runs (RngRun 1..N) per setting (default 5)")
    parser.add_argument("--scale", type=float, default=1000, help="scale (default 1000)")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per run (default 4)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--trees", default=facts["tree_building_default"],
                        choices=facts["tree_building"],
                        help="who builds the multicast trees: PIM-SSM joins on the wire or the "
                        "planner's static routes (default %s, the model's)"
                        % facts["tree_building_default"])
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if min(args.jobs, args.runs, args.rounds) < 1 or args.scale < 1:
        parser.error("--jobs, --runs, --scale and --rounds must be at least 1")
    if args.round_index < 0 or args.round_index >= args.rounds:
        parser.error("--round must be one of the run's rounds (0 to --rounds - 1)")
    if any(not 1 <= ms <= 10000 for ms in args.bfd_ms) or not 1 <= args.multiplier <= 255:
        parser.error("--bfdMs must be from 1 to 10000 ms and --multiplier from 1 to 255")
    if args.link.count("-") != 1:
        parser.error("--link must be A-B, e.g. NYC-LON")
    os.makedirs(args.output, exist_ok=True)

    tasks = []
    for schedule, gb in args.configs:
        at = run_tasks(fault_time, [(schedule, gb, args.scale, args.rounds, args.round_index)],
                       args.jobs)[0]
        common = (args.multiplier, args.recovery)
        # Without the fault nothing is random: one run is every run.
        tasks.append((schedule, gb, args.link, at, None) + common +
                     (1, args.scale, args.rounds, args.trees))
        for bfd in args.bfd_ms:
            tasks += [(schedule, gb, args.link, at, bfd) + common +
                      (run, args.scale, args.rounds, args.trees)
                      for run in range(1, args.runs + 1)]
    packets = run_tasks(run_one, tasks, args.jobs)
    base = {}
    rows = []
    for task, p in zip(tasks, packets):
        schedule, gb, _, _, bfd = task[:5]
        if bfd is None:
            base[(schedule, gb)] = p
    for task, p in zip(tasks, packets):
        schedule, gb, _, _, bfd = task[:5]
        if bfd is not None:
            rows.append(run_row(p, base[(schedule, gb)], schedule, gb, bfd, task[7]))
    summary = summarise(rows)

    paths = write_sweep(args.output, "failure-sweep", rows, summary, packets,
                        lambda summary, path: plot(summary, args.configs, path))
    for s in summary:
        print("%-10s %2g GB BFD %6g ms: detected %d/%d, detection %7.1f +/- %5.1f ms, "
              "convergence %6.1f ms, trees %7.1f ms, joins %7.1f ms, lost %7.1f, "
              "rounds affected %.1f, added %8.1f +/- %7.1f ms, given up %.1f, exact %d/%d" % (
                  s["schedule"], s["hbm_gb"], s["bfd_ms"], s["detected_runs"], s["runs"],
                  s.get("detection_ms", math.nan), s.get("detection_ms_ci95", math.nan),
                  s.get("convergence_ms", math.nan), s.get("trees_ms", math.nan),
                  s.get("joins_ms", math.nan),
                  s["lost_packets"], s["rounds_affected"], s["extra_ms"], s["extra_ms_ci95"],
                  s["given_up"], s["exact_runs"], s["runs"]))
    print("written: %s" % ", ".join(paths))
    return summary


if __name__ == "__main__":
    main()
