#!/usr/bin/env bash
# Runs every test of the wan-training module, on two ns-3 releases.
#
# ns-3.37 from source (set up as scripts/setup.sh does, without running the
# example; one build, with MPI): checks the C++ sources against ns-3's style
# (scripts/check_style.py, with the pinned clang-format), runs every
# wan-training-* test suite through ns-3's test.py, every example that
# test/examples-to-run.py marks to run, the Python tests of the bindings and
# of the programs' command lines (pytest -m "bindings or programs"), and checks that
# distributed runs on 2 and 3 ranks give the results of one process
# (scripts/distributed_check.py).  ns-3.44 from PyPI (set up as
# scripts/setup-pypi.sh does): the same test suites through the module's
# test-runner, the same examples and every Python test but the programs'
# (test/python) with the wheel's bindings.  The two releases are tested side
# by side (most of their tests use one core each; the PyPI half's lines are
# marked [PyPI]), the distributed check last, on its own.  Prints each
# release's count and which release failed, and ends with a line
# "wan-training: N passed, M failed".  Exits non-zero when anything failed, a
# setup step included.
#
# Usage: scripts/test.sh [--only=source|pypi]
#   --only=source   ns-3.37 from source only (with every Python test)
#   --only=pypi     ns-3.44 from PyPI only (no ns-3 compile; every Python test)

# SPDX-License-Identifier: GPL-2.0-only
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

only=""
case "${1:-}" in
-h | --help)
    sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
--only=source | --only=pypi) only="${1#--only=}" ;;
"") ;;
*)
    echo "test.sh: unknown option '$1' (try --help)" >&2
    exit 2
    ;;
esac

passed=0
failed=0
label=""
failed_labels=()
# record STATUS WHAT: counts a check; each line says how long since the last.
last_record=$SECONDS
record() {
    local took=$((SECONDS - last_record))
    last_record=$SECONDS
    if [ "$1" = 0 ]; then
        passed=$((passed + 1))
        wt_log "passed: $label: $2 (${took} s)"
    else
        failed=$((failed + 1))
        wt_log "FAILED: $label: $2 (${took} s)"
        case " ${failed_labels[*]} " in
        *" $label "*) ;;
        *) failed_labels+=("$label") ;;
        esac
    fi
}

# Runs the examples in the folder $1: an ns-3 tree, or the standalone build
# (both have ./ns3).
run_examples() {
    local example rc
    while IFS= read -r example; do
        [ -n "$example" ] || continue
        rc=0
        (cd "$1" && ./ns3 run --no-build "$example" >/dev/null) || rc=$?
        record "$rc" "example $example"
    done < <(wt_examples_to_run)
}

# The Python tests with the programs of the folder $1 and the Python $2 run in
# the background, beside the suites and examples (one core each);
# finish_python_tests waits for them and reports.  Further arguments go to
# pytest (-m MARKS: the tests of this release), unless one release is tested:
# then every test runs on it.
start_python_tests() {
    [ -z "$only" ] || set -- "$1" "$2"
    python_log="$(mktemp)"
    python_what="Python tests (pytest${3:+ ${*:3}} test/python)"
    (cd "$WT_MODULE_DIR" && NS3_DIR="$1" "$2" -m pytest -q -p no:cacheprovider --durations=5 \
        "${@:3}" test/python) >"$python_log" 2>&1 &
    python_pid=$!
}
finish_python_tests() {
    local rc=0
    wait "$python_pid" || rc=$?
    cat "$python_log"
    rm -f "$python_log"
    # pytest exits 5 when it collects no test: that is a failure too.
    record "$rc" "$python_what"
}

test_source() {
    local rc=0 suite suites
    label="ns-3 from source"
    "$here/setup.sh" --no-run >&2 || rc=$?
    if [ "$rc" != 0 ]; then
        record "$rc" "setup (scripts/setup.sh)"
        return 0
    fi
    wt_obtain_ns3
    label="$(basename "$NS3_DIR") (source)"
    source_ready=1

    rc=0
    wt_check_format || rc=$?
    record "$rc" "clang-format (ns-3 style)"
    # The bindings' tests run on both releases, the programs' tests here, the
    # rest on ns-3 from PyPI.
    start_python_tests "$NS3_DIR" "$WT_PYTHON" -m "bindings or programs"

    # The runner lists the suites (test.py --list fails on ns-3-dev with the
    # Python bindings enabled: it unpacks its Python examples as pairs).
    suites="$(cd "$NS3_DIR" && ./ns3 run --no-build "test-runner --list" 2>/dev/null |
        awk '$1 ~ /^wan-training-/ {print $1}' | sort -u)" || true
    [ -n "$suites" ] || record 1 "test.py lists no wan-training test suite (is the module enabled?)"
    for suite in $suites; do
        rc=0
        (cd "$NS3_DIR" && ./test.py --no-build --suite="$suite") || rc=$?
        if [ "$rc" != 0 ]; then
            # test.py only says FAIL; the runner says which check and why.
            (cd "$NS3_DIR" && ./ns3 run --no-build "test-runner --suite=$suite --verbose") || true
        fi
        record "$rc" "test suite $suite"
    done
    run_examples "$NS3_DIR"
    finish_python_tests
}

# Distributed runs on the source build give the results of one process, after
# test_source (its tree and label; nothing when its setup failed).  Open MPI's
# ranks poll while they wait: they run with no other test beside them.
source_ready=0
test_distributed() {
    [ "$source_ready" = 1 ] || return 0
    local rc=0
    "$WT_PYTHON" "$here/distributed_check.py" --program "$(wt_program nine-city-cliques)" || rc=$?
    record "$rc" "distributed runs on 2 and 3 ranks equal one process (scripts/distributed_check.py)"
}

test_pypi() {
    local rc=0 suite suites runner="$WT_PYPI_BUILD/bin/test-runner"
    label="$WT_PYPI_LABEL"
    "$here/setup-pypi.sh" --no-run >&2 || rc=$?
    if [ "$rc" != 0 ]; then
        record "$rc" "setup (scripts/setup-pypi.sh)"
        return 0
    fi

    start_python_tests "$WT_PYPI_BUILD" "$WT_PYPI_PYTHON" -m "not programs"
    suites="$("$runner" --list | grep '^wan-training-' | sort -u)" || true
    [ -n "$suites" ] || record 1 "test-runner lists no wan-training test suite"
    for suite in $suites; do
        rc=0
        "$runner" --suite="$suite" || rc=$?
        [ "$rc" = 0 ] || "$runner" --suite="$suite" --verbose || true
        record "$rc" "test suite $suite"
    done
    run_examples "$WT_PYPI_BUILD"
    finish_python_tests
}

# run_release VERSION: the tests of one release ("source", or "pypi"), and
# after the source release's the distributed check (once the PyPI half, when
# it runs beside, has ended); appends the release's line to summary.
summary=()
pypi_pid=""
run_release() {
    local before_passed=$passed before_failed=$failed started=$SECONDS
    last_record=$SECONDS
    "test_$1"
    if [ "$1" = source ]; then
        [ -z "$pypi_pid" ] || wait "$pypi_pid" || true
        last_record=$SECONDS
        test_distributed
    fi
    summary+=("wan-training: $label: $((passed - before_passed)) passed, $((failed - before_failed)) failed ($((SECONDS - started)) s)")
}

if [ -n "$only" ]; then
    run_release "$only"
else
    # Both setups may install Debian packages: once, here, not side by side.
    wt_install_packages
    # The PyPI half in a subshell beside the source half; it hands back its
    # counts, its summary line and its failed label in a file.
    pypi_result="$(mktemp)"
    (
        passed=0 failed=0 failed_labels=() summary=()
        run_release pypi
        printf '%s\n' "$passed" "$failed" "${summary[0]}" "${failed_labels[@]}" >"$pypi_result"
    ) 2>&1 | sed -u 's/^/[PyPI] /' &
    pypi_pid=$!
    run_release source
    mapfile -t pypi_lines <"$pypi_result"
    rm -f "$pypi_result"
    if [ ${#pypi_lines[@]} -ge 3 ]; then
        passed=$((passed + pypi_lines[0]))
        failed=$((failed + pypi_lines[1]))
        summary+=("${pypi_lines[2]}")
        failed_labels+=("${pypi_lines[@]:3}")
    else
        label="$WT_PYPI_LABEL"
        record 1 "the tests (they ended without their counts)"
        summary+=("wan-training: $label: ended without its counts")
    fi
fi
printf '%s\n' "${summary[@]}"
if [ ${#failed_labels[@]} -gt 0 ]; then
    echo "wan-training: failed on $(printf '%s, ' "${failed_labels[@]}" | sed 's/, $//')"
fi
echo "wan-training: $passed passed, $failed failed"
[ "$failed" = 0 ] || exit 1
