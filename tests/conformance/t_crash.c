/*
 * Crash reports (issue 26): UE 1 dereferences NULL in conf_crash_here
 * while the other UEs wait for it in a barrier.
 *
 *   conf_crash segv     UE 1 dies of SIGSEGV at address 0: the run must
 *                       end with status 139, and the output name core 1,
 *                       the signal, the address and conf_crash_here in a
 *                       backtrace; each other UE says once that it gave
 *                       up its wait.
 *   conf_crash abort    UE 1 calls abort(): SIGABRT, status 134.
 *
 * Linked with -rdynamic so that backtrace_symbols_fd names the program's
 * own functions. Registered through tests/sim/check_run.cmake.
 */
#include "conf.h"

/* volatile: the compiler must not see the NULL and turn the store into
 * a trap instruction (SIGILL) */
int *volatile conf_crash_ptr;

__attribute__((noinline, noclone)) void conf_crash_here(int how)
{
    if (how == 0)
        *conf_crash_ptr = 42;
    else
        abort();
}

int main(int argc, char **argv)
{
    int rc;

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    CHECKF(RCCE_num_ues() >= 2, "needs 2 UEs or more");
    CHECKF(argc > 1, "usage: conf_crash segv | abort");
    if (RCCE_ue() == 1) {
        conf_phase("UE 1 crashes");
        conf_crash_here(strcmp(argv[1], "abort") == 0);
    }
    conf_phase("barrier with the crashing UE 1");
    rc = RCCE_barrier(&RCCE_COMM_WORLD);
    fprintf(stderr, "crash: UE %d: RCCE_barrier returned %d (%s)\n",
            RCCE_ue(), rc, conf_code_name(rc));
    return 1;
}
