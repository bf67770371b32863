/*
 * mpi_coll: the Open MPI reference for coll_bench: MPI_Bcast, MPI_Reduce,
 * MPI_Allreduce, MPI_Scatter, MPI_Gather, MPI_Allgather, MPI_Alltoall,
 * MPI_Reduce_scatter_block on MPI_COMM_WORLD, the same loop, repetitions
 * and lines (bench_common.h). Names as coll_bench's RCCE ones.
 */
#include "bench_common.h"

#include <mpi.h>

enum {
    C_BCAST, C_REDUCE, C_ALLREDUCE, C_SCATTER, C_GATHER, C_ALLGATHER,
    C_ALLTOALL, C_REDUCE_SCATTER, C_COUNT
};
static const char *const names[C_COUNT] = {
    "bcast", "reduce", "allreduce", "scatter", "gather", "allgather",
    "alltoall", "reduce_scatter"};
static const int all_to_all[C_COUNT] = {0, 0, 0, 0, 0, 1, 1, 1};

static int run(int c, char *in, char *out, size_t size)
{
    int elems = (int)(size / sizeof(double));
    int bytes = (int)size;
    MPI_Comm w = MPI_COMM_WORLD;
    switch (c) {
    case C_BCAST:
        return MPI_Bcast(in, bytes, MPI_BYTE, 0, w);
    case C_REDUCE:
        return MPI_Reduce(in, out, elems, MPI_DOUBLE, MPI_SUM, 0, w);
    case C_ALLREDUCE:
        return MPI_Allreduce(in, out, elems, MPI_DOUBLE, MPI_SUM, w);
    case C_SCATTER:
        return MPI_Scatter(in, bytes, MPI_BYTE, out, bytes, MPI_BYTE, 0, w);
    case C_GATHER:
        return MPI_Gather(in, bytes, MPI_BYTE, out, bytes, MPI_BYTE, 0, w);
    case C_ALLGATHER:
        return MPI_Allgather(in, bytes, MPI_BYTE, out, bytes, MPI_BYTE, w);
    case C_ALLTOALL:
        return MPI_Alltoall(in, bytes, MPI_BYTE, out, bytes, MPI_BYTE, w);
    default:
        return MPI_Reduce_scatter_block(in, out, elems, MPI_DOUBLE, MPI_SUM,
                                        w);
    }
}

int main(int argc, char **argv)
{
    bench_coll_opts_t opts;
    int me = 0;
    int n = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (bench_parse_coll_args(argc, argv, &opts) != 0) {
        MPI_Finalize();
        return 2;
    }
    size_t max = 0;
    for (int s = 0; s < opts.nsizes; s++) {
        max = opts.sizes[s] > max ? opts.sizes[s] : max;
    }
    size_t bytes = max * (size_t)n;
    char *in = (char *)bench_alloc(bytes);
    char *out = (char *)bench_alloc(bytes);
    if (in == NULL || out == NULL) {
        fprintf(stderr, "mpi_coll: rank %d: out of memory\n", me);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (size_t i = 0; i < bytes / sizeof(double); i++) {
        ((double *)in)[i] = (double)(me + 1);
    }
    if (me == 0) {
        printf("# mpi_coll ranks=%d timer=%s\n", n,
               opts.use_wtime ? "MPI_Wtime" : "CLOCK_MONOTONIC");
    }
    for (int s = 0; s < opts.nsizes; s++) {
        size_t size = opts.sizes[s];
        for (int c = 0; c < C_COUNT; c++) {
            if (!bench_coll_selected(&opts, names[c])) {
                continue;
            }
            long reps = bench_coll_reps(size, n, all_to_all[c],
                                        opts.reps_scale);
            if (run(c, in, out, size) != MPI_SUCCESS) {
                fprintf(stderr, "mpi_coll: rank %d: %s failed\n", me,
                        names[c]);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = opts.use_wtime ? MPI_Wtime() * 1e6 : bench_now_us();
            for (long r = 0; r < reps; r++) {
                if (run(c, in, out, size) != MPI_SUCCESS) {
                    fprintf(stderr, "mpi_coll: rank %d: %s failed\n", me,
                            names[c]);
                    MPI_Abort(MPI_COMM_WORLD, 1);
                }
            }
            MPI_Barrier(MPI_COMM_WORLD);
            double t1 = opts.use_wtime ? MPI_Wtime() * 1e6 : bench_now_us();
            if (me == 0) {
                bench_print_coll(names[c], n, size, reps, t1 - t0);
            }
        }
    }
    free(in);
    free(out);
    MPI_Finalize();
    return 0;
}
