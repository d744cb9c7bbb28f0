# Shared steps of scripts/setup.sh and scripts/test.sh (sourced, not run).
# shellcheck shell=bash

# SPDX-License-Identifier: GPL-2.0-only

WT_MODULE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WT_HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
WT_XDG_CACHE="${XDG_CACHE_HOME:-$WT_HOME/.cache}"
# The module cache: the ns-3 tree, the virtual environments and the PyPI build.
# Deleting it starts clean; downloads/ in it keeps the ns-3 source package.
WT_CACHE="${WAN_TRAINING_CACHE:-$WT_XDG_CACHE/wan-training}"
WT_DOWNLOADS="$WT_CACHE/downloads"
WT_JOBS="$(nproc 2>/dev/null || echo 2)"
# The ns-3 modules this module builds on (ns-3 adds their dependencies), and
# MPI for distributed runs.  csma is needed by ns-3.37's own src/test when
# tests are enabled.
WT_NS3_MODULES="wan-training;core;network;internet;point-to-point;applications;csma;mpi"
# One build: ns-3's default profile, with MPI, the examples and tests of this
# module only (ns-3's own examples and test suites are not compiled), and
# ns-3's precompiled header of the standard library (a third less compile time
# from nothing; ccache caches the header's own compile too, so a tree built
# again in a new folder gets the same header and every compile hits).
# The compiler's flags, in this build and in the PyPI one: -O1 (a fifth less
# compile time than -O2; the optimized build of scripts/benchmark.sh is for
# speed) and line tables only for debug information (-g1: backtraces keep
# their file and line, and the compiles take a quarter less time than with -g).
WT_CXX_FLAGS="-O1 -g1 -DNDEBUG"
WT_CONFIGURE_ARGS=(-G Ninja --enable-examples --enable-tests
    --filter-module-examples-and-tests=wan-training --enable-mpi
    "--enable-modules=$WT_NS3_MODULES" --enable-python-bindings --disable-werror
    --enable-precompiled-headers -- "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$WT_CXX_FLAGS")
# Debian packages: build tools, the libraries the module links against, Open
# MPI, and tshark (the packet-trace tests decode pcap files with it).
WT_PACKAGES=(g++ cmake ninja-build ccache python3 python3-venv python3-dev pkg-config bzip2
    libeigen3-dev libgsl-dev libglpk-dev nlohmann-json3-dev libboost-program-options-dev tshark
    libopenmpi-dev openmpi-bin libjemalloc-dev)
# The Python packages of the experiment scripts and their tests, and the
# clang-format release the style check pins (PyPI's clang-format wheel).
WT_PYTHON_PACKAGES=(matplotlib scipy pytest sem)
WT_CLANG_FORMAT="clang-format==20.1.8"

# The compiler cache: ccache's own folder, shared by every tree.  Paths under
# the module cache are hashed relative to it, and the build folder not at all,
# so that a tree unpacked again in the same place is answered from the cache.
export CCACHE_DIR="${CCACHE_DIR:-$WT_XDG_CACHE/ccache}"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$WT_CACHE}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
# What ccache needs to cache compiles that use a precompiled header (ns-3's
# configure sets the same in ccache's own configuration; the PyPI build has no
# ns-3 configure).
export CCACHE_SLOPPINESS="${CCACHE_SLOPPINESS:-pch_defines,time_macros,include_file_mtime,include_file_ctime}"

wt_log() { printf '[wan-training] %s\n' "$*" >&2; }
# A step that fails where the scripts do not test it names itself, instead of
# ending the script without a word (set -e).
set -o errtrace
trap 'wt_log "error: \"$BASH_COMMAND\" failed (exit $?, ${BASH_SOURCE[0]##*/} line $LINENO)"' ERR
wt_die() {
    printf '[wan-training] error: %s\n' "$*" >&2
    exit 1
}

# The options of setup.sh and setup-pypi.sh ("$0" "$@"): sets run_example (0
# with --no-run), build_optimized (1 with --optimized) and example_args (the
# arguments after --); --help prints the script's header comment.
# shellcheck disable=SC2034  # run_example, build_optimized and example_args are the caller's
wt_setup_options() {
    local script="$1"
    shift
    run_example=1
    build_optimized=0
    build_mpi=0
    example_args=()
    while [ $# -gt 0 ]; do
        case "$1" in
        --no-run) run_example=0 ;;
        --optimized) build_optimized=1 ;;
        --mpi) build_mpi=1 ;;
        --)
            shift
            example_args=("$@")
            break
            ;;
        -h | --help)
            awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$script"
            exit 0
            ;;
        *)
            echo "$(basename "$script"): unknown option '$1' (try --help)" >&2
            exit 2
            ;;
        esac
        shift
    done
}

wt_sudo() {
    if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

wt_apt_updated=0
wt_apt_update() {
    if [ "$wt_apt_updated" = 0 ]; then
        wt_sudo apt-get update -qq || wt_die "apt-get update failed"
        wt_apt_updated=1
    fi
}

# Installs the Debian packages that are missing (nothing to do when all are
# there): the arguments, or WT_PACKAGES.
wt_install_packages() {
    local missing=() p packages=("$@")
    [ $# -gt 0 ] || packages=("${WT_PACKAGES[@]}")
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        wt_log "installing Debian packages: ${missing[*]}"
        command -v apt-get >/dev/null || wt_die "apt-get not found; install these packages by hand: ${missing[*]}"
        wt_apt_update
        local log
        log="$(mktemp)"
        wt_sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
            "${missing[@]}" >"$log" 2>&1 || {
            tail -n 20 "$log" >&2
            rm -f "$log"
            wt_die "apt-get install ${missing[*]} failed"
        }
        rm -f "$log"
    fi
}

# Writes a deb-src entry for each Debian suite this machine already uses,
# derived from its own apt source lists (no host name is hard-coded).
wt_enable_deb_src() {
    local list=/etc/apt/sources.list.d/wan-training-deb-src.sources
    [ -f "$list" ] && return 0
    local entries
    entries="$(
        {
            # deb822 files: turn each "Types: deb" stanza into "Types: deb-src".
            for f in /etc/apt/sources.list.d/*.sources; do
                [ -f "$f" ] || continue
                grep -q '^URIs:.*debian' "$f" || continue
                awk 'BEGIN{RS="";ORS="\n\n"} /Types:[^\n]*deb/ && /URIs:[^\n]*debian/ {
                        gsub(/Types:[^\n]*/, "Types: deb-src"); print }' "$f"
            done
            # one-line format
            if [ -f /etc/apt/sources.list ]; then
                grep -E '^deb +[^ ]*debian' /etc/apt/sources.list | sed 's/^deb /deb-src /' |
                    awk '{printf "Types: deb-src\nURIs: %s\nSuites: %s\nComponents:", $2, $3; for (i=4;i<=NF;i++) printf " %s", $i; print "\n"}'
            fi
        }
    )"
    [ -n "$entries" ] || wt_die "no Debian entry in this machine's apt sources: cannot fetch the ns-3 source package (set NS3_DIR to an ns-3 tree)"
    printf '%s\n' "$entries" | wt_sudo tee "$list" >/dev/null
    wt_apt_updated=0
}

# Sets NS3_DIR: the tree named by the user, or the cached tree, fetched from
# Debian's ns3 source package when it is not there yet.
wt_obtain_ns3() {
    if [ -n "${NS3_DIR:-}" ]; then
        [ -x "$NS3_DIR/ns3" ] || wt_die "NS3_DIR=$NS3_DIR is not an ns-3 source tree (no ns3 script)"
        NS3_DIR="$(cd "$NS3_DIR" && pwd)"
        return 0
    fi
    mkdir -p "$WT_CACHE"
    local existing
    existing="$(find "$WT_CACHE" -maxdepth 1 -type d -name 'ns-3.*' | sort -V | tail -n 1)"
    if [ -n "$existing" ] && [ -x "$existing/ns3" ]; then
        NS3_DIR="$existing"
        return 0
    fi
    wt_enable_deb_src
    wt_apt_update
    local version="${NS3_VERSION:-}"
    if [ -z "$version" ]; then
        version="$(apt-cache showsrc ns3 | awk '/^Version:/{print $2}' | sort -V | tail -n 1)"
    fi
    [ -n "$version" ] || wt_die "Debian's ns3 source package is not available from this machine's apt sources"
    local tarball
    mkdir -p "$WT_DOWNLOADS"
    tarball="$(find "$WT_DOWNLOADS" -maxdepth 1 -name "ns3_${version%-*}.orig.tar.*" 2>/dev/null | head -n 1)"
    if [ -z "$tarball" ]; then
        wt_log "fetching ns-3 source (Debian ns3 $version) into $WT_DOWNLOADS"
        local dl="$WT_DOWNLOADS/partial"
        rm -rf "$dl" && mkdir -p "$dl"
        (cd "$dl" && apt-get source --download-only "ns3=$version" >/dev/null 2>&1) ||
            wt_die "apt-get source ns3=$version failed (set NS3_VERSION to a version listed by 'apt-cache showsrc ns3')"
        tarball="$(find "$dl" -name 'ns3_*.orig.tar.*' | head -n 1)"
        [ -n "$tarball" ] || wt_die "no ns3 orig tarball in the downloaded source package"
        mv "$tarball" "$WT_DOWNLOADS/"
        tarball="$WT_DOWNLOADS/$(basename "$tarball")"
        rm -rf "$dl"
    fi
    wt_log "unpacking $(basename "$tarball")"
    local unpack="$WT_CACHE/unpack"
    rm -rf "$unpack" && mkdir -p "$unpack"
    tar -xf "$tarball" -C "$unpack" || wt_die "cannot unpack $tarball"
    local tree
    tree="$(find "$unpack" -mindepth 1 -maxdepth 2 -type d -name 'ns-3.*' | head -n 1)"
    [ -n "$tree" ] && [ -x "$tree/ns3" ] || wt_die "the ns3 source package holds no ns-3 tree"
    mv "$tree" "$WT_CACHE/"
    NS3_DIR="$WT_CACHE/$(basename "$tree")"
    rm -rf "$unpack"
    wt_log "ns-3 tree: $NS3_DIR"
}

# Makes contrib/wan-training in the tree point at this repository.
wt_link_module() {
    local target="$NS3_DIR/contrib/wan-training"
    if [ "$(cd "$target" 2>/dev/null && pwd -P)" = "$(cd "$WT_MODULE_DIR" && pwd -P)" ]; then
        return 0
    fi
    if [ -e "$target" ] && [ ! -L "$target" ]; then
        wt_die "$target exists and is not this repository; remove it or set NS3_DIR to another tree"
    fi
    ln -sfn "$WT_MODULE_DIR" "$target"
    wt_log "linked $target -> $WT_MODULE_DIR"
}

# The cppyy release the ns-3 tree's Python bindings expect: the one its
# setup.cfg or pyproject.toml names (current ns-3-dev), else 2.4.2, which the
# ns-3.37 manual names.
wt_cppyy_spec() {
    local spec
    spec="$(grep -hoE 'cppyy==[0-9.]*[0-9]' "$NS3_DIR/setup.cfg" "$NS3_DIR/pyproject.toml" \
        2>/dev/null | head -n 1 || true)"
    echo "${spec:-cppyy==2.4.2}"
}

# The virtual environment of the ns-3 tree (the PyPI path has its own): cppyy
# for the tree's Python bindings, the scripts' packages and the pinned
# clang-format.  Python's own packages are never touched.
WT_VENV="$WT_CACHE/venv"
WT_PYTHON="$WT_VENV/bin/python"

# wt_make_venv FOLDER: creates the virtual environment FOLDER unless it is there.
wt_make_venv() {
    [ -x "$1/bin/python" ] && return 0
    python3 -c 'import ensurepip' 2>/dev/null || wt_install_packages python3-venv
    wt_log "creating the virtual environment $1"
    python3 -m venv "$1" || wt_die "python3 -m venv $1 failed"
}

# wt_pip PYTHON ARGS...: pip install into that Python's environment.  Python
# compiles what it imports when it imports it: --no-compile saves
# byte-compiling all of pandas and matplotlib on install.
wt_pip() {
    local python="$1"
    shift
    "$python" -m pip install --quiet --disable-pip-version-check --no-compile "$@"
}

# wt_missing PYTHON SPEC...: the requirements (name or name==version) that
# PYTHON's environment lacks.
wt_missing() {
    local python="$1"
    shift
    "$python" - "$@" <<'PY'
import importlib.metadata as metadata
import sys

for spec in sys.argv[1:]:
    name, _, version = spec.partition("==")
    try:
        installed = metadata.version(name)
    except metadata.PackageNotFoundError:
        installed = None
    if installed is None or version not in ("", installed):
        print(spec)
PY
}

# Installs into the tree's virtual environment what the Python bindings, the
# experiment scripts (SEM for campaigns), their tests and the style check need
# (nothing to do when all are there).
wt_install_python() {
    wt_make_venv "$WT_VENV"
    local missing=()
    mapfile -t missing < <(wt_missing "$WT_PYTHON" "$(wt_cppyy_spec)" "${WT_PYTHON_PACKAGES[@]}" \
        "$WT_CLANG_FORMAT")
    [ ${#missing[@]} -eq 0 ] && return 0
    wt_log "installing from PyPI into $WT_VENV: ${missing[*]}"
    wt_pip "$WT_PYTHON" "${missing[@]}" || wt_die "pip install ${missing[*]} failed"
}

# ./ns3 in the tree, with the tree's virtual environment first on PATH (its
# Python has cppyy for the bindings).
wt_ns3() { (cd "$NS3_DIR" && VIRTUAL_ENV="$WT_VENV" PATH="$WT_VENV/bin:$PATH" ./ns3 "$@"); }

# Configures the tree once; again only when the configure arguments change.
wt_configure() {
    local stamp="$NS3_DIR/.wan-training-configure"
    local wanted="${WT_CONFIGURE_ARGS[*]}"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ] && [ -d "$NS3_DIR/cmake-cache" ]; then
        return 0
    fi
    rm -f "$stamp"
    wt_log "configuring ns-3: ${WT_CONFIGURE_ARGS[*]}"
    wt_ns3 configure "${WT_CONFIGURE_ARGS[@]}" || wt_die "configuring ns-3 failed"
    printf '%s' "$wanted" >"$stamp"
}

# Builds with all cores.  (ns-3.37's "./ns3 build -j N" never exceeds the
# number of cores minus one, so CMake is called directly.)
wt_build() {
    wt_log "building (jobs: $WT_JOBS)"
    cmake --build "$NS3_DIR/cmake-cache" -j "$WT_JOBS"
}

# wt_build_extra LABEL CACHE OUT MODULES [CMAKE-ARGS...]: a further build of the
# same tree with ns-3's optimized profile (release, -march=native, no asserts or
# logging), as one library (NS3_MONOLIB) with link-time optimization across all
# of it (-fno-semantic-interposition lets GCC inline calls between modules), in
# its own folders ($NS3_DIR/CACHE and $NS3_DIR/OUT).  The module's programs
# only: no tests, no bindings, no other examples.  GCC's link-time optimization
# needs GNU ld: ns-3 picks mold or lld when installed, and lld cannot read GCC's
# LTO objects.  USING_FAST_LINKER set makes ns-3.37 skip that choice
# (-DLLD=LLD-NOTFOUND would not: find_program searches again when its variable
# ends in -NOTFOUND); newer ns-3 reads NS3_FAST_LINKERS.
#
# Profile-guided optimization (unless WAN_TRAINING_PGO=0): the first time (and
# whenever the configure arguments change) the programs are built instrumented
# (-fprofile-generate), run on a training workload (wt_pgo_train), and built
# again with the profile they wrote (-fprofile-use); code the workload does not
# reach is optimized as without a profile (-fprofile-partial-training).  Later
# builds reuse that profile: a changed source compiles with the profile of its
# earlier version where it still matches, without it where not.
wt_build_extra() {
    local label="$1" dir="$NS3_DIR/$2" out="$3" modules="$4"
    shift 4
    local pgo="${WAN_TRAINING_PGO:-1}"
    [ "$pgo" = 0 ] || [ "$pgo" = 1 ] || wt_die "WAN_TRAINING_PGO must be 0 or 1 (got '$pgo')"
    local args=(-G Ninja -S "$NS3_DIR" -B "$dir" -DCMAKE_BUILD_TYPE=release -DNS3_ASSERT=OFF
        -DNS3_LOG=OFF -DNS3_WARNINGS_AS_ERRORS=OFF -DNS3_NATIVE_OPTIMIZATIONS=ON
        -DNS3_PRECOMPILE_HEADERS=OFF
        -DNS3_MONOLIB=ON
        -DNS3_LINK_TIME_OPTIMIZATION=ON -DUSING_FAST_LINKER=BFD -DNS3_FAST_LINKERS=OFF
        -DNS3_EXAMPLES=ON -DNS3_TESTS=OFF -DNS3_PYTHON_BINDINGS=OFF
        "-DNS3_ENABLED_MODULES=$modules" "-DNS3_OUTPUT_DIRECTORY=$out" "$@")
    local flags="-fno-semantic-interposition"
    local generate="$flags -fprofile-generate -fprofile-update=single"
    local use="$flags -fprofile-use -fprofile-partial-training -Wno-missing-profile"
    use+=" -Wno-coverage-mismatch"
    local stamp="$dir/.wan-training-configure" wanted="${args[*]} pgo=$pgo"
    local rc=0 programs=()
    # _wt_extra_configure FLAGS: (re)configures with those compiler flags and reads the
    # module's programs, as examples/CMakeLists.txt lists them at configure.
    _wt_extra_configure() {
        wt_keeping_lock cmake "${args[@]}" "-DCMAKE_CXX_FLAGS=$1" >/dev/null || return 1
        mapfile -t programs < <(grep . "$dir/wan-training-programs.txt" 2>/dev/null)
        [ ${#programs[@]} -gt 0 ] || { wt_log "no $dir/wan-training-programs.txt"; return 1; }
    }
    _wt_extra_build() {
        wt_log "building the $label build$1 (jobs: $WT_JOBS): ${programs[*]}"
        # Configures again when a CMakeLists.txt changed: the lock is kept.
        wt_keeping_lock cmake --build "$dir" -j "$WT_JOBS" --target "${programs[@]}"
    }
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$wanted" ]; then
        mapfile -t programs < <(grep . "$dir/wan-training-programs.txt" 2>/dev/null)
        [ ${#programs[@]} -gt 0 ] || _wt_extra_configure "$([ "$pgo" = 1 ] && echo "$use" || echo "$flags")" ||
            rc=$?
        [ "$rc" != 0 ] || _wt_extra_build "" || rc=$?
    elif [ "$pgo" = 0 ]; then
        wt_log "configuring the $label build: $dir"
        { _wt_extra_configure "$flags" && _wt_extra_build "" && printf '%s' "$wanted" >"$stamp"; } || rc=$?
    else
        wt_log "configuring the $label build: $dir (profile-guided: instrumented first)"
        rm -f "$stamp"
        { _wt_extra_configure "$generate" && _wt_extra_build ", instrumented" &&
            find "$dir" -name '*.gcda' -delete &&
            wt_pgo_train "$label" "$out" &&
            _wt_extra_configure "$use" && _wt_extra_build " with its profile" &&
            printf '%s' "$wanted" >"$stamp"; } || rc=$?
    fi
    [ "$rc" = 0 ] || wt_die "the $label build failed"
}

# The examples test/examples-to-run.py marks to run, one command line a line.
wt_examples_to_run() {
    python3 -c '
import runpy, sys
for name, do_run, _ in runpy.run_path(sys.argv[1])["cpp_examples"]:
    if eval(do_run):
        print(name)
' "$WT_MODULE_DIR/test/examples-to-run.py"
}

# wt_keeping_lock COMMAND...: runs the command, then puts the tree's
# .lock-ns3_* file back as it was.  ns-3's CMake rewrites that file, which
# tells ./ns3 which build to use, whenever it configures: a further build's
# configure must leave the default build's.
wt_keeping_lock() {
    local lock saved rc=0
    lock="$(find "$NS3_DIR" -maxdepth 1 -name '.lock-ns3_*' | head -n 1)"
    saved="$(mktemp)"
    [ -z "$lock" ] || cp "$lock" "$saved"
    "$@" || rc=$?
    [ -z "$lock" ] || cp "$saved" "$lock"
    rm -f "$saved"
    return "$rc"
}

# wt_pgo_train LABEL OUT: the workload that profiles the build in $NS3_DIR/OUT:
# the runs scripts/benchmark.sh times, at a tenth of their packets (one round of
# triangles at scale 10, the default scaled run, the plain UDP replays), with
# loss and re-requests for the recovery paths, and for the MPI build one round
# on two ranks.  About a minute.
wt_pgo_train() {
    local label="$1" folder="$NS3_DIR/$2/contrib/wan-training/examples"
    local cliques udp round=(--packetSchedule=triangles --rounds=1 --baselines=false --hbmGB=0
        --quiet)
    cliques="$(find "$folder" -maxdepth 1 -type f -name 'ns3*-nine-city-cliques-optimized')"
    udp="$(find "$folder" -maxdepth 1 -type f -name 'ns3*-wan-udp-baseline-optimized')"
    [ -n "$cliques" ] && [ -n "$udp" ] || { wt_log "no programs in $folder to train"; return 1; }
    wt_log "training the $label build's profile"
    # Chained with &&: errexit does not hold where the caller tests the status.
    local mpi=()
    if [ "$label" = MPI ]; then
        mpi=(mpiexec -np 2 --oversubscribe)
        [ "$(id -u)" != 0 ] || mpi+=(--allow-run-as-root)
    fi
    (cd "$NS3_DIR" &&
        "$cliques" "${round[@]}" --scale=10 >/dev/null &&
        "$cliques" --hbmGB=0 --quiet >/dev/null &&
        "$cliques" "${round[@]}" --scale=100 --rounds=2 --lossRate=0.01 --recovery=early \
            >/dev/null &&
        "$udp" --scale=10 >/dev/null &&
        "$udp" --scale=10 --multicast >/dev/null &&
        { [ ${#mpi[@]} = 0 ] || "${mpi[@]}" "$cliques" "${round[@]}" --scale=10 --mpi=gtw >/dev/null; })
}

# The optimized profile (scripts/setup.sh --optimized), for scripts/benchmark.sh:
# cmake-cache-optimized and build-optimized.  Built only on request, so the
# default setup stays one build.
WT_OPTIMIZED_CACHE="cmake-cache-optimized"
WT_OPTIMIZED_OUT="build-optimized"
wt_build_optimized() {
    wt_build_extra "optimized" "$WT_OPTIMIZED_CACHE" "$WT_OPTIMIZED_OUT" "$WT_NS3_MODULES"
}

# The distributed build (scripts/setup.sh --mpi): the optimized profile with
# ns-3's MPI module (Open MPI from Debian's packages), cmake-cache-mpi and
# build-mpi.  Run its programs with mpiexec.
WT_MPI_CACHE="cmake-cache-mpi"
WT_MPI_OUT="build-mpi"
wt_build_mpi() {
    wt_build_extra "MPI" "$WT_MPI_CACHE" "$WT_MPI_OUT" "$WT_NS3_MODULES;mpi" -DNS3_MPI=ON
}

# wt_first_program DIR NAME: the first file NAME (a glob) in DIR, or nothing
# when DIR is absent (an optional build that is not there): never a failure,
# so that `x="$(wt_first_program ...)"` holds under set -e and pipefail.
wt_first_program() {
    [ -d "$1" ] || return 0
    find "$1" -maxdepth 1 -type f -name "$2" -print -quit
}

# The default build's program $1 (empty when it is not built).
wt_program() {
    wt_first_program "$NS3_DIR/build/contrib/wan-training/examples" "ns3*-$1-default"
}

# The MPI build's program $1 (empty when that build is not there).
wt_mpi_program() {
    wt_first_program "$NS3_DIR/$WT_MPI_OUT/contrib/wan-training/examples" "ns3*-$1-optimized"
}

# The optimized build's program $1 (empty when that build is not there).
wt_optimized_program() {
    wt_first_program "$NS3_DIR/$WT_OPTIMIZED_OUT/contrib/wan-training/examples" \
        "ns3*-$1-optimized"
}

# Checks the module's sources against ns-3-dev's style (scripts/check_style.py)
# with the pinned clang-format and the tree's .clang-format.
wt_check_format() {
    "$WT_PYTHON" "$WT_MODULE_DIR/scripts/check_style.py" --clang-format "$WT_VENV/bin/clang-format" \
        --style-file "$NS3_DIR/.clang-format" "$WT_MODULE_DIR"
}

# Everything a command needs before it runs: packages, tree, the virtual
# environment (ns-3's configure looks for cppyy), link, configure, build.
# (Installing the scripts' packages while ns-3 compiles was measured slower
# from nothing: they take the compiler's cores.)
wt_prepare() {
    wt_install_packages
    wt_obtain_ns3
    wt_install_python
    wt_link_module
    wt_configure
    wt_build
}

# --- ns-3 from PyPI (scripts/setup-pypi.sh) ---------------------------------
# PyPI's ns3 wheel ships ns-3 built (libraries, headers, CMake package, Python
# bindings): nothing of ns-3 is compiled.  It lives in a virtual environment in
# the cache folder, and the module is built against it as a CMake project of
# its own (cmake/standalone.cmake).
WT_PYPI_NS3="${NS3_PYPI_VERSION:-3.44.post0}"
WT_PYPI_VENV="$WT_CACHE/pypi-venv"
WT_PYPI_PYTHON="$WT_PYPI_VENV/bin/python"
WT_PYPI_BUILD="$WT_CACHE/pypi-build"
WT_PYPI_MODULE="$WT_CACHE/pypi-module"
# shellcheck disable=SC2034  # used by test.sh
WT_PYPI_LABEL="ns-${WT_PYPI_NS3%%.post*} (PyPI)"

# Configures the module's build against the wheel once; again, from scratch,
# when the arguments change (another checkout of the module, another ns3).
# Returns non-zero on failure (its callers test it, which turns off set -e).
wt_configure_pypi() {
    local prefix
    prefix="$("$WT_PYPI_PYTHON" -c 'import importlib.util; print(importlib.util.find_spec("ns3").submodule_search_locations[0])')" ||
        return 1
    # The module through a link in the cache folder: every path of the build is
    # then under the module cache wherever the checkout is, and ccache hashes
    # them relative to it.
    ln -sfn "$WT_MODULE_DIR" "$WT_PYPI_MODULE"
    local args=(-G Ninja -S "$WT_PYPI_MODULE" -B "$WT_PYPI_BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo
        "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=$WT_CXX_FLAGS" "-Dns3_DIR=$prefix/lib64/cmake/ns3")
    local stamp="$WT_PYPI_BUILD/.wan-training-configure"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "${args[*]}" ] && [ -f "$WT_PYPI_BUILD/CMakeCache.txt" ]; then
        return 0
    fi
    wt_log "configuring the module against ns-3 $WT_PYPI_NS3 from PyPI"
    rm -rf "$WT_PYPI_BUILD/CMakeCache.txt" "$WT_PYPI_BUILD/CMakeFiles" "$stamp"
    cmake "${args[@]}" || return 1
    printf '%s' "${args[*]}" >"$stamp"
}

# Everything the PyPI path needs: packages, virtual environment, ns3 and the
# cppyy it requires (with the scripts' packages), the module's build.  cppyy's
# C++ parts compile from source on a first install: that runs in the
# background while the module compiles.
wt_prepare_pypi() {
    wt_install_packages
    wt_make_venv "$WT_PYPI_VENV"
    if [ -n "$(wt_missing "$WT_PYPI_PYTHON" "ns3==$WT_PYPI_NS3")" ]; then
        wt_log "installing ns3==$WT_PYPI_NS3 from PyPI"
        wt_pip "$WT_PYPI_PYTHON" --no-deps "ns3==$WT_PYPI_NS3" || wt_die "pip install ns3==$WT_PYPI_NS3 failed"
    fi
    local cppyy missing=() pip_pid="" log="$WT_CACHE/pypi-pip.log"
    cppyy="$("$WT_PYPI_PYTHON" -c 'import importlib.metadata as m
print(next((r for r in m.requires("ns3") or [] if r.startswith("cppyy")), "cppyy"))')"
    mapfile -t missing < <(wt_missing "$WT_PYPI_PYTHON" "${cppyy// /}" "${WT_PYTHON_PACKAGES[@]}")
    if [ ${#missing[@]} -gt 0 ]; then
        wt_log "installing from PyPI in the background: ${missing[*]} (log: $log)"
        (wt_pip "$WT_PYPI_PYTHON" "${missing[@]}" && "$WT_PYPI_PYTHON" -c 'import cppyy') >"$log" 2>&1 &
        pip_pid=$!
    fi
    local rc=0
    wt_configure_pypi || rc=$?
    if [ "$rc" = 0 ]; then
        wt_log "building (jobs: $WT_JOBS)"
        cmake --build "$WT_PYPI_BUILD" -j "$WT_JOBS" || rc=$?
    fi
    if [ -n "$pip_pid" ]; then
        wait "$pip_pid" || wt_die "pip install ${missing[*]} failed: $(tail -n 5 "$log")"
    fi
    [ "$rc" = 0 ] || wt_die "building the module against ns-3 $WT_PYPI_NS3 failed"
}
