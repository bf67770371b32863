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

void sim_json_string(FILE *fp, const char *s)
{
    rck_json_write_string(fp, s);
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

static void json_deadlock(FILE *fp, sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);
    int first = 1;

    fprintf(fp, "  \"deadlock\": {\"cycle\": %llu, \"waits\": [",
            cycles_of(h->deadlock_tick));
    for (uint32_t i = 0; i < h->nues; i++) {
        /* the cores that were parked when the deadlock was found */
        if (atomic_load(&u[i].end) != UE_END_DEADLOCK)
            continue;
        fprintf(fp, "%s\n    {\"ue\": %u, \"core\": %d, \"call\": ",
                first ? "" : ",", i, h->ue_core[i]);
        sim_json_string(fp, u[i].ctx);
        fprintf(fp, ", \"peer\": %d, \"since_cycle\": %llu, \"words\": [",
                u[i].ctx_peer, cycles_of(u[i].wait_start));
        for (int k = 0; k < u[i].nconds; k++) {
            const rck_hal_cond_t *c = &u[i].conds[k];
            fprintf(fp,
                    "%s{\"space\": \"%s\", \"core\": %d, \"offset\": %u, "
                    "\"mask\": %u, \"op\": \"%s\", \"value\": %u, "
                    "\"now\": %u}",
                    k ? ", " : "", space_name(c->space),
                    c->space == RCK_SPACE_SHM ? -1 : c->core, c->offset,
                    c->mask, c->op == RCK_COND_EQ ? "==" : "!=", c->value,
                    sim_word(h, c));
        }
        fprintf(fp, "], \"interrupt\": %s}",
                (u[i].park_flags & PARK_IRQ) ? "true" : "false");
        first = 0;
    }
    fprintf(fp, "\n  ]},\n");
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

/* Every directed link of the mesh (XY routing of every MPB, DRAM, TAS,
 * register and interrupt transfer), and the busiest. */
static void json_links(FILE *fp, sim_hdr_t *h, const sim_link_t *t, int hot)
{
    const rck_chip_t *c = &h->chip;
    int n = c->ntiles * SIM_LINK_DIRS, first = 1, fx, fy, tx, ty;
    uint64_t bytes = 0, packets = 0;

    if (t == NULL)
        return;
    fprintf(fp, "  \"mesh_links\": [");
    for (int i = 0; i < n; i++) {
        if (link_to(c, i, &fx, &fy, &tx, &ty) != 0)
            continue;
        bytes += t[i].bytes;
        packets += t[i].packets;
        fprintf(fp,
                "%s\n    {\"from\": [%d, %d], \"to\": [%d, %d], "
                "\"bytes\": %llu, \"packets\": %llu}",
                first ? "" : ",", fx, fy, tx, ty,
                (unsigned long long)t[i].bytes,
                (unsigned long long)t[i].packets);
        first = 0;
    }
    fprintf(fp, "\n  ],\n  \"mesh_totals\": {\"link_bytes\": %llu, "
                "\"link_packets\": %llu},\n",
            (unsigned long long)bytes, (unsigned long long)packets);
    if (hot >= 0) {
        link_to(c, hot, &fx, &fy, &tx, &ty);
        fprintf(fp,
                "  \"hottest_link\": {\"from\": [%d, %d], \"to\": [%d, %d], "
                "\"bytes\": %llu, \"packets\": %llu},\n",
                fx, fy, tx, ty, (unsigned long long)t[hot].bytes,
                (unsigned long long)t[hot].packets);
    }
}

/* The "cores" array: one object per UE. */
static void json_cores(FILE *fp, sim_hdr_t *h, sim_ue_t *u)
{
    for (uint32_t i = 0; i < h->nues; i++) {
        sim_ue_t *e = &u[i];
        fprintf(fp,
                "%s\n    {\"ue\": %u, \"core\": %d, \"end\": \"%s\", "
                "\"cycles\": %llu",
                i ? "," : "", i, h->ue_core[i],
                atomic_load(&h->ue_state[i]) == UE_DORMANT
                    ? "dormant" /* --universe: never started */
                    : end_name(atomic_load(&e->end)),
                cycles_of(e->vt));
        for (int k = 0; k < CAT_N; k++)
            fprintf(fp, ", \"%s\": %llu", cat_names[k], cycles_of(e->cat[k]));
        fprintf(fp,
                ", \"own_clock_cycles\": %llu, \"hal_calls\": %llu, "
                "\"handovers\": %llu, \"yields\": %llu, \"parks\": %llu, "
                "\"mpb_lines_written\": %llu, \"mpb_lines_read\": %llu, "
                "\"stale_reads\": %llu, \"dram_accesses\": %llu, "
                "\"l2_hits\": %llu, \"l2_misses\": %llu, "
                "\"l2_writebacks\": %llu, \"interrupts_taken\": %llu",
                (unsigned long long)(e->cyc / SIM_TICKS),
                (unsigned long long)e->events,
                (unsigned long long)e->handovers,
                (unsigned long long)e->yields,
                (unsigned long long)e->parks,
                (unsigned long long)e->mpb_lines_written,
                (unsigned long long)e->mpb_lines_read,
                (unsigned long long)e->stale_reads,
                (unsigned long long)e->dram_tx,
                (unsigned long long)e->l2_hits,
                (unsigned long long)e->l2_misses,
                (unsigned long long)e->l2_writebacks,
                (unsigned long long)e->irqs);
        sim_p54c_report_core(fp, h, i);
        fprintf(fp, "}");
    }
}

static void json_write(FILE *fp, sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);
    const rck_chip_t *c = &h->chip;
    uint64_t tot[CAT_N] = {0}, tmax = 0, stale = 0;
    sim_pair_t *matrix = sim_hdr_matrix(h);
    sim_mc_t *mcs = sim_hdr_mcs(h);
    int abort = atomic_load(&h->abort);
    uint64_t hand = 0;
    int first, hot;
    sim_link_t *links = links_total(h, &hot);

    for (uint32_t i = 0; i < h->nues; i++) {
        tmax = sim_max(tmax, u[i].vt);
        stale += u[i].stale_reads;
        hand += u[i].handovers;
        for (int k = 0; k < CAT_N; k++)
            tot[k] += u[i].cat[k];
    }
    fprintf(fp, "{\n  \"rockcreek_sim_report\": 1,\n  \"chip\": ");
    sim_json_string(fp, c->name);
    fprintf(fp, ",\n  \"core_mhz\": %.3f,\n  \"mesh_mhz\": %.3f,\n"
                "  \"memory_mhz\": %.3f,\n",
            c->core_mhz, c->mesh_mhz, c->mem_mhz);
    fprintf(fp, "  \"compute_model\": {\"name\": \"%s\"",
            sim_compute_name(h->compute));
    if (h->compute == COMPUTE_HOST)
        fprintf(fp, ", \"relative_speed\": %.6f", h->compute_rel);
    if (h->compute == COMPUTE_INSTR)
        fprintf(fp, ", \"cpi\": %.6f", h->compute_cpi);
    sim_p54c_report_model(fp, h);
    fprintf(fp, "},\n");
    if (h->sched_seed != 0)
        fprintf(fp, "  \"schedule\": %llu,\n",
                (unsigned long long)h->sched_seed);
    fprintf(fp, "  \"nues\": %u,\n  \"ended\": \"%s\",\n", h->nues,
            abort == SIM_ABORT_DEADLOCK    ? "deadlock"
            : abort == SIM_ABORT_PEER_DEAD ? "peer_died"
                                           : "ok");
    if (atomic_load(&h->steals) > 0)
        fprintf(fp, "  \"watchdog_steals\": %u,\n", atomic_load(&h->steals));
    fprintf(fp, "  \"simulated_cycles\": %llu,\n"
                "  \"simulated_seconds\": %.9f,\n"
                "  \"handovers\": %llu,\n",
            cycles_of(tmax),
            (double)tmax / (double)SIM_TICKS / (c->core_mhz * 1e6),
            (unsigned long long)hand);
    fprintf(fp, "  \"cycles_all_cores\": {");
    for (int k = 0; k < CAT_N; k++)
        fprintf(fp, "%s\"%s\": %llu", k ? ", " : "", cat_names[k],
                cycles_of(tot[k]));
    fprintf(fp, "},\n  \"cores\": [");
    json_cores(fp, h, u);
    fprintf(fp, "\n  ],\n  \"mpb_bytes_written\": [");
    first = 1;
    for (uint32_t i = 0; i < h->nues; i++) {
        for (int t = 0; t < c->ncores; t++) {
            const sim_pair_t *b =
                &matrix[(size_t)i * (size_t)c->ncores + (size_t)t];
            if (b->writes == 0)
                continue;
            fprintf(fp, "%s\n    {\"writer\": %d, \"target\": %d, "
                        "\"bytes\": %llu, \"writes\": %llu}",
                    first ? "" : ",", h->ue_core[i], t,
                    (unsigned long long)b->bytes,
                    (unsigned long long)b->writes);
            first = 0;
        }
    }
    fprintf(fp, "\n  ],\n  \"memory_controllers\": [");
    for (int m = 0; m < c->nmc; m++)
        fprintf(fp, "%s\n    {\"mc\": %d, \"accesses\": %llu, "
                    "\"queue_cycles\": %llu}",
                m ? "," : "", m, (unsigned long long)mcs[m].accesses,
                cycles_of(mcs[m].queued));
    fprintf(fp, "\n  ],\n");
    json_links(fp, h, links, hot);
    free(links);
    sim_monitor_report(fp, h);
    if (abort == SIM_ABORT_DEADLOCK)
        json_deadlock(fp, h);
    sim_power_report(fp, h);
    fprintf(fp, "  \"stale_reads\": {\"total\": %llu",
            (unsigned long long)stale);
    if (h->hazards) {
        fprintf(fp, ", \"reads\": [");
        first = 1;
        for (uint32_t i = 0; i < h->nues; i++) {
            for (uint32_t k = 0; k < u[i].nhaz; k++) {
                const sim_hazard_t *z = &u[i].haz[k];
                if (z->target >= 0)
                    fprintf(fp,
                            "%s\n    {\"core\": %d, \"mpb_core\": %d, "
                            "\"offset\": %llu, \"call\": ",
                            first ? "" : ",", h->ue_core[i], z->target,
                            (unsigned long long)z->off);
                else
                    fprintf(fp,
                            "%s\n    {\"core\": %d, \"shm_offset\": %llu, "
                            "\"call\": ",
                            first ? "" : ",", h->ue_core[i],
                            (unsigned long long)z->off);
                sim_json_string(fp, z->ctx);
                fprintf(fp, ", \"peer\": %d, \"count\": %llu, "
                            "\"first_cycle\": %llu}",
                        z->peer, (unsigned long long)z->count,
                        cycles_of(z->first_tick));
                first = 0;
            }
        }
        fprintf(fp, "\n  ]");
    }
    fprintf(fp, "}\n}\n");
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
            json_write(fp, h);
            if (fclose(fp) != 0 || rename(tmp, path) != 0) {
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
