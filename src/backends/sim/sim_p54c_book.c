/*
 * The P54C model's DRAM transactions, booked (docs/P54C.md, "DRAM
 * transactions"): at a HAL call, every ring entry the plugin wrote during
 * the compute slice becomes transactions on its memory controller, issued
 * at the slice's start + the entry's cycle stamp + the stalls before it.
 *
 * Owns: sim_p54c_book. May call: sim_mc_reserve, nothing else of the sim.
 * It touches only what its argument points to, because the same object
 * code is also linked into the QEMU plugin, which runs it natively when the
 * HAL calls through the gate (sim_p54c.c): the core's memory is the
 * plugin's memory (QEMU's guest base is 0, checked), so the pointers hold,
 * and the answer is the same as under emulation (integers, and IEEE
 * doubles computed by the same code).
 */
#include "sim_p54c_types.h"
#include "sim_mc.h"

#include <stddef.h>

_Static_assert(SIM_TICKS % P54C_FIX == 0,
               "a P54C cycle unit is a whole number of ticks");

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

/* One transaction through controller @p mc, issued at @p t. @return its
 * completion. */
static uint64_t book_tx(sim_p54c_book_t *b, int mc, sim_tx_t kind, uint64_t t)
{
    sim_p54c_port_t *p = b->port;
    sim_mc_t *m = b->mcs != NULL ? &((sim_mc_t *)b->mcs)[mc] : NULL;
    const sim_tx_cost_t *k = &p->cost[mc].k[kind];
    int write = kind == SIM_TX_DW_WRITE || kind == SIM_TX_LINE_WRITE;
    uint64_t bytes = kind == SIM_TX_LINE_WRITE || kind == SIM_TX_LINE_READ
                         ? b->line_bytes
                         : 4;
    /* No request can reach a controller before the floor any more (the
     * rest of this slice issues nothing before t, the other cores nothing
     * before their clocks): older bookings are forgotten. */
    uint64_t floor = sim_min(t, b->others), start, served, done;

    floor = floor > b->lookahead ? floor - b->lookahead : 0;
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
    b->route[mc][0]++;
    b->route[mc][1] += write ? bytes : 4;
    b->route[mc][2] += write ? 4 : bytes;
    b->tx++;
    b->slot->dram_tx[mc]++;
    return done;
}

/* A ring entry issued at @p t: @return the ticks the core waits. */
static uint64_t book_entry(sim_p54c_book_t *b, int kind, int mc, uint64_t t)
{
    uint64_t done = t;

    switch (kind) {
    case P54C_TX_FILL: {
        /* eight DWORD reads, up to two in flight (docs/SIM.md) */
        uint64_t inflight[2] = {t, t};
        uint32_t n = b->line_bytes / 4;
        for (uint32_t d = 0; d < n; d++) {
            uint64_t ready = sim_max(t, inflight[d % 2]);
            inflight[d % 2] = book_tx(b, mc, SIM_TX_DW_READ, ready);
            done = sim_max(done, inflight[d % 2]);
        }
        break;
    }
    case P54C_TX_LINE_READ:
        /* an MPBT line: one line read at the MPBT bandwidth */
        done = book_tx(b, mc, SIM_TX_LINE_READ, t);
        break;
    case P54C_TX_UC_READ:
        b->uc_reads++;
        done = book_tx(b, mc, SIM_TX_DW_READ, t);
        break;
    case P54C_TX_WRITE:
        /* one outstanding write: a write miss stalls until it completes */
        done = book_tx(b, mc, SIM_TX_DW_WRITE, t);
        break;
    case P54C_TX_WB:
        /* the core does not wait for an L2 write-back; the next write
         * does */
        book_tx(b, mc, SIM_TX_LINE_WRITE, t);
        return 0;
    case P54C_TX_WCB: {
        /* the write-combine buffer holds one line: the store that sends
         * it out (to another line) waits until the bus takes it, after
         * the previous write (one outstanding write, as book_tx orders
         * them); not for its completion */
        const sim_p54c_port_t *p = b->port;
        uint64_t start = sim_max(t, sim_max(p->wr_next, p->wr_done));
        book_tx(b, mc, SIM_TX_LINE_WRITE, t);
        return start - t;
    }
    default:
        return 0;
    }
    return done > t ? done - t : 0;
}

/* May the entry issued at @p t be booked now? */
static int book_may(const sim_p54c_book_t *b, uint64_t t)
{
    if (t < b->limit || (t == b->limit && b->tie_ok))
        return 1;
    return 0;
}

void sim_p54c_book(sim_p54c_book_t *b)
{
    p54c_slot_t *slot = b->slot;
    uint64_t mark = b->mark;
    /* stamps at most the slice's whole cycles: the slice is charged at
     * least those, so no entry lies past the core's clock at the end */
    uint64_t whole = b->units / P54C_FIX * P54C_FIX;

    b->stopped = 0;
    for (uint64_t i = slot->tail; i < b->head; i++) {
        uint64_t e = slot->ring[i % P54C_RING];
        uint64_t u = e >> 16, w, t;
        int kind = (int)((e >> 8) & 0xff), mc = (int)(e & 0xff);
        u = u > mark ? u - mark : 0;
        if (u > whole)
            u = whole;
        if (mc >= (int)b->nmc)
            mc = 0;
        t = b->vt0 + book_ticks(b, u) + b->wait;
        if (!book_may(b, t)) {
            slot->tail = i;
            b->stopped = 1;
            b->stop_t = t;
            return;
        }
        w = book_entry(b, kind, mc, t);
        b->wait += w;
        slot->dram_ticks[mc] += w;
    }
    slot->tail = b->head;
    /* entries the ring had no room for: at the end of the slice */
    for (int k = 0; k < P54C_TX_NKIND; k++) {
        for (int mc = 0; mc < P54C_MAX_MC && mc < (int)b->nmc; mc++) {
            while (slot->lost[k][mc] > 0) {
                uint64_t t = b->vt0 + book_ticks(b, whole) + b->wait;
                uint64_t w;
                if (!book_may(b, t)) {
                    b->stopped = 1;
                    b->stop_t = t;
                    return;
                }
                w = book_entry(b, k, mc, t);
                slot->lost[k][mc]--;
                b->wait += w;
                slot->dram_ticks[mc] += w;
            }
        }
    }
}
