/*
 * Waits and wake-ups: the conditions a wait publishes (sim_ue_t.conds,
 * the cores' watcher sets), what one poll of them costs, and the wake-up
 * of parked waits by the writes that may satisfy them (sim_notify; a
 * parked core is woken through the engine, never by polling).
 *
 * Owns: the wait conditions in the segment, try_wake's rules (the comment
 * above try_wake). May call: the engine (sim_engine_wake/unwake), the cost
 * model (sim_charge.h, sim_cost.c), the memory helpers (sim_mem.h), the
 * map (sim_l1.c), the trace. Called by the HAL slots, the memory model
 * and the lazy writes.
 */
#include "sim_charge.h"
#include "sim_mem.h"
#include "sim_wait.h"
#include "sim_engine.h"
#include "sim_l1.h"
#include "sim_report.h"

#include <stdio.h>
#include <string.h>

/* When the value a condition looks at became visible. */
uint64_t sim_cond_vis(sim_t *s, const rck_hal_cond_t *c)
{
    switch (c->space) {
    case RCK_SPACE_MPB:
        return s->vis[(size_t)c->core * s->lines_per_mpb +
                      c->offset / s->chip->line_bytes];
    case RCK_SPACE_TAS:
        return s->cores[c->core].tas_vis;
    default:
        return 0;
    }
}

/* One poll of a condition by this core: CL1INVMB and a DWORD read of the
 * MPB, a read of the TAS register, or an uncached DWORD read of shared
 * DRAM from the word's controller (under this core's map). The waiter
 * publishes it with its wait (sim_ue_t.poll), so that a writer can wake
 * it at the right time. */
uint64_t sim_cond_poll_cost(sim_t *s, const rck_hal_cond_t *c)
{
    switch (c->space) {
    case RCK_SPACE_MPB:
        return cost_cl1invmb(s) + cost_dword_read(s, c->core);
    case RCK_SPACE_TAS:
        return cost_dword_read(s, c->core);
    case RCK_SPACE_SHM: {
        int type, mc;
        size_t until;

        sim_map_lookup(&s->map, c->offset, &type, &mc, &until);
        return cost_shm_poll(s, mc_of(s, c->offset, mc));
    }
    }
    return 0;
}

/* The mesh traffic of one poll (when the wait is satisfied). */
void sim_cond_poll_traffic(sim_t *s, const rck_hal_cond_t *c)
{
    switch (c->space) {
    case RCK_SPACE_MPB:
        mesh_xfer(s, rck_chip_tile(s->chip, c->core), 0, s->chip->line_bytes);
        break;
    case RCK_SPACE_TAS:
        mesh_xfer(s, rck_chip_tile(s->chip, c->core), 0, 4);
        break;
    case RCK_SPACE_SHM: {
        int type, mc;
        size_t until;

        sim_map_lookup(&s->map, c->offset, &type, &mc, &until);
        mesh_xfer(s, sim_tile_of_mc(s->chip, mc_of(s, c->offset, mc)), 0, 4);
        break;
    }
    }
}

static int ue_has_shm(const sim_ue_t *u)
{
    for (int i = 0; i < u->nconds; i++) {
        if (u->conds[i].space == RCK_SPACE_SHM)
            return 1;
    }
    return 0;
}

/* A write with key time @p tw changed a word parked UE @p w waits for.
 * One whose condition now holds continues at the time the value became
 * visible (not before it parked) plus one poll; one whose condition no
 * longer holds stays parked (invariant 3 holds: this happens before its
 * wake time, since the caller is the earliest core).
 *
 * A wait that parked lazily (sim_wait: without waiting for its turn) can
 * see writes with keys before its own time u->vt applied after it
 * parked. They stand for the state its check at u->vt would have seen,
 * as if it had not parked: the last of them decides (its wake time is
 * set, not only lowered), and once the state at u->vt holds the wait is
 * satisfied as it would have been at once, which later writes cannot
 * undo. In strict order no write older than a parked wait comes in. */
static void try_wake(sim_t *s, int w, uint64_t not_before, uint64_t tw,
                     int uw)
{
    sim_ue_t *u = sim_ue(s->hdr, w);
    int i = sim_conds_eval(s->hdr, u->conds, u->nconds);
    int before = tw < u->vt || (tw == u->vt && uw <= w);
    uint64_t t;

    if (i < 0) {
        if (before || !u->sat_early)
            sim_engine_unwake(s, w);
        return;
    }
    if (!before && u->sat_early && u->sat_which >= 0)
        return; /* satisfied at its time already */
    t = sim_max(sim_max(u->vt, not_before), sim_cond_vis(s, &u->conds[i])) +
        u->poll[i];
    if (before) {
        *sim_wake(s->hdr, w) = u->park_wake; /* set, not lowered */
        s->wake_gen++;
        u->sat_which = -1;
        u->sat_early = 1;
    } else {
        u->sat_early = 0;
    }
    sim_engine_wake(s, w, t, i);
}

static void notify_one(sim_t *s, int w, rck_space_t space, int core,
                       uint32_t off, size_t len, uint64_t tw, int uw)
{
    sim_ue_t *u = &s->ues[w];
    int hit = 0;

    /* the caller itself may be parked: a queued write applied while it
     * parks (sim_engine_settle) can satisfy its own wait */
    if (atomic_load_explicit(sim_state(s->hdr, w), memory_order_relaxed) !=
        UE_PARK)
        return;
    for (int i = 0; i < u->nconds && !hit; i++) {
        const rck_hal_cond_t *c = &u->conds[i];
        hit = c->space == space &&
              (space == RCK_SPACE_SHM || c->core == core) &&
              (uint64_t)c->offset + 4 > off &&
              (uint64_t)c->offset < (uint64_t)off + len;
    }
    /* shared DRAM keeps no visibility times: the write is visible from
     * the writer's time on (as in sim_poll_shm_waiters) */
    if (hit)
        try_wake(s, w, space == RCK_SPACE_SHM ? s->me->vt : 0, tw, uw);
}

/* A write to [off, off + len) of @p space (core's MPB or TAS, or shared
 * DRAM) happened: wake the parked waits it may satisfy. */
void sim_notify(sim_t *s, rck_space_t space, int core, uint32_t off,
                   size_t len, uint64_t tw, int uw)
{
    if (s->unordered)
        return;
    if (space != RCK_SPACE_SHM && s->cores[core].watchers == 0)
        return;
    if (space == RCK_SPACE_SHM && s->hdr->nparked_shm == 0)
        return;
    if (space == RCK_SPACE_SHM) {
        for (int w = 0; w < (int)s->hdr->nues; w++)
            notify_one(s, w, space, core, off, len, tw, uw);
        return;
    }
    /* the UEs parked on a word of this core, in UE order */
    for (uint32_t i = 0; i * 64 < s->hdr->nues; i++) {
        uint64_t bits = s->cores[core].watch_ues[i];

        while (bits != 0) {
            int b = __builtin_ctzll(bits);

            bits &= bits - 1;
            notify_one(s, (int)(i * 64) + b, space, core, off, len, tw, uw);
        }
    }
}

/* Shared DRAM is also written with plain stores that no HAL call sees:
 * every event looks at the parked waits on DRAM words (there are few). */
void sim_poll_shm_waiters(sim_t *s)
{
    for (int w = 0; w < (int)s->hdr->nues; w++) {
        sim_ue_t *u = &s->ues[w];

        if (w != s->ue &&
            atomic_load_explicit(sim_state(s->hdr, w),
                                 memory_order_relaxed) == UE_PARK &&
            ue_has_shm(u))
            try_wake(s, w, s->me->vt, s->me->vt, s->ue);
    }
}

/* ---- waiting ---- */

void sim_wait_publish(sim_t *s, const rck_hal_cond_t *conds, int nc,
                         unsigned flags, rck_hal_t *hal)
{
    sim_ue_t *me = s->me;
    int shm = 0;

    if (nc > 0)
        memcpy(me->conds, conds, sizeof(*conds) * (size_t)nc);
    for (int i = 0; i < nc; i++)
        me->poll[i] = sim_cond_poll_cost(s, &conds[i]);
    me->nconds = nc;
    me->park_flags = ((flags & RCK_WAIT_IRQ) ? PARK_IRQ : 0) |
                     (hal->irq_handler != NULL ? PARK_HANDLER : 0);
    me->sat_which = -1;
    me->sat_early = 0;
    me->ctx_peer = s->ctx_peer;
    if (s->ctx_call != NULL) {
        size_t n = strnlen(s->ctx_call, sizeof(me->ctx) - 1);
        memcpy(me->ctx, s->ctx_call, n);
        me->ctx[n] = '\0';
    } else {
        me->ctx[0] = '\0';
    }
    for (int i = 0; i < nc; i++) {
        if (conds[i].space == RCK_SPACE_SHM) {
            shm = 1;
        } else {
            sim_core_t *c = &s->cores[conds[i].core];
            c->watchers++;
            c->watch_ues[s->ue / 64] |= 1ull << (s->ue % 64);
        }
    }
    if (shm)
        s->hdr->nparked_shm++;
}

void sim_wait_unpublish(sim_t *s)
{
    sim_ue_t *me = s->me;
    int shm = 0;

    for (int i = 0; i < me->nconds; i++) {
        if (me->conds[i].space == RCK_SPACE_SHM) {
            shm = 1;
        } else {
            sim_core_t *c = &s->cores[me->conds[i].core];
            if (c->watchers > 0)
                c->watchers--;
            c->watch_ues[s->ue / 64] &= ~(1ull << (s->ue % 64));
        }
    }
    if (shm && s->hdr->nparked_shm > 0)
        s->hdr->nparked_shm--;
}

int sim_conds_have_mpb(const rck_hal_cond_t *c, int n)
{
    for (int i = 0; i < n; i++) {
        if (c[i].space == RCK_SPACE_MPB)
            return 1;
    }
    return 0;
}

uint64_t sim_ns_to_ticks(const rck_chip_t *c, int64_t ns)
{
    double t = (double)ns * c->core_mhz * 1e-3 * (double)SIM_TICKS;

    return t >= 1.8e19 ? SIM_INF - 1 : (uint64_t)t;
}

/* A wait that blocked, as a slice of the trace. */
void sim_trace_wait(sim_t *s, const rck_hal_cond_t *conds, int nc,
                       uint64_t start, rck_status_t st)
{
    char what[112] = "an interrupt";
    sim_trace_arg_t args[2] = {{.key = "for", .str = what},
                               {.key = "result",
                                .str = rck_status_string(st)}};

    if (nc > 0 && conds[0].space == RCK_SPACE_MPB)
        snprintf(what, sizeof(what), "MPB word of core %d at 0x%x%s",
                 conds[0].core, conds[0].offset,
                 nc > 1 ? " (or others)" : "");
    else if (nc > 0 && conds[0].space == RCK_SPACE_TAS)
        snprintf(what, sizeof(what), "TAS register of core %d%s",
                 conds[0].core, nc > 1 ? " (or others)" : "");
    else if (nc > 0)
        snprintf(what, sizeof(what), "shared DRAM word at 0x%x%s",
                 conds[0].offset, nc > 1 ? " (or others)" : "");
    /* the result only when the wait did not end with its condition */
    sim_trace_slice(s, "wait", "wait", start, s->me->vt, args,
                    st == RCK_OK ? 1 : 2);
}

/* A wait by a core that is not the earliest may park at once, without
 * waiting for its turn, when its words do not hold in memory now: every
 * write that still comes before its time (queued, or not issued yet) is
 * applied later in key order and wakes it, or puts it back to sleep,
 * exactly as if it had parked in order (invariant 5). When they do hold,
 * an earlier write may still undo that: the wait must take its turn. */
int sim_wait_park_now(sim_t *s, rck_hal_t *hal, const rck_hal_cond_t *conds,
                         int nc, unsigned flags)
{
    sim_hdr_t *h = s->hdr;

    if (s->unordered || h->lookahead > 0 ||
        atomic_load_explicit(&h->abort, memory_order_relaxed) != 0 ||
        sim_before(s->me->vt, s->ue, s->hz_vt, s->hz_ue))
        return 0;
    if (((flags & RCK_WAIT_IRQ) || hal->irq_handler != NULL) &&
        s->cores[s->core].irq_next <= s->me->vt)
        return 0;
    if (atomic_load(&h->token) != s->ue)
        return 0;
    return sim_conds_eval(h, conds, nc) < 0;
}
