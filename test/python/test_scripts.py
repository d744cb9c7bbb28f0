# SPDX-License-Identifier: GPL-2.0-only
"""Runs the experiment scripts on small configurations and checks their numbers,
and that the Python results equal the C++ example's for the same parameters."""

import csv
import json
import math
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPTS = os.path.join(ROOT, "scripts")
sys.path.insert(0, os.path.join(ROOT, "python"))


# Run before a script: every Figure.savefig(path) also writes what the figure
# shows to path + ".json" (titles, axis labels and scales, tick labels, lines
# and bars with their labels and data, texts and legend entries), then the
# script runs as __main__ (its worker processes start as usual).
FIGURE_RECORDER = r"""
import json, runpy, sys
from matplotlib.container import BarContainer
from matplotlib.figure import Figure

save = Figure.savefig


def describe(fig):
    axes = []
    for ax in fig.axes:
        legend = ax.get_legend()
        axes.append({
            "title": ax.get_title(), "xlabel": ax.get_xlabel(), "ylabel": ax.get_ylabel(),
            "xscale": ax.get_xscale(),
            "xticklabels": [t.get_text() for t in ax.get_xticklabels()],
            "lines": [{"label": l.get_label(), "x": [float(v) for v in l.get_xdata()],
                       "y": [float(v) for v in l.get_ydata()]} for l in ax.get_lines()],
            "bars": [{"label": c.get_label(), "heights": [float(b.get_height()) for b in c]}
                     for c in ax.containers if isinstance(c, BarContainer)],
            "texts": [t.get_text() for t in ax.texts],
            "legend": [t.get_text() for t in legend.get_texts()] if legend else [],
        })
    title = fig._suptitle.get_text() if fig._suptitle else ""
    return {"suptitle": title, "axes": axes}


def savefig(self, fname, *args, **kwargs):
    save(self, fname, *args, **kwargs)
    with open(str(fname) + ".json", "w") as out:
        json.dump(describe(self), out)


Figure.savefig = savefig
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


def run_script(name, *args):
    """Runs a script as a user would, in one command; the figures it saves are
    described next to them (read_figure)."""
    done = subprocess.run([sys.executable, "-c", FIGURE_RECORDER, os.path.join(SCRIPTS, name),
                           *args], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def read_figure(png):
    """What the figure saved as png shows (see FIGURE_RECORDER)."""
    assert os.path.getsize(png) > 0
    with open(str(png) + ".json") as f:
        return json.load(f)


def same(values, expected):
    """Equal lists of numbers, NaN matching NaN."""
    assert len(values) == len(expected), (values, expected)
    for v, e in zip(values, expected):
        assert (math.isnan(v) and math.isnan(e)) or v == pytest.approx(e, rel=1e-9), (values,
                                                                                      expected)


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


@pytest.mark.bindings
def test_bindings_give_python_objects():
    from wan_training import evaluation_dict, ns

    helper = ns.CliqueScheduleHelper()
    e = evaluation_dict(helper.Evaluate(helper.Builtin("triangles")))
    # BUE->TYO arrives at 144.07 ms, then 400 ms at 20 Gbps; A = 1.75.
    assert e["feasible"] is True
    assert e["round_time_ms"] == pytest.approx(544.07, abs=0.01)
    assert e["disagreement"] == pytest.approx(1.75, abs=1e-9)
    assert e["objective"] == pytest.approx(544.07 * 1.75, abs=0.02)


def test_survival_curves(tmp_path):
    out = run_script("survival_curves.py", "--rounds", "10", "--output", str(tmp_path))
    rows = read_csv(tmp_path / "survival-curves.csv")
    assert len(rows) == 11
    curve = {name: [float(r[name]) for r in rows] for name in rows[0] if name != "h"}
    # A newborn update is all disagreement; all-to-all mixes in one round.
    for name in curve:
        assert curve[name][0] == pytest.approx(1.0)
        assert all(b <= a + 1e-12 for a, b in zip(curve[name], curve[name][1:])), name
    assert curve["all-to-all"][1] == pytest.approx(0.0, abs=1e-12)
    # Triangles: 0.75 after its first round, mixed after two; A = 1 + 0.75.
    assert curve["triangles"][1] == pytest.approx(0.75, abs=1e-12)
    assert curve["triangles"][2] == pytest.approx(0.0, abs=1e-12)
    assert "triangles   A = 1.750" in out
    # Regional (by hand, mean of its two phases): S_0 = 1, 3/4, 1/2, 3/8, 1/4
    # and S_1 = 1, 11/12, 1/2, 1/3, 1/4, so 5/6, 1/2, 17/48, 1/4; A = 85/24.
    # Pairs: S(1) = (11/12 + 11/12 + 17/18) / 3 = 25/27, S(2) = 175/216.
    assert curve["regional"][1:5] == pytest.approx([5 / 6, 1 / 2, 17 / 48, 1 / 4], abs=1e-12)
    assert curve["pairs"][1:3] == pytest.approx([25 / 27, 175 / 216], abs=1e-12)

    # The figure: one curve per schedule, labelled with its A, drawn from the CSV.
    figure = read_figure(tmp_path / "survival-curves.png")
    assert len(figure["axes"]) == 1
    ax = figure["axes"][0]
    assert ax["xlabel"] == "rounds since the update was born, h"
    assert ax["ylabel"] == "mean disagreement S(h) (1 = newborn, 0 = mixed)"
    areas = {"pairs": 11.0245646, "regional": 85 / 24, "triangles": 1.75, "all-to-all": 1.0}
    assert [line["label"] for line in ax["lines"]] == [
        "%s (A = %.3f)" % (name, a) for name, a in areas.items()]
    assert ax["legend"] == [line["label"] for line in ax["lines"]]
    for line, name in zip(ax["lines"], areas):
        assert line["x"] == list(range(11))
        same(line["y"], curve[name])


@pytest.mark.bindings
def test_paper_table_matches_the_cpp_example(tmp_path):
    run_script("paper_table.py", "--schedule", "triangles", "all-to-all", "--scale", "1000",
               "--jobs", "2", "--output", str(tmp_path))
    rows = {(r["schedule"], float(r["hbm_gb"])): r for r in read_csv(tmp_path / "paper-table.csv")}
    assert len(rows) == 4
    tri = rows[("triangles", 0.0)]
    assert float(tri["planner_T_ms"]) == pytest.approx(544.07, abs=0.01)
    assert float(tri["A"]) == pytest.approx(1.75, abs=1e-9)
    # The packet level is within 2% of the plan, never early, and exact.
    for key in [("triangles", 0.0), ("triangles", 32.0), ("all-to-all", 32.0)]:
        r = rows[key]
        assert 0 <= float(r["packet_vs_planner_percent"]) < 2, key
        assert r["exact"] == "True", key
    # All-to-all cannot align without FPGA memory.
    assert rows[("all-to-all", 0.0)]["feasible"] == "False"
    assert math.isnan(float(rows[("all-to-all", 0.0)]["packet_T_ms"]))

    # The figure: one panel per memory size, planned and simulated T side by
    # side per schedule (an infeasible schedule's bars at 0), J above them.
    figure = read_figure(tmp_path / "paper-table.png")
    assert [ax["title"] for ax in figure["axes"]] == ["FPGA memory 0 GB", "FPGA memory 32 GB"]
    for ax, size in zip(figure["axes"], (0.0, 32.0)):
        assert ax["xlabel"] == "schedule"
        assert ax["ylabel"] == "round time T (ms)"
        assert ax["xticklabels"] == ["triangles", "all-to-all"]
        assert [b["label"] for b in ax["bars"]] == ["round planner", "packet level"]
        assert ax["legend"] == ["round planner", "packet level"]
        chosen = [rows[(name, size)] for name in ("triangles", "all-to-all")]
        for bars, column in zip(ax["bars"], ("planner_T_ms", "packet_T_ms")):
            same(bars["heights"], [0 if math.isnan(float(r[column])) else float(r[column])
                                   for r in chosen])
    # J = T x A: triangles 544.07 x 1.75 = 952; all-to-all with 32 GB 797 x 1.
    assert figure["axes"][0]["texts"] == ["J 952", "infeasible"]
    assert figure["axes"][1]["texts"][1] == "J 797"
    assert figure["axes"][0]["bars"][0]["heights"][0] == pytest.approx(544.07, abs=0.01)

    # The C++ example, same parameters, writes the same planner figures.
    from wan_training import ns3_dir

    table = tmp_path / "cpp.csv"
    subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                    "nine-city-cliques --packetLevel=false --schedule=triangles,all-to-all "
                    "--hbmGB=0,32 --output=%s" % table],
                   cwd=ns3_dir(), check=True, capture_output=True, timeout=600)
    for r in read_csv(table):
        mine = rows[(r["schedule"], float(r["hbm_gb"]))]
        assert (r["feasible"] == "1") == (mine["feasible"] == "True")
        assert float(r["disagreement"]) == pytest.approx(float(mine["A"]), abs=1e-9)
        if mine["feasible"] == "True":
            assert float(r["round_time_ms"]) == pytest.approx(float(mine["planner_T_ms"]), abs=1e-6)
            assert float(r["objective_ms_error"]) == pytest.approx(float(mine["J_ms_error"]),
                                                                   abs=1e-6)


def test_scripts_refuse_bad_options(tmp_path):
    done = subprocess.run([sys.executable, os.path.join(SCRIPTS, "paper_table.py"), "--scale",
                           "0.5", "--output", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "--scale and --jobs must be at least 1" in done.stderr


def test_hbm_sweep(tmp_path):
    run_script("hbm_sweep.py", "--hbmGB", "0", "32", "--evaluations", "2000", "--jobs", "2",
               "--jitterMs", "0.1", "1", "10", "--output", str(tmp_path))
    rows = {float(r["hbm_gb"]): r for r in read_csv(tmp_path / "hbm-sweep.csv")}
    # Without memory all-to-all cannot run; triangles (J 952.12) is the best of the four.
    assert math.isnan(float(rows[0.0]["J_all-to-all"]))
    assert float(rows[0.0]["J_triangles"]) == pytest.approx(544.07 * 1.75, abs=0.02)
    for size, r in rows.items():
        builtins = [float(r["J_" + n]) for n in ("pairs", "regional", "triangles", "all-to-all")]
        assert float(r["best_J"]) <= min(j for j in builtins if not math.isnan(j)) + 1e-6, size
    # With 32 GB all-to-all (J 797.3) is feasible, and the best is at least as good.
    assert float(rows[32.0]["J_all-to-all"]) == pytest.approx(797.29, abs=0.01)
    # Pairs: T = 53.88 + 400 ms (NYC-BUE), A = 11.0245646; regional: T = 107.76
    # + 400 ms (arrivals aligned at BUE), A = 85/24.
    assert float(rows[0.0]["J_pairs"]) == pytest.approx(453.88 * 11.0245646, abs=0.01)
    assert float(rows[0.0]["J_regional"]) == pytest.approx(507.76 * 85 / 24, abs=0.01)

    # The figure: J against memory on a log axis (0 drawn at 0.01), one line per
    # built-in schedule and the optimizer's best, drawn from the CSV.
    figure = read_figure(tmp_path / "hbm-sweep.png")
    assert len(figure["axes"]) == 1
    ax = figure["axes"][0]
    assert ax["xscale"] == "log"
    assert ax["xlabel"] == "FPGA memory per receiver (GB; 0 plotted at 0.01)"
    assert ax["ylabel"] == "J = T x A (ms-error)"
    columns = ["J_pairs", "J_regional", "J_triangles", "J_all-to-all", "best_J"]
    labels = ["pairs", "regional", "triangles", "all-to-all", "optimizer's best"]
    assert [line["label"] for line in ax["lines"]] == labels
    assert ax["legend"] == labels
    for line, column in zip(ax["lines"], columns):
        assert line["x"] == [0.01, 32.0]
        same(line["y"], [float(rows[size][column]) for size in (0.0, 32.0)])

    # The jitter axis: a receiver of two streams absorbs the allowance at its
    # clique's rate.  Pairs need nothing; regional and triangles (20 Gbps)
    # 2.5 MB per ms; all-to-all its own 0.157281 GB of misalignment plus
    # 1.5625 MB per ms (12.5 Gbps).
    jitter = {float(r["jitter_ms"]): r for r in read_csv(tmp_path / "hbm-jitter.csv")}
    for ms, r in jitter.items():
        assert float(r["GB_pairs"]) == 0
        assert float(r["GB_regional"]) == pytest.approx(0.0025 * ms, rel=1e-6)
        assert float(r["GB_triangles"]) == pytest.approx(0.0025 * ms, rel=1e-6)
        assert float(r["GB_all-to-all"]) == pytest.approx(0.157281 + 0.0015625 * ms, abs=2e-6)
    figure = read_figure(tmp_path / "hbm-jitter.png")
    ax = figure["axes"][0]
    assert ax["xlabel"] == "jitter allowance (ms of arrival skew each receiver absorbs)"
    assert [line["label"] for line in ax["lines"]] == ["pairs", "regional", "triangles",
                                                       "all-to-all"]
    same(ax["lines"][2]["y"], [float(jitter[ms]["GB_triangles"]) for ms in (0.1, 1.0, 10.0)])


def test_impairment_sweep_matches_the_cpp_example(tmp_path):
    run_script("impairment_sweep.py", "--schedule", "triangles", "--lossRate", "0.01",
               "--lossBurst", "1", "--jitterMs", "1", "--jitterModel", "correlated",
               "--recovery", "rerequest", "--runs", "1", "--jobs", "2",
               "--output", str(tmp_path))
    rows = read_csv(tmp_path / "impairment-sweep-runs.csv")
    assert [(r["impairment"], r["run"]) for r in rows] == [("none", "1"), ("loss", "1"),
                                                           ("jitter", "1")]
    for r in rows:
        # Nothing lost with re-requests; impairments only slow the round down.
        assert r["exact"] == "True", r
        assert int(r["delivered"]) == int(r["expected"]) == 4032
    by_kind = {r["impairment"]: r for r in rows}
    base = float(by_kind["none"]["measured_ms"])
    for r in rows:
        measured = float(r["measured_ms"])
        assert float(r["inflation_percent"]) == pytest.approx(100 * (measured / base - 1))
    # Lossless: within 2% of the planned T = 544.07 ms, never early.
    assert 544.07 <= base < 544.07 * 1.02
    # What each run does.  Rounds start every T (1 + 10%) and missing
    # contributions are re-requested at that deadline, 598.48 ms after the
    # start; a request unanswered after RequestTimeout (400 ms) is repeated.
    # The longest request round trip is BUE-TYO, 2 x 138.10 ms.
    deadline, timeout, trip = 544.07 * 1.1, 400, 2 * 138.10
    # 1% loss on every link: contributions are missing at the deadline, so the
    # round ends after it.  A request and its repair cross about ten links, so
    # about one attempt in ten fails; attempts go out at the deadline and every
    # 400 ms after it, and the range allows four.  Of the ~10^3 contributions
    # re-requested (partial sums from the memoryless FPGAs add to the losses)
    # a few need a third attempt; a fifth has a chance of ~10^3 x 10^-4.
    # Each island answers from a queue paced at one repair per packet time
    # (RepairBudget 1: 9030 bytes at 20 Mbps, 3.61 ms); allow twice the mean
    # share of the nine islands.
    loss = float(by_kind["loss"]["measured_ms"])
    pacing = 2 * int(by_kind["loss"]["requested"]) / 9 * 3.61
    assert deadline < loss < deadline + 3 * timeout + trip + pacing
    # The repairs are bytes the lossless run did not receive.
    assert float(by_kind["loss"]["overhead_percent"]) > 0
    # 1 ms of FIFO jitter on the core: at least 1 ms later, on average, for
    # every packet; nothing is lost, so any re-request is answered before it
    # would be repeated.
    jitter = float(by_kind["jitter"]["measured_ms"])
    assert base + 1 < jitter < deadline + timeout

    # The summary: one row per setting, the mean of its one run (no interval).
    summary = {r["impairment"]: r for r in read_csv(tmp_path / "impairment-sweep.csv")}
    assert float(summary["loss"]["inflation_percent"]) == pytest.approx(
        float(by_kind["loss"]["inflation_percent"]))
    assert float(summary["loss"]["inflation_percent_ci95"]) == 0
    assert summary["loss"]["exact_runs"] == summary["loss"]["runs"] == "1"

    # The figure: inflation against loss, a line per policy, in one panel.
    figure = read_figure(tmp_path / "impairment-sweep.png")
    (ax,) = figure["axes"]
    assert ax["title"] == "triangles, 0 GB"
    assert ax["xlabel"] == "packet loss on every link (%)"
    assert ax["ylabel"] == "round-time inflation vs lossless (%)"
    assert ax["legend"] == ["rerequest"]
    # The error bar's data line (its caps, at +/- 0 for one run, are lines too).
    data = [line for line in ax["lines"] if line["x"] == [1.0] and
            line["y"] == pytest.approx([float(by_kind["loss"]["inflation_percent"])])]
    assert len(data) == 3, ax["lines"]

    from wan_training import ns3_dir

    table, packets = tmp_path / "cpp.csv", tmp_path / "cpp-packets.json"
    subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                    "wan-impairments --schedule=triangles --lossRate=0.01 --jitterMs=1 "
                    "--recovery=rerequest --output=%s --packetOutput=%s" % (table, packets)],
                   cwd=ns3_dir(), check=True, capture_output=True, timeout=600)
    cpp = read_csv(table)
    assert [r["recovery"] for r in cpp] == ["rerequest"] * 3
    # The example's CSV has 6 significant digits.
    assert [float(r["measured_ms"]) for r in cpp] == pytest.approx(
        [float(r["measured_ms"]) for r in rows], rel=1e-5)
    assert [int(r["delivered"]) for r in cpp] == [int(r["delivered"]) for r in rows]
    # Both wrote every run's per-round results (the --packetOutput schema):
    # the same simulations, figure for figure.
    from wan_training import read_packet_output

    mine = read_packet_output(str(tmp_path / "impairment-sweep-packets.json"))["runs"]
    theirs = read_packet_output(str(packets))["runs"]
    assert [r["label"] for r in mine] == [
        "triangles 0 GB, rerequest, none, run 1",
        "triangles 0 GB, rerequest, loss 0.01 burst 1, run 1",
        "triangles 0 GB, rerequest, jitter 1 ms correlated, run 1"]
    assert [r["label"] for r in theirs] == ["triangles, none", "triangles, loss 1%",
                                            "triangles, jitter 1 ms"]
    assert [r["rounds"] for r in mine] == [r["rounds"] for r in theirs]
    assert [r["lost_packets"] for r in mine] == [r["lost_packets"] for r in theirs]


def test_planner_agreement_on_generated_wans(tmp_path):
    out = run_script("planner_agreement.py", "--count", "2", "--kinds", "ring", "chain",
                     "--minCities", "12", "--maxCities", "16", "--jobs", "2", "--output",
                     str(tmp_path))
    rows = read_csv(tmp_path / "planner-agreement.csv")
    # Two WANs (a ring, then a chain), the four built-in schedules on each.
    assert [r["kind"] for r in rows] == ["ring"] * 4 + ["chain"] * 4
    assert [r["schedule"] for r in rows[:4]] == ["pairs", "regional", "triangles", "all-to-all"]
    assert all(12 <= int(r["cities"]) <= 16 for r in rows)
    for r in rows:
        if r["feasible"] == "True":
            assert r["exact"] == "True", r
            assert r["verdict"] in ("agrees", "warned"), r
            # The scale lag is what store and forward of 1000-times-longer
            # frames adds: above 0, a few ms on these WANs.
            assert 0 < float(r["scale_lag_ms"]) < 20
            measured = float(r["measured_ms"]) - float(r["scale_lag_ms"])
            assert abs(measured / float(r["planned_ms"]) - 1) < 0.02 or r["verdict"] == "warned"
    assert "2 WANs, 8 runs:" in out
    assert "DISAGREES" not in out
    figure = read_figure(tmp_path / "planner-agreement.png")
    assert figure["axes"][0]["ylabel"] == "measured T - scale lag - planned T (% of planned)"


@pytest.mark.programs
def test_sem_campaign(tmp_path):
    campaign = tmp_path / "campaign"
    run_script("sem_campaign.py", "--lossRate", "0.01", "--recovery", "rerequest",
               "--campaign", str(campaign), "--output", str(tmp_path))
    rows = read_csv(tmp_path / "sem-campaign.csv")
    loss = [r for r in rows if r["impairment"] == "loss 1%"]
    none = [r for r in rows if r["impairment"] == "none"]
    assert len(loss) == len(none) == 1
    assert loss[0]["exact"] == "1"
    # One round of regional triangles (T 507.76 ms), lossless within 2% of it.
    # Re-requests complete every sum: the islands average at their last
    # contribution (T mixed is last in).
    assert loss[0]["mixed_ms"] == loss[0]["measured_ms"]
    base, measured = float(none[0]["mixed_ms"]), float(loss[0]["mixed_ms"])
    assert 507.76 <= base < 507.76 * 1.02
    assert float(loss[0]["inflation_percent"]) == pytest.approx(100 * (measured / base - 1),
                                                                rel=1e-4)
    # Contributions lost are re-requested at the deadline, T (1 + 10%) = 598.48
    # ms with the schedule's T of 544.07 ms, then every 400 ms while unanswered
    # (one attempt in ten fails: about ten links at 1%); the longest request
    # round trip in these triangles is LAX-BUE, 2 x 88.74 ms.  The range allows
    # four attempts.
    assert int(loss[0]["requested"]) > 0
    assert loss[0]["recovered"] == loss[0]["requested"]
    # The packets lost per link class, from the runs' --packetOutput documents,
    # add up to the table's count; the lossless run lost none.
    assert sum(int(loss[0]["lost_" + c]) for c in ("access", "core", "post")) == \
        int(loss[0]["packets_lost"]) > 0
    assert [none[0]["lost_" + c] for c in ("access", "core", "post")] == ["0", "0", "0"]
    # Repairs leave each island paced at one per packet time (3.61 ms).
    pacing = 2 * int(loss[0]["requested"]) / 9 * 3.61
    assert 544.07 * 1.1 < measured < 544.07 * 1.1 + 3 * 400 + 2 * 88.74 + pacing

    # The campaign database holds one run (one parameter combination, one
    # RngRun); its output files are in data/<run id>.
    def runs():
        with open(campaign / "campaign.json") as f:
            results = json.load(f)["results"]
        return sorted(r["meta"]["id"] for r in results.values())

    def files():
        return {str(path): path.stat().st_mtime_ns for path in (campaign / "data").rglob("*")}

    first_runs, first_files = runs(), files()
    assert len(first_runs) == 1
    assert sorted(os.listdir(campaign / "data")) == first_runs
    # A second run finds every result in the campaign and simulates nothing:
    # no run is added to the database and no output file is written again.
    again = run_script("sem_campaign.py", "--lossRate", "0.01", "--recovery", "rerequest",
                       "--campaign", str(campaign), "--output", str(tmp_path))
    assert "loss 1%" in again
    assert runs() == first_runs
    assert files() == first_files


def test_impairment_sweep_coded_against_its_uncoded_baseline(tmp_path):
    run_script("impairment_sweep.py", "--schedule", "triangles", "--lossRate", "0.01",
               "--lossBurst", "1", "--jitterMs", "--recovery", "coded", "--runs", "1",
               "--jobs", "2", "--output", str(tmp_path))
    rows = read_csv(tmp_path / "impairment-sweep-runs.csv")
    assert [(r["recovery"], r["impairment"]) for r in rows] == [
        ("rerequest", "none"), ("coded", "none"), ("coded", "loss")]
    by = {(r["recovery"], r["impairment"]): r for r in rows}
    base = by[("rerequest", "none")]
    for r in rows:
        assert r["exact"] == "True", r
        # Against the uncoded lossless run, so that the parity's cost counts.
        assert float(r["inflation_percent"]) == pytest.approx(
            100 * (float(r["mixed_ms"]) / float(base["mixed_ms"]) - 1))
    # 112 chunks in blocks of 32: 4 parity chunks per stream, 3.6% more bytes;
    # they trail the data (ParityLayout), so the lossless round takes no
    # longer.
    coded = by[("coded", "none")]
    assert int(coded["parity_sent"]) == 4 * 9 * 2  # streams of 9 islands, 2 rounds
    assert 2 < float(coded["overhead_percent"]) < 6
    assert abs(float(coded["inflation_percent"])) < 0.5
    assert int(coded["rebuilt"]) == 0
    # With loss, parity rebuilds some contributions without a round trip.
    assert int(by[("coded", "loss")]["rebuilt"]) > 0


def test_failure_sweep_detects_and_replans(tmp_path):
    run_script("failure_sweep.py", "--schedule", "triangles", "--bfdMs", "10", "--runs", "1",
               "--rounds", "3", "--trees", "pim", "--output", str(tmp_path))
    (row,) = read_csv(tmp_path / "failure-sweep-runs.csv")
    # NYC-LON breaks in the middle of round 2 (cross-regional triangles use
    # it): BFD at 10 ms x 3 declares it down within 30 ms (and 25% jitter);
    # the routes change after the flooding (the longest path without the
    # link) and 50 ms of SPF; the next round starts on trees around it.
    assert row["detected"] == "True"
    detection, convergence = float(row["detection_ms"]), float(row["convergence_ms"])
    assert 0 < detection <= 40
    assert convergence > 50
    assert float(row["trees_ms"]) > detection + convergence
    # PIM (on the wire) moves the joined trees once the routes change: one
    # join propagation, at most a path's latency.
    joins = float(row["joins_ms"])
    assert detection + convergence - 1e-6 <= joins < detection + convergence + 300
    assert int(row["pim_messages"]) > 0
    assert int(row["lost_packets"]) > 0
    assert int(row["rounds_affected"]) >= 1 and float(row["extra_ms"]) > 0
    assert row["exact"] == "True"
    summary = read_csv(tmp_path / "failure-sweep.csv")
    assert [(s["schedule"], float(s["bfd_ms"]), s["runs"]) for s in summary] == [
        ("triangles", 10.0, "1")]
    assert (tmp_path / "failure-sweep.png").stat().st_size > 0


def test_model_facts_are_the_models():
    """The scripts' names and defaults come from the model (one place each):
    by hand, what its attributes and built-ins say."""
    import wan_training

    facts = wan_training.model_facts()
    assert facts["recovery"] == ["accept", "rerequest", "early", "coded", "coded+early", "best"]
    assert facts["recovery_default"] == "best"
    assert facts["uncoded"] == {"coded": "rerequest", "coded+early": "early"}
    assert facts["baseline"] == {"accept": "accept", "rerequest": "rerequest", "early": "early",
                                 "coded": "rerequest", "coded+early": "early", "best": "early"}
    assert facts["repairs"] == ["rerequest", "early", "coded", "coded+early", "best"]
    assert facts["memory_gb"] == {"pairs": 0, "regional": 0, "triangles": 0, "all-to-all": 32}
    assert sorted(facts["link_classes"]) == ["access", "core", "post"]
    assert (facts["parity_block"], facts["parity_chunks"], facts["bfd_multiplier"]) == (32, 1, 3)
    assert wan_training.parse_schedule_memory("all-to-all") == ("all-to-all", 32)
    assert wan_training.parse_schedule_memory("triangles") == ("triangles", 0)
    assert wan_training.parse_schedule_memory("pairs:8") == ("pairs", 8)


def test_mean_ci_is_students_t():
    """By hand: five runs 1..5 have mean 3 and half-width t(0.975, 4) x
    sqrt(2.5 / 5) = 2.776445 x 0.707107 = 1.963243 (z = 1.96 would give
    1.385904); two runs 0 and 2, 12.706205; one run, 0; an infinite run, inf."""
    import wan_training

    mean, half = wan_training.mean_ci([1, 2, 3, 4, 5])
    assert mean == 3
    assert half == pytest.approx(1.963243, abs=1e-6)
    assert wan_training.mean_ci([0, 2]) == pytest.approx((1, 12.706205), abs=1e-6)
    assert wan_training.mean_ci([7.5]) == (7.5, 0.0)
    assert wan_training.mean_ci([1, math.inf])[1] == math.inf


def test_training_sweep(tmp_path):
    run_script("training_sweep.py", "--schedule", "pairs", "--coreGbps", "0", "--lossRate", "0",
               "0.05", "--workload", "quadratic", "--runs", "2", "--trainingRounds", "30",
               "--jobs", "2", "--output", str(tmp_path))
    rows = read_csv(tmp_path / "training-sweep-runs.csv")
    key = [(r["policy"], float(r["loss"]), r["run"]) for r in rows]
    assert key == [(p, loss, run) for p in ("wait", "quorum") for run in ("1", "2")
                   for loss in (0.0, 0.05)]
    by = {(r["policy"], float(r["loss"]), r["run"]): r for r in rows}
    for run in ("1", "2"):
        wait, quorum = by[("wait", 0.0, run)], by[("quorum", 0.0, run)]
        # Lossless, nothing is late: the policies train alike.
        assert float(wait["dropped_percent"]) == 0 == float(quorum["carried_weight"])
        assert wait["final_model_loss"] == quorum["final_model_loss"]
        # One run, one workload: f* and the target do not depend on the network.
        lossy = by[("quorum", 0.05, run)]
        assert lossy["minimum_loss"] == wait["minimum_loss"]
        assert lossy["target_loss"] == wait["target_loss"]
        # The network dropped contributions; the quorum does not wait for them.
        assert float(lossy["dropped_percent"]) > 0
        assert float(lossy["mean_round_s"]) < float(by[("wait", 0.05, run)]["mean_round_s"])
    # Another run, another workload.
    assert by[("wait", 0.0, "1")]["minimum_loss"] != by[("wait", 0.0, "2")]["minimum_loss"]
    summary = read_csv(tmp_path / "training-sweep.csv")
    assert [(s["policy"], float(s["loss"]), s["runs"]) for s in summary] == [
        ("wait", 0.0, "2"), ("wait", 0.05, "2"), ("quorum", 0.0, "2"), ("quorum", 0.05, "2")]
    with open(tmp_path / "training-sweep-packets.json") as f:
        runs = json.load(f)["runs"]
    assert [len(t["history"]) for r in runs for t in r["training"]] == [31] * 8
    figure = read_figure(tmp_path / "training-sweep.png")
    assert len(figure["axes"]) == 2
    assert figure["axes"][1]["ylabel"] == "time to target loss (s)"
    # One schedule: nothing to rank.
    assert not (tmp_path / "training-sweep-ranking.csv").exists()


def test_training_sweep_ranks_with_ties():
    import runpy

    sweep = runpy.run_path(os.path.join(SCRIPTS, "training_sweep.py"))
    assert sweep["ranks"]([3.0, 1.0, 2.0, 2.0]) == [4.0, 1.0, 2.5, 2.5]
    assert sweep["ranks"]([math.inf, 5.0]) == [2.0, 1.0]


def test_training_sweep_ranks_by_spearman():
    """Four lossless schedules whose times are monotone in J but not linear in
    it: Spearman's rho is 1 (Pearson's on the raw values would be 0.78), -1
    against a reversed J, 0.8 (1 - 6 x 2 / (4 x 15), two neighbours swapped)
    against the round time and between rounds and disagreement."""
    import runpy

    sweep = runpy.run_path(os.path.join(SCRIPTS, "training_sweep.py"))
    summary = []
    for name, time, j, jm, round_s, rounds, a in (("a", 10.0, 1.0, 4.0, 1.0, 5, 0.1),
                                                   ("b", 20.0, 2.0, 3.0, 3.0, 6, 0.2),
                                                   ("c", 30.0, 3.0, 2.0, 2.0, 7, 0.9),
                                                   ("d", 1000.0, 4.0, 1.0, 4.0, 8, 0.3)):
        summary.append({"capability": "cap", "workload": "quadratic", "policy": "accept",
                        "loss": 0, "schedule": name, "hbm_gb": 0, "time_to_target_s": time,
                        "time_to_target_s_ci95": 0.0, "rounds_to_target": rounds,
                        "objective": j, "objective_measured": jm, "disagreement": a,
                        "mean_round_s": round_s})
    ranked = sweep["ranking"](summary)
    assert [r["schedule"] for r in ranked] == ["a", "b", "c", "d"]
    assert [r["rank_time"] for r in ranked] == [1.0, 2.0, 3.0, 4.0]
    assert [r["rank_objective_measured"] for r in ranked] == [4.0, 3.0, 2.0, 1.0]
    first = ranked[0]
    assert first["spearman_rho"] == pytest.approx(1.0)
    assert first["spearman_rho_measured"] == pytest.approx(-1.0)
    assert first["spearman_rho_round_time"] == pytest.approx(0.8)
    assert first["spearman_rho_rounds_disagreement"] == pytest.approx(0.8)


def binomial_tail(n, r, q):
    """P(Binomial(n, q) > r), summed exactly here (apart from GSL's)."""
    return sum(math.comb(n, i) * q ** i * (1 - q) ** (n - i) for i in range(r + 1, n + 1))


def test_parity_sweep_sizes_r_from_the_pilot(tmp_path):
    run_script("parity_sweep.py", "--schedule", "triangles:32", "--lossRate", "0.01",
               "--lossBurst", "1", "--runs", "1", "--parityBlock", "56", "--jobs", "2",
               "--decode", "island", "--output", str(tmp_path))
    rows = read_csv(tmp_path / "parity-sweep-runs.csv")
    assert [(r["loss"], r["pilot"], r["run"]) for r in rows] == [
        ("0", "False", "1"), ("0.01", "True", "1000"), ("0.01", "False", "1")]
    base, pilot, run = rows
    assert int(base["parity_blocks"]) == 0 and int(pilot["parities"]) == 1
    r = int(run["parities"])
    # Sized from the pilot: the least r with the tail at most 1e-3 at the
    # pilot's worst rate (upper end of its interval), within k + r <= 256.
    q = float(pilot["erasure_rate_upper"])
    assert q >= float(pilot["erasure_rate_max"]) >= float(pilot["erasure_rate"])
    least = next((s for s in range(1, 56) if binomial_tail(56 + s, s, q) <= 1e-3), 56)
    assert r == least
    # One decoder per island and round (the FPGA sums), two blocks of 56.
    for row, parities in ((pilot, 1), (run, r)):
        assert int(row["parity_blocks"]) == 9 * 2 * 2
        assert int(row["parity_symbols"]) == 9 * 2 * 2 * (56 + parities)
        assert 0 <= int(row["erasures"]) <= int(row["parity_symbols"])
        assert 0 <= int(row["blocks_short"]) <= int(row["parity_blocks"])
        assert row["exact"] == "True"
    # The prediction: each island's binomial tail at its own rate.
    packets = json.load(open(tmp_path / "parity-sweep-packets.json"))
    runs = packets if isinstance(packets, list) else packets["runs"]
    islands = [i for rd in runs[2]["rounds"] for i in rd["islands"]]
    cities = {}
    for i in islands:
        c = cities.setdefault(i["city"], [0, 0, 0])
        c[0] += i["erasures"]
        c[1] += i["parity_symbols"]
        c[2] += i["parity_blocks"]
    predicted = sum(b * binomial_tail(56 + r, r, e / n) for e, n, b in cities.values()) / 36
    assert float(run["predicted"]) == pytest.approx(predicted, rel=1e-6, abs=1e-12)
    summary = read_csv(tmp_path / "parity-sweep.csv")
    assert len(summary) == 1 and int(summary[0]["parities"]) == r
    assert float(summary[0]["parity_vs_bound"]) == pytest.approx(r / int(run["bound"]))


def test_parity_sweep_decodes_per_stream_at_the_fpga(tmp_path):
    done = subprocess.run([sys.executable, os.path.join(SCRIPTS, "parity_sweep.py"),
                           "--schedule", "triangles:0", "triangles:32", "--lossRate", "0.01",
                           "--lossBurst", "1", "--runs", "1", "--parityBlock", "56",
                           "--jobs", "2", "--decode", "fpga", "--output", str(tmp_path)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    # Without memory the FPGA cannot hold a block: that setting is left out.
    assert "triangles 0 GB not decoded at the FPGA" in done.stderr
    rows = read_csv(tmp_path / "parity-sweep-runs.csv")
    assert [(r["hbm_gb"], r["decode"], r["pilot"]) for r in rows] == [
        ("0.0", "island", "False"), ("32.0", "island", "False"),
        ("32.0", "fpga", "True"), ("32.0", "fpga", "False")]
    pilot, run = rows[2:]
    r = int(run["parities"])
    q = float(pilot["erasure_rate_upper"])
    assert r == next((s for s in range(1, 56) if binomial_tail(56 + s, s, q) <= 1e-3), 56)
    # Each FPGA decodes its two peers' streams: 9 islands, 2 rounds, 2 peers,
    # 2 blocks of 56 each; none evicted with half of 32 GB.
    for row, parities in ((pilot, 1), (run, r)):
        assert int(row["parity_blocks"]) == 9 * 2 * 2 * 2
        assert int(row["parity_symbols"]) == 9 * 2 * 2 * 2 * (56 + parities)
        assert 0 < int(row["erasures"]) < int(row["parity_symbols"])
        assert int(row["stream_evicted"]) == 0
        assert row["exact"] == "True"
    # One path's losses, rebuilt at the FPGA: at most the data erasures.
    assert 0 < int(run["stream_rebuilt"]) <= int(run["erasures"])
    summary = read_csv(tmp_path / "parity-sweep.csv")
    assert [(s["decode"], int(s["parities"])) for s in summary] == [("fpga", r)]


def test_parity_sweep_sizes_each_stream_in_band(tmp_path):
    run_script("parity_sweep.py", "--schedule", "triangles:32", "--lossRate", "0.01",
               "--lossBurst", "1", "--runs", "1", "--parityBlock", "56", "--rounds", "3",
               "--decode", "fpga", "--sizing", "--maxParities", "30", "--jobs", "2",
               "--output", str(tmp_path))
    rows = read_csv(tmp_path / "parity-sweep-runs.csv")
    # No pilot: the lossless baseline and the sized run.
    assert [(r["decode"], r["pilot"], float(r["sizing"])) for r in rows] == [
        ("island", "False", 0.0), ("fpga", "False", 0.001)]
    run = rows[1]
    assert run["exact"] == "True"
    packets = json.load(open(tmp_path / "parity-sweep-packets.json"))
    runs = packets if isinstance(packets, list) else packets["runs"]
    rounds = runs[1]["rounds"]
    rows_of = [{i["city"]: i["parity_rows"] for i in rd["islands"]} for rd in rounds]
    # Round 0 sends every row of the code; later rounds what the reports size.
    assert set(rows_of[0].values()) == {30}
    later = [r for rd in rows_of[1:] for r in rd.values()]
    # (the worst receiver's upper bound from 2 blocks a round may still ask
    # for all of them)
    assert all(1 <= r <= 30 for r in later) and sum(r < 30 for r in later) > len(later) / 2, later
    # Each of a stream's two receivers' FPGAs reports each of its 2 blocks.
    reports = [i["loss_reports"] for rd in rounds for i in rd["islands"]]
    assert all(0 <= n <= 4 for n in reports) and sum(reports) > 0.9 * 4 * len(reports)
    # The FPGAs count each block with the rows its stream sent: 2 receivers
    # x 2 blocks x (56 + rows) per stream and round, exactly.
    symbols = sum(2 * 2 * (56 + r) for rd in rows_of for r in rd.values())
    assert int(run["parity_symbols"]) == symbols
    summary = read_csv(tmp_path / "parity-sweep.csv")
    assert float(summary[0]["parities"]) == pytest.approx(sum(later) / len(later))


def test_parity_sweep_refuses_bad_options(tmp_path):
    done = subprocess.run([sys.executable, os.path.join(SCRIPTS, "parity_sweep.py"),
                           "--parityBlock", "256", "--output", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 2
    assert "--parityBlock must be from 1 to 255" in done.stderr


def test_benchmark_finds_optional_builds_or_skips_them(tmp_path):
    """scripts/benchmark.sh asks common.sh for the optimized and MPI builds'
    programs under set -e and pipefail: on a tree without them the answer is
    empty and the script goes on (it said the MPI part was skipped, then
    failed); with them, the program's path."""
    tree = tmp_path / "ns-3"
    tree.mkdir()
    probe = ("set -euo pipefail; source scripts/common.sh; NS3_DIR=%s; "
             "o=\"$(wt_optimized_program nine-city-cliques)\"; "
             "m=\"$(wt_mpi_program nine-city-cliques)\"; "
             "d=\"$(wt_program nine-city-cliques)\"; echo \"[$o][$m][$d]\"" % tree)

    def ask():
        done = subprocess.run(["bash", "-c", probe], cwd=ROOT, capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert ask() == "[][][]"
    made = []
    for out, name in (("build-optimized", "ns3.37-nine-city-cliques-optimized"),
                      ("build-mpi", "ns3.37-nine-city-cliques-optimized"),
                      ("build", "ns3.37-nine-city-cliques-default")):
        folder = tree / out / "contrib" / "wan-training" / "examples"
        folder.mkdir(parents=True)
        (folder / name).write_text("")
        made.append(str(folder / name))
    assert ask() == "[%s][%s][%s]" % tuple(made)


@pytest.mark.programs
def test_benchmark_round_sends_the_packets_alone():
    """The full-scale round that scripts/benchmark.sh times against the UDP
    replay runs the islands' packets alone: no parity (recovery accept) and
    none of today's TCP collectives, which nine-city-cliques runs after the
    rounds by default (at scale 1 they take far longer than the round).  The
    same arguments at scale 1000."""
    from wan_training import ns3_dir

    done = subprocess.run(["bash", "-c", "eval \"$(sed -n '/^round=(/,/)$/p' "
                           "scripts/benchmark.sh)\"; printf '%s\\n' \"${round[@]}\""],
                          cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    args = done.stdout.split()
    assert "--scale=1" in args and "--collectives=none" in args and "--recovery=accept" in args
    args[args.index("--scale=1")] = "--scale=1000"
    run = subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                          "nine-city-cliques " + " ".join(args)],
                         cwd=ns3_dir(), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert "sums exact" in run.stdout
    assert "collectives" not in run.stdout.lower()
    # 1 GB / 1000 in chunks of 8936 bytes: 112 a round; each of the 9 FPGAs
    # completes a slot per chunk from its two peers' data packets: 9 x 112
    # completions, and no parity chunk.
    assert re.search(r"evictions: completion 1008 conflict 0 flush 0 request 0 timeout 0",
                     run.stdout)


def test_tcp_validation(tmp_path):
    run_script("tcp_validation.py", "--congestion", "newreno", "--lossRate", "0.01", "--rttMs",
               "20", "--runs", "2", "--losses", "20", "--minSeconds", "5", "--jobs", "2",
               "--output", str(tmp_path))
    runs = read_csv(tmp_path / "tcp-validation-runs.csv")
    assert [int(r["run"]) for r in runs] == [1, 2]
    for r in runs:
        # Mathis with delayed ACKs: sqrt(3/4) / 0.1 = 8.660 segments of 8948
        # bytes every 20 ms, 30.996 Mbit/s; buffers of 4 windows (309,968
        # bytes); 20 losses at 433 segments/s: the run's 5 s floor.
        assert float(r["window_segments"]) == pytest.approx(8.6603, abs=1e-4)
        assert float(r["closed_form_mbps"]) == pytest.approx(30.996, abs=1e-3)
        assert int(r["buffer_bytes"]) == 309968
        assert float(r["seconds"]) == 5
        assert float(r["ratio"]) == pytest.approx(float(r["goodput_mbps"]) / 30.996, rel=1e-4)
        assert int(r["lost_packets"]) > 0
    assert runs[0]["goodput_mbps"] != runs[1]["goodput_mbps"], "independent runs"
    (s,) = read_csv(tmp_path / "tcp-validation.csv")
    assert s["closed_form"] == "Mathis" and int(s["runs"]) == 2
    goodputs = [float(r["goodput_mbps"]) for r in runs]
    assert float(s["goodput_mbps"]) == pytest.approx(sum(goodputs) / 2, rel=1e-9)
    # Student's t with one degree of freedom: 12.706 x |a - b| / 2.
    assert float(s["goodput_mbps_ci95"]) == pytest.approx(
        12.7062 * abs(goodputs[0] - goodputs[1]) / 2, rel=1e-4)
    ax = read_figure(tmp_path / "tcp-validation.png")["axes"][0]
    assert ax["xscale"] == "log"
    assert ax["ylabel"] == "measured goodput / closed form"
    assert ax["legend"] == ["newreno, RTT 20 ms (Mathis)"]


def test_collectives_benchmark(tmp_path):
    out = run_script("collectives_benchmark.py", "--systems", "ring", "--scale", "10000",
                     "--repeats", "2", "--output", str(tmp_path))
    assert "written:" in out
    runs = read_csv(tmp_path / "collectives-benchmark-runs.csv")
    # Interleaved: the paper's round, then the ring, per repeat.
    assert [(r["system"], int(r["repeat"])) for r in runs] == [
        ("paper", 1), ("ring", 1), ("paper", 2), ("ring", 2)]
    for r in runs:
        assert r["exact"] == "True"
        assert int(r["events"]) > 0
        assert float(r["events_per_mb"]) == pytest.approx(
            int(r["events"]) / float(r["mb_sent"]), rel=1e-9)
        if r["system"] == "ring":
            # D = 1 GB at scale 10000: 16 x 12 records of 8936 bytes in all
            # (test_collectives_sweep), what the run moved.
            assert float(r["mb_sent"]) == pytest.approx(16 * 12 * 8936 / 1e6, rel=1e-9)
    # Lossless runs are deterministic: the same events every repeat.
    for system in ("paper", "ring"):
        assert len({r["events"] for r in runs if r["system"] == system}) == 1
    summary = {s["system"]: s for s in read_csv(tmp_path / "collectives-benchmark.csv")}
    assert sorted(summary) == ["paper", "ring"]
    assert float(summary["paper"]["events_per_mb_vs_paper"]) == pytest.approx(1)
    ring = [r for r in runs if r["system"] == "ring"]
    paper = [r for r in runs if r["system"] == "paper"]
    assert float(summary["ring"]["events_per_mb_vs_paper"]) == pytest.approx(
        float(ring[0]["events_per_mb"]) / float(paper[0]["events_per_mb"]), rel=1e-9)
    assert float(summary["ring"]["wall_s"]) == pytest.approx(
        (float(ring[0]["wall_s"]) + float(ring[1]["wall_s"])) / 2, rel=1e-9)


def test_intellect1_replay(tmp_path):
    """Three nodes a setting at 4 Gbit/s, D = 10 GB: the closed form by hand
    from the great circles (IAD-SJC 3846.2 km, IAD-SIN 15521.9 km, x 1.4 at
    200 000 km/s), the rate the report's median implies, and the run exact and
    no faster than the egress alone."""
    out = run_script("intellect1_replay.py", "--settings", "us", "global", "--nodes", "3",
                     "--rateGbps", "4", "--scale", "10000", "--output", str(tmp_path))
    assert "written:" in out
    rows = read_csv(tmp_path / "intellect1-replay.csv")
    assert [(r["setting"], int(r["nodes"]), float(r["rate_gbps"])) for r in rows] == [
        ("us", 3, 4.0), ("global", 3, 4.0)]
    assert sorted(rows[0]["ring"].split("-")) == ["IAD", "ORD", "SJC"]
    assert sorted(rows[1]["ring"].split("-")) == ["FRA", "IAD", "SIN"]
    egress = 2 * 2 / 3 * 80 / 4  # 2(N-1)/N x D / R, s
    for r, slowest_ms, reported in ((rows[0], 26.923, 103), (rows[1], 108.654, 469)):
        assert float(r["slowest_step_ms"]) == pytest.approx(slowest_ms, rel=1e-4)
        assert float(r["closed_form_s"]) == pytest.approx(
            egress + 4 * float(r["slowest_step_ms"]) / 1e3, rel=1e-9)
        assert float(r["reported_s"]) == reported
        assert float(r["implied_gbps"]) == pytest.approx(2 * 2 / 3 * 80 / reported, rel=1e-9)
        assert 0 < float(r["loss_for_implied"]) < 1e-4
        assert r["exact"] == "True"
        assert float(r["seconds"]) > egress
        # The same order as the report's median (here 39.5 s against 103 s and
        # 29.1 s against 469 s).
        assert reported / 20 < float(r["seconds"]) < reported
        assert float(r["ratio"]) == pytest.approx(
            float(r["seconds"]) / float(r["closed_form_s"]), rel=1e-9)
    # A longer round trip needs a lower loss for the same rate, and global's
    # rate is lower: its loss is the higher (2.4e-6 against 7.1e-7 here).
    assert float(rows[1]["loss_for_implied"]) > float(rows[0]["loss_for_implied"])
    ax = read_figure(tmp_path / "intellect1-replay.png")["axes"][0]
    assert ax["xscale"] == "log"
    assert "us: INTELLECT-1's median (103 s)" in ax["legend"]
    assert "global: ring over TCP, 3 nodes (simulated)" in ax["legend"]
    done = subprocess.run([sys.executable, os.path.join(SCRIPTS, "intellect1_replay.py"),
                           "--nodes", "15"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--nodes must be from 2 to 14" in done.stderr


def test_collectives_sweep(tmp_path):
    out = run_script("collectives_sweep.py", "--systems", "paper", "ring", "schedule-ring",
                     "--schedule", "pairs", "--lossRate", "0", "0.05", "--runs", "2",
                     "--scale", "10000", "--rounds", "1", "--jobs", "2", "--output", str(tmp_path))
    assert "written:" in out
    runs = read_csv(tmp_path / "collectives-sweep-runs.csv")
    assert sorted((r["system"], float(r["loss"]), int(r["run"])) for r in runs) == sorted(
        (s, p, k) for s in ("paper", "ring", "schedule-ring") for p in (0, 0.05) for k in (1, 2))
    # D = 1 GB at scale 10000: 12 records of 8936 bytes.  A ring of the nine
    # cities sends 2 x 8 steps of its segments, 16 x 12 records in all; pairs'
    # first round is 3 rings of two, 24 records each.  At full scale:
    for r in runs:
        assert r["exact"] == "True"
        if r["system"] == "ring":
            assert float(r["island_gb"]) == pytest.approx(16 * 12 * 8936 * 1e4 / 1e9, rel=1e-9)
        if r["system"] == "schedule-ring":
            assert float(r["island_gb"]) == pytest.approx(3 * 24 * 8936 * 1e4 / 1e9, rel=1e-9)
            assert float(r["max_island_gb"]) == pytest.approx(12 * 8936 * 1e4 / 1e9, rel=1e-9)
    lossless = [r for r in runs if float(r["loss"]) == 0]
    assert all(int(r["retransmissions"]) == 0 for r in lossless)
    # 5% on every core link: TCP repairs, and the sync takes longer than without.
    lossy = [r for r in runs if r["system"] == "ring" and float(r["loss"]) > 0]
    assert sum(int(r["retransmissions"]) for r in lossy) > 0
    summary = read_csv(tmp_path / "collectives-sweep.csv")
    assert [(s["system"], float(s["loss"])) for s in summary] == [
        (s, p) for s in ("paper", "ring", "schedule-ring") for p in (0, 0.05)]
    for s in summary:
        both = [float(r["sync_ms"]) for r in runs
                if r["system"] == s["system"] and r["loss"] == s["loss"]]
        assert float(s["sync_ms"]) == pytest.approx(sum(both) / 2, rel=1e-9)
        # Student's t with one degree of freedom: 12.706 x |a - b| / 2.
        assert float(s["sync_ms_ci95"]) == pytest.approx(12.7062 * abs(both[0] - both[1]) / 2,
                                                         rel=1e-4, abs=1e-9)
    ring = {float(s["loss"]): float(s["sync_ms"]) for s in summary if s["system"] == "ring"}
    assert ring[0.05] > ring[0]
    # Time to target, per workload and H (the defaults: quadratic and
    # logistic, H = 1 and 100, 250 ms a step, 100 rounds): at least a round's
    # compute when reached; the ring of all nine always reaches it, and
    # lossless with H = 100 after one round, 100 x 0.25 s + its sync. Pairs'
    # first round alone (the paper's, or rings in its cliques) leaves the nine
    # islands in pairs and a singleton that never mix: whether the target is
    # reached depends on the workload's draw (inf when not).
    columns = ["ttt_%s_h%d_s" % (w, h) for w in ("quadratic", "logistic") for h in (1, 100)]
    for r in runs:
        for c in columns:
            t = float(r[c])
            least = (100 if c.endswith("h100_s") else 1) * 0.25
            assert t == float("inf") or t > least, (r["system"], c, t)
            if r["system"] == "ring":
                assert t < float("inf"), (c, t)
                if float(r["loss"]) == 0 and c.endswith("h100_s"):
                    assert t == pytest.approx(25 + float(r["sync_ms"]) / 1e3, rel=1e-9)
    for s in summary:
        runs_of = [float(r[columns[0]]) for r in runs
                   if r["system"] == s["system"] and r["loss"] == s["loss"]]
        assert float(s[columns[0]]) == pytest.approx(sum(runs_of) / 2, rel=1e-9)
    ax = read_figure(tmp_path / "collectives-sweep.png")["axes"][0]
    assert ax["ylabel"] == "time per sync, ms (log)"
    assert ax["xticklabels"] == ["none", "5%"]
    assert ax["legend"] == ["paper", "ring", "schedule-ring"]


def test_predictor_validation(tmp_path):
    out = run_script("predictor_validation.py", "--builtins", "pairs", "triangles",
                     "--optimized", "1", "--random", "1", "--runs", "2",
                     "--workloads", "quadratic", "--localSteps", "1", "5", "--computeMs", "0",
                     "100", "--heterogeneityLevels", "high", "--noiseLevels", "low",
                     "--noise", "0", "0", "--targets", "--targetShares", "0.05", "0.01",
                     "--trainingSteps", "400", "--bootstrap", "50", "--jobs", "2",
                     "--output", str(tmp_path))
    assert "wrote" in out
    schedules = {r["schedule"]: r for r in read_csv(tmp_path / "predictor-validation-schedules.csv")}
    assert sorted(schedules) == ["optimized-c2-p3", "pairs", "random-1", "triangles"]
    assert int(schedules["triangles"]["period"]) == 2
    assert float(schedules["triangles"]["a"]) == pytest.approx(1.75, rel=1e-9)
    runs = read_csv(tmp_path / "predictor-validation-runs.csv")
    # 4 schedules x 2 H x 2 targets, the runs' gaps averaged.
    assert len(runs) == 16
    # Without noise the exact recursion is the training itself, run by run.
    assert all(r["rounds_exact"] == r["rounds_simulated"] for r in runs)
    assert sum(r["rounds_simulated"] != "" for r in runs) >= 8
    for r in runs:
        each = [int(k) for k in r["rounds_each_run"].split(";") if k != "None"]
        if r["rounds_simulated"] and len(each) == 2:
            assert min(each) <= int(r["rounds_simulated"]) <= max(each)
            assert float(r["rounds_simulated_low"]) <= int(r["rounds_simulated"]) <= float(
                r["rounds_simulated_high"])
    summary = read_csv(tmp_path / "predictor-validation.csv")
    # 2 H x 2 C x 2 targets, each with the 7 predictors.
    assert len(summary) == 8 * 7
    for s in summary:
        if s["predictor"] == "exact":
            assert s["spearman"] in ("1.0", "nan")
            if int(s["reached"]) == 0:  # no schedule reached it: no regret, no error
                assert (s["regret"], s["median_log_error"]) == ("nan", "nan")
            else:
                assert float(s["regret"]) == pytest.approx(1.0)
                assert float(s["median_log_error"]) == pytest.approx(0.0, abs=1e-12)
        if s["predictor"] == "cost" and float(s["compute_ms"]) == 0:
            t = [x for x in summary if x["predictor"] == "T" and
                 all(x[k] == s[k] for k in ("local_steps", "compute_ms", "target"))]
            assert s["spearman"] == t[0]["spearman"]
    ax = read_figure(tmp_path / "predictor-validation.png")["axes"]
    assert ax[0]["xlabel"] == "simulated time to target, s (C = 0 ms)"
    assert ax[1]["xticklabels"] == ["exact", "moments", "closed", "J", "A", "T", "cost"]
    bad = subprocess.run([sys.executable, os.path.join(SCRIPTS, "predictor_validation.py"),
                          "--targets", "1"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert "--targets above 1" in bad.stderr


def test_objective_comparison(tmp_path):
    out = run_script("objective_comparison.py", "--workloads", "quadratic", "--coreGbps",
                     "--runs", "2", "--evaluations", "500", "--maxPeriod", "2", "--dimension",
                     "50", "--trainingSteps", "300", "--bootstrap", "50", "--hbmGB", "0",
                     "--heterogeneity", "0.03", "--output", str(tmp_path))
    assert "wrote" in out
    rows = read_csv(tmp_path / "objective-comparison.csv")
    assert [(r["capability"], r["objective"]) for r in rows] == [("today", "J"),
                                                                   ("today", "time")]
    j, time = rows
    # Each objective's own figure is the better one for what it found.
    assert float(j["j"]) <= float(time["j"]) * (1 + 1e-9)
    assert float(time["predicted_s"]) <= float(j["predicted_s"]) * (1 + 1e-9)
    for r in rows:
        assert int(r["period"]) <= 2
        each = [int(k) for k in r["rounds_each_run"].split(";")]
        assert min(each) - 1 <= int(r["rounds_simulated"]) <= max(each) + 1
        assert float(r["simulated_low_s"]) <= float(r["simulated_s"]) <= float(
            r["simulated_high_s"])
    ax = read_figure(tmp_path / "objective-comparison.png")["axes"][0]
    assert ax["ylabel"] == "simulated time to target, s"
    assert ax["legend"] == ["minimising J", "minimising time"]
