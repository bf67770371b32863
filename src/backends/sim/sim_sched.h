/*
 * Schedule seeds (sim_sched.c): perturbations of the model's order that
 * `rck explore` runs a program under (docs/SIM.md, "Schedules").
 */
#ifndef RCK_SIM_SCHED_H
#define RCK_SIM_SCHED_H

#include "sim_state.h"

/* ---- schedule seeds (sim_sched.c); only with hdr->sched_seed != 0 ---- */
rck_status_t sim_sched_configure(sim_hdr_t *h);
/** Extra compute before draw @p n (the UE's event count) of UE @p ue. */
uint64_t sim_sched_compute_ticks(const sim_hdr_t *h, int ue, uint64_t n);
/** How much later parked UE @p ue notices its wake-up number @p n. */
uint64_t sim_sched_wake_ticks(const sim_hdr_t *h, int ue, uint64_t n);

#endif
