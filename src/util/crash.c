/*
 * Crash reports (rck/crash.h): the handler a core process runs when its
 * program dies of SIGSEGV, SIGBUS, SIGFPE, SIGILL or SIGABRT.
 *
 * The handler runs in a process whose state may be anything (a corrupt
 * heap, a lock held by the interrupted code): it calls only
 * async-signal-safe functions. Everything it prints is formatted into a
 * stack buffer by hand and written with write(2); backtrace() is called
 * once at install time so that it does not load libgcc_s inside the
 * handler, and backtrace_symbols_fd() writes without malloc. The crash
 * signals are blocked while it runs, so a fault inside it kills the
 * process with the default action instead of recursing. It ends by
 * restoring the default action and raising the signal again: the process
 * dies of it, with the exit status and core dump it would have had.
 * Installed by rck_hal_open; uses libc and the settings (RCK_BACKTRACE)
 * only.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* REG_RIP */
#endif
#include "rck/crash.h"
#include "rck/config.h"

#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

#define CRASH_FRAMES 64
#define CRASH_ALTSTACK (64 * 1024)

static const struct {
    int sig;
    const char *name, *what;
} crash_signals[] = {
    {SIGSEGV, "SIGSEGV", "Segmentation fault"},
    {SIGBUS, "SIGBUS", "Bus error"},
    {SIGFPE, "SIGFPE", "Floating point exception"},
    {SIGILL, "SIGILL", "Illegal instruction"},
    {SIGABRT, "SIGABRT", "Aborted"},
};
#define CRASH_NSIGNALS (int)(sizeof(crash_signals) / sizeof(*crash_signals))

/* What the kernel says about a fault it raised (si_code > 0). */
static const struct {
    int sig, code;
    const char *what;
} crash_codes[] = {
    {SIGSEGV, SEGV_MAPERR, "address not mapped"},
    {SIGSEGV, SEGV_ACCERR, "invalid permissions for the mapping"},
    {SIGBUS, BUS_ADRALN, "invalid address alignment"},
    {SIGBUS, BUS_ADRERR, "nonexistent physical address"},
    {SIGBUS, BUS_OBJERR, "object-specific hardware error"},
    {SIGFPE, FPE_INTDIV, "integer divide by zero"},
    {SIGFPE, FPE_INTOVF, "integer overflow"},
    {SIGFPE, FPE_FLTDIV, "floating-point divide by zero"},
    {SIGFPE, FPE_FLTOVF, "floating-point overflow"},
    {SIGFPE, FPE_FLTUND, "floating-point underflow"},
    {SIGFPE, FPE_FLTRES, "floating-point inexact result"},
    {SIGFPE, FPE_FLTINV, "floating-point invalid operation"},
    {SIGILL, ILL_ILLOPC, "illegal opcode"},
    {SIGILL, ILL_ILLOPN, "illegal operand"},
    {SIGILL, ILL_ILLADR, "illegal addressing mode"},
    {SIGILL, ILL_ILLTRP, "illegal trap"},
    {SIGILL, ILL_PRVOPC, "privileged opcode"},
};

static int crash_installed;
static char crash_who[64]; /* "rockcreek core 5 (UE 2): " */

/* ---- formatting without stdio ---- */

typedef struct {
    char buf[512];
    size_t len;
} crash_buf_t;

static void buf_str(crash_buf_t *b, const char *s)
{
    while (*s != '\0' && b->len < sizeof(b->buf) - 1)
        b->buf[b->len++] = *s++;
}

static void buf_num(crash_buf_t *b, uintptr_t v, unsigned base)
{
    char tmp[24]; /* 2^64 in decimal has 20 digits */
    int n = 0;

    if (base == 16)
        buf_str(b, "0x");
    do {
        tmp[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v != 0);
    while (n > 0 && b->len < sizeof(b->buf) - 1)
        b->buf[b->len++] = tmp[--n];
}

static void buf_flush(crash_buf_t *b)
{
    size_t off = 0;

    while (off < b->len) {
        ssize_t w = write(STDERR_FILENO, b->buf + off, b->len - off);
        if (w <= 0)
            break;
        off += (size_t)w;
    }
    b->len = 0;
}

/* The signal and what caused it: the fault address where the kernel
 * raised it for an access or an instruction, the sender otherwise. */
static void crash_describe(crash_buf_t *b, int sig, const siginfo_t *si)
{
    const char *name = "?", *what = "?", *code = NULL;

    for (int i = 0; i < CRASH_NSIGNALS; i++) {
        if (crash_signals[i].sig == sig) {
            name = crash_signals[i].name;
            what = crash_signals[i].what;
        }
    }
    for (size_t i = 0; i < sizeof(crash_codes) / sizeof(*crash_codes); i++) {
        if (crash_codes[i].sig == sig && crash_codes[i].code == si->si_code)
            code = crash_codes[i].what;
    }
    buf_str(b, crash_who);
    buf_str(b, "error: killed by signal ");
    buf_num(b, (uintptr_t)sig, 10);
    buf_str(b, " (");
    buf_str(b, name);
    buf_str(b, ": ");
    buf_str(b, what);
    if (code != NULL) {
        buf_str(b, ", ");
        buf_str(b, code);
    }
    buf_str(b, ")");
    if (si->si_code > 0 && sig != SIGABRT) {
        /* SIGSEGV, SIGBUS: the data address; SIGFPE, SIGILL: the
         * instruction's */
        buf_str(b, sig == SIGSEGV || sig == SIGBUS ? " at address "
                                                   : " at instruction ");
        buf_num(b, (uintptr_t)si->si_addr, 16);
    } else if (si->si_pid == getpid()) {
        buf_str(b, ", raised by the program (abort, assert, raise)");
    } else {
        buf_str(b, ", sent by process ");
        buf_num(b, (uintptr_t)si->si_pid, 10);
    }
    buf_str(b, "\n");
}

/* The interrupted instruction (0: unknown on this machine). */
static uintptr_t crash_pc(const void *uc)
{
#if defined(__x86_64__)
    return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uintptr_t)((const ucontext_t *)uc)->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

/* Start at the interrupted instruction (not this handler and the
 * kernel's return trampoline), and move the callers' return addresses
 * back into their call instruction: after a call to a function that
 * does not return (abort) the return address lies past the caller's
 * end, and would be named after the next function. */
static int crash_frames(void **frames, int n, uintptr_t pc, int *first)
{
    *first = 1; /* frame 0 is this handler */
    for (int i = 1; i < n && pc != 0; i++) {
        if ((uintptr_t)frames[i] == pc) {
            *first = i;
            for (int k = i + 1; k < n; k++)
                frames[k] = (char *)frames[k] - 1;
            break;
        }
    }
    return n - *first;
}

static void crash_handler(int sig, siginfo_t *si, void *uc)
{
    void *frames[CRASH_FRAMES];
    crash_buf_t b;
    struct sigaction dfl;
    int n, first;

    b.len = 0;
    crash_describe(&b, sig, si);
    buf_str(&b, crash_who);
    buf_str(&b, "backtrace (innermost first; callers at their return "
                "address - 1; `-rdynamic` or addr2line name the program's "
                "own functions):\n");
    buf_flush(&b);
    n = crash_frames(frames, backtrace(frames, CRASH_FRAMES), crash_pc(uc),
                     &first);
    if (n > 0)
        backtrace_symbols_fd(frames + first, n, STDERR_FILENO);

    memset(&dfl, 0, sizeof(dfl));
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    /* Pending until we return; a fault would be raised again by the
     * retried instruction anyway, a signal sent by kill or abort()
     * would not. */
    raise(sig);
}

/* The handler's own stack, so that a stack overflow is reported too
 * (unless the program already has an alternate stack). */
static void crash_altstack(void)
{
    stack_t old, ss;

    if (sigaltstack(NULL, &old) != 0 || !(old.ss_flags & SS_DISABLE))
        return;
    ss.ss_sp = malloc(CRASH_ALTSTACK);
    if (ss.ss_sp == NULL)
        return;
    ss.ss_size = CRASH_ALTSTACK;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, NULL) != 0)
        free(ss.ss_sp);
}

void rck_crash_install(int core, int ue)
{
    struct sigaction sa, old;
    void *warm[2];

    snprintf(crash_who, sizeof(crash_who), "rockcreek core %d (UE %d): ",
             core, ue);
    if (crash_installed || !rck_config_get_bool("BACKTRACE"))
        return;
    crash_installed = 1;
    /* loads libgcc_s now, not in the handler */
    (void)backtrace(warm, 2);
    crash_altstack();
    memset(&sa, 0, sizeof(sa));
    sa.sa_sigaction = crash_handler;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < CRASH_NSIGNALS; i++)
        sigaddset(&sa.sa_mask, crash_signals[i].sig);
    for (int i = 0; i < CRASH_NSIGNALS; i++) {
        int sig = crash_signals[i].sig;

        if (sigaction(sig, NULL, &old) != 0 ||
            (old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
            continue; /* somebody else's handler, or ignored */
        sigaction(sig, &sa, NULL);
    }
}
