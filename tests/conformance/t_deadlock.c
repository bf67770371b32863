/*
 * Deadlock reports (issue 9). Two UEs:
 *
 *   conf_deadlock recv        both RCCE_recv from each other: a deadlock.
 *                             The backend must report it and fail the run
 *                             (the receive returns an error, or the core is
 *                             stopped); this program then exits 1.
 *   conf_deadlock ignore      the same, but the program ignores the failed
 *                             receive and returns 0: the core must still
 *                             end with status 3 (RCK_HAL_EXIT_DEADLOCK),
 *                             on every backend.
 *   conf_deadlock compute S   UE 0 computes for S seconds (no HAL call)
 *                             while UE 1 waits in RCCE_recv for it, then
 *                             sends: not a deadlock, the run must succeed.
 *   conf_deadlock spin S      the same, but UE 0 spins on a shared-DRAM
 *                             word with plain loads (that nobody writes)
 *                             for S seconds: on sim the watchdog names it
 *                             in a report; the run still succeeds.
 *
 * Registered through check_deadlock.cmake, which checks the exit status,
 * the report and the time the run took.
 */
#include "conf.h"

#include <time.h>

static double host_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    char buf[32] = "ping";
    int me, rc;

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    CHECKF(RCCE_num_ues() == 2, "needs 2 UEs");
    CHECKF(argc > 1, "usage: conf_deadlock recv | ignore | compute SECONDS");
    if (strcmp(argv[1], "recv") == 0) {
        conf_phase("RCCE_recv from the other UE");
        rc = RCCE_recv(buf, sizeof(buf), 1 - me);
        fprintf(stderr, "deadlock: UE %d: RCCE_recv returned %d (%s)\n", me,
                rc, conf_code_name(rc));
        return 1;
    }
    if (strcmp(argv[1], "ignore") == 0) {
        conf_phase("RCCE_recv from the other UE, its error ignored");
        rc = RCCE_recv(buf, sizeof(buf), 1 - me);
        fprintf(stderr, "deadlock: UE %d: RCCE_recv returned %d (%s), "
                        "ignored\n", me, rc, conf_code_name(rc));
        RCCE_finalize();
        return 0;
    }
    CHECKF((strcmp(argv[1], "compute") == 0 || strcmp(argv[1], "spin") == 0) &&
               argc > 2,
           "usage: conf_deadlock recv | compute SECONDS | spin SECONDS");
    if (me == 0) {
        double secs = atof(argv[2]), t0 = host_now();
        volatile unsigned long x = 0;
        volatile int *word = NULL;

        if (strcmp(argv[1], "spin") == 0) {
            word = (volatile int *)RCCE_shmalloc(64);
            CHECK(word != NULL);
            *word = 0;
        }
        conf_phase("%s for %g s", word ? "spinning" : "computing", secs);
        while (host_now() - t0 < secs) {
            if (word != NULL) {
                if (*word != 0)
                    break;
                continue;
            }
            for (int i = 0; i < 100000; i++)
                x += (unsigned long)i;
        }
        CHECK_OK(RCCE_send(buf, sizeof(buf), 1));
    } else {
        conf_phase("waiting for UE 0");
        CHECK_OK(RCCE_recv(buf, sizeof(buf), 0));
        CHECK(strcmp(buf, "ping") == 0);
    }
    CHECK_OK(RCCE_finalize());
    printf("deadlock: UE %d: no deadlock, as expected\n", me);
    return 0;
}
