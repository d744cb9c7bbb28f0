#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""ns-3's TCP against its closed forms: one long flow between two islands
(WanTcpFlowExperiment) with random loss p on the core link, for each
congestion control, loss rate and round-trip time, against Mathis et al.
(NewReno) and RFC 9438's average window (CUBIC) from WanTcpModel; independent
runs (ns-3's RngRun) with 95% confidence intervals.

Each run lasts long enough for about --losses loss events at the closed
form's rate (at least --minSeconds), the first tenth a warm-up; the buffers
are four times the closed form's window (at least ns-3's 131072 bytes), so
that no buffer caps the flow.  Writes tcp-validation-runs.csv (one row per
run), tcp-validation.csv (per setting: the measured goodput and its ratio to
the closed form, means with 95% CIs) and tcp-validation.png into the output
folder.

    python3 scripts/tcp_validation.py
    python3 scripts/tcp_validation.py --lossRate 0.0001 0.001 0.01 --rttMs 20 80 200 --jobs 2
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

from wan_training import mean_ci, run_tasks, write_tables  # noqa: E402  (no ns-3 loaded here)

# The congestion controls: ns-3's TypeId and the closed form that applies.
CONTROLS = {"newreno": ("ns3::TcpNewReno", "Mathis"), "cubic": ("ns3::TcpCubic", "RFC 9438")}
SEGMENT_BYTES = 8948  # the islands' 9000-byte MTU less IPv4 and TCP headers with timestamps


def closed_form(control, p, rtt):
    """The closed form's average window (segments) and rate (bit/s)."""
    from wan_training import ns

    if control == "newreno":
        window = float(ns.WanTcpModel.RenoWindow(p))
    else:
        window = float(ns.WanTcpModel.CubicWindow(rtt, p))
    return window, float(ns.WanTcpModel.Rate(window, SEGMENT_BYTES, rtt))


def duration(window, p, rtt, losses, min_seconds):
    """Seconds for about `losses` loss events at the closed form's rate."""
    segments_per_second = window / rtt
    return max(min_seconds, losses / (p * segments_per_second))


def run_one(control, p, rtt_ms, run, rate_gbps, losses, min_seconds):
    """One flow, RngRun `run`."""
    from wan_training import ns

    ns.RngSeedManager.SetRun(run)
    rtt = rtt_ms * 1e-3
    window, rate = closed_form(control, p, rtt)
    seconds = duration(window, p, rtt, losses, min_seconds)
    buffer = max(131072, int(math.ceil(4 * window * SEGMENT_BYTES)))
    flow = ns.WanTcpFlowExperiment(rtt, rate_gbps * 1e9)
    flow.SetLoss(p)
    flow.SetCongestionControl(ns.TypeId.LookupByName(CONTROLS[control][0]))
    flow.SetBuffers(buffer, buffer)
    result = flow.Run(seconds, seconds / 10)
    return {
        "congestion": control, "loss": p, "rtt_ms": rtt_ms, "run": run,
        "closed_form": CONTROLS[control][1], "window_segments": window,
        "closed_form_mbps": rate / 1e6, "goodput_mbps": float(result.goodputBps) / 1e6,
        "ratio": float(result.goodputBps) / rate, "seconds": seconds,
        "lost_packets": int(result.lostPackets), "buffer_bytes": buffer,
    }


def summarise(rows):
    """Per setting: means of the runs with the half-widths of their 95% CIs."""
    keys = sorted({(r["congestion"], r["loss"], r["rtt_ms"]) for r in rows})
    summary = []
    for control, p, rtt_ms in keys:
        runs = [r for r in rows if (r["congestion"], r["loss"], r["rtt_ms"]) == (control, p, rtt_ms)]
        s = {"congestion": control, "loss": p, "rtt_ms": rtt_ms, "runs": len(runs),
             "closed_form": runs[0]["closed_form"],
             "closed_form_mbps": runs[0]["closed_form_mbps"]}
        for metric in ("goodput_mbps", "ratio", "lost_packets"):
            s[metric], s[metric + "_ci95"] = mean_ci([float(r[metric]) for r in runs])
        summary.append(s)
    return summary


def plot(summary, path):
    """Measured over closed form against the loss, one line per control and RTT."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.4))
    for control in sorted({s["congestion"] for s in summary}):
        for rtt_ms in sorted({s["rtt_ms"] for s in summary}):
            pts = sorted((s for s in summary
                          if s["congestion"] == control and s["rtt_ms"] == rtt_ms),
                         key=lambda s: s["loss"])
            if not pts:
                continue
            ax.errorbar([s["loss"] for s in pts], [s["ratio"] for s in pts],
                        yerr=[s["ratio_ci95"] for s in pts], marker="o", capsize=3,
                        label="%s, RTT %g ms (%s)" % (control, rtt_ms, pts[0]["closed_form"]))
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.axhspan(0.8, 1.2, color="grey", alpha=0.1)
    ax.set_xscale("log")
    ax.set_xlabel("packet loss on the core link")
    ax.set_ylabel("measured goodput / closed form")
    ax.set_title("One TCP flow against its closed form (means of the runs, 95% CI)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--congestion", nargs="+", choices=sorted(CONTROLS),
                        default=["newreno", "cubic"], help="congestion controls (default both)")
    parser.add_argument("--lossRate", dest="loss", metavar="P", nargs="+", type=float,
                        default=[0.001, 0.01], help="loss rates (default 0.001 0.01)")
    parser.add_argument("--rttMs", dest="rtt_ms", metavar="MS", nargs="+", type=float,
                        default=[20, 80, 200], help="round-trip times, ms (default 20 80 200)")
    parser.add_argument("--runs", type=int, default=5,
                        help="independent runs (RngRun 1..N) per setting (default 5)")
    parser.add_argument("--rateGbps", dest="rate_gbps", type=float, default=1,
                        help="the links' rate, Gbit/s (default 1)")
    parser.add_argument("--losses", type=int, default=200,
                        help="loss events a run lasts for, at the closed form (default 200)")
    parser.add_argument("--minSeconds", dest="min_seconds", type=float, default=30,
                        help="the shortest run, s (default 30)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if min(args.jobs, args.runs, args.losses) < 1:
        parser.error("--jobs, --runs and --losses must be at least 1")
    if any(not 0 < p < 1 for p in args.loss):
        parser.error("--lossRate must be in (0, 1)")
    if min(args.rtt_ms) <= 0 or args.rate_gbps <= 0 or args.min_seconds <= 0:
        parser.error("--rttMs, --rateGbps and --minSeconds must be above 0")
    os.makedirs(args.output, exist_ok=True)

    tasks = [(c, p, rtt, run, args.rate_gbps, args.losses, args.min_seconds)
             for c in args.congestion for p in args.loss for rtt in args.rtt_ms
             for run in range(1, args.runs + 1)]
    rows = run_tasks(run_one, tasks, args.jobs)
    summary = summarise(rows)
    paths = write_tables(args.output, "tcp-validation", rows, summary, plot)
    for s in summary:
        print("%-7s p %-7g RTT %5g ms  %-8s %9.3f Mbit/s  measured %9.3f +/- %7.3f  "
              "ratio %.3f +/- %.3f  lost %.0f" % (
                  s["congestion"], s["loss"], s["rtt_ms"], s["closed_form"],
                  s["closed_form_mbps"], s["goodput_mbps"], s["goodput_mbps_ci95"],
                  s["ratio"], s["ratio_ci95"], s["lost_packets"]))
    print("written: %s" % ", ".join(paths))


if __name__ == "__main__":
    main()
