#!/usr/bin/env python3
"""The compiled counters' cost (docs/P54C-COUNTERS.md, "Measured slowdown").

Each kernel is built plain (RCKCC_COUNT=0) and counted (rckcc -rck-count;
librockcreek maps the counters' page). Prints, per kernel, the best of
REPS runs of the CPU time (user + system of the process tree: robust on a
loaded machine) and of the wall time, and the counted/plain ratios.

  bench/rckas/speed.py [--build DIR] [--reps N]
"""
import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time

SRC = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def timed(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    wall = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("%s failed:\n%s" % (" ".join(cmd), p.stdout))
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    return cpu, wall, p.stdout


def best(cmd, reps):
    runs = [timed(cmd) for _ in range(reps)]
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(SRC, "build"))
    ap.add_argument("--reps", type=int, default=5)
    a = ap.parse_args()
    rckcc = os.path.join(a.build, "src", "tools", "rckcc")
    rck = os.path.join(a.build, "src", "tools", "rck")
    tmp = tempfile.mkdtemp(prefix="rckas-speed-")
    env0 = dict(os.environ, RCKCC_COUNT="0")
    for name, src, flags in (("k", "bench/rckas/kernels.c", []),
                             ("s", "examples/stencil.c", []),
                             ("u", "examples/stencil.c", ["-funroll-loops"])):
        src = os.path.join(SRC, src)
        subprocess.run([rckcc, "-O2"] + flags + [src, "-o",
                        os.path.join(tmp, name + "p"), "-lm"], check=True,
                       env=env0)
        subprocess.run([rckcc, "-rck-count", "-O2"] + flags + [src, "-o",
                        os.path.join(tmp, name + "i"), "-lm"], check=True)
    k = lambda v: [os.path.join(tmp, "k" + v)]
    s = lambda v, n, b="s": [rck, "run", "-n", str(n), "--backend", "native",
                             os.path.join(tmp, b + v)]
    cases = [
        ("int: hash loop 3e8", lambda v: k(v) + ["int", "300000000"]),
        ("fp: Horner + dot 4e8", lambda v: k(v) + ["fp", "400000000"]),
        ("branch: switch 2e8", lambda v: k(v) + ["branch", "200000000"]),
        ("stencil -n 1 1024^2 x 200", lambda v: s(v, 1) + ["-n", "1024",
                                                           "-i", "200"]),
        ("stencil -n 4 1024^2 x 200", lambda v: s(v, 4) + ["-n", "1024",
                                                           "-i", "200"]),
        ("same -n 1, -funroll-loops", lambda v: s(v, 1, "u") +
         ["-n", "1024", "-i", "200"]),
        ("same -n 4, -funroll-loops", lambda v: s(v, 4, "u") +
         ["-n", "1024", "-i", "200"]),
    ]
    print("%-28s %9s %9s %6s %9s %9s %6s" % ("kernel (-O2)", "cpu plain",
          "counted", "ratio", "wallplain", "counted", "ratio"))
    for label, cmd in cases:
        cp, wp, op = best(cmd("p"), a.reps)
        ci, wi, oi = best(cmd("i"), a.reps)
        chk = [l for l in op.splitlines() if "checksum" in l or
               l.strip().isdigit() or l.replace(".", "").isdigit()]
        chk_i = [l for l in oi.splitlines() if "checksum" in l or
                 l.strip().isdigit() or l.replace(".", "").isdigit()]
        if chk != chk_i:
            sys.exit("%s: outputs differ: %s vs %s" % (label, chk, chk_i))
        print("%-28s %9.3f %9.3f %5.2fx %9.3f %9.3f %5.2fx"
              % (label, cp, ci, ci / cp, wp, wi, wi / wp))
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
