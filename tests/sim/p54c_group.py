#!/usr/bin/env python3
"""Groups of loads checked once (docs/P54C-COUNTERS.md, "Groups of
loads"). p54c_group is built twice from one source, checked with groups and
without (RCK_AS_MEMGROUP=0); both run on the compiled engine with the same
arguments and must give the same report to the count: instructions, loads,
stores, L1I/L1D/L2 hits and misses, write-backs, write-arounds, merged
stores, DRAM transactions, cycles. The data lie at a fixed address, so the
builds' code sizes move nothing the model sees. The grouped build must have
fewer checks than the other (each check starts by saving %rax in the
counters' page; a group's members have none of their own: else nothing
was tested; since 2026-11-28's ninth session a failed group runs its
checks inline instead of calling the group slow path). Each kernel
is compared alone too (a difference then names its kernel).

  p54c_group.py RCK GROUPED PLAIN TMPDIR
"""
import json
import os
import subprocess
import sys

from p54c_run import finish, run_p54c

CHECK_START = "mov    %rax,0x100140"


def run(rck, prog, tmp, name, rounds, mask):
    rep = os.path.join(tmp, "r_%s_%s_%s.json" % (name, rounds, mask))
    r = run_p54c(rck, "compiled", 1, [prog, rounds, mask], tmp, report=rep)
    with open(rep) as f:
        core = json.load(f)["cores"][0]
    d = dict(core["p54c"])
    d["cycles"] = core["cycles"]
    return d, r.stdout


def checks(prog):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", prog],
                         stdout=subprocess.PIPE, text=True, check=True).stdout
    return sum(1 for line in out.splitlines() if CHECK_START in line)


def main():
    rck, grouped, plain, tmp = sys.argv[1:5]
    os.makedirs(tmp, exist_ok=True)
    bad = 0
    ng, np_ = checks(grouped), checks(plain)
    print("checks in the code: grouped %d, plain %d" % (ng, np_))
    if ng >= np_:
        print("FAIL: the grouped build must have fewer checks than the other")
        bad += 1
    for rounds, mask in (("1", "1"), ("1", "2"), ("1", "4"), ("1", "8"),
                         ("1", "16"), ("1", "32"), ("3", "63")):
        g, gout = run(rck, grouped, tmp, "grouped", rounds, mask)
        p, pout = run(rck, plain, tmp, "plain", rounds, mask)
        if gout != pout:
            print("FAIL: the builds print different results:\n%s%s"
                  % (gout, pout))
            bad += 1
        keys = sorted(set(g) | set(p))
        diff = [k for k in keys if g.get(k) != p.get(k)]
        print("%s rounds of kernels %s: %d figures, cycles %s, l1d_misses %s, "
              "l2_misses %s, write_arounds %s: %s"
              % (rounds, mask, len(keys), g.get("cycles"), g.get("l1d_misses"),
                 g.get("l2_misses"), g.get("write_arounds"),
                 "the same" if not diff else "DIFFERENT"))
        for k in diff:
            print("  %s: grouped %s, plain %s" % (k, g.get(k), p.get(k)))
        bad += len(diff) > 0
        if not g.get("l2_misses") or not g.get("l1d_misses"):
            print("FAIL: the kernels must miss L1D and L2")
            bad += 1
    finish(bad)


if __name__ == "__main__":
    main()
