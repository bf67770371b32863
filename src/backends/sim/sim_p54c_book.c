/*
 * The P54C model's DRAM transactions, booked (docs/P54C.md, "DRAM
 * transactions"): at a HAL call, every ring entry the plugin wrote during
 * the compute slice becomes transactions on its memory controller, issued
 * at the slice's start + the entry's cycle stamp + the stalls before it.
 *
 * Runs (docs/P54C.md, "Booking in runs"): a booking is the same whenever
 * it starts, moved (every time it reads and writes is a sum or a maximum
 * of times and constants; the floor is the issue time less a constant
 * while no other core holds it back). So when two entries in a row of one
 * kind and controller leave the port, the controller and the wait the
 * same relative to their issue times, and the entries after them keep
 * coming at the same spacing, each of those would repeat the booking one
 * period later: they are booked at once (book_jump: the port and the
 * controller's intervals moved, the counts multiplied), as far as the
 * limit, the other cores' clocks and the run allow. A pile of write-backs
 * at one issue time is one chain on the controller (sim_mc_chain).
 *
 * Owns: sim_p54c_book. May call: sim_mc_reserve, sim_mc_chain, the
 * snapshots and sim_mc_move, nothing else of the sim. It touches only
 * what its argument points to, because the same object code is also
 * linked into the QEMU plugin, which runs it natively when the HAL calls
 * through the gate (sim_p54c.c): the core's memory is the plugin's memory
 * (QEMU's guest base is 0, checked), so the pointers hold, and the answer
 * is the same as under emulation (integers, and IEEE doubles computed by
 * the same code).
 */
#include "sim_p54c_types.h"
#include "sim_mc.h"

#include <stddef.h>

_Static_assert(SIM_TICKS % P54C_FIX == 0,
               "a P54C cycle unit is a whole number of ticks");

/* Times stay below this in a jump (no sum wraps). */
#define BOOK_TMAX ((uint64_t)1 << 62)
/* Entries a failed try at a run waits at most before the next try. */
#define BOOK_BACKOFF_MAX 1024u

/* The slice being booked, with what stays the same through it at hand,
 * and its transactions counted by controller and kind until they are
 * added to the report's figures (book_flush). */
typedef struct {
    sim_p54c_book_t *b;
    sim_p54c_port_t *port;
    sim_mc_t *mcs;
    uint64_t others, lookahead;
    uint64_t ntx[P54C_MAX_MC][4];
    uint32_t backoff, skip;    /* tries at runs: wait after a failure */
} book_t;

/* What an entry of a run left: its issue time and wait, the port's
 * times the kind moves, the controller. */
typedef struct {
    uint64_t t, w, p0, p1;
    sim_mc_snap_t mc;
} book_snap_t;

/* @p u units of the core's clock, in ticks. */
static uint64_t book_ticks(const sim_p54c_book_t *b, uint64_t u)
{
    double cycles = (double)u / P54C_FIX;

    if (b->exact)
        return u * (SIM_TICKS / P54C_FIX);
    if (b->mhz <= 0 || b->mhz == b->core_mhz)
        return sim_ticks(cycles);
    return sim_ticks(cycles * b->core_mhz / b->mhz);
}

static int kind_reads(int kind)
{
    return kind == P54C_TX_FILL || kind == P54C_TX_LINE_READ ||
           kind == P54C_TX_UC_READ;
}

/* One transaction through controller @p mc, issued at @p t. @return its
 * completion. */
static inline uint64_t book_tx(book_t *c, int mc, sim_tx_t kind, uint64_t t)
{
    sim_p54c_port_t *p = c->port;
    sim_mc_t *m = c->mcs != NULL ? &c->mcs[mc] : NULL;
    const sim_tx_cost_t *k = &p->cost[mc].k[kind];
    int write = kind == SIM_TX_DW_WRITE || kind == SIM_TX_LINE_WRITE;
    /* No request can reach a controller before the floor any more (the
     * rest of this slice issues nothing before t, the other cores nothing
     * before their clocks): older bookings are forgotten. */
    uint64_t floor = sim_min(t, c->others), start, served, done;

    floor = floor > c->lookahead ? floor - c->lookahead : 0;
    start = write ? sim_max(t, sim_max(p->wr_next, p->wr_done))
                  : sim_max(t, p->rd_next);
    served = sim_mc_reserve(m, start + k->before + k->one_way, k->mem, floor);
    done = served + k->mem + k->one_way;
    if (write) {
        p->wr_next = start + k->interval;
        p->wr_done = done;
    } else {
        p->rd_next = start + k->interval;
    }
    c->ntx[mc][kind]++;
    return done;
}

/* A ring entry issued at @p t: @return the ticks the core waits. */
static uint64_t book_entry(book_t *c, int kind, int mc, uint64_t t)
{
    uint64_t done = t;

    switch (kind) {
    case P54C_TX_FILL: {
        /* eight DWORD reads, up to two in flight (docs/SIM.md) */
        uint64_t inflight[2] = {t, t};
        uint32_t n = c->b->line_bytes / 4;
        for (uint32_t d = 0; d < n; d++) {
            uint64_t ready = sim_max(t, inflight[d % 2]);
            inflight[d % 2] = book_tx(c, mc, SIM_TX_DW_READ, ready);
            done = sim_max(done, inflight[d % 2]);
        }
        break;
    }
    case P54C_TX_LINE_READ:
        /* an MPBT line: one line read at the MPBT bandwidth */
        done = book_tx(c, mc, SIM_TX_LINE_READ, t);
        break;
    case P54C_TX_UC_READ:
        c->b->uc_reads++;
        done = book_tx(c, mc, SIM_TX_DW_READ, t);
        break;
    case P54C_TX_WRITE:
        /* one outstanding write: a write miss stalls until it completes */
        done = book_tx(c, mc, SIM_TX_DW_WRITE, t);
        break;
    case P54C_TX_WB:
        /* the core does not wait for an L2 write-back; the next write
         * does */
        book_tx(c, mc, SIM_TX_LINE_WRITE, t);
        return 0;
    case P54C_TX_WCB: {
        /* the write-combine buffer holds one line: the store that sends
         * it out (to another line) waits until the bus takes it, after
         * the previous write (one outstanding write, as book_tx orders
         * them); not for its completion */
        const sim_p54c_port_t *p = c->port;
        uint64_t start = sim_max(t, sim_max(p->wr_next, p->wr_done));
        book_tx(c, mc, SIM_TX_LINE_WRITE, t);
        return start - t;
    }
    default:
        return 0;
    }
    return done > t ? done - t : 0;
}

/* Book one entry and charge its wait. */
static inline void book_one(book_t *c, int kind, int mc, uint64_t t)
{
    uint64_t w = book_entry(c, kind, mc, t);

    c->b->wait += w;
    c->b->slot->dram_ticks[mc] += w;
}

/* Add the counted transactions to the report's figures. */
static void book_flush(book_t *c)
{
    sim_p54c_book_t *b = c->b;

    for (int mc = 0; mc < P54C_MAX_MC; mc++) {
        const uint64_t *n = c->ntx[mc];
        uint64_t all = n[0] + n[1] + n[2] + n[3];
        if (all == 0)
            continue;
        b->route[mc][0] += all;
        /* bytes to the controller: a line for a line write, else 4;
         * back: a line for a line read, else 4 */
        b->route[mc][1] += (all - n[SIM_TX_LINE_WRITE]) * 4 +
                           n[SIM_TX_LINE_WRITE] * b->line_bytes;
        b->route[mc][2] += (all - n[SIM_TX_LINE_READ]) * 4 +
                           n[SIM_TX_LINE_READ] * b->line_bytes;
        b->tx += all;
        b->slot->dram_tx[mc] += all;
        for (int k = 0; k < 4; k++)
            c->ntx[mc][k] = 0;
    }
}

/* May the entry issued at @p t be booked now? */
static int book_may(const sim_p54c_book_t *b, uint64_t t)
{
    if (t < b->limit || (t == b->limit && b->tie_ok))
        return 1;
    return 0;
}

/* Take what entry @p kind on @p mc, issued at @p t with wait @p w, left.
 * @return 0 when it cannot serve a jump. */
static int snap_take(const book_t *c, int kind, int mc, uint64_t t,
                     uint64_t w, book_snap_t *s)
{
    const sim_p54c_port_t *p = c->port;

    if (c->mcs == NULL)
        return 0;
    s->t = t;
    s->w = w;
    s->p0 = kind_reads(kind) ? p->rd_next : p->wr_next;
    s->p1 = kind_reads(kind) ? 0 : p->wr_done;
    return sim_mc_snap(&c->mcs[mc], &s->mc);
}

/* Did @p b (the next entry) leave what @p a left, moved to its issue? */
static int snap_repeats(const book_snap_t *a, const book_snap_t *b, int kind)
{
    uint64_t d = b->t - a->t;

    if (b->t < a->t || b->w != a->w || b->p0 - a->p0 != d ||
        (!kind_reads(kind) && b->p1 - a->p1 != d))
        return 0;
    return sim_mc_snap_moved(&a->mc, &b->mc, d);
}

/* How many of @p avail entries that would repeat entry @p s (issued a
 * period @p per apart, the first one period after it) may be booked at
 * once: each before the limit, the other cores' clocks past each one's
 * transactions (so that the floor is the issue time less the lookahead
 * throughout), no time near wrapping. */
static uint64_t jump_room(const book_t *c, const book_snap_t *s,
                          uint64_t per, uint64_t avail)
{
    const sim_p54c_book_t *b = c->b;
    uint64_t m = avail, hi = s->t, lim;

    if (s->t <= c->lookahead || c->others < s->t)
        return 0;
    if (per == 0)
        return c->others - s->t >= s->w ? m : 0;
    /* entry j (1..m) is issued at s->t + j per: before the limit */
    lim = (b->limit - s->t) / per;
    if (!b->tie_ok && lim > 0 && s->t + lim * per == b->limit)
        lim--;
    m = sim_min(m, lim);
    /* its transactions end by its issue + w <= the next issue */
    lim = (c->others - s->t) / per;
    m = sim_min(m, lim > 0 ? lim - 1 : 0);
    /* nothing moved past BOOK_TMAX */
    hi = sim_max(hi, sim_max(s->p0, s->p1));
    if (s->mc.n > 0)
        hi = sim_max(hi, s->mc.iv[s->mc.n - 1].e);
    hi = sim_max(hi, s->mc.forgot);
    if (hi >= BOOK_TMAX)
        return 0;
    return sim_min(m, (BOOK_TMAX - hi) / per);
}

/* Book @p m entries that repeat entry @p s (the previous one: @p r) one
 * period after another, at once. */
static void book_jump(book_t *c, int kind, int mc, const book_snap_t *r,
                      const book_snap_t *s, uint64_t m)
{
    sim_p54c_book_t *b = c->b;
    uint64_t d = (s->t - r->t) * m;
    uint64_t acc = s->mc.accesses - r->mc.accesses;

    if (kind_reads(kind)) {
        c->port->rd_next += d;
    } else {
        c->port->wr_next += d;
        c->port->wr_done += d;
    }
    sim_mc_move(&c->mcs[mc], d, acc * m,
                (s->mc.queued - r->mc.queued) * m);
    b->wait += s->w * m;
    b->slot->dram_ticks[mc] += s->w * m;
    if (kind == P54C_TX_UC_READ)
        b->uc_reads += m;
    switch (kind) {
    case P54C_TX_FILL:
    case P54C_TX_UC_READ:
        c->ntx[mc][SIM_TX_DW_READ] += acc * m;
        break;
    case P54C_TX_LINE_READ:
        c->ntx[mc][SIM_TX_LINE_READ] += acc * m;
        break;
    case P54C_TX_WRITE:
        c->ntx[mc][SIM_TX_DW_WRITE] += acc * m;
        break;
    default:
        c->ntx[mc][SIM_TX_LINE_WRITE] += acc * m;
        break;
    }
}

/* A try at a run failed: wait longer before the next. */
static void run_failed(book_t *c)
{
    c->backoff = c->backoff == 0 ? 8 : sim_min(2 * c->backoff,
                                                BOOK_BACKOFF_MAX);
    c->skip = c->backoff;
}

/* Decode ring entry @p e: its kind, controller and issue offset in ticks
 * from the slice's start (before the waits). */
static inline uint64_t ring_decode(const sim_p54c_book_t *b, uint64_t e,
                                   uint64_t whole, int *kind, int *mc)
{
    uint64_t u = e >> 16;

    *kind = (int)((e >> 8) & 0xff);
    *mc = (int)(e & 0xff);
    if (*mc >= (int)b->nmc)
        *mc = 0;
    u = u > b->mark ? u - b->mark : 0;
    return book_ticks(b, u > whole ? whole : u);
}

/* Entries of the ring from @p i on (before @p end, at most @p max) that
 * go on with a run: kind @p kind on @p mc, each @p per ticks of stamp
 * after the one before (the one before @p i at @p off). */
static uint64_t ring_run(const sim_p54c_book_t *b, uint64_t i, uint64_t end,
                         uint64_t max, uint64_t whole, int kind, int mc,
                         uint64_t off, uint64_t per)
{
    uint64_t n = 0;

    for (; i < end && n < max; i++, n++) {
        int k, m;
        uint64_t o = ring_decode(b, b->slot->ring[i % P54C_RING], whole, &k,
                                 &m);
        if (k != kind || m != mc || o - off != per || o < off)
            break;
        off = o;
    }
    return n;
}

/* Book the ring's entries from the tail to the head, in runs where they
 * repeat. @return 0, or 1 when stopped at the limit. */
static int book_ring(book_t *c, uint64_t whole)
{
    sim_p54c_book_t *b = c->b;
    p54c_slot_t *slot = b->slot;
    uint64_t i = slot->tail, head = b->head, soff = 0;
    book_snap_t sn[2];
    int have = 0, sk = -1, smc = -1;

    while (i < head) {
        int kind, mc, nk, nmc, cont;
        uint64_t off = ring_decode(b, slot->ring[i % P54C_RING], whole,
                                   &kind, &mc);
        uint64_t t = b->vt0 + off + b->wait, w0 = b->wait;

        if (!book_may(b, t)) {
            slot->tail = i;
            b->stopped = 1;
            b->stop_t = t;
            return 1;
        }
        book_one(c, kind, mc, t);
        i++;
        /* this entry goes on with the one snapped before it */
        cont = have && kind == sk && mc == smc && off >= soff;
        if (c->skip > 0) {
            c->skip--;
            have = 0;
            continue;
        }
        if (i >= head || c->others < t) {
            have = 0;
            continue;
        }
        /* worth a snapshot only if the next entry goes on alike */
        (void)ring_decode(b, slot->ring[i % P54C_RING], whole, &nk, &nmc);
        if (nk != kind || nmc != mc ||
            !snap_take(c, kind, mc, t, b->wait - w0, &sn[cont])) {
            have = 0;
            continue;
        }
        if (cont) {
            if (snap_repeats(&sn[0], &sn[1], kind)) {
                uint64_t m = jump_room(c, &sn[1], sn[1].t - sn[0].t,
                                       head - i);
                m = ring_run(b, i, head, m, whole, kind, mc, off,
                             off - soff);
                if (m > 0) {
                    book_jump(c, kind, mc, &sn[0], &sn[1], m);
                    i += m;
                    c->backoff = 0;
                    have = 0;
                    continue;
                }
            } else {
                run_failed(c);
                have = 0;
                continue;
            }
            sn[0] = sn[1];
        }
        have = 1;
        sk = kind;
        smc = mc;
        soff = off;
    }
    slot->tail = head;
    return 0;
}

/* A pile of @p n write-backs on @p mc, all issued at @p t (a write-back
 * does not stall the core): after the first, each starts when the one
 * before it is done (the port allows no sooner, when its interval is no
 * longer than a write-back's round trip), so they are one chain on the
 * controller. @return 0 (nothing booked) when the port does not allow it. */
static int book_wb_pile(book_t *c, int mc, uint64_t t, uint64_t n)
{
    sim_p54c_port_t *p = c->port;
    const sim_tx_cost_t *k = &p->cost[mc].k[SIM_TX_LINE_WRITE];
    uint64_t floor = sim_min(t, c->others), start, served, arrive;

    if (c->mcs == NULL ||
        k->interval > k->before + 2 * k->one_way + k->mem)
        return 0;
    floor = floor > c->lookahead ? floor - c->lookahead : 0;
    start = sim_max(t, sim_max(p->wr_next, p->wr_done));
    served = sim_mc_chain(&c->mcs[mc], start + k->before + k->one_way,
                          k->mem, k->mem + 2 * k->one_way + k->before, n,
                          floor, &arrive);
    p->wr_next = arrive - k->before - k->one_way + k->interval;
    p->wr_done = served + k->mem + k->one_way;
    c->ntx[mc][SIM_TX_LINE_WRITE] += n;
    return 1;
}

/* Book @p *left entries of kind @p k on @p mc, all at the slice's end
 * (the ring had no room for them), in runs where they repeat. @return 0,
 * or 1 when stopped at the limit. */
static int book_lost(book_t *c, int k, int mc, uint64_t end,
                     uint64_t *left)
{
    sim_p54c_book_t *b = c->b;
    book_snap_t sn[2];
    int have = 0;

    while (*left > 0) {
        uint64_t t = end + b->wait, w0 = b->wait;

        if (!book_may(b, t)) {
            b->stopped = 1;
            b->stop_t = t;
            return 1;
        }
        if (k == P54C_TX_WB && *left >= 2 &&
            book_wb_pile(c, mc, t, *left)) {
            *left = 0;
            break;
        }
        book_one(c, k, mc, t);
        (*left)--;
        if (c->skip > 0) {
            c->skip--;
            have = 0;
            continue;
        }
        if (*left == 0 || c->others < t ||
            !snap_take(c, k, mc, t, b->wait - w0, &sn[have])) {
            have = 0;
            continue;
        }
        if (have) {
            if (!snap_repeats(&sn[0], &sn[1], k)) {
                run_failed(c);
                have = 0;
                continue;
            }
            uint64_t m = jump_room(c, &sn[1], sn[1].t - sn[0].t, *left);
            if (m > 0) {
                book_jump(c, k, mc, &sn[0], &sn[1], m);
                *left -= m;
                c->backoff = 0;
                have = 0;
                continue;
            }
            sn[0] = sn[1];
        }
        have = 1;
    }
    return 0;
}

void sim_p54c_book(sim_p54c_book_t *b)
{
    p54c_slot_t *slot = b->slot;
    /* stamps at most the slice's whole cycles: the slice is charged at
     * least those, so no entry lies past the core's clock at the end */
    uint64_t whole = b->units / P54C_FIX * P54C_FIX;
    book_t c = {.b = b, .port = b->port, .mcs = b->mcs,
                .others = b->others, .lookahead = b->lookahead};

    b->stopped = 0;
    if (book_ring(&c, whole)) {
        book_flush(&c);
        return;
    }
    /* entries the ring had no room for: at the end of the slice */
    for (int k = 0; k < P54C_TX_NKIND; k++) {
        for (int mc = 0; mc < P54C_MAX_MC && mc < (int)b->nmc; mc++) {
            if (slot->lost[k][mc] > 0 &&
                book_lost(&c, k, mc, b->vt0 + book_ticks(b, whole),
                          &slot->lost[k][mc])) {
                book_flush(&c);
                return;
            }
        }
    }
    book_flush(&c);
}
