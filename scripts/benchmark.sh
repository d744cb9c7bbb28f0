#!/usr/bin/env bash
# Packet-level benchmark of the wan-training module.
#
# Runs, with the ns-3 tree that scripts/setup.sh prepared:
#   1. one full-scale round of triangles (D = 1 GB, scale 1, multicast + FPGA,
#      lossless, the data alone: --recovery=accept);
#   2. the same round's packets through plain ns-3 UDP applications
#      (wan-udp-baseline): each to one peer by unicast, and each to its clique
#      over the same multicast trees (the same packet hops, without FPGAs);
#      1 and 2 WAN_TRAINING_BENCH_RUNS times each (default 5), interleaved, so
#      that the machine's drift reaches every program alike, with each one's
#      mean and 95% confidence interval and the ratios of wall time per packet
#      sent (per run, paired, then their mean and interval);
#   3. the default scaled run of nine-city-cliques (scale 100, with baselines);
#   4. the full-scale round again with D = 2 GB, to show that peak memory does
#      not grow with D, and with the default recovery (its first round's parity).
#   5. one sync of the paper's system (all-to-all with 32 GB) against today's
#      collectives over ns-3's TCP (ring all-reduce, parameter server) for the
#      same D at scale 100: events and wall time per MB the islands send
#      (scripts/collectives_benchmark.py, WAN_TRAINING_BENCH_RUNS repeats each,
#      interleaved, with the ratios against the paper's system).
# For each it prints wall time, simulated events, events per second and peak
# resident memory.  When the optimized build is there (scripts/setup.sh
# --optimized), every run is repeated with it, side by side, and the speedup of
# the optimized profile closes the report.  When the MPI build is there
# (scripts/setup.sh --mpi), the full-scale round runs once more with it in one
# process and on 2 ranks under mpiexec (granted time window and null messages,
# cities split by WAN_TRAINING_PARTITION, any --partition value: by default
# balanced, the run's planned work), WAN_TRAINING_BENCH_RUNS times each,
# interleaved, with each configuration's mean and 95% confidence interval and
# the speedup of 2 ranks over 1.  A build that is not there is named as skipped
# and the script still ends with exit 0.  Figures, not pass/fail: this is not a
# test.
#
# Usage: scripts/benchmark.sh [-h|--help]

# SPDX-License-Identifier: GPL-2.0-only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

case "${1:-}" in
-h | --help)
    sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac

wt_prepare >/dev/null

command -v /usr/bin/time >/dev/null || { wt_sudo apt-get install -y -qq time >/dev/null; }

# run PROFILE PROGRAM LABEL ARGS...: one run, with the default build through
# ./ns3 or with the optimized build's program; sets LAST_WALL (seconds).
run() {
    local profile="$1" program="$2" label="$3"
    shift 3
    if [ "$profile" = default ]; then
        timed "$profile" "$label" ./ns3 run --no-build "$program $*"
    else
        timed "$profile" "$label" "$(wt_optimized_program "$program")" "$@"
    fi
}

# timed PROFILE LABEL COMMAND...: one timed run of COMMAND in the ns-3 tree
# (peak memory: of the largest process); sets LAST_WALL (seconds).
timed() {
    local profile="$1" label="$2"
    shift 2
    local out err
    out="$(mktemp)"
    err="$(mktemp)"
    (cd "$NS3_DIR" && /usr/bin/time -v "$@" >"$out" 2>"$err") ||
        { cat "$err" >&2; wt_die "$label: the run failed"; }
    local wall rss events
    wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$err")"
    rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$err")"
    events="$(grep -o '[0-9]* events' "$out" | awk '{s += $1} END {print s + 0}')"
    local seconds
    seconds="$(echo "$wall" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')"
    printf '%-10s %-44s wall %8.1f s  events %10d  events/s %9.0f  peak RSS %7.1f MB\n' \
        "$profile" "$label" "$seconds" "$events" \
        "$(awk -v e="$events" -v s="$seconds" 'BEGIN {print (s > 0) ? e / s : 0}')" \
        "$(awk -v k="$rss" 'BEGIN {print k / 1024}')"
    grep -E '^  round|^UDP|^Distributed run' "$out" | sed 's/^/    /'
    LAST_WALL="$seconds"
    rm -f "$out" "$err"
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}'; }

# mean_ci "V1 V2 ...": the mean and the half-width of its 95% confidence
# interval (wan_training.mean_ci, as the experiment scripts).
# shellcheck disable=SC2086  # $1 split: one argument per value
mean_ci() {
    PYTHONPATH="$WT_MODULE_DIR/python" "$WT_PYTHON" -c 'import sys, wan_training
print("%.3f %.3f" % wan_training.mean_ci([float(w) for w in sys.argv[1:]]))' $1
}

runs="${WAN_TRAINING_BENCH_RUNS:-5}"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || wt_die "WAN_TRAINING_BENCH_RUNS must be a positive integer (got '$runs')"

# One full-scale round of triangles: the runs that the per-packet ratios and the
# distributed speedup compare.  Lossless, with the recovery that sends the data
# alone (accept): the packets the UDP replay sends.  The default recovery (best)
# adds its prior's parity rows to a first round (12 per block of 112), which the
# replay does not send; its round runs once more below, on its own.  Without
# today's TCP collectives (--collectives=none): nine-city-cliques runs them after
# the rounds by default, and at scale 1 ns-3's TCP takes far longer than the round.
round=(--packetSchedule=triangles --scale=1 --rounds=1 --baselines=false --hbmGB=0 --quiet
    --recovery=accept --collectives=none)
profiles=(default)
if [ -n "$(wt_optimized_program nine-city-cliques)" ]; then
    profiles+=(optimized)
else
    echo "skipped: the optimized profile (no optimized build; scripts/setup.sh --optimized makes it)"
fi
# The three programs of the per-packet ratios, interleaved run by run; they send
# the same number of packets from the islands.
declare -A ours udp udpm scaled
for ((i = 1; i <= runs; ++i)); do
    for profile in "${profiles[@]}"; do
        run "$profile" nine-city-cliques "full scale, 1 round of triangles (run $i)" "${round[@]}"
        ours[$profile]+="$LAST_WALL "
        run "$profile" wan-udp-baseline "plain ns-3 UDP, same packets (run $i)" --scale=1
        udp[$profile]+="$LAST_WALL "
        run "$profile" wan-udp-baseline "plain ns-3 UDP, multicast trees (run $i)" --scale=1 \
            --multicast
        udpm[$profile]+="$LAST_WALL "
    done
done
for profile in "${profiles[@]}"; do
    run "$profile" nine-city-cliques "default scaled run (scale 100, baselines)" --hbmGB=0 --quiet
    scaled[$profile]="$LAST_WALL"
    run "$profile" nine-city-cliques "full scale, 1 round of triangles, D = 2 GB" \
        "${round[@]}" --payload=2e9
    run "$profile" nine-city-cliques "full scale, 1 round, default recovery (parity)" \
        "${round[@]}" --recovery=best
done
# paired "A1 A2 ..." "B1 B2 ...": the ratios A_i / B_i, space-separated.
paired() { paste -d' ' <(tr ' ' '\n' <<<"$1" | grep .) <(tr ' ' '\n' <<<"$2" | grep .) |
    awk '{printf "%s ", ($2 > 0) ? $1 / $2 : 0}'; }
echo "per-packet cost, $runs runs each, interleaved (mean +/- 95% CI):"
for profile in "${profiles[@]}"; do
    for what in ours udp udpm; do
        declare -n series="$what"
        read -r m h <<<"$(mean_ci "${series[$profile]}")"
        printf '  %-9s %-44s %8.2f +/- %.2f s\n' "$profile" \
            "$(case $what in ours) echo "wan-training, full-scale round" ;;
                udp) echo "plain UDP, unicast to one peer" ;;
                *) echo "plain UDP, over the same multicast trees" ;; esac)" "$m" "$h"
        unset -n series
    done
    for base in udp udpm; do
        declare -n series="$base"
        read -r m h <<<"$(mean_ci "$(paired "${ours[$profile]}" "${series[$profile]}")")"
        printf '  %-9s wan-training / plain UDP, %-27s %.3f +/- %.3f x per packet\n' "$profile" \
            "$([ "$base" = udp ] && echo "unicast to one peer:" || echo "same multicast trees:")" \
            "$m" "$h"
        unset -n series
    done
done
if [ ${#profiles[@]} -gt 1 ]; then
    read -r od _ <<<"$(mean_ci "${ours[default]}")"
    read -r oo _ <<<"$(mean_ci "${ours[optimized]}")"
    read -r ud _ <<<"$(mean_ci "${udp[default]}")"
    read -r uo _ <<<"$(mean_ci "${udp[optimized]}")"
    echo "optimized profile speedup: full-scale round $(ratio "$od" "$oo")x," \
        "scaled run $(ratio "${scaled[default]}" "${scaled[optimized]}")x," \
        "plain UDP $(ratio "$ud" "$uo")x"
fi

# One sync, the paper's system against TCP collectives, events and wall time per
# MB sent (default profile, through the Python bindings).
echo "one sync, the paper's system against TCP collectives, scale 100, $runs repeats each:"
bench_out="$(mktemp -d)"
PYTHONPATH="$WT_MODULE_DIR/python" NS3_DIR="$NS3_DIR" "$WT_PYTHON" \
    "$here/collectives_benchmark.py" --repeats "$runs" --output "$bench_out" 2>/dev/null |
    sed 's/^/  /'
rm -rf "$bench_out"

# Distributed runs: the full-scale round with the MPI build, in one process and
# on two ranks (one core each), WAN_TRAINING_BENCH_RUNS times each (default 5),
# interleaved, so that the machine's drift reaches every configuration alike.
mpi_program="$(wt_mpi_program nine-city-cliques)"
if [ -n "$mpi_program" ]; then
    partition="${WAN_TRAINING_PARTITION:-balanced}"
    mpi=(mpiexec -np 2 --bind-to core)
    [ "$(id -u)" != 0 ] || mpi+=(--allow-run-as-root)
    declare -A walls
    for ((i = 1; i <= runs; ++i)); do
        timed mpi "full scale, triangles, 1 process (run $i)" "$mpi_program" "${round[@]}"
        walls[one]+="$LAST_WALL "
        for sync in gtw null; do
            timed mpi "full scale, triangles, 2 ranks ($sync, run $i)" "${mpi[@]}" \
                "$mpi_program" "${round[@]}" --mpi="$sync" --partition="$partition"
            walls[$sync]+="$LAST_WALL "
        done
    done
    declare -A mean
    echo "distributed runs, $runs each (mean +/- 95% CI), partition $partition:"
    for config in one gtw null; do
        read -r m h <<<"$(mean_ci "${walls[$config]}")"
        mean[$config]="$m"
        printf '  %-34s %7.2f +/- %.2f s  (%s)\n' \
            "$([ "$config" = one ] && echo "1 process" || echo "2 ranks ($config)")" "$m" "$h" \
            "$(echo "${walls[$config]}" | sed 's/ *$//; s/ /, /g')"
    done
    echo "distributed speedup, 2 ranks over 1 process (means):" \
        "gtw $(ratio "${mean[one]}" "${mean[gtw]}")x, null messages $(ratio "${mean[one]}" "${mean[null]}")x"
else
    echo "skipped: the distributed runs (no MPI build; scripts/setup.sh --mpi makes it)"
fi
