/*
 * The lazy-write queue (invariant 5 in sim_state.h): a core that is
 * not the earliest queues its plain writes (MPB writes and stores, TAS
 * releases) with their keys; whichever core holds the token applies them
 * when the global order reaches their keys.
 *
 * Owns: the per-UE pending queues in the segment and the minimum key
 * cache (sim_hdr_t.pend_*). May call: the waits (sim_notify) and the
 * memory helpers. Reached from the engine only through its hook
 * (sim_engine_set_lazy, registered by sim.c), from the memory model
 * (sim_pending_push) and from the HAL slots.
 */
#include "sim_lazy.h"
#include "sim_mem.h"
#include "sim_wait.h"

#include <string.h>

int sim_pending_first(sim_hdr_t *h, uint64_t *t, int *ue)
{
    uint64_t bt = SIM_INF;
    int best = -1;

    if (h->npending == 0)
        return 0;
    if (!h->pend_min_ok) {
        /* the UEs with queued writes, in UE order */
        for (uint32_t j = 0; j * 64 < h->nues; j++) {
            uint64_t bits = h->pend_ues[j];

            while (bits != 0) {
                int i = (int)(j * 64) + __builtin_ctzll(bits);

                bits &= bits - 1;
                if (h->pend_t[i] < bt) {
                    bt = h->pend_t[i];
                    best = i;
                }
            }
        }
        h->pend_min_t = bt;
        h->pend_min_ue = best;
        h->pend_min_ok = 1;
    }
    *t = h->pend_min_t;
    *ue = h->pend_min_ue;
    return h->pend_min_ue >= 0;
}

/* The effect of one queued write of UE @p ue, at its key. */
static void pending_do(sim_t *s, int ue, const sim_pw_t *w,
                       const unsigned char *data)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes, off = w->off, len = w->len;
    uint64_t when = w->t;

    if (w->kind == SIM_PW_TAS) {
        rck_cs_tas_free(&s->cs, w->core);
        s->cores[w->core].tas_vis = w->t + w->per;
        sim_notify(s, RCK_SPACE_TAS, w->core, 0, 4, w->t, ue);
        return;
    }
    memcpy(mpb_at(s, w->core, off), data, len);
    while (len > 0) {
        uint32_t lo = line_mod(s, off);
        uint32_t n = L - lo < len ? L - lo : len;
        uint64_t idx = (uint64_t)w->core * s->lines_per_mpb + line_div(s, off);
        when += w->per;
        s->vis[idx] = sim_max(s->vis[idx], when);
        off += n;
        len -= n;
    }
    /* this may wake the writer itself: it may have parked (lazily, on
     * memory without this write) on a word it wrote */
    sim_notify(s, RCK_SPACE_MPB, w->core, w->off, w->len, w->t, ue);
}

void sim_pending_apply(sim_t *s, uint64_t t, int ue)
{
    sim_hdr_t *h = s->hdr;
    uint64_t pt;
    int pu;

    while (sim_pending_first(h, &pt, &pu) &&
           (pt < t || (pt == t && pu <= ue))) {
        sim_pwq_t *q = sim_hdr_pwq(h, pu);
        sim_pw_t w = q->e[q->head % SIM_PW_SLOTS];

        pending_do(s, pu, &w, q->data + w.data);
        q->head++;
        q->dhead = w.dend;
        h->npending--;
        h->pend_t[pu] =
            q->head == q->tail ? SIM_INF : q->e[q->head % SIM_PW_SLOTS].t;
        if (q->head == q->tail)
            h->pend_ues[pu / 64] &= ~(1ull << (pu % 64));
        h->pend_min_ok = 0;
    }
}

/* Room in @p q for a write of @p len bytes; *skip: bytes to leave at the
 * end of the data ring so that the data is contiguous. */
int sim_pending_fits(const sim_pwq_t *q, uint32_t len, uint64_t *skip)
{
    uint64_t pos = q->dtail % SIM_PW_DATA;

    *skip = pos + len > SIM_PW_DATA ? SIM_PW_DATA - pos : 0;
    return q->tail - q->head < SIM_PW_SLOTS && len <= SIM_PW_DATA / 2 &&
           q->dtail + *skip + len - q->dhead <= SIM_PW_DATA;
}

/* Queue a write of this core at its current time (write_begin said it
 * fits). */
void sim_pending_push(sim_t *s, int kind, int core, uint32_t off,
                         const void *data, uint32_t len, uint64_t per)
{
    sim_hdr_t *h = s->hdr;
    sim_pwq_t *q = sim_hdr_pwq(h, s->ue);
    uint64_t skip;
    sim_pw_t *w;

    sim_pending_fits(q, len, &skip);
    q->dtail += skip;
    w = &q->e[q->tail % SIM_PW_SLOTS];
    w->t = s->me->vt;
    w->per = per;
    w->kind = kind;
    w->core = core;
    w->off = off;
    w->len = len;
    w->data = (uint32_t)(q->dtail % SIM_PW_DATA);
    if (len > 0)
        memcpy(q->data + w->data, data, len);
    q->dtail += len;
    w->dend = q->dtail;
    if (q->head == q->tail) {
        h->pend_t[s->ue] = w->t;
        h->pend_ues[s->ue / 64] |= 1ull << (s->ue % 64);
        if (h->npending == 0) {
            h->pend_min_t = w->t;
            h->pend_min_ue = s->ue;
            h->pend_min_ok = 1;
        } else if (h->pend_min_ok &&
                   sim_before(w->t, s->ue, h->pend_min_t, h->pend_min_ue)) {
            h->pend_min_t = w->t;
            h->pend_min_ue = s->ue;
        }
    }
    q->tail++;
    h->npending++;
    h->lazy_writes++;
}
