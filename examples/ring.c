/*
 * ring.c: ring shift. In every round each UE sends its buffer to its right
 * neighbour and receives a new one from its left neighbour, so after round
 * r UE i holds the buffer that UE (i - r) mod N filled. Every received
 * buffer is checked against the pattern of the UE that filled it.
 *
 * RCCE_send is synchronous: it returns only once the receiver has taken the
 * data. If every UE sent first, all would wait forever. Even ranks therefore
 * send first and odd ranks receive first; as long as one odd rank exists
 * (N >= 2) the ring cannot deadlock, even for odd N.
 *
 *   rck run -n 8 ./ring [-s BYTES] [-r ROUNDS]
 *
 * Defaults: 4096 bytes, 100 rounds.
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
        fprintf(stderr, "ring: UE %d: %s FAILED: %s (%d)\n", RCCE_ue(), what,
                msg, rc);
        exit(EXIT_FAILURE);
    }
}

/* byte k of the buffer filled by UE origin; differs between any two UEs */
static unsigned char pattern(int origin, size_t k)
{
    return (unsigned char)(((unsigned)origin + 1u) * 37u + (unsigned)k * 11u +
                           (unsigned)(k >> 8));
}

static void fill(unsigned char *buf, size_t size, int origin)
{
    for (size_t k = 0; k < size; k++)
        buf[k] = pattern(origin, k);
}

/* number of bytes that differ from UE origin's pattern */
static size_t verify(const unsigned char *buf, size_t size, int origin)
{
    size_t bad = 0;
    for (size_t k = 0; k < size; k++)
        bad += buf[k] != pattern(origin, k);
    return bad;
}

static long checksum(const unsigned char *buf, size_t size)
{
    long sum = 0;
    for (size_t k = 0; k < size; k++)
        sum += (long)buf[k] * (long)((k % 1021) + 1);
    return sum;
}

int RCCE_APP(int argc, char **argv)
{
    int rc = RCCE_init(&argc, &argv);
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "ring: RCCE_init FAILED (%d)\n", rc);
        return EXIT_FAILURE;
    }
    int me = RCCE_ue();
    int num_ues = RCCE_num_ues();

    long size = 4096;
    long rounds = 100;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
            size = strtol(argv[++i], NULL, 10);
        } else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc) {
            rounds = strtol(argv[++i], NULL, 10);
        } else {
            size = -1;
            break;
        }
    }
    if (size < 1 || rounds < 1) {
        if (me == 0)
            fprintf(stderr, "usage: ring [-s BYTES] [-r ROUNDS]\n");
        RCCE_finalize();
        return EXIT_FAILURE;
    }

    unsigned char *mine = malloc((size_t)size);
    unsigned char *next = malloc((size_t)size);
    if (!mine || !next) {
        fprintf(stderr, "ring: UE %d: out of memory\n", me);
        return EXIT_FAILURE;
    }
    fill(mine, (size_t)size, me);

    int right = (me + 1) % num_ues;
    int left = (me + num_ues - 1) % num_ues;
    long bad_bytes = 0;

    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    double t0 = RCCE_wtime();
    for (long r = 1; r <= rounds; r++) {
        if (num_ues == 1) {
            memcpy(next, mine, (size_t)size); /* a ring of one: keep it */
        } else if (me % 2 == 0) {
            check(RCCE_send((char *)mine, (size_t)size, right), "RCCE_send");
            check(RCCE_recv((char *)next, (size_t)size, left), "RCCE_recv");
        } else {
            check(RCCE_recv((char *)next, (size_t)size, left), "RCCE_recv");
            check(RCCE_send((char *)mine, (size_t)size, right), "RCCE_send");
        }
        int origin = (int)(((long)me - r % num_ues + num_ues) % num_ues);
        size_t bad = verify(next, (size_t)size, origin);
        if (bad) {
            if (bad_bytes == 0)
                fprintf(stderr, "ring: UE %d: round %ld: %zu bytes differ "
                        "from UE %d's data\n", me, r, bad, origin);
            bad_bytes += (long)bad;
        }
        unsigned char *tmp = mine;
        mine = next;
        next = tmp;
    }
    double elapsed = RCCE_wtime() - t0;

    /* the final buffers are a permutation of the initial ones, so their
     * checksums add up to the same total whatever the number of rounds */
    long local[2] = {checksum(mine, (size_t)size), bad_bytes};
    long global[2] = {0, 0};
    check(RCCE_allreduce((char *)local, (char *)global, 2, RCCE_LONG,
                         RCCE_SUM, RCCE_COMM_WORLD),
          "RCCE_allreduce");
    double slowest = 0.0;
    check(RCCE_allreduce((char *)&elapsed, (char *)&slowest, 1, RCCE_DOUBLE,
                         RCCE_MAX, RCCE_COMM_WORLD),
          "RCCE_allreduce");

    int ok = 1;
    if (me == 0) {
        long expected = 0;
        for (int u = 0; u < num_ues; u++) {
            fill(next, (size_t)size, u);
            expected += checksum(next, (size_t)size);
        }
        ok = global[0] == expected && global[1] == 0;
        printf("ring: %d UEs, %ld rounds of %ld bytes, checksum %ld "
               "(expected %ld), %ld bad bytes: %s\n", num_ues, rounds, size,
               global[0], expected, global[1], ok ? "OK" : "FAILED");
        printf("ring: %.6f s in total, %.2f us per shift, %.2f MB/s per "
               "link\n", slowest, slowest / (double)rounds * 1e6,
               (double)size * (double)rounds / slowest / 1e6);
        fflush(stdout);
    }
    /* every UE learns the verdict through the allreduced error count */
    if (global[1] != 0)
        ok = 0;

    free(mine);
    free(next);
    check(RCCE_finalize(), "RCCE_finalize");
    return ok ? EXIT_SUCCESS : EXIT_FAILURE;
}
