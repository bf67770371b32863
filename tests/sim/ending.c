/*
 * ending.c: the ways a core can leave a sim run other than RCCE_finalize.
 *
 *   ending crash        UE 1 aborts while UE 0 waits for its message: the
 *                       launcher reports the crash, the waiting core is
 *                       released (RCK_ERR_PEER_DEAD), the run fails
 *   ending nofinalize   every UE exchanges a message and returns from main
 *                       without RCCE_finalize: the run ends normally
 *   ending early        UE 1 returns at once without RCCE_finalize while
 *                       UE 0 waits for it: a deadlock (UE 0 waits forever)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "RCCE.h"

int RCCE_APP(int argc, char **argv)
{
    char buf[100] = "x";
    const char *mode = argc > 1 ? argv[1] : "";

    if (RCCE_init(&argc, &argv) != RCCE_SUCCESS || RCCE_num_ues() != 2)
        return 2;
    if (!strcmp(mode, "crash")) {
        if (RCCE_ue() == 1)
            abort();
        return RCCE_recv(buf, sizeof(buf), 1) == RCCE_SUCCESS ? 0 : 1;
    }
    if (!strcmp(mode, "nofinalize")) {
        int rc = RCCE_ue() == 0 ? RCCE_send(buf, sizeof(buf), 1)
                                : RCCE_recv(buf, sizeof(buf), 0);
        printf("ending: UE %d done\n", RCCE_ue());
        return rc == RCCE_SUCCESS ? 0 : 1;
    }
    if (!strcmp(mode, "early")) {
        if (RCCE_ue() == 1)
            return 0;
        return RCCE_recv(buf, sizeof(buf), 1) == RCCE_SUCCESS ? 0 : 1;
    }
    return 2;
}
