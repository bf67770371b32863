/*
 * The sim backend's monitoring (docs/MONITORING.md): the communication
 * matrix in the report, the performance counters' events, the HAL's
 * monitor slot (message-log lines that cost no chip time), and the
 * progress line a long run prints on stderr.
 *
 * Owns: sim_monitor_job_t (in the header). May call: the compute models
 * (take and mark, as a HAL call's entry and exit do), the charge model,
 * common/comm.c. Called by the HAL slots (sim.c), the report
 * (sim_report.c) and the launcher's job_tick slot.
 */
#include "sim_monitor.h"
#include "sim_state.h"
#include "sim_compute.h"
#include "sim_charge.h"
#include "common/comm.h"

#include "rck/config.h"
#include "rck/log.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* ---- the communication matrix ---- */

void sim_monitor_report(rck_jsonw_t *w, sim_hdr_t *h)
{
    rck_be_comm_json(w, "comm", sim_hdr_comm(h, 0), (int)h->nues, 2);
}

/* ---- the message log's lines ---- */

/* As a HAL call's entry charges the compute since the previous call and
 * its exit restarts the compute clock, without an event: @p fn's host
 * time (or instructions, p54c) is nobody's, and no cost is charged. */
void sim_monitor_run(rck_hal_t *hal, void (*fn)(void *arg, double seconds),
                     void *arg)
{
    sim_t *s = sim_of(hal);
    double cyc = sim_compute_take(s, 0);

    if (cyc > 0)
        advance_cycles(s, cyc, CAT_COMPUTE);
    fn(arg, (double)s->me->vt / (double)SIM_TICKS /
                (s->chip->core_mhz * 1e6));
    /* the p54c model's take marks the core as in the HAL */
    atomic_store_explicit(&s->me->in_hal, 0, memory_order_release);
    sim_compute_mark(s);
}

/* ---- performance counters ---- */

/* The value of @p event on this core (docs/MONITORING.md, which events
 * under which compute model). */
rck_status_t sim_perfctr_event(sim_t *s, int event, uint64_t *value)
{
    const p54c_slot_t *slot = s->p54c.slot;
    int detailed = slot != NULL && s->hdr->p54c.detailed;

    switch (event) {
    case RCK_PERF_INSTRUCTIONS:
        if (slot == NULL && s->compute != COMPUTE_INSTR)
            break;
        *value = s->me->instructions;
        return RCK_OK;
    case RCK_PERF_DATA_MISS:
        *value = s->me->l1_misses + (detailed ? slot->l1d_misses : 0);
        return RCK_OK;
    case RCK_PERF_NC_READS:
        *value = s->me->nc_reads;
        return RCK_OK;
    case RCK_PERF_DATA_RW:
        if (!detailed)
            break;
        *value = slot->l1d_reads + slot->l1d_writes;
        return RCK_OK;
    case RCK_PERF_CODE_MISS:
        if (!detailed)
            break;
        *value = slot->l1i_misses;
        return RCK_OK;
    }
    return RCK_ERR_UNSUPPORTED;
}

/* ---- progress ---- */

rck_status_t sim_progress_configure(sim_hdr_t *h)
{
    const char *v = rck_config_get("PROGRESS");
    sim_monitor_job_t *m = &h->mon;
    char *end;
    double p;

    m->progress_tty = isatty(2);
    if (*v == '\0' || !strcasecmp(v, "auto")) {
        m->progress_s = m->progress_tty ? 1.0 : 0.0;
    } else if (!strcasecmp(v, "on") || !strcmp(v, "1")) {
        m->progress_s = 1.0;
    } else if (!strcasecmp(v, "off") || !strcmp(v, "0")) {
        m->progress_s = 0.0;
    } else {
        errno = 0;
        p = strtod(v, &end);
        if (errno != 0 || end == v || *end != '\0' || !(p > 0) || p > 3600) {
            rck_error("RCK_PROGRESS='%s' is not auto, on, off or a period "
                      "in seconds",
                      v);
            return RCK_ERR_CONFIG;
        }
        m->progress_s = p;
    }
    m->progress_next_ns =
        h->host_t0_ns + (uint64_t)(m->progress_s * 1e9);
    return RCK_OK;
}

#define PROGRESS_WIDTH 100

/* @return 1 while the line is on a terminal (the launcher erases it before
 * it prints a core's output, and the next tick prints it again). */
int sim_progress_tick(sim_hdr_t *h)
{
    sim_monitor_job_t *m = &h->mon;
    uint64_t now = sim_host_ns(), tmax = 0;
    sim_ue_t *u = sim_hdr_ues(h);
    double cyc, host;
    int n;

    if (m->progress_s <= 0 || now < m->progress_next_ns)
        return m->progress_shown && m->progress_tty;
    m->progress_next_ns = now + (uint64_t)(m->progress_s * 1e9);
    for (uint32_t i = 0; i < h->nues; i++)
        tmax = sim_max(tmax, __atomic_load_n(&u[i].vt, __ATOMIC_RELAXED));
    cyc = (double)tmax / (double)SIM_TICKS;
    host = (double)(now - h->host_t0_ns) * 1e-9;
    n = fprintf(stderr,
                "\rrck sim: %.6f s of chip time (%.4g cycles), %.3g cycles "
                "per host second, %.1f s elapsed",
                cyc / (h->chip.core_mhz * 1e6), cyc,
                host > 0 ? cyc / host : 0.0, host);
    if (m->progress_tty)
        fprintf(stderr, "\033[K"); /* erase the rest of a longer line */
    else if (n > 0 && n < PROGRESS_WIDTH)
        fprintf(stderr, "%*s", PROGRESS_WIDTH - n, "");
    m->progress_shown = 1;
    fflush(stderr);
    return m->progress_tty;
}

/* The run ends: a terminal gets its line blanked; a file (progress forced
 * on) gets a last line, with the run's final figures, and a line end. */
void sim_progress_end(sim_hdr_t *h)
{
    sim_monitor_job_t *m = &h->mon;

    if (m->progress_s > 0 && !m->progress_tty) {
        m->progress_next_ns = 0;
        sim_progress_tick(h);
    }
    if (!m->progress_shown)
        return;
    if (m->progress_tty)
        fprintf(stderr, "\r\033[K");
    else
        fprintf(stderr, "\n");
    m->progress_shown = 0;
}
