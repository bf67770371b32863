/*
 * What the process-per-core backends (native, sim) share: alignment, the
 * futex wait and wake-up, the spin hint, the host clock, the address
 * sanitizers leave to a fixed mapping, the test of a wait condition and
 * the one-core job of a program started without the
 * launcher. The shared segment itself is seg.h.
 *
 * Owns: nothing with state. May call: the HAL's chip helpers, seg.c.
 * Used by: src/backends/native, src/backends/sim, src/backends/mpi (its
 * plugin's on-node path).
 */
#ifndef RCK_BACKEND_COMMON_H
#define RCK_BACKEND_COMMON_H

#include "rck/hal.h"
#include "rck/log.h"
#include "rck/lut.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <linux/membarrier.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* 1 under ThreadSanitizer, whose x86-64 layout allows application
 * mappings only in the low 512 GiB and the top of the address space: a
 * backend's fixed segment address must then lie low. */
#if defined(__SANITIZE_THREAD__)
#define RCK_BE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RCK_BE_TSAN 1
#endif
#endif
#ifndef RCK_BE_TSAN
#define RCK_BE_TSAN 0
#endif

static inline size_t rck_be_align_up(size_t v, size_t a)
{
    return (v + a - 1) / a * a;
}

/* The host's monotonic clock, in ns. */
static inline uint64_t rck_be_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A hint to the CPU that this thread spins. */
static inline void rck_be_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Sleep while *addr == val, at most @p ns (< 0: no limit); shared between
 * processes. @return 0, or the errno of the wait (EAGAIN: *addr had
 * changed, ETIMEDOUT, EINTR). */
static inline int rck_be_futex_wait(_Atomic uint32_t *addr, uint32_t val,
                                    int64_t ns)
{
    struct timespec ts, *tsp = NULL;

    if (ns >= 0) {
        ts.tv_sec = ns / 1000000000;
        ts.tv_nsec = ns % 1000000000;
        tsp = &ts;
    }
    if (syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAIT, val, tsp, NULL, 0) <
        0)
        return errno;
    return 0;
}

/* Wake every process asleep on @p addr. @return how many woke (0 on
 * error). */
static inline int rck_be_futex_wake(_Atomic uint32_t *addr)
{
    long k = syscall(SYS_futex, (uint32_t *)addr, FUTEX_WAKE, INT_MAX, NULL,
                     NULL, 0);
    return k > 0 ? (int)k : 0;
}

/* A doorbell in memory shared between processes: sleepers count
 * themselves in *waiters (seq_cst), read *bell, re-check what they wait
 * for and rck_be_futex_wait(bell, value read). A writer stores its data,
 * fences (seq_cst) and rings: with seq_cst on both sides either the writer
 * sees the sleeper or the sleeper's re-check sees the data. */

/* Ring @p bell for whoever sleeps on it. @return how many woke. */
static inline int rck_be_bell_wake(_Atomic uint32_t *bell)
{
    atomic_fetch_add(bell, 1);
    return rck_be_futex_wake(bell);
}

/* Ring @p bell only while someone counts himself in @p waiters. @return
 * how many woke. */
static inline int rck_be_bell_ring(_Atomic uint32_t *waiters,
                                   _Atomic uint32_t *bell)
{
    if (atomic_load_explicit(waiters, memory_order_relaxed))
        return rck_be_bell_wake(bell);
    return 0;
}

/* The asymmetric fence of the doorbell protocol (docs/ARCHITECTURE.md,
 * "The native backend"): writers may check for sleepers without a fence
 * when every writer is registered for MEMBARRIER_CMD_GLOBAL_EXPEDITED and
 * every sleeper issues it between counting itself in and its last look.
 * Turn it on for this process as the setting @p name (auto or off) with
 * value @p how says, where the kernel offers it: *asym_sleep = 1 (this
 * process's sleepers issue the membarrier) and *asym = 1 once registered
 * (its writes may skip the fence; a process that cannot register keeps
 * fencing). The caller decides first whether the job's waits spin at all:
 * every process of a job must decide alike. */
static inline void rck_be_asym_setup(const char *name, const char *how,
                                     int *asym, int *asym_sleep)
{
    long q;

    if (strcmp(how, "off") == 0)
        return;
    if (strcmp(how, "auto") != 0)
        rck_warn("RCK_%s=%s: unknown (auto or off); using auto", name, how);
    q = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
    if (q < 0 || !(q & MEMBARRIER_CMD_GLOBAL_EXPEDITED)) {
        rck_debug("membarrier(2) has no global expedited command here: "
                  "writers fence");
        return;
    }
    *asym_sleep = 1;
    *asym = syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_GLOBAL_EXPEDITED,
                    0, 0) == 0;
    rck_debug("wake-ups: %s", *asym ? "sleepers issue membarrier, writers "
                                      "do not fence"
                                    : "registering for membarrier failed: "
                                      "writers fence");
}

/* The sleeper's half; 0 if it failed (the sleep must be short then: a
 * writer may not have seen this sleeper). */
static inline int rck_be_asym_fence(void)
{
    return syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL_EXPEDITED, 0, 0) ==
           0;
}

/* The writer's half: a full fence, or only the compiler's when this
 * process is registered (@p asym). */
static inline void rck_be_writer_fence(int asym)
{
    if (asym)
        atomic_signal_fence(memory_order_seq_cst);
    else
        atomic_thread_fence(memory_order_seq_cst);
}

/* Does the word value @p v satisfy the wait condition @p c? */
static inline int rck_be_cond_holds(uint32_t v, const rck_hal_cond_t *c)
{
    return ((v & c->mask) == c->value) == (c->op == RCK_COND_EQ);
}

/**
 * A one-core job for a program started without the launcher: the chip of
 * the configuration (or the built-in one), one UE on core 0, made with
 * the backend's @p create.
 */
/** volt_wait of a backend whose voltage changes are instant: returns. */
rck_status_t rck_be_volt_wait_instant(rck_hal_t *hal, int island);

/** power_read of a backend without a power model: RCK_ERR_UNSUPPORTED,
 *  with a message naming the backend (docs/POWER.md). */
rck_status_t rck_be_power_unsupported(rck_hal_t *hal, double *watts);

/**
 * Deadlocked cores end with RCK_HAL_EXIT_DEADLOCK, whatever their program
 * returns. Called at attach: registers the exit hook once.
 * @param [in] before  run at exit, before the process ends with that
 *                     status (the backend's own leave-at-exit), or NULL.
 */
void rck_be_deadlock_exit_setup(void (*before)(void));

/**
 * A wait of this core failed with RCK_ERR_DEADLOCK: from now on the
 * process ends with RCK_HAL_EXIT_DEADLOCK.
 * @return 1 if it was armed already (the program waits again after a
 *         failed wait), 0 the first time.
 */
int rck_be_deadlock_exit_arm(void);

rck_status_t rck_be_solo_job(rck_status_t (*create)(const rck_job_params_t *p,
                                                    rck_job_t **job),
                             rck_job_t **job);

#endif
