#!/usr/bin/env python3
"""Every MPI call of librckmpi takes the library's lock (docs/MPI.md,
"Threads"; src/rckmpi/lock.h).

  scripts/check-pmpi-guard.py [ROOT]

Reads ROOT/src/rckmpi/*.c (ROOT: the repository, by default this script's
parent). Each definition of a function PMPI_Xxx must have `RK_MPI_GUARD;`
as the first statement of its body, and each RK_MPI_ALIAS(Xxx) must
follow a definition of PMPI_Xxx that this script found (so that a
definition written in a form it does not read fails too, instead of
escaping the check). Exits 1 on any finding, naming the file and line;
prints how many definitions it checked.
"""
import os
import re
import sys

# A definition: at the start of a line, a return type, PMPI_name, the
# parameters (no ';' or '{' inside), then the body's '{' on its own line.
DEF = re.compile(r"^(?![ \t#/*])[^\n;{}()]*?\bPMPI_(\w+)\s*\(([^;{}]*?)\)\s*\n\{\n",
                 re.M)
ALIAS = re.compile(r"^RK_MPI_ALIAS\((\w+)\);", re.M)
GUARD = "RK_MPI_GUARD;"


def first_statement(text, pos):
    """The first line after @p pos that is not blank or a comment."""
    in_comment = False
    for line in text[pos:].split("\n"):
        s = line.strip()
        if in_comment:
            if "*/" in s:
                in_comment = False
            continue
        if not s or s.startswith("//"):
            continue
        if s.startswith("/*"):
            in_comment = "*/" not in s
            continue
        return s
    return ""


def check_file(path, problems):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    defined = set()
    for m in DEF.finditer(text):
        name = m.group(1)
        line = text.count("\n", 0, m.start()) + 1
        defined.add(name)
        if first_statement(text, m.end()) != GUARD:
            problems.append(f"{path}:{line}: PMPI_{name}: the body does not "
                            f"start with {GUARD}")
    for m in ALIAS.finditer(text):
        if m.group(1) not in defined:
            line = text.count("\n", 0, m.start()) + 1
            problems.append(f"{path}:{line}: RK_MPI_ALIAS({m.group(1)}): no "
                            f"definition of PMPI_{m.group(1)} found in this "
                            "file (write it as `type PMPI_Xxx(...)` with its "
                            "'{' on a line of its own)")
    return len(defined)


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.dirname(os.path.abspath(__file__)))
    src = os.path.join(root, "src", "rckmpi")
    problems = []
    n = 0
    for name in sorted(os.listdir(src)):
        if name.endswith(".c"):
            n += check_file(os.path.join(src, name), problems)
    for p in problems:
        print(p)
    if n == 0:
        print(f"no PMPI_ definition found under {src}")
        return 1
    print(f"{n} PMPI_ definitions checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
