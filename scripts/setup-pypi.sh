#!/usr/bin/env bash
# The quick setup: ns-3 from PyPI's ns3 package (no ns-3 compile).
#
# Installs the Debian packages the module needs, creates a virtual environment
# in the cache folder with ns3 (ns-3 3.44 built: libraries, headers, CMake
# package, Python bindings), the cppyy release it requires, matplotlib, pytest
# and SEM, builds the module against it with CMake, Ninja, all cores and
# ccache, and runs the nine-city-cliques example.  Every step is skipped when
# its result is already there, so a second run costs seconds.  Then:
#   <cache>/pypi-venv/bin/python scripts/paper_table.py
#   <cache>/pypi-build/ns3 run "nine-city-cliques --help"
#
# Usage: scripts/setup-pypi.sh [--no-run] [-- example arguments]
#
# Environment:
#   WAN_TRAINING_CACHE  cache folder (default: ${XDG_CACHE_HOME:-$HOME/.cache}/wan-training)
#   NS3_PYPI_VERSION    release of PyPI's ns3 package (default: 3.44.post0)

# SPDX-License-Identifier: GPL-2.0-only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

wt_setup_options "$0" "$@"
[ "$build_optimized" = 0 ] || wt_die "--optimized is for scripts/setup.sh (the ns-3 tree); the PyPI build is a release build already"

wt_prepare_pypi
wt_log "ready: $WT_PYPI_PYTHON (Python with ns-3 and this module), $WT_PYPI_BUILD/ns3 (programs)"
if [ "$run_example" = 1 ]; then
    "$WT_PYPI_BUILD/ns3" run --no-build nine-city-cliques -- "${example_args[@]}"
fi
