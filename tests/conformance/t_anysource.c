/*
 * iRCCE any-source receives under many interleavings (issue 9).
 *
 * The shape of the defect report, repeated for many rounds: UEs 1..n-1
 * each send three 8-byte messages {me, round} to UE 0 with iRCCE_isend and
 * a wait list; UE 0 posts 3*(n-1) receives one at a time,
 * iRCCE_irecv(ANY_SOURCE) + iRCCE_irecv_wait, and checks the source
 * (iRCCE_get_source) and the contents; then everyone calls RCCE_allreduce
 * (the sum of the messages each UE sent, which UE 0 also counts).
 *
 * Usage: conf_anysource [rounds]   (default 200)
 */
#include "conf.h"
#include "iRCCE.h"

#define PER_SENDER 3

static int me, n;

static void one_round(int round)
{
    int mine[2], sent = 0, total = 0;

    conf_phase("round %d", round);
    if (me != 0) {
        int msg[PER_SENDER][2];
        iRCCE_SEND_REQUEST req[PER_SENDER];
        iRCCE_WAIT_LIST list;

        iRCCE_init_wait_list(&list);
        for (int k = 0; k < PER_SENDER; k++) {
            int rc;
            msg[k][0] = me;
            msg[k][1] = round;
            rc = iRCCE_isend((char *)msg[k], 8, 0, &req[k]);
            CHECKF(rc == iRCCE_SUCCESS || rc == iRCCE_PENDING ||
                       rc == iRCCE_RESERVED,
                   "iRCCE_isend returned %d", rc);
            iRCCE_add_to_wait_list(&list, &req[k], NULL);
        }
        CHECK_EQ(iRCCE_wait_all(&list), iRCCE_SUCCESS);
        sent = PER_SENDER;
    } else {
        int *count = calloc((size_t)n, sizeof(int));
        CHECK(count != NULL);
        for (int k = 0; k < PER_SENDER * (n - 1); k++) {
            iRCCE_RECV_REQUEST r;
            int rc, src;

            mine[0] = mine[1] = -1;
            rc = iRCCE_irecv((char *)mine, 8, iRCCE_ANY_SOURCE, &r);
            CHECKF(rc == iRCCE_SUCCESS || rc == iRCCE_PENDING ||
                       rc == iRCCE_RESERVED,
                   "iRCCE_irecv returned %d", rc);
            CHECK_EQ(iRCCE_irecv_wait(&r), iRCCE_SUCCESS);
            src = iRCCE_get_source(&r);
            CHECKF(src >= 1 && src < n, "receive %d: source %d", k, src);
            CHECKF(mine[0] == src && mine[1] == round,
                   "receive %d of round %d: source %d but contents {%d,%d}",
                   k, round, src, mine[0], mine[1]);
            count[src]++;
            CHECKF(count[src] <= PER_SENDER,
                   "round %d: message %d from UE %d (only %d sent)", round,
                   count[src], src, PER_SENDER);
        }
        for (int s = 1; s < n; s++)
            CHECK_EQ(count[s], PER_SENDER);
        free(count);
        total = PER_SENDER * (n - 1);
    }
    conf_phase("round %d: allreduce", round);
    {
        int sum = 0;
        CHECK_OK(RCCE_allreduce((char *)&sent, (char *)&sum, 1, RCCE_INT,
                                RCCE_SUM, RCCE_COMM_WORLD));
        CHECK_EQ(sum, PER_SENDER * (n - 1));
        if (me == 0)
            CHECK_EQ(total, sum);
    }
}

int main(int argc, char **argv)
{
    int rounds = 200;

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    if (argc > 1)
        rounds = atoi(argv[1]);
    CHECK(rounds > 0);
    for (int round = 0; round < rounds; round++)
        one_round(round);
    CHECK_OK(RCCE_finalize());
    return 0;
}
