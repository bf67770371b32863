/*
 * Crash reports (issue 26): UE 1 dies while the other UEs wait for it in
 * a barrier.
 *
 *   conf_crash segv     UE 1 dies of SIGSEGV at address 0: the run must
 *                       end with status 139, and the output name core 1,
 *                       the signal, the address and conf_crash_here in a
 *                       backtrace; on native each other UE says exactly
 *                       once that it gave up its wait (RCCE_finalize's
 *                       barrier after the failed one does not say it
 *                       again).
 *   conf_crash abort    UE 1 calls abort() in conf_abort_here: SIGABRT,
 *                       status 134.
 *
 * Linked with -rdynamic so that backtrace_symbols_fd names the program's
 * own functions. Registered through tests/sim/check_run.cmake.
 */
#include "conf.h"

/* volatile: the compiler must not see the NULL and turn the store into
 * a trap instruction (SIGILL) */
int *volatile conf_crash_ptr;

/* default visibility: the tree builds with hidden visibility, and
 * backtrace_symbols_fd names exported functions only. Two functions, not
 * one with two branches: GCC would move the abort() branch into a local
 * .cold part, which has no exported name. */
__attribute__((noinline, noclone, visibility("default"))) void
conf_crash_here(void)
{
    *conf_crash_ptr = 42;
}

__attribute__((noinline, noclone, visibility("default"))) void
conf_abort_here(void)
{
    abort();
}

int main(int argc, char **argv)
{
    int rc;

    conf_watchdog();
    /* the survivors outlive the launcher's SIGTERM (until the SIGKILL
     * after RCK_KILL_GRACE_MS) so that each has time to give up its
     * waits and say so */
    signal(SIGTERM, SIG_IGN);
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    CHECKF(RCCE_num_ues() >= 2, "needs 2 UEs or more");
    CHECKF(argc > 1, "usage: conf_crash segv | abort");
    /* every UE is past RCCE_init (on sim, UE 1 may otherwise run ahead
     * and crash while another is still in RCCE_init's barrier); a UE
     * still in it when UE 1 dies fails it, and finalizes below */
    rc = RCCE_barrier(&RCCE_COMM_WORLD);
    if (RCCE_ue() == 1) {
        conf_phase("UE 1 crashes");
        if (strcmp(argv[1], "abort") == 0)
            conf_abort_here();
        conf_crash_here();
    }
    conf_phase("barrier with the crashing UE 1");
    if (rc == RCCE_SUCCESS)
        rc = RCCE_barrier(&RCCE_COMM_WORLD);
    fprintf(stderr, "crash: UE %d: RCCE_barrier returned %d (%s)\n",
            RCCE_ue(), rc, conf_code_name(rc));
    /* as many programs do: finalize whatever the barrier said (its own
     * barrier fails too) */
    RCCE_finalize();
    return 1;
}
