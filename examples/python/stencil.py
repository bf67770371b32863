"""stencil.py: the 2-D heat equation (Jacobi) of examples/stencil.c in
Python with NumPy over rockcreek.rcce.

The interior rows are split in contiguous blocks over the UEs; before
every sweep each UE exchanges its edge rows with its neighbours with
non-blocking iRCCE requests (Irecv/Isend on NumPy rows, no copies); every
K sweeps the largest change is combined with Allreduce(MAX). The top edge
is held at 1.0, a warm stripe sits on the left edge. UE 0 prints a
checksum that does not depend on the number of UEs (per-row sums gathered
in row order).

    rck run -n 48 python3 examples/python/stencil.py [-n N] [-i ITERS] [-k K]
    rck run -n 48 --backend sim python3 examples/python/stencil.py

Without an installed package, python/src is found beside this file.
"""

import argparse
import os
import sys

try:
    from rockcreek import rcce
except ImportError:
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                    "..", "..", "python", "src"))
    from rockcreek import rcce

import numpy as np


def rows_of(ue, nues, interior):
    base, extra = divmod(interior, nues)
    start = 1 + ue * base + min(ue, extra)
    return start, base + (1 if ue < extra else 0)


def initial(nrows, ncols, first_global_row):
    """Rows first_global_row-1 .. of the initial grid (with halos)."""
    u = np.zeros((nrows, ncols))
    stripe = range(ncols // 4, ncols // 2)
    for r in range(nrows):
        g = first_global_row - 1 + r
        if g == 0:
            u[r, :] = 1.0
        if g in stripe:
            u[r, 0] = 0.5
    return u


def serial_checksum(n, iters):
    u = initial(n, n, 1)
    new = u.copy()
    for _ in range(iters):
        new[1:-1, 1:-1] = 0.25 * (u[0:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, 0:-2] + u[1:-1, 2:])
        u, new = new, u
    return float(np.sum(u[1:-1].sum(axis=1)))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("-n", type=int, default=256, help="grid size N x N (default 256)")
    ap.add_argument("-i", "--iters", type=int, default=500)
    ap.add_argument("-k", type=int, default=50, help="residual every K sweeps")
    ap.add_argument("--verify", action="store_true",
                    help="UE 0 also solves the whole grid alone and compares the checksums")
    a = ap.parse_args(argv)
    rcce.init()
    comm = rcce.COMM_WORLD
    me, n = comm.rank, comm.size
    if a.n - 2 < n:
        if me == 0:
            print("stencil.py: %d interior rows for %d UEs: use -n >= %d" % (a.n - 2, n, n + 2),
                  file=sys.stderr)
        rcce.finalize()
        return 2
    start, mine = rows_of(me, n, a.n - 2)
    # local block with a halo row above and below
    u = initial(mine + 2, a.n, start)
    new = u.copy()
    up, down = me - 1, me + 1
    t0 = rcce.wtime()
    resid = np.zeros(1)
    for it in range(1, a.iters + 1):
        reqs = []
        if up >= 0:
            reqs.append(comm.Irecv(u[0], up))
        if down < n:
            reqs.append(comm.Irecv(u[mine + 1], down))
        if up >= 0:
            reqs.append(comm.Isend(u[1], up))
        if down < n:
            reqs.append(comm.Isend(u[mine], down))
        for r in reqs:
            r.wait()
        new[1:mine + 1, 1:-1] = 0.25 * (u[0:mine, 1:-1] + u[2:mine + 2, 1:-1] +
                                        u[1:mine + 1, 0:-2] + u[1:mine + 1, 2:])
        if it % a.k == 0 or it == a.iters:
            local = np.array([np.max(np.abs(new[1:mine + 1] - u[1:mine + 1]))])
            comm.Allreduce(local, resid, rcce.MAX)
        u, new = new, u
    t1 = rcce.wtime()
    sums = np.zeros(a.n - 2)
    sums[start - 1:start - 1 + mine] = u[1:mine + 1].sum(axis=1)
    total = np.zeros_like(sums)
    comm.Allreduce(sums, total, rcce.SUM)
    status = 0
    if me == 0:
        checksum = float(np.sum(total))
        if a.verify:
            want = serial_checksum(a.n, a.iters)
            status = 0 if want == checksum else 1
            print("stencil.py: serial checksum %.12e: %s" % (
                want, "OK" if status == 0 else "MISMATCH"), flush=True)
        print("stencil.py: %dx%d, %d UEs, %d iterations, residual %.6e, checksum %.12e, "
              "%.3f s (RCCE_wtime)" % (a.n, a.n, n, a.iters, resid[0], checksum,
                                       t1 - t0), flush=True)
    rcce.finalize()
    return status


if __name__ == "__main__":
    sys.exit(main())
