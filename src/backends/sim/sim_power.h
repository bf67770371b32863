/*
 * The power model and the voltage regulators (sim_power.c,
 * docs/POWER.md): what it offers; its state in the segment is in
 * sim_power_types.h.
 */
#ifndef RCK_SIM_POWER_H
#define RCK_SIM_POWER_H

#include "sim_state.h"
#include "rck/json.h"

#include <stdio.h>

/* ---- power model and regulators (sim_power.c, docs/POWER.md) ---- */
rck_status_t sim_power_configure(sim_hdr_t *h);
void sim_power_charge(sim_t *s, uint64_t ticks, int cat, double mhz);
void sim_power_log(sim_t *s, int island, int what, int value, uint64_t done);
rck_status_t sim_power_volt_set(sim_t *s, int island, int mv);
int sim_power_volt_get(sim_t *s, int island);
uint64_t sim_power_volt_done(sim_t *s, int island);
double sim_power_sensor(sim_t *s);
double sim_power_leak_j(const sim_hdr_t *h, int island, uint64_t t0,
                        uint64_t t1);
void sim_power_report(rck_jsonw_t *w, sim_hdr_t *h);
void sim_power_trace(rck_jsonw_t *w, sim_hdr_t *h);

#endif
