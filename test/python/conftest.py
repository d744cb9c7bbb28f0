# SPDX-License-Identifier: GPL-2.0-only
"""pytest settings of the Python tests.

Marker "bindings": a test that checks the Python bindings against the C++
programs on the release they were built for.  Marker "programs": a test of the
C++ programs alone (their options, outputs and traces: the same code on every
release).
scripts/test.sh runs the "bindings" and "programs" tests on ns-3 from source,
and every test but the "programs" ones on ns-3 from PyPI (every test when it
tests one release).
"""


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "bindings: checks the bindings against the C++ programs (run on every release)")
    config.addinivalue_line(
        "markers", "programs: checks the C++ programs' options, outputs and traces (run on one release)")
