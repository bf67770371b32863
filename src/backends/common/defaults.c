/*
 * The shared slots of the backends' ops tables (defaults.h).
 */
#include "common/defaults.h"

#include "rck/config.h"

char **rck_be_job_child_wrap_none(rck_job_t *job, int ue, char *const *argv)
{
    (void)job;
    (void)ue;
    (void)argv;
    return NULL;
}

int rck_be_job_core_attached_unknown(rck_job_t *job, int ue)
{
    (void)job;
    (void)ue;
    return 1;
}

int rck_be_job_tick_none(rck_job_t *job)
{
    (void)job;
    return 0;
}

size_t rck_be_job_shm_auto_fixed(int nues, int *capped, size_t *want)
{
    (void)nues;
    *capped = 0;
    *want = rck_config_size_auto("SHM_SIZE");
    return *want;
}

void rck_be_attach_end_none(rck_hal_t *hal)
{
    (void)hal;
}

void rck_be_mpb_prefetch_none(rck_hal_t *hal, int core, uint32_t off,
                              size_t len)
{
    (void)hal;
    (void)core;
    (void)off;
    (void)len;
}

rck_status_t rck_be_mpb_write_flag_composed(rck_hal_t *hal, int core,
                                            uint32_t off, const void *src,
                                            size_t len, uint32_t flag_off,
                                            uint32_t flag)
{
    rck_status_t st;

    if (len > 0 && (st = hal->ops->mpb_write(hal, core, off, src, len)) !=
                       RCK_OK)
        return st;
    hal->ops->wcb_flush(hal);
    return hal->ops->mpb_store32(hal, core, flag_off, flag);
}

void rck_be_set_message_none(rck_hal_t *hal, long long bytes, int tag,
                             int comm)
{
    (void)hal;
    (void)bytes;
    (void)tag;
    (void)comm;
}

void rck_be_monitor_now(rck_hal_t *hal, void (*fn)(void *arg, double seconds),
                        void *arg)
{
    double s = 0;

    hal->ops->wtime(hal, &s);
    fn(arg, s);
}

rck_status_t rck_be_spawn_claim_unsupported(rck_hal_t *hal, int n, int *ues)
{
    (void)hal;
    (void)n;
    (void)ues;
    return RCK_ERR_UNSUPPORTED;
}

void rck_be_spawn_release_none(rck_hal_t *hal, int n, const int *ues)
{
    (void)hal;
    (void)n;
    (void)ues;
}

rck_status_t rck_be_lut_window_none(rck_hal_t *hal,
                                    struct rck_lutwin_params *p)
{
    (void)p;
    hal->lutwin_none = "the backend has no LUT windows";
    return RCK_ERR_UNSUPPORTED;
}
