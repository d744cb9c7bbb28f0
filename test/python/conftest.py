# SPDX-License-Identifier: GPL-2.0-only
"""pytest settings of the Python tests.

Marker "bindings": a test that checks the Python bindings against the C++
programs on the release they were built for.  scripts/test.sh runs every test
on ns-3 from PyPI and these on ns-3 from source as well.
"""


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "bindings: checks the bindings against the C++ programs (run on every release)")
