/*
 * native_watch.c: which doorbell a native wait sleeps on, and the
 * shared-DRAM watch: a wait on shared-DRAM words names them, so a write
 * wakes only the cores that watch a word it wrote. See the top of native.c.
 */
#include "native_internal.h"
#include "common/backend.h"

#include <stdatomic.h>
#include <stdint.h>

/* The doorbell a wait can sleep on: this core's own when every condition
 * is a word of its own MPB or its own TAS register, else the segment-wide
 * one. Interrupts ring both, so either kind of sleep sees them. */
void rck__nat_wait_doorbell(native_t *n, const rck_hal_cond_t *c, int nc,
                          int self, _Atomic uint32_t **bell,
                          _Atomic uint32_t **waiters)
{
    for (int i = 0; i < nc; i++) {
        if (c[i].space != RCK_SPACE_SHM && c[i].core != self) {
            *bell = &n->hdr->any_doorbell;
            *waiters = &n->hdr->any_waiters;
            return;
        }
    }
    *bell = &n->cores[self].doorbell;
    *waiters = &n->cores[self].waiters;
}

int rck__nat_wait_has_shm(const rck_hal_cond_t *c, int nc)
{
    for (int i = 0; i < nc; i++) {
        if (c[i].space == RCK_SPACE_SHM)
            return 1;
    }
    return 0;
}

/* Name this core's shared-DRAM words to the writers (before it counts
 * itself in as a sleeper: see the top). The words are written while
 * shm_watch is 0; a writer that sees shm_watchers count this watch sees
 * them (the increment is a release after them). */
void rck__nat_shm_watch_begin(native_t *n, int self, const rck_hal_cond_t *c,
                            int nc)
{
    core_state_t *cs = &n->cores[self];
    uint64_t lo = UINT64_MAX, hi = 0;
    uint32_t k = 0;

    for (int i = 0; i < nc; i++) {
        uint32_t off = c[i].offset;
        int dup = 0;

        if (c[i].space != RCK_SPACE_SHM)
            continue;
        if (off < lo)
            lo = off;
        if ((uint64_t)off + 4 > hi)
            hi = (uint64_t)off + 4;
        for (uint32_t j = 0; j < k && j < NATIVE_WATCH_WORDS; j++)
            dup |= atomic_load_explicit(&cs->shm_words[j],
                                        memory_order_relaxed) == off;
        if (dup)
            continue;
        if (k < NATIVE_WATCH_WORDS)
            atomic_store_explicit(&cs->shm_words[k], off,
                                  memory_order_relaxed);
        k++;
    }
    atomic_store_explicit(&cs->shm_lo, lo, memory_order_relaxed);
    atomic_store_explicit(&cs->shm_hi, hi, memory_order_relaxed);
    atomic_store_explicit(&cs->shm_nwords, k <= NATIVE_WATCH_WORDS ? k : 0,
                          memory_order_relaxed);
    atomic_store(&cs->shm_watch, 1);
    atomic_fetch_add(&n->hdr->shm_watchers, 1);
}

void rck__nat_shm_watch_end(native_t *n, int self)
{
    atomic_fetch_sub(&n->hdr->shm_watchers, 1);
    atomic_store(&n->cores[self].shm_watch, 0);
}

/* Does core @p c watch a word of [off, off + len)? */
static int rck__nat_shm_watched(const core_state_t *cs, uint64_t off, uint64_t len)
{
    uint64_t end = off + len;
    uint32_t nw;

    if (!atomic_load(&cs->shm_watch))
        return 0;
    if (end <= atomic_load_explicit(&cs->shm_lo, memory_order_relaxed) ||
        off >= atomic_load_explicit(&cs->shm_hi, memory_order_relaxed))
        return 0;
    nw = atomic_load_explicit(&cs->shm_nwords, memory_order_relaxed);
    if (nw == 0 || nw > NATIVE_WATCH_WORDS)
        return 1;
    for (uint32_t j = 0; j < nw; j++) {
        uint64_t w = atomic_load_explicit(&cs->shm_words[j],
                                          memory_order_relaxed);
        if (w < end && w + 4 > off)
            return 1;
    }
    return 0;
}

/* Shared DRAM [off, off + len) was written (after the protocol's fence):
 * wake the cores that watch a word of it, and the segment-wide doorbell's
 * sleepers. The acquire load of shm_watchers makes the words of every
 * watch it counts visible. */
__attribute__((noinline)) void rck__nat_shm_ring(native_t *n, uint64_t off,
                                               uint64_t len)
{
    if (atomic_load(&n->hdr->shm_watchers) > 0) {
        int k = 0;

        for (uint32_t ue = 0; ue < n->hdr->nues; ue++) {
            core_state_t *cs = &n->cores[n->hdr->ue_core[ue]];
            if (rck__nat_shm_watched(cs, off, len))
                k += rck_be_bell_wake(&cs->doorbell);
        }
        woke(n, k);
    }
    woke(n, rck_be_bell_ring(&n->hdr->any_waiters, &n->hdr->any_doorbell));
}
