/*
 * The memory model: the functional effect and the cost of every access
 * to an MPB (read through this core's L1, written through with one line
 * write per line, visibility times per line) and to shared DRAM (L1, L2,
 * write-back, memory controllers booked in time order, this core's port),
 * the mesh traffic of each, and the stale reads it detects (hazards).
 *
 * Owns: the L1/L2 contents' coherence with memory, sim_t.port, the MPB
 * line visibility times of in-order writes. May call: the cost model
 * (sim_charge.h, sim_cost.c), the caches and map (sim_l1.c), the waits
 * (sim_notify, for write-backs), the lazy-write queue (sim_pending_push),
 * the engine (sim_engine_order: a long call gets back in line), the trace.
 * Called by the HAL slots (sim.c).
 */
#include "sim_charge.h"
#include "sim_lazy.h"
#include "sim_mem.h"
#include "sim_engine.h"
#include "sim_l1.h"
#include "sim_mc.h"
#include "sim_report.h"
#include "sim_wait.h"

#include <stdio.h>
#include <string.h>

/* A stale read at @p off of core @p target's MPB, or of shared DRAM when
 * @p target < 0. */
static void hazard(sim_t *s, int target, size_t off)
{
    sim_ue_t *me = s->me;
    const char *ctx = s->ctx_call != NULL ? s->ctx_call : "";
    size_t line = off / s->chip->line_bytes * s->chip->line_bytes;

    me->stale_reads++;
    for (uint32_t i = 0; i < me->nhaz; i++) {
        sim_hazard_t *z = &me->haz[i];
        if (z->target == target &&
            z->off / s->chip->line_bytes * s->chip->line_bytes == line &&
            z->peer == s->ctx_peer && !strncmp(z->ctx, ctx, SIM_CTX_LEN - 1)) {
            z->count++;
            return;
        }
    }
    if (me->nhaz < SIM_MAX_HAZARDS) {
        sim_hazard_t *z = &me->haz[me->nhaz++];
        z->target = target;
        z->off = off;
        z->count = 1;
        z->first_tick = me->vt;
        z->peer = s->ctx_peer;
        snprintf(z->ctx, sizeof(z->ctx), "%s", ctx);
    }
}

static void shm_hazard(sim_t *s, size_t off)
{
    hazard(s, -1, off);
}

/* Read through this core's L1: a cached line is returned as cached (stale
 * if another core wrote the MPB since); a missing one is fetched and
 * cached. @return the cost in ticks. */
uint64_t sim_mpb_read_l1(sim_t *s, int target, uint32_t off,
                        unsigned char *dst, size_t len)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes;
    uint64_t miss = cost_dword_read(s, target);
    uint64_t hit = cost_l1_hit(s);
    uint64_t cost = 0, fills = 0;
    uint64_t base = (uint64_t)target * s->lines_per_mpb;
    unsigned char *mpb = mpb_at(s, target, 0);
    sim_l1_t *l1 = &s->l1;

    while (len > 0) {
        uint32_t lo = line_mod(s, off);
        uint32_t n = len < L - lo ? (uint32_t)len : L - lo;
        uint32_t dwords = (lo + n + 3) / 4 - lo / 4;
        uint64_t idx = base + line_div(s, off);
        unsigned char *mem = mpb + (off - lo);
        long e = sim_l1_lookup(l1, idx);

        if (e >= 0) {
            unsigned char *c = l1->data + (size_t)e * L;
            if (memcmp(c + lo, mem + lo, n) != 0) {
                uint32_t k = 0;
                while (c[lo + k] == mem[lo + k])
                    k++;
                hazard(s, target, off + k);
            }
            memcpy(dst, c + lo, n);
            cost += dwords * hit;
        } else {
            sim_l1_install(l1, idx, mem);
            fills++;
            memcpy(dst, mem + lo, n);
            cost += miss + (dwords - 1) * hit;
        }
        dst += n;
        off += n;
        len -= n;
    }
    s->me->l1_misses += fills;
    s->me->mpb_lines_read += fills;
    mesh_xfer_n(s, rck_chip_tile(ch, target), 0, fills * L, fills);
    return cost;
}

/* Write through to the MPB (updating this core's cached copies; a write
 * miss does not allocate). One line write per line touched, back to back;
 * each line becomes visible when its write completes. @return the cost. */
uint64_t sim_mpb_write_lines(sim_t *s, int target, uint32_t off,
                            const unsigned char *src, size_t len, int lazy)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes, off0 = off;
    uint64_t per = cost_line_write(s, target);
    uint64_t when = s->me->vt, bytes = len, lines = 0;
    const unsigned char *src0 = src;

    s->matrix[(size_t)s->ue * (size_t)ch->ncores + (size_t)target].bytes +=
        len;
    s->matrix[(size_t)s->ue * (size_t)ch->ncores + (size_t)target].writes++;
    if (!lazy)
        memcpy(mpb_at(s, target, off), src, len);
    while (len > 0) {
        uint32_t lo = line_mod(s, off);
        uint32_t n = len < L - lo ? (uint32_t)len : L - lo;
        uint64_t idx = (uint64_t)target * s->lines_per_mpb + line_div(s, off);
        long e = sim_l1_lookup(&s->l1, idx);

        if (e >= 0)
            memcpy(s->l1.data + (size_t)e * L + lo, src, n);
        lines++;
        when += per;
        if (!s->unordered && !lazy)
            s->vis[idx] = sim_max(s->vis[idx], when);
        src += n;
        off += n;
        len -= n;
    }
    s->me->mpb_lines_written += lines;
    mesh_xfer_n(s, rck_chip_tile(ch, target), bytes, 0, lines);
    if (lazy)
        sim_pending_push(s, SIM_PW_MPB, target, off0, src0, (uint32_t)bytes,
                         per);
    if (target != s->core && s->trace.buf != NULL)
        sim_trace_flow(s, "MPB write", "mpb", target, s->me->vt, when, when,
                       bytes);
    return when - s->me->vt;
}

/*
 * Shared DRAM through this core's map. A HAL call is charged as the
 * sequence of accesses the core makes (docs/SIM.md, "Shared DRAM"):
 * uncached, one DWORD transaction per DWORD touched; MPBT, a line fill per
 * line missing in L1 and a line through the WCB per line written; cached,
 * L1, then L2, then memory, with write-around. Transactions of one kind
 * leave the core at least their published-bandwidth interval apart; reads
 * wait for their data (in-order core), the eight DWORD reads of an L2 line
 * fill have up to two in flight (P54C), and writes complete one at a time.
 * A long call gets back in line after every SIM_SHM_ORDER_EVERY
 * transactions, so that the requests of all cores are booked at the
 * controllers in time order. Measured with 24 cores reading one
 * controller at once: every transaction in order gives the ideal
 * work-conserving slowdown (7.2 times alone), every 4th 8.1, every 16th
 * 8.9 (a controller books first fit, and requests booked ahead of time
 * leave gaps too short to use) at a fifth of the hand-overs.
 */
#define SIM_SHM_ORDER_EVERY 1

/* No request can reach a controller before this any more: computed once
 * per stretch of this core's turn (while it holds the token nobody else
 * moves, and a floor that lags is still a floor). */
static uint64_t mc_floor(sim_t *s)
{
    if (!s->floor_valid) {
        s->floor_cache = sim_engine_floor(s);
        s->floor_valid = 1;
    }
    return s->floor_cache;
}

/* Get back in line in the middle of a long call. */
static void shm_reorder(sim_t *s, unsigned *count)
{
    if (++*count % SIM_SHM_ORDER_EVERY != 0 || s->unordered)
        return;
    if (sim_engine_order(s) == RCK_OK)
        s->floor_valid = 0;
}

/* One transaction through controller @p mc, leaving the core at @p ready
 * at the earliest. @return its completion. */
static uint64_t dram_tx(sim_t *s, int mc, sim_tx_t kind, uint64_t ready,
                        uint64_t bytes)
{
    const rck_chip_t *ch = s->chip;
    sim_port_t *p = &s->port;
    int write = kind == SIM_TX_DW_WRITE || kind == SIM_TX_LINE_WRITE;
    int hops = sim_hops_to_tile(ch, s->core, ch->mc[mc].x, ch->mc[mc].y);
    sim_mc_t *m = s->unordered ? NULL : &s->mcs[mc]; /* NULL: zero load */
    sim_tx_cost_t k;
    uint64_t start, served, done;

    sim_cost_tx(ch, my_fdiv(s), hops, kind, &k);
    start = write ? sim_max(ready, sim_max(p->wr_next, p->wr_done))
                  : sim_max(ready, p->rd_next);
    served = sim_mc_reserve(m, start + k.before + k.one_way, k.mem,
                            mc_floor(s));
    done = served + k.mem + k.one_way;
    if (write) {
        p->wr_start = start;
        p->wr_next = start + k.interval;
        p->wr_done = done;
    } else {
        p->rd_start = start;
        p->rd_next = start + k.interval;
        p->rd_done = sim_max(p->rd_done, done);
    }
    mesh_xfer(s, sim_tile_of_mc(ch, mc), write ? bytes : 0,
              write ? 0 : bytes);
    s->me->dram_tx++;
    return done;
}

/* Data served from a cache: a stale read if it differs from memory
 * (unless this core's own dirty L2 line is the newer copy). */
static void shm_check_stale(sim_t *s, size_t off, const unsigned char *c,
                            size_t n, int dirty)
{
    const unsigned char *mem = s->shm + off;

    if (dirty || memcmp(c, mem, n) == 0)
        return;
    for (size_t k = 0; k < n; k++) {
        if (c[k] != mem[k]) {
            shm_hazard(s, off + k);
            return;
        }
    }
}

/* Write a dirty L2 entry back to memory (an eviction): one line through
 * the write path; the core does not wait for it. */
static void sim_l2_write_back(sim_t *s, long e)
{
    uint32_t L = s->chip->line_bytes;
    size_t off = (size_t)(s->l2.tag[e] - 1) * L;
    int type, mc;
    size_t until;

    memcpy(s->shm + off, s->l2.data + (size_t)e * L, L);
    s->l2.dirty[e] = 0;
    sim_map_lookup(&s->map, off, &type, &mc, &until);
    dram_tx(s, mc_of(s, off, mc), SIM_TX_LINE_WRITE, s->me->vt, L);
    s->me->l2_writebacks++;
    sim_notify(s, RCK_SPACE_SHM, 0, (uint32_t)off, L, s->me->vt, s->ue);
}

/* An L2 miss: the line comes from memory as eight DWORD reads, up to two
 * in flight. @return when the line is in L1 and L2. */
static uint64_t l2_fill(sim_t *s, int mc, size_t line_off, uint64_t line,
                        unsigned *count)
{
    uint32_t L = s->chip->line_bytes;
    uint64_t inflight[2] = {0, 0}, t = s->me->vt, done = t;
    long e;

    for (uint32_t d = 0; d < L / 4; d++) {
        uint64_t ready = sim_max(t, inflight[d % 2]);
        inflight[d % 2] = dram_tx(s, mc, SIM_TX_DW_READ, ready, 4);
        done = sim_max(done, inflight[d % 2]);
    }
    *count += L / 4;
    e = sim_l2_victim(&s->l2, line);
    if (e >= 0) {
        if (s->l2.tag[e] != 0 && s->l2.dirty[e])
            sim_l2_write_back(s, e);
        sim_l2_install(&s->l2, e, line, s->shm + line_off);
    }
    sim_l1_fill(&s->l1, shm_l1_idx(s, line), s->shm + line_off, 0);
    return done;
}

void sim_shm_read_range(sim_t *s, size_t off, unsigned char *dst,
                           size_t len)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes;
    uint64_t hit = cost_l1_hit(s);
    unsigned count = 0;

    while (len > 0) {
        int type, mc;
        size_t until, n;

        sim_map_lookup(&s->map, off, &type, &mc, &until);
        mc = mc_of(s, off, mc);
        if (type == RCK_MAP_UNCACHED) {
            /* one DWORD transaction per DWORD touched */
            size_t lo = off % 4;
            n = 4 - lo < len ? 4 - lo : len;
            if (until - off < n)
                n = until - off;
            advance_to(s, dram_tx(s, mc, SIM_TX_DW_READ, s->me->vt, 4),
                       CAT_DRAM);
            memcpy(dst, s->shm + off, n);
            s->me->nc_reads++;
            count++;
        } else {
            size_t lo = off % L;
            uint64_t line = off / L, idx = shm_l1_idx(s, line);
            unsigned char *c = sim_l1_find(&s->l1, idx);
            uint32_t dwords;
            long e = -1;

            n = L - lo < len ? L - lo : len;
            if (until - off < n)
                n = until - off;
            dwords = (uint32_t)((lo + n + 3) / 4 - lo / 4);
            if (type == RCK_MAP_CACHED)
                e = sim_l2_find(&s->l2, line);
            if (c != NULL) {
                shm_check_stale(s, off, c + lo, n, e >= 0 && s->l2.dirty[e]);
                memcpy(dst, c + lo, n);
                advance(s, dwords * hit, CAT_DRAM);
            } else if (type == RCK_MAP_MPBT) {
                uint64_t t = dram_tx(s, mc, SIM_TX_LINE_READ, s->me->vt, L);
                sim_l1_fill(&s->l1, idx, s->shm + off - lo, 1);
                memcpy(dst, s->shm + off, n);
                advance_to(s, t + (dwords - 1) * hit, CAT_DRAM);
                s->me->l1_misses++;
                count++;
            } else if (e >= 0) {
                unsigned char *d = s->l2.data + (size_t)e * L;
                shm_check_stale(s, off, d + lo, n, s->l2.dirty[e]);
                sim_l1_fill(&s->l1, idx, d, 0);
                memcpy(dst, d + lo, n);
                advance(s, sim_cost_l2_fill(ch, my_fdiv(s)) +
                               (dwords - 1) * hit,
                        CAT_DRAM);
                s->me->l2_hits++;
            } else {
                uint64_t t = l2_fill(s, mc, off - lo, line, &count);
                memcpy(dst, s->shm + off, n);
                advance_to(s, t + (dwords - 1) * hit, CAT_DRAM);
                s->me->l2_misses++;
                s->me->l1_misses++;
            }
        }
        dst += n;
        off += n;
        len -= n;
        shm_reorder(s, &count);
    }
}

void sim_shm_write_range(sim_t *s, size_t off, const unsigned char *src,
                            size_t len)
{
    const rck_chip_t *ch = s->chip;
    uint32_t L = ch->line_bytes;
    unsigned count = 0;

    while (len > 0) {
        int type, mc;
        size_t until, n, lo;
        uint64_t line;
        unsigned char *c;

        sim_map_lookup(&s->map, off, &type, &mc, &until);
        mc = mc_of(s, off, mc);
        line = off / L;
        if (type == RCK_MAP_MPBT) {
            /* one line through the WCB per line touched */
            lo = off % L;
            n = L - lo < len ? L - lo : len;
        } else {
            /* one DWORD store per DWORD touched */
            lo = off % 4;
            n = 4 - lo < len ? 4 - lo : len;
        }
        if (until - off < n)
            n = until - off;
        c = sim_l1_find(&s->l1, shm_l1_idx(s, line));
        if (c != NULL) /* write-through */
            memcpy(c + off % L, src, n);
        if (type == RCK_MAP_CACHED) {
            long e = sim_l2_find(&s->l2, line);
            if (e >= 0) {
                memcpy(s->l2.data + (size_t)e * L + off % L, src, n);
                s->l2.dirty[e] = 1;
                advance(s, sim_cost_l2_write(ch, my_fdiv(s)), CAT_DRAM);
                goto next;
            }
        }
        memcpy(s->shm + off, src, n);
        advance_to(s,
                   dram_tx(s, mc,
                           type == RCK_MAP_MPBT ? SIM_TX_LINE_WRITE
                                                : SIM_TX_DW_WRITE,
                           s->me->vt, n),
                   CAT_DRAM);
        count++;
    next:
        src += n;
        off += n;
        len -= n;
        shm_reorder(s, &count);
    }
}

/* A touched range is booked in order every SIM_TOUCH_ORDER_EVERY lines
 * (a 4 KiB page is 128): the access pattern is a guess anyway (docs/SVM.md),
 * and getting back in line for every line costs a hand-over each. */
#ifndef SIM_TOUCH_ORDER_EVERY
#define SIM_TOUCH_ORDER_EVERY 16
#endif

static void touch_reorder(sim_t *s, unsigned *count)
{
    if (++*count % SIM_TOUCH_ORDER_EVERY != 0 || s->unordered)
        return;
    if (sim_engine_order(s) == RCK_OK)
        s->floor_valid = 0;
}

/* Code that touched shared DRAM with plain loads and stores (SVM pages):
 * one line transaction per line, at the range's controller, in the order
 * of the addresses; the data already moved on the host. */
void sim_shm_touch_range(sim_t *s, size_t off, size_t len, int write)
{
    uint32_t L = s->chip->line_bytes;
    size_t end = off + len;
    unsigned count = 0;

    for (off -= off % L; off < end; off += L) {
        int type, mc;
        size_t until;
        sim_tx_t kind;

        sim_map_lookup(&s->map, off, &type, &mc, &until);
        mc = mc_of(s, off, mc);
        if (type == RCK_MAP_UNCACHED)
            kind = write ? SIM_TX_DW_WRITE : SIM_TX_DW_READ;
        else
            kind = write ? SIM_TX_LINE_WRITE : SIM_TX_LINE_READ;
        advance_to(s, dram_tx(s, mc, kind, s->me->vt,
                              type == RCK_MAP_UNCACHED ? 4 : L),
                   CAT_DRAM);
        if (!write)
            s->me->l1_misses++;
        if (!write && type == RCK_MAP_UNCACHED)
            s->me->nc_reads++;
        count++;
        touch_reorder(s, &count);
    }
}

/* Write back every dirty L2 line and drop both caches. */
void sim_caches_flush(sim_t *s, uint64_t *clean, uint64_t *dirty)
{
    *clean = *dirty = 0;
    if (s->l2.tag != NULL) {
        size_t n = (size_t)s->l2.nsets * s->l2.ways;
        for (size_t e = 0; e < n; e++) {
            if (s->l2.tag[e] == 0)
                continue;
            if (s->l2.dirty[e]) {
                sim_l2_write_back(s, (long)e);
                (*dirty)++;
            } else {
                (*clean)++;
            }
            s->l2.tag[e] = 0;
        }
    }
    sim_l1_drop_all(&s->l1);
}
