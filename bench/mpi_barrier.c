/*
 * mpi_barrier: the reference for rcce_barrier: time per
 * MPI_Barrier(MPI_COMM_WORLD), same loop and output (bench_common.h).
 */
#include "bench_common.h"

#include <mpi.h>

int main(int argc, char **argv)
{
    long reps = 0;
    int use_wtime = 0;
    int me = 0;
    int n = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (bench_parse_barrier_args(argc, argv, &reps, &use_wtime) != 0) {
        MPI_Finalize();
        return 2;
    }
    if (me == 0) {
        printf("# mpi_barrier ranks=%d timer=%s\n", n,
               use_wtime ? "MPI_Wtime" : "CLOCK_MONOTONIC");
    }
    for (long i = 0; i < bench_warmup_reps(reps); i++) {
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double t0 = use_wtime ? MPI_Wtime() * 1e6 : bench_now_us();
    for (long i = 0; i < reps; i++) {
        if (MPI_Barrier(MPI_COMM_WORLD) != MPI_SUCCESS) {
            fprintf(stderr, "mpi_barrier: rank %d: barrier failed\n", me);
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    double t1 = use_wtime ? MPI_Wtime() * 1e6 : bench_now_us();
    if (me == 0) {
        bench_print_barrier(n, reps, t1 - t0);
    }
    MPI_Finalize();
    return 0;
}
