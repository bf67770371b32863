/*
 * The mpi backend's plugin: interrupts and waits (the wake-up protocol at
 * the top of mpi.c).
 */
#include "mpi/mpi_priv.h"

/* After its spin, how long a wait yields the CPU (sched_yield) before it
 * naps: oversubscribed ranks hand over through the scheduler, and a nap
 * (>= 50 us with the kernel's timer slack) costs every hand-over. */
#define MPI_YIELD_NS 2000000
/* While a wait waits for its wake message, how often it looks at its
 * conditions again anyway (every wake-up is meant to arrive: this bounds
 * what one the MPI did not deliver would cost). */
#define MPI_RECHECK_NS 1000000

/* ---- interrupts ---- */

rck_status_t mpi_irq_raise(rck_hal_t *hal, int core,
                                  rck_irq_kind_t kind)
{
    mpib_t *m = mb(hal);
    uint32_t old = 0, bit;
    rck_status_t st;

    if (kind == RCK_IRQ_PIN) {
        st = fop(m, m->home[core], st_disp(m, core, ST_PIN), 1, MPI_REPLACE,
                 &old);
        bit = 1;
    } else {
        bit = 1u << (hal->core % 32);
        st = fop(m, m->home[core],
                 st_disp(m, core, ST_GIC + 4 * (hal->core / 32)), bit,
                 MPI_BOR, &old);
    }
    if (st != RCK_OK)
        return st;
    if (old & bit)
        rck_debug("interrupt %d -> %d lost: one is already pending",
                  hal->core, core);
    if (core == hal->core)
        return RCK_OK;
    return wake(hal, core);
}

int mpi_gic_deliver(rck_hal_t *hal, int word, uint32_t bits)
{
    int handled = 0;

    while (bits) {
        int b = __builtin_ctz(bits);
        bits &= bits - 1;
        hal->irq_handler(hal, RCK_IRQ_GIC, word * 32 + b, hal->irq_arg);
        handled++;
    }
    return handled;
}

static int irq_any_pending(mpib_t *m, int ncores)
{
    if (load_own(m, m->mpb_span + ST_PIN))
        return 1;
    for (int w = 0; w < (ncores + 31) / 32; w++) {
        if (load_own(m, m->mpb_span + ST_GIC + 4 * (size_t)w))
            return 1;
    }
    return 0;
}

rck_status_t mpi_irq_poll(rck_hal_t *hal, int *count)
{
    mpib_t *m = mb(hal);
    int handled = 0, me = hal->ue;
    uint32_t bits;

    *count = 0;
    if (hal->irq_handler == NULL || m->in_handler)
        return RCK_OK;
    progress(m);
    if (!irq_any_pending(m, hal->chip.ncores))
        return RCK_OK;
    m->in_handler = 1;
    if (load_own(m, m->mpb_span + ST_PIN)) {
        fop(m, me, st_disp(m, hal->core, ST_PIN), 0, MPI_REPLACE, &bits);
        if (bits) {
            hal->irq_handler(hal, RCK_IRQ_PIN, -1, hal->irq_arg);
            handled++;
        }
    }
    for (int w = 0; w < (hal->chip.ncores + 31) / 32; w++) {
        size_t off = m->mpb_span + ST_GIC + 4 * (size_t)w;

        if (!load_own(m, off))
            continue;
        fop(m, me, st_disp(m, hal->core, ST_GIC + 4 * w), 0, MPI_REPLACE,
            &bits);
        handled += mpi_gic_deliver(hal, w, bits);
    }
    m->in_handler = 0;
    *count = handled;
    return RCK_OK;
}

/* ---- waiting ---- */

/* Is every condition a word this rank reads locally (own MPB, own TAS, the
 * mapped shared window)? Then a write that satisfies it wakes us, except
 * for shared DRAM, which plain stores change. */
static int conds_local(rck_hal_t *hal, const rck_hal_cond_t *c, int nc,
                       int *shm)
{
    mpib_t *m = mb(hal);
    int local = 1;

    *shm = 0;
    for (int i = 0; i < nc; i++) {
        if (c[i].space == RCK_SPACE_SHM) {
            *shm = 1;
            if (m->shm == NULL)
                local = 0;
        } else if (c[i].core != hal->core) {
            local = 0;
        }
    }
    return local;
}

static rck_status_t word_read(rck_hal_t *hal, const rck_hal_cond_t *c,
                              uint32_t *v)
{
    mpib_t *m = mb(hal);

    switch (c->space) {
    case RCK_SPACE_MPB:
        if (c->core == hal->core) {
            *v = load_own(m, c->offset);
            return RCK_OK;
        }
        return get_flush(m, m->home[c->core], m->disp[c->core] + c->offset, v,
                         4);
    case RCK_SPACE_TAS:
        if (c->core == hal->core) {
            *v = load_own(m, m->mpb_span + ST_TAS);
            return RCK_OK;
        }
        return fop(m, m->home[c->core], st_disp(m, c->core, ST_TAS), 0,
                   MPI_NO_OP, v);
    case RCK_SPACE_SHM:
        if (m->shm != NULL) {
            *v = atomic_load_explicit((_Atomic uint32_t *)(m->shm + c->offset),
                                      memory_order_acquire);
            return RCK_OK;
        }
        MPI_CHECK(MPI_Get(v, 4, MPI_BYTE, 0, (MPI_Aint)c->offset, 4, MPI_BYTE,
                          m->shm_win),
                  "MPI_Get (shared window)");
        MPI_CHECK(MPI_Win_flush(0, m->shm_win), "MPI_Win_flush");
        return RCK_OK;
    }
    return RCK_ERR_INVALID;
}

/* @return index of a satisfied condition, -1 if none, -2 on error. */
static int conds_check(rck_hal_t *hal, const rck_hal_cond_t *c, int nc)
{
    MPI_Win_sync(mb(hal)->win);
    for (int i = 0; i < nc; i++) {
        uint32_t v;

        if (word_read(hal, &c[i], &v) != RCK_OK)
            return -2;
        if (rck_be_cond_holds(v, &c[i]))
            return i;
    }
    return -1;
}

/* Stop being wakeable; if a waker already took the flag, its message is
 * on the way: receive it so none is left over. */
static rck_status_t sleep_cancel(rck_hal_t *hal)
{
    mpib_t *m = mb(hal);
    uint32_t old = 0;
    rck_status_t st = wake_take(m, hal->ue, st_disp(m, hal->core, ST_WAKE),
                                &old);

    if (st != RCK_OK || old == 1)
        return st;
    MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_WAKE, m->comm,
                       MPI_STATUS_IGNORE),
              "MPI_Recv (wake-up)");
    return RCK_OK;
}

/* One look at everything a wait returns for.
 * @return 1 and *rc set when the wait is over, 0 to go on. */
static int wait_look(rck_hal_t *hal, const rck_hal_cond_t *conds, int nc,
                     int want_irq, int *which, rck_status_t *rc)
{
    mpib_t *m = mb(hal);
    int i;

    MPI_Win_sync(m->win);
    if ((want_irq || hal->irq_handler != NULL) &&
        irq_any_pending(m, hal->chip.ncores)) {
        int cnt;
        mpi_irq_poll(hal, &cnt);
        if (want_irq) {
            *which = -1;
            *rc = RCK_INTERRUPTED;
            return 1;
        }
    }
    i = conds_check(hal, conds, nc);
    if (i == -2) {
        *rc = RCK_ERR_IO;
        return 1;
    }
    if (i >= 0) {
        *which = i;
        *rc = RCK_OK;
        return 1;
    }
    return 0;
}

static void nap(int64_t ns)
{
    struct timespec ts = {.tv_sec = ns / 1000000000,
                          .tv_nsec = ns % 1000000000};
    nanosleep(&ts, NULL);
}

/* Conditions on other ranks' memory (or on a shared window written by
 * plain stores) ring no bell here: poll them, yielding, then backing
 * off. */
static rck_status_t wait_poll(rck_hal_t *hal, const rck_hal_cond_t *conds,
                              int nc, int want_irq, int local,
                              uint64_t start, uint64_t deadline, int *which)
{
    mpib_t *m = mb(hal);
    int64_t backoff = 20000, cap = local ? 200000 : 500000;
    rck_status_t rc;

    for (;;) {
        uint64_t t;

        progress(m);
        if (wait_look(hal, conds, nc, want_irq, which, &rc))
            return rc;
        t = rck_be_now_ns();
        if (t >= deadline)
            return RCK_ERR_TIMEDOUT;
        if ((int64_t)(t - start) > m->spin_ns + MPI_YIELD_NS) {
            nap(backoff);
            backoff = backoff * 2 > cap ? cap : backoff * 2;
        } else {
            sched_yield();
        }
    }
}

/* Own words only: announce, look again, wait for a wake message (see the
 * protocol at the top). The wait for the message looks at the conditions
 * again every MPI_RECHECK_NS, so that a wake-up the MPI failed to
 * deliver costs that long instead of the run. */
static rck_status_t wait_blocking(rck_hal_t *hal,
                                  const rck_hal_cond_t *conds, int nc,
                                  int want_irq, uint64_t start,
                                  uint64_t deadline, int *which)
{
    mpib_t *m = mb(hal);
    int64_t backoff = 20000;
    rck_status_t rc;

    for (;;) {
        uint64_t t, looked;
        int got = 0;

        rc = fop(m, hal->ue, st_disp(m, hal->core, ST_WAKE), 1, MPI_REPLACE,
                 NULL);
        if (rc != RCK_OK)
            return rc;
        /* the announcement is visible before the look (store -> load) */
        atomic_thread_fence(memory_order_seq_cst);
        if (wait_look(hal, conds, nc, want_irq, which, &rc))
            goto cancel;
        looked = rck_be_now_ns();
        while (!got) {
            MPI_Iprobe(MPI_ANY_SOURCE, TAG_WAKE, m->comm, &got,
                       MPI_STATUS_IGNORE);
            if (got)
                break;
            t = rck_be_now_ns();
            if (t >= deadline) {
                rc = RCK_ERR_TIMEDOUT;
                goto cancel;
            }
            if (t - looked >= MPI_RECHECK_NS) {
                if (wait_look(hal, conds, nc, want_irq, which, &rc)) {
                    m->late_wakeups++;
                    goto cancel;
                }
                looked = t;
            }
            /* Oversubscribed, a spinning rank takes the CPU the writer
             * needs: yield, then nap. */
            if (!m->poll_sleep) {
                continue;
            } else if ((int64_t)(t - start) < m->spin_ns + MPI_YIELD_NS) {
                sched_yield();
            } else {
                nap(backoff);
                backoff = backoff * 2 > 1000000 ? 1000000 : backoff * 2;
            }
        }
        MPI_CHECK(MPI_Recv(NULL, 0, MPI_BYTE, MPI_ANY_SOURCE, TAG_WAKE,
                           m->comm, MPI_STATUS_IGNORE),
                  "MPI_Recv (wake-up)");
    }
cancel: {
        rck_status_t st = sleep_cancel(hal);
        return st != RCK_OK ? st : rc;
    }
}

rck_status_t mpi_wait(rck_hal_t *hal, const rck_hal_cond_t *conds,
                             int nc, unsigned flags, int64_t timeout_ns,
                             int *which)
{
    mpib_t *m = mb(hal);
    int want_irq = (flags & RCK_WAIT_IRQ) != 0, shm, local, forever;
    uint64_t start = rck_be_now_ns(), deadline = UINT64_MAX, t;
    rck_status_t rc;

    if (timeout_ns >= 0)
        deadline = start + (uint64_t)timeout_ns;
    local = conds_local(hal, conds, nc, &shm);
    /* poll (without end when nobody would wake us: m->no_wake) */
    forever = local && !shm && m->no_wake;
    for (;;) {
        if (wait_look(hal, conds, nc, want_irq, which, &rc))
            return rc;
        t = rck_be_now_ns();
        if (t >= deadline)
            return RCK_ERR_TIMEDOUT;
        if ((int64_t)(t - start) >= m->spin_ns && !forever)
            break;
        progress(m);
    }
    if (!local || shm)
        return wait_poll(hal, conds, nc, want_irq, local, start, deadline,
                         which);
    return wait_blocking(hal, conds, nc, want_irq, start, deadline, which);
}
