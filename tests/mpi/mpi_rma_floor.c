/*
 * mpi_rma_floor: what one MPI RMA operation costs between two ranks, the
 * way the mpi backend's RMA path (RCK_MPI_NODES=rank) uses them: a window
 * of malloc'd memory (MPI_Win_create), locked once with
 * MPI_Win_lock_all(MPI_MODE_NOCHECK), every operation completed with
 * MPI_Win_flush; the target polls as a waiting core does (MPI_Win_sync +
 * MPI_Iprobe). Beside them the same MPI's one-way MPI_Send/MPI_Recv
 * latency. Plain MPI, no rockcreek: built with the MPI's compiler wrapper
 * by the mpi-backend bench suite (python/src/rockcreek/bench/mpibench.py), not by
 * CMake, and not a test (docs/MPI-BACKEND.md, "The floor of an RCCE
 * message on RMA").
 *
 *   mpirun -n 2 mpi_rma_floor [REPS]     (default 20000)
 *
 * Prints one line per measurement: "op=NAME us=MICROSECONDS".
 */
#include <mpi.h>

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { WIN_BYTES = 1 << 17, FLAG = 256, PFLAG = 512, DATA = 4096,
       TAG_NEXT = 7 };

static MPI_Win win;
static unsigned char *base;
static unsigned char buf[WIN_BYTES];

static uint32_t own_load(int off)
{
    return atomic_load_explicit((_Atomic uint32_t *)(base + off),
                                memory_order_acquire);
}

static void poll_once(void)
{
    int got;

    MPI_Win_sync(win);
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &got,
               MPI_STATUS_IGNORE);
}

/* The target's side of one timed operation: poll until told to go on. */
static void serve(void)
{
    int got = 0;

    while (!got) {
        MPI_Win_sync(win);
        MPI_Iprobe(0, TAG_NEXT, MPI_COMM_WORLD, &got, MPI_STATUS_IGNORE);
    }
    MPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_NEXT, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
}

/* One operation on rank 1 (or on the own rank: @p self), completed. */
static void op(int which, int self)
{
    uint32_t in = 1, out = 0, cmp = 0;
    int t = self ? 0 : 1;

    switch (which) {
    case 0:
        MPI_Put(&in, 4, MPI_BYTE, t, FLAG, 4, MPI_BYTE, win);
        break;
    case 1:
        MPI_Get(&out, 4, MPI_BYTE, t, FLAG, 4, MPI_BYTE, win);
        break;
    case 2:
        MPI_Get(buf, 32, MPI_BYTE, t, DATA, 32, MPI_BYTE, win);
        break;
    case 3:
        MPI_Get(buf, 7680, MPI_BYTE, t, DATA, 7680, MPI_BYTE, win);
        break;
    case 4:
        MPI_Get(buf, 65536, MPI_BYTE, t, DATA, 65536, MPI_BYTE, win);
        break;
    case 5:
        MPI_Accumulate(&in, 1, MPI_UINT32_T, t, FLAG, 1, MPI_UINT32_T,
                       MPI_REPLACE, win);
        break;
    case 6:
        MPI_Fetch_and_op(&in, &out, MPI_UINT32_T, t, FLAG, MPI_REPLACE,
                         win);
        break;
    default:
        MPI_Compare_and_swap(&in, &cmp, &out, MPI_UINT32_T, t, FLAG + 4,
                             win);
        break;
    }
    MPI_Win_flush(t, win);
}

static const char *const op_names[] = {
    "put_4B", "get_4B", "get_32B", "get_7680B", "get_64KiB",
    "accumulate_replace_4B", "fetch_and_op_replace_4B",
    "compare_and_swap_4B"};
enum { NOPS = sizeof(op_names) / sizeof(op_names[0]) };

static void timed_ops(int me, int reps)
{
    for (int self = 0; self < 2; self++) {
        for (int w = 0; w < NOPS; w++) {
            int n = w == 4 ? reps / 20 + 1 : reps;
            double t0;

            if (self && w != 5)
                continue; /* own rank: the owner's flag reset only */
            MPI_Barrier(MPI_COMM_WORLD);
            if (me != 0) {
                serve();
                continue;
            }
            t0 = MPI_Wtime();
            for (int i = 0; i < n; i++)
                op(w, self);
            printf("op=%s%s us=%.3f\n", op_names[w], self ? "_own" : "",
                   (MPI_Wtime() - t0) / n * 1e6);
            fflush(stdout);
            MPI_Send(NULL, 0, MPI_BYTE, 1, TAG_NEXT, MPI_COMM_WORLD);
        }
    }
}

/* Flag ping-pong: each side writes the other's flag word (accumulate +
 * flush) and polls its own; half a round trip is how long a flag takes
 * to be seen. Then MPI_Send/MPI_Recv of 1 byte the same way. */
static void pingpongs(int me, int reps)
{
    int peer = 1 - me;
    double t0;
    uint32_t i;
    char c = 0;

    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (i = 1; i <= (uint32_t)reps; i++) {
        if (me == 1) {
            while (own_load(PFLAG) != i)
                poll_once();
        }
        MPI_Accumulate(&i, 1, MPI_UINT32_T, peer, PFLAG, 1, MPI_UINT32_T,
                       MPI_REPLACE, win);
        MPI_Win_flush(peer, win);
        if (me == 0) {
            while (own_load(PFLAG) != i)
                poll_once();
        }
    }
    if (me == 0)
        printf("op=flag_one_way us=%.3f\n",
               (MPI_Wtime() - t0) / reps / 2 * 1e6);
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = MPI_Wtime();
    for (int k = 0; k < reps; k++) {
        if (me == 0) {
            MPI_Send(&c, 1, MPI_BYTE, 1, 3, MPI_COMM_WORLD);
            MPI_Recv(&c, 1, MPI_BYTE, 1, 3, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&c, 1, MPI_BYTE, 0, 3, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
            MPI_Send(&c, 1, MPI_BYTE, 0, 3, MPI_COMM_WORLD);
        }
    }
    if (me == 0)
        printf("op=send_recv_one_way_1B us=%.3f\n",
               (MPI_Wtime() - t0) / reps / 2 * 1e6);
}

int main(int argc, char **argv)
{
    int me, n, reps = argc > 1 ? atoi(argv[1]) : 20000;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (n != 2 || reps <= 0) {
        if (me == 0)
            fprintf(stderr, "mpi_rma_floor: run with 2 ranks and REPS > 0 "
                            "(got %d ranks, REPS %d)\n", n, reps);
        MPI_Finalize();
        return 2;
    }
    base = aligned_alloc(64, WIN_BYTES);
    if (base == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    memset(base, 0, WIN_BYTES);
    MPI_Win_create(base, WIN_BYTES, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    timed_ops(me, reps);
    pingpongs(me, reps);
    MPI_Win_unlock_all(win);
    MPI_Win_free(&win);
    free(base);
    MPI_Finalize();
    return 0;
}
