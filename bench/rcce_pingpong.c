/*
 * rcce_pingpong: one-way latency and bandwidth of RCCE_send/RCCE_recv
 * between UE 0 and UE 1 (any other UEs wait at the final barrier).
 * The loop and output are shared with mpi_pingpong through bench_common.h.
 */
#include "bench_common.h"

#include <RCCE.h>

static int use_wtime;

static double now_us(void)
{
    return use_wtime ? RCCE_wtime() * 1e6 : bench_now_us();
}

static int check_rc(int rc, const char *what, size_t size)
{
    if (rc != RCCE_SUCCESS) {
        char msg[RCCE_MAX_ERROR_STRING + 1];
        int len = 0;
        memset(msg, 0, sizeof(msg));
        if (RCCE_error_string(rc, msg, &len) != RCCE_SUCCESS) {
            snprintf(msg, sizeof(msg), "unknown error");
        }
        fprintf(stderr, "rcce_pingpong: UE %d: %s of %zu bytes failed: %d (%s)\n",
                RCCE_ue(), what, size, rc, msg);
        return -1;
    }
    return 0;
}

/* Round trips of `size` bytes; UE 0 starts, UE 1 echoes. */
static int pingpong(int me, unsigned char *sbuf, unsigned char *rbuf,
                    size_t size, long reps)
{
    for (long i = 0; i < reps; i++) {
        if (me == 0) {
            if (check_rc(RCCE_send((char *)sbuf, size, 1), "send", size) ||
                check_rc(RCCE_recv((char *)rbuf, size, 1), "recv", size)) {
                return -1;
            }
        } else {
            if (check_rc(RCCE_recv((char *)rbuf, size, 0), "recv", size) ||
                check_rc(RCCE_send((char *)rbuf, size, 0), "send", size)) {
                return -1;
            }
        }
    }
    return 0;
}

int RCCE_APP(int argc, char **argv)
{
    bench_opts_t opts;
    int status = 0;

    RCCE_init(&argc, &argv);
    if (bench_parse_args(argc, argv, &opts) != 0) {
        RCCE_finalize();
        return 2;
    }
    use_wtime = opts.use_wtime;
    int me = RCCE_ue();
    int n = RCCE_num_ues();
    if (n < 2) {
        if (me == 0) {
            fprintf(stderr, "rcce_pingpong: needs at least 2 UEs, got %d\n", n);
        }
        RCCE_finalize();
        return 2;
    }

    if (me <= 1) {
        unsigned char *sbuf = bench_alloc(opts.max_size);
        unsigned char *rbuf = bench_alloc(opts.max_size);
        if (sbuf == NULL || rbuf == NULL) {
            fprintf(stderr, "rcce_pingpong: out of memory\n");
            return 1; /* the peer hangs; the driver's timeout ends it */
        }
        if (me == 0) {
            printf("# rcce_pingpong ues=%d timer=%s version=\"%s\"\n", n,
                   use_wtime ? "RCCE_wtime" : "CLOCK_MONOTONIC", RCCE_VERSION);
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
                        "rcce_pingpong: UE %d: %zu-byte message wrong at "
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
        return status; /* no finalize: the peer may be stuck mid-message */
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_finalize();
    return 0;
}
