#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The paper's system against today's collectives on the same WAN, under
loss: per system and loss rate, the time of a sync, the bytes the islands
send and TCP's retransmissions, as means over independent runs (ns-3's
RngRun) with 95% confidence intervals.

The systems (--systems):
  paper           the schedule's rounds on the intelligent network (multicast
                  trees, the FPGA aggregators with the schedule's memory, the
                  default recovery), a sync being one round of the schedule
                  (its cliques at once)
  ring            ring all-reduce over TCP among every island
  ps              a parameter server over TCP (the best-connected city)
  schedule-ring   the schedule's rounds on today's network: a ring all-reduce
                  over TCP in each clique of a round, the cliques at once
  schedule-ps     the same with a parameter server in each clique

A round of cliques averages within its cliques only; an all-reduce averages
every island.  The time a schedule needs to train to a target is the fair
comparison: each run also trains each workload (--workloads) with H local
steps between syncs (--localSteps) over the rounds it measured
(WanTrainingLoop; a collective's sync as W = J over its members,
WanCollectiveTraining), and reports the simulated time until the gap at the
islands' models reaches the target (inf when it is not reached within
--trainingRounds).  Bytes are the islands' own payload (island chunks, or TCP
records) at full scale.

Writes into the output folder:
  collectives-sweep-runs.csv  one row per run
  collectives-sweep.csv       per system and loss rate: means, 95% CI half-widths
  collectives-sweep.png       time per sync against loss, per system, with the CIs

    python3 scripts/collectives_sweep.py
    python3 scripts/collectives_sweep.py --lossRate 0 0.001 0.01 --runs 5 --jobs 2
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

# None of these loads ns-3 here.
from wan_training import (builtin_schedules, mean_ci, model_facts,  # noqa: E402
                          parse_schedule_memory, run_tasks, write_tables)

SYSTEMS = ("paper", "ring", "ps", "schedule-ring", "schedule-ps")
METRICS = ("sync_ms", "island_gb", "max_island_gb", "retransmissions")


def impairment_of(p):
    """The loss the runs put on every link of the chosen classes."""
    from wan_training import ns

    impairment = ns.WanLinkImpairment()
    impairment.lossRate = p
    return impairment


def time_to_target(run, training):
    """Per workload and H, the simulated time to target of a training over
    the rounds of `run` (a WanExperimentResult), seconds (inf: not reached)."""
    import math

    from wan_training import ns

    out = {}
    for workload in training["workloads"]:
        for h in training["local_steps"]:
            loop = ns.WanTrainingLoop()
            loop.SetWorkload(workload)
            loop.SetAttribute("Rounds", ns.UintegerValue(training["rounds"]))
            loop.SetAttribute("LocalSteps", ns.UintegerValue(h))
            loop.SetAttribute("ComputeTime", ns.TimeValue(ns.Seconds(training["compute_s"])))
            trained = loop.Train(run)
            reached = int(trained.roundsToTarget) >= 0
            out["ttt_%s_h%d_s" % (workload, h)] = (
                float(trained.timeToTargetS) if reached else math.inf)
    return out


def ttt_metrics(training):
    """The time-to-target columns the training settings give."""
    return tuple("ttt_%s_h%d_s" % (w, h) for w in training["workloads"]
                 for h in training["local_steps"])


def run_paper(schedule, hbm_gb, p, links, scale, rounds, training):
    """The schedule's rounds on the intelligent network."""
    from wan_training import ns

    topo = ns.WanTopology.NineCity()
    config = ns.PlannerConfig()
    config.hbmBytes = hbm_gb * 1e9
    experiment = ns.CliqueExperimentHelper(topo, config)
    experiment.SetScale(scale)
    if rounds > 0:
        experiment.SetRounds(rounds)
    for name in links if p > 0 else ():
        experiment.SetImpairment(ns.WanNetworkHelper.ParseLinkClass(name), impairment_of(p))
    result = experiment.Run(ns.CliqueScheduleBuiltins.Make(schedule, topo))
    times, sent, most, exact = [], [], [], True
    for r in result.rounds:
        times.append(float(r.measuredMs))
        out = [float(i.bytesOut) for i in r.islands]
        sent.append(sum(out))
        most.append(max(out))
        exact = exact and all(bool(i.exact) for i in r.islands)
    n = len(times)
    return (sum(times) / n, sum(sent) / n / 1e9, max(most) / 1e9, 0, exact,
            time_to_target(result, training))


def run_tcp(system, schedule, p, links, scale, rounds, training):
    """A collective over TCP among every island, or in each clique of the schedule."""
    from wan_training import ns

    topo = ns.WanTopology.NineCity()
    experiment = ns.WanCollectiveExperiment(topo)
    experiment.SetScale(scale)
    for name in links if p > 0 else ():
        experiment.SetImpairment(ns.WanNetworkHelper.ParseLinkClass(name), impairment_of(p))
    kind = ns.WanCollectiveExperiment.Parse(system.replace("schedule-", ""))
    if not system.startswith("schedule-"):
        r = experiment.Run(kind)
        done = bool(r.complete)
        return (float(r.seconds) * 1e3, float(r.bytes) * scale / 1e9,
                float(r.maxEgressBytes) * scale / 1e9, int(r.retransmissions),
                done and bool(r.exact),
                time_to_target(ns.WanCollectiveTraining.AsRun(topo.GetNCities(), r), training)
                if done else dict.fromkeys(ttt_metrics(training), float("inf")))
    cliques = ns.WanCollectiveScheduleExperiment(experiment)
    s = ns.CliqueScheduleBuiltins.Make(schedule, topo)
    result = list(cliques.Run(kind, s, rounds if rounds > 0 else s.GetNRounds()))
    n = len(result)
    as_run = ns.WanCollectiveTraining.AsRun(schedule, topo.GetNCities(), result)
    return (float(ns.WanCollectiveScheduleExperiment.MeanSeconds(result)) * 1e3,
            sum(float(r.bytes) for r in result) * scale / n / 1e9,
            max(float(r.maxEgressBytes) for r in result) * scale / 1e9,
            sum(int(r.retransmissions) for r in result),
            all(bool(r.complete) and bool(r.exact) for r in result),
            time_to_target(as_run, training) if as_run.feasible
            else dict.fromkeys(ttt_metrics(training), float("inf")))


def run_one(system, schedule, hbm_gb, p, links, run, scale, rounds, training):
    """One simulation, RngRun `run`, and its trainings."""
    from wan_training import ns

    ns.RngSeedManager.SetRun(run)
    if system == "paper":
        figures = run_paper(schedule, hbm_gb, p, links, scale, rounds, training)
    else:
        figures = run_tcp(system, schedule, p, links, scale, rounds, training)
    row = {"system": system, "schedule": schedule, "hbm_gb": hbm_gb, "loss": p,
           "links": ",".join(links), "run": run, "scale": scale}
    row.update(zip(METRICS + ("exact",), figures[:-1]))
    row.update(figures[-1])
    return row


def summarise(rows):
    """Per system and loss rate: the runs' means with their 95% CI half-widths."""
    summary = []
    for system in SYSTEMS:
        for p in sorted({r["loss"] for r in rows}):
            runs = [r for r in rows if r["system"] == system and r["loss"] == p]
            if not runs:
                continue
            s = {k: runs[0][k] for k in ("system", "schedule", "hbm_gb", "loss", "links", "scale")}
            s["runs"] = len(runs)
            for metric in METRICS + tuple(k for k in runs[0] if k.startswith("ttt_")):
                s[metric], s[metric + "_ci95"] = mean_ci([float(r[metric]) for r in runs])
            s["exact"] = all(r["exact"] for r in runs)
            summary.append(s)
    return summary


def plot(summary, path):
    """Time per sync against the loss rate, one line per system."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.4))
    losses = sorted({s["loss"] for s in summary})
    # Lossless at the left, the rates evenly spaced after it.
    where = {p: k for k, p in enumerate(losses)}
    for system in SYSTEMS:
        pts = [s for s in summary if s["system"] == system]
        if pts:
            ax.errorbar([where[s["loss"]] for s in pts], [s["sync_ms"] for s in pts],
                        yerr=[s["sync_ms_ci95"] for s in pts], marker="o", capsize=3,
                        label=system)
    ax.set_xticks(range(len(losses)))
    ax.set_xticklabels(["none" if p == 0 else "%g%%" % (100 * p) for p in losses])
    ax.set_yscale("log")
    ax.set_xlabel("packet loss on every %s link" % summary[0]["links"])
    ax.set_ylabel("time per sync, ms (log)")
    ax.set_title("Nine cities, %s: the paper's system against TCP collectives\n"
                 "(means of %d runs, 95%% CI)" % (summary[0]["schedule"], summary[0]["runs"]))
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--systems", nargs="+", choices=SYSTEMS, default=list(SYSTEMS),
                        help="systems to run (default all)")
    parser.add_argument("--schedule", default="triangles",
                        help="the schedule and FPGA memory, NAME or NAME:GB (default triangles, "
                        "nine-city-cliques' packet run, with its memory)")
    parser.add_argument("--lossRate", dest="loss", metavar="P", nargs="+", type=float,
                        default=[0, 0.0001, 0.001, 0.01],
                        help="loss rates, 0 for none (default 0 0.0001 0.001 0.01)")
    parser.add_argument("--lossLinks", dest="links", nargs="+", default=["core"],
                        help="link classes that lose packets (default core)")
    parser.add_argument("--runs", type=int, default=5,
                        help="independent runs (RngRun 1..N) per setting (default 5)")
    parser.add_argument("--scale", type=float, default=1000, help="scale (default 1000)")
    parser.add_argument("--rounds", type=int, default=0,
                        help="schedule rounds per run, 0 for one period (default 0)")
    parser.add_argument("--workloads", nargs="+", default=["quadratic", "logistic"],
                        choices=["quadratic", "logistic", "none"],
                        help="workloads trained over each run's rounds (default quadratic "
                        "logistic; none: no training)")
    parser.add_argument("--localSteps", type=int, nargs="+", default=[1, 100],
                        help="H, local steps between syncs (default 1 100)")
    parser.add_argument("--computeMs", type=float, default=250,
                        help="compute time of a local step, ms (default 250)")
    parser.add_argument("--trainingRounds", type=int, default=100,
                        help="training rounds, the measured rounds in turn (default 100)")
    parser.add_argument("--jobs", type=int, default=1, help="parallel processes (default 1)")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if min(args.jobs, args.runs) < 1 or args.rounds < 0 or args.scale < 1:
        parser.error("--jobs and --runs must be at least 1, --rounds at least 0, "
                     "--scale at least 1")
    if min(args.localSteps) < 1 or args.trainingRounds < 1 or args.computeMs < 0:
        parser.error("--localSteps and --trainingRounds must be at least 1, --computeMs at "
                     "least 0")
    if any(not 0 <= p < 1 for p in args.loss):
        parser.error("--lossRate must be in [0, 1)")
    classes = model_facts()["link_classes"]
    for name in args.links:
        if name not in classes:
            parser.error("--lossLinks: unknown link class '%s' (%s)" % (name, ", ".join(classes)))
    try:
        schedule, hbm_gb = parse_schedule_memory(args.schedule)
    except ValueError as e:
        parser.error("--schedule: %s" % e)
    if schedule not in builtin_schedules():
        parser.error("--schedule: unknown schedule '%s' (built-in: %s)"
                     % (schedule, ", ".join(builtin_schedules())))
    os.makedirs(args.output, exist_ok=True)

    training = {"workloads": [] if "none" in args.workloads else args.workloads,
                "local_steps": args.localSteps, "rounds": args.trainingRounds,
                "compute_s": args.computeMs / 1e3}
    tasks = [(system, schedule, hbm_gb, p, args.links, run, args.scale, args.rounds, training)
             for system in args.systems for p in sorted(set(args.loss))
             for run in range(1, args.runs + 1)]
    rows = run_tasks(run_one, tasks, args.jobs)
    summary = summarise(rows)
    paths = write_tables(args.output, "collectives-sweep", rows, summary, plot)
    for s in summary:
        print("%-15s loss %-7g sync %10.1f +/- %8.1f ms  islands send %8.3f GB (most %6.3f)  "
              "retransmissions %8.1f  exact %s" % (
                  s["system"], s["loss"], s["sync_ms"], s["sync_ms_ci95"], s["island_gb"],
                  s["max_island_gb"], s["retransmissions"], s["exact"]))
        for metric in ttt_metrics(training):
            print("%-15s loss %-7g %-26s %10.2f +/- %8.2f s" % (
                s["system"], s["loss"], metric, s[metric], s[metric + "_ci95"]))
    print("written: %s" % ", ".join(paths))


if __name__ == "__main__":
    main()
