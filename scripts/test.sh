#!/usr/bin/env bash
# Runs every test of the wan-training module.
#
# Sets up what is missing first (as scripts/setup.sh does, without running the
# example), then: checks that the C++ sources are formatted with ns-3's
# .clang-format, runs every wan-training-* test suite through ns-3's test.py,
# every example that test/examples-to-run.py marks to run, and the pytest tests
# of the Python scripts (test/python), and ends with a line
# "wan-training: N passed, M failed".  Exits non-zero when anything failed.
#
# Usage: scripts/test.sh [-h|--help]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=scripts/common.sh
source "$here/common.sh"

case "${1:-}" in
-h | --help)
    sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
    ;;
"") ;;
*)
    echo "test.sh: unknown option '$1' (try --help)" >&2
    exit 2
    ;;
esac

wt_prepare

passed=0
failed=0
record() {
    if [ "$1" = 0 ]; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        wt_log "FAILED: $2"
    fi
}

rc=0
wt_check_format || rc=$?
record "$rc" "clang-format (ns-3 style)"

suites="$(cd "$NS3_DIR" && ./test.py --no-build --list 2>/dev/null |
    awk '$1 != "example" && $2 ~ /^wan-training-/ {print $2}' | sort -u)"
[ -n "$suites" ] || wt_die "test.py lists no wan-training test suite (is the module enabled?)"
for suite in $suites; do
    rc=0
    (cd "$NS3_DIR" && ./test.py --no-build --suite="$suite") || rc=$?
    if [ "$rc" != 0 ]; then
        # test.py only says FAIL; the runner says which check and why.
        (cd "$NS3_DIR" && ./ns3 run --no-build "test-runner --suite=$suite --verbose") || true
    fi
    record "$rc" "test suite $suite"
done

examples="$(python3 -c '
import runpy, sys
for name, do_run, _ in runpy.run_path(sys.argv[1])["cpp_examples"]:
    if eval(do_run):
        print(name)
' "$WT_MODULE_DIR/test/examples-to-run.py")"
while IFS= read -r example; do
    [ -n "$example" ] || continue
    rc=0
    (cd "$NS3_DIR" && ./ns3 run --no-build "$example" >/dev/null) || rc=$?
    record "$rc" "example $example"
done <<<"$examples"

# pytest exits 5 when it collects no test: that is a failure too.
rc=0
(cd "$WT_MODULE_DIR" && NS3_DIR="$NS3_DIR" python3 -m pytest -q -p no:cacheprovider test/python) || rc=$?
record "$rc" "Python script tests (pytest test/python)"

echo "wan-training: $passed passed, $failed failed"
[ "$failed" = 0 ]
