# SPDX-License-Identifier: GPL-2.0-only
"""doc/tests.rst, the documentation's list of test suites and examples, is what
scripts/doc_tests.py writes from test/: no suite missing, the count right.
Needs no ns-3."""

import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
SCRIPT = os.path.join(ROOT, "scripts", "doc_tests.py")


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          timeout=60)


def declared_suites(root):
    """The names of the TestSuite declarations in root/test/*.cc, counted here
    independently of the script."""
    names = []
    for path in sorted(glob.glob(os.path.join(root, "test", "*.cc"))):
        with open(path, encoding="utf-8") as f:
            names += re.findall(r'\bTestSuite\s*\(\s*"([^"]+)"', f.read())
    return names


def test_doc_tests_rst_is_up_to_date():
    done = run("--check")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""


def test_generated_text_names_every_suite_and_their_number():
    done = run("--stdout")
    assert done.returncode == 0, done.stderr
    text = done.stdout
    names = declared_suites(ROOT)
    assert "wan-training-slot-table" in names
    assert len(names) == len(set(names)) > 40
    assert "The module has %d test suites (" % len(names) in text
    # Each suite is a term of the list, once.
    terms = re.findall(r"^``(wan-training-[^`]+)``$", text, re.M)
    assert terms == sorted(names)
    assert "``wan-training-slot-table``\n  UNIT, ``test/fpga-slot-table-test-suite.cc``" in text
    # The examples test.py runs, every one.
    assert "  wan-udp-baseline --scale=1000\n" in text
    assert "  wan-training-plan --schedule=all-to-all --hbmGB=32 --json\n" in text


def test_check_fails_with_one_line_when_a_suite_is_added(tmp_path):
    shutil.copytree(os.path.join(ROOT, "test"), tmp_path / "test",
                    ignore=shutil.ignore_patterns("python", "__pycache__"))
    (tmp_path / "doc").mkdir()
    done = run("--check", "--root", str(tmp_path))
    assert done.returncode == 1 and "missing" in done.stderr
    assert run("--root", str(tmp_path)).returncode == 0
    assert run("--check", "--root", str(tmp_path)).returncode == 0

    (tmp_path / "test" / "new-test-suite.cc").write_text(
        "/**\n * @brief What the new case checks.\n */\n"
        "class NewTestCase : public TestCase\n{\n};\n\n"
        "/**\n * @brief The new test suite.\n */\n"
        "class NewTestSuite : public TestSuite\n{\n  public:\n    NewTestSuite()\n"
        '        : TestSuite("wan-training-new", Type::SYSTEM)\n'
        "    {\n        AddTestCase(new NewTestCase);\n    }\n};\n")
    done = run("--check", "--root", str(tmp_path))
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and "doc/tests.rst" in done.stderr

    assert run("--root", str(tmp_path)).returncode == 0
    assert run("--check", "--root", str(tmp_path)).returncode == 0
    with open(tmp_path / "doc" / "tests.rst", encoding="utf-8") as f:
        text = f.read()
    assert "``wan-training-new``\n  SYSTEM, ``test/new-test-suite.cc``, one case.\n" in text
    assert "  * What the new case checks.\n" in text
    assert "The module has %d test suites" % (len(declared_suites(ROOT)) + 1) in text
