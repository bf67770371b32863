#!/usr/bin/env python3
"""Refuse the core clock written down in Python (issue 32: one home per
parameter).

  scripts/check-clock.py [ROOT]

The chip's core clock lives in the chip file (frequencies_mhz.core); the
Python reads it from a run's report, sim_calib's info line or the chip
file (rockcreek.published.chip_core_mhz), never as a literal. This reports:

* in ROOT/python/src: every number in [533, 534) (533, 533.0, 533.33...)
  and every string holding one as a word ("cycles at 533 MHz"), but for
  the chip file's name "scc-533-800-800";
* in the tests' Python (ROOT/python/tests, ROOT/tests/**/*.py): such a
  number or string inside an assert statement (a comparison with the
  clock; synthetic input data elsewhere in a test is not the clock);
* in the tests' C (ROOT/tests/**/*.c): such a number, outside strings and
  comments, on a line that compares (CHECK, expect, assert, ==, !=).

Exits 1 on any finding, naming the file and line.
"""
import ast
import os
import re
import sys

WORD = re.compile(r"(?<![\w.-])533(?:\.\d+)?(?![\w-])")
NAME = re.compile(r"scc-533-800-800")


def is_clock(node):
    """A constant that writes the clock down."""
    if not isinstance(node, ast.Constant):
        return False
    v = node.value
    if isinstance(v, bool):
        return False
    if isinstance(v, (int, float)):
        return 533 <= v < 534
    if isinstance(v, str):
        return WORD.search(NAME.sub("", v)) is not None
    return False


def findings(path, asserts_only):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        tree = ast.parse(text, path)
    except SyntaxError as e:
        return [(e.lineno or 0, "does not parse: %s" % e.msg)]
    out = []
    roots = ([n for n in ast.walk(tree) if isinstance(n, ast.Assert)]
             if asserts_only else [tree])
    seen = set()
    for r in roots:
        for n in ast.walk(r):
            if is_clock(n) and id(n) not in seen:
                seen.add(id(n))
                out.append((n.lineno, "the core clock written down: %r"
                            % (n.value,)))
    return out


C_STRING = re.compile(r'"(?:\\.|[^"\\])*"|\'(?:\\.|[^\'\\])*\'')
C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
C_COMPARES = re.compile(r"\bCHECK\w*\s*\(|\bexpect\w*\s*\(|\bassert\s*\(|[=!]=")
C_CLOCK = re.compile(r"(?<![\w.])533(?:\.\d*)?(?![\w.])")


def c_findings(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    # blank comments and strings, keeping the lines
    text = C_COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)
    text = C_STRING.sub(lambda m: " " * len(m.group(0)), text)
    out = []
    for n, line in enumerate(text.split("\n"), start=1):
        if C_COMPARES.search(line) and C_CLOCK.search(line):
            out.append((n, "the core clock written down in a comparison"))
    return out


def c_files(top):
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(dirs)
        for f in sorted(files):
            if f.endswith(".c"):
                yield os.path.join(d, f)


def python_files(top):
    for d, dirs, files in os.walk(top):
        dirs[:] = sorted(x for x in dirs if x not in ("__pycache__",))
        for f in sorted(files):
            if f.endswith(".py"):
                yield os.path.join(d, f)


def main(argv):
    root = argv[1] if len(argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..")
    bad = 0
    for top, asserts_only in ((os.path.join(root, "python", "src"), False),
                              (os.path.join(root, "python", "tests"), True),
                              (os.path.join(root, "tests"), True)):
        if not os.path.isdir(top):
            print("check-clock: %s: no such directory" % top)
            return 2
        for p in python_files(top):
            for line, msg in findings(p, asserts_only):
                print("%s:%d: %s (read it from the report or the chip "
                      "file: rockcreek.published.chip_core_mhz)"
                      % (os.path.relpath(p, root), line, msg))
                bad += 1
    for p in c_files(os.path.join(root, "tests")):
        for line, msg in c_findings(p):
            print("%s:%d: %s (read it from the chip: rck_chip_t.core_mhz, "
                  "or the chip file)" % (os.path.relpath(p, root), line, msg))
            bad += 1
    if bad:
        print("check-clock: %d finding(s)" % bad)
        return 1
    print("check-clock: no core clock written down in Python or in the "
          "tests' comparisons")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
