/*
 * Tiny check kit of the mailbox tests: a failed check names the UE, the
 * line and the expression and exits 1; SIGALRM turns a hang into a failure.
 */
#ifndef MBOX_CHECK_H
#define MBOX_CHECK_H

#include "rck_mbox.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define CHECK(cond)                                                           \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "FAIL %s:%d: %s [ue %d]\n", __FILE__, __LINE__,   \
                    #cond, rck_mbox_ue());                                    \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

#define CHECK_ST(call, want)                                                  \
    do {                                                                      \
        rck_status_t st_ = (call);                                            \
        if (st_ != (want)) {                                                  \
            fprintf(stderr, "FAIL %s:%d: %s returned %s, expected %s [ue %d]\n",\
                    __FILE__, __LINE__, #call, rck_status_string(st_),        \
                    rck_status_string(want), rck_mbox_ue());                  \
            exit(1);                                                          \
        }                                                                     \
    } while (0)

static void mbox_check_alarm(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: watchdog: the test hung\n";
    (void)!write(2, msg, sizeof msg - 1);
    _exit(1);
}

static inline void mbox_check_watchdog(unsigned seconds)
{
    signal(SIGALRM, mbox_check_alarm);
    alarm(seconds);
}

#endif
