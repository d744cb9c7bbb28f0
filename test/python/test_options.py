# SPDX-License-Identifier: GPL-2.0-only
"""No option is silently a no-op: every option of nine-city-cliques and
wan-impairments, set to a value other than its default, changes what a run
prints or writes where the option applies, and is refused or warned of where
it does not.

Each program's options are read from its --PrintHelp, so that an option added
without a case here fails the test."""

import glob
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))

# A small table (pairs without FPGA memory) and a small packet-level run.
TABLE = {"schedule": "pairs", "hbmGB": "0"}
# Today's collectives over TCP are left out but where their option is the case.
PACKET = dict(TABLE, packetSchedule="pairs", scale="10000", rounds="1", baselines="false",
              collectives="none")
OFF = {"packetLevel": "false"}
# Parity blocks need more chunks per stream than scale 10000 gives; the core
# queues need load to tell a FIFO from FQ-CoDel.
CODED = {"recovery": "coded", "scale": "1000"}
LOADED = {"packetSchedule": "all-to-all:32", "crossTraffic": "0.9"}
# The table and the default packet-level run (which --packetLevel=false drops).
DEFAULT_RUN = {"_base": "table"}

# option: (value, where it applies, where it does not or None when it always
# applies).  "Where" is a change of the base arguments: the table alone for
# OFF, the small packet-level run otherwise; a value None drops an argument.
NINE_CITY = {
    # The table.
    "topology": ("{topology}", OFF, None),
    "schedule": ("triangles", OFF, None),
    "scheduleFile": ("{schedule_file}", OFF, None),
    "payload": ("2e9", OFF, None),
    "accessGbps": ("10", OFF, None),
    "coreGbps": ("5", OFF, None),
    "edgeGbps": ("15", OFF, None),
    "multicast": ("false", OFF, None),
    "aggregation": ("false", OFF, None),
    "hbmGB": ("32", OFF, None),
    "coreReserve": ("0.9", OFF, None),
    "jitterAllowanceMs": ("20", dict(OFF, schedule="triangles"), None),
    "lineRateWindowUs": ("0.01", dict(OFF, schedule="triangles"), None),
    "computeMs": ("100", OFF, None),
    "stalenessMs": ("100", OFF, None),
    "h0": ("false", OFF, None),
    "normalise": ("false", OFF, None),
    "forgetting": ("0.5", OFF, None),
    "target": ("0.2,0.1,0.1,0.1,0.1,0.1,0.1,0.1,0.1", OFF, None),
    "output": ("table.csv", OFF, None),
    # The packet level.
    "packetLevel": ("false", DEFAULT_RUN, None),
    "packetSchedule": ("all-to-all", {}, OFF),
    "lossRate": ("0.2", {}, OFF),
    "lossBurst": ("3", {"lossRate": "0.2"}, {}),
    "lossLinks": ("access", {"lossRate": "0.2"}, {}),
    "jitterMs": ("1", {}, OFF),
    "jitterDistribution": ("uniform", {"jitterMs": "1"}, {}),
    "jitterModel": ("independent", {"jitterMs": "1"}, {}),
    "jitterCorrelationMs": ("1", {"jitterMs": "1"}, {"jitterMs": "1", "jitterModel": "independent"}),
    "reorder": ("true", {"jitterMs": "10", "jitterModel": "independent"}, {"jitterMs": "1"}),
    "jitterLinks": ("access", {"jitterMs": "1"}, {}),
    "recovery": ("rerequest", {"lossRate": "0.2"}, OFF),
    "parityBlock": ("16", CODED, {"recovery": "early"}),
    "parityChunks": ("2", CODED, {}),
    "linkFaults": ("NYC-LON@0.01-0.5", {}, OFF),
    "faultPolicy": ("fail", {"linkFaults": "NYC-LON@0.01-0.5", "faultDetection": "oracle"},
                    {"linkFaults": "NYC-LON@0.01-0.5"}),
    "faultDetection": ("oracle", {}, OFF),
    "bfdIntervalMs": ("5", {}, {"faultDetection": "oracle"}),
    "bfdMultiplier": ("5", {}, {"faultDetection": "oracle"}),
    "mpi": ("gtw", {}, OFF),
    "partition": ("city", {"mpi": "gtw"}, {}),
    "treeBuilding": ("planner", {}, OFF),
    "fpgaFaults": ("LON@0.01", {}, OFF),
    "away": ("LON@0", {}, OFF),
    "scale": ("5000", {}, dict(OFF, scale=None)),
    "rounds": ("2", {}, dict(OFF, rounds=None)),
    "baselines": ("false", {"baselines": None}, dict(OFF, baselines=None)),
    "pcap": ("true", {}, OFF),
    "ascii": ("true", {}, OFF),
    "tracePrefix": ("traces", {"pcap": "true"}, {}),
    "traceLinks": ("core", {"pcap": "true"}, {}),
    "quiet": ("true", {"bfdIntervalMs": "5", "faultDetection": "oracle"}, None),
    "crossTraffic": ("0.3", {}, OFF),
    "crossTcpFlows": ("1", {}, OFF),
    "crossTcpControl": ("ns3::TcpNewReno", {"crossTcpFlows": "1"}, {}),
    "collectives": ("ring", {}, OFF),  # the base runs none
    "coreQueue": ("fifo", LOADED, OFF),
    "coreQueuePackets": ("5", dict(LOADED, coreQueue="fifo"), {}),
    "packetOutput": ("packets.json", {}, OFF),
    "roundGuard": ("0.5", {}, OFF),
    "training": ("quadratic", {}, OFF),
    "trainingPolicy": ("quorum", {"training": "quadratic"}, {}),
    "trainingRounds": ("5", {"training": "quadratic"}, {}),
}

IMPAIRMENTS_BASE = {"schedule": "pairs", "lossRate": "0.01", "jitterMs": "none",
                    "crossTraffic": "none", "recovery": "accept", "rounds": "1",
                    "scale": "10000", "collectives": "none"}
IMPAIRMENTS = {
    "schedule": ("triangles", {}, None),
    "lossRate": ("0.05", {}, None),
    "lossLinks": ("core", {}, {"lossRate": "none"}),
    "jitterMs": ("1", {}, None),
    "jitterModel": ("independent", {"jitterMs": "1"}, {}),
    "crossTraffic": ("0.3", {}, None),
    "crossTcpFlows": ("1", {}, None),
    "crossTcpControl": ("ns3::TcpNewReno", {"crossTcpFlows": "1"}, {}),
    "coreQueue": ("fifo", {"schedule": "all-to-all", "crossTraffic": "0.9"}, None),
    "coreReserve": ("0.9", {}, None),
    "jitterCorrelationMs": ("1000", {"jitterMs": "1"}, {}),
    "recovery": ("rerequest", {}, None),
    "parityBlock": ("16", CODED, {}),
    "parityChunks": ("2", CODED, {}),
    "parityDecoding": ("fpga", dict(CODED, schedule="pairs:32"), {}),
    "paritySizing": ("0.001", dict(CODED, schedule="pairs:32", parityDecoding="fpga",
                                    parityChunks="8", rounds="2"), {}),
    "scale": ("5000", {}, None),
    "rounds": ("2", {}, None),
    "maxRequests": ("1", {"recovery": "rerequest", "lossRate": "0.2"}, {}),
    "output": ("table.csv", {}, None),
    "collectives": ("ps", {}, None),
    "collectivesOutput": ("collectives.csv", {}, None),
    "packetOutput": ("packets.json", {}, None),
    "pcap": ("true", {}, None),
    "ascii": ("true", {}, None),
    "tracePrefix": ("traces", {"pcap": "true"}, {}),
    "traceLinks": ("core", {"pcap": "true"}, {}),
    "quiet": ("true", {}, None),
}

PROGRAMS = {
    "nine-city-cliques": (NINE_CITY, PACKET),
    "wan-impairments": (IMPAIRMENTS, IMPAIRMENTS_BASE),
}

TOPOLOGY = """{"cities": [{"code": "A", "region": "r"}, {"code": "B", "region": "r"},
                          {"code": "C", "region": "s"}],
               "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100},
                         {"a": "B", "b": "C", "one_way_ms": 20, "capacity_gbps": 100}]}"""
SCHEDULE = """{"name": "mine", "rounds": [
    [["NYC", "LAX", "BUE", "LON"], ["AMS", "FRA"], ["TYO", "SEO", "SIN"]]]}"""


def program_path(name):
    """The program's executable in the build the tests run on (NS3_DIR): the
    module's standalone build (bin/) or an ns-3 tree."""
    from wan_training import ns3_dir

    root = ns3_dir()
    candidates = [os.path.join(root, "bin", name)] + sorted(glob.glob(os.path.join(
        root, "build", "contrib", "wan-training", "examples", "ns3*-%s-*" % name)))
    for path in candidates:
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    pytest.skip("%s is not built in %s" % (name, root))


def options_of(path):
    """The program's own options, from its --PrintHelp."""
    text = subprocess.run([path, "--PrintHelp"], capture_output=True, text=True,
                          timeout=60).stdout
    own = text.split("Program Options:", 1)[1].split("General Arguments:", 1)[0]
    return re.findall(r"^\s+--(\w+):", own, re.MULTILINE)


def arguments(base, change, option=None, value=None):
    args = dict(base)
    if change.get("packetLevel") == "false" or change.get("_base") == "table":
        args = dict(TABLE)  # no packet-level option set
    for key, v in change.items():
        if key == "_base":
            continue
        if v is None:
            args.pop(key, None)
        else:
            args[key] = v
    if option is not None:
        args[option] = value
    return ["--%s=%s" % kv for kv in sorted(args.items())]


def run(path, args, folder):
    """Runs the program in its own folder: what it prints (both streams, the
    event counts and times as they are) and the names of the files it wrote."""
    os.makedirs(folder)
    done = subprocess.run([path] + args, cwd=folder, capture_output=True, text=True,
                          timeout=600)
    files = sorted(os.listdir(folder))
    return done.returncode, done.stdout, done.stderr, files


def named(option, stderr):
    """The error is about the option: it is the first option the line names."""
    first = re.search(r"--(\w+)", stderr)
    return first is not None and first.group(1) == option


@pytest.mark.programs
@pytest.mark.parametrize("program", sorted(PROGRAMS))
def test_every_option_changes_the_run_or_is_refused_or_warned(program, tmp_path):
    cases, base = PROGRAMS[program]
    path = program_path(program)
    assert sorted(options_of(path)) == sorted(cases), \
        "options without a case here, or cases of options that are gone"
    (tmp_path / "topology.json").write_text(TOPOLOGY)
    (tmp_path / "schedule.json").write_text(SCHEDULE)
    files = {"topology": str(tmp_path / "topology.json"),
             "schedule_file": str(tmp_path / "schedule.json")}

    jobs = {}
    for option, (value, applies, not_applies) in cases.items():
        value = value.format(**files)
        jobs[(option, "base")] = arguments(base, applies)
        jobs[(option, "applies")] = arguments(base, applies, option, value)
        if not_applies is not None:
            jobs[(option, "not")] = arguments(base, not_applies, option, value)
    # Runs with the same arguments run once.
    unique = sorted({tuple(a) for a in jobs.values()})
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = dict(zip(unique, pool.map(
            lambda i_args: run(path, list(i_args[1]), str(tmp_path / ("run%d" % i_args[0]))),
            enumerate(unique))))

    silent = []
    for option in cases:
        base_run = outcomes[tuple(jobs[(option, "base")])]
        if base_run[0] != 0 and "built without MPI" in base_run[2]:
            continue  # a case on a distributed run, on a build without MPI (PyPI's)
        assert base_run[0] == 0, (option, jobs[(option, "base")], base_run[2])
        assert "does nothing here" not in base_run[2] or option == "quiet", (option, base_run[2])
        rc, out, err, written = outcomes[tuple(jobs[(option, "applies")])]
        refused = rc != 0 and named(option, err)
        changed = rc == 0 and (out, err, written) != base_run[1:] and \
            "--%s does nothing" % option not in err
        if not (changed or refused):
            silent.append("%s=%s changes nothing where it applies (%s)"
                          % (option, cases[option][0], " ".join(jobs[(option, "applies")])))
        if (option, "not") in jobs:
            rc, out, err, written = outcomes[tuple(jobs[(option, "not")])]
            said = (rc != 0 and named(option, err)) or \
                (rc == 0 and "warning: --%s does nothing here" % option in err)
            if not said:
                silent.append("%s is neither refused nor warned of where it does nothing (%s)"
                              % (option, " ".join(jobs[(option, "not")])))
    assert not silent, "\n".join(silent)


@pytest.mark.programs
def test_quiet_prints_nothing_but_errors(tmp_path):
    path = program_path("wan-impairments")
    args = arguments(IMPAIRMENTS_BASE, {"parityBlock": "16"}, "quiet", "true")
    rc, out, err, _ = run(path, args, str(tmp_path / "quiet"))
    assert rc == 0 and err == "", err
    rc, out, err, _ = run(path, args + ["--scale=0.5"], str(tmp_path / "error"))
    assert rc == 1 and err.startswith("wan-impairments: error: --scale"), err


@pytest.mark.programs
def test_optimiser_refuses_or_warns_of_options_its_search_does_not_use(tmp_path):
    path = program_path("wan-training-optimise")
    (tmp_path / "topology.json").write_text(TOPOLOGY)
    small = ["--topology=%s" % (tmp_path / "topology.json"), "--maxPeriod=1",
             "--search=exhaustive"]
    rc, out, err, _ = run(path, small + ["--regions=8"], str(tmp_path / "regions"))
    assert rc == 1 and "error: --regions does nothing here: it needs --synthetic" in err, err
    rc, out, err, _ = run(path, small + ["--seed=7"], str(tmp_path / "seed"))
    assert rc == 0 and "warning: --seed does nothing here: it needs --search=annealing" in err, err
    rc, out, err, _ = run(path, small, str(tmp_path / "plain"))
    assert rc == 0 and "does nothing" not in err, err
    # Both figures with either objective: J, and the predicted time to target.
    assert "J " in out and "predicted time to target (best schedule): " in out
    _, timed_base, err, _ = run(path, small + ["--objective=time"], str(tmp_path / "time"))
    assert "predicted time to target (best schedule): " in timed_base, err
    # The workload's options change the prediction with either objective.
    for option in ("workload=logistic", "localSteps=5", "computeMs=10", "stepSize=0.2",
                   "gradientNoise=0.1", "targetShare=0.1"):
        name = option.split("=")[0]
        for objective, base in (("j", out), ("time", timed_base)):
            rc, changed, err, _ = run(path, small + ["--objective=" + objective, "--" + option],
                                      str(tmp_path / (name + "-" + objective)))
            assert rc == 0 and "does nothing" not in err, err
            assert changed != base, (option, objective)
    rc, out, err, _ = run(path, small + ["--objective=fast"], str(tmp_path / "objective"))
    assert rc == 1 and "--objective must be j or time (got 'fast')" in err, err
    rc, out, err, _ = run(path, small + ["--objective=time", "--targetShare=1"],
                          str(tmp_path / "share"))
    assert rc == 1 and "--targetShare must be" in err, err


@pytest.mark.programs
def test_impairment_sweep_warns_of_options_no_run_uses(tmp_path):
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                          "impairment_sweep.py")
    done = subprocess.run([sys.executable, script, "--schedule", "pairs:0", "--lossRate",
                           "--jitterMs", "--recovery", "accept", "--runs", "1", "--scale",
                           "10000", "--rounds", "1", "--lossBurst", "4", "--parityBlock", "16",
                           "--output", str(tmp_path)], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if "does nothing here" in line]
    assert warned == [
        "impairment_sweep.py: warning: --lossBurst does nothing here: it needs --lossRate",
        "impairment_sweep.py: warning: --parityBlock does nothing here: it needs --recovery "
        "coded or coded+early"], done.stderr


@pytest.mark.programs
def test_sem_campaign_options_change_the_campaign_or_are_refused(tmp_path):
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts",
                          "sem_campaign.py")

    def campaign(*args):
        return subprocess.run([sys.executable, script, *args], capture_output=True, text=True,
                              timeout=600)

    # Every option away from its default: the schedule, the loss rates, two
    # RngRun values per setting, the campaign and output folders.
    done = campaign("--schedule", "pairs", "--lossRate", "0.02", "--runs", "2", "--campaign",
                    str(tmp_path / "db"), "--output", str(tmp_path / "out"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "db" / "db.json").exists()  # SEM names it after the folder
    with open(tmp_path / "out" / "sem-campaign.csv") as f:
        rows = [line.split(",") for line in f.read().splitlines()]
    header, rows = rows[0], rows[1:]
    column = {name: k for k, name in enumerate(header)}
    assert sorted((r[column["schedule"]], r[column["impairment"]]) for r in rows) == [
        ("pairs", "loss 2%"), ("pairs", "loss 2%"), ("pairs", "none"), ("pairs", "none")]
    assert len({r[column["RngRun"]] for r in rows}) == 2
    # Values that no run can use are refused with one line naming the option,
    # before SEM starts; a program's own refusal comes back as its one line.
    for args, message in [
            (["--runs", "0"], "sem_campaign.py: error: --runs must be at least 1"),
            (["--lossRate", "0.1", "1.5"], "sem_campaign.py: error: --lossRate 1.5 is outside [0, 1)"),
            (["--schedule", "bogus"], "sem_campaign.py: wan-impairments: error: unknown schedule "
             "'bogus' (built-in: pairs, regional, triangles, all-to-all)")]:
        done = campaign(*args, "--campaign", str(tmp_path / "bad"), "--output", str(tmp_path))
        assert done.returncode != 0
        assert done.stderr.splitlines()[-1] == message, done.stderr
