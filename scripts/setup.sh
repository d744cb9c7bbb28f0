#!/usr/bin/env bash
# One-command setup for the wan-training ns-3 module.
#
# Installs the Debian packages the module needs, obtains an ns-3 source tree
# (Debian's ns3 source package, unpacked in a cache folder outside this
# repository, or the tree named by NS3_DIR), creates a virtual environment
# there for the Python packages (cppyy for the bindings, the scripts'
# packages), links this module into the tree's contrib/ folder, configures the
# ns-3 modules it needs with MPI and with this module's examples and tests
# only, builds with all cores and ccache, and runs the nine-city-cliques
# example.  Every step is skipped when its result is already there, so a
# second run costs seconds.  With --optimized it also builds the tree a second
# time with ns-3's optimized profile, in its own folders
# (cmake-cache-optimized, build-optimized), for scripts/benchmark.sh; with
# --mpi, that optimized build with ns-3's MPI module (cmake-cache-mpi,
# build-mpi), for benchmark.sh's distributed runs.
#
# Usage: scripts/setup.sh [--no-run] [--optimized] [--mpi] [-- example arguments]
#
# Environment:
#   NS3_DIR             an existing ns-3 source tree to use instead of the cached one
#   WAN_TRAINING_CACHE  cache folder (default: ${XDG_CACHE_HOME:-$HOME/.cache}/wan-training)
#   NS3_VERSION         Debian source version of ns-3 to fetch (default: newest served)

# SPDX-License-Identifier: GPL-2.0-only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

wt_setup_options "$0" "$@"

wt_prepare
if [ "$build_optimized" = 1 ]; then
    wt_build_optimized
fi
if [ "$build_mpi" = 1 ]; then
    wt_build_mpi
fi
if [ "$run_example" = 1 ]; then
    if [ ${#example_args[@]} -gt 0 ]; then
        wt_ns3 run --no-build nine-city-cliques -- "${example_args[@]}"
    else
        wt_ns3 run --no-build nine-city-cliques
    fi
fi
