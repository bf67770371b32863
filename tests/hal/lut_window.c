/*
 * LUT windows (docs/LUT.md) on native and sim, two cores:
 *   - every core starts with the chip's default map (rck/lut.h), and
 *     rck_hal_lut_read returns it;
 *   - slot 0x80 shows the shared window (written through the HAL, read
 *     through the slot), the MPB slot of the core's tile shows its MPB;
 *   - the private slots of two cores are different memory;
 *   - UE 1 points a free slot of its own LUT at UE 0's private page and
 *     reads what UE 0 wrote there (a page handed over without a copy);
 *   - UE 0 writes a slot of UE 1's LUT; UE 1 sees that page after its
 *     next LUT call;
 *   - malformed entries (bypass bit, a route to no tile) and slots beyond
 *     255 are refused, and a refused write changes nothing.
 * Prints "lut_window: ok" and exits 0 when every check holds.
 */
#include "rck/hal.h"
#include "rck/lut.h"

#include <stdio.h>
#include <string.h>

static int fails;

#define CHECK(c, what)                                                        \
    do {                                                                      \
        if (!(c)) {                                                           \
            fprintf(stderr, "lut_window: FAILED: %s (line %d)\n", what,       \
                    __LINE__);                                                \
            fails++;                                                          \
        }                                                                     \
    } while (0)

enum { FLAG = 0, STEP_WROTE = 1, STEP_READ = 2, STEP_REMOTE = 3 };

static void signal_peer(rck_hal_t *hal, int peer, uint32_t step)
{
    CHECK(rck_hal_mpb_store32(hal, peer, FLAG, step) == RCK_OK, "flag");
}

static void await(rck_hal_t *hal, uint32_t step)
{
    CHECK(rck_hal_wait_mpb_eq(hal, hal->core, FLAG, ~0u, step, -1) == RCK_OK,
          "wait");
}

static void check_defaults(rck_hal_t *hal, size_t shm_len)
{
    for (int i = 0; i < RCK_LUT_ENTRIES; i++) {
        uint32_t e = 0xffffffffu;
        CHECK(rck_hal_lut_read(hal, hal->core, i, &e) == RCK_OK, "lut_read");
        CHECK(e == rck_lut_default(&hal->chip, shm_len, hal->core, i),
              "default map");
    }
}

static void check_shared_and_mpb(rck_hal_t *hal)
{
    unsigned char *shm = rck_hal_lut_addr(hal, RCK_LUT_SLOT_SHARED);
    int tile = rck_chip_tile(&hal->chip, hal->core);
    unsigned char *mpb = rck_hal_lut_addr(hal, RCK_LUT_SLOT_MPB + tile);
    size_t in = (size_t)(hal->core % hal->chip.cores_per_tile) *
                hal->chip.mpb_bytes;
    char msg[32], got[32];

    CHECK(shm != NULL && mpb != NULL, "lut_addr");
    if (shm == NULL || mpb == NULL)
        return;
    snprintf(msg, sizeof(msg), "shared from core %d", hal->core);
    CHECK(rck_hal_shm_write(hal, 4096 * (size_t)(hal->ue + 1), msg,
                            sizeof(msg)) == RCK_OK,
          "shm_write");
    CHECK(memcmp(shm + 4096 * (size_t)(hal->ue + 1), msg, sizeof(msg)) == 0,
          "slot 0x80 shows the shared window");
    snprintf(msg, sizeof(msg), "mpb of core %d", hal->core);
    memcpy(mpb + in + 4096, msg, sizeof(msg));
    CHECK(rck_hal_mpb_read(hal, hal->core, 4096, got, sizeof(got)) ==
                  RCK_OK &&
              memcmp(got, msg, sizeof(msg)) == 0,
          "the MPB slot shows the core's MPB");
}

static void check_refusals(rck_hal_t *hal)
{
    int other = hal->chip.mesh_x; /* x = mesh_x: no such tile */
    uint32_t before, after;

    CHECK(rck_hal_lut_read(hal, hal->core, 0x50, &before) == RCK_OK, "read");
    CHECK(rck_hal_lut_write(hal, hal->core, 0x50,
                            RCK_LUT_BYPASS | rck_lut_entry(0, 3, 0)) ==
              RCK_ERR_INVALID,
          "bypass bit refused");
    CHECK(rck_hal_lut_write(hal, hal->core, 0x50,
                            rck_lut_entry(rck_lut_route(other, 0), 3, 0)) ==
              RCK_ERR_INVALID,
          "route to no tile refused");
    CHECK(rck_hal_lut_write(hal, hal->core, 256, 0) == RCK_ERR_INVALID,
          "slot 256 refused");
    CHECK(rck_hal_lut_addr(hal, 256) == NULL, "lut_addr 256 refused");
    CHECK(rck_hal_lut_read(hal, hal->core, 0x50, &after) == RCK_OK &&
              after == before,
          "a refused write changes nothing");
}

int main(void)
{
    rck_hal_t *hal;
    void *shm;
    size_t shm_len;
    unsigned char *priv;
    int peer;

    if (rck_hal_open(NULL, &hal) != RCK_OK || hal->nues != 2) {
        fprintf(stderr, "lut_window: needs the HAL and 2 cores\n");
        return 2;
    }
    peer = hal->ue_core[1 - hal->ue];
    CHECK(rck_hal_shm_map(hal, &shm, &shm_len) == RCK_OK, "shm_map");
    check_defaults(hal, shm_len);
    check_shared_and_mpb(hal);
    check_refusals(hal);
    priv = rck_hal_lut_addr(hal, 0);
    CHECK(priv != NULL, "private slot");
    if (priv == NULL)
        return 1;
    memset(priv, 0x10 + hal->ue, 64);
    if (hal->ue == 0) {
        unsigned char *p1 = rck_hal_lut_addr(hal, 1);
        strcpy((char *)p1 + 100, "page 1 of core 0");
        signal_peer(hal, peer, STEP_WROTE);
        await(hal, STEP_READ);
        /* UE 1 has read; my slot 0 still holds my bytes */
        CHECK(priv[0] == 0x10 && priv[63] == 0x10, "private pages differ");
        /* hand page 1 of mine to UE 1's slot 0x41 */
        {
            uint32_t e;
            CHECK(rck_hal_lut_read(hal, hal->core, 1, &e) == RCK_OK, "read");
            CHECK(rck_hal_lut_write(hal, peer, 0x41, e) == RCK_OK,
                  "write the peer's LUT");
        }
        signal_peer(hal, peer, STEP_REMOTE);
        await(hal, STEP_REMOTE);
    } else {
        uint32_t e0;
        unsigned char *view, *v41;
        await(hal, STEP_WROTE);
        CHECK(priv[0] == 0x11, "my private page is mine");
        CHECK(rck_hal_lut_read(hal, peer, 0, &e0) == RCK_OK, "read peer LUT");
        CHECK(rck_hal_lut_write(hal, hal->core, 0x40, e0) == RCK_OK,
              "map the peer's page");
        view = rck_hal_lut_addr(hal, 0x40);
        CHECK(view != NULL && view[0] == 0x10 && view[63] == 0x10,
              "the peer's page through my slot 0x40");
        signal_peer(hal, peer, STEP_READ);
        await(hal, STEP_REMOTE);
        v41 = rck_hal_lut_addr(hal, 0x41);
        CHECK(v41 != NULL && strcmp((char *)v41 + 100, "page 1 of core 0") == 0,
              "slot 0x41 written by the peer shows its page");
        signal_peer(hal, peer, STEP_REMOTE);
    }
    rck_hal_close(hal);
    if (fails == 0)
        printf("lut_window: ok\n");
    return fails != 0;
}
