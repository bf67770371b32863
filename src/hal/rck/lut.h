/*
 * The chip's lookup tables (LUTs): what one entry says and the default
 * map every core starts with (docs/LUT.md).
 *
 * A core's 32-bit physical address space is 256 pages of 16 MiB; entry i
 * of the core's LUT names the system page that page i shows. An entry is
 * 22 bits, as on the chip:
 *
 *   bit  21      bypass (buggy on the chip: never set; refused here)
 *   bits 20..13  route: the destination tile's router, (y << 4) | x
 *   bits 12..10  sub-destination: RCK_LUT_SUB_* (a core, the tile's CRB or
 *                MPB, or one of the router's four ports, behind which sit
 *                the memory controllers and the system FPGA)
 *   bits  9..0   address bits 33..24 of the 34-bit system address: which
 *                16 MiB page behind a memory controller
 *
 * Default map (after sccKit; docs/LUT.md):
 *   0x00..0x28  the core's 41 private pages at its nearest controller,
 *               page (rank * 41 + i) where rank counts the cores that
 *               share that controller;
 *   0x80..      shared DRAM: page k of the shared window (16 MiB pages,
 *               interleaved over the controllers) is page 0x3f0 + k / nmc
 *               of controller k % nmc, for every page of the window (up
 *               to 0xbf);
 *   0xc0..0xd7  the MPB of tile 0xc0 + t (both cores' halves);
 *   0xd8        the MPB of the core's own tile (sccKit's MPB_OWN);
 *   0xe0..0xf7  the CRB of tile 0xe0 + t;
 *   0xf8        the CRB of the core's own tile (CRB_OWN);
 *   others      empty (entry 0).
 *
 * Owns: nothing with state. May call: the chip helpers.
 */
#ifndef RCK_LUT_H
#define RCK_LUT_H

#include "rck/chip.h"

#include <stddef.h>
#include <stdint.h>

/** Sub-destinations (bits 12..10). */
enum {
    RCK_LUT_SUB_CORE0 = 0,
    RCK_LUT_SUB_CORE1 = 1,
    RCK_LUT_SUB_CRB = 2,
    RCK_LUT_SUB_MPB = 3,
    RCK_LUT_SUB_PERIE = 4, /* the router's east port */
    RCK_LUT_SUB_PERIS = 5, /* south */
    RCK_LUT_SUB_PERIW = 6, /* west */
    RCK_LUT_SUB_PERIN = 7  /* north */
};

#define RCK_LUT_PAGE_BYTES ((size_t)16 << 20) /* one entry's page */
#define RCK_LUT_ENTRIES 256
#define RCK_LUT_BYPASS (1u << 21)
#define RCK_LUT_MASK ((1u << 22) - 1)
/** First address-bits value of the shared pages behind each controller. */
#define RCK_LUT_SHARED_PAGE 0x3f0u
/** The default map's first slots (above). */
#define RCK_LUT_SLOT_PRIVATE 0x00
#define RCK_LUT_PRIVATE_PAGES 41
#define RCK_LUT_SLOT_SHARED 0x80
#define RCK_LUT_SLOT_MPB 0xc0
#define RCK_LUT_SLOT_CRB 0xe0
#define RCK_LUT_SLOT_MPB_OWN 0xd8
#define RCK_LUT_SLOT_CRB_OWN 0xf8

/** An entry from its fields (each masked to its width). */
static inline uint32_t rck_lut_entry(int route, int sub, unsigned addr)
{
    return ((uint32_t)(route & 0xff) << 13) | ((uint32_t)(sub & 7) << 10) |
           (addr & 0x3ffu);
}

/** The route of tile (x, y): (y << 4) | x. */
static inline int rck_lut_route(int x, int y)
{
    return (y << 4) | x;
}

static inline int rck_lut_entry_route(uint32_t e) { return (int)(e >> 13) & 0xff; }
static inline int rck_lut_entry_sub(uint32_t e) { return (int)(e >> 10) & 7; }
static inline unsigned rck_lut_entry_addr(uint32_t e) { return e & 0x3ffu; }

/** What an entry names, decoded against a chip. */
typedef enum {
    RCK_LUT_NONE = 0,   /* nothing memory-like (a core, the system FPGA, a
                         * port without a controller, a page beyond the
                         * shared window) */
    RCK_LUT_DRAM = 1,   /* a page behind controller .mc (private memory) */
    RCK_LUT_SHARED = 2, /* page .page of the shared window (controller .mc) */
    RCK_LUT_MPB = 3,    /* the MPB of tile .tile */
    RCK_LUT_CRB = 4     /* the configuration registers of tile .tile */
} rck_lut_kind_t;

typedef struct {
    rck_lut_kind_t kind;
    int tile;           /* MPB, CRB: the tile; DRAM, SHARED: the MC's tile */
    int mc;             /* DRAM, SHARED: the controller */
    unsigned page;      /* DRAM: address bits; SHARED: page of the window */
    int owner;          /* DRAM: the core whose private page it is by the
                         * default map, -1 if none */
} rck_lut_target_t;

/**
 * Decode @p entry for @p chip with a shared window of @p shm_bytes.
 * @return 0, or -1 when the entry is malformed (bypass set, route to no
 *         tile): @p why then names the problem.
 */
int rck_lut_decode(const rck_chip_t *chip, size_t shm_bytes, uint32_t entry,
                   rck_lut_target_t *t, const char **why);

/** The default entry @p idx of @p core (above) for a window of
 *  @p shm_bytes. */
uint32_t rck_lut_default(const rck_chip_t *chip, size_t shm_bytes, int core,
                         int idx);

/** The controller nearest @p core (its private memory's). */
int rck_lut_home_mc(const rck_chip_t *chip, int core);

/** The core whose default private page @p page of controller @p mc is, or
 *  -1. */
int rck_lut_private_owner(const rck_chip_t *chip, int mc, unsigned page);

#endif
