/*
 * rck_hal_mpb_write_flag on every backend (the native backend's own op, the
 * HAL's write + flush + store on the others), two cores:
 *   - ROUNDS messages from UE 0 into UE 1's MPB, each a fresh pattern of a
 *     fresh length (0 to 200 bytes) and its flag (the round number); UE 1
 *     waits for the flag and checks every byte, then answers with a flag
 *     alone (length 0) in UE 0's MPB;
 *   - wrong arguments are refused with the HAL's codes (no such core, a
 *     range beyond the MPB, a flag word beyond it or not aligned) and
 *     write nothing: the data and flag words read back unchanged.
 * Prints "write_flag: ok" and exits 0 when every check holds.
 */
#include "rck/hal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ROUNDS = 300, DATA = 256, FLAG = 64, MAXLEN = 200 };

static int fails;

static void check(int cond, const char *what, int round)
{
    if (!cond) {
        fprintf(stderr, "write_flag: FAILED: %s (round %d)\n", what, round);
        fails++;
    }
}

static unsigned char pattern(int round, int i)
{
    return (unsigned char)(round * 31 + i * 7 + 1);
}

static size_t length_of(int round)
{
    return (size_t)(round * 37) % (MAXLEN + 1);
}

int main(void)
{
    rck_hal_t *hal;
    unsigned char out[MAXLEN], in[MAXLEN];
    uint32_t w;

    if (rck_hal_open(NULL, &hal) != RCK_OK || hal->nues != 2) {
        fprintf(stderr, "write_flag: needs the HAL and 2 cores\n");
        return 2;
    }
    int me = hal->ue, peer = hal->ue_core[1 - me], self = hal->core;
    uint32_t base = hal->chip.mpb_bytes / 2; /* clear of the reservations */

    if (me == 0) {
        for (int r = 1; r <= ROUNDS; r++) {
            size_t len = length_of(r);
            for (size_t i = 0; i < len; i++)
                out[i] = pattern(r, (int)i);
            check(rck_hal_mpb_write_flag(hal, peer, base + DATA, out, len,
                                         base + FLAG, (uint32_t)r) == RCK_OK,
                  "write with flag", r);
            check(rck_hal_wait_mpb_eq(hal, self, base + FLAG, 0xffffffffu,
                                      (uint32_t)r, -1) == RCK_OK,
                  "the answer's flag", r);
        }
        /* wrong arguments: refused, nothing written (UE 1 has stopped
         * looking; its MPB still holds the last round) */
        uint32_t top = hal->chip.mpb_bytes;
        check(rck_hal_mpb_write_flag(hal, hal->chip.ncores, base + DATA, out,
                                     4, base + FLAG, 1) == RCK_ERR_INVALID,
              "no such core", 0);
        check(rck_hal_mpb_write_flag(hal, peer, top - 8, out, 16, base + FLAG,
                                     1) == RCK_ERR_RANGE,
              "data beyond the MPB", 0);
        check(rck_hal_mpb_write_flag(hal, peer, base + DATA, out, 4, top,
                                     1) == RCK_ERR_RANGE,
              "flag beyond the MPB", 0);
        check(rck_hal_mpb_write_flag(hal, peer, base + DATA, out, 4,
                                     base + FLAG + 2, 1) == RCK_ERR_ALIGN,
              "flag not aligned", 0);
        check(rck_hal_mpb_load32(hal, peer, base + FLAG, &w) == RCK_OK &&
                  w == ROUNDS,
              "the flag unchanged by refused calls", 0);
        size_t len = length_of(ROUNDS);
        check(rck_hal_mpb_read(hal, peer, base + DATA, in, len) == RCK_OK,
              "read back", 0);
        for (size_t i = 0; i < len; i++)
            check(in[i] == pattern(ROUNDS, (int)i),
                  "the data unchanged by refused calls", 0);
    } else {
        for (int r = 1; r <= ROUNDS; r++) {
            size_t len = length_of(r);
            check(rck_hal_wait_mpb_eq(hal, self, base + FLAG, 0xffffffffu,
                                      (uint32_t)r, -1) == RCK_OK,
                  "the message's flag", r);
            rck_hal_cl1invmb(hal);
            check(rck_hal_mpb_read(hal, self, base + DATA, in, len) == RCK_OK,
                  "read", r);
            for (size_t i = 0; i < len; i++)
                if (in[i] != pattern(r, (int)i)) {
                    check(0, "the data before its flag", r);
                    break;
                }
            check(rck_hal_mpb_write_flag(hal, peer, base + DATA, NULL, 0,
                                         base + FLAG, (uint32_t)r) == RCK_OK,
                  "the answer: a flag alone", r);
        }
    }
    rck_hal_close(hal);
    if (fails == 0)
        printf("write_flag: ok (ue %d, %d rounds)\n", me, ROUNDS);
    return fails ? 1 : 0;
}
