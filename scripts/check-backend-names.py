#!/usr/bin/env python3
"""Refuse code above the backends that behaves by a backend's name (issue 32).

  scripts/check-backend-names.py [ROOT]

Libraries and tools ask a backend's capabilities (RCK_CAP_* in
src/hal/rck/hal.h: rck_hal_caps, ops->caps, rck_hal_backend_with; in
Python rockcreek.caps: the reports' "capabilities", `rck backends`), never
its name: a new backend then works with every library and tool without
edits. This scans the C sources under ROOT/src outside src/backends (where
each backend names itself) and reports every string comparison against a
backend's name (an ops table's `name`, or the literals "sim", "mpi",
"native"; MPI-IO's data representation "native" is not a backend); and the
Python under ROOT/python/src, where a comparison (==, !=, in, not in) with
one of those literals, or a tuple, list or set holding one, is reported. A
comparison of one of those words that is not about a backend (S-Net's
distribution layer "mpi") is listed in scripts/check-backend-names.allow as
"path: arguments" (C: the str*cmp call's arguments; Python: the comparison's
text). Exits 1 on any finding.
"""
import ast
import os
import re
import sys

CMP = re.compile(r"\bstr(?:n|case|ncase)?cmp\s*\(")
NAME_FIELD = re.compile(r"ops\s*->\s*name\b")
LITERAL = re.compile(r'"(sim|mpi|native)"')
NOT_A_BACKEND = re.compile(r"\bdatarep\b")


def calls(text):
    """Yield (line number, argument text) of each str*cmp call."""
    for m in CMP.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth > 0:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        yield text.count("\n", 0, m.start()) + 1, text[m.end():i - 1]


def allowed(root):
    """The (path, arguments) pairs of scripts/check-backend-names.allow."""
    pairs = set()
    name = os.path.join(root, "scripts", "check-backend-names.allow")
    if os.path.exists(name):
        with open(name, encoding="utf-8") as fh:
            for line in fh:
                line = line.split("#", 1)[0].strip()
                if ":" in line:
                    path, args = line.split(":", 1)
                    pairs.add((path.strip(), " ".join(args.split())))
    return pairs


NAMES = {"sim", "mpi", "native"}


def _names_in(node):
    """Does @p node stand for a backend's name (a literal, or a tuple, list
    or set of literals holding one)?"""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and node.value in NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_in(e) for e in node.elts)
    return False


def python_findings(root, allow):
    """(path, line, text) of every comparison with a backend's name in the
    Python under ROOT/python/src."""
    base = os.path.join(root, "python", "src")
    out = []
    for d, _dirs, files in os.walk(base):
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            path = os.path.join(d, f)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as fh:
                text = fh.read()
            for node in ast.walk(ast.parse(text, path)):
                if not isinstance(node, ast.Compare):
                    continue
                if not any(_names_in(n) for n in [node.left] +
                           node.comparators):
                    continue
                seg = " ".join((ast.get_source_segment(text, node) or
                                "").split())
                if (rel, seg) not in allow:
                    out.append((rel, node.lineno, seg))
    return out


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    allow = allowed(root)
    src = os.path.join(root, "src")
    found = 0
    for rel, line, seg in python_findings(root, allow):
        found += 1
        print(f"{rel}:{line}: compares a backend's name ({seg}): ask its "
              "capabilities (rockcreek.caps) instead")
    for base, dirs, files in os.walk(src):
        rel = os.path.relpath(base, src)
        if rel == "backends" or rel.startswith("backends" + os.sep):
            continue
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(base, f)
            with open(path, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            rel_path = os.path.relpath(path, root)
            for line, args in calls(text):
                if (rel_path, " ".join(args.split())) in allow:
                    continue
                if NAME_FIELD.search(args) or (
                        LITERAL.search(args) and not NOT_A_BACKEND.search(args)):
                    found += 1
                    print(f"{os.path.relpath(path, root)}:{line}: compares a "
                          f"backend's name ({' '.join(args.split())}): ask "
                          "its capabilities (RCK_CAP_*) instead")
    if found:
        print(f"{found} comparison(s) of backend names above the backends")
        return 1
    print("no library, tool or Python module compares a backend's name")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
