/* One-sided communication (docs/MPI-ONESIDED-IO.md): every result is
 * checked against values the test computes itself. Fence epochs (put,
 * get, accumulate from every rank at once, vector target types);
 * post-start-complete-wait on a ring; passive target: a counter
 * incremented under exclusive locks by read-modify-write (lost updates
 * if two ranks held the lock at once), fetch-and-op under lock_all (every
 * ticket handed out once), compare-and-swap (one winner),
 * get_accumulate; MPI_Win_allocate and the window attributes; error
 * classes for bad input. Any number of processes. */
#include "mpitest.h"


int main(int argc, char **argv)
{
    int rank, size, err;
    MPI_Win win;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* slots: 0..size-1 puts, size..size+9 accumulates, size+12..size+17
     * vectors, N..N+5 single slots (N = size + 19: never a power of two
     * for the sizes tested) */
    const int N = size + 19;
    int nslot = N + 8 + 2 * size;
    int *mem, *buf = calloc((size_t)nslot, sizeof(int));
    /* argv[1] "allocate": the same tests on a window of MPI_Win_allocate
     * (in shared DRAM when it fits: puts and gets are direct copies) */
    int alloc = argc > 1 && strcmp(argv[1], "allocate") == 0;

    if (alloc) {
        MPI_Win_allocate((MPI_Aint)(nslot * sizeof(int)), sizeof(int),
                         MPI_INFO_NULL, MPI_COMM_WORLD, &mem, &win);
    } else {
        mem = calloc((size_t)nslot, sizeof(int));
        MPI_Win_create(mem, (MPI_Aint)(nslot * sizeof(int)), sizeof(int),
                       MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    }

    /* fence: every rank puts rank*100+t into slot rank of every target t */
    MPI_Win_fence(0, win);
    for (int t = 0; t < size; t++) {
        int v = rank * 100 + t;
        MPI_Put(&v, 1, MPI_INT, t, rank, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    for (int r = 0; r < size; r++)
        CHECK(mem[r] == r * 100 + rank, "put: slot %d = %d, want %d", r,
              mem[r], r * 100 + rank);

    /* get: the right neighbour's first size slots */
    {
        int right = (rank + 1) % size;
        MPI_Get(buf, size, MPI_INT, right, 0, size, MPI_INT, win);
        MPI_Win_fence(0, win);
        for (int r = 0; r < size; r++)
            CHECK(buf[r] == r * 100 + right, "get: slot %d of %d = %d", r,
                  right, buf[r]);
    }

    /* accumulate: every rank adds rank+1 to slots size..size+9 of every
     * target, 5 times in one epoch */
    {
        int add[10];
        for (int i = 0; i < 10; i++)
            add[i] = rank + 1 + i;
        for (int k = 0; k < 5; k++)
            for (int t = 0; t < size; t++)
                MPI_Accumulate(add, 10, MPI_INT, t, size, 10, MPI_INT,
                               MPI_SUM, win);
        MPI_Win_fence(0, win);
        long sumr = (long)size * (size + 1) / 2;
        for (int i = 0; i < 10; i++)
            CHECK(mem[size + i] == 5 * (sumr + (long)size * i),
                  "accumulate: slot %d = %d, want %ld", size + i,
                  mem[size + i], 5 * (sumr + (long)size * i));
        /* MPI_MAX of the ranks, MPI_REPLACE then */
        MPI_Accumulate(&rank, 1, MPI_INT, 0, N, 1, MPI_INT, MPI_MAX, win);
        MPI_Win_fence(0, win);
        if (rank == 0)
            CHECK(mem[N] == size - 1, "max: %d", mem[N]);
    }

    /* vector target type: rank r writes 3 ints at stride 2 from slot
     * size+12 of rank 0's... of its left neighbour */
    {
        MPI_Datatype vec;
        int src[3] = {rank + 7, rank + 8, rank + 9};
        int left = (rank + size - 1) % size;
        MPI_Type_vector(3, 1, 2, MPI_INT, &vec);
        MPI_Type_commit(&vec);
        for (int i = 0; i < 6; i++)
            mem[size + 12 + i] = -1;
        MPI_Win_fence(0, win);
        MPI_Put(src, 3, MPI_INT, left, size + 12, 1, vec, win);
        MPI_Win_fence(0, win);
        int from = (rank + 1) % size;
        for (int i = 0; i < 3; i++) {
            CHECK(mem[size + 12 + 2 * i] == from + 7 + i,
                  "vector put: %d = %d", i, mem[size + 12 + 2 * i]);
            CHECK(mem[size + 13 + 2 * i] == -1, "vector put: gap %d = %d",
                  i, mem[size + 13 + 2 * i]);
        }
        /* and back with a vector origin type */
        int got[6] = {-5, -5, -5, -5, -5, -5};
        MPI_Get(got, 1, vec, left, size + 12, 1, vec, win);
        MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
        for (int i = 0; i < 3; i++)
            CHECK(got[2 * i] == rank + 7 + i && got[2 * i + 1] == -5,
                  "vector get: %d = %d", i, got[2 * i]);
        MPI_Type_free(&vec);
    }

    /* post-start-complete-wait on a ring: I expose to my left neighbour
     * and access my right one */
    {
        MPI_Group wg, lg, rg;
        int left = (rank + size - 1) % size, right = (rank + 1) % size;
        MPI_Win_get_group(win, &wg);
        MPI_Group_incl(wg, 1, &left, &lg);
        MPI_Group_incl(wg, 1, &right, &rg);
        for (int round = 0; round < 3; round++) {
            int v = 1000 * round + rank;
            MPI_Win_post(lg, 0, win);
            MPI_Win_start(rg, 0, win);
            MPI_Put(&v, 1, MPI_INT, right, N + 1, 1, MPI_INT, win);
            MPI_Win_complete(win);
            MPI_Win_wait(win);
            CHECK(mem[N + 1] == 1000 * round + left, "pscw: round %d got %d",
                  round, mem[N + 1]);
        }
        MPI_Group_free(&lg);
        MPI_Group_free(&rg);
        MPI_Group_free(&wg);
    }
    MPI_Barrier(MPI_COMM_WORLD);

    /* exclusive locks: read-modify-write of rank 0's slot N+2 */
    {
        const int iters = 15;
        for (int k = 0; k < iters; k++) {
            int c = -1;
            MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
            MPI_Get(&c, 1, MPI_INT, 0, N + 2, 1, MPI_INT, win);
            MPI_Win_flush(0, win);
            c++;
            MPI_Put(&c, 1, MPI_INT, 0, N + 2, 1, MPI_INT, win);
            MPI_Win_unlock(0, win);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == 0) {
            MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
            CHECK(mem[N + 2] == iters * size, "locked counter %d, want %d",
                  mem[N + 2], iters * size);
            MPI_Win_unlock(0, win);
        }
    }

    /* fetch-and-op under lock_all: tickets from the last rank's slot N+3 */
    {
        const int k = 6;
        int one = 1, tick[6], *all = malloc((size_t)(k * size) * sizeof(int));
        int last = size - 1;
        MPI_Win_lock_all(0, win);
        for (int i = 0; i < k; i++)
            MPI_Fetch_and_op(&one, &tick[i], MPI_INT, last, N + 3, MPI_SUM,
                             win);
        MPI_Win_flush_all(win);
        MPI_Win_unlock_all(win);
        MPI_Gather(tick, k, MPI_INT, all, k, MPI_INT, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            char *seen = calloc((size_t)(k * size), 1);
            for (int i = 0; i < k * size; i++) {
                CHECK(all[i] >= 0 && all[i] < k * size && !seen[all[i]],
                      "ticket %d twice or out of range", all[i]);
                if (all[i] >= 0 && all[i] < k * size)
                    seen[all[i]] = 1;
            }
            free(seen);
        }
        MPI_Barrier(MPI_COMM_WORLD);
        if (rank == last)
            CHECK(mem[N + 3] == k * size, "fetch_and_op total %d",
                  mem[N + 3]);
        free(all);
    }

    /* compare-and-swap: slot N+4 of rank 0 from 0 to rank+1, one winner */
    {
        int cmp = 0, nv = rank + 1, old = -1, won, wins;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Compare_and_swap(&nv, &cmp, &old, MPI_INT, 0, N + 4, win);
        MPI_Win_unlock(0, win);
        won = old == 0;
        CHECK(old >= 0 && old <= size, "cas: old %d", old);
        MPI_Allreduce(&won, &wins, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        CHECK(wins == 1, "cas: %d winners", wins);
        /* get_accumulate: the old values of rank 0's slot N+5, summed */
        int add = rank + 1, prev = -1, sum;
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get_accumulate(&add, 1, MPI_INT, &prev, 1, MPI_INT, 0, N + 5, 1,
                           MPI_INT, MPI_SUM, win);
        MPI_Win_unlock(0, win);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Get_accumulate(NULL, 0, MPI_INT, &sum, 1, MPI_INT, 0, N + 5, 1,
                           MPI_INT, MPI_NO_OP, win);
        MPI_Win_unlock(0, win);
        CHECK(sum == size * (size + 1) / 2, "get_accumulate: %d", sum);
        CHECK(prev >= 0 && prev <= sum - add, "get_accumulate prev %d", prev);
    }
    /* accumulate of MPI_CHAR with MPI_SUM (an MPICH extension that OSU's
     * osu_acc_latency and osu_get_acc_latency use): 4 chars of rank 0 */
    {
        char *cb, one[4] = {1, 1, 1, 1}, old[4] = {-1, -1, -1, -1}, got[4];
        MPI_Win cw;
        int e = MPI_Win_allocate(4, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &cb,
                                 &cw);
        CHECK(e == MPI_SUCCESS, "char window: %d", e);
        memset(cb, 0, 4);
        MPI_Win_fence(0, cw);
        e = MPI_Accumulate(one, 4, MPI_CHAR, 0, 0, 4, MPI_CHAR, MPI_SUM, cw);
        CHECK(e == MPI_SUCCESS, "accumulate MPI_CHAR MPI_SUM: %d", e);
        MPI_Win_fence(0, cw);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, cw);
        e = MPI_Get_accumulate(one, 2, MPI_CHAR, old, 2, MPI_CHAR, 0, 2, 2,
                               MPI_CHAR, MPI_SUM, cw);
        CHECK(e == MPI_SUCCESS, "get_accumulate MPI_CHAR: %d", e);
        MPI_Win_unlock(0, cw);
        CHECK(old[0] >= size && old[0] < 2 * size && old[0] == old[1],
              "get_accumulate MPI_CHAR old %d %d", old[0], old[1]);
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, cw);
        MPI_Get(got, 4, MPI_CHAR, 0, 0, 4, MPI_CHAR, cw);
        MPI_Win_unlock(0, cw);
        CHECK(got[0] == size && got[1] == size && got[2] == 2 * size &&
                  got[3] == 2 * size,
              "MPI_CHAR sums %d %d %d %d", got[0], got[1], got[2], got[3]);
        MPI_Win_free(&cw);
    }

    /* errors, returned */
    {
        int v = 0, cls;
        MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
        err = MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        CHECK(err == MPI_ERR_RMA_SYNC, "put outside an epoch: %d", err);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        err = MPI_Put(&v, 1, MPI_INT, 0, nslot, 1, MPI_INT, win);
        CHECK(err == MPI_ERR_RMA_RANGE, "put past the end: %d", err);
        err = MPI_Put(&v, 1, MPI_INT, 0, nslot - 1, 1, MPI_INT, win);
        CHECK(err == MPI_SUCCESS, "put into the last slot: %d", err);
        err = MPI_Put(&v, 2, MPI_INT, 0, nslot - 1, 2, MPI_INT, win);
        CHECK(err == MPI_ERR_RMA_RANGE, "put past the end: %d", err);
        err = MPI_Put(&v, 1, MPI_INT, 0, -1, 1, MPI_INT, win);
        CHECK(err == MPI_ERR_RMA_RANGE, "put before the start: %d", err);
        err = MPI_Put(&v, 1, MPI_INT, size, 0, 1, MPI_INT, win);
        CHECK(err == MPI_ERR_RANK, "put to rank %d: %d", size, err);
        err = MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_MAXLOC,
                             win);
        CHECK(err == MPI_ERR_OP, "accumulate MAXLOC on int: %d", err);
        err = MPI_Put(&v, 1, MPI_INT, 0, 0, 2, MPI_INT, win);
        CHECK(err == MPI_ERR_TYPE, "put 4 bytes into 8: %d", err);
        err = MPI_Win_free(&win);
        CHECK(err == MPI_ERR_RMA_SYNC && win != MPI_WIN_NULL,
              "free inside a lock epoch: %d", err);
        MPI_Win_unlock(0, win);
        err = MPI_Win_unlock(0, win);
        CHECK(err == MPI_ERR_RMA_SYNC, "unlock twice: %d", err);
        err = MPI_Win_lock(77, 0, 0, win);
        CHECK(err == MPI_ERR_LOCKTYPE, "lock type 77: %d", err);
        err = MPI_Win_complete(win);
        CHECK(err == MPI_ERR_RMA_SYNC, "complete without start: %d", err);
        MPI_Error_class(MPI_ERR_RMA_RANGE, &cls);
        CHECK(cls == MPI_ERR_RMA_RANGE, "class %d", cls);
        {
            char s[MPI_MAX_ERROR_STRING];
            int len;
            MPI_Error_string(MPI_ERR_RMA_SYNC, s, &len);
            CHECK(len > 0 && strstr(s, "synchroniz") != NULL, "string '%s'",
                  s);
        }
    }
    MPI_Win_free(&win);
    CHECK(win == MPI_WIN_NULL, "free: handle %d", win);
    if (!alloc)
        free(mem);

    /* MPI_Win_allocate, attributes, doubles with a displacement unit */
    {
        double *base = NULL;
        void *attr;
        int flag;
        MPI_Win_allocate((MPI_Aint)(5 * sizeof(double)), sizeof(double),
                         MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
        MPI_Win_get_attr(win, MPI_WIN_BASE, &attr, &flag);
        CHECK(flag && attr == base, "attr base");
        MPI_Win_get_attr(win, MPI_WIN_SIZE, &attr, &flag);
        CHECK(flag && *(MPI_Aint *)attr == 5 * sizeof(double), "attr size");
        MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &attr, &flag);
        CHECK(flag && *(int *)attr == sizeof(double), "attr disp unit");
        MPI_Win_fence(0, win);
        double d = rank + 0.5;
        MPI_Accumulate(&d, 1, MPI_DOUBLE, 0, 3, 1, MPI_DOUBLE, MPI_SUM, win);
        MPI_Win_fence(0, win);
        if (rank == 0)
            CHECK(base[3] == size * size / 2.0, "double sum %g", base[3]);
        MPI_Win_free(&win);
    }
    /* dynamic window: memory attached, addresses exchanged; Rput/Rget */
    {
        long long *dyn = calloc(4, sizeof(long long)), v, got = -1;
        MPI_Aint mine, *addr = malloc((size_t)size * sizeof(MPI_Aint));
        MPI_Request rq;
        int right = (rank + 1) % size;
        MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
        MPI_Win_attach(win, dyn, 4 * sizeof(long long));
        MPI_Get_address(dyn, &mine);
        MPI_Allgather(&mine, 1, MPI_AINT, addr, 1, MPI_AINT, MPI_COMM_WORLD);
        MPI_Win_lock_all(0, win);
        v = 7000 + rank;
        MPI_Rput(&v, 1, MPI_LONG_LONG, right,
                 addr[right] + 2 * (MPI_Aint)sizeof(long long), 1,
                 MPI_LONG_LONG, win, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        MPI_Win_flush(right, win);
        MPI_Rget(&got, 1, MPI_LONG_LONG, right,
                 addr[right] + 2 * (MPI_Aint)sizeof(long long), 1,
                 MPI_LONG_LONG, win, &rq);
        MPI_Wait(&rq, MPI_STATUS_IGNORE);
        CHECK(got == 7000 + rank, "rget after rput: %lld", got);
        /* request-based accumulates: 3 added to the neighbour's slot 3
         * (no one else adds there), read back atomically */
        {
            long long three = 3, old = -1, now = -1;
            MPI_Aint s3 = addr[right] + 3 * (MPI_Aint)sizeof(long long);
            MPI_Raccumulate(&three, 1, MPI_LONG_LONG, right, s3, 1,
                            MPI_LONG_LONG, MPI_SUM, win, &rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            MPI_Rget_accumulate(&three, 1, MPI_LONG_LONG, &old, 1,
                                MPI_LONG_LONG, right, s3, 1, MPI_LONG_LONG,
                                MPI_SUM, win, &rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            CHECK(old == 3, "rget_accumulate old value %lld", old);
            MPI_Rget_accumulate(NULL, 0, MPI_LONG_LONG, &now, 1,
                                MPI_LONG_LONG, right, s3, 1, MPI_LONG_LONG,
                                MPI_NO_OP, win, &rq);
            MPI_Wait(&rq, MPI_STATUS_IGNORE);
            CHECK(now == 6, "after two accumulates %lld", now);
        }
        MPI_Win_unlock_all(win);
        MPI_Barrier(MPI_COMM_WORLD);
        CHECK(dyn[2] == 7000 + (rank + size - 1) % size, "dynamic put: %lld",
              dyn[2]);
        {
            int e;
            MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
            e = MPI_Win_attach(win, dyn + 1, sizeof(long long));
            CHECK(e == MPI_ERR_RMA_ATTACH, "overlapping attach: %d", e);
            e = MPI_Win_detach(win, dyn + 1);
            CHECK(e == MPI_ERR_RMA_ATTACH, "detach of no base: %d", e);
        }
        MPI_Win_detach(win, dyn);
        MPI_Win_free(&win);
        free(dyn);
        free(addr);
    }
    /* MPI_Win_allocate_shared: plain loads and stores on every rank's
     * memory (MPI_Win_shared_query); refused without shared DRAM for
     * windows (RCK_MPI_WIN_SHM=0) */
    {
        int *mine = NULL, e, n = 3 * (rank + 1);
        const char *cfg = getenv("RCK_MPI_WIN_SHM");
        const char *nodes = getenv("RCK_MPI_NODES");
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        e = MPI_Win_allocate_shared((MPI_Aint)(n * sizeof(int)), sizeof(int),
                                    MPI_INFO_NULL, MPI_COMM_WORLD, &mine,
                                    &win);
        if ((cfg != NULL && strcmp(cfg, "0") == 0) ||
            (nodes != NULL && strcmp(nodes, "rank") == 0)) {
            /* none reserved, or the mpi backend over several nodes, where
             * shared DRAM cannot be mapped */
            CHECK(e == MPI_ERR_RMA_SHARED, "allocate_shared without "
                  "shared DRAM: %d", e);
        } else if (e != MPI_SUCCESS) {
            CHECK(0, "allocate_shared: %d", e);
        } else {
            int right = (rank + 1) % size, du, *p, model, flag, *pm;
            MPI_Aint sz;
            for (int i = 0; i < n; i++)
                mine[i] = rank * 100 + i;
            MPI_Win_sync(win);
            MPI_Barrier(MPI_COMM_WORLD);
            for (int r = 0; r < size; r++) {
                MPI_Win_shared_query(win, r, &sz, &du, &p);
                CHECK(sz == (MPI_Aint)(3 * (r + 1) * sizeof(int)) &&
                          du == sizeof(int) && p != NULL,
                      "shared_query %d: %ld %d", r, (long)sz, du);
                for (int i = 0; p != NULL && i < 3 * (r + 1); i++)
                    CHECK(p[i] == r * 100 + i, "shared load %d[%d] = %d", r,
                          i, p[i]);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            /* a store into the right neighbour's memory, a put into the
             * left's last slot */
            MPI_Win_shared_query(win, right, &sz, &du, &p);
            p[0] += 1000;
            MPI_Win_fence(0, win);
            {
                int left = (rank + size - 1) % size, v = -rank;
                MPI_Put(&v, 1, MPI_INT, left, 3 * (left + 1) - 1, 1, MPI_INT,
                        win);
            }
            MPI_Win_fence(0, win);
            CHECK(mine[0] == rank * 100 + 1000, "shared store: %d", mine[0]);
            CHECK(mine[n - 1] == -right, "put into shared: %d", mine[n - 1]);
            MPI_Win_get_attr(win, MPI_WIN_MODEL, &pm, &flag);
            model = flag ? *pm : -1;
            CHECK(model == MPI_WIN_UNIFIED, "model %d", model);
            MPI_Win_free(&win);
        }
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    }
    free(buf);
    return mpitest_end("t_win");
}
