/*
 * Reports of a sim run: the JSON file (deterministic: only virtual-time
 * figures, so two runs of the same program and configuration give the
 * same bytes), the short human summary on stderr (which alone carries host
 * time and simulation speed), and the deadlock report.
 */
#include "sim_internal.h"

#include "rck/log.h"

#include <errno.h>
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

static void json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
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

void sim_report_deadlock(sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);

    rck_error("sim: deadlock at cycle %llu: every core still running waits "
              "and nothing in flight can wake any of them",
              cycles_of(h->deadlock_tick));
    for (uint32_t i = 0; i < h->nues; i++) {
        uint32_t st = atomic_load(&u[i].state);
        char ctx[SIM_CTX_LEN + 32] = "", what[160];

        if (atomic_load(&u[i].end) != UE_END_DEADLOCK) {
            if (st == UE_DONE)
                rck_error("  core %d (UE %u) has exited", h->ue_core[i], i);
            continue;
        }
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
        json_string(fp, u[i].ctx);
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

static void json_write(FILE *fp, sim_hdr_t *h)
{
    sim_ue_t *u = sim_hdr_ues(h);
    const rck_chip_t *c = &h->chip;
    uint64_t tot[CAT_N] = {0}, tmax = 0, stale = 0;
    uint64_t *matrix = sim_hdr_matrix(h);
    sim_mc_t *mcs = sim_hdr_mcs(h);
    int abort = atomic_load(&h->abort);
    int first;

    for (uint32_t i = 0; i < h->nues; i++) {
        tmax = sim_max(tmax, u[i].vt);
        stale += u[i].stale_reads;
        for (int k = 0; k < CAT_N; k++)
            tot[k] += u[i].cat[k];
    }
    fprintf(fp, "{\n  \"rockcreek_sim_report\": 1,\n  \"chip\": ");
    json_string(fp, c->name);
    fprintf(fp, ",\n  \"core_mhz\": %.3f,\n  \"mesh_mhz\": %.3f,\n"
                "  \"memory_mhz\": %.3f,\n",
            c->core_mhz, c->mesh_mhz, c->mem_mhz);
    fprintf(fp, "  \"compute_model\": {\"name\": \"%s\"",
            sim_compute_name(h->compute));
    if (h->compute == COMPUTE_HOST)
        fprintf(fp, ", \"relative_speed\": %.6f", h->compute_rel);
    if (h->compute == COMPUTE_INSTR)
        fprintf(fp, ", \"cpi\": %.6f", h->compute_cpi);
    fprintf(fp, "},\n  \"nues\": %u,\n  \"ended\": \"%s\",\n", h->nues,
            abort == SIM_ABORT_DEADLOCK    ? "deadlock"
            : abort == SIM_ABORT_PEER_DEAD ? "peer_died"
                                           : "ok");
    if (atomic_load(&h->steals) > 0)
        fprintf(fp, "  \"watchdog_steals\": %u,\n", atomic_load(&h->steals));
    fprintf(fp, "  \"simulated_cycles\": %llu,\n"
                "  \"simulated_seconds\": %.9f,\n",
            cycles_of(tmax),
            (double)tmax / (double)SIM_TICKS / (c->core_mhz * 1e6));
    fprintf(fp, "  \"cycles_all_cores\": {");
    for (int k = 0; k < CAT_N; k++)
        fprintf(fp, "%s\"%s\": %llu", k ? ", " : "", cat_names[k],
                cycles_of(tot[k]));
    fprintf(fp, "},\n  \"cores\": [");
    for (uint32_t i = 0; i < h->nues; i++) {
        sim_ue_t *e = &u[i];
        fprintf(fp,
                "%s\n    {\"ue\": %u, \"core\": %d, \"end\": \"%s\", "
                "\"cycles\": %llu",
                i ? "," : "", i, h->ue_core[i], end_name(atomic_load(&e->end)),
                cycles_of(e->vt));
        for (int k = 0; k < CAT_N; k++)
            fprintf(fp, ", \"%s\": %llu", cat_names[k], cycles_of(e->cat[k]));
        fprintf(fp,
                ", \"own_clock_cycles\": %llu, \"hal_calls\": %llu, "
                "\"handovers\": %llu, \"yields\": %llu, \"parks\": %llu, "
                "\"mpb_lines_written\": %llu, \"mpb_lines_read\": %llu, "
                "\"stale_reads\": %llu, \"dram_lines\": %llu, "
                "\"interrupts_taken\": %llu}",
                (unsigned long long)(e->cyc / SIM_TICKS),
                (unsigned long long)e->events,
                (unsigned long long)e->handovers,
                (unsigned long long)e->yields,
                (unsigned long long)e->parks,
                (unsigned long long)e->mpb_lines_written,
                (unsigned long long)e->mpb_lines_read,
                (unsigned long long)e->stale_reads,
                (unsigned long long)e->dram_lines,
                (unsigned long long)e->irqs);
    }
    fprintf(fp, "\n  ],\n  \"mpb_bytes_written\": [");
    first = 1;
    for (uint32_t i = 0; i < h->nues; i++) {
        for (int t = 0; t < c->ncores; t++) {
            uint64_t b = matrix[(size_t)i * (size_t)c->ncores + (size_t)t];
            if (b == 0)
                continue;
            fprintf(fp, "%s\n    {\"writer\": %d, \"target\": %d, "
                        "\"bytes\": %llu}",
                    first ? "" : ",", h->ue_core[i], t,
                    (unsigned long long)b);
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
    if (abort == SIM_ABORT_DEADLOCK)
        json_deadlock(fp, h);
    fprintf(fp, "  \"stale_reads\": {\"total\": %llu",
            (unsigned long long)stale);
    if (h->hazards) {
        fprintf(fp, ", \"reads\": [");
        first = 1;
        for (uint32_t i = 0; i < h->nues; i++) {
            for (uint32_t k = 0; k < u[i].nhaz; k++) {
                const sim_hazard_t *z = &u[i].haz[k];
                fprintf(fp,
                        "%s\n    {\"core\": %d, \"mpb_core\": %u, "
                        "\"offset\": %u, \"call\": ",
                        first ? "" : ",", h->ue_core[i], z->target, z->off);
                json_string(fp, z->ctx);
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
    const char *env = getenv("RCK_SIM_SUMMARY");

    if (env != NULL && !strcmp(env, "0"))
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
                fprintf(stderr,
                        "rck sim: stale read: core %d (UE %u) read the MPB "
                        "of core %u at offset 0x%x%s, changed since it was "
                        "cached, without CL1INVMB: %llu times, first at "
                        "cycle %llu\n",
                        h->ue_core[i], i, z->target, z->off, ctx,
                        (unsigned long long)z->count,
                        cycles_of(z->first_tick));
            }
        }
    }
    if (written)
        fprintf(stderr, "rck sim: report in %s\n", path);
}

void sim_report_write(sim_hdr_t *h)
{
    int32_t zero = 0;
    const char *path = h->report_path;
    char tmp[SIM_PATH_LEN + 32];
    int written = 0;
    FILE *fp;

    if (!atomic_compare_exchange_strong(&h->reported, &zero, 1))
        return;
    if (path[0] != '\0') {
        snprintf(tmp, sizeof(tmp), "%s.%ld.tmp", path, (long)getpid());
        fp = fopen(tmp, "w");
        if (fp == NULL) {
            rck_error("sim: cannot write the report %s: %s", tmp,
                      strerror(errno));
        } else {
            json_write(fp, h);
            if (fclose(fp) != 0 || rename(tmp, path) != 0) {
                rck_error("sim: cannot write the report %s: %s", path,
                          strerror(errno));
                unlink(tmp);
            } else {
                written = 1;
            }
        }
    }
    summary(h, path, written);
}
