# SPDX-License-Identifier: GPL-2.0-only
"""The module's shape, checked from its sources (no ns-3 needed): no function
in model/ or helper/ over 80 lines (attribute lists in GetTypeId aside), no
file in helper/ over 700 lines, no include from model/ to helper/, and no
include cycle between components (a component: a .h and its .cc)."""

import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
FOLDERS = ("model", "helper")
MAX_FUNCTION_LINES = 80
MAX_HELPER_FILE_LINES = 700
INCLUDE = re.compile(r'^#include "(?:ns3/)?([a-z0-9-]+)\.h"')


def sources():
    """(folder, file name, lines) of every .h and .cc in model/ and helper/."""
    for folder in FOLDERS:
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            if name.endswith((".h", ".cc")):
                with open(os.path.join(ROOT, folder, name), encoding="utf-8") as f:
                    yield folder, name, f.read().split("\n")


def functions(lines):
    """(first line, body lines, signature) of every function defined at the
    top level: ns-3's style puts its braces alone in column 0."""
    i = 0
    while i < len(lines):
        if lines[i] == "{":
            j = i - 1
            while j >= 0 and not lines[j].strip():
                j -= 1
            k = j
            while k > 0 and lines[k - 1].strip() and not lines[k - 1].startswith(("}", "//", " *", "/*")):
                k -= 1
            head = " ".join(line.strip() for line in lines[k:j + 1])
            if not re.match(r"(namespace|struct|class|enum|union|extern)\b", head):
                end = i + 1
                while end < len(lines) and not lines[end].startswith("}"):
                    end += 1
                yield i + 1, end - i - 1, head
                i = end
        i += 1


def test_functions_fit_on_a_screen():
    long = ["%s/%s:%d %d lines: %s" % (folder, name, first, n, head[:80])
            for folder, name, lines in sources()
            for first, n, head in functions(lines)
            if n > MAX_FUNCTION_LINES and "GetTypeId" not in head]
    assert long == [], "functions over %d lines:\n%s" % (MAX_FUNCTION_LINES, "\n".join(long))


def test_the_function_finder_sees_a_long_function():
    body = ["int", "F()", "{"] + ["    ++x;"] * 81 + ["}"]
    found = list(functions(["namespace ns3", "{", ""] + body))
    assert [(first, n) for first, n, head in found] == [(6, 81)]


def test_helper_files_are_short():
    big = ["helper/%s: %d lines" % (name, len(lines) - 1)
           for folder, name, lines in sources()
           if folder == "helper" and len(lines) - 1 > MAX_HELPER_FILE_LINES]
    assert big == [], "helper files over %d lines: %s" % (MAX_HELPER_FILE_LINES, big)


def includes():
    """component -> the components it includes (model/ and helper/ only)."""
    where = {}
    for folder, name, lines in sources():
        where[name.rsplit(".", 1)[0]] = folder
    graph = {}
    for folder, name, lines in sources():
        me = name.rsplit(".", 1)[0]
        for line in lines:
            m = INCLUDE.match(line)
            if m and m.group(1) in where and m.group(1) != me:
                graph.setdefault(me, set()).add(m.group(1))
    return where, graph


def test_model_does_not_include_helper():
    where, graph = includes()
    wrong = sorted("%s -> %s" % (a, b) for a, bs in graph.items() for b in bs
                   if where[a] == "model" and where[b] == "helper")
    assert wrong == []


def cycles(graph):
    """Every component on a cycle, found by depth-first search."""
    found, state = [], {}

    def visit(node, path):
        state[node] = "open"
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def test_no_include_cycle():
    where, graph = includes()
    assert cycles(graph) == []


def test_the_cycle_finder_sees_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_test_classes_have_distinct_names():
    """Two test files that define a class of one name at global scope break
    the one-definition rule: the linker keeps one constructor for both, and
    one suite silently runs the other's case."""
    seen = {}
    for name in sorted(os.listdir(os.path.join(ROOT, "test"))):
        if name.endswith((".cc", ".h")):
            with open(os.path.join(ROOT, "test", name), encoding="utf-8") as f:
                for cls in re.findall(r"^class (\w+)", f.read(), re.MULTILINE):
                    seen.setdefault(cls, []).append(name)
    assert {c: files for c, files in seen.items() if len(files) > 1} == {}


# Methods that change their object: a check macro evaluates its first argument
# again to report a failure, so a call to one of them there runs twice and the
# message shows the second call's value.
STATEFUL_CALLS = re.compile(r"\.(Receive|CheckDetection|TakeNacksDue|ExpectBelow|Add|Pop|Sample)\(")
CHECK = re.compile(r"NS_TEST_(?:EXPECT|ASSERT)_MSG_[A-Z_]+\(")


def first_argument(text, start):
    """The first argument of the call whose '(' ends just before start."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            if depth == 0:
                return text[start:i]
            depth -= 1
        elif text[i] == "," and depth == 0:
            return text[start:i]
    return text[start:]


def stateful_checks(text):
    """The first arguments of check macros in text that call a stateful method."""
    return [arg for m in CHECK.finditer(text)
            if STATEFUL_CALLS.search(arg := first_argument(text, m.end()))]


def test_checks_do_not_call_stateful_methods():
    """Every check stores a stateful call's result first."""
    found = {}
    for name in sorted(os.listdir(os.path.join(ROOT, "test"))):
        if name.endswith((".cc", ".h")):
            with open(os.path.join(ROOT, "test", name), encoding="utf-8") as f:
                if calls := stateful_checks(f.read()):
                    found[name] = calls
    assert found == {}


def test_the_stateful_check_finder_sees_one():
    text = ('NS_TEST_EXPECT_MSG_EQ(Name(t.Receive(3)), std::string("first"), "x");\n'
            'auto got = b.Receive(p, MilliSeconds(0));\nNS_TEST_EXPECT_MSG_EQ(got, true, "y");\n'
            'NS_TEST_EXPECT_MSG_EQ(f(a, b.Add(1)), 2, "z");\n')
    assert stateful_checks(text) == ["Name(t.Receive(3))", "f(a, b.Add(1))"]


def test_test_cases_report_exceptions():
    """Every test case derives from WanTestCase (test/wan-training-test-utils.h),
    which fails the case on an exception its checks let escape instead of
    ending the test runner."""
    direct = []
    for name in sorted(os.listdir(os.path.join(ROOT, "test"))):
        if name.endswith(".cc"):
            with open(os.path.join(ROOT, "test", name), encoding="utf-8") as f:
                if re.search(r"public TestCase\b|void DoRun\(\)", f.read()):
                    direct.append(name)
    assert direct == []
