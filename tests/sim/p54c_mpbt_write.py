#!/usr/bin/env python3
"""The write-combine buffer's wait on both engines (docs/P54C.md, "The
compiled memory model"): p54c_bench_mem's bandwidth kernels under
RCK_COMPUTE=p54c on the compiled engine and on QEMU (the same binary).
mpbt_write, a stream of DWORD stores to shared DRAM mapped MPBT, must be
within 10% of the published figure (config/published.json, bw.mpbt.write)
on both engines and the engines within 5% of each other: each line the
buffer sends out waits for the previous write (P54C_TX_WCB), inside the
stream, wherever the next write-around falls. mpbt_read, uncached_write
and l2_hit_write, which share the write port and the booking, are held to
the same 5% between the engines.

  p54c_mpbt_write.py RCK PROG PUBLISHED_JSON TMPDIR
"""
import json
import os
import re
import sys

from p54c_run import run_p54c

LINE = re.compile(r"p54c_bench: kernel=(\S+) bytes=\d+ seconds=\S+ "
                  r"mib_s=([0-9.]+)")
SAME = ["mpbt_write", "mpbt_read", "uncached_write", "l2_hit_write"]


def run(rck, prog, tmp, engine):
    cmd = [prog, "bw", "64", "512"]
    r = run_p54c(rck, engine, 1, cmd, tmp,
                 env_extra={"RCK_SIM_REPORT": "none"})
    got = {m.group(1): float(m.group(2)) for m in LINE.finditer(r.stdout)}
    for k in SAME:
        if k not in got:
            print("FAIL: %s (%s): no %s line\n%s" % (" ".join(cmd), engine,
                                                     k, r.stdout))
            sys.exit(1)
    return got


def main():
    rck, prog, published, tmp = [os.path.abspath(a) for a in sys.argv[1:5]]
    os.makedirs(tmp, exist_ok=True)
    with open(published) as f:
        pub = json.load(f)
    want = None
    for key, v in pub.items() if isinstance(pub, dict) else []:
        if key == "bw.mpbt.write":
            want = float(v["value"])
        elif isinstance(v, dict) and "bw.mpbt.write" in v:
            want = float(v["bw.mpbt.write"]["value"])
    if want is None:
        print("FAIL: %s has no bw.mpbt.write" % published)
        return 1
    c = run(rck, prog, tmp, "compiled")
    q = run(rck, prog, tmp, "qemu")
    bad = 0
    for k in SAME:
        r = c[k] / q[k]
        ok = abs(r - 1) <= 0.05
        bad += not ok
        print("%-16s compiled %9.3f MiB/s, QEMU %9.3f MiB/s: %.4f %s"
              % (k, c[k], q[k], r, "ok" if ok else "FAIL (5%)"))
    for eng, g in (("compiled", c), ("QEMU", q)):
        r = g["mpbt_write"] / want
        ok = abs(r - 1) <= 0.10
        bad += not ok
        print("mpbt_write on %s: %.3f MiB/s against the published %.0f: "
              "%.3f %s" % (eng, g["mpbt_write"], want, r,
                           "ok" if ok else "FAIL (10%)"))
    print("FAILED" if bad else "ok")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
