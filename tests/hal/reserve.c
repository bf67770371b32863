/*
 * The MPB's layout among registered libraries (rck/hal.h, "Layout of the
 * MPBs"): S-Net's scc layer (snetq, 4128 bytes of every MPB) and the
 * mailboxes reserve before RCCE; a third library of 4 KiB (the size
 * librckip takes by default) does not fit beside snetq and is refused
 * naming the holders, without changing the layout; RCCE then takes the
 * rest and works (a message around the ring); after RCCE_init the layout
 * is frozen.
 * Prints "reserve: ok" and exits 0 when every check holds.
 */
#include "RCCE.h"
#include "rck/hal.h"
#include "rck/lib.h"
#include "rck_mbox.h"
#include "rck_snetq.h"

#include <stdio.h>
#include <string.h>

static int fails;

static void check(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "reserve: FAILED: %s\n", what);
        fails++;
    }
}

static const rck_lib_desc_t big_desc = {.name = "bigring", .rank = 90};

int main(int argc, char **argv)
{
    int big = rck_lib_register(&big_desc);
    rck_hal_t *hal;
    uint32_t off = 0, before;
    char held[160];
    int me, n, token = 0;

    check(big >= 0, "a library registers");
    check(rck_snetq_init() == RCK_OK, "rck_snetq_init");
    check(rck_mbox_init() == RCK_OK, "rck_mbox_init");
    hal = rck_hal_self();
    if (hal == NULL) {
        fprintf(stderr, "reserve: FAILED: no HAL\n");
        return 1;
    }
    rck_hal_reserve_holders(hal, 1, held, sizeof(held));
    printf("reserve: UE %d: held %s\n", hal->ue, held);
    check(strstr(held, "snetq 4128") != NULL, "snetq's part is named");
    check(strstr(held, "mbox ") != NULL, "the mailboxes' part is named");
    before = hal->mpb_reserved;
    check(rck_hal_mpb_reserve(hal, big, 4096, &off) == RCK_ERR_NOSPACE,
          "a 4 KiB library beside snetq is refused");
    check(hal->mpb_reserved == before, "a refused reservation keeps none");
    rck_hal_reserve_holders(hal, 1, held, sizeof(held));
    check(strstr(held, "bigring") == NULL, "nor is it named");
    /* one that fits does */
    check(rck_hal_mpb_reserve(hal, big, 64, &off) == RCK_OK &&
              off + 64 <= hal->chip.mpb_bytes - before,
          "a small one fits below the others");
    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS) {
        fprintf(stderr, "reserve: FAILED: RCCE_init\n");
        return 1;
    }
    me = RCCE_ue();
    n = RCCE_num_ues();
    /* a token around the ring through RCCE's part of the MPB */
    if (me == 0) {
        token = 1;
        RCCE_send((char *)&token, sizeof(token), (me + 1) % n);
        RCCE_recv((char *)&token, sizeof(token), n - 1);
        check(token == n, "the token went round");
    } else {
        RCCE_recv((char *)&token, sizeof(token), me - 1);
        token++;
        RCCE_send((char *)&token, sizeof(token), (me + 1) % n);
    }
    check(rck_hal_mpb_reserve(hal, big, 64, &off) == RCK_ERR_BUSY,
          "after RCCE_init the layout is frozen");
    RCCE_finalize();
    if (fails == 0)
        printf("reserve: ok\n");
    return fails != 0;
}
