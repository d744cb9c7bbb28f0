# SPDX-License-Identifier: GPL-2.0-only
"""The copyable first example: wan-first-round (C++) and its Python twin,
examples/wan-first-round.py, print the same round, figure for figure."""

import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
TWIN = os.path.join(HERE, "..", "..", "examples", "wan-first-round.py")


def both(args):
    """(C++ output, Python output) of one set of options."""
    from wan_training import ns3_dir

    cpp = subprocess.run([os.path.join(ns3_dir(), "ns3"), "run", "--no-build",
                          "wan-first-round " + " ".join("--%s=%s" % a for a in args)],
                         cwd=ns3_dir(), capture_output=True, text=True, timeout=600)
    assert cpp.returncode == 0, cpp.stderr
    py = subprocess.run([sys.executable, TWIN] + ["--%s=%s" % a for a in args],
                        capture_output=True, text=True, timeout=600)
    assert py.returncode == 0, py.stderr
    return cpp.stdout, py.stdout


@pytest.mark.bindings
@pytest.mark.parametrize("schedule, hbm, islands", [("triangles", 0, 9), ("all-to-all", 32, 9),
                                                    ("pairs", 0, 6)])
def test_the_python_twin_prints_the_same_round(schedule, hbm, islands):
    cpp, py = both([("schedule", schedule), ("hbmGB", hbm), ("scale", 1000)])
    lines = cpp.strip().splitlines()
    assert lines[0].startswith("%s, round 1 at scale 1000.0: planner T " % schedule)
    done = re.findall(r"^  ([A-Z]{3}): done at ([\d.]+) ms, ([\d.]+) GB in, sum (\S+)$", cpp,
                      re.MULTILINE)
    # Every member of a clique of two or more, once; every sum exact; the
    # last island done within 10% below the planner's T (its bound on the
    # slowest clique) and 5% above (the scale's store and forward).
    assert len(done) == islands and len({city for city, *_ in done}) == islands
    assert all(exact == "exact" for *_, exact in done)
    planned = float(lines[0].rsplit(" ", 2)[1])
    assert 0.9 * planned <= max(float(ms) for _, ms, _, _ in done) <= 1.05 * planned
    assert lines[-1].startswith("  FPGA evictions:")
    assert py == cpp
