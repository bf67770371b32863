/*
 * The native backend's LUT window: what the core's window maps
 * (rck/lutwin.h, docs/LUT.md). The entries themselves are the chip
 * state's (common/chipstate.h: rck_cs_lut_read, rck_cs_lut_write).
 *
 * Owns: nothing with state but the segment header the window reads.
 * May call: the segment (native_internal.h).
 */
#include "native_internal.h"

#include "rck/lutwin.h"

/* The window reads this core's LUT from its state in the segment
 * (lut_arg) and finds the MPBs by the segment header's layout. */
static uint32_t native_lut_get(void *arg, int idx)
{
    return atomic_load_explicit(&((rck_cs_core_t *)arg)->lut[idx],
                                memory_order_acquire);
}

static const seg_hdr_t *native_win_hdr;

static uint64_t native_mpb_of(void *arg, int core)
{
    (void)arg;
    return native_win_hdr->layout.mpb_off +
           (uint64_t)core * native_win_hdr->chip.mpb_bytes;
}

/* What this core's LUT window maps (rck/lutwin.h): the private DRAM the
 * launcher made (without it, a program started alone, the window shows
 * MPBs and the shared window only), the segment's MPBs and window. */
rck_status_t native_lut_window(rck_hal_t *hal, rck_lutwin_params_t *p)
{
    native_t *n = nat(hal);

    native_win_hdr = n->hdr;
    p->shm_fd = n->fd;
    p->mpb_fd = n->fd;
    p->mpb_of = native_mpb_of;
    p->shm_off = n->hdr->layout.shm_off;
    p->shm_bytes = n->hdr->layout.shm_bytes;
    p->dram_fd = rck_lutwin_dram_fd();
    p->lut_get = native_lut_get;
    p->lut_arg = rck_cs_core(&n->cs, hal->core);
    return RCK_OK;
}
