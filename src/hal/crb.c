/*
 * Configuration registers by address (rck/crb.h): each register mapped
 * onto the HAL's operations.
 *
 * Owns: the per-process values of the registers without an effect.
 * May call: the HAL's checked entry points, the protection stop.
 */
#include "rck/crb.h"
#include "rck/log.h"
#include "rck/lutwin.h"

#include <stdio.h>

#define CRB_MAX_TILES 64

/* GLCFG0, GLCFG1, L2CFG0, L2CFG1, SENSOR, GCBCFG of each tile */
static uint32_t crb_kept[CRB_MAX_TILES][6];

static int kept_index(uint32_t off)
{
    switch (off) {
    case RCK_CRB_GLCFG0: return 0;
    case RCK_CRB_GLCFG1: return 1;
    case RCK_CRB_L2CFG0: return 2;
    case RCK_CRB_L2CFG1: return 3;
    case RCK_CRB_SENSOR: return 4;
    case RCK_CRB_GCBCFG: return 5;
    default: return -1;
    }
}

static void put(char *buf, int n, int *k, const char *s)
{
    while (*s != '\0' && *k < n - 1)
        buf[(*k)++] = *s++;
}

void rck_crb_name(uint32_t off, char *buf, int n)
{
    static const char *const kept[] = {"GLCFG0", "GLCFG1", "L2CFG0",
                                       "L2CFG1", "SENSOR", "GCBCFG"};
    int k = 0, i = kept_index(off & ~3u);

    if (n <= 0)
        return;
    if (i >= 0) {
        put(buf, n, &k, kept[i]);
    } else if ((off & ~3u) == RCK_CRB_MYTILEID) {
        put(buf, n, &k, "MYTILEID");
    } else if ((off & ~3u) == RCK_CRB_LOCK0 || (off & ~3u) == RCK_CRB_LOCK1) {
        put(buf, n, &k, (off & ~3u) == RCK_CRB_LOCK0 ? "LOCK0" : "LOCK1");
    } else if (off >= RCK_CRB_LUT0 && off < RCK_CRB_END) {
        unsigned e = ((off - RCK_CRB_LUT0) % 0x800) / 8;
        char hex[8] = {'[', '0', 'x', "0123456789abcdef"[e >> 4],
                       "0123456789abcdef"[e & 15], ']', '\0'};
        put(buf, n, &k, off < RCK_CRB_LUT1 ? "LUT0" : "LUT1");
        put(buf, n, &k, hex);
    } else {
        put(buf, n, &k, "no register");
    }
    buf[k] = '\0';
}

/* The core of tile @p tile at place @p z, or -1. */
static int tile_core(const rck_hal_t *hal, int tile, int z)
{
    int c = tile * hal->chip.cores_per_tile + z;

    return z < hal->chip.cores_per_tile && c < hal->chip.ncores ? c : -1;
}

static rck_status_t crb_check(const rck_hal_t *hal, int tile, uint32_t off,
                              const char *what)
{
    char name[32];

    if (tile < 0 || tile >= hal->chip.ntiles || tile >= CRB_MAX_TILES) {
        rck_error("%s: tile %d does not exist (the chip has %d)", what, tile,
                  hal->chip.ntiles);
        return RCK_ERR_INVALID;
    }
    rck_crb_name(off, name, sizeof(name));
    if (off >= RCK_CRB_END || (off & 3) != 0 ||
        (kept_index(off) < 0 && off != RCK_CRB_MYTILEID &&
         off != RCK_CRB_LOCK0 && off != RCK_CRB_LOCK1 &&
         (off < RCK_CRB_LUT0 || (off & 7) != 0))) {
        rck_error("%s: offset 0x%x of tile %d's configuration registers is "
                  "no register (GLCFG0/1, L2CFG0/1, SENSOR, GCBCFG, "
                  "MYTILEID, LOCK0/1, LUT0/1: rck/crb.h)",
                  what, off, tile);
        return RCK_ERR_INVALID;
    }
    return RCK_OK;
}

rck_status_t rck_hal_crb_read(rck_hal_t *hal, int tile, uint32_t off,
                              uint32_t *value)
{
    rck_status_t st = crb_check(hal, tile, off, "crb_read");
    int i = kept_index(off), core, acquired = 0;

    if (st != RCK_OK)
        return st;
    if (i >= 0) {
        *value = crb_kept[tile][i];
        return RCK_OK;
    }
    if (off == RCK_CRB_MYTILEID) {
        int x = tile % hal->chip.mesh_x, y = tile / hal->chip.mesh_x;
        int z = rck_chip_tile(&hal->chip, hal->core) == tile
                    ? hal->core % hal->chip.cores_per_tile
                    : 0;
        *value = (uint32_t)((y << 7) | (x << 3) | z);
        return RCK_OK;
    }
    if (off == RCK_CRB_LOCK0 || off == RCK_CRB_LOCK1) {
        core = tile_core(hal, tile, off == RCK_CRB_LOCK1);
        if (core < 0)
            return RCK_ERR_INVALID;
        st = rck_hal_tas_try(hal, core, &acquired);
        if (st == RCK_OK)
            *value = acquired ? 1u : 0u;
        return st;
    }
    core = tile_core(hal, tile, off >= RCK_CRB_LUT1);
    if (core < 0)
        return RCK_ERR_INVALID;
    return rck_hal_lut_read(hal, core, (int)((off - RCK_CRB_LUT0) % 0x800) / 8,
                            value);
}

/* A sequestered core may release TAS registers and raise interrupts;
 * any other write stops it. */
static void crb_guard(rck_hal_t *hal, int tile, uint32_t off, uint32_t value)
{
    int i = kept_index(off);
    char whose[96], name[32];

    if (!rck_lutwin_sequestered())
        return;
    if (off == RCK_CRB_LOCK0 || off == RCK_CRB_LOCK1)
        return;
    if ((i == 0 || i == 1) &&
        ((value ^ crb_kept[tile][i]) &
         ~(RCK_CRB_GLCFG_INTR | RCK_CRB_GLCFG_NMI)) == 0)
        return;
    rck_crb_name(off, name, sizeof(name));
    snprintf(whose, sizeof(whose),
             "configuration register %s of tile %d (%s): sequestered", name,
             tile,
             tile == rck_chip_tile(&hal->chip, hal->core) ? "its own tile"
                                                          : "another tile");
    rck_lutwin_stop(hal->core, "write of a configuration register",
                    ((uint64_t)0xe0u + (uint64_t)tile) << 24 | off, whose);
}

rck_status_t rck_hal_crb_write(rck_hal_t *hal, int tile, uint32_t off,
                               uint32_t value)
{
    rck_status_t st = crb_check(hal, tile, off, "crb_write");
    int i = kept_index(off), core;

    if (st != RCK_OK)
        return st;
    crb_guard(hal, tile, off, value);
    if (i >= 0) {
        uint32_t rose = value & ~crb_kept[tile][i];
        crb_kept[tile][i] = value;
        if (i > 1 || !(rose & (RCK_CRB_GLCFG_INTR | RCK_CRB_GLCFG_NMI)))
            return RCK_OK;
        core = tile_core(hal, tile, i);
        return core < 0 ? RCK_ERR_INVALID
                        : rck_hal_irq_raise(hal, core, RCK_IRQ_PIN);
    }
    if (off == RCK_CRB_MYTILEID) {
        rck_error("crb_write: MYTILEID of tile %d is read-only", tile);
        return RCK_ERR_INVALID;
    }
    if (off == RCK_CRB_LOCK0 || off == RCK_CRB_LOCK1) {
        core = tile_core(hal, tile, off == RCK_CRB_LOCK1);
        return core < 0 ? RCK_ERR_INVALID : rck_hal_tas_release(hal, core);
    }
    core = tile_core(hal, tile, off >= RCK_CRB_LUT1);
    if (core < 0)
        return RCK_ERR_INVALID;
    return rck_hal_lut_write(hal, core,
                             (int)((off - RCK_CRB_LUT0) % 0x800) / 8, value);
}
