#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes the build.ninja of the module's libFuzzer program (scripts/fuzz.sh).

The module's sources (model/, helper/) and its fuzz targets (test/fuzz/) are
compiled again with clang, instrumented for coverage and the sanitizers
(-fsanitize=fuzzer-no-link,address,undefined), with the defines and include
paths the ns-3 tree's own build gives them (its compile_commands.json), and
linked against that tree's ns-3 libraries and third-party libraries (the link
line of the module's library there), which stay uninstrumented: the coverage
that guides the fuzzer is the module's own.  GCC and clang share libstdc++,
so the two mix.

Usage: fuzz_build.py --tree NS3_DIR --module MODULE_DIR --out FOLDER [--cxx clang++-14]
"""

import argparse
import json
import os
import shlex
import subprocess
import sys

INSTRUMENT = ["-O1", "-g", "-fno-omit-frame-pointer",
              "-fsanitize=fuzzer-no-link,address,undefined", "-fno-sanitize-recover=all"]
LINK = ["-fsanitize=fuzzer,address,undefined", "-fno-sanitize-recover=all"]
# The flags of the tree's commands that carry over: defines, include paths, the standard.
KEEP = ("-D", "-I", "-std=")


def die(message):
    sys.exit("fuzz_build.py: " + message)


def compile_flags(command):
    """The defines, include paths and language standard of a compile command."""
    words = shlex.split(command)
    flags, i = [], 1
    while i < len(words):
        w = words[i]
        if w == "-isystem":
            flags += [w, words[i + 1]]
            i += 1
        elif w.startswith(KEEP):
            flags.append(w)
        i += 1
    return flags


def link_inputs(tree, library):
    """The libraries and linker options of the module's library in the tree."""
    command = subprocess.run(["ninja", "-C", os.path.join(tree, "cmake-cache"), "-t", "commands",
                              library], capture_output=True, text=True, check=True).stdout
    # ": && c++ ... -o LIBRARY ... && :": the part that links.
    link = [part for part in command.strip().split("\n")[-1].split("&&") if " -o " in part]
    if len(link) != 1:
        die("cannot read the link command of %s" % library)
    words = shlex.split(link[0])
    out = words.index("-o")
    inputs = []
    for w in words[out + 2:]:
        if w.endswith(".o") or "wan-training" in os.path.basename(w):
            continue
        if w.endswith((".so", ".a")) or w.startswith(("-l", "-Wl,")) or w == "-fuse-ld=lld":
            inputs.append(w)
    return inputs


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tree", required=True, help="the ns-3 tree of scripts/setup.sh")
    p.add_argument("--module", required=True, help="the module's sources")
    p.add_argument("--out", required=True, help="folder of the objects and the program")
    p.add_argument("--cxx", default="clang++-14")
    a = p.parse_args()
    tree, module = os.path.realpath(a.tree), os.path.realpath(a.module)
    try:
        with open(os.path.join(tree, "cmake-cache", "compile_commands.json")) as f:
            commands = json.load(f)
    except OSError as e:
        die("no compile commands of the ns-3 tree (%s); run scripts/setup.sh first" % e)
    flags = {}
    for entry in commands:
        source = os.path.realpath(entry["file"])
        if source.startswith(module + os.sep) and "/examples/" not in source:
            flags[source] = compile_flags(entry["command"])
    sources = sorted(s for s in flags
                     if s.split(os.sep)[-2] in ("model", "helper") or "/test/fuzz/" in s)
    targets = os.path.join(module, "test", "fuzz", "wan-fuzz-targets.cc")
    if targets not in flags:
        die("the tree has not built %s; run scripts/setup.sh first" % targets)
    main_source = os.path.join(module, "test", "fuzz", "wan-fuzz-main.cc")
    flags[main_source] = flags[targets]
    sources.append(main_source)
    library = os.path.join(tree, "build", "lib")
    so = [n for n in os.listdir(library) if "wan-training" in n and "test" not in n
          and n.endswith(".so")]
    if len(so) != 1:
        die("expected one wan-training library in %s, found %s" % (library, so))
    inputs = link_inputs(tree, os.path.join(library, so[0]))

    os.makedirs(a.out, exist_ok=True)
    lines = ["cxx = " + a.cxx,
             "rule cc",
             "  command = $cxx -MD -MF $out.d $flags -c $in -o $out",
             "  depfile = $out.d",
             "  deps = gcc",
             "  description = fuzz build: $in",
             "rule link",
             "  command = $cxx $in -o $out $libs",
             "  description = fuzz build: linking $out"]
    objects = []
    for s in sources:
        obj = os.path.join("obj", os.path.relpath(s, module).replace(os.sep, "_") + ".o")
        objects.append(obj)
        lines.append("build %s: cc %s" % (obj, s))
        lines.append("  flags = " + " ".join(shlex.quote(f) for f in flags[s] + INSTRUMENT))
    lines.append("build wan-fuzz: link " + " ".join(objects))
    lines.append("  libs = " + " ".join(shlex.quote(w) for w in LINK + inputs))
    lines.append("default wan-fuzz")
    with open(os.path.join(a.out, "build.ninja"), "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
