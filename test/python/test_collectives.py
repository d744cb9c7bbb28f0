# SPDX-License-Identifier: GPL-2.0-only
"""nine-city-cliques and wan-impairments run today's collectives in each
clique of a schedule: per round, the bytes of the pairs the schedule names,
counted by hand, every sum exact, the mean of the rounds, and under loss
TCP's repairs and their cost."""

import csv
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))

RECORD = 8936
# D = 1 GB at scale 10000: 100 kB, ceil(1e5 / 8936) = 12 chunks.
CHUNKS = 12


@pytest.mark.programs
def test_the_schedule_on_todays_network_counts_by_hand():
    from wan_training import ns3_dir

    done = subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                           "nine-city-cliques --schedule=pairs --hbmGB=0 --packetSchedule=pairs "
                           "--scale=10000 --rounds=3 --baselines=false --collectives=ring,ps"],
                          cwd=ns3_dir(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    # The rounds' cliques, as the program prints the schedule.
    rounds = re.search(r"^  pairs: (.*)$", out, re.M).group(1).split(" | ")
    pairs = [len(re.findall(r"\{\w+,\w+\}", r)) for r in rounds]
    assert pairs == [3, 3, 2]
    part = out.split("The schedules on today's network")[1]
    for kind in ("ring all-reduce", "parameter server"):
        block = part.split("pairs, %s in each clique:" % kind)[1].split("mean round")[0]
        rows = re.findall(r"round (\d+): ([\d.]+) ms, ([\d.]+) MB sent \(most by one island "
                          r"([\d.]+)\), (\d+) retransmissions, exact (\w+)", block)
        assert [int(r[0]) for r in rows] == [1, 2, 3], block
        for (_, ms, mb, most, _, exact), n in zip(rows, pairs):
            # A pair's ring: 2 steps of 6 records each way; a pair's server:
            # the worker's 12 records in, 12 sums out. 24 records a pair.
            assert float(mb) == pytest.approx(n * 24 * RECORD / 1e6, abs=5e-5), (kind, mb)
            assert float(most) == pytest.approx(12 * RECORD / 1e6, abs=5e-5), (kind, most)
            assert exact == "True"
            assert float(ms) > 0
        mean = float(re.search(r"mean round ([\d.]+) ms over 3 round",
                               part.split("pairs, %s in each clique:" % kind)[1]).group(1))
        assert mean == pytest.approx(sum(float(r[1]) for r in rows) / 3, rel=2e-3)


@pytest.mark.programs
def test_impairment_sweep_runs_the_schedule_on_todays_network(tmp_path):
    from wan_training import ns3_dir

    path = str(tmp_path / "collectives.csv")
    done = subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                           "wan-impairments --schedule=pairs --lossRate=0.05 --jitterMs=none "
                           "--recovery=accept --rounds=1 --scale=10000 --quiet "
                           "--collectives=ring --collectivesOutput=" + path],
                          cwd=ns3_dir(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "The schedules on today's network" in done.stdout
    # Both rows' cliques warn of TCP at the scale: said once, under the table.
    assert done.stdout.count("warning: TCP at scale 10000: ") == 1, done.stdout
    with open(path) as f:
        rows = list(csv.DictReader(f))
    assert [(r["schedule"], r["collective"], r["impairment"]) for r in rows] == [
        ("pairs", "ring all-reduce", "none"), ("pairs", "ring all-reduce", "loss 5%")]
    none, loss = rows
    for r in rows:
        # Round 1 of pairs: 3 pairs, 24 records each (a ring of 2 at 12 chunks).
        assert float(r["megabytes"]) == pytest.approx(3 * 24 * RECORD / 1e6, rel=1e-5)
        assert r["exact"] == "1"
        # One round: the mean is the slowest.
        assert float(r["mean_ms"]) == pytest.approx(float(r["slowest_ms"]), rel=1e-5)
    assert float(none["inflation_percent"]) == 0
    assert int(none["retransmissions"]) == 0
    # 5% on every link class: TCP repairs what is lost, and it costs time.
    assert int(loss["retransmissions"]) > 0
    assert float(loss["inflation_percent"]) == pytest.approx(
        100 * (float(loss["mean_ms"]) / float(none["mean_ms"]) - 1), rel=1e-4)
    assert float(loss["inflation_percent"]) > 0


@pytest.mark.programs
def test_time_to_target_of_todays_collectives():
    """--training trains over the collectives too: an all-reduce of every
    island each round, so a round is the compute (250 ms by default) plus
    the sync, and the target comes after the same rounds for the ring and
    the parameter server (both are W = J), each at its own time."""
    from wan_training import ns3_dir

    done = subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                           "nine-city-cliques --packetSchedule=pairs --hbmGB=0 --scale=10000 "
                           "--rounds=1 --baselines=false --collectives=ring,ps "
                           "--training=quadratic --trainingRounds=20 --quiet"],
                          cwd=ns3_dir(), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    part = done.stdout.split("Today's collectives over TCP among every island")[1]
    part = part.split("The schedules on today's network")[0]
    # Each collective warns that TCP at the scale is not scale-free, once.
    assert part.count("  warning: TCP at scale 10000: ") == 2, part
    found = re.findall(r"over TCP \([^)]*\): ([\d.]+) ms, .*\n(?:  warning: .*\n)*"
                       r"  training \(quadratic, wait\): "
                       r"20 rounds in ([\d.]+) s; .*consensus distance ([\d.e+-]+)\); target "
                       r"[\d.]+ after (\d+) rounds, ([\d.]+) s", part)
    assert len(found) == 2, part
    for ms, total, consensus, rounds, seconds in found:
        round_s = 0.25 + float(ms) / 1e3
        assert float(total) == pytest.approx(20 * round_s, rel=1e-3)
        assert float(seconds) == pytest.approx(int(rounds) * round_s, rel=1e-3)
        assert float(consensus) < 1e-20
    assert found[0][3] == found[1][3]


@pytest.mark.bindings
def test_collective_rounds_train_through_the_bindings():
    """The same from Python: a ring all-reduce's sync as the training
    loop's rounds (WanCollectiveTraining.AsRun)."""
    from wan_training import ns

    topo = ns.WanTopology.NineCity()
    experiment = ns.WanCollectiveExperiment(topo)
    experiment.SetScale(10000)
    sync = experiment.Run(ns.WanCollectiveExperiment.RING)
    assert sync.exact
    run = ns.WanCollectiveTraining.AsRun(topo.GetNCities(), sync)
    assert run.feasible and run.rounds.size() == 1
    assert run.rounds[0].mixedMs == pytest.approx(sync.seconds * 1e3)
    loop = ns.WanTrainingLoop()
    loop.SetAttribute("Rounds", ns.UintegerValue(10))
    trained = loop.Train(run)
    step = trained.computeS + sync.seconds
    assert trained.history.back().timeS == pytest.approx(10 * step)
    assert trained.history.back().consensusDistance < 1e-20
