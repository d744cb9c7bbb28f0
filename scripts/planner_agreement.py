#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Planner against packet level on generated WANs: every built-in schedule on
each of --count WANs (rings with chords, grids, random geometric graphs and
long chains of --minCities to --maxCities islands, uneven link capacities),
simulated at packet level with no loss or jitter (ns3::WanAgreementCheck).
A run agrees when every sum is exact and each round's measured T is within
--tolerance of the planner's T plus what the scale adds (the store and
forward of frames the scale made longer); otherwise it is "warned" when the
planner warned of the round, and DISAGREES when not.

Writes planner-agreement.csv (a row per WAN and schedule) and
planner-agreement.png (each run's measured T less the scale lag against the
planner's T, in %, by the WAN's size).  Prints the worst cases; the exit status
is 1 when a run disagrees.  WAN i is drawn from --seed and i alone, so any row
can be run again on its own.

    python3 scripts/planner_agreement.py --count 8 --maxCities 24
    python3 scripts/planner_agreement.py --count 200 --jobs 2
"""

import argparse
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from wan_training import model_facts, run_tasks, write_csv  # noqa: E402  (no ns-3 loaded here)


def wan_of(index, args):
    """(kind, cities, generator seed) of WAN number index."""
    draw = random.Random(args.seed * 1000003 + index)
    return (args.kinds[index % len(args.kinds)], draw.randint(args.min_cities, args.max_cities),
            args.seed * 1000 + index)


def check_one(kind, cities, seed, scale, tolerance, rounds):
    """The rows of every built-in schedule on one generated WAN."""
    from wan_training import ns

    settings = ns.WanTopologyGenerator.Settings()
    settings.kind = ns.WanTopologyGenerator.KindFromName(kind)
    settings.cities = cities
    settings.seed = seed
    topo = ns.WanTopologyGenerator.Generate(settings)
    label = "%s-%d-%d" % (kind, cities, seed)
    rows = []
    for row in ns.WanAgreementCheck(scale, tolerance, rounds).Run(topo, label):
        rows.append({
            "wan": str(row.wan), "kind": kind, "cities": int(row.cities), "seed": seed,
            "links": len(topo.GetLinks()), "schedule": str(row.schedule),
            "hbm_gb": float(row.hbmGB), "feasible": bool(row.feasible),
            "rounds": int(row.rounds), "planned_ms": float(row.plannedMs),
            "measured_ms": float(row.measuredMs), "scale_lag_ms": float(row.scaleLagMs),
            "excess_percent": float(row.excessPercent),
            "short_percent": float(row.shortPercent), "exact": bool(row.exact),
            "warnings": int(row.warnings), "verdict": str(row.verdict),
            "reason": str(row.reason)})
    return rows


def plot(rows, path, tolerance):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for schedule in sorted({r["schedule"] for r in rows}):
        ran = [r for r in rows if r["schedule"] == schedule and r["feasible"]]
        ax.scatter([r["cities"] for r in ran], [r["excess_percent"] for r in ran], s=10,
                   label=schedule)
    ax.axhline(100 * tolerance, color="black", linestyle="--", linewidth=1, label="tolerance")
    ax.set_xlabel("islands in the generated WAN")
    ax.set_ylabel("measured T - scale lag - planned T (% of planned)")
    ax.set_title("Packet level against the planner, no loss (%d WANs)" %
                 len({r["wan"] for r in rows}))
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    kinds = model_facts()["generated_kinds"]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="WANs (default 200)")
    parser.add_argument("--kinds", nargs="+", choices=kinds, default=kinds,
                        help="shapes, taken in turn (default all four)")
    parser.add_argument("--minCities", dest="min_cities", type=int, default=16,
                        help="fewest islands (default 16)")
    parser.add_argument("--maxCities", dest="max_cities", type=int, default=64,
                        help="most islands (default 64)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the WANs (default 1)")
    parser.add_argument("--scale", type=float, default=1000, help="scale (default 1000)")
    parser.add_argument("--tolerance", type=float, default=0.02,
                        help="share of T measured may differ by (default 0.02)")
    parser.add_argument("--rounds", type=int, default=1, help="rounds per schedule (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if min(args.count, args.jobs, args.rounds) < 1 or args.scale < 1:
        parser.error("--count, --jobs, --rounds and --scale must be at least 1")
    if not 4 <= args.min_cities <= args.max_cities <= 1000:
        parser.error("--minCities and --maxCities must satisfy 4 <= min <= max <= 1000")
    if not 0 < args.tolerance < 1:
        parser.error("--tolerance must be between 0 and 1")
    os.makedirs(args.output, exist_ok=True)

    tasks = [wan_of(i, args) + (args.scale, args.tolerance, args.rounds)
             for i in range(args.count)]
    rows = [row for rows in run_tasks(check_one, tasks, args.jobs) for row in rows]
    csv_path = os.path.join(args.output, "planner-agreement.csv")
    write_csv(csv_path, rows)
    png_path = os.path.join(args.output, "planner-agreement.png")
    plot(rows, png_path, args.tolerance)

    ran = [r for r in rows if r["feasible"]]
    verdicts = {}
    for r in rows:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    print("%d WANs, %d runs: %s" % (args.count, len(rows), ", ".join(
        "%s %d" % item for item in sorted(verdicts.items()))))
    print("sums exact in %d of %d runs" % (sum(r["exact"] for r in ran), len(ran)))
    slow = max(ran, key=lambda r: r["excess_percent"])
    fast = max(ran, key=lambda r: r["short_percent"])
    for title, worst, figure in (
            ("slowest against the planner", slow,
             "%+.2f%% of planned beyond the lag" % slow["excess_percent"]),
            ("fastest against the planner", fast,
             "%.2f%% of planned early" % fast["short_percent"])):
        print("%s: %s %s, planned %.1f ms, measured %.1f ms, scale lag %.2f ms (%s)" % (
            title, worst["wan"], worst["schedule"], worst["planned_ms"], worst["measured_ms"],
            worst["scale_lag_ms"], figure))
    for r in rows:
        if r["verdict"] == "DISAGREES":
            print("DISAGREES: %s %s, planned %.1f ms, measured %.1f ms, exact %s" % (
                r["wan"], r["schedule"], r["planned_ms"], r["measured_ms"], r["exact"]))
    print("written: %s, %s" % (csv_path, png_path))
    return 1 if "DISAGREES" in verdicts else 0


if __name__ == "__main__":
    sys.exit(main())
