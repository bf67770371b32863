/*
 * pingpong.c: point-to-point latency and bandwidth between UE 0 and UE 1
 * with the blocking RCCE_send/RCCE_recv. Sizes are 0, 1, then every power of
 * two from one cache line (32 bytes) up to the maximum; repetitions scale
 * down with the size. Every size is verified once before it is timed. The
 * other UEs wait at a barrier.
 *
 *   rck run -n 2 ./pingpong [-s MAXSIZE] [-r REPS] [MAXSIZE]
 *
 * MAXSIZE is in bytes (suffix k or m for KiB/MiB), default 1 MiB; REPS is
 * the number of round trips for small messages, default 1000.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

#define MAX_SIZES 64

static void check(int rc, const char *what)
{
    if (rc != RCCE_SUCCESS) {
        char msg[2 * RCCE_MAX_ERROR_STRING] = "";
        int len = 0;
        RCCE_error_string(rc, msg, &len);
        fprintf(stderr, "pingpong: UE %d: %s FAILED: %s (%d)\n", RCCE_ue(),
                what, msg, rc);
        exit(EXIT_FAILURE);
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: pingpong [-s MAXSIZE] [-r REPS] [MAXSIZE]\n");
}

/* "4096", "64k", "1m" -> bytes; -1 when not a size */
static long parse_size(const char *s)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || v < 0)
        return -1;
    if (*end == 'k' || *end == 'K') {
        v *= 1024;
        end++;
    } else if (*end == 'm' || *end == 'M') {
        v *= 1024 * 1024;
        end++;
    }
    return *end == '\0' ? v : -1;
}

static unsigned char pattern(size_t size, size_t k)
{
    return (unsigned char)((k * 7 + size * 13 + (k >> 8) + 1) & 0xff);
}

/* round trips for one size: REPS up to 4 KiB, then fewer, at least 10 */
static long reps_for(size_t size, long reps)
{
    if (size <= 4096)
        return reps;
    long r = (long)((double)reps * 4096.0 / (double)size);
    return r < 10 ? 10 : r;
}

int RCCE_APP(int argc, char **argv)
{
    int rc = RCCE_init(&argc, &argv);
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "pingpong: RCCE_init FAILED (%d)\n", rc);
        return EXIT_FAILURE;
    }
    int me = RCCE_ue();
    int num_ues = RCCE_num_ues();

    long max_size = 1024 * 1024;
    long reps = 1000;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            max_size = parse_size(argv[++i]);
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            reps = strtol(argv[++i], NULL, 10);
        } else if (argv[i][0] != '-') {
            max_size = parse_size(argv[i]);
        } else {
            if (me == 0)
                usage();
            RCCE_finalize();
            return EXIT_FAILURE;
        }
    }
    if (max_size < 0 || reps < 1) {
        if (me == 0)
            usage();
        RCCE_finalize();
        return EXIT_FAILURE;
    }

    if (num_ues < 2) {
        if (me == 0)
            printf("pingpong: needs at least 2 UEs (have %d), nothing to "
                   "measure\n", num_ues);
        check(RCCE_finalize(), "RCCE_finalize");
        return EXIT_SUCCESS;
    }

    /* 0, 1, 32, 64, ... max_size (and max_size itself if not a power of 2) */
    size_t sizes[MAX_SIZES];
    int nsizes = 0;
    sizes[nsizes++] = 0;
    if (max_size >= 1)
        sizes[nsizes++] = 1;
    size_t s = RCCE_LINE_SIZE;
    for (; s <= (size_t)max_size && nsizes < MAX_SIZES - 1; s *= 2)
        sizes[nsizes++] = s;
    if ((size_t)max_size > sizes[nsizes - 1])
        sizes[nsizes++] = (size_t)max_size;

    size_t alloc = (size_t)max_size > 0 ? (size_t)max_size : 1;
    char *sbuf = malloc(alloc);
    char *rbuf = malloc(alloc);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "pingpong: UE %d: out of memory\n", me);
        return EXIT_FAILURE;
    }

    int errors = 0;
    if (me == 0) {
        printf("pingpong: UE 0 <-> UE 1 (%d UEs), sizes 0..%ld bytes, %ld "
               "round trips for small sizes\n", num_ues, max_size, reps);
        printf("%10s %7s %14s %16s\n", "bytes", "reps", "latency(us)",
               "bandwidth(MB/s)");
        fflush(stdout);
    }

    if (me == 0 || me == 1) {
        int peer = 1 - me;
        for (int si = 0; si < nsizes; si++) {
            size_t size = sizes[si];
            long n = reps_for(size, reps);

            /* one verified round trip: UE 1 checks and returns the data */
            for (size_t k = 0; k < size; k++)
                sbuf[k] = (char)pattern(size, k);
            memset(rbuf, 0, alloc);
            if (me == 0) {
                check(RCCE_send(sbuf, size, peer), "RCCE_send");
                check(RCCE_recv(rbuf, size, peer), "RCCE_recv");
            } else {
                check(RCCE_recv(rbuf, size, peer), "RCCE_recv");
                check(RCCE_send(rbuf, size, peer), "RCCE_send");
            }
            if (memcmp(rbuf, sbuf, size) != 0) {
                errors++;
                fprintf(stderr, "pingpong: UE %d: data mismatch at %zu "
                        "bytes\n", me, size);
            }

            double t0 = RCCE_wtime();
            for (long r = 0; r < n; r++) {
                if (me == 0) {
                    check(RCCE_send(sbuf, size, peer), "RCCE_send");
                    check(RCCE_recv(rbuf, size, peer), "RCCE_recv");
                } else {
                    check(RCCE_recv(rbuf, size, peer), "RCCE_recv");
                    check(RCCE_send(rbuf, size, peer), "RCCE_send");
                }
            }
            double t = RCCE_wtime() - t0;

            if (me == 0) {
                double one_way = t / (2.0 * (double)n);
                double mbps = one_way > 0.0 ? (double)size / one_way / 1e6
                                            : 0.0;
                printf("%10zu %7ld %14.3f %16.2f\n", size, n, one_way * 1e6,
                       mbps);
                fflush(stdout);
            }
        }
    }

    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    int all_errors = 0;
    check(RCCE_allreduce((char *)&errors, (char *)&all_errors, 1, RCCE_INT,
                         RCCE_SUM, RCCE_COMM_WORLD),
          "RCCE_allreduce");
    if (me == 0) {
        if (all_errors == 0)
            printf("pingpong: all %d sizes verified OK\n", nsizes);
        else
            printf("pingpong: FAILED: %d sizes with corrupted data\n",
                   all_errors);
        fflush(stdout);
    }

    free(sbuf);
    free(rbuf);
    check(RCCE_finalize(), "RCCE_finalize");
    return all_errors == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
