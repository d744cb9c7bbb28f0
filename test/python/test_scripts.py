# SPDX-License-Identifier: GPL-2.0-only
"""Runs the experiment scripts on small configurations and checks their numbers,
and that the Python results equal the C++ example's for the same parameters."""

import csv
import math
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPTS = os.path.join(ROOT, "scripts")
sys.path.insert(0, os.path.join(ROOT, "python"))


def run_script(name, *args):
    """Runs a script as a user would, in one command."""
    done = subprocess.run([sys.executable, os.path.join(SCRIPTS, name), *args],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


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
    assert (tmp_path / "survival-curves.png").stat().st_size > 10000


def test_paper_table_matches_the_cpp_example(tmp_path):
    run_script("paper_table.py", "--schedules", "triangles", "all-to-all", "--scale", "1000",
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
    assert (tmp_path / "paper-table.png").stat().st_size > 10000

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
    run_script("hbm_sweep.py", "--hbm-gb", "0", "32", "--evaluations", "2000", "--jobs", "2",
               "--output", str(tmp_path))
    rows = {float(r["hbm_gb"]): r for r in read_csv(tmp_path / "hbm-sweep.csv")}
    # Without memory all-to-all cannot run; triangles (J 952.12) is the best of the four.
    assert math.isnan(float(rows[0.0]["J_all-to-all"]))
    assert float(rows[0.0]["J_triangles"]) == pytest.approx(544.07 * 1.75, abs=0.02)
    for size, r in rows.items():
        builtins = [float(r["J_" + n]) for n in ("pairs", "regional", "triangles", "all-to-all")]
        assert float(r["best_J"]) <= min(j for j in builtins if not math.isnan(j)) + 1e-6, size
    # With 32 GB all-to-all (J 797.3) is feasible, and the best is at least as good.
    assert float(rows[32.0]["J_all-to-all"]) == pytest.approx(797.29, abs=0.01)
    assert (tmp_path / "hbm-sweep.png").stat().st_size > 10000


def test_impairment_sweep_matches_the_cpp_example(tmp_path):
    run_script("impairment_sweep.py", "--schedules", "triangles", "--loss", "0.01",
               "--jitter-ms", "1", "--jobs", "2", "--output", str(tmp_path))
    rows = read_csv(tmp_path / "impairment-sweep.csv")
    assert len(rows) == 3
    for r in rows:
        # Nothing lost with re-requests; impairments only slow the round down.
        assert r["exact"] == "True", r
        assert int(r["delivered"]) == int(r["expected"]) == 4032
        assert float(r["inflation_percent"]) >= 0
    assert float(rows[1]["inflation_percent"]) > 0

    from wan_training import ns3_dir

    table = tmp_path / "cpp.csv"
    subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                    "wan-impairments --schedules=triangles --loss=0.01 --jitterMs=1 "
                    "--output=%s" % table],
                   cwd=ns3_dir(), check=True, capture_output=True, timeout=600)
    cpp = read_csv(table)
    # The example's CSV has 6 significant digits.
    assert [float(r["measured_ms"]) for r in cpp] == pytest.approx(
        [float(r["measured_ms"]) for r in rows], rel=1e-5)
    assert [int(r["delivered"]) for r in cpp] == [int(r["delivered"]) for r in rows]


def test_sem_campaign(tmp_path):
    campaign = tmp_path / "campaign"
    run_script("sem_campaign.py", "--loss", "0.01", "--campaign", str(campaign),
               "--output", str(tmp_path))
    rows = read_csv(tmp_path / "sem-campaign.csv")
    loss = [r for r in rows if r["impairment"] == "loss 1%"]
    assert len(loss) == 1
    assert loss[0]["exact"] == "1"
    assert float(loss[0]["inflation_percent"]) > 0
    # A second run finds every result in the campaign and simulates nothing.
    again = run_script("sem_campaign.py", "--loss", "0.01", "--campaign", str(campaign),
                       "--output", str(tmp_path))
    assert "loss 1%" in again
