#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Coded repair sized from measured loss, at packet level: for each schedule,
FPGA memory, loss setting and place of decoding, a pilot run measures the
erasure rate q the code faces (decoded by the island: a chunk or parity
chunk of a block lacking some sender's first-hand copy, the union of its
senders' losses; decoded per stream at the FPGA: one sender's chunk that
did not reach the FPGA), the parity per block is sized from it
(the least r with P(Binomial(k + r, q) > r) <= epsilon, WanParitySizer, q
the worst island's rate at the upper end of its 95% interval),
and independent runs (ns-3's RngRun) measure, with 95% confidence intervals:
the erasure rate, the share of blocks with more erasures than parities
against the binomial prediction (each island's tail at its own measured
rate, weighted by its blocks), the parity bytes against the binomial bound
for the worst island's measured rate (which sizes r), and the round-time inflation against the lossless run of the
uncoded policy.

Writes into the output folder:
  parity-sweep.csv        one row per setting: r, means and 95% CI half-widths
  parity-sweep-runs.csv   one row per run (the pilots marked)
  parity-sweep.png        blocks short, measured against predicted, with the CIs
  parity-sweep-packets.json  every run's per-round packet-level results

    python3 scripts/parity_sweep.py
    python3 scripts/parity_sweep.py --schedule triangles:32 --lossRate 0.01 --runs 5 --jobs 2
"""

import argparse
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

# None of these loads ns-3 here.
from wan_training import (mean_ci, model_facts, parse_schedule_memory,  # noqa: E402
                          run_tasks, write_sweep)

# The pilots' RngRun: apart from the measured runs' 1..N.
PILOT_RUN = 1000


# What the code faced, per island, for each place of decoding: the island's
# own decoder over the FPGA's sums, or its FPGA's per-stream decoder.
CODE_FIELDS = {
    "island": ("erasures", "parity_symbols", "parity_blocks", "blocks_short"),
    "fpga": ("stream_erasures", "stream_symbols", "stream_blocks", "stream_short"),
}


def run_one(schedule, hbm_gb, loss, burst, recovery, run, scale, rounds, join_ms, block,
            parities, decode, share, sizing=0, window=2, confidence=0.95):
    """One simulation, RngRun `run`, loss `loss` on every link class in bursts
    of `burst` packets on average (0: none); PIM's periodic Joins every
    join_ms; block data chunks per parity block and `parities` parities each
    (0: the uncoded policy), decoded where `decode` says ("island" or
    "fpga", with `share` of the FPGA's memory for the blocks' copies); with
    `sizing` (a block failure probability, decoded at the FPGA) each stream
    sizes its rows per round from the FPGAs' reports, `parities` the most."""
    from wan_training import ns, packet_run

    ns.RngSeedManager.SetRun(run)
    if join_ms is not None:
        ns.Config.SetDefault("ns3::WanPimRouter::JoinPeriod",
                             ns.TimeValue(ns.MilliSeconds(join_ms)))
    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(scale)
    experiment.SetRounds(rounds)
    if parities > 0:
        experiment.SetParity(block, parities)
        experiment.SetParityDecoding(decode, share)
        experiment.SetParitySizing(sizing, window, confidence)
    experiment.SetRecovery(recovery)
    if loss > 0:
        impairment = ns.WanLinkImpairment()
        impairment.lossRate = loss
        impairment.burstLength = burst
        for name in model_facts()["link_classes"]:
            experiment.SetImpairment(ns.WanNetworkHelper.ParseLinkClass(name), impairment)
    label = "%s %g GB, %s, loss %g burst %g, r %d decoded at the %s, run %d" % (
        schedule, hbm_gb, recovery, loss, burst, parities, decode, run)
    packets = packet_run(experiment.Run(ns.CliqueScheduleBuiltins.Make(schedule, topo)), topo,
                         label, {"loss": loss, "burst": burst, "scale": scale, "run": run,
                                 "recovery": recovery, "hbm_gb": hbm_gb, "block": block,
                                 "parities": parities, "join_ms": join_ms,
                                 "decode": decode, "decode_share": share, "sizing": sizing,
                                 "window": window, "confidence": confidence})
    islands = [i for r in packets["rounds"] for i in r["islands"]]
    erasures, symbols, blocks, short = CODE_FIELDS[decode]
    total = {k: sum(i[k] for i in islands)
             for k in ("bytes_in", "given_up", "rebuilt", "requested", "parity_sent",
                       "stream_rebuilt", "stream_evicted")}
    # The blocks the code faced where it was decoded.
    for name, field in (("erasures", erasures), ("parity_symbols", symbols),
                        ("parity_blocks", blocks), ("blocks_short", short)):
        total[name] = sum(i[field] for i in islands)
    row = {"schedule": schedule, "hbm_gb": hbm_gb, "recovery": recovery, "loss": loss,
           "burst": burst, "join_ms": join_ms, "block": block, "parities": parities,
           "decode": decode, "sizing": sizing, "window": window, "confidence": confidence,
           "run": run,
           "pilot": run == PILOT_RUN,
           "mixed_ms": max(r["mixed_ms"] for r in packets["rounds"]),
           # Rounds after the first: sized from reports (in band).
           "mixed_ms_sized": max((r["mixed_ms"] for r in packets["rounds"][1:]), default=0),
           "bytes_in_sized": sum(i["bytes_in"] for r in packets["rounds"][1:]
                                 for i in r["islands"]),
           "rows_sized": mean_ci([i["parity_rows"] for r in packets["rounds"][1:]
                                  for i in r["islands"]] or [0])[0],
           "exact": all(i["exact"] for i in islands)}
    row.update(total)
    row["erasure_rate"] = (total["erasures"] / total["parity_symbols"]
                           if total["parity_symbols"] else 0.0)
    row["short_share"] = (total["blocks_short"] / total["parity_blocks"]
                          if total["parity_blocks"] else 0.0)
    # Each island's erasure rate (its paths differ): the worst, and the
    # prediction of blocks short as each island's binomial tail at its own
    # rate, weighted by its blocks.
    per_city = {}
    for i in islands:
        c = per_city.setdefault(i["city"], [0, 0, 0])
        c[0] += i[erasures]
        c[1] += i[symbols]
        c[2] += i[blocks]
    rates = [(e / n, b) for e, n, b in per_city.values() if n > 0]
    row["erasure_rate_max"] = max((q for q, _ in rates), default=0.0)
    # What sizes r from a pilot: the highest rate no island's count excludes.
    row["erasure_rate_upper"] = max((wilson_upper(e, n) for e, n, _ in per_city.values()
                                     if n > 0), default=0.0)
    # Sized in band, the rows the streams sent on average after the first round.
    rows = round(row["rows_sized"]) if sizing else parities
    row["predicted"] = (sum(b * failure(block + rows, rows, q) for q, b in rates) /
                        total["parity_blocks"]
                        if rows > 0 and total["parity_blocks"] else None)
    # Filled in by main and summarise, for the measured runs.
    row.update(dict.fromkeys(("bound", "inflation_percent", "overhead_percent",
                              "parity_vs_bound")))
    return packets, row


def wilson(count, n):
    """The 95% Wilson score interval of a rate count / n."""
    z = 1.959964
    p = count / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return max(0.0, (centre - spread) / (1 + z * z / n)), min(1.0, (centre + spread) / (1 + z * z / n))


def wilson_upper(erasures, n):
    """The upper end of the 95% Wilson interval of a rate erasures / n, below 1
    (what WanParitySizer takes)."""
    return min(wilson(erasures, n)[1], 1 - 1e-9)


def failure(n, r, q):
    """P(Binomial(n, q) > r), as WanParitySizer computes it."""
    from wan_training import ns
    return float(ns.WanParitySizer.FailureProbability(n, r, q))


def size(k, q, epsilon):
    """The least r (at most k, and k + r at most 256), and whether it reaches
    epsilon."""
    from wan_training import ns
    top = min(k, ns.WanParityCode.MAX_LENGTH - k)  # WanParityCode's limits
    return int(ns.WanParitySizer.Parities(k, q, epsilon, top)), bool(
        ns.WanParitySizer.Reaches(k, q, epsilon, top))


def summarise(rows, baselines, k, epsilon):
    """One row per setting: r, erasure rate, blocks short measured and
    predicted (each run's prediction from its own measured rate), parity
    bytes against the bound, inflation against the uncoded lossless run."""
    groups = {}
    for r in rows:
        if not r["pilot"] and r["loss"] > 0:
            groups.setdefault((r["schedule"], r["hbm_gb"], r["loss"], r["burst"], r["decode"]),
                              []).append(r)
    # Sized in band, the rounds after the first (sized from reports) count.
    mixed, bytes_in = (("mixed_ms_sized", "bytes_in_sized") if any(r["sizing"] for r in rows)
                       else ("mixed_ms", "bytes_in"))
    summary = []
    for (schedule, gb, loss, burst, decode), runs in groups.items():
        base = baselines[(schedule, gb)]
        parities = (sum(r["rows_sized"] for r in runs) / len(runs) if runs[0]["sizing"]
                    else runs[0]["parities"])
        out = {"schedule": schedule, "hbm_gb": gb, "loss": loss, "burst": burst,
               "decode": decode, "block": k, "parities": parities, "runs": len(runs)}
        for r in runs:
            r["inflation_percent"] = 100 * (r[mixed] / base[mixed] - 1)
            r["overhead_percent"] = 100 * (r[bytes_in] / base[bytes_in] - 1)
            # The parity the measured rate needed, against what was sent.
            r["parity_vs_bound"] = (r["rows_sized"] if r["sizing"] else parities) / max(r["bound"], 1)
        for metric in ("erasure_rate", "erasure_rate_max", "short_share", "predicted", "inflation_percent",
                       "overhead_percent", "parity_vs_bound", "given_up", "rows_sized"):
            out[metric], out[metric + "_ci95"] = mean_ci([r[metric] for r in runs])
        out["rebuilt_at_fpga"] = sum(r["stream_rebuilt"] for r in runs)
        out["evicted_at_fpga"] = sum(r["stream_evicted"] for r in runs)
        out["blocks"] = sum(r["parity_blocks"] for r in runs)
        out["blocks_short"] = sum(r["blocks_short"] for r in runs)
        # The prediction lies within the 95% (Wilson) interval of the share
        # of blocks short, counted over every block of the runs.
        out["short_low"], out["short_high"] = wilson(out["blocks_short"], out["blocks"])
        out["prediction_within_ci"] = (out["short_low"] - 1e-12 <= out["predicted"] <=
                                       out["short_high"] + 1e-12)
        out["exact_runs"] = sum(r["exact"] for r in runs)
        out["given_up_runs"] = sum(r["given_up"] > 0 for r in runs)
        out["epsilon"] = epsilon
        summary.append(out)
    return summary


def plot(summary, png_path):
    """Blocks short: measured (95% CI) against the binomial prediction."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for s in summary:
        label = "%s %g GB, %g%%%s, r %d, %s" % (s["schedule"], s["hbm_gb"], 100 * s["loss"],
                                              "" if s["burst"] == 1 else " bursts",
                                              s["parities"], s["decode"])
        ax.errorbar(max(s["predicted"], 1e-5), max(s["short_share"], 1e-5),
                    xerr=s["predicted_ci95"], yerr=s["short_share_ci95"],
                    marker="o", capsize=3, linestyle="none", label=label)
    ax.plot([1e-5, 1], [1e-5, 1], color="grey", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("predicted P(Binomial(k + r, q) > r), q measured")
    ax.set_ylabel("measured share of blocks short")
    ax.set_title("Nine cities: blocks the code could not rebuild (means, 95% CI)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=6)
    fig.tight_layout()
    fig.savefig(png_path, dpi=120)
    plt.close(fig)


def main(argv=None):
    facts = model_facts()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedule", dest="configs", metavar="NAME[:GB]", nargs="+",
                        type=parse_schedule_memory,
                        default=[parse_schedule_memory(t)
                                 for t in ("triangles:0", "triangles:32", "all-to-all:32")],
                        help="schedules and FPGA memory (default triangles:0 triangles:32 "
                             "all-to-all:32)")
    parser.add_argument("--lossRate", dest="loss", metavar="RATE", nargs="+", type=float,
                        default=[0.001, 0.01, 0.05], help="loss rates, on every link class")
    parser.add_argument("--lossBurst", dest="bursts", metavar="L", nargs="+", type=float,
                        default=[1, 4], help="mean packets per loss event (1: independent)")
    parser.add_argument("--recovery", default="coded+early",
                        choices=sorted(facts["uncoded"]), help="coded policy (default coded+early)")
    parser.add_argument("--decode", metavar="WHERE", nargs="+", choices=("island", "fpga"),
                        default=["island", "fpga"],
                        help="where the parity is decoded: island (over the FPGA's sums) "
                             "and/or fpga (per sender's stream before it sums; needs FPGA "
                             "memory, so not with 0 GB) (default both)")
    parser.add_argument("--decodeShare", dest="share", type=float, default=0.5,
                        help="share of the FPGA's memory for the copies of the blocks it "
                             "decodes (default 0.5)")
    parser.add_argument("--parityBlock", dest="block", metavar="K", type=int, default=112,
                        help="data chunks per block (default 112: a stream at scale 1000, "
                             "one block)")
    parser.add_argument("--epsilon", type=float, default=1e-3,
                        help="block failure probability the parity is sized for (default 1e-3)")
    parser.add_argument("--sizing", action="store_true",
                        help="size each stream's parity per round in band, from the loss the "
                             "FPGAs report (decoded at the FPGA; no pilot; --maxParities the "
                             "most, sent in the first round; inflation and bytes over the later "
                             "rounds)")
    parser.add_argument("--maxParities", dest="max_parities", type=int, default=40,
                        help="with --sizing: the code's rows, the most a stream sends "
                             "(default 40, the default recovery's, not the island's "
                             "ParityChunks of 1: sized rows need room to grow)")
    parser.add_argument("--window", type=int, default=2,
                        help="with --sizing: rounds of reports counted (default 2)")
    parser.add_argument("--confidence", type=float, default=0.95,
                        help="with --sizing: confidence of each receiver's Wilson interval, "
                             "whose upper end is its rate (0: the measured rate; default 0.95)")
    parser.add_argument("--joinPeriodMs", dest="join_ms", type=float, default=None,
                        help="PIM's t_periodic, ms (default: WanPimRouter's JoinPeriod, RFC "
                             "7761's 60000; a lost triggered Join is sent again every "
                             "JoinRetryPeriod until confirmed)")
    parser.add_argument("--runs", type=int, default=5,
                        help="independent runs (RngRun 1..N) per setting (default 5)")
    parser.add_argument("--scale", type=float, default=1000, help="scale (default 1000)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per run (default 2)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if (min(args.jobs, args.runs, args.rounds) < 1 or args.scale < 1
            or (args.join_ms is not None and not args.join_ms > 0)):
        parser.error("--jobs, --runs, --scale and --rounds must be at least 1, "
                     "--joinPeriodMs above 0")
    if any(not 0 < p < 1 for p in args.loss) or any(b < 1 for b in args.bursts):
        parser.error("--lossRate must be in (0, 1) and --lossBurst at least 1")
    if not 1 <= args.block < 256 or not 0 < args.epsilon < 1 or not 0 < args.share < 1:
        parser.error("--parityBlock must be from 1 to 255, --epsilon and --decodeShare in "
                     "(0, 1)")
    if args.sizing and (args.decode != ["fpga"] or args.rounds < 2 or
                        not 1 <= args.max_parities <= min(args.block, 256 - args.block)):
        parser.error("--sizing needs --decode fpga, --rounds of at least 2 and --maxParities "
                     "from 1 to min(parityBlock, 256 - parityBlock)")
    if args.window < 1 or not 0 <= args.confidence < 1:
        parser.error("--window must be at least 1, --confidence from 0 to less than 1")
    if any(gb < 0 for _, gb in args.configs):
        parser.error("the memory must be non-negative")
    os.makedirs(args.output, exist_ok=True)
    common = (args.scale, args.rounds, args.join_ms, args.block)
    uncoded = facts["uncoded"][args.recovery]
    # Decoding at the FPGA needs memory for the blocks' copies.
    for s, gb in args.configs:
        if gb == 0 and "fpga" in args.decode:
            print("parity_sweep.py: %s 0 GB not decoded at the FPGA: it has no memory for the "
                  "blocks' copies" % s, file=sys.stderr)
    settings = [(s, gb, p, b, d) for s, gb in args.configs for p in args.loss
                for b in args.bursts for d in args.decode if d == "island" or gb > 0]

    # Stage 1: the lossless baselines (uncoded) and one pilot per setting, r = 1.
    first = [(s, gb, 0, 0, uncoded, 1) + common + (0, "island", args.share)
             for s, gb in args.configs]
    first += [(s, gb, p, b, args.recovery, PILOT_RUN) + common + (1, d, args.share)
              for s, gb, p, b, d in settings if not args.sizing]
    done = run_tasks(run_one, first, args.jobs)
    packets = [d[0] for d in done]
    rows = [d[1] for d in done]
    baselines = {(r["schedule"], r["hbm_gb"]): r for r in rows[:len(args.configs)]}
    pilots = rows[len(args.configs):]
    # Every island must reach epsilon: the worst island's rate, at the upper
    # end of its 95% interval (a pilot's count is small), sizes r.
    sized = [size(args.block, p["erasure_rate_upper"], args.epsilon) for p in pilots]
    if args.sizing:  # no pilot: the streams size their rows in band
        sized = [(args.max_parities, True)] * len(settings)
    for p, (r, reaches) in zip(pilots, sized):
        if not reaches:
            print("parity_sweep.py: %s %g GB at %g%%, decoded at the %s: erasure rate %.3f, a "
                  "block of %d cannot reach %g; r capped at %d" % (
                      p["schedule"], p["hbm_gb"], 100 * p["loss"], p["decode"],
                      p["erasure_rate_upper"], args.block, args.epsilon, r), file=sys.stderr)

    # Stage 2: the measured runs at the sized r.
    second = [(s, gb, p, b, args.recovery, run) + common +
              (r, d, args.share, args.epsilon if args.sizing else 0, args.window,
               args.confidence)
              for (s, gb, p, b, d), (r, _) in zip(settings, sized)
              for run in range(1, args.runs + 1)]
    done = run_tasks(run_one, second, args.jobs)
    packets += [d[0] for d in done]
    measured = [d[1] for d in done]
    # Each run's prediction and bound from its own measured rate.
    k = args.block
    for m in measured:
        m["bound"] = size(k, m["erasure_rate_max"], args.epsilon)[0]
    rows += measured
    summary = summarise(rows, baselines, k, args.epsilon)
    paths = write_sweep(args.output, "parity-sweep", rows, summary, packets, plot)
    for s in summary:
        print("%-10s %2g GB loss %5g burst %g %-6s r %2d/%d  q %.4f +/- %.4f  short %.4f +/- %.4f "
              "(predicted %.4f)  parity/bound %.2f  inflation +%.1f +/- %.1f%%  bytes +%.1f%%  "
              "exact %d/%d" % (
                  s["schedule"], s["hbm_gb"], s["loss"], s["burst"], s["decode"], s["parities"], k,
                  s["erasure_rate"], s["erasure_rate_ci95"], s["short_share"],
                  s["short_share_ci95"], s["predicted"], s["parity_vs_bound"],
                  s["inflation_percent"], s["inflation_percent_ci95"], s["overhead_percent"],
                  s["exact_runs"], s["runs"]))
    print("written: %s" % ", ".join(paths))
    return summary


if __name__ == "__main__":
    main()
