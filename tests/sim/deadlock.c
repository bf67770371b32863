/*
 * deadlock.c: two UEs that both send first. RCCE_send is synchronous, so
 * neither ever reaches its receive: the sim backend must notice that every
 * core waits, name both waits, and fail the run.
 */
#include <stdio.h>
#include <stdlib.h>

#include "RCCE.h"

int RCCE_APP(int argc, char **argv)
{
    char buf[64] = "hello";
    int rc = RCCE_init(&argc, &argv);

    if (rc != RCCE_SUCCESS || RCCE_num_ues() != 2) {
        fprintf(stderr, "deadlock: needs RCCE_init and 2 UEs\n");
        return 2;
    }
    rc = RCCE_send(buf, sizeof(buf), 1 - RCCE_ue());
    if (rc != RCCE_SUCCESS) {
        fprintf(stderr, "deadlock: UE %d: RCCE_send failed (%d) as expected\n",
                RCCE_ue(), rc);
        return 1;
    }
    rc = RCCE_recv(buf, sizeof(buf), 1 - RCCE_ue());
    printf("deadlock: UE %d: no deadlock?\n", RCCE_ue());
    RCCE_finalize();
    return 0;
}
