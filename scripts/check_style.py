#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Checks the module's sources against ns-3-dev's coding style: the checks of
ns-3-dev's utils/check-style-clang-format.py, without an ns-3-dev tree.

Formatting: every git-tracked .c/.cc/.h file must be as clang-format 20 writes
it with ns-3-dev's .clang-format.  That file is derived from the .clang-format
given with --style-file (an ns-3 release's, ns-3.37's in CI) and the few keys
ns-3-dev has set since (STYLE_KEYS below); the other keys ns-3-dev changed are
renamed ones that clang-format 20 reads alike under either name.

The other checks, on the git-tracked files they apply to: the module's own
headers of the same folder included with the "ns3/" prefix, ns-3 headers
included with <> instead of "", Doxygen commands written with \\ instead of @
at the start of a comment line, GPL license text instead of an SPDX line, emacs
file style comments, tabs (those five outside "// clang-format off" regions),
trailing whitespace and a missing newline at the end of a file, and .c/.cc/.h
files that are not UTF-8.

Prints one line per problem (file:line: what) and a summary line; exits 1 when
it found a problem, 2 when it could not check (a clang-format that is not
version 20, a missing or unreadable style file).

    python3 scripts/check_style.py --clang-format VENV/bin/clang-format \\
        --style-file NS3_DIR/.clang-format [MODULE_DIR]
    python3 scripts/check_style.py ... --print-style   # the derived .clang-format
"""

import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

# The clang-format release whose formatting ns-3-dev's check accepts and that
# CI pins (a different major version formats some constructs differently).
CLANG_FORMAT_MAJOR = 20

# ns-3-dev's .clang-format is the given file (ns-3.37's or ns-3.44's) with the
# keys of this table set as ns-3-dev sets them.  Each row: the key, its value
# as ns-3-dev writes it, and the keys it replaces (older spellings of the same
# setting).  The key itself and those are taken out of the given file before
# the table's keys are added, so that no setting is given twice; main() then
# checks with clang-format --dump-config that every value holds.
#
# ns-3-dev's file also renames four of ns-3.37's keys; clang-format 20 reads
# the old names to the same settings (its --dump-config of ns-3.37's file plus
# this table is that of ns-3-dev's file), so they are left as they are:
#   AlwaysBreakAfterReturnType: TopLevelDefinitions -> BreakAfterReturnType
#   AlwaysBreakTemplateDeclarations: Yes            -> BreakTemplateDeclarations
#   DeriveLineEnding: false                         -> LineEnding: LF
#   KeepEmptyLinesAtTheStartOfBlocks: false         -> KeepEmptyLines.AtStartOfBlock
STYLE_KEYS = [
    # Braces around every if/else/for/while body (ns-3.44's file has it too).
    ("InsertBraces", "true", ()),
    # A newline at the end of every file.
    ("InsertNewlineAtEOF", "true", ()),
    # No empty lines kept at the start of a file; none at the start of a block
    # nor at the end of a file, as before.
    ("KeepEmptyLines",
     {"AtEndOfFile": "false", "AtStartOfBlock": "false", "AtStartOfFile": "false"},
     ("KeepEmptyLinesAtTheStartOfBlocks",)),
    # C++20 tokens: a <=> b, not a <= > b (ns-3.44's file has it too).
    ("Standard", '"c++20"', ()),
]

# Which git-tracked files each check reads: by extension, or by whole name.
CPP = {".c", ".cc", ".h"}
TEXT = CPP | {".cmake", ".css", ".html", ".js", ".json", ".m", ".md", ".pl", ".py",
              ".rst", ".sh", ".toml", ".yml"}
TEXT_NAMES = {"CMakeLists.txt", ".clang-format", ".clang-tidy", ".codespellrc", "ns3",
              "codespell-ignored-lines", "codespell-ignored-words"}
DATA = {".cfg", ".click", ".conf", ".dot", ".gnuplot", ".gp", ".mob", ".ns_movements",
        ".ns_params", ".params", ".plt", ".seqdiag", ".txt"}
APPLIES = {
    "format": (CPP, set()),
    "include": (CPP, set()),
    "doxygen": (CPP, set()),
    "encoding": (CPP, set()),
    "license": (CPP | {".cmake", ".py"}, set()),
    "emacs": (CPP | {".py", ".rst"}, set()),
    "tabs": (TEXT, TEXT_NAMES),
    "whitespace": (TEXT | DATA, TEXT_NAMES | {"Makefile"}),
}

# Lines between these are left alone by clang-format and by the line checks
# (not by the whitespace and encoding checks).
GUARD_OFF = {"// clang-format off", "# cmake-format: off", "# fmt: off"}
GUARD_ON = {"// clang-format on", "# cmake-format: on", "# fmt: on"}

# The fuzz targets' seed corpus: inputs kept byte for byte (a missing final
# newline, a control character or a malformed file is what they test).
RAW_INPUTS = "test/fuzz/corpus/"

# Folders never read when the module is not a git checkout.
SKIPPED_FOLDERS = {".git", "build", "cmake-cache", "__pycache__", "venv", ".venv", "results"}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])(ns3/)?([^">]+)[">]')
# A Doxygen command with a backslash where a comment line's text begins
# (" * \brief", "/** \file", "/// \param", "//!< \copydoc"); at least three
# letters, so that LaTeX inside formulas (\f$ x \f$, \c, \p) is not taken for one.
DOXYGEN = re.compile(r"^\s*(?:/\*\*|/\*!|///<?|//!<?|\*)\s*\\([A-Za-z_]\w{2,})(?=\s|$)")
LATEX_WORDS = {"dots", "langle", "quad"}
# The GPL notice and emacs settings; each written with a [] class so that these
# lines do not match themselves when this file is checked.
GPL_TEXT = re.compile(r"This program is free softwar[e]|GNU General Public Licens[e]"
                      r"|WITHOUT ANY WARRANT[Y]|Free Software Foundatio[n]", re.IGNORECASE)
EMACS = re.compile(r"c-file-styl[e]:|py-indent-offse[t]:|indent-tabs-mod[e]:")
CLANG_FORMAT_MESSAGE = re.compile(r"^(.+?):(\d+):(\d+): (?:error|warning): (.*)$")


class Unchecked(Exception):
    """The check cannot run (a wrong tool, a missing file)."""


def applies(check, path):
    extensions, names = APPLIES[check]
    name = os.path.basename(path)
    return name in names or os.path.splitext(name)[1] in extensions


def tracked_files(root):
    """The module's files, relative to root: git's tracked files, or every file
    outside build folders when root is not a git checkout."""
    try:
        listed = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True,
                                check=True).stdout.decode("utf-8", "replace")
        files = [f for f in listed.split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        files = []
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = sorted(s for s in subfolders if s not in SKIPPED_FOLDERS)
            files += [os.path.relpath(os.path.join(folder, n), root) for n in names]
    return sorted(f for f in files
                  if os.path.isfile(os.path.join(root, f))
                  and not os.path.islink(os.path.join(root, f))
                  and not f.startswith(RAW_INPUTS))


# --- clang-format and the derived style ---------------------------------------

def clang_format_version(binary):
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True,
                             check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        raise Unchecked("cannot run clang-format %s (%s)" % (binary, error))
    found = re.search(r"version (\d+)\.(\d+)(?:\.(\d+))?", out)
    if not found:
        raise Unchecked("cannot tell the version of clang-format %s from %r"
                        % (binary, out.strip()))
    version = found.group(0).split()[1]
    if int(found.group(1)) != CLANG_FORMAT_MAJOR:
        raise Unchecked("%s is clang-format %s; this check needs clang-format %d "
                        "(pip install 'clang-format==%d.*')"
                        % (binary, version, CLANG_FORMAT_MAJOR, CLANG_FORMAT_MAJOR))
    return version


def yaml_lines(key, value):
    if isinstance(value, dict):
        return ["%s:\n" % key] + ["  %s: %s\n" % item for item in value.items()]
    return ["%s: %s\n" % (key, value)]


def derive_style(base_text):
    """The given .clang-format's text with STYLE_KEYS set."""
    dropped = set()
    for key, _, replaces in STYLE_KEYS:
        dropped.add(key)
        dropped.update(replaces)
    lines = base_text.splitlines(keepends=True)
    if sum(1 for line in lines if line.rstrip() == "---") > 1:
        raise Unchecked("the style file has several YAML documents; expected one "
                        "like ns-3's .clang-format")
    kept, end, dropping = [], [], False
    for line in lines:
        top = re.match(r"^([A-Za-z]\w*)\s*:", line)
        if top:
            dropping = top.group(1) in dropped
        elif line.rstrip() == "...":
            end.append(line)
            continue
        elif not line.strip() or not line[0].isspace():
            dropping = False
        if not dropping:
            kept.append(line)
    if kept and not kept[-1].endswith("\n"):
        kept[-1] += "\n"
    added = ["# Set as ns-3-dev's .clang-format sets them (scripts/check_style.py).\n"]
    for key, value, _ in STYLE_KEYS:
        added += yaml_lines(key, value)
    return "".join(kept + added + end)


def effective_style(binary, style_path):
    """clang-format's settings for style_path: {key: value or {subkey: value}}."""
    done = subprocess.run([binary, "--style=file:" + style_path, "--dump-config",
                           "--assume-filename=check.cc"], capture_output=True, text=True,
                          cwd=os.path.dirname(style_path))
    if done.returncode != 0:
        raise Unchecked("clang-format cannot read the derived style: %s"
                        % (done.stderr.strip().splitlines() or ["?"])[0])
    settings, current = {}, None
    for line in done.stdout.splitlines():
        top = re.match(r"^(\w+):\s*(.*)$", line)
        sub = re.match(r"^  (\w+):\s*(.*)$", line)
        if top:
            current = top.group(1)
            settings[current] = top.group(2).strip().strip("'\"") or {}
        elif sub and isinstance(settings.get(current), dict):
            settings[current][sub.group(1)] = sub.group(2).strip().strip("'\"")
    return settings


def verify_style(binary, style_path):
    """Refuses unless clang-format reads every STYLE_KEYS value from style_path."""
    settings = effective_style(binary, style_path)
    for key, value, _ in STYLE_KEYS:
        want = ({k: v.strip('"') for k, v in value.items()} if isinstance(value, dict)
                else value.strip('"'))
        got = settings.get(key)
        if isinstance(want, dict) and isinstance(got, dict):
            got = {k: got.get(k) for k in want}
        if got != want:
            raise Unchecked("the derived style gives %s = %r, not ns-3-dev's %r"
                            % (key, got, want))


def check_format(binary, style_path, root, files, problems):
    """clang-format --dry-run --Werror on the files (a few dozen per run); each
    file it rejects is formatted again to report where it differs, one problem
    per run of differing lines."""
    style = "--style=file:" + style_path
    for start in range(0, len(files), 40):
        batch = files[start:start + 40]
        done = subprocess.run([binary, style, "--dry-run", "--Werror", "--ferror-limit=1"]
                              + batch, capture_output=True, text=True, cwd=root)
        if done.returncode == 0:
            continue
        rejected = sorted({m.group(1) for m in map(CLANG_FORMAT_MESSAGE.match,
                                                   done.stderr.splitlines())
                           if m and m.group(1) in batch})
        if not rejected:
            problems.append((batch[0], 1, "clang-format failed on %s..%s: %s"
                             % (batch[0], batch[-1],
                                (done.stderr.strip().splitlines() or ["no message"])[0])))
        for path in rejected:
            with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
                before = f.read().splitlines()
            formatted = subprocess.run([binary, style, path], capture_output=True, text=True,
                                       cwd=root)
            after = formatted.stdout.splitlines()
            hunks = [op for op in difflib.SequenceMatcher(None, before, after,
                                                           autojunk=False).get_opcodes()
                     if op[0] != "equal"]
            if formatted.returncode != 0:
                problems.append((path, 1, "clang-format %d cannot format it: %s" % (
                    CLANG_FORMAT_MAJOR, (formatted.stderr.strip().splitlines() or ["?"])[0])))
            elif not hunks:
                # The same lines: only the end of the file differs.
                problems.append((path, max(len(before), 1), "clang-format %d ends the file "
                                 "with one newline" % CLANG_FORMAT_MAJOR))
            for kind, first, last, new_first, new_last in hunks:
                span = "" if last - first <= 1 else "lines %d-%d: " % (first + 1, last)
                wanted = " / ".join(l.strip() for l in after[new_first:new_last][:3]
                                    if l.strip())
                if new_last - new_first > 3:
                    wanted += " / ..."
                if len(wanted) > 100:
                    wanted = wanted[:97] + "..."
                if kind == "delete":
                    what = "%sclang-format %d removes or moves %s" % (
                        span, CLANG_FORMAT_MAJOR, "them" if span else "this line")
                elif kind == "insert":
                    what = "clang-format %d writes '%s' before this line" % (
                        CLANG_FORMAT_MAJOR, wanted)
                else:
                    what = "%sclang-format %d writes '%s'" % (span, CLANG_FORMAT_MAJOR, wanted)
                problems.append((path, first + 1, what))


# --- the line checks ------------------------------------------------------------

def check_lines(root, path, data, problems):
    # Lines end at "\n" only (splitlines would also end them at form feeds).
    lines = re.findall(r"[^\n]*\n|[^\n]+$", data.decode("utf-8", "replace"))
    folder = os.path.join(root, os.path.dirname(path))
    guarded = False
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        body = line.rstrip("\r\n")

        if applies("whitespace", path):
            if body != body.rstrip() or line.endswith("\r\n") or line.endswith("\r"):
                problems.append((path, number, "trailing whitespace"))
            elif not line.endswith("\n"):
                problems.append((path, number, "no newline at the end of the file"))

        if stripped in GUARD_OFF:
            guarded = True
        elif stripped in GUARD_ON:
            guarded = False
        if guarded:
            continue

        if applies("tabs", path) and "\t" in line:
            problems.append((path, number, "tab (indent with spaces)"))

        if applies("include", path):
            found = INCLUDE.match(line)
            if found and found.group(2):
                header = found.group(3)
                if os.path.isfile(os.path.join(folder, header)):
                    problems.append((path, number, '#include "ns3/%s" of a header in the same '
                                     'folder: write #include "%s"' % (header, header)))
                elif found.group(1) == "<":
                    problems.append((path, number, '#include <ns3/%s>: write #include '
                                     '"ns3/%s"' % (header, header)))

        if applies("doxygen", path):
            found = DOXYGEN.match(line)
            if found and found.group(1) not in LATEX_WORDS:
                problems.append((path, number, "Doxygen command \\%s: write @%s"
                                 % (found.group(1), found.group(1))))

        if applies("license", path) and GPL_TEXT.search(line):
            problems.append((path, number, "GPL license text: write "
                             "'SPDX-License-Identifier: GPL-2.0-only' instead"))

        if applies("emacs", path) and EMACS.search(line):
            problems.append((path, number, "emacs file style comment"))


def check_encoding(path, data, problems):
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        problems.append((path, line, "not UTF-8 (byte 0x%02x)" % data[error.start]))


# --- main -----------------------------------------------------------------------

def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clang-format", required=True, metavar="PATH",
                        help="the clang-format binary (major version %d)" % CLANG_FORMAT_MAJOR)
    parser.add_argument("--style-file", required=True, metavar="PATH",
                        help="an ns-3 release's .clang-format (ns-3.37's in CI)")
    parser.add_argument("--print-style", action="store_true",
                        help="print the derived .clang-format (ns-3-dev's style) and exit")
    parser.add_argument("root", nargs="?", metavar="MODULE_DIR",
                        default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the module's folder (default: this script's module)")
    args = parser.parse_args(argv)
    root = os.path.abspath(args.root)

    with tempfile.TemporaryDirectory(prefix="check-style-") as folder:
        try:
            version = clang_format_version(args.clang_format)
            try:
                with open(args.style_file, encoding="utf-8") as f:
                    base = f.read()
            except OSError as error:
                raise Unchecked("cannot read the style file %s (%s)"
                                % (args.style_file, error.strerror))
            style = os.path.join(folder, ".clang-format")
            with open(style, "w", encoding="utf-8") as f:
                f.write(derive_style(base))
            verify_style(args.clang_format, style)
            if args.print_style:
                with open(style, encoding="utf-8") as f:
                    sys.stdout.write(f.read())
                return 0
            if not os.path.isdir(root):
                raise Unchecked("%s is not a folder" % root)
        except Unchecked as error:
            print("check_style: %s" % error)
            return 2

        files = tracked_files(root)
        if not any(applies("format", f) for f in files):
            print("check_style: no .c/.cc/.h file in %s (is it the module's folder?)" % root)
            return 2
        problems = []
        check_format(args.clang_format, style, root, [f for f in files if applies("format", f)],
                     problems)
        for path in files:
            if not any(applies(c, path) for c in APPLIES if c != "format"):
                continue
            with open(os.path.join(root, path), "rb") as f:
                data = f.read()
            if applies("encoding", path):
                check_encoding(path, data, problems)
            check_lines(root, path, data, problems)

    for path, line, what in sorted(problems):
        print("%s:%d: %s" % (path, line, what))
    style_name = args.style_file
    if problems:
        print("check_style: %d problem(s) in %d of %d files (clang-format %s, %s with "
              "ns-3-dev's keys)" % (len(problems), len({p[0] for p in problems}), len(files),
                                    version, style_name))
        return 1
    print("check_style: no problems in %d files (clang-format %s, %s with ns-3-dev's keys)"
          % (len(files), version, style_name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
