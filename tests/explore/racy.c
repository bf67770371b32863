/*
 * racy.c: a planted race for `rck explore` (tests/explore).
 *
 * UE 0 puts a 32-byte payload into UE 1's MPB and then raises UE 1's
 * flag, as RCCE's flag protocol wants. UE 1 breaks the protocol: after a
 * little work of its own it reads the payload first and waits for the
 * flag only afterwards. In the model's own order (seed 0) UE 0 is done
 * long before UE 1 looks, and the program passes; a schedule in which UE
 * 0 is held up for a moment (an interrupt, another task) lets UE 1 read
 * the payload before it arrived, and the check fails. Exit 1 then, with
 * "racy: FAILED".
 */
#include <stdio.h>
#include <string.h>

#include "RCCE.h"

#define PAYLOAD 32
#define WORK 2

int RCCE_APP(int argc, char **argv)
{
    char msg[PAYLOAD], got[PAYLOAD], scratch[PAYLOAD];
    RCCE_FLAG ready;
    t_vcharp slot;
    int me;

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS || RCCE_num_ues() != 2) {
        fprintf(stderr, "racy: needs RCCE_init and 2 UEs\n");
        return 2;
    }
    me = RCCE_ue();
    slot = RCCE_malloc(PAYLOAD);
    if (slot == NULL || RCCE_flag_alloc(&ready) != RCCE_SUCCESS) {
        fprintf(stderr, "racy: RCCE_malloc or RCCE_flag_alloc failed\n");
        return 2;
    }
    memset(msg, 0x5a, sizeof(msg));
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0) {
        RCCE_put(slot, (t_vcharp)msg, PAYLOAD, 1);
        RCCE_flag_write(&ready, RCCE_FLAG_SET, 1);
    } else {
        for (int k = 0; k < WORK; k++) /* work of its own */
            RCCE_get((t_vcharp)scratch, slot, PAYLOAD, me);
        /* THE BUG: the payload is read before the flag says it is there */
        RCCE_get((t_vcharp)got, slot, PAYLOAD, me);
        RCCE_wait_until(ready, RCCE_FLAG_SET);
        if (memcmp(got, msg, PAYLOAD) != 0) {
            printf("racy: FAILED: UE 1 read the payload before it arrived "
                   "(byte 0 is 0x%02x, not 0x5a)\n", (unsigned char)got[0]);
            return 1;
        }
        printf("racy: UE 1 got the payload\n");
    }
    RCCE_finalize();
    return 0;
}
