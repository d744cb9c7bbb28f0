# SPDX-License-Identifier: GPL-2.0-only
"""--packetOutput: the figures of the JSON document equal those the program
prints, the CSV table holds the same document, and the Python bindings give
the same runs."""

import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

# Two rounds of triangles at scale 1000, with both baselines: three runs.
ARGS = "--packetSchedule=triangles --hbmGB=0 --scale=1000 --rounds=2 --quiet"


def run_example(args, check=True):
    from wan_training import ns3_dir

    done = subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                           "nine-city-cliques " + args],
                          cwd=ns3_dir(), capture_output=True, text=True, timeout=600)
    if check:
        assert done.returncode == 0, done.stderr
    return done


def printed_runs(text):
    """What the program prints of each packet-level run."""
    runs = []
    for block in re.split(r"\n(?=triangles, )", text.split("Packet level")[1])[1:]:
        rounds = [tuple(float(x) for x in m) for m in re.findall(
            r"round \d+: planner T ([\d.]+) ms, measured ([\d.]+) ms \([^)]*\), GPU idle "
            r"\+([\d.]+) ms, partial sums (\d+), retransmissions (\d+)", block)]
        io = {city: (float(i), float(o)) for city, i, o in
              re.findall(r"([A-Z]{3}) ([\d.]+)/([\d.]+)", block.split("GB in/out:")[1]
                         .split("\n")[0])}
        evictions = dict((c, int(n)) for c, n in re.findall(r"(\w+) (\d+)", block.split(
            "evictions:")[1].split(";")[0]))
        peak = float(re.search(r"peak HBM ([\d.]+) GB", block).group(1))
        events = int(re.search(r"(\d+) events", block).group(1))
        runs.append({"label": block.split(":")[0], "rounds": rounds, "io": io,
                     "evictions": evictions, "peak_gb": peak, "events": events,
                     "exact": "sums exact" in block})
    return runs


@pytest.mark.programs
def test_json_equals_the_printed_figures(tmp_path):
    from wan_training import PACKET_OUTPUT_VERSION, read_packet_output

    path = str(tmp_path / "packets.json")
    out = run_example("%s --packetOutput=%s" % (ARGS, path)).stdout
    printed = printed_runs(out)
    document = read_packet_output(path)
    assert document["version"] == PACKET_OUTPUT_VERSION
    runs = document["runs"]
    assert [r["label"] for r in runs] == [p["label"] for p in printed] == [
        "triangles, multicast + FPGA", "triangles, no multicast", "triangles, no FPGA"]
    for run, text in zip(runs, printed):
        assert run["schedule"] == "triangles"
        assert [r["round"] for r in run["rounds"]] == [1, 2]
        for r, (planned, measured, idle, partial, resent) in zip(run["rounds"], text["rounds"]):
            assert round(r["planned_ms"], 1) == pytest.approx(planned)
            assert round(r["measured_ms"], 1) == pytest.approx(measured)
            assert round(r["idle_ms"], 1) == pytest.approx(idle)
            assert sum(i["partial_sums"] for i in r["islands"]) == partial
            assert sum(i["retransmissions"] for i in r["islands"]) == resent
            # Per round, each cause's evictions; the run's are their sums.
            assert set(r["evictions"]) == set(run["evictions"])
        for cause, n in run["evictions"].items():
            assert sum(r["evictions"][cause] for r in run["rounds"]) == n == \
                text["evictions"][cause]
        for city, (gb_in, gb_out) in text["io"].items():
            islands = [i for r in run["rounds"] for i in r["islands"] if i["city"] == city]
            assert len(islands) == 2
            assert round(sum(i["bytes_in"] for i in islands) / 1e9, 2) == pytest.approx(gb_in)
            assert round(sum(i["bytes_out"] for i in islands) / 1e9, 2) == pytest.approx(gb_out)
        assert round(run["peak_hbm_bytes"] / 1e9, 2) == pytest.approx(text["peak_gb"])
        assert run["events"] == text["events"]
        assert run["exact"] is text["exact"] is True
        # Every contribution arrived once: 9 islands x 2 peers x 112 chunks a round.
        for r in run["rounds"]:
            assert sum(i["delivered"] for i in r["islands"]) == 9 * 2 * 112
            assert len(r["core_links"]) == 22


@pytest.mark.programs
def test_measured_mixing_reads_back(tmp_path):
    """A, T and J measured beside the planned ones, and each island's held
    chunks and row of the realised mixing matrix, in both formats and as
    printed: the planned mixing without loss, more disagreement with 5%
    access loss accepted."""
    from wan_training import read_packet_output

    base = "--packetSchedule=triangles --hbmGB=0 --scale=1000 --rounds=2 --quiet --baselines=0"
    lossy = base + " --lossRate=0.05 --lossLinks=access --recovery=accept"
    runs = {}
    for name, args in (("lossless", base), ("lossy", lossy)):
        as_json, as_csv = str(tmp_path / (name + ".json")), str(tmp_path / (name + ".csv"))
        out = run_example("%s --packetOutput=%s" % (args, as_json)).stdout
        run_example("%s --packetOutput=%s" % (args, as_csv))
        run = read_packet_output(as_json)["runs"][0]
        assert read_packet_output(as_csv)["runs"][0] == run
        printed = re.search(r"mixing: A planned ([\d.]+), measured ([\d.]+) \(consensus skew "
                            r"([\d.]+)\); J planned ([\d.]+), measured ([\d.]+) ms-error "
                            r"\(T measured ([\d.]+) ms\)", out).groups()
        assert [float(x) for x in printed] == pytest.approx(
            [round(run["disagreement"], 3), round(run["disagreement_measured"], 3),
             round(run["consensus_skew"], 3), round(run["objective"], 1),
             round(run["objective_measured"], 1), round(run["mixed_ms"], 1)])
        assert run["objective"] == pytest.approx(run["planned_ms"] * run["disagreement"])
        assert run["objective_measured"] == pytest.approx(
            run["mixed_ms"] * run["disagreement_measured"])
        assert run["mixed_ms"] == max(r["mixed_ms"] for r in run["rounds"])
        runs[name] = run
    clean, lost = runs["lossless"], runs["lossy"]
    assert clean["disagreement_measured"] == clean["disagreement"] == pytest.approx(1.75)
    assert clean["consensus_skew"] == 0
    for island in (i for r in clean["rounds"] for i in r["islands"]):
        assert len(island["held"]) == 3 and set(island["held"].values()) == {112}
        assert island["mixing"] == {city: 1 / 3 for city in island["held"]}
        assert island["mixed_ms"] == island["completion_ms"]
    assert lost["disagreement"] == clean["disagreement"]
    assert lost["disagreement_measured"] > clean["disagreement_measured"] + 0.05
    assert lost["consensus_skew"] > 0
    for island in (i for r in lost["rounds"] for i in r["islands"]):
        # What it lacked is what it gave up; its row still sums to 1.
        assert sum(112 - n for n in island["held"].values()) == island["given_up"]
        assert sum(island["mixing"].values()) == pytest.approx(1)


@pytest.mark.programs
def test_csv_holds_the_same_document(tmp_path):
    from wan_training import read_packet_output

    as_json = str(tmp_path / "packets.json")
    as_csv = str(tmp_path / "packets.csv")
    training = "--training=logistic --trainingRounds=3"
    run_example("%s --baselines=0 %s --packetOutput=%s" % (ARGS, training, as_json))
    run_example("%s --baselines=0 %s --packetOutput=%s" % (ARGS, training, as_csv))
    runs = read_packet_output(as_json)["runs"]
    assert len(runs[0]["training"][0]["history"]) == 4
    assert read_packet_output(as_csv)["runs"] == runs


@pytest.mark.bindings
def test_bindings_give_the_same_run(tmp_path):
    from wan_training import ns, packet_run, read_packet_output

    path = str(tmp_path / "packets.json")
    run_example("%s --baselines=0 --training=quadratic --packetOutput=%s" % (ARGS, path))
    cpp = read_packet_output(path)["runs"][0]
    topo = ns.WanTopology.NineCity()
    experiment = ns.CliqueExperimentHelper(topo, ns.PlannerConfig())
    experiment.SetScale(1000)
    experiment.SetRounds(2)
    result = experiment.Run(ns.CliqueScheduleBuiltins.Make("triangles", topo))
    loop = ns.WanTrainingLoop()
    loop.SetAttribute("ComputeTime", ns.TimeValue(ns.MilliSeconds(250)))  # --computeMs
    mine = packet_run(result, topo, cpp["label"], cpp["parameters"], [loop.Train(result)])
    assert mine["training"][0]["history"][2]["time_s"] > 0.5
    assert mine == cpp


@pytest.mark.programs
def test_a_file_name_that_says_no_format_is_refused(tmp_path):
    done = run_example("--packetOutput=%s" % (tmp_path / "packets.txt"), check=False)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines()[-1] == (
        "nine-city-cliques: error: packet output '%s' must end in .csv or .json"
        % (tmp_path / "packets.txt"))
    assert not os.path.exists(tmp_path / "packets.txt")
