#!/usr/bin/env python3
"""Fail when librockcreek exports a symbol no installed public header declares.

usage: check_exports.py --lib librockcreek.so --include DIR [--cc CC]
                        [--exclude SUBDIR]... [--print-allowed]

The allowed names are generated from the headers, never listed by hand: every
public header (DIR/*.h, DIR/*/*.h) is run through the C preprocessor once per
build shape (plain, -DGORY, -DSINGLEBITFLAGS, -DRC_POWER_MANAGEMENT), and the
functions and extern variables declared at file scope in text that comes from
DIR (not from system headers) are collected (also those declared with the type
of another, `extern __typeof__(MPI_Send) PMPI_Send;`). The exported names are
`nm -D --defined-only` of the library, minus the symbols the linker itself
defines (_init, _fini, _edata, _end, __bss_start) and the ODR indicators ASan
adds for exported globals (__odr_asan.<allowed name>). Exit status 0 when every
exported name is allowed, every allowed name is exported (a public header
without the visibility pragma would fail here) and the core RCCE calls are
there; 1 otherwise; 2 for bad input.
"""
import argparse
import glob
import os
import re
import subprocess
import sys

SHAPES = [[], ["-DGORY"], ["-DSINGLEBITFLAGS"], ["-DRC_POWER_MANAGEMENT"]]
LINKER = {"_init", "_fini", "_edata", "_end", "__bss_start"}
IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"const", "volatile", "unsigned", "signed", "int", "char",
            "long", "short", "double", "float", "void", "struct", "union",
            "enum", "extern", "static", "inline", "restrict", "__restrict",
            "_Bool", "size_t"}


def header_text(cc, header, incdir, defs):
    """Preprocessed text of header that comes from files under incdir."""
    out = subprocess.run(
        cc.split() + ["-E", "-x", "c", "-I", incdir] + defs + [header],
        check=True, capture_output=True, text=True).stdout
    keep, mine = [], False
    root = os.path.realpath(incdir)
    for line in out.splitlines():
        m = re.match(r'#\s*\d+\s+"([^"]*)"', line)
        if m:
            mine = os.path.realpath(m.group(1)).startswith(root + os.sep)
            continue
        if mine and not line.startswith("#"):
            keep.append(line)
    return "\n".join(keep)


def declared_names(text):
    """Functions and extern variables declared at file scope in text."""
    # Drop brace bodies (struct/enum definitions) and attribute lists.
    flat, depth = [], 0
    for ch in text:
        if ch == "{":
            depth += 1
            flat.append(" ")
        elif ch == "}":
            depth -= 1
            # a body ends a statement (inline functions have no ';')
            flat.append(";" if depth == 0 else " ")
        elif depth == 0:
            flat.append(ch)
    flat = re.sub(r"__attribute__\s*\(\(.*?\)\)", " ", "".join(flat))
    # "extern __typeof__(MPI_Send) PMPI_Send;" declares PMPI_Send.
    flat = re.sub(r"__typeof__\s*\(\s*\w+\s*\)", " typeof_t ", flat)
    names = set()
    for stmt in flat.split(";"):
        stmt = " ".join(stmt.split())
        if (not stmt or stmt.startswith("typedef") or
                stmt.startswith("static") or "extern \"C\"" in stmt):
            continue
        paren = stmt.find("(")
        if paren > 0:
            # int name(...) / t *name(...); skip function pointers "(*".
            head = stmt[:paren].rstrip()
            ids = IDENT.findall(head)
            if ids and ids[-1] not in KEYWORDS and not head.endswith("*)"):
                names.add(ids[-1])
        elif stmt.startswith("extern "):
            ids = IDENT.findall(re.sub(r"\[.*?\]", "", stmt))
            if ids:
                names.add(ids[-1])
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib", required=True)
    ap.add_argument("--include", required=True)
    ap.add_argument("--cc", default=os.environ.get("CC", "cc"))
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--print-allowed", action="store_true")
    a = ap.parse_args()
    if not os.path.isfile(a.lib) or not os.path.isdir(a.include):
        print("check_exports: no library %s or include dir %s"
              % (a.lib, a.include), file=sys.stderr)
        return 2
    headers = sorted(glob.glob(os.path.join(a.include, "*.h")) +
                     glob.glob(os.path.join(a.include, "*", "*.h")))
    headers = [h for h in headers
               if os.path.basename(os.path.dirname(h)) not in a.exclude]
    # A part of another header (rckmpi_win_io.h: `#error "include <mpi.h>,
    # not ..."` when included alone) is read through the header that
    # includes it: its lines come from under DIR there too.
    headers = [h for h in headers
               if not re.search(r'#\s*error\s+"include <',
                                open(h, encoding="utf-8").read())]
    allowed = set()
    for h in headers:
        for defs in SHAPES:
            allowed |= declared_names(header_text(a.cc, h, a.include, defs))
    if a.print_allowed:
        print("\n".join(sorted(allowed)))
    nm = subprocess.run(["nm", "-D", "--defined-only", a.lib], check=True,
                        capture_output=True, text=True).stdout
    exported = set()
    for line in nm.splitlines():
        parts = line.split()
        if len(parts) >= 3:
            exported.add(parts[2].split("@")[0])
    exported -= LINKER
    # ASan marks each exported global with an ODR indicator
    # "__odr_asan.<name>": allowed when <name> is.
    exported = {n for n in exported
                if not (n.startswith("__odr_asan.") and
                        n[len("__odr_asan."):] in allowed)}
    bad = sorted(exported - allowed)
    # A public header whose declarations are not marked default-visible
    # (#pragma GCC visibility push(default)) declares names the library
    # hides: programs would not link.
    hidden = sorted(allowed - exported)
    # The check must be able to fail: the core calls must be found both in
    # the headers and in the library.
    core = {"RCCE_init_shape", "RCCE_send", "RCCE_barrier", "iRCCE_isend",
            "RCCE_qsort", "id_compare"}
    missing = sorted(core - (allowed & exported))
    print("check_exports: %d headers, %d declared names, %d exported"
          % (len(headers), len(allowed), len(exported)))
    for name in bad:
        print("check_exports: exported but in no public header: %s" % name)
    for name in missing:
        print("check_exports: core call not both declared and exported: %s"
              % name)
    for name in hidden:
        print("check_exports: declared in a public header but not exported "
              "(is the header inside #pragma GCC visibility push(default)?): "
              "%s" % name)
    if bad or missing or hidden:
        print("check_exports: FAILED")
        return 1
    print("check_exports: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
