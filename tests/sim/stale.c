/*
 * stale.c: the L1 model of the sim backend, at the HAL level (run with
 * `rck run -n 2 --backend sim`). A core that read an MPB line and did not
 * execute CL1INVMB keeps seeing the old value after another core rewrites
 * the line; after CL1INVMB it sees the new one.
 *
 *   core 0: write A into line X of its MPB; raise flag F
 *   core 1: wait F; read X (A, now cached); raise flag G
 *   core 0: wait G; write B into X; release its TAS register (taken at start)
 *   core 1: acquire core 0's TAS (a wait on a TAS register: no CL1INVMB);
 *           read X without CL1INVMB -> A (stale, in context "stale_test");
 *           CL1INVMB; read X -> B
 * A prefetch hint (rck_hal_mpb_prefetch) before the stale read, and hints
 * with bad arguments, change nothing: the chip has no prefetch.
 * Exit status 0 when core 1 saw exactly that.
 */
#include "rck/hal.h"

#include <stdio.h>
#include <stdlib.h>

enum { X = 32, F = 64, G = 96 };

static void ok(rck_status_t st, const char *what)
{
    if (st != RCK_OK) {
        fprintf(stderr, "stale: %s failed: %s\n", what, rck_status_string(st));
        exit(3);
    }
}

int main(void)
{
    rck_hal_t *hal;
    uint32_t v = 0;
    int got = 0;

    ok(rck_hal_open(NULL, &hal), "rck_hal_open");
    if (hal->nues != 2) {
        fprintf(stderr, "stale: needs 2 UEs\n");
        return 2;
    }
    int peer = hal->ue_core[1 - hal->ue];
    int c0 = hal->ue_core[0];
    if (hal->ue == 0) {
        ok(rck_hal_tas_try(hal, c0, &got), "tas_try");
        if (!got)
            return 4;
        ok(rck_hal_mpb_store32(hal, c0, X, 0xAAAA), "write A");
        ok(rck_hal_mpb_store32(hal, c0, F, 1), "flag F");
        ok(rck_hal_wait_mpb_eq(hal, c0, G, ~0u, 1, -1), "wait G");
        ok(rck_hal_mpb_store32(hal, c0, X, 0xBBBB), "write B");
        ok(rck_hal_tas_release(hal, c0), "tas_release");
    } else {
        ok(rck_hal_wait_mpb_eq(hal, c0, F, ~0u, 1, -1), "wait F");
        ok(rck_hal_mpb_load32(hal, c0, X, &v), "read A");
        if (v != 0xAAAA) {
            fprintf(stderr, "stale: first read gave 0x%x\n", v);
            return 5;
        }
        ok(rck_hal_mpb_store32(hal, c0, G, 1), "flag G");
        ok(rck_hal_tas_acquire(hal, c0), "tas_acquire");
        rck_hal_mpb_prefetch(hal, c0, X, 32);
        rck_hal_mpb_prefetch(hal, 100000, X, 32);
        rck_hal_mpb_prefetch(hal, c0, 0xfffffff0u, 64);
        rck_hal_mpb_prefetch(hal, c0, X, (size_t)-1);
        rck_hal_set_context(hal, "stale_test", peer);
        ok(rck_hal_mpb_load32(hal, c0, X, &v), "stale read");
        rck_hal_set_context(hal, NULL, -1);
        printf("stale: without CL1INVMB: 0x%x\n", v);
        if (v != 0xAAAA)
            return 6;
        rck_hal_cl1invmb(hal);
        ok(rck_hal_mpb_load32(hal, c0, X, &v), "fresh read");
        printf("stale: after CL1INVMB: 0x%x\n", v);
        if (v != 0xBBBB)
            return 7;
        ok(rck_hal_tas_release(hal, c0), "tas_release");
    }
    rck_hal_close(hal);
    return 0;
}
