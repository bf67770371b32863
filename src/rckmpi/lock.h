/*
 * The library's one lock (docs/MPI.md, "Threads"): under
 * MPI_THREAD_MULTIPLE every PMPI_ call takes it at its outermost entry,
 * as MPICH's default "global" critical section does, and a wait hands it
 * to the other threads between polls.
 *
 * Use: RK_MPI_GUARD; as the first statement of every PMPI_ body
 * (scripts/check-pmpi-guard.py, test structure.pmpi_guard, fails on a
 * body without it). Below MPI_THREAD_MULTIPLE the guard is one
 * predictable branch on rk_mt and takes nothing. Calls between MPI
 * functions inside the library nest: only the outermost entry of a
 * thread takes and releases the lock (a thread-local flag), so a PMPI_
 * that calls another, an error handler or a callback that calls MPI, do
 * not deadlock. Every return of the body releases it (cleanup attribute).
 */
#ifndef RCKMPI_LOCK_H
#define RCKMPI_LOCK_H

#include <stdint.h>

/* Nonzero once MPI_Init_thread granted MPI_THREAD_MULTIPLE: written
 * before any other thread may call MPI, read by every call. */
extern int rk_mt;

/* Requests completed so far (p2p.c, req.c count them; under the lock):
 * a wait hands the lock to the other waiting threads when it moved, since
 * the request completed may be one of theirs. */
extern unsigned rk_mt_progress;

/* Take the lock unless this thread holds it: 1 if taken here. */
int rk_lock_enter(void);
/* Release the lock taken by the rk_lock_enter that returned 1. */
void rk_lock_leave(void);

static inline int rk_guard_enter(void)
{
    return __builtin_expect(rk_mt, 0) ? rk_lock_enter() : 0;
}

static inline void rk_guard_leave(const int *taken)
{
    if (__builtin_expect(*taken, 0))
        rk_lock_leave();
}

#define RK_MPI_GUARD                                                          \
    __attribute__((cleanup(rk_guard_leave), unused)) const int                \
        rk_guard_taken_ = rk_guard_enter()

/*
 * A wait of the progress engine (p2p.c) under MPI_THREAD_MULTIPLE, before
 * it sleeps in the HAL with the lock held: 0 if it handed the lock to
 * the threads queued for it instead (the caller returns at once and its
 * loop polls again); 1 if it may wait, for at most *timeout_ns (set here:
 * a slice, so that a thread that enters MPI meanwhile waits a slice at
 * most; never beyond the caller's own timeout).
 */
int rk_mt_wait_begin(int64_t *timeout_ns);
/*
 * After that wait: @p saw nonzero if a condition held. 1 if only the
 * slice ended (the caller returns quietly and its loop polls again); 0 if
 * the caller's own timeout (RCK_WAIT_TIMEOUT) has passed, summing the
 * slices of this wait.
 */
int rk_mt_wait_end(int saw);

/* MPI_Is_thread_main: was this thread the one that called MPI_Init? */
int rk_thread_is_main(void);
void rk_thread_set_main(void);

#endif
