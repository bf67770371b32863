#!/usr/bin/env python3
"""Refuse code above the backends that behaves by a backend's name (issue 32).

  scripts/check-backend-names.py [ROOT]

Libraries and tools ask a backend's capabilities (RCK_CAP_* in
src/hal/rck/hal.h: rck_hal_caps, ops->caps, rck_hal_backend_with), never
its name: a new backend then works with every library without edits. This
scans the C sources under ROOT/src outside src/backends (where each backend
names itself) and reports every string comparison against a backend's name
(an ops table's `name`, or the literals "sim", "mpi", "native"; MPI-IO's
data representation "native" is not a backend). A comparison of one of
those words that is not about a backend (S-Net's distribution layer "mpi")
is listed in scripts/check-backend-names.allow as "path: arguments". Exits 1
on any finding.
"""
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


def main(argv):
    root = argv[1] if len(argv) > 1 else "."
    allow = allowed(root)
    src = os.path.join(root, "src")
    found = 0
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
    print("no library or tool compares a backend's name")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
