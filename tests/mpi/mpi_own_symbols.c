/*
 * mpi_own_symbols: a program that defines MPI functions of its own (as a
 * program linked with an MPI on the MPBs, librckmpi, does) runs RCCE on
 * the mpi backend: the backend's plugin must call its own MPI, and the
 * program's calls must reach the program's functions.
 *
 * The program's MPI_Init_thread, MPI_Comm_rank and MPI_Send would break
 * the plugin if it called them (a wrong rank, wake-up messages that are
 * never sent); each counts its calls. The test passes a token around all
 * UEs with RCCE (run it with RCK_MPI_SPIN_NS=0 so every wait depends on a
 * wake-up message), then checks the counts are exactly the program's own
 * calls. Linked with -rdynamic, so the definitions are visible to every
 * shared object, as a shared librckmpi's would be.
 */
#include "RCCE.h"

#include <stdio.h>
#include <stdlib.h>

static int init_calls, rank_calls, send_calls;

/* exported even where the build hides symbols by default */
#define OWN __attribute__((visibility("default")))

/* Types as plain integers: Open MPI's handles are pointers, MPICH's ints;
 * both arrive in one register, which is all these need. */
OWN int MPI_Init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    init_calls++;
    return 0;
}

OWN int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    (void)argc;
    (void)argv;
    (void)required;
    *provided = 0;
    init_calls += 100;
    return 0;
}

OWN int MPI_Comm_rank(long comm, int *rank)
{
    (void)comm;
    rank_calls++;
    *rank = 4242;
    return 0;
}

OWN int MPI_Send(const void *buf, int count, long type, int dest, int tag,
             long comm)
{
    (void)buf;
    (void)count;
    (void)type;
    (void)dest;
    (void)tag;
    (void)comm;
    send_calls++;
    return 0;
}

int main(int argc, char **argv)
{
    int me, n, rank = -1, token = 0, rounds = argc > 1 ? atoi(argv[1]) : 50;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "FAIL mpi_own_symbols: RCCE_init\n");
        return 1;
    }
    me = RCCE_ue();
    n = RCCE_num_ues();
    /* the program's own MPI, as it would call it */
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(0, &rank);
    MPI_Send(&token, 1, 0, 0, 0, 0);
    for (int r = 0; r < rounds; r++) {
        if (me == 0) {
            token++;
            RCCE_send((char *)&token, sizeof(token), 1 % n);
            RCCE_recv((char *)&token, sizeof(token), n - 1);
        } else {
            RCCE_recv((char *)&token, sizeof(token), me - 1);
            token++;
            RCCE_send((char *)&token, sizeof(token), (me + 1) % n);
        }
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0 && token != rounds * n) {
        fprintf(stderr, "FAIL mpi_own_symbols: token %d, expected %d\n",
                token, rounds * n);
        return 1;
    }
    if (init_calls != 1 || rank_calls != 1 || send_calls != 1 ||
        rank != 4242) {
        fprintf(stderr, "FAIL mpi_own_symbols: UE %d: the program's MPI_* "
                "were called by someone else (MPI_Init* %d, MPI_Comm_rank "
                "%d, MPI_Send %d calls; rank %d)\n",
                me, init_calls, rank_calls, send_calls, rank);
        return 1;
    }
    printf("mpi_own_symbols: UE %d of %d: RCCE ok, own MPI_* ok\n", me, n);
    RCCE_finalize();
    return 0;
}
