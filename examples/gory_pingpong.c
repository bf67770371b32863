/*
 * gory_pingpong.c: the "gory" RCCE interface (compile with -DGORY), where
 * the program manages the message passing buffer (MPB) and the flags itself.
 *
 * Every UE allocates, in the same order, a communication buffer with
 * RCCE_malloc and four flags with RCCE_flag_alloc, so each object sits at the
 * same offset in every UE's MPB. UE 0 and UE 1 then
 *
 * 1. play ping-pong with one-sided transfers: UE 0 puts a message straight
 *    into UE 1's MPB (RCCE_put) and raises UE 1's "ping" flag
 *    (RCCE_flag_write); UE 1, waiting on its local flag (RCCE_wait_until),
 *    reads the message out of its own MPB (RCCE_get), checks it, writes
 *    the inverted bytes back into its own MPB and raises UE 0's "pong"
 *    flag; UE 0 pulls the answer out of UE 1's MPB with RCCE_get;
 * 2. exchange a large message (many MPB chunks, odd length) with the gory
 *    RCCE_send/RCCE_recv, which stage the data through the program's buffer
 *    and synchronise on the program's "ready" and "sent" flags.
 *
 * The other UEs only join the barriers.
 *
 *   rckcc -DGORY -o gory_pingpong gory_pingpong.c
 *   rck run -n 2 ./gory_pingpong [-c CHUNK] [-r REPS] [-s BYTES]
 *
 * Defaults: 4096-byte MPB chunk, 200 round trips per size, 100003 bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

#ifndef GORY
#error "gory_pingpong.c must be compiled with -DGORY"
#endif

static void check(int rc, const char *what)
{
    if (rc != RCCE_SUCCESS) {
        char msg[2 * RCCE_MAX_ERROR_STRING] = "";
        int len = 0;
        RCCE_error_string(rc, msg, &len);
        fprintf(stderr, "gory_pingpong: UE %d: %s FAILED: %s (%d)\n",
                RCCE_ue(), what, msg, rc);
        exit(EXIT_FAILURE);
    }
}

static unsigned char pattern(size_t size, long rep, size_t k)
{
    return (unsigned char)((unsigned)size * 5u + (unsigned)rep * 17u +
                           (unsigned)k * 9u + (unsigned)(k >> 8) + 3u);
}

static long count_bad(const unsigned char *buf, size_t size, long rep,
                      unsigned char flip)
{
    long bad = 0;
    for (size_t k = 0; k < size; k++)
        bad += buf[k] != (unsigned char)(pattern(size, rep, k) ^ flip);
    return bad;
}

int RCCE_APP(int argc, char **argv)
{
    int rc = RCCE_init(&argc, &argv);
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "gory_pingpong: RCCE_init FAILED (%d)\n", rc);
        return EXIT_FAILURE;
    }
    int me = RCCE_ue();
    int num_ues = RCCE_num_ues();

    long chunk = 4096, reps = 200, msg_size = 100003;
    int bad_args = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-c") == 0 && i + 1 < argc)
            chunk = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            reps = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            msg_size = strtol(argv[++i], NULL, 10);
        else
            bad_args = 1;
    }
    if (bad_args || chunk < RCCE_LINE_SIZE || chunk % RCCE_LINE_SIZE != 0 ||
        reps < 1 || msg_size < 1) {
        if (me == 0)
            fprintf(stderr, "usage: gory_pingpong [-c CHUNK (multiple of %d)] "
                    "[-r REPS] [-s BYTES]\n", RCCE_LINE_SIZE);
        RCCE_finalize();
        return EXIT_FAILURE;
    }
    if (num_ues < 2) {
        if (me == 0)
            printf("gory_pingpong: needs at least 2 UEs (have %d), nothing "
                   "to do\n", num_ues);
        check(RCCE_finalize(), "RCCE_finalize");
        return EXIT_SUCCESS;
    }

    /* the same allocations in the same order on every UE */
    t_vcharp combuf = RCCE_malloc((size_t)chunk);
    if (!combuf) {
        /* too big for what is left of the MPB: take the largest half-size
         * that fits (every UE gets the same answer) */
        size_t got = 0;
        combuf = RCCE_malloc_request((size_t)chunk, &got);
        if (!combuf) {
            fprintf(stderr, "gory_pingpong: UE %d: no MPB space for a "
                    "%ld-byte buffer\n", me, chunk);
            return EXIT_FAILURE;
        }
        if (me == 0)
            printf("gory_pingpong: %ld bytes do not fit in the MPB, using "
                   "%zu\n", chunk, got);
        chunk = (long)got;
    }
    RCCE_FLAG ping, pong, ready, sent;
    check(RCCE_flag_alloc(&ping), "RCCE_flag_alloc");
    check(RCCE_flag_alloc(&pong), "RCCE_flag_alloc");
    check(RCCE_flag_alloc(&ready), "RCCE_flag_alloc");
    check(RCCE_flag_alloc(&sent), "RCCE_flag_alloc");

    size_t big = (size_t)msg_size > (size_t)chunk ? (size_t)msg_size
                                                  : (size_t)chunk;
    unsigned char *sbuf = malloc(big);
    unsigned char *rbuf = malloc(big);
    if (!sbuf || !rbuf) {
        fprintf(stderr, "gory_pingpong: UE %d: out of memory\n", me);
        return EXIT_FAILURE;
    }

    long bad_bytes = 0;
    if (me == 0) {
        printf("gory_pingpong: UE 0 <-> UE 1 (%d UEs), MPB buffer of %ld "
               "bytes, %ld round trips per size\n", num_ues, chunk, reps);
        printf("gory_pingpong: one-sided put/get + flags\n");
        printf("%10s %14s %16s\n", "bytes", "latency(us)", "bandwidth(MB/s)");
        fflush(stdout);
    }
    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");

    /* 1. one-sided ping-pong: 32, 128, 512, ... bytes, and the whole buffer */
    size_t sizes[16];
    int nsizes = 0;
    for (size_t sz = RCCE_LINE_SIZE; sz < (size_t)chunk && nsizes < 15;
         sz *= 4)
        sizes[nsizes++] = sz;
    sizes[nsizes++] = (size_t)chunk;
    for (int si = 0; me < 2 && si < nsizes; si++) {
        size_t size = sizes[si];
        double t0 = RCCE_wtime();
        for (long r = -1; r < reps; r++) { /* r = -1: untimed warm-up */
            if (r == 0)
                t0 = RCCE_wtime();
            if (me == 0) {
                for (size_t k = 0; k < size; k++)
                    sbuf[k] = pattern(size, r, k);
                check(RCCE_put(combuf, (t_vcharp)sbuf, (int)size, 1),
                      "RCCE_put");
                check(RCCE_flag_write(&ping, RCCE_FLAG_SET, 1),
                      "RCCE_flag_write");
                check(RCCE_wait_until(pong, RCCE_FLAG_SET), "RCCE_wait_until");
                check(RCCE_flag_write(&pong, RCCE_FLAG_UNSET, 0),
                      "RCCE_flag_write");
                check(RCCE_get((t_vcharp)rbuf, combuf, (int)size, 1),
                      "RCCE_get");
                bad_bytes += count_bad(rbuf, size, r, 0xff);
            } else {
                check(RCCE_wait_until(ping, RCCE_FLAG_SET), "RCCE_wait_until");
                check(RCCE_flag_write(&ping, RCCE_FLAG_UNSET, 1),
                      "RCCE_flag_write");
                check(RCCE_get((t_vcharp)rbuf, combuf, (int)size, 1),
                      "RCCE_get");
                bad_bytes += count_bad(rbuf, size, r, 0);
                for (size_t k = 0; k < size; k++)
                    rbuf[k] ^= 0xff;
                check(RCCE_put(combuf, (t_vcharp)rbuf, (int)size, 1),
                      "RCCE_put");
                check(RCCE_flag_write(&pong, RCCE_FLAG_SET, 0),
                      "RCCE_flag_write");
            }
        }
        double t = RCCE_wtime() - t0;
        if (me == 0) {
            double one_way = t / (2.0 * (double)reps);
            printf("%10zu %14.3f %16.2f\n", size, one_way * 1e6,
                   one_way > 0.0 ? (double)size / one_way / 1e6 : 0.0);
            fflush(stdout);
        }
    }
    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");

    /* both flags of the protocol must be down again, in both MPBs */
    if (me == 0) {
        RCCE_FLAG_STATUS v1 = -1, v0 = -1;
        check(RCCE_flag_read(ping, &v1, 1), "RCCE_flag_read");
        check(RCCE_flag_read(pong, &v0, 0), "RCCE_flag_read");
        if (v1 != RCCE_FLAG_UNSET || v0 != RCCE_FLAG_UNSET) {
            fprintf(stderr, "gory_pingpong: flags left set: ping@1 %d, "
                    "pong@0 %d\n", v1, v0);
            bad_bytes++;
        }
    }

    /* 2. gory send/recv through the program's buffer and flags */
    size_t size = (size_t)msg_size;
    long big_reps = reps / 20 > 2 ? reps / 20 : 2;
    double t0 = RCCE_wtime();
    for (long r = 0; me < 2 && r < big_reps; r++) {
        if (me == 0) {
            for (size_t k = 0; k < size; k++)
                sbuf[k] = pattern(size, r, k);
            check(RCCE_send((char *)sbuf, combuf, (size_t)chunk, &ready, &sent,
                            size, 1), "RCCE_send");
            memset(rbuf, 0, size);
            check(RCCE_recv((char *)rbuf, combuf, (size_t)chunk, &ready, &sent,
                            size, 1), "RCCE_recv");
            bad_bytes += count_bad(rbuf, size, r, 0xff);
        } else {
            memset(rbuf, 0, size);
            check(RCCE_recv((char *)rbuf, combuf, (size_t)chunk, &ready, &sent,
                            size, 0), "RCCE_recv");
            bad_bytes += count_bad(rbuf, size, r, 0);
            for (size_t k = 0; k < size; k++)
                rbuf[k] ^= 0xff;
            check(RCCE_send((char *)rbuf, combuf, (size_t)chunk, &ready, &sent,
                            size, 0), "RCCE_send");
        }
    }
    double t = RCCE_wtime() - t0;

    /* UE 1 reports its verdict to UE 0 (collectives are not gory) */
    long report = bad_bytes;
    if (me == 1)
        check(RCCE_send((char *)&report, combuf, (size_t)chunk, &ready, &sent,
                        sizeof report, 0), "RCCE_send");
    else if (me == 0)
        check(RCCE_recv((char *)&report, combuf, (size_t)chunk, &ready, &sent,
                        sizeof report, 1), "RCCE_recv");

    int ok = 1;
    if (me == 0) {
        double one_way = t / (2.0 * (double)big_reps);
        printf("gory_pingpong: gory RCCE_send/RCCE_recv, %zu bytes: %.1f us "
               "one way, %.2f MB/s\n", size, one_way * 1e6,
               one_way > 0.0 ? (double)size / one_way / 1e6 : 0.0);
        ok = bad_bytes == 0 && report == 0;
        printf("gory_pingpong: bad bytes UE 0: %ld, UE 1: %ld: %s\n",
               bad_bytes, report, ok ? "OK" : "FAILED");
        fflush(stdout);
    } else if (me == 1) {
        ok = bad_bytes == 0;
    }

    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    check(RCCE_flag_free(&sent), "RCCE_flag_free");
    check(RCCE_flag_free(&ready), "RCCE_flag_free");
    check(RCCE_flag_free(&pong), "RCCE_flag_free");
    check(RCCE_flag_free(&ping), "RCCE_flag_free");
    RCCE_free(combuf);
    free(sbuf);
    free(rbuf);
    check(RCCE_finalize(), "RCCE_finalize");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
