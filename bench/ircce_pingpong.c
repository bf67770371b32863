/*
 * ircce_pingpong: one-way latency and bandwidth between UE 0 and UE 1 with
 * RCCE or iRCCE, the loop and output of rcce_pingpong (bench_common.h):
 *   -M rcce   RCCE_send / RCCE_recv (the baseline, as rcce_pingpong)
 *   -M isend  iRCCE_isend / iRCCE_irecv + iRCCE_isend_wait / irecv_wait
 *             (UE 0 posts its receive of the reply before its send)
 *   -M ssend  iRCCE_ssend / iRCCE_srecv (pipelined synchronous)
 * Other options as rcce_pingpong: -s MAX -m MIN -r SCALE -w.
 */
#include "bench_common.h"

#include <RCCE.h>
#include <iRCCE.h>

enum { MODE_RCCE, MODE_ISEND, MODE_SSEND };
static const char *const mode_names[] = {"rcce", "isend", "ssend"};

static int use_wtime;
static int mode = MODE_RCCE;

static double now_us(void)
{
    return use_wtime ? RCCE_wtime() * 1e6 : bench_now_us();
}

static int check_rc(int rc, const char *what, size_t size)
{
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "ircce_pingpong: UE %d: %s %s of %zu bytes failed: "
                "%d\n", RCCE_ue(), mode_names[mode], what, size, rc);
        return -1;
    }
    return 0;
}

static int xsend(unsigned char *buf, size_t size, int dest)
{
    switch (mode) {
    case MODE_ISEND: {
        iRCCE_SEND_REQUEST req;
        int rc = iRCCE_isend((char *)buf, (ssize_t)size, dest, &req);
        if (rc == iRCCE_PENDING || rc == iRCCE_RESERVED) {
            rc = iRCCE_isend_wait(&req);
        }
        return check_rc(rc, "isend", size);
    }
    case MODE_SSEND:
        return check_rc(iRCCE_ssend((char *)buf, (ssize_t)size, dest),
                        "ssend", size);
    default:
        return check_rc(RCCE_send((char *)buf, size, dest), "send", size);
    }
}

static int xrecv(unsigned char *buf, size_t size, int src)
{
    switch (mode) {
    case MODE_ISEND: {
        iRCCE_RECV_REQUEST req;
        int rc = iRCCE_irecv((char *)buf, (ssize_t)size, src, &req);
        if (rc == iRCCE_PENDING || rc == iRCCE_RESERVED) {
            rc = iRCCE_irecv_wait(&req);
        }
        return check_rc(rc, "irecv", size);
    }
    case MODE_SSEND:
        return check_rc(iRCCE_srecv((char *)buf, (ssize_t)size, src),
                        "srecv", size);
    default:
        return check_rc(RCCE_recv((char *)buf, size, src), "recv", size);
    }
}

/* UE 0 in isend mode: the reply's receive is posted before the send. */
static int isend_round_trip(unsigned char *sbuf, unsigned char *rbuf,
                            size_t size)
{
    iRCCE_RECV_REQUEST rreq;
    iRCCE_SEND_REQUEST sreq;
    int rr = iRCCE_irecv((char *)rbuf, (ssize_t)size, 1, &rreq);
    if (rr != iRCCE_SUCCESS && rr != iRCCE_PENDING && rr != iRCCE_RESERVED) {
        return check_rc(rr, "irecv", size);
    }
    int sr = iRCCE_isend((char *)sbuf, (ssize_t)size, 1, &sreq);
    if (sr != iRCCE_SUCCESS && sr != iRCCE_PENDING && sr != iRCCE_RESERVED) {
        return check_rc(sr, "isend", size);
    }
    if (sr != iRCCE_SUCCESS && check_rc(iRCCE_isend_wait(&sreq), "isend_wait",
                                        size)) {
        return -1;
    }
    if (rr != iRCCE_SUCCESS && check_rc(iRCCE_irecv_wait(&rreq), "irecv_wait",
                                        size)) {
        return -1;
    }
    return 0;
}

static int pingpong(int me, unsigned char *sbuf, unsigned char *rbuf,
                    size_t size, long reps)
{
    for (long i = 0; i < reps; i++) {
        if (me == 0) {
            if (mode == MODE_ISEND) {
                if (isend_round_trip(sbuf, rbuf, size)) {
                    return -1;
                }
            } else if (xsend(sbuf, size, 1) || xrecv(rbuf, size, 1)) {
                return -1;
            }
        } else {
            if (xrecv(rbuf, size, 0) || xsend(rbuf, size, 0)) {
                return -1;
            }
        }
    }
    return 0;
}

/* Removes "-M MODE" from argv (so bench_parse_args sees the rest). */
static int take_mode(int *argc, char **argv)
{
    for (int i = 1; i < *argc; i++) {
        if (strcmp(argv[i], "-M") != 0) {
            continue;
        }
        if (i + 1 >= *argc) {
            return -1;
        }
        int found = -1;
        for (int m = 0; m < 3; m++) {
            if (strcmp(argv[i + 1], mode_names[m]) == 0) {
                found = m;
            }
        }
        if (found < 0) {
            return -1;
        }
        mode = found;
        for (int j = i; j + 2 <= *argc; j++) {
            argv[j] = argv[j + 2];
        }
        *argc -= 2;
        return 0;
    }
    return 0;
}

int RCCE_APP(int argc, char **argv)
{
    bench_opts_t opts;
    int status = 0;

    RCCE_init(&argc, &argv);
    if (take_mode(&argc, argv) != 0) {
        fprintf(stderr, "ircce_pingpong: -M rcce|isend|ssend\n");
        bench_usage(argv[0]);
        RCCE_finalize();
        return 2;
    }
    if (bench_parse_args(argc, argv, &opts) != 0) {
        RCCE_finalize();
        return 2;
    }
    use_wtime = opts.use_wtime;
    int me = RCCE_ue();
    int n = RCCE_num_ues();
    if (n < 2) {
        if (me == 0) {
            fprintf(stderr, "ircce_pingpong: needs at least 2 UEs, got %d\n",
                    n);
        }
        RCCE_finalize();
        return 2;
    }
    if (mode != MODE_RCCE && iRCCE_init() != iRCCE_SUCCESS) {
        fprintf(stderr, "ircce_pingpong: iRCCE_init failed\n");
        RCCE_finalize();
        return 1;
    }

    if (me <= 1) {
        unsigned char *sbuf = bench_alloc(opts.max_size);
        unsigned char *rbuf = bench_alloc(opts.max_size);
        if (sbuf == NULL || rbuf == NULL) {
            fprintf(stderr, "ircce_pingpong: out of memory\n");
            return 1;
        }
        if (me == 0) {
            printf("# ircce_pingpong mode=%s ues=%d timer=%s version=\"%s\" "
                   "ircce=\"%s\"\n", mode_names[mode], n,
                   use_wtime ? "RCCE_wtime" : "CLOCK_MONOTONIC", RCCE_VERSION,
                   iRCCE_VERSION);
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
                fprintf(stderr, "ircce_pingpong: UE %d: %s %zu-byte message "
                        "wrong at byte %zu\n", me, mode_names[mode], size,
                        bad);
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
        return status;
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    RCCE_finalize();
    return 0;
}
