/* MPI and RCCE in one program: MPI_Init takes its channel's MPB space
 * through the HAL's reservation, RCCE_init the rest (on sccmpb-ext 1 KiB:
 * enough for RCCE's flags and buffer at 2 or 3 UEs); messages of both
 * libraries in turn. Also: RCCE first, then MPI_Init, is refused with a
 * clear message ("rcce-first"). */
#include "mpitest.h"

#include <RCCE.h>

int main(int argc, char **argv)
{
    int rank, size, v, w;
    const char *mode = argc > 1 ? argv[1] : "mpi-first";

    if (strcmp(mode, "rcce-first") == 0) {
        RCCE_init(&argc, &argv);
        MPI_Init(&argc, &argv);
        return 1;
    }
    MPI_Init(&argc, &argv);
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "FAILED: RCCE_init after MPI_Init\n");
        return 1;
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    CHECK(RCCE_ue() == rank && RCCE_num_ues() == size, "ranks agree");
    for (int round = 0; round < 3; round++) {
        int next = (rank + 1) % size, prev = (rank + size - 1) % size;
        v = rank * 10 + round;
        if (size > 1) {
            /* RCCE: even ranks send first */
            if (rank % 2 == 0) {
                RCCE_send((char *)&v, sizeof v, next);
                RCCE_recv((char *)&w, sizeof w, prev);
            } else {
                RCCE_recv((char *)&w, sizeof w, prev);
                RCCE_send((char *)&v, sizeof v, next);
            }
            CHECK(w == prev * 10 + round, "RCCE round %d: %d", round, w);
        }
        MPI_Sendrecv(&v, 1, MPI_INT, next, 0, &w, 1, MPI_INT, prev, 0,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        CHECK(w == prev * 10 + round, "MPI round %d: %d", round, w);
    }
    /* RCCE_finalize detaches the core from the chip: MPI goes first */
    v = mpitest_end("t_rcce");
    RCCE_finalize();
    return v;
}
