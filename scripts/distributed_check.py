#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Distributed runs give the results of one process: runs nine-city-cliques
of the setup's build (ns-3 with its MPI module) on one rank and under mpiexec on
several, with the same schedule, loss pattern and seed, and compares their
packet-level results (round times, every island's counts and sums, core link
counts, evictions, losses, mixing, route changes, FPGA failures, control
messages), run by run: everything but the event count, which the distributed
simulators change (their own messages). Also compares the packet traces of
one process and two ranks, byte for byte, and checks what is refused.  Prints each run's
round times and wall time, and exits non-zero when a result differs.

    python3 scripts/distributed_check.py --program PATH
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

CASES = [
    # name, arguments, [(ranks, synchroniser)]
    ("triangles, 0 GB, 1% core loss, early repair",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=4", "--lossRate=0.01",
      "--recovery=early"],
     [(2, "gtw"), (2, "null")]),
    ("triangles, 0 GB, 1% core loss, early repair, cities balanced by each run's plan",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=4", "--lossRate=0.01",
      "--recovery=early", "--partition=balanced"],
     [(2, "gtw"), (3, "null")]),
    ("triangles, 0 GB, 1% loss on every link, the default recovery (parity decoded at "
     "the island, sized from the islands' reports)",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=2", "--lossRate=0.01",
      "--lossLinks=core,access,post"],
     [(2, "gtw"), (3, "gtw")]),
    ("all-to-all, 32 GB, 0.1% core loss, early repair",
     ["--packetSchedule=all-to-all:32", "--hbmGB=32", "--scale=1000",
      "--rounds=2", "--lossRate=0.001", "--recovery=early"],
     [(3, "gtw")]),
    ("triangles, 0 GB, link NYC-LON down 0.9-1.6 s, FPGAs of LON and TYO failing",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=4", "--recovery=early",
      "--linkFaults=NYC-LON@0.9-1.6", "--fpgaFaults=LON@0.7,TYO@1.2"],
     [(2, "gtw")]),
    ("triangles, 0 GB, link NYC-LON down 0.9-1.6 s, FPGA of LON failing at 0.7 s, "
     "both detected (BFD, heartbeats)",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=4", "--recovery=early",
      "--faultDetection=bfd", "--linkFaults=NYC-LON@0.9-1.6", "--fpgaFaults=LON@0.7"],
     [(2, "gtw"), (2, "null"), (3, "gtw")]),
    ("triangles, 0 GB, trees built by PIM, link NYC-LON down 0.9-1.6 s detected by BFD",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=4", "--recovery=early",
      "--treeBuilding=pim", "--faultDetection=bfd", "--linkFaults=NYC-LON@0.9-1.6"],
     [(2, "gtw"), (2, "null")]),
    ("triangles, 0 GB, 2 ms correlated jitter on core links",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=3", "--recovery=early",
      "--jitterMs=2", "--jitterLinks=core"],
     [(2, "gtw"), (2, "null")]),
    ("all-to-all, 32 GB, 1 ms independent jitter on core links, reordering",
     ["--packetSchedule=all-to-all:32", "--hbmGB=32", "--scale=1000",
      "--rounds=2", "--recovery=early", "--jitterMs=1", "--jitterModel=independent",
      "--reorder=true", "--jitterLinks=core"],
     [(2, "gtw")]),
    ("triangles and all-to-all, 32 GB, each with its two baselines (six simulations in "
     "one mpiexec), 0.1% core loss",
     ["--packetSchedule=triangles:32,all-to-all:32", "--baselines=true",
      "--hbmGB=32", "--scale=1000", "--rounds=2", "--lossRate=0.001", "--recovery=early"],
     [(2, "gtw"), (2, "null")]),
    ("triangles, 0 GB, 30% cross traffic on every core link direction",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=3", "--recovery=early",
      "--crossTraffic=0.3"],
     [(2, "gtw")]),
]


# The cases run the comparison modes (faults known in advance, the planner's
# trees) unless they name the network's own, the programs' defaults (BFD, PIM):
# those have cases of their own, and under the null-message synchroniser they
# meet ns-3 asserts (KNOWN_FAILURES).  A case's own modes come later and win.
# (The refusals run in the defaults: they end before the simulation.)
COMPARISON_MODES = ["--faultDetection=oracle", "--treeBuilding=planner"]


def run(program, args, ranks, sync, folder):
    """One run; returns its packet-level result and wall time."""
    out = os.path.join(folder, "run-%d-%s.json" % (ranks, sync or "none"))
    # The collectives over TCP are not compared (a distributed run skips them).
    cmd = [program, "--baselines=false", "--quiet", "--collectives=none",
           "--packetOutput=" + out] + COMPARISON_MODES + args
    if ranks > 1:
        mpi = ["mpiexec", "-np", str(ranks), "--oversubscribe"]
        if os.geteuid() == 0:
            mpi.append("--allow-run-as-root")
        cmd = mpi + cmd + ["--mpi=" + sync]
    start = time.monotonic()
    done = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.monotonic() - start
    if done.returncode != 0:
        raise SystemExit("%s failed:\n%s%s" % (" ".join(cmd), done.stdout, done.stderr))
    with open(out) as f:
        return json.load(f)["runs"], wall


def traces(program, folder):
    """The packet traces of a distributed run, split across its ranks, are
    the files of one process, byte for byte."""
    args = ["--packetSchedule=triangles", "--scale=1000", "--rounds=2", "--recovery=early",
            "--lossRate=0.01", "--pcap=true", "--ascii=true", "--traceLinks=core,LON"]
    files = {}
    for ranks in (1, 2):
        where = os.path.join(folder, "traces-%d" % ranks)
        os.mkdir(where)
        run(program, args + ["--tracePrefix=" + os.path.join(where, "t")], ranks, "gtw", where)
        files[ranks] = {}
        for name in sorted(os.listdir(where)):
            if name.endswith((".pcap", ".tr")):
                with open(os.path.join(where, name), "rb") as f:
                    files[ranks][name] = f.read()
    same = files[1] == files[2]
    pcaps = [n for n in files[1] if n.endswith(".pcap")]
    size = sum(len(b) for b in files[1].values())
    print("packet traces (pcap and ASCII, core links and LON): %d files, %d bytes; "
          "2 ranks (gtw): %s" % (len(files[1]), size, "identical" if same else "DIFFER"))
    return same and len(pcaps) > 0


def refused(program, args, expected, ranks=2):
    """A distributed run of what it cannot do ends with a one-line error."""
    cmd = ["mpiexec", "-np", str(ranks), "--oversubscribe"] + (
        ["--allow-run-as-root"] if os.geteuid() == 0 else []) + [
        program, "--baselines=false", "--quiet", "--packetSchedule=triangles", "--scale=1000",
        "--rounds=1"] + args + ([] if any(a.startswith("--mpi=") for a in args) else
                                ["--mpi=gtw"])
    done = subprocess.run(cmd, capture_output=True, text=True)
    ok = done.returncode != 0 and expected in done.stderr
    known = next((f for a, f in KNOWN_REFUSAL_FAILURES.items() if a in args), None)
    if not ok and known and done.returncode != 0 and known_assert(done.stderr, known):
        print("  refused: %s: known failure (an assert in ns-3's %s)" % (" ".join(args), known))
        return True
    print("  refused: %s: %s" % (" ".join(args), "yes" if ok else "NO (" + done.stderr + ")"))
    return ok


# Known failures of the null-message synchroniser, seen once the check ran on a
# build with ns-3's asserts (the optimized MPI build it ran on before has none,
# and gave identical results there): (case name, ranks, synchroniser) -> the
# source file of the ns-3 assert that may stop the run.  Such a run either
# gives the results of one process (checked as any other) or stops at that
# assert (reported, not counted); any other end is a failure.
KNOWN_FAILURES = {
    # RemoteChannelBundle::SetGuaranteeTime: a guarantee in the past, at 1.196 s,
    # in some runs (the order in which MPI delivers the ranks' messages).
    ("triangles, 0 GB, trees built by PIM, link NYC-LON down 0.9-1.6 s detected by BFD",
     2, "null"): "remote-channel-bundle.cc",
    # ns-3.37's NullMessageSimulatorImpl can be created once per process
    # (g_instance is never reset): the second simulation of one mpiexec.
    ("triangles and all-to-all, 32 GB, each with its two baselines (six simulations in "
     "one mpiexec), 0.1% core loss", 2, "null"): "null-message-simulator-impl.cc",
}
# The same for the refusals: the arguments -> the file of the assert that may
# come before the one-line error (RemoteChannelBundleManager::Destroy when the
# null-message simulator is destroyed before it ran).
KNOWN_REFUSAL_FAILURES = {
    "--faultDetection=bfd": "remote-channel-bundle-manager.cc",
}


def known_assert(failure, known):
    """Whether a run's failure is the known ns-3 assert in the file known
    (ns-3.37 writes "assert failed", current ns-3-dev "NS_ASSERT failed")."""
    return "assert failed" in failure.lower() and known in failure


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program", required=True,
                        help="nine-city-cliques of a build with ns-3's MPI module")
    parser.add_argument("--onePerCase", action="store_true",
                        help="each case against one of its distributed runs only, the k-th "
                        "case's k-th (in turn), so that every synchroniser and rank count "
                        "still runs (scripts/sanitize.sh: the sanitized runs at half the cost)")
    args = parser.parse_args(argv)
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        for k, (name, case, distributed) in enumerate(CASES):
            if args.onePerCase:
                distributed = [distributed[k % len(distributed)]]
            one, wall = run(args.program, case, 1, None, folder)
            times = ", ".join("%.1f" % r["mixed_ms"] for r in one[0]["rounds"])
            print("%s: 1 rank: %d run(s), the first's rounds %s ms, exact %s, %d events, %.2f s"
                  % (name, len(one), times, one[0]["exact"],
                     sum(r["events"] for r in one), wall))
            for ranks, sync in distributed:
                known = KNOWN_FAILURES.get((name, ranks, sync))
                try:
                    other, wall = run(args.program, case, ranks, sync, folder)
                except SystemExit as failure:
                    if known is None or not known_assert(str(failure), known):
                        raise
                    print("  %d ranks (%s): known failure (an assert in ns-3's %s)"
                          % (ranks, sync, known))
                    continue
                # Events differ by the ranks' own; the check of every tree at a
                # round's start reads all routers, so one process only (-1 else).
                differ = sorted({k for a, b in zip(one, other) for k in a
                                 if k not in ("events", "pim_missing") and a[k] != b.get(k)})
                if len(one) != len(other):
                    differ.append("the number of runs (%d)" % len(other))
                print("  %d ranks (%s): %s, %d events, %.2f s"
                      % (ranks, sync, "identical" if not differ else "DIFFER in " +
                         ", ".join(differ), sum(r["events"] for r in other), wall))
                failures += bool(differ)
        failures += not traces(args.program, folder)
    # BUE (rank 0) and FRA (rank 2) each border rank 1 only.
    failures += not refused(
        args.program,
        ["--mpi=null", "--faultDetection=bfd",
         "--partition=BUE:0,NYC:1,LAX:1,TYO:1,SEO:1,SIN:1,LON:1,AMS:1,FRA:2"],
        "ranks 0 and 2 share no core link", ranks=3)
    for args_, expected in [
            (["--partition=NYC:0"], "partition: no rank for LAX"),
            (["--packetLevel=false"], "--mpi does nothing here: it needs --packetLevel=true")]:
        failures += not refused(args.program, args_, expected)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
