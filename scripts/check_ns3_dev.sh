#!/usr/bin/env bash
# Checks the module against an ns-3 tree the user has, before a release:
# current ns-3-dev (a git checkout of https://gitlab.com/nsnam/ns-3-dev) or any
# release newer than the one the README's commands set up.
#
# In the tree given: links the module into contrib/, configures it as
# scripts/setup.sh configures ns-3.37 (MPI, this module's examples and tests,
# Python bindings), compiles every source of the module again (the objects of a
# former build are removed, so that every warning is printed), then runs what
# scripts/test.sh runs on a source tree (the module's style check, every
# wan-training suite, the examples, the Python tests, the distributed check on
# 2 and 3 ranks), then the tree's own style script
# (utils/check-style-clang-format.py) on the module, with the pinned
# clang-format.  The tree's virtual environment and the rest of what the check
# keeps live in the module cache's ns-3-check/ folder, apart from the README's
# own (a newer tree pins another cppyy).  Ends with the tree's commit, the
# module's compiler warnings (each printed) and the counts, and exits non-zero
# when a check failed or the module's sources warned.
#
# Usage: scripts/check_ns3_dev.sh NS3_TREE

# SPDX-License-Identifier: GPL-2.0-only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
case "${1:-}" in
-h | --help | "")
    sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
    [ -n "${1:-}" ] || exit 2
    exit 0
    ;;
esac
[ $# = 1 ] || { echo "check_ns3_dev.sh: one argument, the ns-3 tree (try --help)" >&2; exit 2; }
[ -x "$1/ns3" ] || { echo "check_ns3_dev.sh: $1 is not an ns-3 source tree (no ns3 script)" >&2; exit 2; }
tree="$(cd "$1" && pwd)"

# shellcheck source=scripts/common.sh
source "$here/common.sh"
export NS3_DIR="$tree"
export WAN_TRAINING_CACHE="$WT_CACHE/ns-3-check"
commit="$(git -C "$tree" rev-parse HEAD 2>/dev/null || echo "unknown (not a git checkout)")"

# Every object of the module compiled again (ccache replays a cached compile's
# warnings too).
[ ! -d "$tree/cmake-cache/contrib/wan-training" ] ||
    find "$tree/cmake-cache/contrib/wan-training" -name '*.o' -delete

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
rc=0
bash "$here/test.sh" --only=source 2>&1 | tee "$log" || rc=$?

style_rc=0
(cd "$tree" && PATH="$WAN_TRAINING_CACHE/venv/bin:$PATH" \
    "$WAN_TRAINING_CACHE/venv/bin/python" utils/check-style-clang-format.py contrib/wan-training/) ||
    style_rc=$?

# The module's warnings: compiler lines naming a file of the module.
mapfile -t warnings < <({ grep -E 'contrib/wan-training/[^:]*:[0-9]+:[0-9]+: warning:' "$log" ||
    true; } | sort -u)
echo "ns-3 tree $tree, commit $commit"
echo "the module's compiler warnings: ${#warnings[@]}"
[ ${#warnings[@]} = 0 ] || printf '  %s\n' "${warnings[@]}"
grep -E '^wan-training: [0-9]+ passed' "$log" | tail -n 1 || true
echo "the tree's style script on the module: $([ "$style_rc" = 0 ] && echo passed || echo "FAILED (exit $style_rc)")"
[ "$rc" = 0 ] && [ "$style_rc" = 0 ] && [ ${#warnings[@]} = 0 ]
