#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Writes doc/tests.rst, the list of the module's test suites and example runs,
from the sources: every test/*.cc and test/examples-to-run.py.

For each ns-3 TestSuite declared in test/*.cc (TestSuite("wan-training-...",
Type::UNIT)): its name, its type (UNIT, SYSTEM, EXAMPLE or PERFORMANCE), its
file, the @brief of the suite's class when it says more than "the ... test
suite", and its test cases in the order the suite adds them, each with the
@brief of its class (EXTENSIVE ones marked).  Then every C++ and Python example
command line of test/examples-to-run.py that ./test.py and scripts/test.sh run.
doc/wan-training.rst includes the file under Validation.

    python3 scripts/doc_tests.py            # writes doc/tests.rst
    python3 scripts/doc_tests.py --check    # exit 1 when doc/tests.rst differs
    python3 scripts/doc_tests.py --stdout   # prints what it would write

Needs only Python 3: nothing is compiled or run.
"""

import argparse
import glob
import os
import re
import runpy
import sys
import textwrap

ROOT = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
OUTPUT = os.path.join("doc", "tests.rst")
# Line width of the written file.
WIDTH = 88

# A Doxygen block comment, then the class it documents (possibly a template).
CLASS = re.compile(
    r"/\*\*(?P<doc>(?:(?!\*/).)*)\*/\s*(?:template\s*<[^>]*>\s*)?"
    r"class\s+(?P<name>\w+)\s*(?:final\s*)?:\s*public\s+(?P<base>[\w:<>]+)",
    re.S)
# A class without a comment (its @brief is then missing).
BARE_CLASS = re.compile(r"class\s+(?P<name>\w+)\s*(?:final\s*)?:\s*public\s+(?P<base>[\w:<>]+)")
# TestSuite("name", Type::UNIT), TestSuite("name", TestSuite::UNIT) or TestSuite("name").
SUITE = re.compile(r'\bTestSuite\s*\(\s*"(?P<name>[^"]+)"\s*(?:,\s*(?P<type>[\w:]+)\s*)?\)')
ADD_CASE = re.compile(r"\bAddTestCase\s*\(\s*new\s+(?P<name>\w+)(?P<rest>[^;]*);")
SUITE_TYPES = ("UNIT", "SYSTEM", "EXAMPLE", "PERFORMANCE")
# A suite @brief that only repeats that it is a suite says nothing.
GENERIC_SUITE_BRIEF = re.compile(r"(?i)^(?:the\s+)?[\w\s'.-]*\btest suite\.?$|^suite of \w+\.?$")
NUMBERS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven",
           8: "eight", 9: "nine"}


def brief(doc):
    """The text of @brief in a Doxygen comment body, on one line."""
    body = re.sub(r"^[ \t]*\*[ \t]?", "", doc, flags=re.M)
    found = re.search(r"@brief\s+(.*?)(?=\n[ \t]*\n|\n[ \t]*@\w|\Z)", body, re.S)
    text = found.group(1) if found else body
    return " ".join(text.split())


def rst_text(text):
    """Plain text safe as RST: C++ code marks become literals, markup
    characters are escaped."""
    out = []
    # `code` (Doxygen's inline code) becomes ``code``; the rest is escaped.
    for i, part in enumerate(re.split(r"`([^`]+)`", text)):
        if i % 2:
            out.append("``" + part + "``")
            continue
        part = part.replace("\\", "\\\\")
        part = re.sub(r"([*|`])", r"\\\1", part)
        # word_ is a reference, _word a target: escape an underscore at a
        # word's end or start.
        part = re.sub(r"(?<=\w)_(?=\W|$)|(?<=\W)_(?=\w)|^_", r"\\_", part)
        out.append(part)
    text = "".join(out)
    # A line that starts like an enumerated list item, or ends with "::".
    text = re.sub(r"^(\d+|[A-Za-z#])\.(\s)", r"\1\\.\2", text)
    if text.endswith("::"):
        text = text[:-1] + "\\:"
    return text


def count(n, noun):
    word = NUMBERS.get(n, str(n))
    return "%s %s%s" % (word, noun, "" if n == 1 else "s")


def read_tests(root):
    """The suites of test/*.cc, sorted by name: dicts of name, type, file,
    brief and cases (lists of [brief, added as QUICK, added as EXTENSIVE])."""
    files = sorted(glob.glob(os.path.join(root, "test", "*.cc")))
    headers = sorted(glob.glob(os.path.join(root, "test", "*.h")))
    briefs = {}
    sources = {}
    for path in headers + files:
        with open(path, encoding="utf-8") as f:
            sources[path] = f.read()
        for m in CLASS.finditer(sources[path]):
            briefs.setdefault(m.group("name"), brief(m.group("doc")))
    suites = []
    for path in files:
        text = sources[path]
        classes = [(m.start(), m.group("name"), m.group("base"))
                   for m in BARE_CLASS.finditer(text)]
        for m in SUITE.finditer(text):
            # The class whose constructor declares the suite: the last class
            # before it; its body runs to the next class.
            owner = [c for c in classes if c[0] < m.start()]
            if not owner or not owner[-1][2].endswith("TestSuite"):
                continue
            start, cls, _ = owner[-1]
            later = [c[0] for c in classes if c[0] > m.start()]
            body = text[m.end():later[0] if later else len(text)]
            kind = (m.group("type") or "UNIT").split("::")[-1]
            if kind not in SUITE_TYPES:
                raise SystemExit("doc_tests.py: %s: suite %s has an unknown type %s"
                                 % (os.path.relpath(path, root), m.group("name"), kind))
            # A class added more than once (other parameters, a loop) is one
            # entry: (brief, added as a QUICK case, added as an EXTENSIVE one).
            cases = {}
            for add in ADD_CASE.finditer(body):
                name = add.group("name")
                if name not in briefs:
                    raise SystemExit("doc_tests.py: %s: test case %s has no @brief"
                                     % (os.path.relpath(path, root), name))
                extensive = "EXTENSIVE" in add.group("rest") or "Extensive" in add.group("rest")
                entry = cases.setdefault(name, [briefs[name], False, False])
                entry[2 if extensive else 1] = True
            suite_brief = briefs.get(cls, "")
            if GENERIC_SUITE_BRIEF.match(suite_brief):
                suite_brief = ""
            suites.append({"name": m.group("name"), "type": kind,
                           "file": os.path.relpath(path, root).replace(os.sep, "/"),
                           "brief": suite_brief, "cases": list(cases.values())})
    names = [s["name"] for s in suites]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise SystemExit("doc_tests.py: suites declared twice: " + ", ".join(twice))
    return sorted(suites, key=lambda s: s["name"])


def read_examples(root):
    """The C++ and Python example command lines of test/examples-to-run.py
    that are run (do_run true), as test.py and scripts/test.sh read them."""
    lists = runpy.run_path(os.path.join(root, "test", "examples-to-run.py"))
    cpp = [entry[0] for entry in lists.get("cpp_examples", []) if eval(entry[1])]
    python = [entry[0] for entry in lists.get("python_examples", []) if eval(entry[1])]
    return cpp, python


def wrap(text, first, rest):
    """text as lines of at most WIDTH characters, the first indented by first,
    the others by rest."""
    return textwrap.wrap(text, WIDTH, initial_indent=first, subsequent_indent=rest,
                         break_long_words=False, break_on_hyphens=False)


def render(root=ROOT):
    """The text of doc/tests.rst."""
    suites = read_tests(root)
    cpp, python = read_examples(root)
    kinds = [(k, sum(1 for s in suites if s["type"] == k)) for k in SUITE_TYPES]
    kinds = ", ".join("%d %s" % (n, k) for k, n in kinds if n)
    n_cases = sum(len(s["cases"]) for s in suites)
    extensive = sum(1 for s in suites for _, _, e in s["cases"] if e)
    lines = [
        ".. Written by scripts/doc_tests.py from test/*.cc and test/examples-to-run.py;",
        "   edit those, then run python3 scripts/doc_tests.py.",
        "",
    ]
    lines += wrap(
        "The module has %d test suites (%s), each named ``wan-training-<component>``, "
        "with %d test cases (a case the suite adds more than once, with other "
        "parameters, is listed once)%s. Each suite below: its type, its file, the "
        "number of its cases, and what each case checks, in the order the suite runs "
        "them."
        % (len(suites), kinds, n_cases,
           "" if not extensive else
           "; %s an EXTENSIVE run, made only with ``--fullness=EXTENSIVE``"
           % ("one case has" if extensive == 1 else count(extensive, "case") + " have")),
        "", "")
    lines.append("")
    for s in suites:
        lines.append("``%s``" % s["name"])
        head = "%s, ``%s``, %s." % (s["type"], s["file"], count(len(s["cases"]), "case"))
        if s["brief"]:
            head += " " + rst_text(s["brief"])
        lines += wrap(head, "  ", "  ")
        lines.append("")
        for text, quick, is_extensive in s["cases"]:
            text = rst_text(text)
            if is_extensive and quick:
                text += " (Also an EXTENSIVE case, with other parameters.)"
            elif is_extensive:
                text = "EXTENSIVE: " + text
            lines += wrap(text, "  * ", "    ")
        lines.append("")
    lines += wrap("``test/examples-to-run.py`` has %s that ``./test.py`` and "
                  "``scripts/test.sh`` run%s::"
                  % (count(len(cpp), "C++ example command line"),
                     "" if not python else " and %s" % count(len(python), "Python example")),
                  "", "")
    lines.append("")
    for example in cpp + python:
        lines.append("  " + example)
    lines.append("")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(
        description="Writes doc/tests.rst (test suites and examples) from test/.")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--check", action="store_true",
                      help="exit 1 with one line when doc/tests.rst is not what it would write")
    what.add_argument("--stdout", action="store_true", help="print the text instead of writing it")
    parser.add_argument("--root", default=ROOT, help="the module's folder (default: this one's)")
    args = parser.parse_args()
    text = render(args.root)
    path = os.path.join(args.root, OUTPUT)
    if args.stdout:
        sys.stdout.write(text)
        return 0
    if args.check:
        try:
            with open(path, encoding="utf-8") as f:
                current = f.read()
        except OSError:
            current = None
        if current != text:
            print("doc_tests.py: %s is %s; run python3 scripts/doc_tests.py"
                  % (OUTPUT, "missing" if current is None else "out of date with test/"),
                  file=sys.stderr)
            return 1
        return 0
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
