/*
 * links.c: the mesh link counters of the sim report (run with
 * `rck run --cores 0,47 --backend sim`). UE 0 (core 0, tile (0,0)) writes
 * ten lines, one HAL call each, into the MPB of UE 1 (core 47, tile
 * (5,3)); UE 1 does nothing. XY routing takes every line over the 8
 * links (0,0) -> (5,0) -> (5,3), and every acknowledgement back over the
 * 8 links (5,3) -> (0,3) -> (0,0); nothing else moves.
 */
#include "rck/hal.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    rck_hal_t *hal;
    unsigned char line[32] = {1};

    if (rck_hal_open(NULL, &hal) != RCK_OK)
        return 3;
    if (hal->nues != 2) {
        fprintf(stderr, "links: needs 2 UEs\n");
        return 2;
    }
    if (hal->ue == 0) {
        for (int i = 0; i < 10; i++) {
            if (rck_hal_mpb_write(hal, hal->ue_core[1], 1024u + 32u * i, line,
                                  sizeof(line)) != RCK_OK)
                return 3;
        }
    }
    rck_hal_close(hal);
    return 0;
}
