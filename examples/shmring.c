/*
 * shmring.c: the SCC's off-chip shared memory, used through RCCE_shmalloc.
 *
 * 1. Slots: every UE writes its own 32-byte slot in a shared array,
 *    RCCE_shflush makes the writes visible, and after a barrier every UE
 *    reads and checks all the slots.
 * 2. Counter: every UE increments one shared counter M times; the
 *    read-modify-write is not atomic (the SCC has no atomic memory
 *    operations), so it is guarded by the test-and-set lock of UE 0
 *    (RCCE_acquire_lock/RCCE_release_lock). The total must be N * M.
 * 3. Token ring: a token record in shared memory travels around the ring
 *    R times. A UE may touch the token only while it holds its own TAS lock
 *    "as the token holder": every UE first takes its own lock, then waits
 *    in RCCE_acquire_lock until its left neighbour hands the token over by
 *    releasing that lock. The holder checks where the token comes from,
 *    updates it, flushes, and releases its right neighbour's lock.
 *
 *   rck run -n 16 ./shmring [-r ROUNDS] [-m INCREMENTS]
 *
 * Defaults: 10 rounds, 20 increments per UE.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

#define SLOT_INTS (RCCE_LINE_SIZE / (int)sizeof(int))
#define MAGIC 0x5CC0FFEE

/* token record: words of one shared line */
enum { TOK_HOPS, TOK_LAST, TOK_RANKSUM, TOK_ROUND };

static void check(int rc, const char *what)
{
    if (rc != RCCE_SUCCESS) {
        char msg[2 * RCCE_MAX_ERROR_STRING] = "";
        int len = 0;
        RCCE_error_string(rc, msg, &len);
        fprintf(stderr, "shmring: UE %d: %s FAILED: %s (%d)\n", RCCE_ue(),
                what, msg, rc);
        exit(EXIT_FAILURE);
    }
}

int RCCE_APP(int argc, char **argv)
{
    int rc = RCCE_init(&argc, &argv);
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "shmring: RCCE_init FAILED (%d)\n", rc);
        return EXIT_FAILURE;
    }
    int me = RCCE_ue();
    int num_ues = RCCE_num_ues();

    int rounds = 10, increments = 20, bad_args = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-r") == 0 && i + 1 < argc)
            rounds = atoi(argv[++i]);
        else if (strcmp(argv[i], "-m") == 0 && i + 1 < argc)
            increments = atoi(argv[++i]);
        else
            bad_args = 1;
    }
    if (bad_args || rounds < 1 || increments < 0) {
        if (me == 0)
            fprintf(stderr, "usage: shmring [-r ROUNDS] [-m INCREMENTS]\n");
        RCCE_finalize();
        return EXIT_FAILURE;
    }

    /* N slots, then the token line, then the counter line */
    size_t bytes = (size_t)(num_ues + 2) * RCCE_LINE_SIZE;
    t_vcharp shm = RCCE_shmalloc(bytes);
    if (!shm) {
        fprintf(stderr, "shmring: UE %d: RCCE_shmalloc(%zu) FAILED\n", me,
                bytes);
        return EXIT_FAILURE;
    }
    volatile int *slots = (volatile int *)shm;
    volatile int *token = slots + (size_t)num_ues * SLOT_INTS;
    volatile int *counter = token + SLOT_INTS;
    int errors = 0;

    /* the allocation is collective: every UE must see the same address */
    long addr = (long)(uintptr_t)shm;
    long addr_min = 0, addr_max = 0;
    check(RCCE_allreduce((char *)&addr, (char *)&addr_min, 1, RCCE_LONG,
                         RCCE_MIN, RCCE_COMM_WORLD), "RCCE_allreduce");
    check(RCCE_allreduce((char *)&addr, (char *)&addr_max, 1, RCCE_LONG,
                         RCCE_MAX, RCCE_COMM_WORLD), "RCCE_allreduce");
    if (addr_min != addr_max) {
        errors++;
        if (me == 0)
            fprintf(stderr, "shmring: RCCE_shmalloc returned different "
                    "addresses (%#lx .. %#lx)\n", addr_min, addr_max);
    }

    /* 1. slots */
    volatile int *slot = slots + (size_t)me * SLOT_INTS;
    for (int w = 0; w < SLOT_INTS; w++)
        slot[w] = MAGIC ^ (me * 1000 + w);
    slot[0] = me;
    slot[1] = num_ues;
    if (me == 0) {
        for (int w = 0; w < SLOT_INTS; w++)
            token[w] = counter[w] = 0;
        token[TOK_LAST] = num_ues - 1; /* as if it came from the left */
    }
    RCCE_shflush();
    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");

    int bad_slots = 0;
    for (int u = 0; u < num_ues; u++) {
        volatile int *s = slots + (size_t)u * SLOT_INTS;
        int good = s[0] == u && s[1] == num_ues;
        for (int w = 2; w < SLOT_INTS; w++)
            good = good && s[w] == (MAGIC ^ (u * 1000 + w));
        if (!good) {
            if (bad_slots == 0)
                fprintf(stderr, "shmring: UE %d: slot of UE %d holds "
                        "%d %d ...\n", me, u, s[0], s[1]);
            bad_slots++;
        }
    }
    errors += bad_slots;

    /* 2. lock-guarded counter */
    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    for (int m = 0; m < increments; m++) {
        check(RCCE_acquire_lock(0), "RCCE_acquire_lock");
        int c = counter[0];
        counter[0] = c + 1;
        RCCE_shflush();
        check(RCCE_release_lock(0), "RCCE_release_lock");
    }
    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    int count = counter[0];
    if (count != num_ues * increments) {
        errors++;
        if (me == 0)
            fprintf(stderr, "shmring: counter is %d, expected %d\n", count,
                    num_ues * increments);
    }

    /* 3. token ring: my lock set = I wait for the token */
    check(RCCE_acquire_lock(me), "RCCE_acquire_lock");
    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    int left = (me + num_ues - 1) % num_ues;
    int right = (me + 1) % num_ues;
    double t0 = RCCE_wtime();
    for (int r = 0; r < rounds; r++) {
        /* UE 0 starts holding the token; afterwards it waits like all */
        if (me != 0 || r > 0)
            check(RCCE_acquire_lock(me), "RCCE_acquire_lock");
        int hops = token[TOK_HOPS];
        int expected_hops = r * num_ues + me;
        if (token[TOK_LAST] != left || hops != expected_hops ||
            token[TOK_ROUND] != r) {
            if (errors == 0)
                fprintf(stderr, "shmring: UE %d: round %d: token from UE %d "
                        "after %d hops in round %d, expected UE %d, %d hops\n",
                        me, r, token[TOK_LAST], hops, token[TOK_ROUND], left,
                        expected_hops);
            errors++;
        }
        token[TOK_HOPS] = hops + 1;
        token[TOK_LAST] = me;
        token[TOK_RANKSUM] = token[TOK_RANKSUM] + me;
        token[TOK_ROUND] = me == num_ues - 1 ? r + 1 : r;
        RCCE_shflush();
        check(RCCE_release_lock(right), "RCCE_release_lock");
    }
    /* UE 0 waits for the token's last trip to end */
    if (me == 0)
        check(RCCE_acquire_lock(0), "RCCE_acquire_lock");
    double elapsed = RCCE_wtime() - t0;
    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");

    int total_hops = token[TOK_HOPS];
    int rank_sum = token[TOK_RANKSUM];
    int want_hops = rounds * num_ues;
    int want_sum = rounds * (num_ues * (num_ues - 1) / 2);
    if (me == 0 && (total_hops != want_hops || rank_sum != want_sum)) {
        errors++;
        fprintf(stderr, "shmring: token made %d hops (rank sum %d), expected "
                "%d (%d)\n", total_hops, rank_sum, want_hops, want_sum);
    }
    /* leave every lock free: UE 0's was re-taken above, the others hold
     * their own since their last turn */
    check(RCCE_release_lock(me), "RCCE_release_lock");

    int all_errors = 0;
    check(RCCE_allreduce((char *)&errors, (char *)&all_errors, 1, RCCE_INT,
                         RCCE_SUM, RCCE_COMM_WORLD), "RCCE_allreduce");
    if (me == 0) {
        printf("shmring: %d UEs, %zu shared bytes at the same address on "
               "every UE; slots: %d x %d checked\n", num_ues, bytes, num_ues,
               num_ues);
        printf("shmring: lock-guarded counter %d (expected %d); token: %d "
               "rounds, %d hops, %.2f us per hop\n", count,
               num_ues * increments, rounds, total_hops,
               total_hops ? elapsed / total_hops * 1e6 : 0.0);
        printf("shmring: %s (%d errors)\n", all_errors ? "FAILED" : "OK",
               all_errors);
        fflush(stdout);
    }

    check(RCCE_barrier(&RCCE_COMM_WORLD), "RCCE_barrier");
    RCCE_shfree(shm);
    check(RCCE_finalize(), "RCCE_finalize");
    return all_errors ? EXIT_FAILURE : EXIT_SUCCESS;
}
