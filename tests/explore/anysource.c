/*
 * anysource.c: the any-source shape of issue 9, for `rck explore`.
 *
 * UEs 1..n-1 each send three 8-byte messages {me, round} to UE 0 with
 * iRCCE_isend and a wait list (iRCCE_init_wait_list,
 * iRCCE_add_to_wait_list, iRCCE_wait_all); UE 0 posts 3*(n-1) receives
 * one at a time, iRCCE_irecv(iRCCE_ANY_SOURCE) + iRCCE_irecv_wait, and
 * checks iRCCE_get_source and the contents; then every UE calls
 * RCCE_allreduce (the sum of the messages each sent). Any mismatch prints
 * "anysource: FAILED" and exits 1.
 *
 * Usage: anysource [rounds]   (default 1)
 */
#include <stdio.h>
#include <stdlib.h>

#include "RCCE.h"
#include "iRCCE.h"

#define PER_SENDER 3

static int me, n;

#define FAIL(...)                                                           \
    do {                                                                    \
        printf("anysource: FAILED: UE %d: ", me);                           \
        printf(__VA_ARGS__);                                                \
        printf("\n");                                                       \
        fflush(stdout);                                                     \
        exit(1);                                                            \
    } while (0)

static void one_round(int round)
{
    int sent = 0, sum = 0, rc;

    if (me != 0) {
        int msg[PER_SENDER][2];
        iRCCE_SEND_REQUEST req[PER_SENDER];
        iRCCE_WAIT_LIST list;

        iRCCE_init_wait_list(&list);
        for (int k = 0; k < PER_SENDER; k++) {
            msg[k][0] = me;
            msg[k][1] = round;
            rc = iRCCE_isend((char *)msg[k], 8, 0, &req[k]);
            if (rc != iRCCE_SUCCESS && rc != iRCCE_PENDING &&
                rc != iRCCE_RESERVED)
                FAIL("iRCCE_isend returned %d", rc);
            iRCCE_add_to_wait_list(&list, &req[k], NULL);
        }
        rc = iRCCE_wait_all(&list);
        if (rc != iRCCE_SUCCESS)
            FAIL("iRCCE_wait_all returned %d", rc);
        sent = PER_SENDER;
    } else {
        int count[RCCE_MAXNP] = {0};

        for (int k = 0; k < PER_SENDER * (n - 1); k++) {
            iRCCE_RECV_REQUEST r;
            int got[2] = {-1, -1}, src;

            rc = iRCCE_irecv((char *)got, 8, iRCCE_ANY_SOURCE, &r);
            if (rc != iRCCE_SUCCESS && rc != iRCCE_PENDING &&
                rc != iRCCE_RESERVED)
                FAIL("iRCCE_irecv returned %d", rc);
            rc = iRCCE_irecv_wait(&r);
            if (rc != iRCCE_SUCCESS)
                FAIL("iRCCE_irecv_wait returned %d", rc);
            src = iRCCE_get_source(&r);
            if (src < 1 || src >= n)
                FAIL("round %d, receive %d: source %d", round, k, src);
            if (got[0] != src || got[1] != round)
                FAIL("round %d, receive %d: from UE %d, contents {%d,%d}",
                     round, k, src, got[0], got[1]);
            if (++count[src] > PER_SENDER)
                FAIL("round %d, receive %d: message %d from UE %d (it sends "
                     "%d)", round, k, count[src], src, PER_SENDER);
        }
    }
    rc = RCCE_allreduce((char *)&sent, (char *)&sum, 1, RCCE_INT, RCCE_SUM,
                        RCCE_COMM_WORLD);
    if (rc != RCCE_SUCCESS)
        FAIL("round %d: RCCE_allreduce returned %d", round, rc);
    if (sum != PER_SENDER * (n - 1))
        FAIL("round %d: allreduce sum %d, not %d", round, sum,
             PER_SENDER * (n - 1));
}

int RCCE_APP(int argc, char **argv)
{
    int rounds = argc > 1 ? atoi(argv[1]) : 1;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "anysource: RCCE_init failed\n");
        return 2;
    }
    me = RCCE_ue();
    n = RCCE_num_ues();
    if (rounds < 1 || n < 2 || n > RCCE_MAXNP) {
        fprintf(stderr, "anysource: needs 2 UEs or more and rounds >= 1\n");
        return 2;
    }
    for (int round = 0; round < rounds; round++)
        one_round(round);
    RCCE_finalize();
    if (me == 0)
        printf("anysource: %d rounds, %d senders: OK\n", rounds, n - 1);
    return 0;
}
