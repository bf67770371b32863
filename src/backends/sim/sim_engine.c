/*
 * The engine: one run token, handed between the cores' processes so that
 * the core with the smallest (virtual time, UE) is the only one running
 * (the invariants are at the top of sim_state.h).
 *
 * A core keeps the token while it is the earliest, so a core that computes
 * and talks to nobody runs without any hand-over. The token moves when the
 * holder's next event lies beyond the horizon (the earliest other core),
 * when it parks in a wait, and when it leaves. A parked core is woken by
 * the write that satisfies it (its wake time is set, it becomes eligible)
 * and runs again when the token reaches it, never by polling.
 *
 * A core that is not the earliest still goes on through plain writes
 * (queued, invariant 5) and through waits that park; it hands over only
 * at events that read shared state. sim_engine_settle applies the queued
 * writes that come before the next holder.
 *
 * Owns: the run token, the horizon, the scheduling fields of the UEs,
 * the watchdog, deadlock detection. May call: the schedule seeds
 * (sim_sched.c), nothing else of the sim. It knows no model and no
 * output: the lazy-write queue, the compute models' clock around a
 * sleep, the reports (deadlock, watchdog) and the segment's view for the
 * launcher are reached through the hooks the HAL slots register
 * (sim_engine_set_hooks, sim.c). Called by the HAL slots, the waits, the
 * memory model, the P54C model (its booking in time order).
 */
#include "sim_engine.h"
#include "sim_state.h"
#include "sim_sched.h"
#include "common/backend.h"

#include "rck/log.h"

#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* How often a core waiting for the token looks at the watchdog. */
#define SIM_WATCH_NS 1000000000ll


/* The parts above the engine (the lazy-write queue, the compute model's
 * clock, the report, the segment's view), reached through the hooks the
 * HAL slots register (sim.c) before the engine runs. */
static const sim_engine_hooks_t *hooks;

void sim_engine_set_hooks(const sim_engine_hooks_t *h)
{
    hooks = h;
}

/* The P54C model's booking steps for stopped cores (sim_p54c.c). */
static int (*book_step)(sim_t *s, int ue, uint64_t hz_vt, int hz_ue);

void sim_engine_set_book(int (*step)(sim_t *s, int ue, uint64_t hz_vt,
                                     int hz_ue))
{
    book_step = step;
}

static int pending_first(sim_hdr_t *h, uint64_t *t, int *ue)
{
    return hooks != NULL && hooks->first(h, t, ue);
}

sim_ue_t *sim_ue(sim_hdr_t *h, int ue)
{
    return &sim_hdr_ues(h)[ue];
}

rck_status_t sim_engine_abort_status(sim_hdr_t *h)
{
    switch (atomic_load(&h->abort)) {
    case SIM_ABORT_DEADLOCK: return RCK_ERR_DEADLOCK;
    case SIM_ABORT_PEER_DEAD: return RCK_ERR_PEER_DEAD;
    default: return RCK_OK;
    }
}

void sim_engine_wake_all(sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);

    for (uint32_t i = 0; i < h->nues; i++) {
        atomic_fetch_add(&u[i].go, 1);
        rck_be_futex_wake(&u[i].go);
    }
}

/* May UE @p i take the token: runnable, parked or joining, with a finite
 * wake time. */
static int eligible(const sim_hdr_t *h, int i)
{
    uint32_t st;

    if (h->ue_wake[i] == SIM_INF)
        return 0;
    st = atomic_load_explicit(&h->ue_state[i], memory_order_relaxed);
    return st == UE_RUN || st == UE_PARK || st == UE_JOIN;
}

/* The earliest eligible UE other than @p exclude: (wake, ue) smallest. */
static int pick(sim_hdr_t *h, int exclude, uint64_t *t_out)
{
    uint64_t bt = SIM_INF;
    int best = -1;

    for (int i = 0; i < (int)h->nues; i++) {
        if (i == exclude || !eligible(h, i))
            continue;
        if (best < 0 || h->ue_wake[i] < bt) {
            best = i;
            bt = h->ue_wake[i];
        }
    }
    *t_out = bt;
    return best;
}

/* pick(h, -1), and in the same pass the earliest other than it (its
 * horizon: pick(h, that UE)) in *t2, *k2 (SIM_INF, INT_MAX: none). */
static int pick2(sim_hdr_t *h, uint64_t *t_out, uint64_t *t2, int *k2)
{
    uint64_t bt = SIM_INF, st2 = SIM_INF;
    int best = -1, second = INT_MAX;

    for (int i = 0; i < (int)h->nues; i++) {
        uint64_t w = h->ue_wake[i];

        if (!eligible(h, i))
            continue;
        if (best < 0 || w < bt) {
            if (best >= 0) {
                st2 = bt;
                second = best;
            }
            best = i;
            bt = w;
        } else if (second == INT_MAX || w < st2) {
            st2 = w;
            second = i;
        }
    }
    *t_out = bt;
    *t2 = st2;
    *k2 = second;
    return best;
}

/* Wake UE @p k if it sleeps waiting for the token (so that it looks
 * again). */
static void nudge(sim_hdr_t *h, int k)
{
    sim_ue_t *u = sim_ue(h, k);

    if (atomic_load(&u->sleeping)) {
        atomic_fetch_add(&u->go, 1);
        rck_be_futex_wake(&u->go);
    }
}

/*
 * The watcher: the one waiting core that sleeps with a timeout, to look at
 * the holder now and then (the watchdog); the others sleep without one (a
 * futex wait with a timeout arms and cancels a timer: 5% of a 48-core
 * stencil's host time). A core about to wait takes the role if nobody has
 * it. When the token goes to the watcher, the giver, which waits next,
 * takes the role over (give); where the token reaches the watcher
 * otherwise (a core leaving, the launcher, a steal), the role is freed and
 * another waiting core is nudged to take it.
 */
static void watcher_free(sim_hdr_t *h, int except1, int except2)
{
    int32_t w = atomic_exchange(&h->watcher, -1);

    (void)w;
    if (h->watchdog_s <= 0)
        return;
    for (int i = 0; i < (int)h->nues; i++) {
        uint32_t st = atomic_load(sim_state(h, i));

        if (i != except1 && i != except2 &&
            (st == UE_RUN || st == UE_PARK) &&
            atomic_load(&sim_ue(h, i)->sleeping)) {
            nudge(h, i);
            return;
        }
    }
}

/* The receiver is asleep only if it said so (a Dekker handshake with
 * sim_engine_await: either we see `sleeping` or it sees the token).
 * @p from: the giver, which waits next (-1: it does not). */
static void give(sim_hdr_t *h, int k, int from)
{
    sim_ue_t *u = sim_ue(h, k);

    if (atomic_load(&h->watcher) == k) {
        if (from >= 0)
            atomic_store(&h->watcher, from);
        else
            watcher_free(h, k, -1);
    }
    atomic_store(&h->token, k);
    if (atomic_load(&u->sleeping)) {
        atomic_fetch_add(&u->go, 1);
        rck_be_futex_wake(&u->go);
    }
}

/* Parked cores, and none running unordered (which may still wake them). */
static int any_parked(sim_hdr_t *h)
{
    int parked = 0;

    for (uint32_t i = 0; i < h->nues; i++) {
        uint32_t st = atomic_load(&h->ue_state[i]);
        if (st == UE_FREE)
            return 0;
        parked |= st == UE_PARK;
    }
    return parked;
}

/* Every core left is parked with nothing that could wake it: say what each
 * one waits for and release them all with RCK_ERR_DEADLOCK. */
static void deadlock(sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);
    uint64_t t = 0;
    int32_t none = SIM_ABORT_NONE;

    if (atomic_load(&h->abort) != SIM_ABORT_NONE)
        return;
    for (uint32_t i = 0; i < h->nues; i++) {
        uint32_t running = UE_END_RUNNING;

        if (atomic_load(&h->ue_state[i]) != UE_PARK)
            continue;
        t = sim_max(t, u[i].vt);
        /* before anyone is released, so the reports are complete even if
         * the launcher kills the cores right away */
        atomic_compare_exchange_strong(&u[i].end, &running, UE_END_DEADLOCK);
    }
    h->deadlock_tick = t;
    atomic_store(&h->token, -1);
    /* nobody runs yet (waiting cores look at the abort flag): print first */
    hooks->deadlock(h);
    if (atomic_compare_exchange_strong(&h->abort, &none, SIM_ABORT_DEADLOCK))
        sim_engine_wake_all(h);
}

/* sim_engine_settle, and the next holder's horizon in *t2, *k2. */
static int settle2(sim_t *s, uint64_t *t_out, uint64_t *t2, int *k2)
{
    sim_hdr_t *h = s->hdr;
    uint64_t t, pt;
    int k, pu;

    k = pick2(h, &t, t2, k2);
    for (;;) {
        uint64_t gen = s->wake_gen;

        if (!pending_first(h, &pt, &pu) ||
            (k >= 0 && !(pt < t || (pt == t && pu <= k))))
            break;
        hooks->apply(s, pt, pu);
        /* only a changed wake time can change the choice */
        if (s->wake_gen != gen)
            k = pick2(h, &t, t2, k2);
    }
    *t_out = t;
    return k;
}

int sim_engine_settle(sim_t *s, uint64_t *t_out)
{
    uint64_t t2;
    int k2;

    return settle2(s, t_out, &t2, &k2);
}

/*
 * sim_engine_settle, then, while the next holder is a core stopped in the
 * middle of booking a compute slice in time order (docs/P54C.md), that
 * core's next booking step, taken here: the step it would take itself
 * when the token reached it, at the same point of the order (nothing
 * else runs in between), with the same answers, without the two context
 * switches of a hand-over. Its clock and wake time move to where it
 * stops next; when its slice is booked whole, it is the next holder.
 */
static int settle_books(sim_t *s, uint64_t *t_out)
{
    for (;;) {
        uint64_t hz_vt;
        int hz_ue, k = settle2(s, t_out, &hz_vt, &hz_ue);

        if (book_step == NULL || k < 0 || k == s->ue ||
            book_step(s, k, hz_vt, hz_ue) != 0)
            return k;
    }
}

/* The token's holder is done with it: pass it to the earliest UE.
 * @p s: the holder's view, or NULL (the launcher, the watchdog). */
static void pass_on(sim_hdr_t *h, sim_t *s)
{
    sim_t view;
    uint64_t t;
    int k;

    if (s == NULL) {
        hooks->view(&view, h);
        k = sim_engine_settle(&view, &t);
    } else {
        k = settle_books(s, &t);
    }
    if (k >= 0) {
        give(h, k, -1);
        return;
    }
    atomic_store(&h->token, -1);
    if (any_parked(h))
        deadlock(h);
}

void sim_engine_start(sim_hdr_t *h)
{
    int32_t zero = 0;

    if (atomic_compare_exchange_strong(&h->started, &zero, 1))
        pass_on(h, NULL);
}

void sim_engine_core_exited(sim_hdr_t *h, int ue, int failed)
{
    sim_ue_t *u = sim_ue(h, ue);
    _Atomic uint32_t *state = sim_state(h, ue);
    uint32_t st = atomic_load(state);
    uint32_t running = UE_END_RUNNING;

    if (failed) {
        int32_t none = -1, ok = SIM_ABORT_NONE;

        atomic_compare_exchange_strong(&u->end, &running, UE_END_FAILED);
        if (st == UE_DONE)
            return; /* it left the simulation first: nobody waits for it */
        atomic_compare_exchange_strong(&h->failed_core, &none,
                                       h->ue_core[ue]);
        atomic_compare_exchange_strong(&h->abort, &ok, SIM_ABORT_PEER_DEAD);
        sim_engine_wake_all(h);
        return;
    }
    if (st == UE_DONE)
        return;
    atomic_compare_exchange_strong(&u->end, &running, UE_END_EXITED);
    *sim_wake(h, ue) = SIM_INF;
    if (st == UE_ABSENT) {
        /* It never attached (a program that does not use the chip). */
        atomic_store(state, UE_DONE);
        if (atomic_fetch_add(&h->settled, 1) + 1 == h->nstart)
            sim_engine_start(h);
        return;
    }
    /* Attached and gone without detaching: if it held the token, nobody
     * else runs, so the launcher may act as the holder. */
    atomic_store(state, UE_DONE);
    if (atomic_load(&h->abort) != 0)
        return;
    if (atomic_load(&h->token) == ue) {
        pass_on(h, NULL);
    } else {
        /* Nobody holds the token (the others wait for a core the watchdog
         * set free, which may have been this one): look for a deadlock. */
        int32_t idle = -1;
        if (atomic_compare_exchange_strong(&h->token, &idle, SIM_TOKEN_BUSY))
            pass_on(h, NULL);
    }
}

/* Take the token from UE @p k, which runs outside the HAL, and let the
 * others go on; it gets back in line at its next HAL call
 * (sim_engine_reclaim). The handshake with that call: it stores in_hal,
 * then loads the token; we store the token, then load in_hal (both
 * seq_cst), so either we see it entering and give the token back, or it
 * sees that the token is gone. */
static void steal(sim_hdr_t *h, int k)
{
    sim_ue_t *u = sim_ue(h, k);
    int32_t exp = k;

    if (!atomic_compare_exchange_strong(&h->token, &exp, SIM_TOKEN_BUSY))
        return;
    if (atomic_load(&u->in_hal)) {
        atomic_store(&h->token, k);
        return;
    }
    (void)u;
    atomic_store(sim_state(h, k), UE_FREE);
    atomic_fetch_add(&h->steals, 1);
    pass_on(h, NULL);
}

static void watchdog_spinner(sim_hdr_t *h);

/* A core that waits for the token looks now and then whether the holder
 * is stuck outside the HAL (a program spinning on memory). */
static void watchdog(sim_t *s)
{
    sim_hdr_t *h = s->hdr;
    int k = atomic_load(&h->token);
    sim_ue_t *u;
    uint64_t since, now, seq, key, prev;

    if (h->watchdog_s > 0 && k == -1)
        watchdog_spinner(h);
    if (h->watchdog_s <= 0 || k < 0 || k >= (int)h->nues)
        return;
    u = sim_ue(h, k);
    if (atomic_load(&u->in_hal))
        return;
    /* How long it has been outside the HAL: since the first look that
     * found it there after the same call (HAL calls do not read the
     * clock for this; a look comes every SIM_WATCH_NS). */
    seq = atomic_load(&u->hal_seq);
    now = sim_host_ns();
    if (atomic_load_explicit(&u->wd_seq, memory_order_acquire) != seq + 1) {
        atomic_store_explicit(&u->wd_since, now, memory_order_relaxed);
        atomic_store_explicit(&u->wd_seq, seq + 1, memory_order_release);
        return;
    }
    since = atomic_load_explicit(&u->wd_since, memory_order_relaxed);
    if (now - since < (uint64_t)h->watchdog_s * 1000000000ull)
        return;
    key = ((seq + 1) << 11) | (uint64_t)k;
    prev = atomic_load(&h->watchdog_warned);
    if (prev == key ||
        !atomic_compare_exchange_strong(&h->watchdog_warned, &prev, key))
        return;
    steal(h, k);
    rck_warn("sim: core %d (UE %d) has run for %.0f s of host time without "
             "a HAL call, and every other core waits for it: the simulation "
             "runs one core at a time. A program that spins on memory "
             "outside the HAL (a shared-DRAM word, an MPB pointer) never "
             "lets the core it waits for run; wait with RCCE flags or "
             "rck_hal_wait. The others go on without it, out of order: "
             "this run is no longer deterministic",
             h->ue_core[k], k, (double)(now - since) * 1e-9);
}

/* After a steal, nobody may hold the token: if the core set free still
 * runs outside the HAL and every other core waits, nothing will ever run
 * again unless it is only computing. Name it in a report, once per
 * steal (the top bit of watchdog_warned marks the report). */
static void watchdog_spinner(sim_hdr_t *h)
{
    int k = -1;
    uint64_t seq, key, prev, now;
    sim_ue_t *u;

    for (int i = 0; i < (int)h->nues; i++) {
        uint32_t st = atomic_load(sim_state(h, i));
        if (st == UE_FREE && k < 0)
            k = i;
        else if (st != UE_PARK && st != UE_DONE && st != UE_DORMANT)
            return;
    }
    if (k < 0)
        return;
    u = sim_ue(h, k);
    if (atomic_load(&u->in_hal))
        return;
    seq = atomic_load(&u->hal_seq);
    key = ((seq + 1) << 11) | (uint64_t)k;
    prev = atomic_load(&h->watchdog_warned);
    if (prev != key ||
        !atomic_compare_exchange_strong(&h->watchdog_warned, &prev,
                                        key | (1ull << 63)))
        return;
    now = sim_host_ns();
    hooks->spinner(h, k,
                   (double)(now - atomic_load(&u->wd_since)) * 1e-9);
}

/* Spin for the token for at most @p limit_ns. @return 1 with it. */
static int spin_for(sim_t *s, uint64_t limit_ns)
{
    sim_hdr_t *h = s->hdr;
    uint64_t t0 = sim_host_ns();

    for (unsigned k = 1;; k++) {
        if (atomic_load_explicit(&h->token, memory_order_acquire) == s->ue)
            return 1;
        rck_be_cpu_relax();
        if (k % 64 != 0)
            continue;
        if (atomic_load_explicit(&h->abort, memory_order_relaxed) ||
            sim_host_ns() - t0 > limit_ns)
            return 0;
    }
}

/* With a host CPU to spare for every core, one core at a time may wait
 * for the token by spinning for a while: a token that comes straight
 * back (a request and its reply) then costs a cache-line transfer, not
 * two system calls. */
static int await_spin(sim_t *s)
{
    sim_hdr_t *h = s->hdr;
    int32_t none = -1;
    int got;

    if (h->spin_ns <= 0 ||
        !atomic_compare_exchange_strong(&h->spinner, &none, s->ue))
        return 0;
    got = spin_for(s, (uint64_t)h->spin_ns);
    atomic_store(&h->spinner, -1);
    return got;
}


rck_status_t sim_engine_await(sim_t *s)
{
    sim_hdr_t *h = s->hdr;
    sim_ue_t *me = s->me;

    if (atomic_load(&h->abort) == SIM_ABORT_NONE && await_spin(s))
        return RCK_OK;
    for (;;) {
        uint32_t seq;
        int32_t none = -1;
        int watch;

        atomic_store(&me->sleeping, 1);
        seq = atomic_load(&me->go);
        if (atomic_load(&h->abort) != SIM_ABORT_NONE) {
            atomic_store(&me->sleeping, 0);
            return sim_engine_abort_status(h);
        }
        if (atomic_load(&h->token) == s->ue) {
            atomic_store(&me->sleeping, 0);
            /* the watcher must be a waiting core */
            if (atomic_load(&h->watcher) == s->ue)
                watcher_free(h, s->ue, -1);
            return RCK_OK;
        }
        watch = h->watchdog_s > 0 &&
                (atomic_load(&h->watcher) == s->ue ||
                 atomic_compare_exchange_strong(&h->watcher, &none, s->ue));
        hooks->sleep(s);
        if (rck_be_futex_wait(&me->go, seq, watch ? SIM_WATCH_NS : -1) ==
            ETIMEDOUT) {
            hooks->woke(s);
            watchdog(s);
        } else {
            hooks->woke(s);
        }
    }
}


void sim_engine_reclaim(sim_t *s)
{
    sim_hdr_t *h = s->hdr;
    int32_t tok, idle = -1;

    while ((tok = atomic_load(&h->token)) == SIM_TOKEN_BUSY)
        sched_yield(); /* the watchdog is deciding: a few instructions */
    if (tok == s->ue || atomic_load(&h->abort) != SIM_ABORT_NONE)
        return;
    if (atomic_load(sim_state(h, s->ue)) == UE_FREE) {
        *sim_wake(h, s->ue) = s->me->vt;
        atomic_store(sim_state(h, s->ue), UE_RUN);
    }
    if (!atomic_compare_exchange_strong(&h->token, &idle, s->ue) &&
        sim_engine_await(s) != RCK_OK) {
        s->unordered = 1;
        return;
    }
    sim_engine_horizon(s);
}

void sim_engine_join(sim_t *s, int ue)
{
    sim_hdr_t *h = s->hdr;
    sim_ue_t *u = sim_ue(h, ue);

    /* outside the HAL until its process attaches, but not stuck there:
     * the watchdog leaves it alone */
    atomic_store(&u->in_hal, 1);
    *sim_wake(h, ue) = s->me->vt;
    atomic_store(sim_state(h, ue), UE_JOIN);
    s->wake_gen++;
    if (sim_before(s->me->vt, ue, s->hz_vt, s->hz_ue)) {
        s->hz_vt = s->me->vt;
        s->hz_ue = ue;
    }
}

void sim_engine_unjoin(sim_t *s, int ue)
{
    sim_hdr_t *h = s->hdr;

    *sim_wake(h, ue) = SIM_INF;
    atomic_store(sim_state(h, ue), UE_DORMANT);
    atomic_store(&sim_ue(h, ue)->in_hal, 0);
    s->wake_gen++;
    sim_engine_horizon(s);
}

void sim_engine_horizon(sim_t *s)
{
    uint64_t t;
    int k = pick(s->hdr, s->ue, &t);

    s->hz_vt = k < 0 ? SIM_INF : t;
    s->hz_ue = k < 0 ? INT_MAX : k;
}

uint64_t sim_engine_floor(sim_t *s)
{
    uint64_t lo = sim_min(s->me->vt, sim_engine_others(s));

    return lo > s->hdr->lookahead ? lo - s->hdr->lookahead : 0;
}

uint64_t sim_engine_others(sim_t *s)
{
    return sim_engine_others_of(s->hdr, s->ue);
}

uint64_t sim_engine_others_of(sim_hdr_t *h, int ue)
{
    uint64_t lo = SIM_INF;

    for (int i = 0; i < (int)h->nues && lo > 0; i++) {
        uint32_t st = atomic_load_explicit(&h->ue_state[i],
                                           memory_order_relaxed);
        if (i == ue)
            continue;
        if (st == UE_RUN || st == UE_PARK)
            lo = sim_min(lo, sim_ue(h, i)->vt);
        else if (st == UE_JOIN)
            lo = sim_min(lo, h->ue_wake[i]);
        else if (st == UE_ABSENT)
            lo = 0; /* not attached yet: starts at 0 */
    }
    return lo;
}

rck_status_t sim_engine_order(sim_t *s)
{
    sim_hdr_t *h = s->hdr;
    sim_ue_t *me = s->me;
    rck_status_t st;
    uint64_t t;
    int k;

    if (s->unordered)
        return sim_engine_abort_status(h);
    if (atomic_load_explicit(&h->abort, memory_order_relaxed) !=
        SIM_ABORT_NONE) {
        s->unordered = 1;
        return sim_engine_abort_status(h);
    }
    if (sim_before(me->vt, s->ue, s->hz_vt, s->hz_ue) ||
        me->vt - s->hz_vt < h->lookahead) {
        /* the earliest: the queued writes up to now happen first (they
         * may wake a core that is earlier still) */
        if (h->npending == 0)
            return RCK_OK;
        hooks->apply(s, me->vt, s->ue);
        if (sim_before(me->vt, s->ue, s->hz_vt, s->hz_ue) ||
            me->vt - s->hz_vt < h->lookahead)
            return RCK_OK;
    }
    *sim_wake(h, s->ue) = me->vt;
    k = settle_books(s, &t);
    if (k == s->ue || k < 0) {
        sim_engine_horizon(s);
        return RCK_OK;
    }
    if (h->lookahead > 0 && me->vt - t < h->lookahead) {
        sim_engine_horizon(s);
        return RCK_OK;
    }
    me->handovers++;
    me->yields++;
    give(h, k, s->ue);
    st = sim_engine_await(s);
    if (st != RCK_OK) {
        s->unordered = 1;
        return st;
    }
    sim_engine_horizon(s);
    return RCK_OK;
}

rck_status_t sim_engine_park(sim_t *s)
{
    sim_hdr_t *h = s->hdr;
    rck_status_t st;
    uint64_t t;
    int k;

    s->me->parks++;
    k = settle_books(s, &t);
    if (k != s->ue) {
        if (k < 0) {
            /* nobody can run: a deadlock, unless a core set free by the
             * watchdog still runs (it takes the token back) */
            atomic_store(&h->token, -1);
            if (any_parked(h))
                deadlock(h);
        } else {
            s->me->handovers++;
            give(h, k, s->ue);
        }
        st = sim_engine_await(s);
        if (st != RCK_OK) {
            s->unordered = 1;
            return st;
        }
    }
    sim_engine_horizon(s);
    return RCK_OK;
}

void sim_engine_wake(sim_t *s, int w, uint64_t t, int which)
{
    sim_ue_t *u = sim_ue(s->hdr, w);
    uint64_t *wake = sim_wake(s->hdr, w);

    if (s->hdr->sched_seed != 0)
        t += sim_sched_wake_ticks(s->hdr, w, u->parks);
    if (t >= *wake)
        return;
    *wake = t;
    s->wake_gen++;
    u->sat_which = which;
    if (sim_before(t, w, s->hz_vt, s->hz_ue)) {
        s->hz_vt = t;
        s->hz_ue = w;
    }
}

/* Before it looked, the word it was woken for changed back: a poll at its
 * wake time would see the condition false, so it stays parked and nobody
 * hands it the token for nothing (a released TAS lock that another waiter
 * takes first: the rest of the herd keeps sleeping). */
void sim_engine_unwake(sim_t *s, int w)
{
    sim_ue_t *u = sim_ue(s->hdr, w);

    if (u->sat_which < 0)
        return;
    u->sat_which = -1;
    u->sat_early = 0;
    *sim_wake(s->hdr, w) = u->park_wake;
    s->wake_gen++;
}

void sim_engine_leave(sim_t *s, uint32_t end)
{
    sim_hdr_t *h = s->hdr;
    uint32_t running = UE_END_RUNNING;
    int ordered = !s->unordered && sim_engine_order(s) == RCK_OK;

    atomic_compare_exchange_strong(&s->me->end, &running, end);
    *sim_wake(h, s->ue) = SIM_INF;
    atomic_store(sim_state(h, s->ue), UE_DONE);
    if (ordered && atomic_load(&h->token) == s->ue)
        pass_on(h, s);
}
