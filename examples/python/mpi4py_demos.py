"""mpi4py on rockcreek's MPI (librckmpi): hello, a ring, an allreduce and
NumPy send/recv, in one program (docs/PYTHON.md, "mpi4py"). mpi4py must be
built against librckmpi, e.g. by scripts/build-mpi4py.sh (into
build/mpi4py/rckmpi), or by hand:

    MPICC=build/src/tools/rckmpicc pip install --no-binary mpi4py mpi4py
    build/src/tools/rck run -n 4 build/mpi4py/rckmpi/bin/python examples/python/mpi4py_demos.py

CTest runs it as pympi4py.<backend>.demos.n{2,4}.
"""

import sys

import numpy as np
from mpi4py import MPI


def main():
    comm = MPI.COMM_WORLD
    rank, size = comm.Get_rank(), comm.Get_size()
    print("hello from rank %d of %d" % (rank, size), flush=True)

    # ring: a token passed once around, every rank adds its rank
    if size > 1:
        if rank == 0:
            comm.send(0, dest=1)
            token = comm.recv(source=size - 1)
            assert token == size * (size - 1) // 2, token
            print("ring: token %d after %d hops" % (token, size), flush=True)
        else:
            token = comm.recv(source=rank - 1)
            comm.send(token + rank, dest=(rank + 1) % size)

    # allreduce of Python objects (pickled) and of NumPy buffers
    total = size * (size - 1) // 2
    assert comm.allreduce(rank) == total
    assert comm.bcast({"root": "hello"} if rank == 0 else None, root=0) == {"root": "hello"}
    r = np.zeros(1, dtype="i8")
    comm.Allreduce(np.array([rank], dtype="i8"), r, op=MPI.SUM)
    assert r[0] == total, r
    v = np.full(1000, rank, dtype=np.float64)
    out = np.empty_like(v)
    comm.Allreduce(v, out, op=MPI.SUM)
    assert np.all(out == total)

    # NumPy send/recv without pickling (buffer protocol)
    if size > 1:
        n = 1 << 16
        if rank == 0:
            data = np.arange(n, dtype="i4")
            comm.Send([data, MPI.INT], dest=1, tag=77)
        elif rank == 1:
            data = np.empty(n, dtype="i4")
            st = MPI.Status()
            comm.Recv([data, MPI.INT], source=0, tag=77, status=st)
            assert np.array_equal(data, np.arange(n, dtype="i4"))
            assert st.Get_count(MPI.INT) == n
            print("numpy: %d ints received" % n, flush=True)
    comm.Barrier()
    if rank == 0:
        print("mpi4py_demos: OK on %d ranks" % size, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
