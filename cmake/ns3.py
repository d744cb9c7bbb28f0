#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""The ns3 command of the module's standalone build (cmake/standalone.cmake):
the two commands of an ns-3 tree's ./ns3 that the module's scripts, its tests
and SEM use, so that the same command lines work in both builds.

    ./ns3 build [program ...]
    ./ns3 run [--no-build] "program [arguments]" [-- arguments]

Programs are the examples and test-runner, in bin/ next to this file.
"""

import os
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.path.join(HERE, "bin")


def fail(message):
    print("ns3: " + message, file=sys.stderr)
    sys.exit(2)


def build(jobs, targets):
    command = ["cmake", "--build", HERE] + (["-j", jobs] if jobs else [])
    return subprocess.call(command + (["--target"] + targets if targets else []))


def run(jobs, args):
    extra = []
    if "--" in args:
        extra = args[args.index("--") + 1:]
        args = args[: args.index("--")]
    no_build = "--no-build" in args
    args = [a for a in args if a != "--no-build"]
    if len(args) != 1:
        fail('usage: ./ns3 run [--no-build] "program [arguments]" [-- arguments]')
    program, *arguments = shlex.split(args[0])
    path = os.path.join(BIN, program)
    if not os.path.isfile(path):
        programs = sorted(os.listdir(BIN)) if os.path.isdir(BIN) else []
        fail("no program '%s' (programs: %s)" % (program, ", ".join(programs) or "none built"))
    if not no_build and build(jobs, [program]) != 0:
        return 1
    os.execv(path, [path] + arguments + extra)


def main(argv):
    jobs = None
    if len(argv) >= 2 and argv[0] == "-j":
        jobs, argv = argv[1], argv[2:]
    if argv[:1] == ["build"]:
        return build(jobs, argv[1:])
    if argv[:1] == ["run"]:
        return run(jobs, argv[1:])
    print(__doc__.strip(), file=sys.stderr)
    return 0 if argv[:1] in (["-h"], ["--help"]) else 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
