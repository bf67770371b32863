/*
 * A tile's configuration registers (CRB) by address, as Intel's SCC_API.h
 * reaches them: the register offsets inside a tile's 16 MiB CRB page and
 * the calls that read and write one, mapped onto the HAL's own operations
 * (docs/LUT.md, "Configuration registers"):
 *
 *   GLCFG0/1  core 0/1's configuration: setting bit 1 (INTR) raises the
 *             core's interrupt pin (rck_hal_irq_raise, RCK_IRQ_PIN), bit
 *             0 (NMI) too; the other bits are kept per process, no effect
 *   MYTILEID  read only: (y << 7) | (x << 3) | z, z the reading core's
 *             place in its tile when it reads its own tile's, else 0
 *   LOCK0/1   core 0/1's TAS register: a read is the test-and-set (1: it
 *             was free and is now taken), a write releases it
 *   LUT0/1    core 0/1's LUT, 256 entries 8 bytes apart (the entry in the
 *             low 32 bits): rck_hal_lut_read / rck_hal_lut_write
 *   L2CFG0/1, SENSOR, GCBCFG
 *             kept per process (no effect: frequency changes go through
 *             rck_hal_freq_set)
 *
 * Under RCK_SEQUESTER a core may still release TAS registers and raise
 * interrupts (the messaging libraries' paths); every other CRB write stops
 * it (rck_lutwin_stop).
 */
#ifndef RCK_CRB_H
#define RCK_CRB_H

#include "rck/hal.h"

#include <stdint.h>

enum {
    RCK_CRB_GLCFG0 = 0x010,
    RCK_CRB_GLCFG1 = 0x018,
    RCK_CRB_L2CFG0 = 0x020,
    RCK_CRB_L2CFG1 = 0x028,
    RCK_CRB_SENSOR = 0x040,
    RCK_CRB_GCBCFG = 0x080,
    RCK_CRB_MYTILEID = 0x100,
    RCK_CRB_LOCK0 = 0x200,
    RCK_CRB_LOCK1 = 0x400,
    RCK_CRB_LUT0 = 0x800,
    RCK_CRB_LUT1 = 0x1000,
    RCK_CRB_END = 0x1800
};

#define RCK_CRB_GLCFG_NMI (1u << 0)
#define RCK_CRB_GLCFG_INTR (1u << 1)

/**
 * Read the register at byte @p off of tile @p tile's CRB (4-byte
 * registers; LUT entries are 8 bytes, their upper half reads 0).
 * @return RCK_OK; RCK_ERR_INVALID for no such tile or register (logged).
 */
rck_status_t rck_hal_crb_read(rck_hal_t *hal, int tile, uint32_t off,
                              uint32_t *value);
/** Write it (see the table above). */
rck_status_t rck_hal_crb_write(rck_hal_t *hal, int tile, uint32_t off,
                               uint32_t value);

/** The name of the register at @p off ("LOCK1", "LUT0[0x12]" ...) into
 *  @p buf (@p n bytes); async-signal-safe. */
void rck_crb_name(uint32_t off, char *buf, int n);

#endif
