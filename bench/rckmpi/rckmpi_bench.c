/*
 * rckmpi_bench: the `mpi` bench suite's program (bench/README.md), one
 * source built twice: against rockcreek's MPI (rckmpicc's library) and
 * against Open MPI (mpicc.openmpi), so both run the same loop.
 *
 *   rckmpi_bench [-o op,op...] [-s size,size...] [-r reps]
 *
 * ops: pingpong (ranks 0 and 1, one-way latency = round trip / 2),
 * sendrecv (ring: send right, receive left), gather, scatter, bcast,
 * allreduce (MPI_SUM on MPI_INT; size rounded down to ints), bw and bibw
 * (ranks 0 and 1 in the shape of OSU's osu_bw and osu_bibw: a window of
 * 64 non-blocking messages one way, then a 4-byte reply; or 64 each way
 * at once; us is the time per window), barrier (size ignored). Times with MPI_Wtime on rank 0 (the chip's clock on the
 * sim backend). Prints, on rank 0, one line per point:
 *   op=bcast ues=48 size=1024 reps=200 us=12.5
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const ops[] = {"pingpong", "sendrecv", "gather",
                                  "scatter",  "bcast",    "allreduce",
                                  "bw",       "bibw",     "barrier"};
#define WINDOW 64
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

static void run_once(int op, char *a, char *b, int size, int me, int n)
{
    MPI_Comm w = MPI_COMM_WORLD;

    switch (op) {
    case 0:
        if (me == 0) {
            MPI_Send(a, size, MPI_BYTE, 1, 1, w);
            MPI_Recv(b, size, MPI_BYTE, 1, 1, w, MPI_STATUS_IGNORE);
        } else if (me == 1) {
            MPI_Recv(b, size, MPI_BYTE, 0, 1, w, MPI_STATUS_IGNORE);
            MPI_Send(a, size, MPI_BYTE, 0, 1, w);
        }
        break;
    case 1:
        MPI_Sendrecv(a, size, MPI_BYTE, (me + 1) % n, 2, b, size, MPI_BYTE,
                     (me - 1 + n) % n, 2, w, MPI_STATUS_IGNORE);
        break;
    case 2:
        MPI_Gather(a, size, MPI_BYTE, b, size, MPI_BYTE, 0, w);
        break;
    case 3:
        MPI_Scatter(b, size, MPI_BYTE, a, size, MPI_BYTE, 0, w);
        break;
    case 4:
        MPI_Bcast(a, size, MPI_BYTE, 0, w);
        break;
    case 5:
        MPI_Allreduce(a, b, size / (int)sizeof(int), MPI_INT, MPI_SUM, w);
        break;
    case 6:
    case 7: {
        MPI_Request rq[2 * WINDOW];
        int k = 0, peer = 1 - me;
        if (me > 1)
            break;
        /* osu_bw: rank 0 sends, rank 1 receives; osu_bibw: both */
        if (op == 7 || me == 1)
            for (int i = 0; i < WINDOW; i++)
                MPI_Irecv(b, size, MPI_BYTE, peer, 3, w, &rq[k++]);
        if (op == 7 || me == 0)
            for (int i = 0; i < WINDOW; i++)
                MPI_Isend(a, size, MPI_BYTE, peer, 3, w, &rq[k++]);
        MPI_Waitall(k, rq, MPI_STATUSES_IGNORE);
        if (op == 6 && me == 1)
            MPI_Send(a, 4, MPI_BYTE, 0, 4, w);
        else if (op == 6)
            MPI_Recv(b, 4, MPI_BYTE, 1, 4, w, MPI_STATUS_IGNORE);
        break;
    }
    default:
        MPI_Barrier(w);
    }
}

/* repetitions: fewer for large messages */
static int reps_for(int base, int size)
{
    int r = base / (1 + size / 8192);
    return r < 2 ? 2 : r;
}

int main(int argc, char **argv)
{
    int me, n, base = 100, nsizes = 0, sizes[64], want[NOPS] = {0}, any = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    for (int i = 1; i + 1 < argc; i += 2) {
        char *arg = argv[i + 1];
        if (strcmp(argv[i], "-r") == 0) {
            base = atoi(arg);
        } else if (strcmp(argv[i], "-s") == 0) {
            for (char *t = strtok(arg, ","); t && nsizes < 64;
                 t = strtok(NULL, ","))
                sizes[nsizes++] = atoi(t);
        } else if (strcmp(argv[i], "-o") == 0) {
            for (char *t = strtok(arg, ","); t; t = strtok(NULL, ","))
                for (int k = 0; k < NOPS; k++)
                    if (strcmp(t, ops[k]) == 0)
                        want[k] = any = 1;
        }
    }
    if (nsizes == 0)
        for (int s = 4; s <= 262144; s *= 4)
            sizes[nsizes++] = s;
    int max = 0;
    for (int s = 0; s < nsizes; s++)
        max = sizes[s] > max ? sizes[s] : max;
    if (max < 4)
        max = 4;
    char *a = calloc((size_t)max + 8, 1);
    char *b = calloc((size_t)max * (size_t)n + 8, 1);
    for (int k = 0; k < NOPS; k++) {
        if ((any && !want[k]) || ((k == 0 || k == 6 || k == 7) && n < 2))
            continue;
        for (int s = 0; s < nsizes; s++) {
            int size = sizes[s], reps = reps_for(base, size);
            if (k == 6 || k == 7)
                reps = reps / WINDOW < 2 ? 2 : reps / WINDOW;
            if (k == NOPS - 1 && s > 0)
                break; /* the barrier has no size */
            /* warm-up, a tenth of the timed repetitions (as the OSU
             * benchmarks skip their first iterations): the first size
             * otherwise took the start's transients */
            for (int w = 0; w < 1 + reps / 10; w++)
                run_once(k, a, b, size, me, n);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = MPI_Wtime();
            for (int r = 0; r < reps; r++)
                run_once(k, a, b, size, me, n);
            double us = (MPI_Wtime() - t0) * 1e6 / reps;
            if (k == 0)
                us /= 2;
            if (me == 0)
                printf("op=%s ues=%d size=%d reps=%d us=%.4f\n", ops[k], n,
                       k == NOPS - 1 ? 0 : size, reps, us);
            fflush(stdout);
        }
    }
    free(a);
    free(b);
    MPI_Finalize();
    return 0;
}
