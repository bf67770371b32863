/*
 * rck_chan notification: the id ring and the two-level tree in the
 * receiver's MPB, the pin interrupt, polling, and rck_chan_dispatch. The
 * locking protocol is stated at the top of chan_internal.h.
 */
#include "chan_internal.h"

#include <stdlib.h>
#include <string.h>

void rck__chan_irq(rck_hal_t *hal, rck_irq_kind_t kind, int sender,
                   void *arg)
{
    chan_core_t *c = &rck__chan;

    /* Interrupt context: only note it; rck_chan_dispatch (or a library
     * wait) drains the MPB under the lock, which a handler may not wait
     * for. */
    (void)hal;
    (void)kind;
    (void)sender;
    (void)arg;
    c->irq_flag = 1;
    c->stats.interrupts++;
}

/* ---- sender side ---- */

int rck__chan_ring_full(chan_core_t *c, chan_t *ch, uint32_t *tail)
{
    uint32_t h[2];

    rck_hal_cl1invmb(c->hal);
    if (rck_hal_mpb_read(c->hal, ch->peer_core, c->mpb_off, h, sizeof(h)) !=
        RCK_OK)
        return 0; /* the locked path reports it */
    if (h[MPB_HEAD / 4] - h[MPB_TAIL / 4] < c->attr.ring_slots)
        return 0;
    if (tail != NULL)
        *tail = h[MPB_TAIL / 4];
    return 1;
}

rck_status_t rck__chan_notify_locked(chan_core_t *c, chan_t *ch,
                                     int overflow_ok, int *raise,
                                     uint32_t *tail)
{
    rck_hal_t *hal = c->hal;
    int core = ch->peer_core;
    uint32_t h[5], base = c->mpb_off;
    rck_status_t st;

    *raise = 0;
    rck_hal_cl1invmb(hal);
    st = rck_hal_mpb_read(hal, core, base, h, sizeof(h));
    if (st != RCK_OK)
        return st;
    if (ch->out_kind == RCK_CHAN_NOTIFY_RING) {
        uint32_t head = h[MPB_HEAD / 4], t = h[MPB_TAIL / 4];

        if (head - t >= c->attr.ring_slots) {
            if (!overflow_ok) {
                if (tail != NULL)
                    *tail = t;
                return RCK_ERR_BUSY;
            }
            /* the receiver rescans every channel */
            st = rck_hal_mpb_store32(hal, core, base + MPB_OVERFLOW, 1);
        } else {
            uint16_t id = ch->peer_id;
            st = rck_hal_mpb_write(hal, core,
                                   base + MPB_RING +
                                       (head % c->attr.ring_slots) * 2,
                                   &id, sizeof(id));
            if (st == RCK_OK)
                st = rck_hal_mpb_store32(hal, core, base + MPB_HEAD, head + 1);
        }
    } else {
        uint32_t bit = ch->peer_id % (32 * c->attr.tree_words);
        uint32_t w = bit / 32, off = c->tree_off + 4 * w, v;

        st = rck_hal_mpb_load32(hal, core, off, &v);
        if (st == RCK_OK && !(v & (1u << (bit % 32))))
            st = rck_hal_mpb_store32(hal, core, off, v | (1u << (bit % 32)));
        if (st == RCK_OK && !(h[MPB_TOP / 4] & (1u << w)))
            st = rck_hal_mpb_store32(hal, core, base + MPB_TOP,
                                     h[MPB_TOP / 4] | (1u << w));
    }
    if (st == RCK_OK && h[MPB_PENDING / 4] == 0) {
        st = rck_hal_mpb_store32(hal, core, base + MPB_PENDING, 1);
        *raise = 1;
    }
    rck_hal_wcb_flush(hal);
    if (st == RCK_OK)
        c->stats.notifies++;
    return st;
}

/* ---- receiver side ---- */

void rck__chan_ready_add(chan_core_t *c, uint32_t id)
{
    if (c->ready_bits[id / 8] & (1u << (id % 8)))
        return;
    c->ready_bits[id / 8] |= (uint8_t)(1u << (id % 8));
    c->ready_q[(c->ready_head + c->ready_n) % RCK_CHAN_MAX_CHANNELS] =
        (uint16_t)id;
    c->ready_n++;
}

static int ready_pop(chan_core_t *c, uint32_t *id)
{
    if (c->ready_n == 0)
        return 0;
    *id = c->ready_q[c->ready_head];
    c->ready_head = (c->ready_head + 1) % RCK_CHAN_MAX_CHANNELS;
    c->ready_n--;
    c->ready_bits[*id / 8] &= (uint8_t) ~(1u << (*id % 8));
    return 1;
}

void rck__chan_polled_add(chan_core_t *c, chan_t *ch, uint32_t id)
{
    if (c->npolled == c->polled_cap) {
        uint32_t cap = c->polled_cap ? 2 * c->polled_cap : 64;
        uint16_t *n = realloc(c->polled, cap * sizeof(*c->polled));
        if (n == NULL) {
            rck_warn("rck_chan_open: out of memory for the polled list; "
                     "channel %u is found by notification only",
                     id);
            return;
        }
        c->polled = n;
        c->polled_cap = cap;
    }
    ch->polled_idx = c->npolled;
    ch->polled_idx_set = 1;
    c->polled[c->npolled++] = (uint16_t)id;
}

void rck__chan_polled_remove(chan_core_t *c, chan_t *ch)
{
    uint32_t i = ch->polled_idx;

    if (!ch->polled_idx_set)
        return;
    ch->polled_idx_set = 0;
    c->npolled--;
    if (i != c->npolled) {
        chan_t *moved;
        c->polled[i] = c->polled[c->npolled];
        moved = rck__chan_by_id(c, c->polled[i]);
        if (moved != NULL)
            moved->polled_idx = i;
    }
}

/* Every open channel notified the way of @p kind (0: any) is ready. */
static void ready_all(chan_core_t *c, int kind, uint32_t from, uint32_t step)
{
    for (uint32_t id = from; id < c->next_id; id += step) {
        chan_t *ch = rck__chan_by_id(c, id);
        if (ch != NULL && ch->state == CH_OPEN &&
            (kind == 0 || ch->in_kind == kind))
            rck__chan_ready_add(c, id);
    }
}

rck_status_t rck__chan_drain(chan_core_t *c)
{
    rck_hal_t *hal = c->hal;
    uint32_t base = c->mpb_off, h[5], clear[4] = {0, 0, 0, 0};
    uint32_t tree[CHAN_TREE_WORDS_MAX];
    uint16_t ids[CHAN_RING_SLOTS_MAX];
    uint32_t nids = 0, slots = c->attr.ring_slots;
    rck_status_t st;

    rck_hal_cl1invmb(hal);
    st = rck_hal_mpb_read(hal, hal->core, base, h, sizeof(h));
    if (st != RCK_OK)
        return st;
    if (h[MPB_HEAD / 4] == h[MPB_TAIL / 4] && h[MPB_PENDING / 4] == 0 &&
        h[MPB_OVERFLOW / 4] == 0 && h[MPB_TOP / 4] == 0)
        return RCK_OK;

    st = rck_hal_tas_acquire(hal, hal->core);
    if (st != RCK_OK)
        return st;
    rck_hal_cl1invmb(hal);
    st = rck_hal_mpb_read(hal, hal->core, base, h, sizeof(h));
    if (st == RCK_OK && slots > 0) {
        uint32_t head = h[MPB_HEAD / 4], tail = h[MPB_TAIL / 4];
        uint32_t from = tail % slots, first;

        nids = head - tail > slots ? slots : head - tail;
        first = slots - from < nids ? slots - from : nids;
        if (nids > 0)
            st = rck_hal_mpb_read(hal, hal->core, base + MPB_RING + from * 2,
                                  ids, first * 2);
        if (st == RCK_OK && first < nids)
            st = rck_hal_mpb_read(hal, hal->core, base + MPB_RING,
                                  ids + first, (nids - first) * 2);
        clear[0] = head; /* TAIL = HEAD */
    }
    memset(tree, 0, sizeof(tree));
    for (uint32_t w = 0; st == RCK_OK && w < c->attr.tree_words; w++) {
        if (!(h[MPB_TOP / 4] & (1u << w)))
            continue;
        st = rck_hal_mpb_load32(hal, hal->core, c->tree_off + 4 * w,
                                &tree[w]);
        if (st == RCK_OK && tree[w] != 0)
            st = rck_hal_mpb_store32(hal, hal->core, c->tree_off + 4 * w, 0);
    }
    /* TAIL, PENDING, OVERFLOW and TOP in one write */
    if (st == RCK_OK)
        st = rck_hal_mpb_write(hal, hal->core, base + MPB_TAIL, clear,
                               sizeof(clear));
    rck_hal_wcb_flush(hal);
    rck_hal_tas_release(hal, hal->core);
    if (st != RCK_OK)
        return st;

    for (uint32_t i = 0; i < nids; i++)
        rck__chan_ready_add(c, ids[i]);
    for (uint32_t w = 0; w < c->attr.tree_words; w++) {
        for (uint32_t b = 0; tree[w] != 0 && b < 32; b++) {
            if (tree[w] & (1u << b))
                ready_all(c, RCK_CHAN_NOTIFY_TREE, 32 * w + b,
                          32 * c->attr.tree_words);
        }
    }
    if (h[MPB_OVERFLOW / 4] != 0)
        ready_all(c, 0, 0, 1);
    c->stats.drains++;
    return RCK_OK;
}

void rck__chan_drain_if_busy(chan_core_t *c)
{
    rck_hal_t *hal = c->hal;
    uint32_t h[2];

    if (c->nnotified == 0 || c->attr.ring_slots == 0)
        return;
    rck_hal_cl1invmb(hal);
    if (rck_hal_mpb_read(hal, hal->core, c->mpb_off, h, sizeof(h)) != RCK_OK)
        return;
    if (h[0] - h[1] >= c->attr.ring_slots / 2)
        rck__chan_drain(c);
}

/* ---- dispatch ---- */

/* Handle the channels ready now (each once). @return how many handlers
 * ran; *ready gets the first ready channel without a handler (and the
 * round stops there). */
static int ready_process(chan_core_t *c, rck_chan_t *ready)
{
    uint32_t todo = c->ready_n, id;
    int handled = 0;

    while (todo-- > 0 && ready_pop(c, &id)) {
        chan_t *ch = rck__chan_by_id(c, id);
        rck_chan_t h;

        if (ch == NULL || ch->state != CH_OPEN || !rck__chan_has_msg(c, ch))
            continue;
        h = rck__chan_handle(ch, id);
        /* level-triggered: look at it again next time */
        rck__chan_ready_add(c, id);
        if (ch->handler != NULL) {
            ch->handler(h, ch->arg);
            handled++;
        } else {
            *ready = h;
            break;
        }
    }
    return handled;
}

rck_status_t rck_chan_dispatch(int64_t timeout_ns, rck_chan_t *ready)
{
    chan_core_t *c = &rck__chan;
    rck_hal_cond_t k[CHAN_WAIT_MAX];
    rck_chan_t got = RCK_CHAN_NONE;
    double deadline;
    rck_status_t st = rck__chan_ready_check(c, "rck_chan_dispatch");

    if (st != RCK_OK)
        return st;
    if (ready != NULL)
        *ready = RCK_CHAN_NONE;
    if (c->nopen == 0) {
        rck_error("rck_chan_dispatch: no channel is open on this UE");
        return RCK_ERR_STATE;
    }
    deadline = timeout_ns < 0 ? -1.0
                              : rck__chan_now(c) + (double)timeout_ns * 1e-9;
    for (;;) {
        int handled, nk = 0;
        unsigned flags = 0;
        int64_t left;

        c->irq_flag = 0;
        if (c->mpb_bytes > 0) {
            st = rck__chan_drain(c);
            if (st != RCK_OK)
                return st;
        }
        for (uint32_t i = 0; i < c->npolled; i++) {
            chan_t *ch = rck__chan_by_id(c, c->polled[i]);
            if (ch != NULL && rck__chan_has_msg(c, ch))
                rck__chan_ready_add(c, c->polled[i]);
        }
        handled = ready_process(c, &got);
        if (got != RCK_CHAN_NONE && ready == NULL) {
            rck_error("rck_chan_dispatch: channel 0x%x has a message and no "
                      "handler, and there is no place to return it (NULL "
                      "ready)",
                      got);
            return RCK_ERR_INVALID;
        }
        if (handled > 0 || got != RCK_CHAN_NONE) {
            if (ready != NULL)
                *ready = got;
            return RCK_OK;
        }
        /* an interrupt taken since the drain began: drain again */
        if (c->irq_flag)
            continue;
        left = rck__chan_left(c, deadline);
        if (left == 0)
            return RCK_ERR_TIMEDOUT;
        for (uint32_t i = 0; i < c->npolled && nk < CHAN_WAIT_MAX; i++) {
            chan_t *ch = rck__chan_by_id(c, c->polled[i]);
            uint32_t line = ch->in_blk + BLK_RING +
                            (ch->rx_count % ch->in_lines) * CHAN_LINE;
            k[nk].space = RCK_SPACE_SHM;
            k[nk].core = 0;
            k[nk].offset = (uint32_t)rck__chan_shm(c, line + CHAN_SEQ_OFF);
            k[nk].mask = ~0u;
            k[nk].value = ch->rx_count + 1;
            k[nk].op = RCK_COND_EQ;
            nk++;
        }
        if (c->npolled > CHAN_WAIT_MAX &&
            (left < 0 || left > CHAN_POLL_RESCAN_NS))
            left = CHAN_POLL_RESCAN_NS;
        if (c->nnotified > 0)
            flags |= RCK_WAIT_IRQ;
        c->stats.dispatch_waits++;
        rck_hal_set_context(c->hal, "rck_chan_dispatch", -1);
        st = rck_hal_wait(c->hal, k, nk, flags, left, NULL);
        rck_hal_set_context(c->hal, NULL, -1);
        if (st != RCK_OK && st != RCK_INTERRUPTED && st != RCK_ERR_TIMEDOUT)
            return st;
    }
}
