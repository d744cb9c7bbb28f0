#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""A SEM (ns-3 Simulation Execution Manager) campaign over the loss sweep:
runs the wan-impairments example for each parameter combination that the
campaign database does not hold yet, with SEM's parallel runner, and writes the
collected results as sem-campaign.csv, with the packets lost per link class
from each run's --packetOutput document.

    python3 scripts/sem_campaign.py
    python3 scripts/sem_campaign.py --lossRate 0 0.001 0.01 --runs 2 --campaign results/sem

SEM caches results in its campaign folder: running again adds only what is
missing.  scripts/setup.sh installs SEM from PyPI.
"""

import argparse
import csv
import io
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schedule", dest="schedules", metavar="NAME",
                        nargs="+", default=["triangles"],
                        help="schedules")
    parser.add_argument("--lossRate", dest="loss", metavar="RATE",
                        nargs="+", type=float, default=[0.001, 0.01],
                        help="loss rates on every link class")
    parser.add_argument("--recovery", metavar="POLICY",
                        help="recovery policy (default: the program's, the Recovery attribute's)")
    parser.add_argument("--runs", type=int, default=1, help="runs (RngRun values) per setting")
    parser.add_argument("--campaign", default="results/sem-campaign", help="campaign folder")
    parser.add_argument("--output", default="results", help="output folder (default results)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    bad = [p for p in args.loss if not 0 <= p < 1]
    if bad:
        parser.error("--lossRate %g is outside [0, 1)" % bad[0])
    try:
        import sem
    except ModuleNotFoundError:
        parser.error("SEM is not installed: pip install sem")
    from wan_training import ns3_dir, write_csv

    campaign = sem.CampaignManager.new(ns3_dir(), "wan-impairments", args.campaign,
                                       check_repo=False, optimized=False,
                                       skip_configuration=True)
    params = {
        "schedule": args.schedules,
        "lossRate": [str(p) for p in args.loss],
        "jitterMs": ["none"],
        "rounds": [1],
        "scale": [1000],
        "output": ["impairments.csv"],
        # Every option has a value: SEM would pass an empty default as "None".
        "packetOutput": ["packets.json"],
        # Today's collectives over TCP are not part of this campaign's table
        # (their CSV holds its header alone).
        "collectives": ["none"],
        "collectivesOutput": ["collectives.csv"],
        **({"recovery": [args.recovery]} if args.recovery else {}),
        "pcap": [""],
        "ascii": [""],
    }
    try:
        campaign.run_missing_simulations(sem.list_param_combinations(params), runs=args.runs)
    except Exception as error:  # SEM reports a failed run with the program's stderr
        errors = [line[len("Stderr: "):] for line in str(error).splitlines()
                  if line.startswith("Stderr: ")]
        sys.exit("%s: %s" % (parser.prog, errors[0] if errors else str(error).strip()))

    rows = []
    for result in campaign.db.get_complete_results(params):
        table = csv.DictReader(io.StringIO(result["output"]["impairments.csv"]))
        # The per-round results (--packetOutput) hold a run per table row, and
        # the lossless runs of the policies' repair policies the inflation is
        # measured against (best's, early's): matched by what they ran.
        runs = {(run["label"], run["parameters"]["hbm_gb"], run["parameters"]["recovery"]): run
                for run in json.loads(result["output"]["packets.json"])["runs"]}
        for r in table:
            run = runs[("%s, %s" % (r["schedule"], r["impairment"]), r["hbm_gb"], r["recovery"])]
            r["RngRun"] = result["params"]["RngRun"]
            for link_class, lost in sorted(run["lost_packets"].items()):
                r["lost_" + link_class] = lost
            rows.append(r)
    os.makedirs(args.output, exist_ok=True)
    path = os.path.join(args.output, "sem-campaign.csv")
    write_csv(path, rows)
    for r in rows:
        print("%-10s %-12s RngRun %s  T %s ms  inflation %s%%  exact %s" % (
            r["schedule"], r["impairment"], r["RngRun"], r["mixed_ms"],
            r["inflation_percent"], r["exact"]))
    print("written: %s" % path)
    return rows


if __name__ == "__main__":
    main()
