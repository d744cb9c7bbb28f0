# SPDX-License-Identifier: GPL-2.0-only
"""scripts/plot_topology.py: one round's trees and the load of every core link
direction, against loads worked out by hand from the shortest paths."""

import os
import subprocess
import sys

import pytest

from test_scripts import SCRIPTS, read_csv, read_figure, run_script

# Triangles, round 1, on the nine cities: {NYC,LAX,BUE}, {LON,AMS,FRA} and
# {TYO,SEO,SIN}.  The multicast trees (shortest paths by latency):
#   NYC: NYC>LAX, NYC>BUE      LAX: LAX>NYC>BUE       BUE: BUE>NYC>LAX
#   LON: LON>AMS>FRA (2.88 + 2.23 ms beats LON-FRA's 5.55 ms)
#   AMS: AMS>LON, AMS>FRA      FRA: FRA>AMS>LON
#   TYO: TYO>SEO, TYO>SIN      SEO: SEO>TYO>SIN       SIN: SIN>TYO>SEO
# so these streams per direction, 18 in all, on 12 of the 22 directions.
TRIANGLES_ROUND_1 = {
    ("NYC", "LAX"): 2, ("NYC", "BUE"): 2, ("LAX", "NYC"): 1, ("BUE", "NYC"): 1,
    ("LON", "AMS"): 1, ("AMS", "FRA"): 2, ("AMS", "LON"): 2, ("FRA", "AMS"): 1,
    ("TYO", "SEO"): 2, ("TYO", "SIN"): 2, ("SEO", "TYO"): 1, ("SIN", "TYO"): 1,
}
CLIQUE = {"NYC": "1", "LAX": "1", "BUE": "1", "LON": "2", "AMS": "2", "FRA": "2",
          "TYO": "3", "SEO": "3", "SIN": "3"}


def by_direction(path):
    return {(r["from"], r["to"]): r for r in read_csv(path)}


def test_triangles_round_1_loads_by_hand(tmp_path):
    out = run_script("plot_topology.py", "--schedule", "triangles", "--round", "1",
                     "--output", str(tmp_path))
    rows = by_direction(tmp_path / "topology-triangles-round-1.csv")
    assert len(rows) == 22  # both directions of the 11 core links
    for (a, b), row in rows.items():
        streams = TRIANGLES_ROUND_1.get((a, b), 0)
        assert int(row["streams"]) == streams, (a, b)
        # Every stream at 20 Gbps (the access rate binds) on 100 Gbps links.
        assert float(row["load_gbps"]) == pytest.approx(20 * streams), (a, b)
        assert float(row["capacity_gbps"]) == pytest.approx(100)
        assert float(row["utilisation_percent"]) == pytest.approx(20 * streams), (a, b)
        assert row["cliques"] == (CLIQUE[a] if streams else ""), (a, b)
    assert out.startswith("triangles round 1/2: 3 cliques, 18 stream-hops on 12 of 22 core "
                          "link directions, busiest TYO->SIN 40 Gbps (40% of 100 Gbps, "
                          "n_e = 2), T 507.76 ms; written: ")

    figure = read_figure(tmp_path / "topology-triangles-round-1.png")
    world, table = figure["axes"][:2]
    assert world["xlabel"] == "longitude (degrees)"
    assert world["title"] == "triangles, round 1 of 2: T 507.76 ms\n" \
                             "multicast trees, FPGA memory 0 GB"
    # Each clique's colour and rate (its first member's egress binds) below the table.
    assert [label.replace("\n", " ") for label in table["legend"]] == [
        "1 {NYC,LAX,BUE}: 20 Gbps per stream (egress NYC 20 Gbps)",
        "2 {LON,AMS,FRA}: 20 Gbps per stream (egress LON 20 Gbps)",
        "3 {TYO,SEO,SIN}: 20 Gbps per stream (egress TYO 20 Gbps)"]
    # The first core link, TYO-LAX, crosses the date line: drawn from TYO
    # eastwards off the map (LAX at -118.2594 + 360) and again from LAX westwards.
    assert world["lines"][0]["x"] == pytest.approx([139.7657, 241.7406])
    assert world["lines"][1]["x"] == pytest.approx([139.7657 - 360, -118.2594])
    # The table beside the map: one line per loaded direction.
    assert len(table["texts"]) == 1 + 12
    assert "NYC>LAX 2, 40 Gbps, 40%, 1" in table["texts"]
    assert "FRA>AMS 1, 20 Gbps, 20%, 2" in table["texts"]


def test_unicast_copies_by_hand(tmp_path):
    run_script("plot_topology.py", "--no-multicast", "--output", str(tmp_path))
    rows = by_direction(tmp_path / "topology-triangles-round-1.csv")
    # Without multicast each sender sends two copies at 20 / 2 = 10 Gbps: LON's
    # to AMS and its copy to FRA (via AMS) both cross LON>AMS; LAX's copy to
    # BUE and to NYC both cross LAX>NYC.  24 copies-hops in all (8 per clique).
    for (a, b), streams in {("LON", "AMS"): 2, ("AMS", "FRA"): 2, ("AMS", "LON"): 2,
                            ("FRA", "AMS"): 2, ("LAX", "NYC"): 2, ("NYC", "LAX"): 2,
                            ("NYC", "BUE"): 2, ("BUE", "NYC"): 2}.items():
        assert int(rows[(a, b)]["streams"]) == streams, (a, b)
        assert float(rows[(a, b)]["load_gbps"]) == pytest.approx(10 * streams), (a, b)
    assert sum(int(r["streams"]) for r in rows.values()) == 24


def test_own_topology_without_coordinates(tmp_path):
    # A ring A-B-C-D-A without latitude or longitude; the clique {A,C,D}
    # leaves B out.  A reaches C through B (20 ms, not 35 through D), C
    # reaches A through B, A and D are neighbours (25 ms, not 30 round the
    # ring): every direction carries one stream at 20 Gbps, 40% of C-D's 50.
    topology = tmp_path / "ring.json"
    topology.write_text(
        '{"cities": [{"code": "A"}, {"code": "B"}, {"code": "C"}, {"code": "D"}],'
        ' "links": [{"a": "A", "b": "B", "one_way_ms": 10, "capacity_gbps": 100},'
        ' {"a": "B", "b": "C", "one_way_ms": 10, "capacity_gbps": 100},'
        ' {"a": "C", "b": "D", "one_way_ms": 10, "capacity_gbps": 50},'
        ' {"a": "D", "b": "A", "one_way_ms": 25, "capacity_gbps": 100}],'
        ' "access_gbps": 20}')
    schedule = tmp_path / "mine.json"
    schedule.write_text('{"name": "mine", "rounds": [[["A", "C", "D"], ["B"]],'
                        ' [["A", "B", "C", "D"]]]}')
    out = run_script("plot_topology.py", "--topology", str(topology), "--scheduleFile",
                     str(schedule), "--output", str(tmp_path))
    rows = by_direction(tmp_path / "topology-mine-round-1.csv")
    assert sorted(rows) == sorted([("A", "B"), ("B", "A"), ("B", "C"), ("C", "B"),
                                   ("C", "D"), ("D", "C"), ("D", "A"), ("A", "D")])
    for (a, b), row in rows.items():
        assert int(row["streams"]) == 1, (a, b)
        assert float(row["load_gbps"]) == pytest.approx(20), (a, b)
    assert float(rows[("C", "D")]["utilisation_percent"]) == pytest.approx(40)
    # Without FPGA memory each receiver's two arrivals must coincide: offsets
    # A 0, D 10, C 15 ms (C 15 + 20 = D 10 + 25 at A; A 0 + 20 = D 10 + 10 at
    # C; A 0 + 25 = C 15 + 10 at D).  The last arrives at A at 35 ms, then 1 GB
    # at 20 Gbps takes 400 ms.
    assert out.startswith("mine round 1/2: 1 clique, 8 stream-hops on 8 of 8 core link "
                          "directions, busiest C->D 20 Gbps (40% of 50 Gbps, n_e = 1), "
                          "T 435.00 ms; written: ")
    # No coordinates: the cities evenly on a circle from the top, clockwise.
    world = read_figure(tmp_path / "topology-mine-round-1.png")["axes"][0]
    assert world["lines"][0]["x"] == pytest.approx([0, 1], abs=1e-12)  # A-B
    assert world["lines"][0]["y"] == pytest.approx([1, 0], abs=1e-12)


@pytest.mark.parametrize("args, message", [
    (["--round", "3"], "--round 3 is out of range: schedule triangles has rounds 1 to 2"),
    (["--schedule", "hexagons"], "--schedule: unknown schedule 'hexagons' (built-in: pairs, "
                                 "regional, triangles, all-to-all)"),
])
def test_bad_input_is_one_clear_line(tmp_path, args, message):
    done = subprocess.run([sys.executable, os.path.join(SCRIPTS, "plot_topology.py"), *args,
                           "--output", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1] == "plot_topology.py: error: " + message
    assert os.listdir(tmp_path) == []
