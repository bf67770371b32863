/* A small kit for the MPI tests: CHECK counts failures, mpitest_end
 * reports them (every rank) and finalizes. Uses only point-to-point, so
 * it runs without the collectives. */
#ifndef MPITEST_H
#define MPITEST_H

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int mpitest_failures;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (!(cond)) {                                                       \
            int r_;                                                          \
            MPI_Comm_rank(MPI_COMM_WORLD, &r_);                              \
            fprintf(stderr, "FAILED (rank %d, %s:%d): ", r_, __FILE__,       \
                    __LINE__);                                               \
            fprintf(stderr, __VA_ARGS__);                                    \
            fprintf(stderr, "\n");                                           \
            mpitest_failures++;                                              \
        }                                                                    \
    } while (0)

/* a barrier of point-to-point messages through rank 0 */
static inline void MPI_Barrier_p2p(void)
{
    int rank, size, t = 0;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (int i = 1; i < size; i++)
            MPI_Recv(&t, 0, MPI_INT, i, 32000, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        for (int i = 1; i < size; i++)
            MPI_Send(&t, 0, MPI_INT, i, 32001, MPI_COMM_WORLD);
    } else {
        MPI_Send(&t, 0, MPI_INT, 0, 32000, MPI_COMM_WORLD);
        MPI_Recv(&t, 0, MPI_INT, 0, 32001, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
}

static inline int mpitest_end(const char *name)
{
    int rank, size;

    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (mpitest_failures == 0 && rank == 0)
        printf("%s: ok: %d processes\n", name, size);
    MPI_Finalize();
    return mpitest_failures ? 1 : 0;
}

#endif
