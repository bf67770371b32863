/*
 * coll_bench: time per call of every RCCE and RCCE_comm collective over
 * all UEs, for a few block sizes (bench_common.h: options, repetitions,
 * output). The reference is mpi_coll.c (same loop, same lines).
 *
 * Per (size, collective): one warm-up call (the allreduces' results are
 * checked), RCCE_barrier, the timed loop of `reps` calls, RCCE_barrier;
 * UE 0 prints (its time from before the loop to after the closing
 * barrier) / reps.
 */
#include "bench_common.h"

#include <RCCE.h>
#include <RCCE_comm.h>

enum {
    C_BCAST, C_REDUCE, C_ALLREDUCE, C_COMM_BCAST, C_COMM_REDUCE,
    C_COMM_ALLREDUCE, C_SCATTER, C_GATHER, C_ALLGATHER, C_ALLTOALL,
    C_REDUCE_SCATTER, C_COUNT
};
static const char *const names[C_COUNT] = {
    "bcast", "reduce", "allreduce", "comm_bcast", "comm_reduce",
    "comm_allreduce", "scatter", "gather", "allgather", "alltoall",
    "reduce_scatter"};
/* 1: every rank exchanges a block with every other (bench_coll_reps). */
static const int all_to_all[C_COUNT] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1};

static int use_wtime;
static int counts[1024];

static double now_us(void)
{
    return use_wtime ? RCCE_wtime() * 1e6 : bench_now_us();
}

static int run(int c, char *in, char *out, size_t size, int n)
{
    int elems = (int)(size / sizeof(double));
    switch (c) {
    case C_BCAST:
        return RCCE_bcast(in, size, 0, RCCE_COMM_WORLD);
    case C_REDUCE:
        return RCCE_reduce(in, out, elems, RCCE_DOUBLE, RCCE_SUM, 0,
                           RCCE_COMM_WORLD);
    case C_ALLREDUCE:
        return RCCE_allreduce(in, out, elems, RCCE_DOUBLE, RCCE_SUM,
                              RCCE_COMM_WORLD);
    case C_COMM_BCAST:
        return RCCE_comm_bcast(in, size, 0, RCCE_COMM_WORLD);
    case C_COMM_REDUCE:
        return RCCE_comm_reduce(in, out, elems, RCCE_DOUBLE, RCCE_SUM, 0,
                                RCCE_COMM_WORLD);
    case C_COMM_ALLREDUCE:
        return RCCE_comm_allreduce(in, out, elems, RCCE_DOUBLE, RCCE_SUM,
                                   RCCE_COMM_WORLD);
    case C_SCATTER:
        return RCCE_scatter(in, out, size, 0, RCCE_COMM_WORLD);
    case C_GATHER:
        return RCCE_gather(in, out, size, 0, RCCE_COMM_WORLD);
    case C_ALLGATHER:
        return RCCE_allgather(in, out, size, RCCE_COMM_WORLD);
    case C_ALLTOALL:
        return RCCE_alltoall(in, out, size, RCCE_COMM_WORLD);
    default:
        for (int i = 0; i < n; i++) {
            counts[i] = elems;
        }
        return RCCE_reduce_scatter(in, out, counts, RCCE_DOUBLE, RCCE_SUM,
                                   RCCE_COMM_WORLD);
    }
}

static void fill_in(double *in, size_t count, int me)
{
    for (size_t i = 0; i < count; i++) {
        in[i] = (double)(me + 1);
    }
}

int RCCE_APP(int argc, char **argv)
{
    bench_coll_opts_t opts;

    RCCE_init(&argc, &argv);
    if (bench_parse_coll_args(argc, argv, &opts) != 0) {
        RCCE_finalize();
        return 2;
    }
    use_wtime = opts.use_wtime;
    int me = RCCE_ue();
    int n = RCCE_num_ues();
    if (n > 1024) {
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
        fprintf(stderr, "coll_bench: UE %d: out of memory\n", me);
        return 1;
    }
    if (me == 0) {
        printf("# coll_bench ues=%d timer=%s version=\"%s\"\n", n,
               use_wtime ? "RCCE_wtime" : "CLOCK_MONOTONIC", RCCE_VERSION);
    }
    for (int s = 0; s < opts.nsizes; s++) {
        size_t size = opts.sizes[s];
        for (int c = 0; c < C_COUNT; c++) {
            if (!bench_coll_selected(&opts, names[c])) {
                continue;
            }
            long reps = bench_coll_reps(size, n, all_to_all[c],
                                        opts.reps_scale);
            fill_in((double *)in, bytes / sizeof(double), me);
            int rc = run(c, in, out, size, n);
            if (rc != RCCE_SUCCESS) {
                fprintf(stderr, "coll_bench: UE %d: %s of %zu bytes failed: "
                        "%d\n", me, names[c], size, rc);
                return 1;
            }
            if (c == C_ALLREDUCE || c == C_COMM_ALLREDUCE) {
                double want = (double)n * (double)(n + 1) / 2.0;
                const double *o = (const double *)out;
                for (size_t i = 0; i < size / sizeof(double); i++) {
                    if (o[i] != want) {
                        fprintf(stderr, "coll_bench: UE %d: %s wrong at "
                                "element %zu: %g, not %g\n", me, names[c], i,
                                o[i], want);
                        return 1;
                    }
                }
            }
            RCCE_barrier(&RCCE_COMM_WORLD);
            double t0 = now_us();
            for (long r = 0; r < reps; r++) {
                rc = run(c, in, out, size, n);
                if (rc != RCCE_SUCCESS) {
                    fprintf(stderr, "coll_bench: UE %d: %s failed: %d\n", me,
                            names[c], rc);
                    return 1;
                }
            }
            RCCE_barrier(&RCCE_COMM_WORLD);
            double t1 = now_us();
            if (me == 0) {
                bench_print_coll(names[c], n, size, reps, t1 - t0);
            }
        }
    }
    free(in);
    free(out);
    RCCE_finalize();
    return 0;
}
