#!/usr/bin/env bash
# Runs the module's tests under ns-3's sanitizers: address, leak and
# undefined behaviour (NS3_SANITIZE).
#
# Builds the ns-3.37 tree of scripts/setup.sh a second time, in its own
# folders ($NS3_DIR/cmake-cache-sanitize and build-sanitize; the default build
# is left alone), with the modules the module needs, its tests and examples,
# MPI, and -fsanitize=address,leak,undefined (the programs with the C
# library's allocator, which AddressSanitizer replaces, not jemalloc); then
# runs, each under the sanitizers, every example test/examples-to-run.py marks
# to run and every wan-training-* test suite (through the test runner), as many
# at a time as there are build jobs, then the distributed check
# (scripts/distributed_check.py --onePerCase: each case on 2 or 3 ranks against
# one process).  A
# sanitizer report ends the program that made it with exit code 23 and fails
# its check; reports inside code the module cannot fix (ns-3's own, third-party
# libraries) are suppressed by test/sanitizer/lsan.supp and ubsan.supp, each
# line with its reason; the distributed check runs without leak detection
# (Open MPI's allocations kept until exit).  Prints one line per check and
# ends with "wan-training sanitizers: N passed, M failed"; exits non-zero when
# anything failed.
#
# Usage: scripts/sanitize.sh [--suite=NAME]
#   --suite=NAME   that test suite only (no examples, no distributed check)

# SPDX-License-Identifier: GPL-2.0-only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

only_suite=""
case "${1:-}" in
-h | --help)
    awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0"
    exit 0
    ;;
--suite=*) only_suite="${1#--suite=}" ;;
"") ;;
*)
    echo "sanitize.sh: unknown option '$1' (try --help)" >&2
    exit 2
    ;;
esac

WT_SANITIZE_CACHE="cmake-cache-sanitize"
WT_SANITIZE_OUT="build-sanitize"

# Every report is an error: the program stops at the first one, with exit
# code 23, and prints where it happened.
supp="$WT_MODULE_DIR/test/sanitizer"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:exitcode=23:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0:exitcode=23"
export UBSAN_OPTIONS="suppressions=$supp/ubsan.supp:halt_on_error=1:print_stacktrace=1:exitcode=23"

passed=0
failed=0
record() {
    if [ "$1" = 0 ]; then
        passed=$((passed + 1))
        wt_log "passed: $2"
    else
        failed=$((failed + 1))
        wt_log "FAILED ($1): $2"
    fi
}

# The sanitizer build: configured once (again when its arguments change),
# then built incrementally.  Configuring rewrites the tree's .lock-ns3_* file,
# which tells ./ns3 which build to use: the default build's is kept.
build_sanitized() {
    local dir="$NS3_DIR/$WT_SANITIZE_CACHE"
    local args=(-G Ninja -S "$NS3_DIR" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -fno-omit-frame-pointer"
        -DNS3_SANITIZE=ON -DNS3_WARNINGS_AS_ERRORS=OFF -DNS3_PRECOMPILE_HEADERS=ON
        -DNS3_TESTS=ON -DNS3_EXAMPLES=ON -DNS3_PYTHON_BINDINGS=OFF -DNS3_MPI=ON
        "-DNS3_ENABLED_MODULES=$WT_NS3_MODULES" -DNS3_FILTER_MODULE_EXAMPLES_AND_TESTS=wan-training
        "-DNS3_OUTPUT_DIRECTORY=$WT_SANITIZE_OUT" -DWAN_TRAINING_JEMALLOC=OFF)
    local stamp="$dir/.wan-training-configure"
    if ! [ -f "$stamp" ] || [ "$(cat "$stamp")" != "${args[*]}" ]; then
        wt_log "configuring the sanitizer build: $dir"
        wt_keeping_lock cmake "${args[@]}" >/dev/null || return 1
        printf '%s' "${args[*]}" >"$stamp"
    fi
    local programs=()
    mapfile -t programs < <(grep . "$dir/wan-training-programs.txt" 2>/dev/null)
    [ ${#programs[@]} -gt 0 ] || { wt_log "no $dir/wan-training-programs.txt"; return 1; }
    wt_log "building the sanitizer build (jobs: $WT_JOBS): test-runner ${programs[*]}"
    # The build configures again when a CMakeLists.txt changed, which rewrites
    # the lock file too.
    wt_keeping_lock cmake --build "$dir" -j "$WT_JOBS" --target test-runner "${programs[@]}"
}

# The sanitizer build's program $1.
sanitized_program() {
    find "$NS3_DIR/$WT_SANITIZE_OUT" -maxdepth 4 -type f -name "ns3*-$1-*" -perm -u+x \
        2>/dev/null | head -n 1
}

wt_install_packages
wt_obtain_ns3
wt_link_module
rc=0
build_sanitized || rc=$?
record "$rc" "sanitizer build ($NS3_DIR/$WT_SANITIZE_OUT)"
[ "$rc" = 0 ] || exit 1

runner="$(sanitized_program test-runner)"
suites="$only_suite"
if [ -z "$suites" ]; then
    suites="$("$runner" --list | grep '^wan-training-' | sort -u)" || true
    [ -n "$suites" ] || record 1 "the test runner lists no wan-training test suite"
fi
# The suites and the examples run $WT_JOBS at a time (each program is one
# thread), the examples first (the longest runs), each into its own log,
# printed when it fails.
logs="$(mktemp -d)"
jobs=()
if [ -z "$only_suite" ]; then
    while IFS= read -r example; do
        [ -z "$example" ] || jobs+=("example $example")
    done < <(wt_examples_to_run)
fi
for suite in $suites; do jobs+=("test suite $suite"); done
printf '%s\n' "${jobs[@]}" >"$logs/jobs"
run_job() {
    local rc=0 label log="$logs/$1.log" words program
    label="$(sed -n "${1}p" "$logs/jobs")"
    if [ "${label%% *}" = example ]; then
        read -ra words <<<"${label#example }"
        program="$(sanitized_program "${words[0]}")"
        if [ -z "$program" ]; then
            echo "no sanitized program ${words[0]}" >"$log"
            rc=1
        else
            (cd "$NS3_DIR" && "$program" "${words[@]:1}") >"$log" 2>&1 || rc=$?
        fi
    else
        (cd "$NS3_DIR" && "$runner" --suite="${label#test suite }") >"$log" 2>&1 || rc=$?
    fi
    printf '%s\t%s\t%s\n' "$rc" "$1" "$label"
}
export -f run_job sanitized_program
export runner logs NS3_DIR WT_SANITIZE_OUT
seq "${#jobs[@]}" | xargs -P "$WT_JOBS" -I{} bash -c 'run_job "$1"' _ {} >"$logs/results" || true
while IFS=$'\t' read -r rc i label; do
    [ "$rc" = 0 ] || cat "$logs/$i.log"
    record "$rc" "$label"
done < <(sort -t $'\t' -k3 "$logs/results")
[ "$(wc -l <"$logs/results")" = "${#jobs[@]}" ] || record 1 "every suite and example reported"
rm -rf "$logs"

if [ -z "$only_suite" ]; then
    # Without leak detection: Open MPI's allocations kept until exit cannot be
    # told apart cheaply (its components are unloaded before LeakSanitizer
    # reports, and it has no frame pointers: matching them by library needs
    # the slow unwinder on every allocation, 9x slower).  The module's code
    # runs leak-checked in one process above.  Each case against one of its
    # distributed runs (scripts/test.sh compares every one, without the
    # sanitizers).
    rc=0
    ASAN_OPTIONS="${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}" \
        python3 "$here/distributed_check.py" --onePerCase \
        --program "$(sanitized_program nine-city-cliques)" || rc=$?
    record "$rc" "distributed runs on 2 and 3 ranks equal one process (scripts/distributed_check.py)"
fi

wt_log "wan-training sanitizers: $passed passed, $failed failed"
[ "$failed" = 0 ]
