"""mpi4py_pingpong.py: the pingpong of bench/bench_common.h with mpi4py
(Send/Recv of a bytearray), printing the same lines, for the `python`
bench suite's mpi4py-on-librckmpi column (docs/PYTHON.md). Run it with a
Python whose mpi4py was built with MPICC=rckmpicc:

    rck run -n 2 VENV/bin/python bench/mpi4py_pingpong.py [-s MAX] [-m MIN] [-r SCALE] [-w]
"""

import argparse
import sys
import time

from mpi4py import MPI


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("-s", type=int, default=1 << 20)
    ap.add_argument("-m", type=int, default=0)
    ap.add_argument("-r", type=float, default=0.1)
    ap.add_argument("-w", action="store_true", help="time with MPI_Wtime")
    a = ap.parse_args(argv)
    comm = MPI.COMM_WORLD
    me = comm.Get_rank()
    if comm.Get_size() != 2:
        if me == 0:
            print("mpi4py_pingpong: needs 2 processes", file=sys.stderr)
        return 2
    other = 1 - me
    clock = MPI.Wtime if a.w else time.perf_counter
    if me == 0:
        print("# mpi4py_pingpong ues=2 timer=%s mpi=%s" % (
            "MPI_Wtime" if a.w else "perf_counter",
            MPI.Get_library_version().strip().splitlines()[0]), flush=True)
    size = a.m
    while size <= a.s:
        buf = bytearray(size)
        reps = max(10, min(40000, int(25000.0 / (1.0 + size / 1000.0) * a.r)))
        comm.Barrier()
        t0 = clock()
        for _ in range(reps):
            if me == 0:
                comm.Send(buf, other)
                comm.Recv(buf, other)
            else:
                comm.Recv(buf, other)
                comm.Send(buf, other)
        dt = clock() - t0
        if me == 0:
            lat = dt / reps / 2 * 1e6
            print("size=%d reps=%d lat_us=%.4f bw_mbs=%.2f" % (
                size, reps, lat, size / lat if lat > 0 else 0.0), flush=True)
        size = size * 2 if size else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
