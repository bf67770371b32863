"""A UE program that checks rockcreek.rcce (run by CTest as
``rck run -n N python3 tests/python/ue_rcce.py`` on native and sim; any
failed check exits with status 1 naming it)."""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "python", "src"))

import numpy as np  # noqa: E402

from rockcreek import rcce  # noqa: E402


def check(cond, what):
    if not cond:
        print("FAIL ue %d: %s" % (rcce.ue(), what), file=sys.stderr, flush=True)
        sys.exit(1)


def main():
    rcce.init()
    comm = rcce.COMM_WORLD
    me, n = comm.rank, comm.size
    check(me == int(os.environ["RCK_RUN_UE"]), "ue() is the launcher's UE")
    check(n == int(os.environ["RCK_RUN_NUES"]), "num_ues()")
    want = os.environ.get("ROCKCREEK_EXPECT_BINDING")
    check(want is None or rcce.binding() == want,
          "binding %r, expected %r" % (rcce.binding(), want))
    t0 = rcce.wtime()

    # errors carry RCCE's codes
    try:
        comm.Send(b"x", me)
        check(False, "send to oneself raised")
    except rcce.RCCEError as e:
        check(e.code == rcce.ERROR_BASE + 3, "send to oneself: RCCE_ERROR_ID, got %d" % e.code)
    try:
        comm.peek(n + 3)
        check(False, "peek of a bad source raised")
    except rcce.RCCEError as e:
        check(e.code == rcce.ERROR_BASE + 3, "peek bad source: RCCE_ERROR_ID")
    try:
        comm.Recv(b"immutable", 0)
        check(False, "Recv into bytes raised")
    except TypeError:
        pass
    check(comm.peek() is None, "nothing waiting at the start")
    comm.Barrier()

    if n > 1:
        right, left = (me + 1) % n, (me - 1) % n
        # NumPy arrays, no copy: the receive fills the caller's array
        for size in (1, 100, 8000, 70000):
            a = np.arange(size, dtype=np.float64) + me
            b = np.zeros(size, dtype=np.float64)
            r = comm.Irecv(b, left)
            s = comm.Isend(a, right)
            r.wait()
            s.wait()
            check(np.array_equal(b, np.arange(size, dtype=np.float64) + left),
                  "ring of %d doubles" % size)
        # a view of part of an array is received in place
        big = np.zeros(10, dtype=np.int32)
        if me == 0:
            comm.Send(np.arange(4, dtype=np.int32), 1)
        elif me == 1:
            src = comm.Recv(memoryview(big)[3:7], 0)
            check(src == 0, "Recv returns the source")
            check(list(big) == [0, 0, 0, 0, 1, 2, 3, 0, 0, 0], "Recv into a slice")
        # non-contiguous arrays are refused, not copied
        try:
            comm.Isend(np.zeros((4, 4))[:, 1], right)
            check(False, "non-contiguous array refused")
        except TypeError:
            pass
        comm.Barrier()
        # pickled objects, any source
        if me == 0:
            got = sorted(comm.recv()["ue"] for _ in range(n - 1))
            check(got == list(range(1, n)), "objects from every UE")
        else:
            comm.send({"ue": me, "payload": list(range(me))}, 0)
        comm.Barrier()
        # peek: UE 1 sends a header + body; UE 0 looks before receiving
        if me == 1:
            comm.send(("job", 42, "x" * 500), 0)
        elif me == 0:
            st = rcce.Status()
            comm.probe(1, st)
            p = comm.peek(rcce.ANY_SOURCE, 16)
            check(p is not None and p.source == 1, "peek finds UE 1")
            check(p.length == st.count and p.length > 500, "peek gives the length")
            check(len(p.data) == 16, "peek gives 16 bytes")
            p2 = comm.peek(1, 16)
            check(p2 == p, "a second peek sees the same message")
            check(comm.recv(1) == ("job", 42, "x" * 500), "the peeked message is received")
            check(comm.peek() is None, "nothing waiting after the receive")
        comm.Barrier()

    # collectives
    x = np.full(5, me + 1, dtype=np.int64)
    y = np.zeros(5, dtype=np.int64)
    comm.Allreduce(x, y, rcce.SUM)
    check(list(y) == [n * (n + 1) // 2] * 5, "Allreduce SUM int64")
    xf = np.array([float(me)], dtype=np.float64)
    yf = np.zeros(1)
    comm.Reduce(xf, yf, rcce.MAX, root=0)
    if me == 0:
        check(yf[0] == n - 1, "Reduce MAX at the root")
    buf = np.arange(6, dtype=np.int32) * (7 if me == 0 else 0)
    comm.Bcast(buf, 0)
    check(list(buf) == [0, 7, 14, 21, 28, 35], "Bcast")
    g = np.zeros(n, dtype=np.int32)
    comm.Allgather(np.array([me * 3], dtype=np.int32), g)
    check(list(g) == [3 * i for i in range(n)], "Allgather")
    root = n - 1
    gat = np.full(2 * n, -1, dtype=np.int32) if me == root else None
    comm.Gather(np.array([me, 10 * me], dtype=np.int32), gat, root)
    if me == root:
        check(list(gat) == [v for i in range(n) for v in (i, 10 * i)], "Gather at the root")
    sc = np.zeros(3, dtype=np.float64)
    src = np.arange(3 * n, dtype=np.float64) if me == 0 else None
    comm.Scatter(src, sc, 0)
    check(list(sc) == [3.0 * me, 3.0 * me + 1, 3.0 * me + 2], "Scatter")
    a2a_in = np.array([100 * me + j for j in range(n)], dtype=np.int64)
    a2a_out = np.zeros(n, dtype=np.int64)
    comm.Alltoall(a2a_in, a2a_out)
    check(list(a2a_out) == [100 * j + me for j in range(n)], "Alltoall")
    objs = comm.scatter([{"to": i} for i in range(n)] if me == 0 else None, 0)
    check(objs == {"to": me}, "scatter objects")
    got = comm.gather(me * me, 0)
    check(got == ([i * i for i in range(n)] if me == 0 else None), "gather objects")
    check(comm.reduce(me, root=0) == (n * (n - 1) // 2 if me == 0 else None), "reduce objects")
    check(comm.bcast({"k": [1, 2]} if me == 0 else None, 0) == {"k": [1, 2]}, "bcast object")
    check(comm.allreduce(me) == n * (n - 1) // 2, "allreduce object")
    al = comm.allgather("u%d" % me)
    check(al == ["u%d" % i for i in range(n)], "allgather objects")
    try:
        comm.Allreduce(np.zeros(2, dtype=np.int16), np.zeros(2, dtype=np.int16))
        check(False, "int16 refused")
    except TypeError:
        pass

    # a communicator split by parity: rank, size, collectives inside it
    half = comm.Split(lambda u: u % 2)
    mine = [u for u in range(n) if u % 2 == me % 2]
    check(half.size == len(mine) and half.ue_of(half.rank) == me, "Split: rank and size")
    hs = np.zeros(1, dtype=np.int64)
    half.Allreduce(np.array([me], dtype=np.int64), hs, rcce.SUM)
    check(hs[0] == sum(mine), "Allreduce in a split communicator")
    check(half.bcast("from %d" % me if half.rank == 0 else None, 0) == "from %d" % mine[0],
          "bcast in a split communicator")
    check(half.gather(me, 0) == (mine if half.rank == 0 else None), "gather in a split")
    half.Barrier()
    half.Free()
    try:
        comm.Split(lambda u: 1 // 0)
        check(False, "a failing colour function raised")
    except ZeroDivisionError:
        pass

    # power API (one domain per 4 cores on the default chip)
    check(rcce.power_domain() >= 0, "power_domain")
    check(rcce.power_domain_size() >= 1, "power_domain_size")
    check(rcce.wtime() >= t0, "wtime runs forward")
    comm.Barrier()
    rcce.finalize()
    if me == 0:
        print("ue_rcce: OK on %d UEs" % n)


if __name__ == "__main__":
    main()
