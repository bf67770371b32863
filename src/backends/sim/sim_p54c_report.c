/*
 * The P54C model's part of the report and of the summary line
 * (docs/P54C.md, "Report"): what the launcher reads from the cores' slots.
 */
#include "sim_state.h"
#include "sim_p54c.h"
#include "p54c_cpi.h"

#include <inttypes.h>
#include <stdio.h>

void sim_p54c_report_model(rck_jsonw_t *w, sim_hdr_t *h)
{
    const sim_p54c_job_t *p = &h->p54c;

    if (h->compute != COMPUTE_P54C && h->compute != COMPUTE_P54C_FAST)
        return;
    rck_jsonw_string(w, "engine", sim_p54c_engine_name(h));
    rck_jsonw_object(w, "cpi");
    for (int k = 0; k < P54C_NCLASS; k++)
        rck_jsonw_fixed(w, p54c_cpi_default[k].key, p->cpi[k], 4);
    rck_jsonw_end_object(w);
    if (p->detailed) {
        rck_jsonw_uint(w, "l1i_bytes", p->l1i_bytes);
        rck_jsonw_uint(w, "l1d_bytes", p->l1d_bytes);
        rck_jsonw_uint(w, "l1_ways", p->l1_ways);
        rck_jsonw_uint(w, "l2_bytes", p->l2_bytes);
        rck_jsonw_uint(w, "l2_ways", p->l2_ways);
    }
}

void sim_p54c_report_core(rck_jsonw_t *w, sim_hdr_t *h, uint32_t ue)
{
    const p54c_slot_t *s = sim_p54c_report_slot(h, ue);
    double cyc;

    if (s == NULL)
        return;
    cyc = (double)s->charged_ticks / SIM_TICKS;
    rck_jsonw_object(w, "p54c");
    rck_jsonw_uint(w, "instructions", s->charged_insns);
    rck_jsonw_fixed(w, "ipc",
                    cyc > 0 ? (double)s->charged_insns / cyc : 0.0, 4);
    if (h->p54c.detailed) {
        rck_jsonw_uint(w, "l1d_reads", s->l1d_reads);
        rck_jsonw_uint(w, "l1d_writes", s->l1d_writes);
        rck_jsonw_uint(w, "l1d_misses", s->l1d_misses);
        rck_jsonw_uint(w, "l1i_misses", s->l1i_misses);
        rck_jsonw_uint(w, "l2_hits", s->l2_hits);
        rck_jsonw_uint(w, "l2_misses", s->l2_misses);
        rck_jsonw_uint(w, "l2_writebacks", s->l2_writebacks);
        rck_jsonw_uint(w, "write_arounds", s->write_arounds);
        rck_jsonw_uint(w, "shm_accesses", s->shm_accesses);
        rck_jsonw_uint(w, "merged_stores", s->merged_stores);
        rck_jsonw_array(w, "dram_by_mc");
        for (int m = 0; m < h->chip.nmc && m < P54C_MAX_MC; m++) {
            rck_jsonw_object(w, NULL);
            rck_jsonw_int(w, "mc", m);
            rck_jsonw_uint(w, "transactions", s->dram_tx[m]);
            rck_jsonw_uint(w, "cycles", s->dram_ticks[m] / SIM_TICKS);
            rck_jsonw_end_object(w);
        }
        rck_jsonw_end_array(w);
    }
    rck_jsonw_end_object(w);
}

/* One line for the summary on stderr. */
void sim_p54c_summary(sim_hdr_t *h)
{
    uint64_t insns = 0, ticks = 0, l2m = 0, dram = 0, native = 0, steps = 0;

    if (sim_p54c_report_slot(h, 0) == NULL)
        return;
    for (uint32_t u = 0; u < h->nues; u++) {
        const p54c_slot_t *s = sim_p54c_report_slot(h, u);
        native += s->gate_done;
        steps += sim_hdr_ues(h)[u].book_steps;
        insns += s->charged_insns;
        ticks += s->charged_ticks;
        l2m += s->l2_misses;
        for (int m = 0; m < P54C_MAX_MC; m++)
            dram += s->dram_tx[m];
    }
    fprintf(stderr,
            "rck sim: %s (%s): %" PRIu64 " instructions in all cores, IPC "
            "%.3f over their compute cycles",
            h->p54c.detailed ? "p54c" : "p54c-fast", sim_p54c_engine_name(h),
            insns,
            ticks > 0 ? (double)insns / ((double)ticks / SIM_TICKS) : 0.0);
    if (h->p54c.detailed && h->p54c.engine == P54C_ENGINE_QEMU)
        fprintf(stderr, ", %" PRIu64 " L2 misses, %" PRIu64
                        " DRAM transactions of the program (%" PRIu64
                        " slices booked natively in the plugin)",
                l2m, dram, native);
    else if (h->p54c.detailed)
        fprintf(stderr, ", %" PRIu64 " L2 misses, %" PRIu64
                        " DRAM transactions of the program (memory checked "
                        "by the program's own code)",
                l2m, dram);
    else
        fprintf(stderr, "; memory not modelled (every access an L1 hit: "
                        "RCK_COMPUTE=p54c models the caches and DRAM)");
    if (h->p54c.detailed && h->p54c.order)
        fprintf(stderr, "; %" PRIu64 " booking steps taken for cores "
                        "stopped in time order",
                steps);
    fprintf(stderr, "\n");
    if (h->p54c.script_host > 0)
        fprintf(stderr,
                "rck sim: %u of %u cores ran a program without compiled "
                "counters (started by the script '%s'): the host compute "
                "model\n",
                h->p54c.script_host, h->nues, h->p54c.program);
}
