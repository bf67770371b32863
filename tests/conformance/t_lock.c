/*
 * RCCE_acquire_lock / RCCE_release_lock (the TAS registers) protecting
 * shared-memory counters that every UE increments.
 *
 * Inside the critical section a UE also claims an owner word and checks,
 * after some work, that nobody else claimed it meanwhile; the counter's
 * final value must be exact. First all UEs hammer UE 0's lock, then each
 * UE's lock guards its own counter and every UE walks all the locks.
 */
#include "conf.h"

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    int me = RCCE_ue(), n = RCCE_num_ues();
    const int stride = RCCE_LINE_SIZE / (int)sizeof(int);

    conf_phase("shmalloc");
    /* per lock: counter in word 0, owner in word 1 of its own line */
    volatile int *w = (volatile int *)RCCE_shmalloc(
        (size_t)(RCCE_MAXNP + 1) * RCCE_LINE_SIZE);
    CHECK(w != NULL);
    if (me == 0) {
        for (int k = 0; k <= RCCE_MAXNP; k++) {
            w[k * stride] = 0;
            w[k * stride + 1] = -1;
        }
        RCCE_shflush();
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));

    int iters = n <= 8 ? 2000 : 60;
    conf_phase("everybody on UE 0's lock");
    for (int i = 0; i < iters; i++) {
        CHECK_OK(RCCE_acquire_lock(0));
        int owner = w[1];
        CHECKF(owner == -1, "UE %d is inside the critical section too", owner);
        w[1] = me;
        RCCE_shflush();
        int v = w[0];
        for (volatile int spin = 0; spin < 50; spin++)
            ;
        w[0] = v + 1;
        CHECKF(w[1] == me, "UE %d entered while I held the lock", w[1]);
        w[1] = -1;
        RCCE_shflush();
        CHECK_OK(RCCE_release_lock(0));
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECKF(w[0] == n * iters, "counter is %d, expected %d", w[0], n * iters);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));

    int rounds = n <= 8 ? 100 : 3;
    conf_phase("every lock guards its own counter");
    for (int r = 0; r < rounds; r++)
        for (int j = 0; j < n; j++) {
            int k = (me + j) % n; /* start at a different lock each */
            volatile int *c = w + (k + 1) * stride;
            CHECK_OK(RCCE_acquire_lock(k));
            CHECK_EQ(c[1], -1);
            c[1] = me;
            RCCE_shflush();
            int v = c[0];
            c[0] = v + 1;
            CHECK_EQ(c[1], me);
            c[1] = -1;
            RCCE_shflush();
            CHECK_OK(RCCE_release_lock(k));
        }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    for (int k = 0; k < n; k++)
        CHECKF(w[(k + 1) * stride] == n * rounds,
               "counter of lock %d is %d, expected %d", k,
               w[(k + 1) * stride], n * rounds);

    /* a released lock can be taken again at once (no lost release) */
    conf_phase("acquire/release my own lock");
    for (int i = 0; i < 100; i++) {
        CHECK_OK(RCCE_acquire_lock(me));
        CHECK_OK(RCCE_release_lock(me));
    }

    conf_phase("finalize");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    RCCE_shfree((t_vcharp)w);
    CHECK_OK(RCCE_finalize());
    return 0;
}
