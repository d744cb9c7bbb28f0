#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Survival curves of disagreement: the mean error S(h) of an update h rounds
after its birth, for the four schedules on the nine-city topology.

Writes survival-curves.csv and survival-curves.png into the output folder.

    python3 scripts/survival_curves.py
    python3 scripts/survival_curves.py --rounds 30 --output results
"""

import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

def curves(rounds):
    """{schedule: (S(0..rounds), A)} from the module's MixingAnalysis."""
    from wan_training import ns

    topo = ns.WanTopology.NineCity()
    out = {}
    for name in [str(n) for n in ns.CliqueScheduleBuiltins.Names()]:
        analysis = ns.MixingAnalysis.FromSchedule(ns.CliqueScheduleBuiltins.Make(name, topo),
                                                  topo.GetNCities())
        out[name] = ([float(s) for s in analysis.GetMeanSurvivalCurve(rounds)],
                     float(analysis.GetAverageDisagreement()))
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20, help="last round h (default 20)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    os.makedirs(args.output, exist_ok=True)
    data = curves(args.rounds)
    names = list(data)  # the model's built-in schedules, in its order

    csv_path = os.path.join(args.output, "survival-curves.csv")
    with open(csv_path, "w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["h"] + names)
        for h in range(args.rounds + 1):
            writer.writerow([h] + [data[name][0][h] for name in names])

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for name in names:
        curve, area = data[name]
        ax.plot(range(args.rounds + 1), curve, marker="o", markersize=3,
                label="%s (A = %.3f)" % (name, area))
    ax.set_xlabel("rounds since the update was born, h")
    ax.set_ylabel("mean disagreement S(h) (1 = newborn, 0 = mixed)")
    ax.set_title("Survival of disagreement, nine cities")
    ax.set_ylim(-0.02, 1.02)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    png_path = os.path.join(args.output, "survival-curves.png")
    fig.savefig(png_path, dpi=120)
    plt.close(fig)
    for name in names:
        print("%-11s A = %.3f  S(1) = %.3f" % (name, data[name][1], data[name][0][1]))
    print("written: %s, %s" % (csv_path, png_path))
    return data


if __name__ == "__main__":
    main()
