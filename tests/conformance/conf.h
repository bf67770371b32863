/*
 * conf.h: the tiny assertion and helper kit shared by the RCCE conformance
 * programs. Header-only (every function is static) so each program stays
 * one self-contained RCCE application.
 *
 * A failed check prints
 *     FAIL file:line: expression [ue U/N, phase P] (detail)
 * on stderr and exits with status 1. A watchdog (SIGALRM, default 100 s,
 * environment RCK_CONF_WATCHDOG=<seconds>, 0 disables it) turns a hang into
 * a failure that names the phase the UE was in, before the CTest timeout
 * kills the run without a word.
 *
 * Every expectation is computed here, independently of the library: data
 * patterns come from conf_byte(), error code names from conf_code_name().
 */
#ifndef RCK_CONF_H
#define RCK_CONF_H

#include "RCCE.h"

#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char conf_phase_buf[256] = "start";
static int conf_me = -1, conf_n = -1;

/** Name the step the program is in (shown by failures and the watchdog). */
static inline void conf_phase(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));
static inline void conf_phase(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(conf_phase_buf, sizeof conf_phase_buf, fmt, ap);
    va_end(ap);
}

/** Names of the RCCE return codes, written from RCCE-API.md, not the library. */
static inline const char *conf_code_name(int code)
{
    static const char *const names[] = {
        "RCCE_SUCCESS",
        "RCCE_ERROR_TARGET",
        "RCCE_ERROR_SOURCE",
        "RCCE_ERROR_ID",
        "RCCE_ERROR_MESSAGE_LENGTH",
        "RCCE_ERROR_FLAG_UNDEFINED",
        "RCCE_ERROR_NUM_UES",
        "RCCE_ERROR_DATA_OVERLAP",
        "RCCE_ERROR_ALIGNMENT",
        "RCCE_ERROR_DEBUG_FLAG",
        "RCCE_ERROR_FLAG_NOT_IN_COMM_BUFFER",
        "RCCE_ERROR_FLAG_STATUS_UNDEFINED",
        "RCCE_ERROR_FLAG_NOT_ALLOCATED",
        "RCCE_ERROR_VAL_UNDEFINED",
        "RCCE_ERROR_INVALID_ERROR_CODE",
        "RCCE_ERROR_RPC_NOT_ALLOCATED",
        "RCCE_ERROR_RPC_INTERNAL",
        "RCCE_ERROR_MULTIPLE_RPC_REQUESTS",
        "RCCE_ERROR_FDIVIDER",
        "RCCE_ERROR_FREQUENCY_EXCEEDED",
        "RCCE_ERROR_NO_ACTIVE_RPC_REQUEST",
        "RCCE_ERROR_STALE_RPC_REQUEST",
        "RCCE_ERROR_COMM_UNDEFINED",
        "RCCE_ERROR_ILLEGAL_OP",
        "RCCE_ERROR_ILLEGAL_TYPE",
        "RCCE_ERROR_MALLOC",
        "RCCE_ERROR_COMM_INITIALIZED",
        "RCCE_ERROR_CORE_NOT_IN_HOSTFILE",
        "RCCE_ERROR_NO_MULTICAST_SUPPORT",
    };
    if (code == 0)
        return names[0];
    if (code > 1234321 && code <= 1234321 + 28)
        return names[code - 1234321];
    if (code == -1)
        return "RCCE_PENDING";
    if (code == -2)
        return "RCCE_RESERVED";
    if (code == -3)
        return "RCCE_REJECTED";
    return "(not an RCCE code)";
}

static int conf_soft_failures;

static inline void conf_vreport(const char *file, int line, const char *expr,
                                const char *fmt, va_list ap)
{
    char detail[512] = "";
    if (fmt != NULL)
        vsnprintf(detail, sizeof detail, fmt, ap);
    fflush(stdout);
    fprintf(stderr, "FAIL %s:%d: %s [ue %d/%d, phase %s]%s%s%s\n", file, line,
            expr, conf_me, conf_n, conf_phase_buf, fmt ? " (" : "",
            detail, fmt ? ")" : "");
    fflush(stderr);
}

/** Report a failed check and exit. */
static inline void conf_fail(const char *file, int line, const char *expr,
                             const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));
static inline void conf_fail(const char *file, int line, const char *expr,
                             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    conf_vreport(file, line, expr, fmt, ap);
    va_end(ap);
    exit(1);
}

/** Report a failed check and go on (see conf_soft_exit). */
static inline void conf_soft(const char *file, int line, const char *expr,
                             const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static inline void conf_soft(const char *file, int line, const char *expr,
                             const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    conf_vreport(file, line, expr, fmt, ap);
    va_end(ap);
    conf_soft_failures++;
}

#define CHECK(expr)                                                           \
    do {                                                                      \
        if (!(expr))                                                          \
            conf_fail(__FILE__, __LINE__, #expr, NULL);                       \
    } while (0)

/** CHECK with a printf-style explanation. */
#define CHECKF(expr, ...)                                                     \
    do {                                                                      \
        if (!(expr))                                                          \
            conf_fail(__FILE__, __LINE__, #expr, __VA_ARGS__);                \
    } while (0)

/** Two integer expressions must be equal; prints both values. */
#define CHECK_EQ(a, b)                                                        \
    do {                                                                      \
        long long conf_a_ = (long long)(a), conf_b_ = (long long)(b);         \
        if (conf_a_ != conf_b_)                                               \
            conf_fail(__FILE__, __LINE__, #a " == " #b,                       \
                      "%lld != %lld", conf_a_, conf_b_);                      \
    } while (0)

/** An RCCE call must return exactly the code @p want; prints names. */
#define CHECK_RC(call, want)                                                  \
    do {                                                                      \
        int conf_rc_ = (call), conf_w_ = (want);                              \
        if (conf_rc_ != conf_w_)                                              \
            conf_fail(__FILE__, __LINE__, #call " == " #want,                 \
                      "returned %d %s, expected %d %s", conf_rc_,             \
                      conf_code_name(conf_rc_), conf_w_,                      \
                      conf_code_name(conf_w_));                               \
    } while (0)

#define CHECK_OK(call) CHECK_RC(call, RCCE_SUCCESS)

/** Where RCCE-API.md names no code: the call must just not succeed. */
#define CHECK_NOT_OK(call)                                                    \
    do {                                                                      \
        int conf_rc_ = (call);                                                \
        if (conf_rc_ == RCCE_SUCCESS)                                         \
            conf_fail(__FILE__, __LINE__, #call " != RCCE_SUCCESS",           \
                      "returned RCCE_SUCCESS for a bad argument");            \
    } while (0)

/*
 * EXPECT_*: like CHECK_RC / CHECK_NOT_OK but the program goes on, so one
 * run reports every wrong code; only for calls that cannot leave the UEs
 * out of step. conf_soft_exit() (after RCCE_finalize) then fails the
 * program if any missed.
 */
#define EXPECT_RC(call, want)                                                 \
    do {                                                                      \
        int conf_rc_ = (call), conf_w_ = (want);                              \
        if (conf_rc_ != conf_w_)                                              \
            conf_soft(__FILE__, __LINE__, #call " == " #want,                 \
                      "returned %d %s, expected %d %s", conf_rc_,             \
                      conf_code_name(conf_rc_), conf_w_,                      \
                      conf_code_name(conf_w_));                               \
    } while (0)

#define EXPECT_NOT_OK(call)                                                   \
    do {                                                                      \
        int conf_rc_ = (call);                                                \
        if (conf_rc_ == RCCE_SUCCESS)                                         \
            conf_soft(__FILE__, __LINE__, #call " != RCCE_SUCCESS",           \
                      "returned RCCE_SUCCESS for a bad argument");            \
    } while (0)

#define EXPECTF(expr, ...)                                                    \
    do {                                                                      \
        if (!(expr))                                                          \
            conf_soft(__FILE__, __LINE__, #expr, __VA_ARGS__);                \
    } while (0)

static inline void conf_soft_exit(void)
{
    if (conf_soft_failures > 0) {
        fprintf(stderr, "FAIL: %d check(s) failed on ue %d\n",
                conf_soft_failures, conf_me);
        exit(1);
    }
}

static inline void conf_watchdog_fire(int sig)
{
    char msg[400];
    int len = snprintf(msg, sizeof msg,
                       "FAIL watchdog: ue %d/%d still in phase '%s' (hang?)\n",
                       conf_me, conf_n, conf_phase_buf);
    (void)sig;
    if (len > 0) {
        ssize_t w = write(2, msg, (size_t)len < sizeof msg ? (size_t)len
                                                           : sizeof msg - 1);
        (void)w;
    }
    _exit(3);
}

/** Arm the watchdog; call first thing in main. */
static inline void conf_watchdog(void)
{
    const char *env = getenv("RCK_CONF_WATCHDOG");
    unsigned secs = 100;
    if (env != NULL && *env != '\0')
        secs = (unsigned)strtoul(env, NULL, 10);
    if (secs > 0) {
        signal(SIGALRM, conf_watchdog_fire);
        alarm(secs);
    }
}

/** Record who we are for messages (after RCCE_init). */
static inline void conf_started(void)
{
    conf_me = RCCE_ue();
    conf_n = RCCE_num_ues();
}

/** The usual start of a test's main: the watchdog, RCCE_init (checked)
 * and conf_started. */
static inline void conf_begin(int *argc, char ***argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(argc, argv));
    conf_started();
}

/* ---- data patterns ---- */

/** Byte @p i of the pattern named @p seed: a hash, not periodic in 32. */
static inline unsigned char conf_byte(uint32_t seed, size_t i)
{
    uint32_t h = seed * 0x9E3779B1u ^ ((uint32_t)i * 0x85EBCA77u) ^
                 (uint32_t)((uint64_t)i >> 32);
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return (unsigned char)h;
}

static inline void conf_fill(void *buf, size_t n, uint32_t seed)
{
    unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        p[i] = conf_byte(seed, i);
}

/** @return index of the first byte that differs from the pattern, or -1. */
static inline long conf_verify(const void *buf, size_t n, uint32_t seed)
{
    const unsigned char *p = buf;
    for (size_t i = 0; i < n; i++)
        if (p[i] != conf_byte(seed, i))
            return (long)i;
    return -1;
}

#define CHECK_PATTERN(buf, n, seed)                                           \
    do {                                                                      \
        long conf_i_ = conf_verify((buf), (n), (seed));                       \
        if (conf_i_ >= 0)                                                     \
            conf_fail(__FILE__, __LINE__, "pattern of " #buf,                 \
                      "%zu bytes, seed %u: byte %ld is 0x%02x, expected "     \
                      "0x%02x", (size_t)(n), (unsigned)(seed), conf_i_,       \
                      ((const unsigned char *)(buf))[conf_i_],                \
                      conf_byte((seed), (size_t)conf_i_));                    \
    } while (0)

/* ---- guarded private buffers at chosen (odd) addresses ---- */

#define CONF_GUARD 64
#define CONF_GUARD_BYTE 0xA5

/**
 * A buffer of @p n bytes starting @p misalign bytes past a 64-byte
 * boundary, with guard bytes on both sides.
 */
static inline char *conf_galloc(size_t n, size_t misalign)
{
    unsigned char *raw = malloc(n + 2 * CONF_GUARD + 192);
    if (raw == NULL) {
        fprintf(stderr, "FAIL %s:%d: out of host memory\n", __FILE__, __LINE__);
        exit(1);
    }
    uintptr_t a = ((uintptr_t)raw + CONF_GUARD + 16 + 63) & ~(uintptr_t)63;
    unsigned char *buf = (unsigned char *)a + misalign % 64;
    memset(buf - CONF_GUARD, CONF_GUARD_BYTE, CONF_GUARD);
    memset(buf + n, CONF_GUARD_BYTE, CONF_GUARD);
    /* remember the raw pointer just before the front guard */
    memcpy(buf - CONF_GUARD - sizeof raw, &raw, sizeof raw);
    return (char *)buf;
}

static inline void conf_gfree(char *buf)
{
    unsigned char *raw;
    if (buf == NULL)
        return;
    memcpy(&raw, buf - CONF_GUARD - sizeof raw, sizeof raw);
    free(raw);
}

/** @return 1 if both guards of the @p n-byte buffer are intact. */
static inline int conf_guards_ok(const char *buf, size_t n)
{
    const unsigned char *p = (const unsigned char *)buf;
    for (int i = 1; i <= CONF_GUARD; i++)
        if (p[-i] != CONF_GUARD_BYTE)
            return 0;
    for (int i = 0; i < CONF_GUARD; i++)
        if (p[n + (size_t)i] != CONF_GUARD_BYTE)
            return 0;
    return 1;
}

#define CHECK_GUARDS(buf, n)                                                  \
    CHECKF(conf_guards_ok((buf), (n)),                                        \
           "bytes written outside the %zu-byte buffer", (size_t)(n))

/** UE count as the launcher gave it, for programs that take it as argv[1]. */
static inline int conf_arg_int(int argc, char **argv, int i, int dflt)
{
    return argc > i ? atoi(argv[i]) : dflt;
}

#endif
