#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Loss, jitter and recovery sweep at packet level: round-time inflation
(of the time the islands average: completion, or when they give up) against
the lossless run, bytes of overhead, measured mixing and contributions
given up, per schedule, FPGA memory and recovery policy, as means over
independent runs (ns-3's RngRun) with 95% confidence intervals.

Writes into the output folder:
  impairment-sweep.csv       one row per setting: means and 95% CI half-widths
  impairment-sweep-runs.csv  one row per run
  impairment-sweep.png       inflation against loss, per policy, with the CIs
  impairment-sweep-packets.json  every run's per-round packet-level results
Every run is an independent simulation; --jobs runs them in parallel processes.

    python3 scripts/impairment_sweep.py
    python3 scripts/impairment_sweep.py --schedule triangles:0 --lossRate 0.01 --runs 5 --jobs 2
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

# None of these loads ns-3 here.
from wan_training import (mean_ci, model_facts, parse_schedule_memory,  # noqa: E402
                          run_tasks, warn_unused_options, write_sweep)


def run_one(schedule, hbm_gb, kind, value, variant, recovery, run, scale, rounds, max_requests,
            parity_block, parity_chunks):
    """One simulation, RngRun `run`: kind "none", "loss" (every link class,
    `variant` the mean burst length) or "jitter" (core links, ms; `variant` the
    model)."""
    from wan_training import ns, packet_run

    ns.RngSeedManager.SetRun(run)
    ns.Config.SetDefault("ns3::WanIslandApplication::MaxRequests", ns.UintegerValue(max_requests))
    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(scale)
    experiment.SetRounds(rounds)
    experiment.SetParity(parity_block, parity_chunks)
    experiment.SetRecovery(recovery)
    impairment = ns.WanLinkImpairment()
    classes = []
    if kind == "loss":
        impairment.lossRate = value
        impairment.burstLength = variant
        classes = model_facts()["link_classes"]
    elif kind == "jitter":
        impairment.jitterSeconds = value * 1e-3
        impairment.jitterModel = variant
        classes = ("core",)
    for name in classes:
        experiment.SetImpairment(ns.WanNetworkHelper.ParseLinkClass(name), impairment)
    setting = "none"
    if kind == "loss":
        setting = "loss %g burst %g" % (value, variant)
    elif kind == "jitter":
        setting = "jitter %g ms %s" % (value, variant)
    label = "%s %g GB, %s, %s, run %d" % (schedule, hbm_gb, recovery, setting, run)
    packets = packet_run(experiment.Run(ns.CliqueScheduleBuiltins.Make(schedule, topo)), topo, label,
                         {"impairment": kind, "value": value, "variant": variant,
                          "scale": scale, "recovery": recovery, "run": run, "hbm_gb": hbm_gb})
    return packets, run_row(packets, schedule, hbm_gb, recovery, kind, value, variant, run)


def run_row(packets, schedule, hbm_gb, recovery, kind, value, variant, run):
    """The figures of one run, from its packet-output document."""
    islands = [i for r in packets["rounds"] for i in r["islands"]]
    measured = [r["measured_ms"] for r in packets["rounds"]]
    return {
        "schedule": schedule,
        "hbm_gb": hbm_gb,
        "recovery": recovery,
        "impairment": kind,
        "value": value,
        "variant": variant,
        "run": run,
        "planned_ms": max(r["planned_ms"] for r in packets["rounds"]),
        # A round that never completed (given up) counts at its end.
        "measured_ms": max(float("inf") if m is None else m for m in measured),
        # When the islands averaged: at completion, or when they gave up.
        "mixed_ms": max(r["mixed_ms"] for r in packets["rounds"]),
        "bytes_in": sum(i["bytes_in"] for i in islands),
        "expected": sum(i["expected"] for i in islands),
        "delivered": sum(i["delivered"] for i in islands),
        "requested": sum(i["requested"] for i in islands),
        "given_up": sum(i["given_up"] for i in islands),
        "rebuilt": sum(i["rebuilt"] for i in islands),
        "parity_sent": sum(i["parity_sent"] for i in islands),
        "disagreement": packets["disagreement"],
        "disagreement_measured": packets.get("disagreement_measured"),
        "objective_measured": packets.get("objective_measured"),
        "exact": all(i["exact"] for i in islands),
    }


def summarise(rows):
    """One row per setting (schedule, memory, policy, impairment): means over
    its runs with 95% CI half-widths; inflation and byte overhead against the
    same schedule, memory and policy without impairments (a policy that adds
    parity, coded or best: against its repair policy, model_facts()["baseline"],
    so that its inflation and overhead include its parity's cost)."""
    key = ("schedule", "hbm_gb", "recovery", "impairment", "value", "variant")
    base = {tuple(r[k] for k in key[:3]): r for r in rows if r["impairment"] == "none"}
    groups = {}
    for r in rows:
        b = base[(r["schedule"], r["hbm_gb"], model_facts()["baseline"][r["recovery"]])]
        # Inflation of the time the islands mix at (with accept, the deadline).
        r["inflation_percent"] = 100 * (r["mixed_ms"] / b["mixed_ms"] - 1)
        r["overhead_percent"] = 100 * (r["bytes_in"] / b["bytes_in"] - 1)
        r["objective_vs_lossless_percent"] = (
            100 * (r["objective_measured"] / b["objective_measured"] - 1)
            if r["objective_measured"] is not None and b["objective_measured"] else None)
        groups.setdefault(tuple(r[k] for k in key), []).append(r)
    summary = []
    for k, runs in groups.items():
        row = dict(zip(key, k))
        row["runs"] = len(runs)
        for metric in ("inflation_percent", "overhead_percent", "disagreement_measured",
                       "objective_measured", "objective_vs_lossless_percent", "given_up",
                       "requested", "rebuilt"):
            values = [r[metric] for r in runs if r[metric] is not None]
            if values:
                row[metric], row[metric + "_ci95"] = mean_ci(values)
        row["disagreement"] = runs[0]["disagreement"]
        row["exact_runs"] = sum(r["exact"] for r in runs)
        summary.append(row)
    return summary


def plot(summary, configs, png_path):
    """Inflation against loss (uniform solid, bursty dashed) per policy, one
    panel per schedule and memory, with the 95% CIs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(configs), figsize=(5 * len(configs), 4.2), squeeze=False)
    for ax, (schedule, gb) in zip(axes[0], configs):
        for policy in model_facts()["recovery"]:
            for burst, style in ((1, "-"), (None, "--")):
                pts = [s for s in summary if s["schedule"] == schedule and s["hbm_gb"] == gb and
                       s["recovery"] == policy and s["impairment"] == "loss" and
                       ((s["variant"] == 1) == (burst == 1))]
                if not pts:
                    continue
                pts.sort(key=lambda s: s["value"])
                ax.errorbar([100 * s["value"] for s in pts],
                            [s["inflation_percent"] for s in pts],
                            yerr=[s["inflation_percent_ci95"] for s in pts],
                            linestyle=style, marker="o", capsize=3,
                            label="%s%s" % (policy, "" if burst == 1 else
                                            ", bursts of %g" % pts[0]["variant"]))
        ax.set_xscale("log")
        ax.set_yscale("symlog", linthresh=10)
        ax.set_ylim(bottom=0)
        ax.set_xlabel("packet loss on every link (%)")
        ax.set_ylabel("round-time inflation vs lossless (%)")
        ax.set_title("%s, %g GB" % (schedule, gb))
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle("Nine cities: what loss costs a round, per recovery policy "
                 "(means of the runs, 95% CI)")
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    plt.close(fig)


def main(argv=None):
    facts = model_facts()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedule", dest="configs", metavar="NAME[:GB]", nargs="+",
                        type=parse_schedule_memory,
                        default=[parse_schedule_memory(t) for t in ("triangles", "triangles:32", "all-to-all")],
                        help="schedules and FPGA memory (default triangles:0 triangles:32 "
                             "all-to-all:32; without :GB all-to-all gets %g, the others 0)"
                             % facts["memory_gb"]["all-to-all"])
    parser.add_argument("--lossRate", dest="loss", metavar="RATE", nargs="*", type=float,
                        default=[0.001, 0.01, 0.05], help="loss rates, on every link class")
    parser.add_argument("--lossBurst", dest="bursts", metavar="L", nargs="+", type=float,
                        default=[1, 4], help="mean packets per loss event (1: independent)")
    parser.add_argument("--jitterMs", dest="jitter_ms", metavar="MS", nargs="*", type=float,
                        default=[1], help="jitter standard deviations on core links, ms")
    parser.add_argument("--jitterModel", dest="models", nargs="+",
                        choices=facts["jitter_models"],
                        default=facts["jitter_models"], help="jitter models")
    parser.add_argument("--recovery", dest="policies", nargs="+", choices=facts["recovery"],
                        default=facts["recovery"], help="recovery policies")
    parser.add_argument("--runs", type=int, default=5,
                        help="independent runs (RngRun 1..N) per setting (default 5)")
    parser.add_argument("--scale", type=float, default=1000, help="scale (default 1000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per run (default 2)")
    parser.add_argument("--maxRequests", dest="max_requests", metavar="N", type=int, default=20,
                        help="requests per missing contribution before it is given up (default 20)")
    parser.add_argument("--parityBlock", dest="parity_block", metavar="N", type=int,
                        default=facts["parity_block"],
                        help="coded: data chunks per parity block (default %d, the island's "
                             "ParityBlock)" % facts["parity_block"])
    parser.add_argument("--parityChunks", dest="parity_chunks", metavar="P", type=int,
                        default=facts["parity_chunks"],
                        help="coded: parity chunks per block, the MDS code's r (default %d)"
                             % facts["parity_chunks"])
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if min(args.jobs, args.runs, args.rounds, args.max_requests) < 1 or args.scale < 1:
        parser.error("--jobs, --runs, --scale, --rounds and --maxRequests must be at least 1")
    if any(not 0 <= p < 1 for p in args.loss) or any(j < 0 for j in args.jitter_ms):
        parser.error("--lossRate must be in [0, 1) and --jitterMs non-negative")
    if any(b < 1 for b in args.bursts) or any(gb < 0 for _, gb in args.configs):
        parser.error("--lossBurst must be at least 1 and the memory non-negative")
    if not 1 <= args.parity_chunks <= args.parity_block:
        parser.error("--parityChunks must be from 1 to --parityBlock")
    coded = any(p in facts["uncoded"] for p in args.policies)
    warn_unused_options(parser, args, [
        ("--lossBurst", "bursts", bool(args.loss), "--lossRate"),
        ("--jitterModel", "models", bool(args.jitter_ms), "--jitterMs"),
        ("--maxRequests", "max_requests", any(p in facts["repairs"] for p in args.policies),
         "a --recovery other than accept"),
        ("--parityBlock", "parity_block", coded, "--recovery coded or coded+early"),
        ("--parityChunks", "parity_chunks", coded, "--recovery coded or coded+early"),
    ])
    os.makedirs(args.output, exist_ok=True)

    common = (args.scale, args.rounds, args.max_requests, args.parity_block, args.parity_chunks)
    # A policy's baseline is its repair policy's lossless run (coded, best: without parity).
    baseline = facts["baseline"]
    baselines = sorted({baseline[p] for p in args.policies} - set(args.policies))
    tasks = []
    for schedule, gb in args.configs:
        tasks += [(schedule, gb, "none", 0, "", policy, 1) + common for policy in baselines]
        for policy in args.policies:
            # Without impairments nothing is random: one run is every run.
            tasks.append((schedule, gb, "none", 0, "", policy, 1) + common)
            for run in range(1, args.runs + 1):
                tasks += [(schedule, gb, "loss", p, b, policy, run) + common
                          for p in args.loss for b in args.bursts]
                tasks += [(schedule, gb, "jitter", j, m, policy, run) + common
                          for j in args.jitter_ms for m in args.models]
    packets, rows = zip(*run_tasks(run_one, tasks, args.jobs))
    rows = list(rows)
    summary = summarise(rows)

    paths = write_sweep(args.output, "impairment-sweep", rows, summary, packets,
                        lambda summary, path: plot(summary, args.configs, path))
    for s in summary:
        print("%-10s %2g GB %-11s %-6s %6g %-11s +%7.1f +/- %6.1f%%  bytes +%5.1f%%  "
              "A %.3f  given up %6.1f  rebuilt %6.1f  exact %d/%d" % (
                  s["schedule"], s["hbm_gb"], s["recovery"], s["impairment"], s["value"],
                  s["variant"], s["inflation_percent"], s["inflation_percent_ci95"],
                  s["overhead_percent"], s.get("disagreement_measured", float("nan")),
                  s["given_up"], s["rebuilt"], s["exact_runs"], s["runs"]))
    print("written: %s" % ", ".join(paths))
    return summary


if __name__ == "__main__":
    main()
