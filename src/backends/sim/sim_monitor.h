/*
 * Monitoring (sim_monitor.c, docs/MONITORING.md): the communication
 * matrix in the report, performance counters, the monitor slot, the
 * progress line. Its state in the segment is in sim_monitor_types.h.
 */
#ifndef RCK_SIM_MONITOR_H
#define RCK_SIM_MONITOR_H

#include "sim_state.h"
#include "rck/json.h"

#include <stdio.h>

/* ---- monitoring (sim_monitor.c) ---- */
rck_status_t sim_progress_configure(sim_hdr_t *h);
int sim_progress_tick(sim_hdr_t *h);
void sim_progress_end(sim_hdr_t *h);
void sim_monitor_report(rck_jsonw_t *w, sim_hdr_t *h);
rck_status_t sim_perfctr_event(sim_t *s, int event, uint64_t *value);
void sim_monitor_run(rck_hal_t *hal, void (*fn)(void *arg, double seconds),
                     void *arg);

#endif
