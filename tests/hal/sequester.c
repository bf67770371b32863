/*
 * Protection of sequestered cores (rck run --sequester, docs/LUT.md), two
 * cores; the case is argv[1]:
 *   allowed  what a sequestered core may do works: its own private slot,
 *            the shared window through slot 0x80, its own MPB through its
 *            tile's MPB slot and through rck_hal_mpb_map, the HAL's MPB
 *            calls to the other core's MPB (how RCCE puts), TAS registers
 *            and interrupts; prints "sequester: allowed ok"
 *   mpb      UE 1 plants a stray write through its window into UE 0's MPB
 *   view     UE 1 plants a stray write through the rck_hal_mpb_map pointer
 *            of UE 0's MPB
 *   lut      UE 1 writes a LUT entry
 *   crb      UE 1 writes a configuration register (GCBCFG of its tile)
 * In the four stray cases UE 1 must be stopped (exit status 5, with a
 * report); UE 0, if the launcher has not stopped it first (it stops the
 * other cores as soon as one fails), sees its MPB unchanged (the stray
 * byte never landed) and prints "sequester: intact".
 */
#include "rck/crb.h"
#include "rck/hal.h"
#include "rck/lut.h"

#include <stdio.h>
#include <string.h>

enum { FLAG = 0, DATA = 256 };

static int fails;

#define CHECK(c, what)                                                        \
    do {                                                                      \
        if (!(c)) {                                                           \
            printf("sequester: FAILED: %s (line %d)\n", what, __LINE__);      \
            fails++;                                                          \
        }                                                                     \
    } while (0)

static void allowed(rck_hal_t *hal, int peer)
{
    unsigned char *priv = rck_hal_lut_addr(hal, 0);
    unsigned char *shm = rck_hal_lut_addr(hal, RCK_LUT_SLOT_SHARED);
    unsigned char *mine =
        (unsigned char *)rck_hal_lut_addr(hal, RCK_LUT_SLOT_MPB_OWN) +
        (size_t)(hal->core % hal->chip.cores_per_tile) * hal->chip.mpb_bytes;
    void *view;
    int acquired = 0, which;
    uint32_t w = 0;

    CHECK(priv && shm && mine, "lut_addr");
    priv[0] = 7;
    shm[64 * (size_t)hal->ue] = 9;
    mine[DATA] = 11;
    CHECK(rck_hal_mpb_map(hal, hal->core, &view) == RCK_OK, "mpb_map");
    CHECK(((unsigned char *)view)[DATA] == 11, "mpb_map shows my MPB");
    /* the HAL's path to the peer's MPB: allowed */
    CHECK(rck_hal_mpb_store32(hal, peer, DATA + 4, 0x1234) == RCK_OK,
          "mpb_store32 to the peer");
    CHECK(rck_hal_tas_try(hal, peer, &acquired) == RCK_OK, "tas");
    if (acquired)
        CHECK(rck_hal_tas_release(hal, peer) == RCK_OK, "tas release");
    CHECK(rck_hal_irq_raise(hal, peer, RCK_IRQ_PIN) == RCK_OK, "irq");
    CHECK(rck_hal_wait(hal, NULL, 0, RCK_WAIT_IRQ, -1, &which) ==
                  RCK_INTERRUPTED ||
              which == -1,
          "my interrupt");
    CHECK(rck_hal_mpb_store32(hal, peer, FLAG, 1) == RCK_OK, "flag");
    CHECK(rck_hal_wait_mpb_eq(hal, hal->core, FLAG, ~0u, 1, -1) == RCK_OK,
          "wait");
    CHECK(rck_hal_mpb_load32(hal, hal->core, DATA + 4, &w) == RCK_OK &&
              w == 0x1234,
          "the peer's put arrived");
    if (fails == 0)
        printf("sequester: allowed ok\n");
}

static void stray(rck_hal_t *hal, const char *how, int peer)
{
    int ptile = rck_chip_tile(&hal->chip, peer);
    size_t half = (size_t)(peer % hal->chip.cores_per_tile) *
                  hal->chip.mpb_bytes;
    void *view;

    if (!strcmp(how, "mpb")) {
        unsigned char *p = rck_hal_lut_addr(hal, RCK_LUT_SLOT_MPB + ptile);
        p[half + DATA] = 0x5a; /* stopped here */
    } else if (!strcmp(how, "view")) {
        CHECK(rck_hal_mpb_map(hal, peer, &view) == RCK_OK, "mpb_map");
        ((volatile unsigned char *)view)[DATA] = 0x5a; /* stopped here */
    } else if (!strcmp(how, "lut")) {
        uint32_t e;
        CHECK(rck_hal_lut_read(hal, peer, 0, &e) == RCK_OK, "lut_read");
        rck_hal_lut_write(hal, hal->core, 0x40, e); /* stopped here */
    } else if (!strcmp(how, "crb")) {
        rck_hal_crb_write(hal, rck_chip_tile(&hal->chip, hal->core),
                          RCK_CRB_GCBCFG, 0x1); /* stopped here */
    }
    printf("sequester: FAILED: UE 1 went on after a stray %s access\n", how);
}

int main(int argc, char **argv)
{
    rck_hal_t *hal;
    int peer;
    unsigned char before[64], after[64];

    if (argc != 2 || rck_hal_open(NULL, &hal) != RCK_OK || hal->nues != 2) {
        fprintf(stderr, "usage: rck run -n 2 --sequester sequester CASE\n");
        return 2;
    }
    peer = hal->ue_core[1 - hal->ue];
    if (!strcmp(argv[1], "allowed")) {
        allowed(hal, peer);
        return fails != 0;
    }
    if (hal->ue == 1) {
        rck_hal_wait_mpb_eq(hal, hal->core, FLAG, ~0u, 1, -1);
        stray(hal, argv[1], peer);
        return 1;
    }
    memset(before, 0, sizeof(before));
    CHECK(rck_hal_mpb_write(hal, hal->core, DATA, before, 64) == RCK_OK,
          "mpb_write");
    rck_hal_mpb_store32(hal, peer, FLAG, 1);
    /* UE 1 is stopped: this wait ends when the run says so */
    rck_hal_wait_mpb_eq(hal, hal->core, FLAG, ~0u, 2, -1);
    rck_hal_cl1invmb(hal);
    CHECK(rck_hal_mpb_read(hal, hal->core, DATA, after, 64) == RCK_OK &&
              memcmp(before, after, 64) == 0,
          "UE 0's MPB is intact");
    if (fails == 0)
        printf("sequester: intact\n");
    return fails != 0;
}
