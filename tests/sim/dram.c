/*
 * dram.c: contention in the sim backend's timing model, at the HAL level
 * (run with `rck run -n 24 --backend sim`, RCK_COMPUTE=none).
 *
 *  1. UE 0 alone reads 16 KiB of shared DRAM mapped uncached on MC0.
 *  2. Every UE reads its own 16 KiB on MC0 at the same time: the
 *     controller serves one access at a time, so each takes longer.
 *  3. Every UE writes 16 KiB into its partner's MPB (UE ^ 1) at the same
 *     time: MPBs are not shared between pairs, so nobody waits.
 * UE 0 prints the slowdowns; "FAILED" if the controller did not slow the
 * readers down at least 3 times, or the MPB pairs were slowed at all.
 */
#include "rck/hal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BYTES (16u << 10)
#define MPB_DATA 0u      /* the 16 KiB go over the same 4 KiB, 4 times */
#define FLAG 6144u       /* in UE 0's MPB: UE k's results at FLAG + 32 k */
#define GO 4096u         /* in every MPB: the start signal */

static rck_hal_t *hal;

static void ok(rck_status_t st, const char *what)
{
    if (st != RCK_OK) {
        fprintf(stderr, "dram: %s failed: %s\n", what, rck_status_string(st));
        exit(3);
    }
}

static uint64_t now(void)
{
    uint64_t c = 0;
    ok(rck_hal_cycles(hal, &c), "cycles");
    return c;
}

static uint64_t timed_read(size_t off)
{
    static unsigned char buf[BYTES];
    uint64_t t0 = now();

    ok(rck_hal_shm_read(hal, off, buf, BYTES), "shm_read");
    return now() - t0;
}

static uint64_t timed_mpb_write(int core)
{
    static unsigned char buf[4096];
    uint64_t t0 = now();

    for (unsigned k = 0; k < BYTES / sizeof(buf); k++)
        ok(rck_hal_mpb_write(hal, core, MPB_DATA, buf, sizeof(buf)), "write");
    return now() - t0;
}

int main(void)
{
    int n, me;
    uint64_t alone = 0, mc, mpb, mpb_alone;

    ok(rck_hal_open(NULL, &hal), "rck_hal_open");
    n = hal->nues;
    me = hal->ue;
    if (n < 2 || n % 2 != 0 || n > 64) {
        fprintf(stderr, "dram: needs an even number of UEs, at most 64\n");
        return 2;
    }
    ok(rck_hal_shm_set_map(hal, (size_t)me * BYTES, BYTES, RCK_MAP_UNCACHED,
                           0),
       "shm_set_map");
    if (me == 0) {
        alone = timed_read(0);
        mpb_alone = timed_mpb_write(hal->ue_core[1]);
        for (int k = 1; k < n; k++)
            ok(rck_hal_mpb_store32(hal, hal->ue_core[k], GO, 1), "go");
    } else {
        ok(rck_hal_wait_mpb_eq(hal, hal->core, GO, ~0u, 1, -1), "wait go");
    }
    mc = timed_read((size_t)me * BYTES);
    mpb = timed_mpb_write(hal->ue_core[me ^ 1]);
    if (me != 0) {
        uint32_t r[2] = {(uint32_t)mc, (uint32_t)mpb};
        ok(rck_hal_mpb_write(hal, hal->ue_core[0], FLAG + 32u * (unsigned)me,
                             r, sizeof(r)),
           "result");
        ok(rck_hal_mpb_store32(hal, hal->ue_core[0],
                               FLAG + 32u * (unsigned)me + 8, 1),
           "result flag");
    } else {
        uint64_t mc_min = mc, mpb_max = mpb;
        for (int k = 1; k < n; k++) {
            uint32_t r[2];
            ok(rck_hal_wait_mpb_eq(hal, hal->core, FLAG + 32u * (unsigned)k + 8,
                                   ~0u, 1, -1),
               "wait result");
            rck_hal_cl1invmb(hal);
            ok(rck_hal_mpb_read(hal, hal->core, FLAG + 32u * (unsigned)k, r,
                                sizeof(r)),
               "read result");
            if (r[0] < mc_min)
                mc_min = r[0];
            if (r[1] > mpb_max)
                mpb_max = r[1];
        }
        /* UE k and k ^ 1 share a tile: every pair writes at 0 hops, as
         * UE 0 did alone */
        printf("dram: %d cores reading MC0 at once: slowest-to-fastest "
               "%.2f, fastest %.2f times UE 0 alone (%llu cycles)\n",
               n, (double)mc / (double)mc_min, (double)mc_min / (double)alone,
               (unsigned long long)alone);
        printf("dram: MPB pairs at once: the slowest %.4f times UE 0 alone "
               "%s\n",
               (double)mpb_max / (double)mpb_alone,
               mpb_max == mpb_alone ? "ok" : "FAILED");
        printf("dram: controller contention %s\n",
               (double)mc_min >= 3.0 * (double)alone ? "ok" : "FAILED");
    }
    rck_hal_close(hal);
    return 0;
}
