/*
 * The shared slots of the backends' ops tables (rck/hal.h: every slot
 * filled): what a backend without a feature points at, so that no caller
 * tests a slot for NULL. Each returns RCK_ERR_UNSUPPORTED where the call
 * asks for something that cannot be done, and otherwise does what the
 * feature's absence means (a hint ignored, nothing to record, the data and
 * the flag written in two steps).
 *
 * Owns: nothing with state. May call: the backend's own slots.
 * Used by: src/backends/native, sim, mpi.
 */
#ifndef RCK_BACKEND_DEFAULTS_H
#define RCK_BACKEND_DEFAULTS_H

#include "rck/hal.h"

/* ---- job ops ---- */

/** child_wrap: run the program as it is (NULL). */
char **rck_be_job_child_wrap_none(rck_job_t *job, int ue,
                                  char *const *argv);
/** core_attached: the backend cannot tell; 1 (the launcher then says
 *  nothing about a core that never attached). */
int rck_be_job_core_attached_unknown(rck_job_t *job, int ue);
/** tick: no status line; 0. */
int rck_be_job_tick_none(rck_job_t *job);
/** shm_auto: RCK_SHM_SIZE's fixed meaning of auto whatever the job;
 *  never capped. */
size_t rck_be_job_shm_auto_fixed(int nues, int *capped, size_t *want);

/* ---- core ops ---- */

/** attach_end: nothing to start. */
void rck_be_attach_end_none(rck_hal_t *hal);
/** mpb_prefetch: the hint is ignored (as on the chip). */
void rck_be_mpb_prefetch_none(rck_hal_t *hal, int core, uint32_t off,
                              size_t len);
/** mpb_write_flag: mpb_write, wcb_flush, then mpb_store32 of the flag. */
rck_status_t rck_be_mpb_write_flag_composed(rck_hal_t *hal, int core,
                                            uint32_t off, const void *src,
                                            size_t len, uint32_t flag_off,
                                            uint32_t flag);
/** set_message: no trace to record it in. */
void rck_be_set_message_none(rck_hal_t *hal, long long bytes, int tag,
                             int comm);
/** monitor: @p fn at once, with the wtime slot's seconds. */
void rck_be_monitor_now(rck_hal_t *hal, void (*fn)(void *arg, double seconds),
                        void *arg);
/** spawn_claim: RCK_ERR_UNSUPPORTED, not logged (the caller says why). */
rck_status_t rck_be_spawn_claim_unsupported(rck_hal_t *hal, int n, int *ues);
/** spawn_release: nothing was claimed. */
void rck_be_spawn_release_none(rck_hal_t *hal, int n, const int *ues);
/** lut_window: RCK_ERR_UNSUPPORTED, hal->lutwin_none says the backend has
 *  no LUT windows. */
rck_status_t rck_be_lut_window_none(rck_hal_t *hal,
                                    struct rck_lutwin_params *p);

#endif
