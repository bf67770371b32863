/*
 * Reports of a sim run: the JSON file (deterministic: only virtual-time
 * figures, so two runs of the same program and configuration give the
 * same bytes), the short human summary on stderr (which alone carries host
 * time and simulation speed), and the deadlock report.
 *
 * Owns: the report formats. May call: the trace (sim_trace_merge, at the
 * end of a run), the compute models (their names). Called by the HAL
 * slots (end of a run) and the engine (deadlock). Reads the segment only.
 */
#include "sim_report.h"
#include "sim_state.h"
#include "sim_power.h"
#include "sim_p54c.h"
#include "sim_monitor.h"
#include "sim_cost.h"
#include "sim_mc.h"

#include "rck/json.h"
#include "rck/log.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const cat_names[CAT_N] = {
    "compute", "mpb", "dram", "wait", "interrupts", "other"};

static const char *end_name(uint32_t end)
{
    switch (end) {
    case UE_END_RUNNING: return "running";
    case UE_END_DETACHED: return "detached";
    case UE_END_EXITED: return "exited";
    case UE_END_FAILED: return "failed";
    case UE_END_DEADLOCK: return "deadlock";
    case UE_END_ABORTED: return "aborted";
    }
    return "?";
}

static unsigned long long cycles_of(uint64_t ticks)
{
    return (unsigned long long)(ticks / SIM_TICKS);
}

static const char *space_name(rck_space_t sp)
{
    switch (sp) {
    case RCK_SPACE_MPB: return "mpb";
    case RCK_SPACE_SHM: return "shm";
    case RCK_SPACE_TAS: return "tas";
    }
    return "?";
}

/* "MPB word of core 3 at 0x40 & 0xff == 0x1 (now 0x0)" */
static void cond_text(sim_hdr_t *h, const rck_hal_cond_t *c, char *buf,
                      size_t len)
{
    char where[64], mask[32] = "";

    if (c->space == RCK_SPACE_MPB)
        snprintf(where, sizeof(where), "MPB word of core %d at 0x%x", c->core,
                 c->offset);
    else if (c->space == RCK_SPACE_TAS)
        snprintf(where, sizeof(where), "TAS register of core %d", c->core);
    else
        snprintf(where, sizeof(where), "shared DRAM word at offset 0x%x",
                 c->offset);
    if (c->mask != 0xffffffffu)
        snprintf(mask, sizeof(mask), " & 0x%x", c->mask);
    snprintf(buf, len, "%s%s %s 0x%x (now 0x%x)", where, mask,
             c->op == RCK_COND_EQ ? "==" : "!=", c->value, sim_word(h, c));
}

/* One line of a deadlock report: what waiting core @p i waits for. */
static void report_waiter(sim_hdr_t *h, sim_ue_t *u, uint32_t i)
{
    char ctx[SIM_CTX_LEN + 32] = "", what[160];

    if (u[i].ctx[0])
        snprintf(ctx, sizeof(ctx), " in %s (peer %d)", u[i].ctx,
                 u[i].ctx_peer);
    if (u[i].nconds == 0)
        snprintf(what, sizeof(what), "nothing but an interrupt");
    else
        cond_text(h, &u[i].conds[0], what, sizeof(what));
    rck_error("  core %d (UE %u)%s, waiting since cycle %llu for %s%s%s",
              h->ue_core[i], i, ctx, cycles_of(u[i].wait_start), what,
              u[i].nconds > 1 ? " or another of its words" : "",
              (u[i].park_flags & PARK_IRQ) && u[i].nconds > 0
                  ? " or an interrupt"
                  : "");
}

void sim_report_deadlock(sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);

    rck_error("sim: deadlock at cycle %llu: every core still running waits "
              "and nothing in flight can wake any of them",
              cycles_of(h->deadlock_tick));
    for (uint32_t i = 0; i < h->nues; i++) {
        uint32_t st = atomic_load(sim_state(h, (int)i));

        if (atomic_load(&u[i].end) != UE_END_DEADLOCK) {
            if (st == UE_DONE)
                rck_error("  core %d (UE %u) has exited", h->ue_core[i], i);
            continue;
        }
        report_waiter(h, u, i);
    }
}

void sim_report_spinner(sim_hdr_t *h, int k, double secs)
{
    sim_ue_t *u = sim_hdr_ues(h);

    rck_error("sim: core %d (UE %d) has run for %.0f s outside the HAL and "
              "every other core waits: unless it is computing, this is a "
              "deadlock (it spins on memory that no waiting core will "
              "write)",
              h->ue_core[k], k, secs);
    rck_error("  core %d (UE %d) runs outside the HAL", h->ue_core[k], k);
    for (uint32_t i = 0; i < h->nues; i++) {
        uint32_t st = atomic_load(sim_state(h, (int)i));

        if ((int)i == k)
            continue;
        if (st == UE_DONE) {
            rck_error("  core %d (UE %u) has exited", h->ue_core[i], i);
            continue;
        }
        if (st != UE_PARK)
            continue;
        report_waiter(h, u, i);
    }
}

static void json_deadlock(rck_jsonw_t *w, sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);

    rck_jsonw_object(w, "deadlock");
    rck_jsonw_uint(w, "cycle", cycles_of(h->deadlock_tick));
    rck_jsonw_array(w, "waits");
    rck_jsonw_indent_items(w, 4);
    for (uint32_t i = 0; i < h->nues; i++) {
        /* the cores that were parked when the deadlock was found */
        if (atomic_load(&u[i].end) != UE_END_DEADLOCK)
            continue;
        rck_jsonw_object(w, NULL);
        rck_jsonw_uint(w, "ue", i);
        rck_jsonw_int(w, "core", h->ue_core[i]);
        rck_jsonw_string(w, "call", u[i].ctx);
        rck_jsonw_int(w, "peer", u[i].ctx_peer);
        rck_jsonw_uint(w, "since_cycle", cycles_of(u[i].wait_start));
        rck_jsonw_array(w, "words");
        for (int k = 0; k < u[i].nconds; k++) {
            const rck_hal_cond_t *c = &u[i].conds[k];
            rck_jsonw_object(w, NULL);
            rck_jsonw_string(w, "space", space_name(c->space));
            rck_jsonw_int(w, "core", c->space == RCK_SPACE_SHM ? -1 : c->core);
            rck_jsonw_uint(w, "offset", c->offset);
            rck_jsonw_uint(w, "mask", c->mask);
            rck_jsonw_string(w, "op", c->op == RCK_COND_EQ ? "==" : "!=");
            rck_jsonw_uint(w, "value", c->value);
            rck_jsonw_uint(w, "now", sim_word(h, c));
            rck_jsonw_end_object(w);
        }
        rck_jsonw_end_array(w);
        rck_jsonw_bool(w, "interrupt", (u[i].park_flags & PARK_IRQ) != 0);
        rck_jsonw_end_object(w);
    }
    rck_jsonw_break(w, 2);
    rck_jsonw_end_array(w);
    rck_jsonw_end_object(w);
}

/* The link counters of all UEs added up (NULL without memory), and the
 * index of the busiest link by bytes (then packets, then index), -1 if
 * no link carried anything. */
static sim_link_t *links_total(sim_hdr_t *h, int *hot)
{
    const rck_chip_t *c = &h->chip;
    size_t n = (size_t)c->ntiles * SIM_LINK_DIRS;
    sim_link_t *per = sim_hdr_links(h), *t = calloc(n, sizeof(*t));

    *hot = -1;
    if (t == NULL)
        return NULL;
    for (uint32_t u = 0; u < h->nues; u++) {
        for (size_t i = 0; i < n; i++) {
            t[i].bytes += per[u * n + i].bytes;
            t[i].packets += per[u * n + i].packets;
        }
    }
    for (size_t i = 0; i < n; i++) {
        if (t[i].packets == 0)
            continue;
        if (*hot < 0 || t[i].bytes > t[*hot].bytes ||
            (t[i].bytes == t[*hot].bytes && t[i].packets > t[*hot].packets))
            *hot = (int)i;
    }
    return t;
}

/* The router at the other end of directed link @p i, or -1 (off the
 * mesh). */
static int link_to(const rck_chip_t *c, int i, int *fx, int *fy, int *tx,
                   int *ty)
{
    int tile = i / SIM_LINK_DIRS, dir = i % SIM_LINK_DIRS;

    *fx = tile % c->mesh_x;
    *fy = tile / c->mesh_x;
    *tx = *fx + (dir == SIM_LINK_E) - (dir == SIM_LINK_W);
    *ty = *fy + (dir == SIM_LINK_S) - (dir == SIM_LINK_N);
    return *tx >= 0 && *tx < c->mesh_x && *ty >= 0 && *ty < c->mesh_y ? 0
                                                                      : -1;
}

/* [x, y] of a router. */
static void json_xy(rck_jsonw_t *w, const char *key, int x, int y)
{
    rck_jsonw_array(w, key);
    rck_jsonw_int(w, NULL, x);
    rck_jsonw_int(w, NULL, y);
    rck_jsonw_end_array(w);
}

/* Every directed link of the mesh (XY routing of every MPB, DRAM, TAS,
 * register and interrupt transfer), and the busiest. */
static void json_links(rck_jsonw_t *w, sim_hdr_t *h, const sim_link_t *t,
                       int hot)
{
    const rck_chip_t *c = &h->chip;
    int n = c->ntiles * SIM_LINK_DIRS, fx, fy, tx, ty;
    uint64_t bytes = 0, packets = 0;

    if (t == NULL)
        return;
    rck_jsonw_array(w, "mesh_links");
    rck_jsonw_indent_items(w, 4);
    for (int i = 0; i < n; i++) {
        if (link_to(c, i, &fx, &fy, &tx, &ty) != 0)
            continue;
        bytes += t[i].bytes;
        packets += t[i].packets;
        rck_jsonw_object(w, NULL);
        json_xy(w, "from", fx, fy);
        json_xy(w, "to", tx, ty);
        rck_jsonw_uint(w, "bytes", t[i].bytes);
        rck_jsonw_uint(w, "packets", t[i].packets);
        rck_jsonw_end_object(w);
    }
    rck_jsonw_break(w, 2);
    rck_jsonw_end_array(w);
    rck_jsonw_object(w, "mesh_totals");
    rck_jsonw_uint(w, "link_bytes", bytes);
    rck_jsonw_uint(w, "link_packets", packets);
    rck_jsonw_end_object(w);
    if (hot >= 0) {
        link_to(c, hot, &fx, &fy, &tx, &ty);
        rck_jsonw_object(w, "hottest_link");
        json_xy(w, "from", fx, fy);
        json_xy(w, "to", tx, ty);
        rck_jsonw_uint(w, "bytes", t[hot].bytes);
        rck_jsonw_uint(w, "packets", t[hot].packets);
        rck_jsonw_end_object(w);
    }
}

/* The "cores" array's objects: one per UE. */
static void json_cores(rck_jsonw_t *w, sim_hdr_t *h, sim_ue_t *u)
{
    for (uint32_t i = 0; i < h->nues; i++) {
        sim_ue_t *e = &u[i];
        rck_jsonw_object(w, NULL);
        rck_jsonw_uint(w, "ue", i);
        rck_jsonw_int(w, "core", h->ue_core[i]);
        rck_jsonw_string(w, "end",
                         atomic_load(&h->ue_state[i]) == UE_DORMANT
                             ? "dormant" /* --universe: never started */
                             : end_name(atomic_load(&e->end)));
        rck_jsonw_uint(w, "cycles", cycles_of(e->vt));
        for (int k = 0; k < CAT_N; k++)
            rck_jsonw_uint(w, cat_names[k], cycles_of(e->cat[k]));
        rck_jsonw_uint(w, "own_clock_cycles", e->cyc / SIM_TICKS);
        rck_jsonw_uint(w, "hal_calls", e->events);
        rck_jsonw_uint(w, "handovers", e->handovers);
        rck_jsonw_uint(w, "yields", e->yields);
        rck_jsonw_uint(w, "parks", e->parks);
        rck_jsonw_uint(w, "mpb_lines_written", e->mpb_lines_written);
        rck_jsonw_uint(w, "mpb_lines_read", e->mpb_lines_read);
        rck_jsonw_uint(w, "stale_reads", e->stale_reads);
        rck_jsonw_uint(w, "dram_accesses", e->dram_tx);
        rck_jsonw_uint(w, "l2_hits", e->l2_hits);
        rck_jsonw_uint(w, "l2_misses", e->l2_misses);
        rck_jsonw_uint(w, "l2_writebacks", e->l2_writebacks);
        rck_jsonw_uint(w, "interrupts_taken", e->irqs);
        sim_p54c_report_core(w, h, i);
        rck_jsonw_end_object(w);
    }
}

/* The stale reads, and each read's place when hazards are recorded. */
static void json_stale(rck_jsonw_t *w, sim_hdr_t *h, sim_ue_t *u,
                       uint64_t stale)
{
    rck_jsonw_object(w, "stale_reads");
    rck_jsonw_uint(w, "total", stale);
    if (h->hazards) {
        rck_jsonw_array(w, "reads");
        rck_jsonw_indent_items(w, 4);
        for (uint32_t i = 0; i < h->nues; i++) {
            for (uint32_t k = 0; k < u[i].nhaz; k++) {
                const sim_hazard_t *z = &u[i].haz[k];
                rck_jsonw_object(w, NULL);
                rck_jsonw_int(w, "core", h->ue_core[i]);
                if (z->target >= 0) {
                    rck_jsonw_int(w, "mpb_core", z->target);
                    rck_jsonw_uint(w, "offset", z->off);
                } else {
                    rck_jsonw_uint(w, "shm_offset", z->off);
                }
                rck_jsonw_string(w, "call", z->ctx);
                rck_jsonw_int(w, "peer", z->peer);
                rck_jsonw_uint(w, "count", z->count);
                rck_jsonw_uint(w, "first_cycle", cycles_of(z->first_tick));
                rck_jsonw_end_object(w);
            }
        }
        rck_jsonw_break(w, 2);
        rck_jsonw_end_array(w);
    }
    rck_jsonw_end_object(w);
}

/* The report (docs/SIM.md, "Report") to @p fp; fails only when the
 * writer refuses the document or the stream fails. */
static rck_status_t json_write(FILE *fp, sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);
    const rck_chip_t *c = &h->chip;
    uint64_t tot[CAT_N] = {0}, tmax = 0, stale = 0;
    sim_pair_t *matrix = sim_hdr_matrix(h);
    sim_mc_t *mcs = sim_hdr_mcs(h);
    int abort = atomic_load(&h->abort);
    uint64_t hand = 0;
    int hot;
    sim_link_t *links = links_total(h, &hot);
    rck_jsonw_t jw, *w = &jw;
    rck_status_t st;

    for (uint32_t i = 0; i < h->nues; i++) {
        tmax = sim_max(tmax, u[i].vt);
        stale += u[i].stale_reads;
        hand += u[i].handovers;
        for (int k = 0; k < CAT_N; k++)
            tot[k] += u[i].cat[k];
    }
    rck_jsonw_init(w, fp, RCK_JSONW_NEWLINE);
    rck_jsonw_object(w, NULL);
    rck_jsonw_indent_items(w, 2);
    rck_jsonw_uint(w, "rockcreek_sim_report", 1);
    rck_jsonw_string(w, "chip", c->name);
    rck_jsonw_fixed(w, "core_mhz", c->core_mhz, 3);
    rck_jsonw_fixed(w, "mesh_mhz", c->mesh_mhz, 3);
    rck_jsonw_fixed(w, "memory_mhz", c->mem_mhz, 3);
    rck_jsonw_object(w, "compute_model");
    rck_jsonw_string(w, "name", sim_compute_name(h->compute));
    if (h->compute == COMPUTE_HOST)
        rck_jsonw_fixed(w, "relative_speed", h->compute_rel, 6);
    if (h->compute == COMPUTE_INSTR)
        rck_jsonw_fixed(w, "cpi", h->compute_cpi, 6);
    sim_p54c_report_model(w, h);
    rck_jsonw_end_object(w);
    if (h->sched_seed != 0)
        rck_jsonw_uint(w, "schedule", h->sched_seed);
    rck_jsonw_uint(w, "nues", h->nues);
    rck_jsonw_string(w, "ended",
                     abort == SIM_ABORT_DEADLOCK    ? "deadlock"
                     : abort == SIM_ABORT_PEER_DEAD ? "peer_died"
                                                    : "ok");
    if (atomic_load(&h->steals) > 0)
        rck_jsonw_uint(w, "watchdog_steals", atomic_load(&h->steals));
    rck_jsonw_uint(w, "simulated_cycles", cycles_of(tmax));
    rck_jsonw_fixed(w, "simulated_seconds",
                    (double)tmax / (double)SIM_TICKS / (c->core_mhz * 1e6),
                    9);
    rck_jsonw_uint(w, "handovers", hand);
    rck_jsonw_object(w, "cycles_all_cores");
    for (int k = 0; k < CAT_N; k++)
        rck_jsonw_uint(w, cat_names[k], cycles_of(tot[k]));
    rck_jsonw_end_object(w);
    rck_jsonw_array(w, "cores");
    rck_jsonw_indent_items(w, 4);
    json_cores(w, h, u);
    rck_jsonw_break(w, 2);
    rck_jsonw_end_array(w);
    rck_jsonw_array(w, "mpb_bytes_written");
    rck_jsonw_indent_items(w, 4);
    for (uint32_t i = 0; i < h->nues; i++) {
        for (int t = 0; t < c->ncores; t++) {
            const sim_pair_t *b =
                &matrix[(size_t)i * (size_t)c->ncores + (size_t)t];
            if (b->writes == 0)
                continue;
            rck_jsonw_object(w, NULL);
            rck_jsonw_int(w, "writer", h->ue_core[i]);
            rck_jsonw_int(w, "target", t);
            rck_jsonw_uint(w, "bytes", b->bytes);
            rck_jsonw_uint(w, "writes", b->writes);
            rck_jsonw_end_object(w);
        }
    }
    rck_jsonw_break(w, 2);
    rck_jsonw_end_array(w);
    rck_jsonw_array(w, "memory_controllers");
    rck_jsonw_indent_items(w, 4);
    for (int m = 0; m < c->nmc; m++) {
        rck_jsonw_object(w, NULL);
        rck_jsonw_int(w, "mc", m);
        rck_jsonw_uint(w, "accesses", mcs[m].accesses);
        rck_jsonw_uint(w, "queue_cycles", cycles_of(mcs[m].queued));
        rck_jsonw_end_object(w);
    }
    rck_jsonw_break(w, 2);
    rck_jsonw_end_array(w);
    json_links(w, h, links, hot);
    free(links);
    sim_monitor_report(w, h);
    if (abort == SIM_ABORT_DEADLOCK)
        json_deadlock(w, h);
    sim_power_report(w, h);
    json_stale(w, h, u, stale);
    rck_jsonw_break(w, 0);
    rck_jsonw_end_object(w);
    st = rck_jsonw_finish(w);
    if (st != RCK_OK)
        rck_error("sim: the report is incomplete: %s", rck_jsonw_error(w));
    return st;
}

static void summary(sim_hdr_t *h, const char *path, int written)
{
    sim_ue_t *u = sim_hdr_ues(h);
    const rck_chip_t *c = &h->chip;
    uint64_t tot[CAT_N] = {0}, all = 0, tmax = 0, hand = 0, stale = 0;
    double host = (double)(sim_host_ns() - h->host_t0_ns) * 1e-9;
    double sim_s, cyc;
    sim_link_t *links;
    int hot;

    if (!h->summary)
        return;
    for (uint32_t i = 0; i < h->nues; i++) {
        tmax = sim_max(tmax, u[i].vt);
        hand += u[i].handovers;
        stale += u[i].stale_reads;
        for (int k = 0; k < CAT_N; k++) {
            tot[k] += u[i].cat[k];
            all += u[i].cat[k];
        }
    }
    cyc = (double)tmax / (double)SIM_TICKS;
    sim_s = cyc / (c->core_mhz * 1e6);
    fprintf(stderr,
            "rck sim: %u cores, %.0f cycles = %.6f s of chip time at %.0f "
            "MHz, in %.2f s of host time (%.3g cycles per host second, "
            "%.3g%% of the chip's speed)\n",
            h->nues, cyc, sim_s, c->core_mhz, host,
            host > 0 ? cyc / host : 0.0, host > 0 ? 100.0 * sim_s / host : 0.0);
    if (h->sched_seed != 0)
        fprintf(stderr, "rck sim: schedule seed %llu\n",
                (unsigned long long)h->sched_seed);
    if (all > 0)
        fprintf(stderr,
                "rck sim: compute %.1f%%, MPB %.1f%%, DRAM %.1f%%, waiting "
                "%.1f%%, interrupts %.1f%%, other %.1f%% of all cores' "
                "cycles; %llu hand-overs; %llu stale reads (compute model "
                "%s)\n",
                100.0 * (double)tot[CAT_COMPUTE] / (double)all,
                100.0 * (double)tot[CAT_MPB] / (double)all,
                100.0 * (double)tot[CAT_DRAM] / (double)all,
                100.0 * (double)tot[CAT_WAIT] / (double)all,
                100.0 * (double)tot[CAT_IRQ] / (double)all,
                100.0 * (double)tot[CAT_OTHER] / (double)all,
                (unsigned long long)hand, (unsigned long long)stale,
                sim_compute_name(h->compute));
    sim_p54c_summary(h);
    links = links_total(h, &hot);
    if (links != NULL && hot >= 0) {
        int fx, fy, tx, ty;
        uint64_t bytes = 0;

        for (int i = 0; i < c->ntiles * SIM_LINK_DIRS; i++)
            bytes += links[i].bytes;
        link_to(c, hot, &fx, &fy, &tx, &ty);
        fprintf(stderr,
                "rck sim: hottest mesh link: tile (%d,%d) -> (%d,%d), %llu "
                "bytes in %llu packets (%.1f%% of the bytes on all links)\n",
                fx, fy, tx, ty, (unsigned long long)links[hot].bytes,
                (unsigned long long)links[hot].packets,
                bytes > 0 ? 100.0 * (double)links[hot].bytes / (double)bytes
                          : 0.0);
    }
    free(links);
    if (h->hazards) {
        for (uint32_t i = 0; i < h->nues; i++) {
            for (uint32_t k = 0; k < u[i].nhaz; k++) {
                const sim_hazard_t *z = &u[i].haz[k];
                char ctx[SIM_CTX_LEN + 32] = "";

                if (z->ctx[0] && z->peer >= 0)
                    snprintf(ctx, sizeof(ctx), " in %s (peer %d)", z->ctx,
                             z->peer);
                else if (z->ctx[0])
                    snprintf(ctx, sizeof(ctx), " in %s", z->ctx);
                if (z->target >= 0)
                    fprintf(stderr,
                            "rck sim: stale read: core %d (UE %u) read the "
                            "MPB of core %d at offset 0x%llx%s, changed "
                            "since it was cached, without CL1INVMB: %llu "
                            "times, first at cycle %llu\n",
                            h->ue_core[i], i, z->target,
                            (unsigned long long)z->off, ctx,
                            (unsigned long long)z->count,
                            cycles_of(z->first_tick));
                else
                    fprintf(stderr,
                            "rck sim: stale read: core %d (UE %u) read "
                            "shared DRAM at offset 0x%llx%s from its cache, "
                            "changed in memory since it was cached (no "
                            "flush or CL1INVMB): %llu times, first at cycle "
                            "%llu\n",
                            h->ue_core[i], i, (unsigned long long)z->off, ctx,
                            (unsigned long long)z->count,
                            cycles_of(z->first_tick));
            }
        }
    }
    if (written)
        fprintf(stderr, "rck sim: report in %s\n", path);
}


rck_status_t sim_report_write(sim_hdr_t *h)
{
    int32_t zero = 0;
    const char *path = h->report_path;
    char tmp[SIM_PATH_LEN + 32];
    int written = 0;
    rck_status_t st = RCK_OK;
    FILE *fp;

    if (!atomic_compare_exchange_strong(&h->reported, &zero, 1))
        return RCK_OK;
    if (path[0] != '\0') {
        snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
        fp = fopen(tmp, "w");
        if (fp == NULL) {
            /* the user's path, not the temporary one */
            rck_error("sim: cannot write the report %s: %s", path,
                      strerror(errno));
            st = RCK_ERR_IO;
        } else {
            rck_status_t wst = json_write(fp, h);
            if (wst != RCK_OK) { /* json_write said why */
                fclose(fp);
                unlink(tmp);
                st = RCK_ERR_IO;
            } else if (fclose(fp) != 0 || rename(tmp, path) != 0) {
                rck_error("sim: cannot write the report %s: %s", path,
                          strerror(errno));
                unlink(tmp);
                st = RCK_ERR_IO;
            } else {
                written = 1;
            }
        }
    }
    summary(h, path, written);
    if (sim_trace_merge(h) != RCK_OK)
        st = RCK_ERR_IO;
    return st;
}
