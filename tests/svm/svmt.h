/*
 * svmt.h: the small check kit of the SVM tests (header-only).
 *
 * A failed check prints "FAILED file:line: expression [ue U] (detail)" on
 * stderr and exits with status 1. A watchdog (SIGALRM, 100 s) turns a hang
 * into a failure before the CTest timeout.
 */
#ifndef RCK_SVMT_H
#define RCK_SVMT_H

#include "rck_svm.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *svmt_prog = "svm";

static inline void svmt_fail(const char *file, int line, const char *expr,
                      const char *detail)
{
    fprintf(stderr, "%s: FAILED %s:%d: %s [ue %d] (%s)\n", svmt_prog, file,
            line, expr, svm_ue(), detail ? detail : "");
    exit(1);
}

#define CHECK(e)                                                              \
    do {                                                                      \
        if (!(e))                                                             \
            svmt_fail(__FILE__, __LINE__, #e, NULL);                          \
    } while (0)

/* a call that returns rck_status_t, compared with the expected code */
#define CHECK_ST(call, want)                                                  \
    do {                                                                      \
        rck_status_t st_ = (call);                                            \
        if (st_ != (want))                                                    \
            svmt_fail(__FILE__, __LINE__, #call,                              \
                      rck_status_string(st_));                                \
    } while (0)

#define CHECK_OK(call) CHECK_ST(call, RCK_OK)

static inline void svmt_alarm(int sig)
{
    static const char msg[] = "svm test: FAILED: watchdog (100 s)\n";
    (void)sig;
    if (write(2, msg, sizeof(msg) - 1) < 0) {
        /* nothing more to do */
    }
    _exit(1);
}

static inline void svmt_start(const char *prog)
{
    svmt_prog = prog;
    signal(SIGALRM, svmt_alarm);
    alarm(100);
}

/* "strong" or "lazy" */
static inline svm_model_t svmt_model(const char *arg)
{
    if (arg != NULL && !strcmp(arg, "lazy"))
        return SVM_LAZY;
    if (arg != NULL && !strcmp(arg, "strong"))
        return SVM_STRONG;
    fprintf(stderr, "%s: FAILED: the model must be strong or lazy\n",
            svmt_prog);
    exit(2);
}

#endif
