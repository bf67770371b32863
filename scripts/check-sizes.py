#!/usr/bin/env python3
"""Check the size limits of the sources (issue 10): no C or Python file
under the ROOTs (default src/; CTest checks src/ and python/src) longer than
MAX_FILE lines, no function longer than MAX_FUNC lines (C: from the first
line of its signature to its closing brace; Python: from its def to its
last line, from the syntax tree).

  scripts/check-sizes.py [--max-file N] [--max-func N] [--allow FILE] [ROOT...]

--allow names a file of known exceptions, one "path function lines" per
line (scripts/check-sizes.allow; "-" for the function: the whole file's
length): such a function or file may keep its length until it is split, but not grow; every other one must fit.

A function is recognised in the project's style (clang-format, LLVM base):
its opening brace alone on a line at column 0, its closing brace at column
0. Prints every violation; exits 1 if there is any, 0 otherwise.
"""
import argparse
import ast
import os
import re
import sys

SIG_END = re.compile(r"\)\s*(__attribute__\(\(.*\)\))?\s*$")


def functions(lines):
    """Yield (name, first line, last line) of every function, 1-based."""
    i = 0
    n = len(lines)
    while i < n:
        if lines[i].rstrip("\n") == "{" and i > 0:
            # walk back over the signature to its first line
            j = i - 1
            while j > 0 and lines[j - 1].strip() and \
                    not lines[j - 1].rstrip().endswith((";", "}", "*/")) and \
                    not lines[j - 1].startswith("#") and \
                    lines[j][0] in " \t":
                j -= 1
            sig = " ".join(l.strip() for l in lines[j:i])
            m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", sig)
            k = i + 1
            while k < n and not lines[k].startswith("}"):
                k += 1
            if m and SIG_END.search(sig):
                yield m.group(1), j + 1, k + 1
            i = k + 1
            continue
        i += 1


def py_functions(lines, rel):
    """Yield (name, first line, last line) of every Python function (its
    decorators excluded), 1-based, from the syntax tree."""
    try:
        tree = ast.parse("".join(lines), rel)
    except SyntaxError as e:
        print(f"{rel}: cannot be parsed: {e}")
        return
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node.name, node.lineno, node.end_lineno


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-file", type=int, default=1200)
    ap.add_argument("--max-func", type=int, default=120)
    ap.add_argument("--allow", help="known exceptions (path function lines)")
    repo = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    ap.add_argument("roots", nargs="*", default=[os.path.join(repo, "src")],
                    help="folders to check (C sources, and Python's)")
    a = ap.parse_args()
    allow = {}
    if a.allow:
        with open(a.allow, encoding="utf-8") as fp:
            for line in fp:
                f = line.split("#", 1)[0].split()
                if len(f) == 3:
                    allow[(f[0], f[1])] = int(f[2])
    bad = 0
    nfiles = nfuncs = 0
    for root in a.roots:
        for d, _, files in os.walk(root):
            for f in sorted(files):
                if not f.endswith((".c", ".h", ".py")):
                    continue
                p = os.path.join(d, f)
                rel = os.path.relpath(p, repo)
                with open(p, encoding="utf-8", errors="replace") as fp:
                    lines = fp.readlines()
                nfiles += 1
                if len(lines) > allow.get((rel, "-"), a.max_file):
                    print(f"{rel}: {len(lines)} lines (at most {a.max_file})")
                    bad += 1
                funcs = (py_functions(lines, rel) if f.endswith(".py")
                         else functions(lines))
                for name, first, last in funcs:
                    nfuncs += 1
                    length = last - first + 1
                    if length <= allow.get((rel, name), a.max_func):
                        continue
                    if length > a.max_func:
                        print(f"{rel}:{first}: {name}() is {length} "
                              f"lines (at most {a.max_func})")
                        bad += 1
    print(f"check-sizes: {nfiles} files, {nfuncs} functions, "
          f"{bad} over the limits")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
