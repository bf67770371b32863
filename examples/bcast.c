/*
 * bcast.c: one-to-all broadcast, two ways. The root sends a buffer to every
 * other UE with RCCE_bcast, and with a hand-written loop of RCCE_send (one
 * UE after another, each receiver calling RCCE_recv). Every repetition uses
 * fresh contents, and every receiver checks them. At the end each UE's
 * checksum of its copy is combined with RCCE_allreduce (sum, min and max)
 * and compared with the root's.
 *
 *   rck run -n 8 ./bcast [-s BYTES] [-r REPS] [-R ROOT]
 *
 * Defaults: 65536 bytes, 5 repetitions, root 0.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

static void check(int rc, const char *what)
{
    if (rc != RCCE_SUCCESS) {
        char msg[2 * RCCE_MAX_ERROR_STRING] = "";
        int len = 0;
        RCCE_error_string(rc, msg, &len);
        fprintf(stderr, "bcast: UE %d: %s FAILED: %s (%d)\n", RCCE_ue(), what,
                msg, rc);
        exit(EXIT_FAILURE);
    }
}

static unsigned char pattern(int method, int rep, size_t k)
{
    return (unsigned char)((unsigned)method * 101u + (unsigned)rep * 29u +
                           (unsigned)k * 3u + (unsigned)(k >> 9) + 7u);
}

/* weighted sum of the bytes; exact in a double for buffers < 2^32 bytes */
static double checksum(const unsigned char *buf, size_t size)
{
    double sum = 0.0;
    for (size_t k = 0; k < size; k++)
        sum += (double)buf[k] * (double)((k % 4093) + 1);
    return sum;
}

int RCCE_APP(int argc, char **argv)
{
    int rc = RCCE_init(&argc, &argv);
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "bcast: RCCE_init FAILED (%d)\n", rc);
        return EXIT_FAILURE;
    }
    int me = RCCE_ue();
    int num_ues = RCCE_num_ues();

    long size = 65536;
    int reps = 5, root = 0, bad_args = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc)
            size = strtol(argv[++i], NULL, 10);
        else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (strcmp(argv[i], "-R") == 0 && i + 1 < argc)
            root = atoi(argv[++i]);
        else
            bad_args = 1;
    }
    if (bad_args || size < 1 || reps < 1 || root < 0 || root >= num_ues) {
        if (me == 0)
            fprintf(stderr, "usage: bcast [-s BYTES] [-r REPS] [-R ROOT] "
                    "(ROOT < %d)\n", num_ues);
        RCCE_finalize();
        return EXIT_FAILURE;
    }

    unsigned char *buf = malloc((size_t)size);
    if (!buf) {
        fprintf(stderr, "bcast: UE %d: out of memory\n", me);
        return EXIT_FAILURE;
    }

    static const char *const names[2] = {"RCCE_bcast", "send loop"};
    double total[2] = {0.0, 0.0};
    long bad_bytes = 0;
    for (int rep = 0; rep < reps; rep++) {
        for (int method = 0; method < 2; method++) {
            if (me == root)
                for (size_t k = 0; k < (size_t)size; k++)
                    buf[k] = pattern(method, rep, k);
            else
                memset(buf, 0, (size_t)size);

            check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
            double t0 = RCCE_wtime();
            if (method == 0) {
                check(RCCE_bcast((char *)buf, (size_t)size, root,
                                 RCCE_COMM_WORLD), "RCCE_bcast");
            } else if (me == root) {
                for (int ue = 0; ue < num_ues; ue++)
                    if (ue != root)
                        check(RCCE_send((char *)buf, (size_t)size, ue),
                              "RCCE_send");
            } else {
                check(RCCE_recv((char *)buf, (size_t)size, root),
                      "RCCE_recv");
            }
            /* time until this UE has its copy (the root: until it is done) */
            total[method] += RCCE_wtime() - t0;

            long bad = 0;
            for (size_t k = 0; k < (size_t)size; k++)
                bad += buf[k] != pattern(method, rep, k);
            if (bad && bad_bytes == 0)
                fprintf(stderr, "bcast: UE %d: %s, repetition %d: %ld bytes "
                        "wrong\n", me, names[method], rep, bad);
            bad_bytes += bad;
        }
    }

    /* the last buffer (send loop, last repetition) everywhere */
    double cs = checksum(buf, (size_t)size);
    double cs_sum = 0.0, cs_min = 0.0, cs_max = 0.0;
    check(RCCE_allreduce((char *)&cs, (char *)&cs_sum, 1, RCCE_DOUBLE,
                         RCCE_SUM, RCCE_COMM_WORLD), "RCCE_allreduce");
    check(RCCE_allreduce((char *)&cs, (char *)&cs_min, 1, RCCE_DOUBLE,
                         RCCE_MIN, RCCE_COMM_WORLD), "RCCE_allreduce");
    check(RCCE_allreduce((char *)&cs, (char *)&cs_max, 1, RCCE_DOUBLE,
                         RCCE_MAX, RCCE_COMM_WORLD), "RCCE_allreduce");
    /* the root's checksum, broadcast the RCCE way */
    double cs_root = cs;
    check(RCCE_bcast((char *)&cs_root, sizeof cs_root, root, RCCE_COMM_WORLD),
          "RCCE_bcast");
    long all_bad = 0;
    check(RCCE_allreduce((char *)&bad_bytes, (char *)&all_bad, 1, RCCE_LONG,
                         RCCE_SUM, RCCE_COMM_WORLD), "RCCE_allreduce");
    double slowest[2] = {0.0, 0.0};
    check(RCCE_allreduce((char *)total, (char *)slowest, 2, RCCE_DOUBLE,
                         RCCE_MAX, RCCE_COMM_WORLD), "RCCE_allreduce");

    int ok = all_bad == 0 && cs_min == cs_root && cs_max == cs_root &&
             cs_sum == cs_root * num_ues;
    if (me == 0) {
        printf("bcast: %d UEs, root %d, %ld bytes, %d repetitions\n", num_ues,
               root, size, reps);
        for (int method = 0; method < 2; method++) {
            double t = slowest[method] / reps;
            printf("bcast: %-10s %10.1f us per broadcast, %8.2f MB/s "
                   "delivered\n", names[method], t * 1e6,
                   t > 0.0 ? (double)size * (num_ues - 1) / t / 1e6 : 0.0);
        }
        if (num_ues > 1 && slowest[0] > 0.0)
            printf("bcast: send loop / RCCE_bcast time ratio %.2f\n",
                   slowest[1] / slowest[0]);
        printf("bcast: checksum %.0f on every UE (sum %.0f = %d x root): "
               "%ld bad bytes: %s\n", cs_root, cs_sum, num_ues, all_bad,
               ok ? "OK" : "FAILED");
        fflush(stdout);
    }

    free(buf);
    check(RCCE_finalize(), "RCCE_finalize");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
