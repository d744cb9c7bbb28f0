#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Byte-for-byte check of a change that must not change behaviour: runs
nine-city-cliques in eight packet-level settings (scale 100, 32 GB, loss with
coded repair, correlated jitter, a link breaking mid-round under BFD and PIM,
an FPGA failure, cross traffic, two MPI ranks) and writes each run's
--packetOutput JSON (events included) to --folder.  With --compare, the files
are compared with those of an earlier --folder; the exit status is 1 when a
file differs or is missing.

    python3 scripts/same_output.py --program PATH --folder before
    (change the code, build)
    python3 scripts/same_output.py --program PATH --folder after --compare before
"""

import argparse
import filecmp
import os
import subprocess
import sys

# The modes the reference was recorded in (before BFD and PIM became the
# defaults); a run's own modes come later and win.
COMMON = ["--quiet", "--baselines=false", "--faultDetection=oracle", "--treeBuilding=planner"]

RUNS = [
    ("triangles-scale-100", ["--packetSchedule=triangles", "--scale=100", "--rounds=2"]),
    ("all-to-all-32gb", ["--packetSchedule=all-to-all:32", "--hbmGB=32",
                         "--scale=1000", "--rounds=2", "--baselines=true"]),
    ("loss-coded-early", ["--packetSchedule=triangles", "--scale=1000", "--rounds=3",
                          "--lossRate=0.01", "--recovery=coded+early"]),
    ("correlated-jitter", ["--packetSchedule=triangles", "--scale=1000", "--rounds=3",
                           "--jitterMs=2", "--recovery=early"]),
    ("link-fault-bfd-pim", ["--packetSchedule=triangles", "--scale=1000", "--rounds=4",
                            "--linkFaults=NYC-LON@0.9-30", "--faultDetection=bfd",
                            "--treeBuilding=pim"]),
    ("fpga-failure", ["--packetSchedule=triangles", "--scale=1000", "--rounds=3",
                      "--fpgaFaults=LON@0.9"]),
    ("cross-traffic", ["--packetSchedule=triangles", "--scale=1000", "--rounds=3",
                       "--crossTraffic=0.3"]),
    ("two-ranks", ["--packetSchedule=triangles", "--scale=1000", "--rounds=2",
                   "--lossRate=0.01", "--recovery=early", "--mpi=gtw"]),
]


def run(program, name, args, folder):
    out = os.path.join(folder, name + ".json")
    cmd = [program] + COMMON + args + ["--packetOutput=" + out]
    if any(a.startswith("--mpi=") for a in args):
        mpi = ["mpiexec", "-np", "2", "--oversubscribe"]
        if os.geteuid() == 0:
            mpi.append("--allow-run-as-root")
        cmd = mpi + cmd
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0 or not os.path.exists(out):
        sys.exit("same_output.py: %s failed: %s" % (name, done.stderr.strip().splitlines()[-1:]))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program", required=True, help="the nine-city-cliques program")
    parser.add_argument("--folder", required=True, help="where the JSON files go")
    parser.add_argument("--compare", help="a folder of an earlier run to compare with")
    args = parser.parse_args()
    os.makedirs(args.folder, exist_ok=True)
    differ = 0
    for name, extra in RUNS:
        out = run(args.program, name, extra, args.folder)
        verdict = ""
        if args.compare:
            before = os.path.join(args.compare, name + ".json")
            same = os.path.exists(before) and filecmp.cmp(before, out, shallow=False)
            differ += not same
            verdict = ": identical" if same else ": DIFFERS"
        print("%-22s %9d bytes%s" % (name, os.path.getsize(out), verdict))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
