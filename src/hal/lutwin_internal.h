/*
 * Between the LUT window's fault handler (lutwin.c) and the emulation of
 * configuration-register accesses through pointers (crb_fault.c).
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
