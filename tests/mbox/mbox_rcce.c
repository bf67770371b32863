/*
 * Mailboxes and RCCE in one program: rck_mbox_init reserves its area
 * before RCCE_init, RCCE keeps the rest of the MPB, and both work (a ring
 * of RCCE messages, then a ring of mails). With the argument "late",
 * rck_mbox_init runs after RCCE_init and must refuse, naming the order.
 */
#include "RCCE.h"
#include "mbox_check.h"

#include <string.h>

int main(int argc, char **argv)
{
    int late = argc > 1 && strcmp(argv[1], "late") == 0;
    int me, n;
    char out[100], in[100];
    rck_mail_t m;

    mbox_check_watchdog(100);
    if (!late)
        CHECK_ST(rck_mbox_init(), RCK_OK);
    CHECK(RCCE_init(&argc, &argv) == RCCE_SUCCESS);
    if (late) {
        CHECK_ST(rck_mbox_init(), RCK_ERR_BUSY);
        RCCE_finalize();
        if (RCCE_ue() == 0)
            printf("mbox_rcce late: refused after RCCE_init\n");
        return 0;
    }
    me = RCCE_ue();
    n = RCCE_num_ues();
    CHECK(rck_mbox_ue() == me && rck_mbox_num_ues() == n);
    /* RCCE ring */
    snprintf(out, sizeof out, "rcce from %d", me);
    if (n > 1) {
        if (me % 2 == 0) {
            CHECK(RCCE_send(out, sizeof out, (me + 1) % n) == RCCE_SUCCESS);
            CHECK(RCCE_recv(in, sizeof in, (me + n - 1) % n) ==
                  RCCE_SUCCESS);
        } else {
            CHECK(RCCE_recv(in, sizeof in, (me + n - 1) % n) ==
                  RCCE_SUCCESS);
            CHECK(RCCE_send(out, sizeof out, (me + 1) % n) == RCCE_SUCCESS);
        }
        char want[100];
        snprintf(want, sizeof want, "rcce from %d", (me + n - 1) % n);
        CHECK(strcmp(in, want) == 0);
    }
    /* mail ring: mailboxes untouched by RCCE's traffic */
    CHECK_ST(rck_mbox_send((me + 1) % n, (uint16_t)me, &me, sizeof me),
             RCK_OK);
    CHECK_ST(rck_mbox_recv(&m, -1), RCK_OK);
    CHECK(m.sender == (me + n - 1) % n && m.tag == (uint16_t)m.sender);
    CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS);
    CHECK(RCCE_finalize() == RCCE_SUCCESS);
    if (me == 0)
        printf("mbox_rcce: RCCE and mailboxes share the MPB (%d UEs)\n", n);
    return 0;
}
