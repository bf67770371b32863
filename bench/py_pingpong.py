"""py_pingpong.py: the pingpong of bench/bench_common.h in Python over
rockcreek.rcce (Send/Recv of a bytearray, iRCCE underneath), printing the
same lines ("size= reps= lat_us= bw_mbs="), so that the bench harness
parses it like the C programs (the `python` suite; docs/PYTHON.md).

    rck run -n 2 python3 bench/py_pingpong.py [-s MAX] [-m MIN] [-r SCALE] [--mode send|isend]
"""

import argparse
import os
import sys
import time

try:
    from rockcreek import rcce
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "python", "src"))
    from rockcreek import rcce


def sizes(lo, hi):
    s = [0] if lo == 0 else []
    k = max(lo, 1)
    while k <= hi:
        s.append(k)
        k *= 2
    return s


def reps_for(size, scale):
    # as bench_common.h: about 25 ms of loop at 1 us + size / 1 GB/s
    est_us = 1.0 + size / 1000.0
    return max(10, min(40000, int(25000.0 / est_us * scale)))


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("-s", type=int, default=1 << 20)
    ap.add_argument("-m", type=int, default=0)
    ap.add_argument("-r", type=float, default=0.1)
    ap.add_argument("--mode", choices=("send", "isend"), default="send")
    ap.add_argument("-w", action="store_true",
                    help="time with RCCE_wtime (the chip's clock on sim), as the C programs' -w")
    a = ap.parse_args(argv)
    rcce.init()
    comm = rcce.COMM_WORLD
    me = comm.rank
    if comm.size != 2:
        if me == 0:
            print("py_pingpong: needs 2 UEs", file=sys.stderr)
        rcce.finalize()
        return 2
    other = 1 - me
    if me == 0:
        print("# py_pingpong mode=%s ues=2 timer=%s binding=%s python=%s" % (
            a.mode, "RCCE_wtime" if a.w else "perf_counter", rcce.binding(), sys.version.split()[0]), flush=True)
    for size in sizes(a.m, a.s):
        buf = bytearray(size)
        reps = reps_for(size, a.r)
        Send, Recv = comm.Send, comm.Recv
        comm.Barrier()
        clock = rcce.wtime if a.w else time.perf_counter
        t0 = clock()
        if a.mode == "send":
            for _ in range(reps):
                if me == 0:
                    Send(buf, other)
                    Recv(buf, other)
                else:
                    Recv(buf, other)
                    Send(buf, other)
        else:
            for _ in range(reps):
                if me == 0:
                    comm.Isend(buf, other).wait()
                    comm.Irecv(buf, other).wait()
                else:
                    comm.Irecv(buf, other).wait()
                    comm.Isend(buf, other).wait()
        dt = clock() - t0
        if me == 0:
            lat = dt / reps / 2 * 1e6
            bw = size / lat if lat > 0 else 0.0
            print("size=%d reps=%d lat_us=%.4f bw_mbs=%.2f" % (size, reps, lat, bw), flush=True)
    rcce.finalize()
    return 0


if __name__ == "__main__":
    sys.exit(main())
