/*
 * The library's one lock under MPI_THREAD_MULTIPLE (lock.h; docs/MPI.md,
 * "Threads").
 *
 * A ticket lock (a mutex and a condition variable): threads get it in
 * the order they asked, so a wait that hands it on gets it back only
 * after every thread that was queued. The HAL is called only by the
 * thread that holds it, one thread at a time: the backends keep a core's
 * state per process, not per thread, and the mpi backend asks its MPI
 * for MPI_THREAD_SERIALIZED.
 *
 * A wait (rk_mt_wait_begin, from the progress engine's one HAL wait)
 * cannot be woken by another thread of its process, since only the chip
 * wakes a HAL wait. So it does not sleep while it has work to hand on:
 *  - threads that entered MPI and queued for the lock get it at once;
 *  - after a wait that took a packet, the other waiting threads get it
 *    once (the packet may have completed one of their requests);
 *  - for RK_MT_SPIN_NS after it last had the lock back, it polls and
 *    yields the lock and the CPU between polls (a thread that is about
 *    to call MPI, as a receiver that answers, gets in at once);
 *  - then it sleeps in the HAL with the lock held, in slices of
 *    RK_MT_SLICE_MIN_NS doubling to RK_MT_SLICE_MAX_NS: a thread that
 *    enters MPI meanwhile waits one slice at most.
 */
#include "lock.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

#define RK_MT_SPIN_NS 50000
#define RK_MT_SLICE_MIN_NS 20000
#define RK_MT_SLICE_MAX_NS 1000000
#define RK_MT_NAPS 4

int rk_mt;
unsigned rk_mt_progress;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t turn = PTHREAD_COND_INITIALIZER;
static unsigned long next_ticket, serving; /* under mu */
/* threads queued for the lock; of them, waits that handed it on */
static atomic_int queued, requeued;

static _Thread_local int held, is_main;
/* the last HAL wait of this thread saw a condition (took a packet) */
static _Thread_local int woke;
/* rk_mt_progress when this thread last handed the lock on or took it;
 * its sleeps in the HAL since */
static _Thread_local unsigned seen;
static _Thread_local int naps;
/* outermost entries into MPI so far (under the lock) */
static unsigned entries;
/* the current wait of this thread: started (0: none), since when, polling
 * since when, the next slice, the caller's timeout */
static _Thread_local struct {
    int on;
    int64_t since, spin_from, slice, timeout;
} w;

static int64_t now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void take(int waiter)
{
    unsigned long t;

    pthread_mutex_lock(&mu);
    t = next_ticket++;
    if (t != serving) {
        atomic_fetch_add(&queued, 1);
        if (waiter)
            atomic_fetch_add(&requeued, 1);
        while (t != serving)
            pthread_cond_wait(&turn, &mu);
        if (waiter)
            atomic_fetch_sub(&requeued, 1);
        atomic_fetch_sub(&queued, 1);
    }
    pthread_mutex_unlock(&mu);
    held = 1;
}

static void give(void)
{
    held = 0;
    pthread_mutex_lock(&mu);
    serving++;
    if (next_ticket != serving)
        pthread_cond_broadcast(&turn);
    pthread_mutex_unlock(&mu);
}

int rk_lock_enter(void)
{
    if (held)
        return 0;
    take(0);
    entries++;
    seen = rk_mt_progress;
    naps = 0;
    return 1;
}

void rk_lock_leave(void)
{
    w.on = 0; /* a wait ends with the call at the latest */
    woke = 0;
    give();
}

int rk_mt_wait_begin(int64_t *timeout_ns)
{
    int64_t t = now_ns();
    int q = atomic_load_explicit(&queued, memory_order_relaxed);
    int rq = atomic_load_explicit(&requeued, memory_order_relaxed);
    int entering, theirs;

    if (!w.on) {
        w.on = 1;
        w.since = w.spin_from = t;
        w.slice = RK_MT_SLICE_MIN_NS;
        naps = 0;
    }
    w.timeout = *timeout_ns;
    /* threads that entered MPI and wait for the lock; waiting threads
     * whose request may have completed (a packet taken, a request
     * completed, or this thread has slept RK_MT_NAPS slices on the lock) */
    entering = q > rq;
    theirs = q > 0 && (woke || seen != rk_mt_progress || naps >= RK_MT_NAPS);
    if (entering || theirs || t - w.spin_from < RK_MT_SPIN_NS) {
        unsigned e = entries, p = rk_mt_progress;

        woke = 0;
        give();
        if (q == 0)
            sched_yield();
        take(1);
        seen = rk_mt_progress;
        naps = 0;
        if (entries != e || rk_mt_progress != p) {
            /* others worked meanwhile: poll a while again before sleeping */
            w.spin_from = now_ns();
            w.slice = RK_MT_SLICE_MIN_NS;
        }
        return 0;
    }
    if (*timeout_ns < 0 || *timeout_ns - (t - w.since) > w.slice)
        *timeout_ns = w.slice;
    else
        *timeout_ns = *timeout_ns - (t - w.since) > 0
                          ? *timeout_ns - (t - w.since)
                          : 0;
    if (w.slice < RK_MT_SLICE_MAX_NS)
        w.slice *= 2;
    naps++;
    return 1;
}

int rk_mt_wait_end(int saw)
{
    if (saw) {
        /* a packet or an acknowledgement: the wait starts anew */
        w.on = 0;
        woke = 1;
        return 1;
    }
    return w.timeout < 0 || now_ns() - w.since < w.timeout;
}

int rk_thread_is_main(void)
{
    return is_main;
}

void rk_thread_set_main(void)
{
    is_main = 1;
}
