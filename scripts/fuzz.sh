#!/usr/bin/env bash
# Fuzzes the module's readers of outside input with libFuzzer under the
# address and undefined-behaviour sanitizers: the topology files (JSON, CSV),
# the schedule file, the option readers (faults, numbers, schedule:GB, link
# classes, fault policy), a rank's saved round records and the three headers
# the module puts on the wire (chunk, BFD, PIM).  The targets and their
# contract are test/fuzz/wan-fuzz-targets.h: accept, or refuse with one clear
# line; anything else (a crash, a sanitizer report, another exception, a
# refusal over several lines, an input slower than --timeout) is a finding.
#
# Needs the ns-3 tree of scripts/setup.sh (its libraries stay uninstrumented;
# the module's sources are compiled again with clang-14 into
# $NS3_DIR/build-fuzz, scripts/fuzz_build.py) and installs clang-14 and
# libclang-rt-14-dev (libFuzzer) from Debian when missing.  Each target starts
# from its seed corpus in test/fuzz/corpus/TARGET (read only) and a working
# corpus in the module cache (fuzz-corpus/TARGET, kept between runs).  A
# finding is saved as fuzz-findings/TARGET-crash-...; copy it into the seed
# corpus as found-NAME once fixed (the suite wan-training-fuzz-corpus replays
# the seed corpus with the tests).
#
# Prints one line per target (executions, executions per second, coverage
# counters, features, corpus size, seconds, result), writes them to
# fuzz-figures.csv in the module cache, and exits non-zero on any finding.
#
# Usage: scripts/fuzz.sh [--target=NAME] [--runs=N | --time=SECONDS] [--timeout=SECONDS]
#   --target=NAME    that target only (default: every target)
#   --runs=N         executions per target (default 1000000)
#   --time=SECONDS   fuzz each target this long instead of --runs
#   --timeout=S      an input slower than this is a finding (default 10)

# SPDX-License-Identifier: GPL-2.0-only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

only=""
runs=1000000
seconds=""
timeout=10
for arg in "$@"; do
    case "$arg" in
    -h | --help)
        awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"
        exit 0
        ;;
    --target=*) only="${arg#--target=}" ;;
    --runs=*) runs="${arg#--runs=}" ;;
    --time=*) seconds="${arg#--time=}" ;;
    --timeout=*) timeout="${arg#--timeout=}" ;;
    *)
        echo "fuzz.sh: unknown option '$arg' (try --help)" >&2
        exit 2
        ;;
    esac
done
for n in "$runs" "${seconds:-1}" "$timeout"; do
    [[ "$n" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: '$n' is not a whole number above 0" >&2; exit 2; }
done

wt_install_packages clang-14 libclang-rt-14-dev
wt_obtain_ns3
[ -f "$NS3_DIR/cmake-cache/compile_commands.json" ] ||
    wt_die "no ns-3 build in $NS3_DIR (run scripts/setup.sh first)"
wt_link_module
# The tree's build must know the fuzz targets' sources (its compile commands
# give their flags).
wt_build
out="$NS3_DIR/build-fuzz"
python3 "$here/fuzz_build.py" --tree "$NS3_DIR" --module "$WT_MODULE_DIR" --out "$out"
wt_log "building the fuzzer (jobs: $WT_JOBS): $out/wan-fuzz"
ninja -C "$out" -j "$WT_JOBS" >/dev/null || { ninja -C "$out" -j 1 | tail -n 30; wt_die "the fuzzer does not build"; }

seeds="$WT_MODULE_DIR/test/fuzz/corpus"
targets="$only"
[ -n "$targets" ] || targets="$(ls "$seeds")"
[ -d "$seeds/${only:-.}" ] || wt_die "no target '$only' (targets: $(ls "$seeds" | tr '\n' ' '))"
figures="$WT_CACHE/fuzz-figures.csv"
echo "target,executions,executions_per_second,coverage,features,corpus,seconds,result" >"$figures"
printf '%-24s %10s %8s %6s %7s %7s %7s  %s\n' target executions exec/s cov ft corpus seconds result
failed=0
for t in $targets; do
    work="$WT_CACHE/fuzz-corpus/$t"
    findings="$WT_CACHE/fuzz-findings"
    mkdir -p "$work" "$findings"
    limit=(-runs="$runs")
    [ -z "$seconds" ] || limit=(-max_total_time="$seconds")
    dict=()
    [ ! -f "$WT_MODULE_DIR/test/fuzz/$t.dict" ] || dict=(-dict="$WT_MODULE_DIR/test/fuzz/$t.dict")
    log="$WT_CACHE/fuzz-$t.log"
    start=$SECONDS
    rc=0
    WAN_FUZZ_TARGET="$t" ASAN_OPTIONS="detect_leaks=1:allocator_may_return_null=1" \
        "$out/wan-fuzz" "${limit[@]}" "${dict[@]}" -timeout="$timeout" -rss_limit_mb=4096 \
        -print_final_stats=1 -artifact_prefix="$findings/$t-" "$work" "$seeds/$t" >"$log" 2>&1 || rc=$?
    elapsed=$((SECONDS - start))
    execs="$(awk '/stat::number_of_executed_units/ {print $2}' "$log")"
    rate="$(awk '/stat::average_exec_per_sec/ {print $2}' "$log")"
    last="$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -n 1)"
    cov="$(sed -nE 's/.* cov: ([0-9]+).*/\1/p' <<<"$last")"
    ft="$(sed -nE 's/.* ft: ([0-9]+).*/\1/p' <<<"$last")"
    corp="$(sed -nE 's/.* corp: ([0-9]+).*/\1/p' <<<"$last")"
    result="passed"
    if [ "$rc" != 0 ]; then
        failed=$((failed + 1))
        result="FINDING (exit $rc): $(grep -m1 -E 'ERROR|wan-fuzz:|SUMMARY' "$log" || true) $(grep -o "$findings/[^ ]*" "$log" | tail -n 1)"
        tail -n 40 "$log" >&2
    fi
    printf '%-24s %10s %8s %6s %7s %7s %7s  %s\n' "$t" "${execs:--}" "${rate:--}" "${cov:--}" \
        "${ft:--}" "${corp:--}" "$elapsed" "$result"
    echo "$t,${execs:-},${rate:-},${cov:-},${ft:-},${corp:-},$elapsed,\"${result//\"/\'}\"" >>"$figures"
done
wt_log "figures: $figures"
wt_log "wan-training fuzzing: $failed of $(wc -w <<<"$targets") targets with findings"
[ "$failed" = 0 ]
