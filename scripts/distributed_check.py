#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Distributed runs give the results of one process: runs nine-city-cliques
of the MPI build (scripts/setup.sh --mpi) on one rank and under mpiexec on
several, with the same schedule, loss pattern and seed, and compares their
packet-level results (round times, every island's counts and sums, core link
counts, evictions, losses, mixing): everything but the event count, which
the distributed simulators change (their own messages).  Prints each run's
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
    ("all-to-all, 32 GB, 0.1% core loss, early repair",
     ["--packetSchedule=all-to-all", "--packetHbmGB=32", "--hbmGB=32", "--scale=1000",
      "--rounds=2", "--lossRate=0.001", "--recovery=early"],
     [(3, "gtw")]),
    ("triangles, 0 GB, link NYC-LON down 0.9-1.6 s, FPGAs of LON and TYO failing",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=4", "--recovery=early",
      "--linkFaults=NYC-LON@0.9-1.6", "--fpgaFaults=LON@0.7,TYO@1.2"],
     [(2, "gtw")]),
    ("triangles, 0 GB, 30% cross traffic on every core link direction",
     ["--packetSchedule=triangles", "--scale=1000", "--rounds=3", "--recovery=early",
      "--crossTraffic=0.3"],
     [(2, "gtw")]),
]


def run(program, args, ranks, sync, folder):
    """One run; returns its packet-level result and wall time."""
    out = os.path.join(folder, "run-%d-%s.json" % (ranks, sync or "none"))
    cmd = [program, "--baselines=false", "--quiet", "--packetOutput=" + out] + args
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
        return json.load(f)["runs"][0], wall


def refused(program, args, expected):
    """A distributed run of what it cannot do ends with a one-line error."""
    cmd = ["mpiexec", "-np", "2", "--oversubscribe"] + (
        ["--allow-run-as-root"] if os.geteuid() == 0 else []) + [
        program, "--baselines=false", "--quiet", "--packetSchedule=triangles", "--scale=1000",
        "--rounds=1", "--mpi=gtw"] + args
    done = subprocess.run(cmd, capture_output=True, text=True)
    ok = done.returncode != 0 and expected in done.stderr
    print("  refused: %s: %s" % (" ".join(args), "yes" if ok else "NO (" + done.stderr + ")"))
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program", required=True,
                        help="nine-city-cliques of the MPI build")
    args = parser.parse_args(argv)
    failures = 0
    with tempfile.TemporaryDirectory() as folder:
        for name, case, distributed in CASES:
            one, wall = run(args.program, case, 1, None, folder)
            times = ", ".join("%.1f" % r["mixed_ms"] for r in one["rounds"])
            print("%s: 1 rank: rounds %s ms, exact %s, %d events, %.2f s"
                  % (name, times, one["exact"], one["events"], wall))
            for ranks, sync in distributed:
                other, wall = run(args.program, case, ranks, sync, folder)
                differ = [k for k in one if k != "events" and one[k] != other.get(k)]
                print("  %d ranks (%s): %s, %d events, %.2f s"
                      % (ranks, sync, "identical" if not differ else "DIFFER in " +
                         ", ".join(differ), other["events"], wall))
                failures += bool(differ)
    for args_, expected in [
            (["--faultDetection=bfd"], "a distributed run (MPI) cannot have detected faults"),
            (["--jitterMs=1"], "a distributed run (MPI) cannot have jitter on core links"),
            (["--partition=NYC:0"], "partition: no rank for LAX"),
            (["--baselines=true"], "--mpi runs one packet-level simulation")]:
        failures += not refused(args.program, args_, expected)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
