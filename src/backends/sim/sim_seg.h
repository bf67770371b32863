/*
 * The segment and its lifecycle (sim_seg.c): its layout, its creation by
 * the launcher with the run's settings, a process's view of it, and a
 * core's attachment to it (mapping, its caches and map) and detachment.
 */
#ifndef RCK_SIM_SEG_H
#define RCK_SIM_SEG_H

#include "sim_state.h"

struct rck_job {
    int fd;
    sim_hdr_t *hdr;
    size_t bytes;
    int pin_fd;                /* holds this run's CPU (pin_auto), or -1 */
    int dram_fd;               /* private DRAM of the LUT windows, or -1 */
};

struct rck_lutwin_params;
/** The lut_window slot (rck/hal.h). */
rck_status_t sim_seg_lut_window(rck_hal_t *hal, struct rck_lutwin_params *p);

/** Make the segment of a run (the launcher). */
rck_status_t sim_seg_create(const rck_job_params_t *p, rck_job_t **job_out);
/** Pass the segment to the process of UE @p ue. */
rck_status_t sim_seg_child_setup(rck_job_t *job, int ue);
/** Unmap and free the run's segment (the report is written before). */
void sim_seg_destroy(rck_job_t *job);
/** Map the segment into this process (or make a private one-core run)
 * as the UE of RCK_UE, with this core's caches; fills in @p hal. */
rck_status_t sim_seg_attach(rck_hal_t *hal, sim_t **out);
/** Free what sim_seg_attach made and unmap the segment. */
void sim_seg_detach(sim_t *s);

/** A view of the segment for a process without a core (the launcher). */
void sim_view_init(sim_t *v, sim_hdr_t *h);

#endif
