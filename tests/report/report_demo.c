/*
 * report_demo: a small RCCE run with something in every part of the sim's
 * report, for `rck report` (docs/REPORT.md). Every UE passes a token
 * around the ring for ROUNDS rounds with a little work between, streams
 * its slice of a shared-DRAM array, and the master core of the first
 * power domain lowers its island's frequency and voltage halfway through
 * (RCCE_iset_power / RCCE_wait_power), then raises them back.
 *
 *   report_demo [ROUNDS]
 */
#include "RCCE.h"

#include <stdio.h>
#include <stdlib.h>

enum { WORDS = 2048 };

static volatile double sink;

static void work(int n)
{
    double x = 0;
    for (int i = 1; i <= n; i++)
        x += 1.0 / i;
    sink = x;
}

int main(int argc, char **argv)
{
    int rounds, me, n, next, prev;
    volatile int *shared;
    char token[256];
    long sum = 0;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS)
        return 1;
    rounds = argc > 1 ? atoi(argv[1]) : 6;
    me = RCCE_ue();
    n = RCCE_num_ues();
    next = (me + 1) % n;
    prev = (me + n - 1) % n;
    shared = (volatile int *)RCCE_shmalloc(WORDS * sizeof(int));
    if (shared == NULL) {
        fprintf(stderr, "report_demo: RCCE_shmalloc failed\n");
        return 1;
    }
    for (int r = 0; r < rounds; r++) {
        if (r == rounds / 2 && RCCE_power_domain_master() == me &&
            RCCE_power_domain() == 0) {
            RCCE_REQUEST req;
            int fdiv, vlevel;
            if (RCCE_iset_power(8, &req, &fdiv, &vlevel) == RCCE_SUCCESS)
                RCCE_wait_power(&req);
        }
        if (me == 0) {
            token[0] = (char)r;
            RCCE_send(token, sizeof(token), next);
            RCCE_recv(token, sizeof(token), prev);
        } else {
            RCCE_recv(token, sizeof(token), prev);
            RCCE_send(token, sizeof(token), next);
        }
        work(2000 * (me + 1));
        for (int i = me; i < WORDS; i += n)
            shared[i] = r + i;
        for (int i = me; i < WORDS; i += n)
            sum += shared[i];
        RCCE_barrier(&RCCE_COMM_WORLD);
    }
    if (RCCE_power_domain_master() == me && RCCE_power_domain() == 0) {
        RCCE_REQUEST req;
        int fdiv, vlevel;
        if (RCCE_iset_power(3, &req, &fdiv, &vlevel) == RCCE_SUCCESS)
            RCCE_wait_power(&req);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    printf("report_demo: ue %d done (%ld)\n", me, sum);
    RCCE_shfree((t_vcharp)shared);
    RCCE_finalize();
    return 0;
}
