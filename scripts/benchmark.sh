#!/usr/bin/env bash
# Packet-level benchmark of the wan-training module.
#
# Runs, with the ns-3 tree that scripts/setup.sh prepared:
#   1. one full-scale round of triangles (D = 1 GB, scale 1, multicast + FPGA);
#   2. the default scaled run of nine-city-cliques (scale 100, with baselines);
#   3. the full-scale round again with D = 2 GB, to show that peak memory does
#      not grow with D;
#   4. the same round's packets through plain ns-3 UDP applications
#      (wan-udp-baseline), and the ratio of wall time per packet sent.
# For each it prints wall time, simulated events, events per second and peak
# resident memory.  Figures, not pass/fail: this is not a test.
#
# Usage: scripts/benchmark.sh [-h|--help]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

case "${1:-}" in
-h | --help)
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
esac

wt_prepare >/dev/null

command -v /usr/bin/time >/dev/null || { wt_sudo apt-get install -y -qq time >/dev/null; }

run() {
    local program="$1"
    local label="$2"
    shift 2
    local out err
    out="$(mktemp)"
    err="$(mktemp)"
    (cd "$NS3_DIR" && /usr/bin/time -v ./ns3 run --no-build "$program $*" >"$out" 2>"$err")
    local wall rss events
    wall="$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$err")"
    rss="$(awk -F': ' '/Maximum resident set size/ {print $2}' "$err")"
    events="$(grep -o '[0-9]* events' "$out" | awk '{s += $1} END {print s + 0}')"
    local seconds
    seconds="$(echo "$wall" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')"
    printf '%-44s wall %8.1f s  events %10d  events/s %9.0f  peak RSS %7.1f MB\n' \
        "$label" "$seconds" "$events" "$(awk -v e="$events" -v s="$seconds" 'BEGIN {print (s > 0) ? e / s : 0}')" \
        "$(awk -v k="$rss" 'BEGIN {print k / 1024}')"
    grep -E '^  round|^UDP' "$out" | sed 's/^/    /'
    LAST_WALL="$seconds"
    rm -f "$out" "$err"
}

run nine-city-cliques "full scale, 1 round of triangles, D = 1 GB" \
    --packetSchedule=triangles --scale=1 --rounds=1 --baselines=false --hbmGB=0
ours="$LAST_WALL"
run nine-city-cliques "default scaled run (scale 100, baselines)" --hbmGB=0
run nine-city-cliques "full scale, 1 round of triangles, D = 2 GB" \
    --packetSchedule=triangles --scale=1 --rounds=1 --baselines=false --hbmGB=0 --payload=2e9
run wan-udp-baseline "plain ns-3 UDP, same packets, scale 1" --scale=1
udp="$LAST_WALL"
# Both runs send the same number of packets from the islands.
awk -v o="$ours" -v u="$udp" 'BEGIN {printf "per-packet cost, wan-training / plain UDP: %.2f\n", (u > 0) ? o / u : 0}'
