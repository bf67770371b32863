/*
 * Between the HAL's entry points (hal.c, which installs it as the LUT
 * window's CRB fault function, rck_lutwin_fault_install) and the
 * emulation of configuration-register accesses through pointers
 * (crb_fault.c). The window itself (lutwin.c) does not call it by name:
 * it sits below the HAL's entry points.
 */
#ifndef RCK_LUTWIN_INTERNAL_H
#define RCK_LUTWIN_INTERNAL_H

#include "rck/hal.h"

#include <stdint.h>

/**
 * Carry out the faulting load or store of the context @p uc at byte
 * @p off of tile @p tile's CRB and step over it.
 * @return 0; -1 when it cannot (@p why says why).
 */
int rck__crb_fault(rck_hal_t *hal, void *uc, int tile, uint32_t off,
                   const char **why);

#endif
