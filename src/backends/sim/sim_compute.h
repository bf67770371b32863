/*
 * The compute models (sim_compute.c): the program's work between two HAL
 * calls, in cycles; the P54C models below it are in sim_p54c.h.
 */
#ifndef RCK_SIM_COMPUTE_H
#define RCK_SIM_COMPUTE_H

#include "sim_state.h"

/* ---- compute models (sim_compute.c) ---- */
rck_status_t sim_compute_configure(sim_hdr_t *h, const char *program);
void sim_compute_init(sim_t *s);
/** The program's work is charged from here on (the first mark; the P54C
 *  model's caches start here): at the end of rck_hal_open. */
void sim_compute_start(sim_t *s);
void sim_compute_fini(sim_t *s);
/** Cycles of compute since the last mark; @p at_entry: at a HAL call's
 *  entry, where the core may get back in line (the P54C model's time-
 *  ordered booking), else not. */
double sim_compute_take(sim_t *s, int at_entry);
void sim_compute_mark(sim_t *s);
/** The core is about to sleep (a switch the clock need not detect). */
void sim_compute_sleep(sim_t *s);
/** ... and woke up. */
void sim_compute_woke(sim_t *s);

#endif
