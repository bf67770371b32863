/*
 * The P54C model's booking (src/backends/sim/sim_p54c_book.c), which
 * books runs of like entries at once, against a plain booker written
 * here that books every ring entry and every lost entry one transaction
 * at a time (the booking before runs, docs/P54C.md "Booking in runs"),
 * on its own copy of the slot, the port and the controllers. Random
 * slices with long runs (fills, write-arounds, uncached and MPBT reads,
 * write-backs, WCB lines; equal and varying stamp spacing; lost entries
 * by the thousand), one core alone or other cores' clocks and intervals
 * in the way, a lookahead, limits that stop the booking and a new limit
 * for each next step, the chip's clock or another: after every step the
 * two must agree on everything the booking writes (stop, wait, counts,
 * routes, the slot's cursors and figures, the port, every controller's
 * intervals and counts). The runs must actually be taken (the booker
 * under test calls sim_mc_reserve far fewer times than it books
 * transactions: the calls are counted through the linker's --wrap), and a
 * planted difference (one lost entry more on one side) must be caught.
 */
#include "sim_p54c_types.h"
#include "sim_mc.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

uint64_t __real_sim_mc_reserve(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                               uint64_t floor);
uint64_t __wrap_sim_mc_reserve(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                               uint64_t floor);

static long reserve_calls;

uint64_t __wrap_sim_mc_reserve(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                               uint64_t floor)
{
    reserve_calls++;
    return __real_sim_mc_reserve(mc, arrive, dur, floor);
}

#define NMC 4

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* ---- the plain booker: one transaction at a time ---- */

static uint64_t ref_ticks(const sim_p54c_book_t *b, uint64_t u)
{
    double cycles = (double)u / P54C_FIX;

    if (b->exact)
        return u * (SIM_TICKS / P54C_FIX);
    if (b->mhz <= 0 || b->mhz == b->core_mhz)
        return sim_ticks(cycles);
    return sim_ticks(cycles * b->core_mhz / b->mhz);
}

static uint64_t ref_tx(sim_p54c_book_t *b, int mc, sim_tx_t kind, uint64_t t)
{
    sim_p54c_port_t *p = b->port;
    sim_mc_t *m = b->mcs != NULL ? &((sim_mc_t *)b->mcs)[mc] : NULL;
    const sim_tx_cost_t *k = &p->cost[mc].k[kind];
    int write = kind == SIM_TX_DW_WRITE || kind == SIM_TX_LINE_WRITE;
    uint64_t bytes = kind == SIM_TX_LINE_WRITE || kind == SIM_TX_LINE_READ
                         ? b->line_bytes
                         : 4;
    uint64_t floor = sim_min(t, b->others), start, served, done;

    floor = floor > b->lookahead ? floor - b->lookahead : 0;
    start = write ? sim_max(t, sim_max(p->wr_next, p->wr_done))
                  : sim_max(t, p->rd_next);
    served = __real_sim_mc_reserve(m, start + k->before + k->one_way, k->mem,
                                   floor);
    done = served + k->mem + k->one_way;
    if (write) {
        p->wr_next = start + k->interval;
        p->wr_done = done;
    } else {
        p->rd_next = start + k->interval;
    }
    b->route[mc][0]++;
    b->route[mc][1] += write ? bytes : 4;
    b->route[mc][2] += write ? 4 : bytes;
    b->tx++;
    b->slot->dram_tx[mc]++;
    return done;
}

static uint64_t ref_entry(sim_p54c_book_t *b, int kind, int mc, uint64_t t)
{
    uint64_t done = t;

    switch (kind) {
    case P54C_TX_FILL: {
        uint64_t inflight[2] = {t, t};
        for (uint32_t d = 0; d < b->line_bytes / 4; d++) {
            uint64_t ready = sim_max(t, inflight[d % 2]);
            inflight[d % 2] = ref_tx(b, mc, SIM_TX_DW_READ, ready);
            done = sim_max(done, inflight[d % 2]);
        }
        break;
    }
    case P54C_TX_LINE_READ:
        done = ref_tx(b, mc, SIM_TX_LINE_READ, t);
        break;
    case P54C_TX_UC_READ:
        b->uc_reads++;
        done = ref_tx(b, mc, SIM_TX_DW_READ, t);
        break;
    case P54C_TX_WRITE:
        done = ref_tx(b, mc, SIM_TX_DW_WRITE, t);
        break;
    case P54C_TX_WB:
        ref_tx(b, mc, SIM_TX_LINE_WRITE, t);
        return 0;
    case P54C_TX_WCB: {
        const sim_p54c_port_t *p = b->port;
        uint64_t start = sim_max(t, sim_max(p->wr_next, p->wr_done));
        ref_tx(b, mc, SIM_TX_LINE_WRITE, t);
        return start - t;
    }
    default:
        return 0;
    }
    return done > t ? done - t : 0;
}

static int ref_may(const sim_p54c_book_t *b, uint64_t t)
{
    return t < b->limit || (t == b->limit && b->tie_ok);
}

static void ref_book(sim_p54c_book_t *b)
{
    p54c_slot_t *slot = b->slot;
    uint64_t whole = b->units / P54C_FIX * P54C_FIX;

    b->stopped = 0;
    for (uint64_t i = slot->tail; i < b->head; i++) {
        uint64_t e = slot->ring[i % P54C_RING];
        uint64_t u = e >> 16, w, t;
        int kind = (int)((e >> 8) & 0xff), mc = (int)(e & 0xff);
        u = u > b->mark ? u - b->mark : 0;
        if (u > whole)
            u = whole;
        if (mc >= (int)b->nmc)
            mc = 0;
        t = b->vt0 + ref_ticks(b, u) + b->wait;
        if (!ref_may(b, t)) {
            slot->tail = i;
            b->stopped = 1;
            b->stop_t = t;
            return;
        }
        w = ref_entry(b, kind, mc, t);
        b->wait += w;
        slot->dram_ticks[mc] += w;
    }
    slot->tail = b->head;
    for (int k = 0; k < P54C_TX_NKIND; k++) {
        for (int mc = 0; mc < P54C_MAX_MC && mc < (int)b->nmc; mc++) {
            while (slot->lost[k][mc] > 0) {
                uint64_t t = b->vt0 + ref_ticks(b, whole) + b->wait, w;
                if (!ref_may(b, t)) {
                    b->stopped = 1;
                    b->stop_t = t;
                    return;
                }
                w = ref_entry(b, k, mc, t);
                slot->lost[k][mc]--;
                b->wait += w;
                slot->dram_ticks[mc] += w;
            }
        }
    }
}

/* ---- one side: its slot, port, controllers and booking ---- */

typedef struct {
    p54c_slot_t *slot;
    sim_p54c_port_t port;
    sim_mc_t *mcs;
    sim_p54c_book_t b;
} side_t;

static side_t *side_new(void)
{
    side_t *s = calloc(1, sizeof(*s));

    s->slot = calloc(1, sizeof(*s->slot));
    s->mcs = calloc(NMC, sizeof(sim_mc_t));
    return s;
}

static void side_free(side_t *s)
{
    free(s->slot);
    free(s->mcs);
    free(s);
}

/* The same in every detail: a copy of @p a's state into @p c. */
static void side_copy(side_t *c, const side_t *a)
{
    memcpy(c->slot, a->slot, sizeof(*a->slot));
    memcpy(c->mcs, a->mcs, NMC * sizeof(sim_mc_t));
    c->port = a->port;
    c->b = a->b;
    c->b.slot = c->slot;
    c->b.port = &c->port;
    c->b.mcs = c->mcs;
}

static int mc_same(const sim_mc_t *x, const sim_mc_t *y)
{
    sim_iv_t *vx = malloc((x->n + 1) * sizeof(sim_iv_t));
    sim_iv_t *vy = malloc((y->n + 1) * sizeof(sim_iv_t));
    int same = x->n == y->n && x->accesses == y->accesses &&
               x->queued == y->queued && x->forgot == y->forgot;

    if (same) {
        uint32_t nfx = x->gap - x->lo, nfy = y->gap - y->lo;
        memcpy(vx, &x->iv[x->lo], nfx * sizeof(sim_iv_t));
        memcpy(vx + nfx, &x->iv[SIM_MC_NODES - x->nb],
               x->nb * sizeof(sim_iv_t));
        memcpy(vy, &y->iv[y->lo], nfy * sizeof(sim_iv_t));
        memcpy(vy + nfy, &y->iv[SIM_MC_NODES - y->nb],
               y->nb * sizeof(sim_iv_t));
        same = memcmp(vx, vy, x->n * sizeof(sim_iv_t)) == 0;
    }
    free(vx);
    free(vy);
    return same;
}

static int sides_same(const side_t *x, const side_t *y)
{
    const sim_p54c_book_t *a = &x->b, *b = &y->b;

    if (a->stopped != b->stopped || (a->stopped && a->stop_t != b->stop_t) ||
        a->wait != b->wait || a->tx != b->tx || a->uc_reads != b->uc_reads ||
        memcmp(a->route, b->route, sizeof(a->route)) != 0)
        return 0;
    if (x->slot->tail != y->slot->tail ||
        memcmp(x->slot->lost, y->slot->lost, sizeof(x->slot->lost)) != 0 ||
        memcmp(x->slot->dram_tx, y->slot->dram_tx,
               sizeof(x->slot->dram_tx)) != 0 ||
        memcmp(x->slot->dram_ticks, y->slot->dram_ticks,
               sizeof(x->slot->dram_ticks)) != 0)
        return 0;
    if (x->port.rd_next != y->port.rd_next ||
        x->port.wr_next != y->port.wr_next ||
        x->port.wr_done != y->port.wr_done)
        return 0;
    for (int m = 0; m < NMC; m++)
        if (!mc_same(&x->mcs[m], &y->mcs[m]))
            return 0;
    return 1;
}

/* Costs as sim_cost_tx gives them, in ticks (about 65536 a cycle), or
 * with @p slow_port a write port slower than a write-back's round trip. */
static void costs(sim_p54c_port_t *p, uint64_t *x, int slow_port)
{
    for (int mc = 0; mc < NMC; mc++) {
        for (int k = 0; k < 4; k++) {
            sim_tx_cost_t *c = &p->cost[mc].k[k];
            c->before = (3 + rnd(x) % 8) * 65536;
            c->one_way = (4 + rnd(x) % 12) * 65536 + rnd(x) % 65536;
            c->mem = (20 + rnd(x) % 20) * 65536 + rnd(x) % 1000;
            c->interval = slow_port && k == SIM_TX_LINE_WRITE
                              ? 200 * 65536
                              : (rnd(x) % 30) * 65536;
        }
        p->cost[mc].fdiv1 = 1;
    }
}

/* A slice's ring: runs of one kind on one controller, spaced evenly or
 * not, a few stamps past the slice's end, a few controllers out of
 * range. @return the slice's length in units. */
static uint64_t fill_ring(p54c_slot_t *s, uint64_t mark, uint64_t n,
                          uint64_t *x)
{
    uint64_t u = mark + 100;

    s->tail = 0;
    s->head = 0;
    while (s->head < n) {
        int kind = (int)(rnd(x) % P54C_TX_NKIND);
        int mc = (int)(rnd(x) % (NMC + 1)); /* NMC: out of range */
        uint64_t len = 1 + rnd(x) % (rnd(x) % 4 == 0 ? 400 : 12);
        uint64_t step = rnd(x) % 3 == 0 ? 0 : rnd(x) % 200;
        int even = rnd(x) % 4 != 0;
        for (uint64_t i = 0; i < len && s->head < n; i++) {
            s->ring[s->head % P54C_RING] =
                (u << 16) | ((uint64_t)kind << 8) | (uint64_t)mc;
            s->head++;
            u += even ? step : rnd(x) % 200;
        }
    }
    return u - mark - rnd(x) % 50; /* the last stamps may pass the end */
}

/* One scenario: the same slice booked by both, step by step (a new limit
 * at every stop, as the engine gives one when the core's turn comes).
 * @p others_mode: 0 one core, 1 other cores far ahead, 2 other cores in
 * the way (their clock inside the slice, intervals booked).
 * @return 1 if they agreed throughout. */
static int scenario(uint64_t seed, int others_mode, int limits, int planted)
{
    uint64_t x = seed, n = 1 + rnd(&x) % P54C_RING;
    side_t *a = side_new(), *r = side_new();
    int ok = 1, steps = 0;

    costs(&a->port, &x, rnd(&x) % 5 == 0);
    a->port.rd_next = rnd(&x) % 100000;
    a->port.wr_next = rnd(&x) % 100000;
    a->port.wr_done = rnd(&x) % 100000;
    a->b.slot = a->slot;
    a->b.port = &a->port;
    a->b.mcs = a->mcs;
    a->b.mark = 1000 + rnd(&x) % 1000;
    a->b.vt0 = ((uint64_t)1 << 30) + rnd(&x) % 100000;
    a->b.units = fill_ring(a->slot, a->b.mark, n, &x);
    a->b.head = a->slot->head;
    a->b.nmc = NMC;
    a->b.line_bytes = 32;
    a->b.exact = rnd(&x) % 4 != 0;
    a->b.core_mhz = 533;
    a->b.mhz = a->b.exact ? 533 : (rnd(&x) % 2 ? 533 : 400);
    a->b.lookahead = rnd(&x) % 3 == 0 ? rnd(&x) % 5000000 : 0;
    a->b.others = others_mode == 0   ? UINT64_MAX
                  : others_mode == 1 ? ((uint64_t)1 << 58)
                                     : a->b.vt0 + rnd(&x) % 300000000;
    for (int k = 0; k < P54C_TX_NKIND; k++)
        for (int m = 0; m < NMC; m++)
            a->slot->lost[k][m] =
                rnd(&x) % 3 == 0 ? rnd(&x) % 6000 : 0;
    if (others_mode == 2) {
        /* other cores' bookings ahead and around */
        for (int i = 0; i < 400; i++) {
            int m = (int)(rnd(&x) % NMC);
            uint64_t at = a->b.vt0 + rnd(&x) % 4000000000ull;
            __real_sim_mc_reserve(&a->mcs[m], at, 20 * 65536, 0);
        }
    }
    a->b.limit = UINT64_MAX;
    a->b.tie_ok = 1;
    side_copy(r, a);
    if (planted)
        r->slot->lost[P54C_TX_WRITE][1]++;
    for (;;) {
        if (limits) {
            uint64_t lim = a->b.vt0 + a->b.wait +
                           rnd(&x) % ((uint64_t)1 << (20 + rnd(&x) % 14));
            a->b.limit = r->b.limit = lim;
            a->b.tie_ok = r->b.tie_ok = (int)(rnd(&x) % 2);
        }
        sim_p54c_book(&a->b);
        ref_book(&r->b);
        ok &= sides_same(a, r);
        if (!ok || !a->b.stopped || ++steps > 100000)
            break;
    }
    if (a->b.stopped) {
        /* the rest in one go */
        a->b.limit = r->b.limit = UINT64_MAX;
        sim_p54c_book(&a->b);
        ref_book(&r->b);
        ok &= sides_same(a, r);
    }
    side_free(a);
    side_free(r);
    return ok;
}

/* One core's DRAM-bound slice whose ring overflowed: the runs are taken
 * (far fewer controller calls than transactions) and give the plain
 * booker's answer. */
static void runs_taken(void)
{
    side_t *a = side_new(), *r = side_new();
    uint64_t x = 77, tx;
    long calls;

    costs(&a->port, &x, 0);
    a->b = (sim_p54c_book_t){.slot = a->slot, .port = &a->port,
                             .mcs = a->mcs, .vt0 = 1u << 20,
                             .units = 1000 * P54C_FIX, .nmc = NMC,
                             .line_bytes = 32, .exact = 1, .core_mhz = 533,
                             .mhz = 533, .limit = UINT64_MAX, .tie_ok = 1,
                             .others = UINT64_MAX};
    a->slot->lost[P54C_TX_FILL][0] = 200000;
    a->slot->lost[P54C_TX_WRITE][0] = 300000;
    a->slot->lost[P54C_TX_WB][0] = 100000;
    a->slot->lost[P54C_TX_UC_READ][2] = 50000;
    side_copy(r, a);
    reserve_calls = 0;
    sim_p54c_book(&a->b);
    calls = reserve_calls;
    ref_book(&r->b);
    tx = r->b.tx;
    CHECK(sides_same(a, r));
    CHECK(tx == 200000 * 8 + 300000 + 100000 + 50000);
    CHECK(calls < 1000);
    side_free(a);
    side_free(r);
}

int main(void)
{
    int bad = 0, planted_caught = 0;

    runs_taken();
    for (uint64_t i = 1; i <= 60; i++) {
        int mode = (int)(i % 3);
        bad += !scenario(0x9e3779b97f4a7c15ull * i, mode, 0, 0);
        bad += !scenario(0x2545f4914f6cdd1dull * i, mode, 1, 0);
    }
    CHECK(bad == 0);
    /* planted: one lost write-around more on the plain side */
    for (uint64_t i = 1; i <= 6; i++)
        planted_caught += !scenario(0x9e3779b97f4a7c15ull * i, 0, 0, 1);
    CHECK(planted_caught == 6);
    if (failures == 0)
        printf("test_sim_mc_book: ok\n");
    return failures != 0;
}
