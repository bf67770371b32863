/*
 * chan_test.h: the small assertion kit of the channel tests. Header-only;
 * each test is one SPMD program run through the launcher.
 *
 * A failed check prints "FAIL file:line: expr [ue U, phase P] (detail)"
 * and exits 1. A watchdog (SIGALRM, CHAN_TEST_WATCHDOG seconds, default
 * 100) turns a hang into a failure that names the phase.
 */
#ifndef CHAN_TEST_H
#define CHAN_TEST_H

#include "rck_chan.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char ct_phase_buf[200] = "start";
static int ct_me = -1;

static inline void ct_phase(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static inline void ct_phase(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(ct_phase_buf, sizeof(ct_phase_buf), fmt, ap);
    va_end(ap);
}

static inline void ct_fail(const char *file, int line, const char *expr,
                           const char *fmt, ...)
    __attribute__((format(printf, 4, 5), noreturn));
static inline void ct_fail(const char *file, int line, const char *expr,
                           const char *fmt, ...)
{
    char detail[256] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof(detail), fmt, ap);
    va_end(ap);
    fprintf(stderr, "FAIL %s:%d: %s [ue %d, phase %s] (%s)\n", file, line,
            expr, ct_me, ct_phase_buf, detail);
    fflush(stderr);
    exit(1);
}

#define CT_CHECK(expr, ...)                                                   \
    do {                                                                      \
        if (!(expr))                                                          \
            ct_fail(__FILE__, __LINE__, #expr, __VA_ARGS__);                  \
    } while (0)

/* A call that must return @p want (an rck_status_t). */
#define CT_ST(call, want)                                                     \
    do {                                                                      \
        rck_status_t ct_st_ = (call);                                         \
        if (ct_st_ != (want))                                                 \
            ct_fail(__FILE__, __LINE__, #call, "returned %s, expected %s",   \
                    rck_status_string(ct_st_), rck_status_string(want));     \
    } while (0)
#define CT_OK(call) CT_ST(call, RCK_OK)

static void ct_watchdog(int sig)
{
    char msg[300];
    int n = snprintf(msg, sizeof(msg),
                     "FAIL watchdog: ue %d hung in phase %s\n", ct_me,
                     ct_phase_buf);
    (void)sig;
    if (n > 0)
        (void)!write(2, msg, (size_t)n);
    _exit(1);
}

static inline void ct_start(void)
{
    const char *w = getenv("CHAN_TEST_WATCHDOG");
    unsigned secs = w != NULL ? (unsigned)atoi(w) : 100;

    setvbuf(stdout, NULL, _IOLBF, 0);
    if (secs > 0) {
        signal(SIGALRM, ct_watchdog);
        alarm(secs);
    }
}

/* The byte at @p i of pattern @p seed (not a multiple of anything). */
static inline uint8_t ct_byte(size_t i, unsigned seed)
{
    return (uint8_t)(i * 131u + seed * 17u + (i >> 8) * 7u + (i >> 16));
}

static inline void ct_fill(void *buf, size_t len, unsigned seed)
{
    uint8_t *b = buf;
    for (size_t i = 0; i < len; i++)
        b[i] = ct_byte(i, seed);
}

/* @return the first differing index, or (size_t)-1. */
static inline size_t ct_verify(const void *buf, size_t len, unsigned seed)
{
    const uint8_t *b = buf;
    for (size_t i = 0; i < len; i++) {
        if (b[i] != ct_byte(i, seed))
            return i;
    }
    return (size_t)-1;
}

static inline rck_chan_notify_t ct_kind(const char *s)
{
    if (s == NULL || !strcmp(s, "ring"))
        return RCK_CHAN_NOTIFY_RING;
    if (!strcmp(s, "tree"))
        return RCK_CHAN_NOTIFY_TREE;
    if (!strcmp(s, "poll"))
        return RCK_CHAN_NOTIFY_POLL;
    fprintf(stderr, "unknown notification kind '%s'\n", s);
    exit(2);
}

#endif
