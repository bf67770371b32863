/*
 * What the process-per-core backends share (backend.h).
 */
#include "backend.h"
#include "seg.h"

#include "rck/log.h"

#include <stdio.h>
#include <stdlib.h>

static int dl_armed, dl_registered;
static void (*dl_before)(void);

/* atexit: the status of a deadlocked core, even if its program returned 0
 * (exit's status cannot be changed but by ending here). */
static void dl_atexit(void)
{
    if (!dl_armed)
        return;
    if (dl_before != NULL)
        dl_before();
    fflush(NULL);
    _exit(RCK_HAL_EXIT_DEADLOCK);
}

void rck_be_deadlock_exit_setup(void (*before)(void))
{
    dl_before = before;
    if (!dl_registered && atexit(dl_atexit) == 0)
        dl_registered = 1;
}

int rck_be_deadlock_exit_arm(void)
{
    int was = dl_armed;

    dl_armed = 1;
    return was;
}

rck_status_t rck_be_solo_job(rck_status_t (*create)(const rck_job_params_t *p,
                                                    rck_job_t **job),
                             rck_job_t **job)
{
    rck_chip_t chip;
    rck_job_params_t p;
    rck_status_t st;
    int core0;

    st = rck_seg_solo_params(&chip, &core0, &p);
    if (st != RCK_OK)
        return st;
    return create(&p, job);
}

rck_status_t rck_be_volt_wait_instant(rck_hal_t *hal, int island)
{
    (void)hal;
    (void)island;
    return RCK_OK;
}

rck_status_t rck_be_power_unsupported(rck_hal_t *hal, double *watts)
{
    (void)watts;
    rck_error("power_read: the %s backend has no power model (the sim "
              "backend models the chip's power sensor)",
              hal->ops->name);
    return RCK_ERR_UNSUPPORTED;
}
