#!/usr/bin/env python3
"""The file-level dependency graph of src/, from the built objects.

An arrow A -> B means: the object built from source file A uses a symbol
that the object built from B defines (read with nm; calls through an ops
table are not arrows, which is the point of an ops table). Two rules,
issue 32's "Done when":

* no circle of more than MAX (3) files: a strongly connected set of
  files is one component in all but name;
* no arrow up: a file of a layer never uses a symbol of a layer above it
  (the layer order is CMakeLists.txt's one list: RCK_BASE_LAYERS,
  RCK_LIBRARY_LAYERS, RCK_OWN_LIBRARIES, RCK_LATE_LIBRARIES, then the
  tools); layers of the same rank (rckmpi, ip) may not use each other.

The same circle rule holds for the include graph, where foo.c and foo.h
are one module and an arrow is an #include "..." of another module's
header (what a drawing of the source tree shows as a circle).

Known exceptions are listed in scripts/check-deps.allow, one per line:
  circle <dir> <size>   a call circle of at most <size> files, all in <dir>
  include-circle <dir> <size>   the same for an include circle
  up <file> <file>      an arrow up from the first file to the second
so the check fails on anything new, and on an allowed entry that no
longer occurs (a stale exception is a false statement).

Usage: check-deps.py [--build DIR] [--max N] [--dot FILE] [--list]
Exit status 0 when clean, 1 on a violation, 2 on a usage or build
problem (no objects found: build first).
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# objects of the same source built for several targets: the first in this
# list is the one read (the uncounted library, one MPI flavour)
SKIP_TARGETS = re.compile(r"(counted|mpich|_static|_settings$|snet_mpi)")


def layers_from_cmake():
    """@return [[names of rank 0], [rank 1], ...] from CMakeLists.txt."""
    text = open(os.path.join(ROOT, "CMakeLists.txt")).read()
    ranks = []
    for var in ("RCK_BASE_LAYERS", "RCK_LIBRARY_LAYERS",
                "RCK_OWN_LIBRARIES", "RCK_LATE_LIBRARIES"):
        m = re.search(r"set\(%s ([^)]*)\)" % var, text)
        if m is None:
            raise SystemExit("check-deps: %s not found in CMakeLists.txt"
                             % var)
        names = m.group(1).split()
        if var == "RCK_OWN_LIBRARIES":
            ranks.append(names)       # side by side
        else:
            ranks.extend([n] for n in names)
    ranks.append(["tools"])
    return ranks


def find_objects(build):
    """@return {source path relative to src/: object path}."""
    objs = {}
    srcdir = os.path.join(build, "src")
    for dirpath, _dirs, files in os.walk(srcdir):
        m = re.search(r"/CMakeFiles/([^/]+)\.dir(/|$)", dirpath)
        if m is None or SKIP_TARGETS.search(m.group(1)):
            continue
        for f in files:
            if not f.endswith(".c.o"):
                continue
            rel_dir = os.path.relpath(dirpath[:m.start()], srcdir)
            inner = dirpath[m.end():]
            # CMake spells ".." as "__" in object paths (a file of
            # another folder compiled into this target)
            parts = [".." if x == "__" else x
                     for x in os.path.join(rel_dir, inner, f[:-2]).split("/")]
            src = os.path.normpath(os.path.join(*parts))
            # a source compiled into two targets is read once
            objs.setdefault(src, os.path.join(dirpath, f))
    return objs


def read_symbols(path):
    """@return (defined globals, undefined) of one object (gcc-nm reads
    LTO objects too)."""
    for nm in ("gcc-nm", "nm"):
        try:
            out = subprocess.run([nm, "-P", path], capture_output=True,
                                 text=True, check=True).stdout
            break
        except (OSError, subprocess.CalledProcessError):
            out = None
    if out is None:
        raise SystemExit("check-deps: nm cannot read %s" % path)
    defs, undefs = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 2:
            continue
        name, kind = parts[0], parts[1]
        if kind == "U":
            undefs.add(name)
        elif kind in "TDBRCGSVW" and kind.isupper():
            defs.add(name)
    return defs, undefs


def libc_names():
    """@return the C library's exported names: a file that defines one
    interposes it (librckip's sockets), and a use of one is the C
    library's, not an arrow."""
    names = set()
    try:
        cc = subprocess.run(["cc", "-print-file-name=libc.so.6"],
                            capture_output=True, text=True).stdout.strip()
    except OSError:
        cc = ""
    for lib in (cc, "/lib/x86_64-linux-gnu/libc.so.6",
                "/usr/lib64/libc.so.6", "/lib64/libc.so.6"):
        if os.path.exists(lib):
            out = subprocess.run(["nm", "-D", "--defined-only", lib],
                                 capture_output=True, text=True).stdout
            for line in out.splitlines():
                parts = line.split()
                if len(parts) == 3:
                    names.add(parts[2].split("@")[0])
            break
    if not names:
        raise SystemExit("check-deps: the C library's symbols not found "
                         "(nm -D libc.so.6)")
    return names


# the mpi backend's plugin links the system's MPI, never librckmpi
EXTERNAL = [(re.compile(r"^backends/mpi/"), re.compile(r"^P?MPI[IX]?_"))]


def graph(objs):
    syms = {src: read_symbols(o) for src, o in objs.items()}
    libc = libc_names()
    owner = {}
    for src, (defs, _u) in syms.items():
        for s in defs:
            owner.setdefault(s, set()).add(src)
    edges = {src: set() for src in syms}
    for src, (_d, undefs) in syms.items():
        ext = [rx for fx, rx in EXTERNAL if fx.search(src)]
        for s in undefs:
            if s in libc or any(rx.search(s) for rx in ext):
                continue
            for dst in owner.get(s, ()):
                if dst != src and len(owner[s]) == 1:
                    edges[src].add(dst)
    return edges


def sccs(edges):
    """Tarjan's strongly connected components, iteratively."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges[nxt]))))
                elif nxt in on:
                    low[v] = min(low[v], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(sorted(comp))
    return out


def include_graph():
    """@return {module: set of modules} where a module is a source path
    without its extension (foo.c and foo.h are one module) and an arrow
    is an #include "..." of another module's header."""
    srcdir = os.path.join(ROOT, "src")
    files, bybase = [], {}
    for d, _dirs, fs in os.walk(srcdir):
        for f in fs:
            if f.endswith((".c", ".h")):
                p = os.path.join(d, f)
                files.append(p)
                bybase.setdefault(f, []).append(p)
    edges = {}
    inc_rx = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
    for f in files:
        mod = os.path.relpath(os.path.splitext(f)[0], srcdir)
        edges.setdefault(mod, set())
        with open(f, errors="replace") as fh:
            text = fh.read()
        for inc in inc_rx.findall(text):
            cand = os.path.normpath(os.path.join(os.path.dirname(f), inc))
            if not os.path.exists(cand):
                hits = [x for x in bybase.get(os.path.basename(inc), [])
                        if x.endswith(os.sep + inc)]
                if not hits:
                    continue    # a generated or system header
                cand = hits[0]
            dst = os.path.relpath(os.path.splitext(cand)[0], srcdir)
            if dst != mod:
                edges[mod].add(dst)
                edges.setdefault(dst, set())
    return edges


def layer_of(src, ranks):
    top = src.split(os.sep)[0]
    for i, names in enumerate(ranks):
        if top in names:
            return i, top
    return None, top


def load_allow():
    path = os.path.join(HERE, "check-deps.allow")
    allow = []
    if os.path.exists(path):
        for line in open(path):
            line = line.split("#", 1)[0].split()
            if line:
                allow.append(tuple(line))
    return allow


def problems(edges, includes, ranks, allow, most):
    """Apply the two rules. @return (problems, allowed findings) as lines.
    @param edges     the call graph {file: files it uses}
    @param includes  the include graph {module: modules it includes}
    @param ranks     layers_from_cmake()
    @param allow     load_allow()'s tuples
    @param most      the largest circle allowed without an exception"""
    used, bad, allowed = set(), [], []
    circles = [("circle", "call circle of %d files", c)
               for c in sccs(edges)]
    circles += [("include-circle", "include circle of %d modules", c)
                for c in sccs(includes)]
    for kind, what, comp in circles:
        if len(comp) <= most:
            continue
        dirs = {os.path.dirname(c) for c in comp}
        ok = None
        for e in allow:
            if (e[0] == kind and len(e) == 3 and dirs == {e[1]}
                    and len(comp) <= int(e[2])):
                ok = e
        line = (what + ": %s") % (len(comp), " ".join(comp))
        if ok is not None:
            used.add(ok)
            allowed.append(line)
        else:
            bad.append(line)
    for src in sorted(edges):
        ls, ts = layer_of(src, ranks)
        for dst in sorted(edges[src]):
            ld, td = layer_of(dst, ranks)
            if ls is None or ld is None:
                continue
            if ld < ls or (ld == ls and ts == td):
                continue        # down, or within one layer
            e = ("up", src, dst)
            line = "arrow up: %s -> %s" % (src, dst)
            if e in allow:
                used.add(e)
                allowed.append(line)
            else:
                bad.append(line)
    for e in allow:
        if e not in used:
            bad.append("stale exception in check-deps.allow: %s"
                       % " ".join(e))
    return bad, allowed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--max", type=int, default=3)
    ap.add_argument("--dot", help="write the graph in Graphviz form")
    ap.add_argument("--list", action="store_true",
                    help="print every circle and arrow up, allowed or not")
    a = ap.parse_args()
    objs = find_objects(a.build)
    if not objs:
        print("check-deps: no objects under %s/src: build first" % a.build,
              file=sys.stderr)
        return 2
    ranks = layers_from_cmake()
    edges = graph(objs)
    bad, allowed = problems(edges, include_graph(), ranks, load_allow(),
                            a.max)
    if a.list:
        for line in allowed:
            print("allowed: " + line)
    if a.dot:
        with open(a.dot, "w") as f:
            f.write("digraph src {\n")
            for s in sorted(edges):
                for d in sorted(edges[s]):
                    f.write('  "%s" -> "%s";\n' % (s, d))
            f.write("}\n")
    n_edges = sum(len(v) for v in edges.values())
    print("check-deps: %d files, %d arrows, %d problems"
          % (len(edges), n_edges, len(bad)))
    for line in bad:
        print("  " + line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
