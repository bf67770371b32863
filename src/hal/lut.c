/*
 * The LUT entry format and the default map (rck/lut.h).
 *
 * Owns: nothing with state. May call: the chip helpers.
 */
#include "rck/lut.h"

#include <stdlib.h>

int rck_lut_home_mc(const rck_chip_t *chip, int core)
{
    int cx, cy, best = 0, bd = -1;

    rck_chip_core_xy(chip, core, &cx, &cy);
    for (int i = 0; i < chip->nmc; i++) {
        int d = abs(chip->mc[i].x - cx) + abs(chip->mc[i].y - cy);
        if (bd < 0 || d < bd) {
            bd = d;
            best = i;
        }
    }
    return best;
}

/* How many cores below @p core share its controller. */
static int mc_rank(const rck_chip_t *chip, int core, int mc)
{
    int r = 0;

    for (int c = 0; c < core; c++)
        r += rck_lut_home_mc(chip, c) == mc;
    return r;
}

int rck_lut_private_owner(const rck_chip_t *chip, int mc, unsigned page)
{
    int rank = (int)(page / RCK_LUT_PRIVATE_PAGES);

    if (page >= RCK_LUT_SHARED_PAGE)
        return -1;
    for (int c = 0; c < chip->ncores; c++) {
        if (rck_lut_home_mc(chip, c) != mc)
            continue;
        if (rank-- == 0)
            return c;
    }
    return -1;
}

static int mc_route(const rck_chip_t *chip, int mc)
{
    return rck_lut_route(chip->mc[mc].x, chip->mc[mc].y);
}

/* West-side controllers are reached through the west port, east-side
 * ones through the east port (sccKit's MCHPORT). */
static int mc_port(const rck_chip_t *chip, int mc)
{
    return chip->mc[mc].x < chip->mesh_x / 2 ? RCK_LUT_SUB_PERIW
                                              : RCK_LUT_SUB_PERIE;
}

uint32_t rck_lut_default(const rck_chip_t *chip, size_t shm_bytes, int core,
                         int idx)
{
    size_t pages = (shm_bytes + RCK_LUT_PAGE_BYTES - 1) / RCK_LUT_PAGE_BYTES;

    if (idx < RCK_LUT_SLOT_PRIVATE + RCK_LUT_PRIVATE_PAGES) {
        int mc = rck_lut_home_mc(chip, core);
        unsigned page = (unsigned)(mc_rank(chip, core, mc) *
                                       RCK_LUT_PRIVATE_PAGES +
                                   idx - RCK_LUT_SLOT_PRIVATE);
        if (page >= RCK_LUT_SHARED_PAGE)
            return 0;
        return rck_lut_entry(mc_route(chip, mc), mc_port(chip, mc), page);
    }
    if (idx >= RCK_LUT_SLOT_SHARED && idx < RCK_LUT_SLOT_MPB) {
        size_t k = (size_t)(idx - RCK_LUT_SLOT_SHARED);
        int mc = (int)(k % (size_t)chip->nmc);
        size_t page = RCK_LUT_SHARED_PAGE + k / (size_t)chip->nmc;
        if (k >= pages || page > 0x3ff)
            return 0;
        return rck_lut_entry(mc_route(chip, mc), mc_port(chip, mc),
                             (unsigned)page);
    }
    if (idx == RCK_LUT_SLOT_MPB_OWN || idx == RCK_LUT_SLOT_CRB_OWN) {
        int x, y;
        rck_chip_core_xy(chip, core, &x, &y);
        return rck_lut_entry(rck_lut_route(x, y),
                             idx == RCK_LUT_SLOT_MPB_OWN ? RCK_LUT_SUB_MPB
                                                         : RCK_LUT_SUB_CRB,
                             0);
    }
    if (idx >= RCK_LUT_SLOT_MPB && idx < RCK_LUT_SLOT_MPB + chip->ntiles &&
        idx < RCK_LUT_SLOT_CRB) {
        int t = idx - RCK_LUT_SLOT_MPB;
        return rck_lut_entry(rck_lut_route(t % chip->mesh_x, t / chip->mesh_x),
                             RCK_LUT_SUB_MPB, 0);
    }
    if (idx >= RCK_LUT_SLOT_CRB && idx < RCK_LUT_SLOT_CRB + chip->ntiles &&
        idx < RCK_LUT_ENTRIES) {
        int t = idx - RCK_LUT_SLOT_CRB;
        return rck_lut_entry(rck_lut_route(t % chip->mesh_x, t / chip->mesh_x),
                             RCK_LUT_SUB_CRB, 0);
    }
    return 0;
}

int rck_lut_decode(const rck_chip_t *chip, size_t shm_bytes, uint32_t entry,
                   rck_lut_target_t *t, const char **why)
{
    int route = rck_lut_entry_route(entry), sub = rck_lut_entry_sub(entry);
    int x = route & 0xf, y = route >> 4;
    unsigned addr = rck_lut_entry_addr(entry);

    t->kind = RCK_LUT_NONE;
    t->tile = -1;
    t->mc = -1;
    t->page = 0;
    t->owner = -1;
    if (entry & ~RCK_LUT_MASK) {
        *why = "bits above bit 21 set (an entry is 22 bits)";
        return -1;
    }
    if (entry & RCK_LUT_BYPASS) {
        *why = "the bypass bit is set (broken on the chip: never used)";
        return -1;
    }
    if (entry == 0)
        return 0; /* the empty entry */
    if (x >= chip->mesh_x || y >= chip->mesh_y) {
        *why = "the route names no tile of the mesh";
        return -1;
    }
    t->tile = y * chip->mesh_x + x;
    switch (sub) {
    case RCK_LUT_SUB_MPB:
        t->kind = RCK_LUT_MPB;
        return 0;
    case RCK_LUT_SUB_CRB:
        t->kind = RCK_LUT_CRB;
        return 0;
    case RCK_LUT_SUB_CORE0:
    case RCK_LUT_SUB_CORE1:
        return 0;
    default:
        break;
    }
    for (int m = 0; m < chip->nmc; m++) {
        if (chip->mc[m].x != x || chip->mc[m].y != y)
            continue;
        t->mc = m;
        if (addr >= RCK_LUT_SHARED_PAGE) {
            size_t k = (size_t)(addr - RCK_LUT_SHARED_PAGE) *
                           (size_t)chip->nmc +
                       (size_t)m;
            if (k * RCK_LUT_PAGE_BYTES >= shm_bytes)
                return 0; /* beyond the window: no memory there */
            t->kind = RCK_LUT_SHARED;
            t->page = (unsigned)k;
            return 0;
        }
        t->kind = RCK_LUT_DRAM;
        t->page = addr;
        t->owner = rck_lut_private_owner(chip, m, addr);
        return 0;
    }
    return 0; /* a port without a controller (the system FPGA) */
}
