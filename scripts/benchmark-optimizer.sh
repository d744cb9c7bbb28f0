#!/usr/bin/env bash
# Benchmark of the schedule optimizer (wan-training-optimise).
#
# Runs, with the ns-3 tree that scripts/setup.sh prepared, the optimizer on
#   1. the nine-city topology (default bounds: period <= 3, any clique size,
#      20000 annealing steps);
#   2. synthetic random geometric WANs of N = 16, 32 and 64 cities in 4
#      regions (topology seed 1), with the annealing budget given below.
# For each it prints wall time, peak resident memory, the best J against the
# best built-in schedule, the coverage of the search space, and the cost of
# one distinct schedule evaluated (round planner for new rounds + mixing).
# Figures, not pass/fail: this is not a test.
#
# Usage: scripts/benchmark-optimizer.sh [-h|--help] [N64_EVALUATIONS]
#   N64_EVALUATIONS: annealing steps for N = 64 (default 20000, as for the others)

# SPDX-License-Identifier: GPL-2.0-only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

case "${1:-}" in
-h | --help)
    sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac
n64="${1:-20000}"

wt_prepare >/dev/null

command -v /usr/bin/time >/dev/null || { wt_sudo apt-get install -y -qq time >/dev/null; }

run() {
    local label="$1"
    shift
    local out err
    out="$(mktemp)"
    err="$(mktemp)"
    (cd "$NS3_DIR" && /usr/bin/time -v ./ns3 run --no-build "wan-training-optimise $*" >"$out" 2>"$err")
    local wall rss
    wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$err")"
    rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$err")"
    local seconds
    seconds="$(echo "$wall" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')"
    local search distinct jbest jbuiltin
    search="$(grep '  search:' "$out" | sed 's/^ *//')"
    distinct="$(echo "$search" | sed -n 's/.* steps, \([0-9]*\) distinct.*/\1/p')"
    jbest="$(sed -n 's/.*, J \([0-9.e+-]*\) ms-error$/\1/p' "$out" | head -n 1)"
    jbuiltin="$(sed -n 's/.*built-in schedules: \(.*\)$/\1/p' "$out")"
    printf '%-30s wall %7.1f s  peak RSS %6.1f MB  %s per distinct schedule\n' "$label" "$seconds" \
        "$(awk -v k="$rss" 'BEGIN {print k / 1024}')" \
        "$(awk -v s="$seconds" -v d="$distinct" 'BEGIN {printf "%.2f ms", (d > 0) ? 1000 * s / d : 0}')"
    printf '    best J %s ms-error; best built-in: %s\n    %s\n' "${jbest:--}" "$jbuiltin" "$search"
    rm -f "$out" "$err"
}

run "nine cities" --evaluations=20000
run "N = 16 (synthetic)" --synthetic=16 --regions=4 --evaluations=20000
run "N = 32 (synthetic)" --synthetic=32 --regions=4 --evaluations=20000
run "N = 64 (synthetic)" --synthetic=64 --regions=4 --evaluations="$n64"
