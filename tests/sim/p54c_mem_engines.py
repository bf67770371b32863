#!/usr/bin/env python3
"""The compiled memory model against QEMU (docs/P54C.md, "The compiled
memory model"): p54c_mem (built with rckcc -rck-mem) runs each kernel at two
sizes under RCK_COMPUTE=p54c on the compiled engine and on QEMU (the same
binary; the plugin skips the checks). What each kernel adds from the small
size to the large one (the program's own loads, stores, misses, cycles)
must agree within 0.2% (or 4 events, 8 cycles): since 2026-11-28 QEMU
models the program's stack where Linux puts it ("The stack under QEMU":
the stack kernel's L2 misses and cycles were 1.5% and 1.1% apart) and
charges a checked block's cycles at its counters' add ("Cycles where the
compiled engine charges them"), and every kernel agrees to a few events.
QEMU 7.2 still runs an instruction that crosses a page at the end of a
block twice (docs/P54C.md), which would show here as a count apart. Each
engine's constant part (the start-up) cancels out. Then the compiled
engine twice on 4 UEs of the stencil: identical reports.

  p54c_mem_engines.py RCK PROG TMPDIR
"""
import json
import os
import sys

from p54c_run import finish, run_p54c

EXACT = ["instructions", "l1d_reads", "l1d_writes", "shm_accesses",
         "merged_stores"]
CLOSE = ["cycles", "l1d_misses", "l2_hits", "l2_misses", "write_arounds"]
KERNELS = [("read", "4", "64"), ("write", "16", "32"), ("rmw", "32", "64"),
           ("bytes", "8", "16"), ("copy", "4", "8"), ("shm", "4", "8"),
           ("mpbt", "4", "8"),
           ("calls", "10", "16"), ("stencil", "32", "64"),
           ("block", "100", "200"), ("stack", "2", "4")]


def run(rck, prog, tmp, engine, kernel, size, nues=1, tag=""):
    rep = os.path.join(tmp, "r.json")
    run_p54c(rck, engine, nues, [prog, kernel, size], tmp, report=rep)
    with open(rep) as f:
        text = f.read()
    os.rename(rep, os.path.join(tmp, "r_%s_%s_%s%s.json"
                                % (engine, kernel, size, tag)))
    core = json.loads(text)["cores"][0]
    d = dict(core["p54c"])
    d["cycles"] = core["cycles"]
    return d, text


def main():
    rck, prog, tmp = sys.argv[1:4]
    os.makedirs(tmp, exist_ok=True)
    bad = 0
    for kernel, a, b in KERNELS:
        delta = {}
        for engine in ("compiled", "qemu"):
            small, _ = run(rck, prog, tmp, engine, kernel, a)
            large, _ = run(rck, prog, tmp, engine, kernel, b)
            delta[engine] = {k: large[k] - small[k] for k in EXACT + CLOSE}
        c, q = delta["compiled"], delta["qemu"]
        line = []
        for k in EXACT + CLOSE:
            m = max(abs(c[k]), abs(q[k]))
            ok = abs(c[k] - q[k]) <= max(0.002 * m,
                                         8 if k == "cycles" else 4)
            line.append("%s %d/%d%s" % (k, c[k], q[k], "" if ok else " BAD"))
            bad += not ok
        print("%s %s->%s (compiled/qemu): %s" % (kernel, a, b,
                                                 ", ".join(line)))
    # determinism of the compiled engine, 4 UEs
    _, r1 = run(rck, prog, tmp, "compiled", "stencil", "48", 4, "_1")
    _, r2 = run(rck, prog, tmp, "compiled", "stencil", "48", 4, "_2")
    if r1 != r2:
        print("FAIL: two runs of the compiled engine differ")
        bad += 1
    else:
        print("the compiled engine, 4 UEs, twice: identical reports")
    finish(bad)


if __name__ == "__main__":
    main()
