/*
 * RCCE_barrier on RCCE_COMM_WORLD, many times in a row, checking that
 * nobody leaves a barrier before everybody has entered it.
 *
 * Each UE publishes the number of the barrier it is about to enter in a
 * shared-memory slot (RCCE_shmalloc + RCCE_shflush). Right after barrier k
 * every slot must read k or k + 1: k + 1 means that UE already left barrier
 * k and is on its way to barrier k + 1, which it cannot leave without us.
 * A second check needs no shared memory: between barriers, UE (k mod n)
 * sends a token around the ring and everybody else must be in the same
 * round (the token carries k).
 */
#include "conf.h"

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    int me = RCCE_ue(), n = RCCE_num_ues();
    int iters = n <= 8 ? 2000 : 250;

    conf_phase("shmalloc");
    volatile int *slot = (volatile int *)RCCE_shmalloc(
        (size_t)RCCE_MAXNP * RCCE_LINE_SIZE);
    CHECK(slot != NULL);
    /* one line per UE, so no UE's write covers another's slot */
    const int stride = RCCE_LINE_SIZE / (int)sizeof(int);
    slot[me * stride] = -1;
    RCCE_shflush();
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));

    for (int k = 0; k < iters; k++) {
        conf_phase("barrier %d", k);
        slot[me * stride] = k;
        RCCE_shflush();
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
        for (int j = 0; j < n; j++) {
            int v = slot[j * stride];
            CHECKF(v == k || v == k + 1,
                   "after barrier %d UE %d's slot reads %d", k, j, v);
        }
    }

    /* rounds with a token: only possible if the barrier really separates
     * the rounds (a token of round k arriving in round k+1 is caught) */
    int rounds = n <= 8 ? 200 : 20;
    for (int k = 0; k < rounds && n > 1; k++) {
        conf_phase("token round %d", k);
        int starter = k % n;
        int token[2];
        if (me == starter) {
            token[0] = k;
            token[1] = 0;
            CHECK_OK(RCCE_send((char *)token, sizeof token, (me + 1) % n));
            CHECK_OK(RCCE_recv((char *)token, sizeof token, (me + n - 1) % n));
            CHECK_EQ(token[0], k);
            CHECK_EQ(token[1], n - 1);
        } else {
            CHECK_OK(RCCE_recv((char *)token, sizeof token, (me + n - 1) % n));
            CHECK_EQ(token[0], k);
            CHECK_EQ(token[1], (me - starter + n) % n - 1);
            token[1]++;
            CHECK_OK(RCCE_send((char *)token, sizeof token, (me + 1) % n));
        }
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    }

    conf_phase("shfree");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    RCCE_shfree((t_vcharp)slot);
    CHECK_OK(RCCE_finalize());
    return 0;
}
