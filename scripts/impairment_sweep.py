#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Loss and jitter sweep at packet level: round-time inflation against the
lossless run, per schedule, with missing contributions re-requested.

Writes impairment-sweep.csv, impairment-sweep.png and every run's per-round
packet-level results (the --packetOutput document, JSON) as
impairment-sweep-packets.json into the output folder.
Every (schedule, impairment) run is an independent simulation; --jobs runs
them in parallel processes.

    python3 scripts/impairment_sweep.py
    python3 scripts/impairment_sweep.py --lossRate 0.001 0.01 --jitterMs 1 --jobs 2
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from wan_training import run_tasks, write_csv, write_packet_output  # noqa: E402  (no ns-3 loaded here)


def run_one(schedule, kind, value, scale, rounds, recovery, max_requests):
    """One simulation: kind "none", "loss" (every link class) or "jitter" (core, ms)."""
    from wan_training import experiment_rows, ns, packet_run

    ns.Config.SetDefault("ns3::WanIslandApplication::MaxRequests", ns.UintegerValue(max_requests))
    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = 32e9 if schedule == "all-to-all" else 0
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(scale)
    experiment.SetRounds(rounds)
    experiment.SetRecovery(recovery)
    impairment = ns.WanLinkImpairment()
    if kind == "loss":
        impairment.lossRate = value
        for link_class in (ns.WanNetworkHelper.CORE, ns.WanNetworkHelper.ACCESS,
                           ns.WanNetworkHelper.POST_AGGREGATION):
            experiment.SetImpairment(link_class, impairment)
    elif kind == "jitter":
        impairment.jitterSeconds = value * 1e-3
        experiment.SetImpairment(ns.WanNetworkHelper.CORE, impairment)
    run = packet_run(experiment.Run(ns.CliqueSchedule.Builtin(schedule, topo)), topo,
                     "%s, %s %g" % (schedule, kind, value),
                     {"impairment": kind, "value": value, "scale": scale, "recovery": recovery})
    rows = experiment_rows(run)
    return run, {
        "schedule": schedule,
        "impairment": kind,
        "value": value,
        "planned_ms": max(r["planned_ms"] for r in rows),
        "measured_ms": max(r["measured_ms"] for r in rows),
        "expected": sum(r["expected"] for r in rows),
        "delivered": sum(r["delivered"] for r in rows),
        "exact": all(r["exact"] for r in rows),
    }


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedule", dest="schedules", metavar="NAME", nargs="+",
                        default=["triangles", "all-to-all"],
                        help="schedules (all-to-all runs with 32 GB of FPGA memory)")
    parser.add_argument("--lossRate", dest="loss", metavar="RATE",
                        nargs="*", type=float, default=[0.001, 0.01],
                        help="loss rates, on every link class")
    parser.add_argument("--jitterMs", dest="jitter_ms", metavar="MS",
                        nargs="*", type=float, default=[1, 10],
                        help="jitter standard deviations on core links, ms")
    parser.add_argument("--scale", type=float, default=1000, help="scale (default 1000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per run (default 2)")
    parser.add_argument("--recovery", choices=["accept", "rerequest"], default="rerequest")
    parser.add_argument("--maxRequests", dest="max_requests", metavar="N", type=int, default=20,
                        help="requests per missing contribution before it is given up (default 20)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if args.jobs < 1 or args.scale < 1 or args.rounds < 1 or args.max_requests < 1:
        parser.error("--jobs, --scale, --rounds and --maxRequests must be at least 1")
    if any(not 0 <= p < 1 for p in args.loss) or any(j < 0 for j in args.jitter_ms):
        parser.error("--lossRate must be in [0, 1) and --jitterMs non-negative")
    os.makedirs(args.output, exist_ok=True)

    tasks = []
    common = (args.scale, args.rounds, args.recovery, args.max_requests)
    for s in args.schedules:
        tasks.append((s, "none", 0) + common)
        tasks += [(s, "loss", p) + common for p in args.loss]
        tasks += [(s, "jitter", j) + common for j in args.jitter_ms]
    runs, rows = zip(*run_tasks(run_one, tasks, args.jobs))
    rows = list(rows)
    base = {r["schedule"]: r["measured_ms"] for r in rows if r["impairment"] == "none"}
    for r in rows:
        r["inflation_percent"] = 100 * (r["measured_ms"] / base[r["schedule"]] - 1)

    csv_path = os.path.join(args.output, "impairment-sweep.csv")
    write_csv(csv_path, rows)
    packets_path = os.path.join(args.output, "impairment-sweep-packets.json")
    write_packet_output(packets_path, runs)

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4.2))
    for s in args.schedules:
        loss = [r for r in rows if r["schedule"] == s and r["impairment"] == "loss"]
        jitter = [r for r in rows if r["schedule"] == s and r["impairment"] == "jitter"]
        left.plot([100 * r["value"] for r in loss], [r["inflation_percent"] for r in loss],
                  marker="o", label=s)
        right.plot([r["value"] for r in jitter], [r["inflation_percent"] for r in jitter],
                   marker="o", label=s)
    left.set_xlabel("packet loss on every link (%)")
    right.set_xlabel("jitter on core links, standard deviation (ms)")
    for ax, title in ((left, "loss, missing chunks re-requested"),
                      (right, "jitter (correlated in time)")):
        ax.set_ylabel("round-time inflation vs lossless (%)")
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle("Nine cities: what loss and jitter cost a round (triangles 0 GB, all-to-all 32 GB)")
    fig.tight_layout()
    png_path = os.path.join(args.output, "impairment-sweep.png")
    fig.savefig(png_path, dpi=120)
    plt.close(fig)
    for r in rows:
        print("%-11s %-7s %6g  T %7.1f ms  +%6.1f%%  %d/%d  %s" % (
            r["schedule"], r["impairment"], r["value"], r["measured_ms"],
            r["inflation_percent"], r["delivered"], r["expected"],
            "exact" if r["exact"] else "NOT exact"))
    print("written: %s, %s, %s" % (csv_path, png_path, packets_path))
    return rows


if __name__ == "__main__":
    main()
