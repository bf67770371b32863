/*
 * Deadlock detection of the native backend (the rules are at the top of
 * native.c): a sleeping core publishes its wait; one that looks at the
 * others finds the run deadlocked when every core has ended or sleeps
 * published, unrung and unsatisfied, and nothing has progressed for
 * RCK_DEADLOCK_S seconds; it prints the report and wakes everyone.
 *
 * Owns: the dl_* fields of the segment and of native_t. May call: the
 * segment helpers of native_internal.h, the log. Called by native_wait.
 */
#include "native_internal.h"

#include "rck/log.h"

#include <stdio.h>
#include <string.h>

/* Publish the wait this core is about to sleep in (before its first futex
 * wait; later sleeps of the same wait only update dl_bell_seq). */
void native_dl_publish(native_t *n, int core, const rck_hal_cond_t *conds,
                       int nc, int irq, int any_bell, uint32_t seq,
                       uint64_t start)
{
    core_state_t *cs = &n->cores[core];
    uint32_t g = atomic_load_explicit(&cs->dl_pub, memory_order_relaxed);

    atomic_store_explicit(&cs->dl_pub, g + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    for (int i = 0; i < nc && i < NATIVE_DL_CONDS; i++)
        cs->dl_conds[i] = conds[i];
    atomic_store_explicit(&cs->dl_nconds, (uint32_t)nc, memory_order_relaxed);
    atomic_store_explicit(&cs->dl_irq, (uint32_t)irq, memory_order_relaxed);
    atomic_store_explicit(&cs->dl_any_bell, (uint32_t)any_bell,
                          memory_order_relaxed);
    atomic_store_explicit(&cs->dl_bell_seq, seq, memory_order_relaxed);
    atomic_store_explicit(&cs->dl_since_ns, start - n->hdr->t0_ns,
                          memory_order_relaxed);
    atomic_store_explicit(&cs->dl_blocked, 1, memory_order_relaxed);
    atomic_store_explicit(&cs->dl_pub, g + 2, memory_order_release);
}

void native_dl_unpublish(native_t *n, int core)
{
    core_state_t *cs = &n->cores[core];
    uint32_t g = atomic_load_explicit(&cs->dl_pub, memory_order_relaxed);

    if (!atomic_load_explicit(&cs->dl_blocked, memory_order_relaxed))
        return;
    atomic_store_explicit(&cs->dl_pub, g + 1, memory_order_relaxed);
    atomic_thread_fence(memory_order_release);
    atomic_store_explicit(&cs->dl_blocked, 0, memory_order_relaxed);
    atomic_store_explicit(&cs->dl_pub, g + 2, memory_order_release);
}

/* Is core @p c stuck: asleep in a published wait without deadline, its
 * bell unrung, no published condition true, no interrupt pending for it?
 * @p copy receives the published conditions (for the report). */
static int dl_stuck(native_t *n, int c, rck_hal_cond_t *copy, int *nc,
                    int *irq, uint64_t *since)
{
    core_state_t *cs = &n->cores[c];
    uint32_t g1 = atomic_load_explicit(&cs->dl_pub, memory_order_acquire);
    _Atomic uint32_t *bell;
    int k;

    if ((g1 & 1) ||
        !atomic_load_explicit(&cs->dl_blocked, memory_order_relaxed))
        return 0;
    *nc = (int)atomic_load_explicit(&cs->dl_nconds, memory_order_relaxed);
    *irq = (int)atomic_load_explicit(&cs->dl_irq, memory_order_relaxed);
    *since = atomic_load_explicit(&cs->dl_since_ns, memory_order_relaxed);
    bell = atomic_load_explicit(&cs->dl_any_bell, memory_order_relaxed)
               ? &n->hdr->any_doorbell
               : &cs->doorbell;
    k = *nc < NATIVE_DL_CONDS ? *nc : NATIVE_DL_CONDS;
    for (int i = 0; i < k; i++)
        copy[i] = cs->dl_conds[i];
    if (atomic_load(bell) !=
        atomic_load_explicit(&cs->dl_bell_seq, memory_order_relaxed))
        return 0;
    atomic_thread_fence(memory_order_acquire);
    if (atomic_load_explicit(&cs->dl_pub, memory_order_relaxed) != g1)
        return 0;
    if (conds_check(n, copy, k) >= 0)
        return 0;
    if (*irq && irq_any_pending(n, c))
        return 0;
    return 1;
}

static const char *dl_space(rck_space_t sp)
{
    switch (sp) {
    case RCK_SPACE_MPB: return "MPB word";
    case RCK_SPACE_SHM: return "shared DRAM word";
    case RCK_SPACE_TAS: return "TAS register";
    }
    return "?";
}

/* The wait core @p c has published, read consistently (for the report:
 * no check that it is still stuck). @return 0 if it has none. */
static int dl_read(native_t *n, int c, rck_hal_cond_t *copy, int *nc,
                   int *irq, uint64_t *since)
{
    core_state_t *cs = &n->cores[c];

    for (int tries = 0; tries < 1000; tries++) {
        uint32_t g1 = atomic_load_explicit(&cs->dl_pub, memory_order_acquire);
        int k, blocked;

        if (g1 & 1) {
            rck_be_cpu_relax();
            continue;
        }
        blocked = (int)atomic_load_explicit(&cs->dl_blocked,
                                            memory_order_relaxed);
        *nc = (int)atomic_load_explicit(&cs->dl_nconds,
                                        memory_order_relaxed);
        *irq = (int)atomic_load_explicit(&cs->dl_irq, memory_order_relaxed);
        *since = atomic_load_explicit(&cs->dl_since_ns,
                                      memory_order_relaxed);
        k = *nc < NATIVE_DL_CONDS ? *nc : NATIVE_DL_CONDS;
        for (int i = 0; i < k; i++)
            copy[i] = cs->dl_conds[i];
        atomic_thread_fence(memory_order_acquire);
        if (atomic_load_explicit(&cs->dl_pub, memory_order_relaxed) == g1)
            return blocked;
    }
    return 0;
}

/* The sim's deadlock report (sim_report.c), in host time. */
static void dl_report(native_t *n, rck_hal_t *hal, uint64_t quiet_ns)
{
    seg_hdr_t *h = n->hdr;

    rck_error("native: deadlock after %.1f s: every core still running "
              "waits and nothing has changed for %.1f s",
              (double)(rck_be_now_ns() - h->t0_ns) * 1e-9,
              (double)quiet_ns * 1e-9);
    for (uint32_t ue = 0; ue < h->nues; ue++) {
        int c = h->ue_core[ue], nc = 0, irq = 0;
        core_state_t *cs = &n->cores[c];
        uint32_t st = atomic_load(&cs->state);
        rck_hal_cond_t cond[NATIVE_DL_CONDS];
        char ctx[NATIVE_CTX_LEN + 32] = "", what[160];
        uint64_t since = 0;

        if (st == CORE_DORMANT)
            continue;
        if (st == CORE_DONE || st == CORE_FAILED) {
            rck_error("  core %d (UE %u) has %s", c, ue,
                      st == CORE_DONE ? "exited" : "failed");
            continue;
        }
        if (!dl_read(n, c, cond, &nc, &irq, &since))
            continue;
        char call[NATIVE_CTX_LEN + 1];
        memcpy(call, cs->ctx, NATIVE_CTX_LEN);
        call[NATIVE_CTX_LEN] = '\0';
        if (call[0])
            snprintf(ctx, sizeof(ctx), " in %s (peer %d)", call,
                     (int)atomic_load(&cs->ctx_peer));
        if (nc == 0) {
            snprintf(what, sizeof(what), "nothing but an interrupt");
        } else {
            const rck_hal_cond_t *w = &cond[0];
            char where[64], mask[32] = "";
            uint32_t now = atomic_load(word_at(n, w->space, w->core,
                                               w->offset));
            if (w->space == RCK_SPACE_SHM)
                snprintf(where, sizeof(where), "%s at offset 0x%x",
                         dl_space(w->space), w->offset);
            else if (w->space == RCK_SPACE_TAS)
                snprintf(where, sizeof(where), "%s of core %d",
                         dl_space(w->space), w->core);
            else
                snprintf(where, sizeof(where), "%s of core %d at 0x%x",
                         dl_space(w->space), w->core, w->offset);
            if (w->mask != 0xffffffffu)
                snprintf(mask, sizeof(mask), " & 0x%x", w->mask);
            snprintf(what, sizeof(what), "%s%s %s 0x%x (now 0x%x)", where,
                     mask, w->op == RCK_COND_EQ ? "==" : "!=", w->value, now);
        }
        rck_error("  core %d (UE %u)%s, waiting since %.3f s for %s%s%s", c,
                  ue, ctx, (double)since * 1e-9, what,
                  nc > 1 ? " or another of its words" : "",
                  irq && nc > 0 ? " or an interrupt" : "");
    }
    (void)hal;
}

/* Called by a sleeping core now and then: is the whole run stuck? On a
 * decision, report, stop every wait and @return 1. */
int native_dl_look(native_t *n, rck_hal_t *hal, uint64_t now)
{
    seg_hdr_t *h = n->hdr;
    uint64_t sum = atomic_load(&h->progress);
    int live = 0;

    for (uint32_t ue = 0; ue < h->nues; ue++) {
        int c = h->ue_core[ue], nc, irq;
        uint32_t st = atomic_load(&n->cores[c].state);
        rck_hal_cond_t cond[NATIVE_DL_CONDS];
        uint64_t since;

        sum += atomic_load_explicit(&n->cores[c].progress,
                                    memory_order_relaxed);
        if (st == CORE_DONE || st == CORE_FAILED || st == CORE_DORMANT)
            continue;
        live++;
        if (st != CORE_RUNNING || !dl_stuck(n, c, cond, &nc, &irq, &since)) {
            n->dl_seen = 0;
            return 0;
        }
    }
    if (live == 0)
        return 0;
    if (!n->dl_seen || sum != n->dl_sum) {
        n->dl_seen = 1;
        n->dl_sum = sum;
        n->dl_since = now;
        return 0;
    }
    if ((int64_t)(now - n->dl_since) < n->dl_ns)
        return 0;
    {
        int32_t none = 0;
        if (!atomic_compare_exchange_strong(&h->deadlock, &none, 1))
            return 1;
    }
    /* the waits stay published (and in place) until the report is out */
    dl_report(n, hal, now - n->dl_since);
    atomic_store(&h->deadlock, 2);
    wake_everyone(h);
    return 1;
}

