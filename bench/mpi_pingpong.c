/*
 * mpi_pingpong: the reference for rcce_pingpong. Same sizes, same
 * repetitions, same loop and same output (bench_common.h), with blocking
 * MPI_Send/MPI_Recv between ranks 0 and 1; other ranks wait at a barrier.
 */
#include "bench_common.h"

#include <mpi.h>

static int use_wtime;

static double now_us(void)
{
    return use_wtime ? MPI_Wtime() * 1e6 : bench_now_us();
}

static int pingpong(int me, unsigned char *sbuf, unsigned char *rbuf,
                    size_t size, long reps)
{
    int count = (int)size;
    for (long i = 0; i < reps; i++) {
        int rc;
        if (me == 0) {
            rc = MPI_Send(sbuf, count, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
            if (rc == MPI_SUCCESS) {
                rc = MPI_Recv(rbuf, count, MPI_BYTE, 1, 0, MPI_COMM_WORLD,
                              MPI_STATUS_IGNORE);
            }
        } else {
            rc = MPI_Recv(rbuf, count, MPI_BYTE, 0, 0, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE);
            if (rc == MPI_SUCCESS) {
                rc = MPI_Send(rbuf, count, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
            }
        }
        if (rc != MPI_SUCCESS) {
            fprintf(stderr, "mpi_pingpong: rank %d: %zu bytes failed: %d\n",
                    me, size, rc);
            return -1;
        }
    }
    return 0;
}

int main(int argc, char **argv)
{
    bench_opts_t opts;
    int me = 0;
    int n = 0;
    int status = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    MPI_Comm_size(MPI_COMM_WORLD, &n);
    if (bench_parse_args(argc, argv, &opts) != 0) {
        MPI_Finalize();
        return 2;
    }
    if (opts.max_size > (size_t)0x7fffffff) {
        if (me == 0) {
            fprintf(stderr, "mpi_pingpong: MAXSIZE must fit an int\n");
        }
        MPI_Finalize();
        return 2;
    }
    use_wtime = opts.use_wtime;
    if (n < 2) {
        if (me == 0) {
            fprintf(stderr, "mpi_pingpong: needs at least 2 ranks, got %d\n",
                    n);
        }
        MPI_Finalize();
        return 2;
    }

    if (me <= 1) {
        unsigned char *sbuf = bench_alloc(opts.max_size);
        unsigned char *rbuf = bench_alloc(opts.max_size);
        if (sbuf == NULL || rbuf == NULL) {
            fprintf(stderr, "mpi_pingpong: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        if (me == 0) {
            char version[MPI_MAX_LIBRARY_VERSION_STRING];
            int len = 0;
            MPI_Get_library_version(version, &len);
            char *nl = strchr(version, '\n');
            if (nl != NULL) {
                *nl = '\0';
            }
            char *comma = strchr(version, ',');
            if (comma != NULL) {
                *comma = '\0';
            }
            printf("# mpi_pingpong ranks=%d timer=%s version=\"%s\"\n", n,
                   use_wtime ? "MPI_Wtime" : "CLOCK_MONOTONIC", version);
        }
        size_t size = BENCH_SIZE_START;
        while (status == 0 && bench_next_size(&opts, &size)) {
            long reps = bench_reps(size, opts.reps_scale);
            unsigned seed = (unsigned)size;

            bench_fill(sbuf, size, seed);
            memset(rbuf, 0, size);
            if (pingpong(me, sbuf, rbuf, size, bench_warmup_reps(reps)) != 0) {
                status = 1;
                break;
            }
            size_t bad = bench_check(rbuf, size, seed);
            if (bad != size) {
                fprintf(stderr,
                        "mpi_pingpong: rank %d: %zu-byte message wrong at "
                        "byte %zu\n",
                        me, size, bad);
                status = 1;
                break;
            }
            double t0 = now_us();
            if (pingpong(me, sbuf, rbuf, size, reps) != 0) {
                status = 1;
                break;
            }
            double t1 = now_us();
            if (me == 0) {
                bench_print_pingpong(size, reps, t1 - t0);
            }
        }
        free(sbuf);
        free(rbuf);
    }
    if (status != 0) {
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
