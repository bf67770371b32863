/*
 * Unit tests for the LUT entry format and the default map (src/hal/lut.c,
 * rck/lut.h) on the built-in SCC: every core's private slots name pages
 * of its nearest controller that no other core has, the shared slots the
 * window's pages interleaved over the controllers, the MPB and CRB slots
 * their tiles (and the own tile's at 0xd8, 0xf8); malformed entries are
 * refused with a reason.
 */
#include "rck/chip.h"
#include "rck/lut.h"

#include <stdlib.h>
#include <string.h>

#include "unit.h"

#define SHM ((size_t)64 << 20) /* four 16 MiB pages */

static void check_private(const rck_chip_t *c)
{
    static unsigned char used[RCK_CHIP_MAX_MC][1024];

    memset(used, 0, sizeof(used));
    for (int core = 0; core < c->ncores; core++) {
        int home = rck_lut_home_mc(c, core);
        for (int i = 0; i < RCK_LUT_PRIVATE_PAGES; i++) {
            uint32_t e = rck_lut_default(c, SHM, core, i);
            rck_lut_target_t t;
            const char *why = NULL;
            CHECK(rck_lut_decode(c, SHM, e, &t, &why) == 0);
            CHECK(t.kind == RCK_LUT_DRAM);
            CHECK(t.mc == home);
            CHECK(t.owner == core);
            CHECK(rck_lut_private_owner(c, t.mc, t.page) == core);
            CHECK(t.page < RCK_LUT_SHARED_PAGE);
            if (t.mc >= 0 && t.page < 1024) {
                CHECK(!used[t.mc][t.page]); /* no page given twice */
                used[t.mc][t.page] = 1;
            }
        }
        /* beyond the private pages, up to the shared ones: empty */
        CHECK(rck_lut_default(c, SHM, core, RCK_LUT_PRIVATE_PAGES) == 0);
        CHECK(rck_lut_default(c, SHM, core, 0x7f) == 0);
    }
    /* the SCC's controllers: MC0 at (0,0) west port, MC1 at (5,0) east */
    CHECK(rck_lut_entry_route(rck_lut_default(c, SHM, 0, 0)) == 0);
    CHECK(rck_lut_entry_sub(rck_lut_default(c, SHM, 0, 0)) ==
          RCK_LUT_SUB_PERIW);
    CHECK(rck_lut_entry_route(rck_lut_default(c, SHM, 11, 0)) ==
          rck_lut_route(5, 0));
    CHECK(rck_lut_entry_sub(rck_lut_default(c, SHM, 11, 0)) ==
          RCK_LUT_SUB_PERIE);
}

static void check_shared(const rck_chip_t *c)
{
    for (int k = 0; k < 4; k++) {
        uint32_t e = rck_lut_default(c, SHM, 7, RCK_LUT_SLOT_SHARED + k);
        rck_lut_target_t t;
        const char *why = NULL;
        CHECK(e == rck_lut_default(c, SHM, 40, RCK_LUT_SLOT_SHARED + k));
        CHECK(rck_lut_decode(c, SHM, e, &t, &why) == 0);
        CHECK(t.kind == RCK_LUT_SHARED);
        CHECK(t.page == (unsigned)k);
        CHECK(t.mc == k % c->nmc);
    }
    /* the window has four pages: the fifth slot is empty */
    CHECK(rck_lut_default(c, SHM, 7, RCK_LUT_SLOT_SHARED + 4) == 0);
    /* a shared page beyond a smaller window names nothing */
    {
        rck_lut_target_t t;
        const char *why = NULL;
        uint32_t e = rck_lut_default(c, SHM, 7, RCK_LUT_SLOT_SHARED + 3);
        CHECK(rck_lut_decode(c, (size_t)16 << 20, e, &t, &why) == 0);
        CHECK(t.kind == RCK_LUT_NONE);
    }
}

static void check_tiles(const rck_chip_t *c)
{
    for (int tile = 0; tile < c->ntiles; tile++) {
        rck_lut_target_t t;
        const char *why = NULL;
        CHECK(rck_lut_decode(c, SHM,
                             rck_lut_default(c, SHM, 0,
                                             RCK_LUT_SLOT_MPB + tile),
                             &t, &why) == 0);
        CHECK(t.kind == RCK_LUT_MPB && t.tile == tile);
        CHECK(rck_lut_decode(c, SHM,
                             rck_lut_default(c, SHM, 0,
                                             RCK_LUT_SLOT_CRB + tile),
                             &t, &why) == 0);
        CHECK(t.kind == RCK_LUT_CRB && t.tile == tile);
    }
    /* the own tile's MPB and CRB: core 33 sits on tile 16 */
    CHECK(rck_lut_default(c, SHM, 33, RCK_LUT_SLOT_MPB_OWN) ==
          rck_lut_default(c, SHM, 0, RCK_LUT_SLOT_MPB + 16));
    CHECK(rck_lut_default(c, SHM, 33, RCK_LUT_SLOT_CRB_OWN) ==
          rck_lut_default(c, SHM, 0, RCK_LUT_SLOT_CRB + 16));
}

static void check_refusals(const rck_chip_t *c)
{
    rck_lut_target_t t;
    const char *why = NULL;

    CHECK(rck_lut_decode(c, SHM, RCK_LUT_BYPASS | rck_lut_entry(0, 3, 0), &t,
                         &why) == -1 &&
          why != NULL && strstr(why, "bypass") != NULL);
    why = NULL;
    CHECK(rck_lut_decode(c, SHM, rck_lut_entry(rck_lut_route(6, 0), 3, 0),
                         &t, &why) == -1 &&
          why != NULL && strstr(why, "no tile") != NULL);
    why = NULL;
    CHECK(rck_lut_decode(c, SHM, 1u << 22, &t, &why) == -1 && why != NULL);
    /* a port of a tile without a controller (the system FPGA): nothing */
    CHECK(rck_lut_decode(c, SHM,
                         rck_lut_entry(rck_lut_route(3, 0), RCK_LUT_SUB_PERIS,
                                       0),
                         &t, &why) == 0 &&
          t.kind == RCK_LUT_NONE);
    /* the fields round-trip */
    CHECK(rck_lut_entry_route(rck_lut_entry(0x25, 6, 0x3ff)) == 0x25);
    CHECK(rck_lut_entry_sub(rck_lut_entry(0x25, 6, 0x3ff)) == 6);
    CHECK(rck_lut_entry_addr(rck_lut_entry(0x25, 6, 0x3ff)) == 0x3ff);
}

int main(void)
{
    rck_chip_t chip;

    CHECK(rck_chip_load_default(&chip) == RCK_OK);
    check_private(&chip);
    check_shared(&chip);
    check_tiles(&chip);
    check_refusals(&chip);
    if (failures == 0)
        printf("test_lut: ok\n");
    return failures != 0;
}
