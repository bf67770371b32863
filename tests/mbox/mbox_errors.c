/*
 * Bad input and the documented semantics of a full mailbox, on one UE
 * (mails to itself) so every outcome is deterministic on every backend.
 */
#include "mbox_check.h"

#include <string.h>

static int handled;

static void on_mail(const rck_mail_t *m, void *arg)
{
    (void)arg;
    CHECK(m->tag == 42 && m->len == 3);
    handled++;
}

int main(void)
{
    rck_mail_t m;
    char big[64] = {0};
    int me, n, got;

    mbox_check_watchdog(60);
    /* before rck_mbox_init */
    CHECK_ST(rck_mbox_send(0, 1, "x", 1), RCK_ERR_STATE);
    CHECK_ST(rck_mbox_try_recv(&m), RCK_ERR_STATE);
    CHECK(rck_mbox_ue() == -1 && rck_mbox_num_ues() == 0);

    CHECK_ST(rck_mbox_init(), RCK_OK);
    CHECK_ST(rck_mbox_init(), RCK_OK); /* idempotent */
    me = rck_mbox_ue();
    n = rck_mbox_num_ues();

    /* a mail to a core that does not exist */
    CHECK_ST(rck_mbox_send(n, 1, "x", 1), RCK_ERR_INVALID);
    CHECK_ST(rck_mbox_send(-1, 1, "x", 1), RCK_ERR_INVALID);
    CHECK_ST(rck_mbox_try_send(1000, 1, "x", 1), RCK_ERR_INVALID);
    /* too long, NULL payload */
    CHECK_ST(rck_mbox_send(me, 1, big, RCK_MBOX_PAYLOAD + 1),
             RCK_ERR_INVALID);
    CHECK_ST(rck_mbox_send(me, 1, NULL, 4), RCK_ERR_INVALID);
    CHECK_ST(rck_mbox_try_recv(NULL), RCK_ERR_INVALID);
    /* polled mode: nothing there yet */
    CHECK_ST(rck_mbox_try_recv(&m), RCK_ERR_NOT_FOUND);
    CHECK_ST(rck_mbox_recv(&m, 1000000), RCK_ERR_TIMEDOUT);
    CHECK_ST(rck_mbox_poll(NULL), RCK_ERR_STATE); /* no handler */

    /* a full mailbox: try_send says busy, the mail already there stays */
    CHECK_ST(rck_mbox_try_send(me, 5, "abcd", 4), RCK_OK);
    CHECK_ST(rck_mbox_try_send(me, 6, "efgh", 4), RCK_ERR_BUSY);
    CHECK_ST(rck_mbox_try_recv(&m), RCK_OK);
    CHECK(m.sender == me && m.tag == 5 && m.len == 4 &&
          memcmp(m.payload, "abcd", 4) == 0);
    CHECK_ST(rck_mbox_try_recv(&m), RCK_ERR_NOT_FOUND);
    /* empty mail */
    CHECK_ST(rck_mbox_send(me, 9, NULL, 0), RCK_OK);
    CHECK_ST(rck_mbox_recv(&m, -1), RCK_OK);
    CHECK(m.tag == 9 && m.len == 0);

    /* handler mode: a mail waiting is handed over by poll and serve */
    CHECK_ST(rck_mbox_try_send(me, 42, "xyz", 3), RCK_OK);
    CHECK_ST(rck_mbox_set_handler(on_mail, NULL), RCK_OK);
    CHECK_ST(rck_mbox_try_recv(&m), RCK_ERR_STATE); /* handler owns mails */
    CHECK_ST(rck_mbox_recv(&m, 0), RCK_ERR_STATE);
    CHECK_ST(rck_mbox_poll(&got), RCK_OK);
    CHECK(got == 1 && handled == 1);
    CHECK_ST(rck_mbox_send(me, 42, "xyz", 3), RCK_OK);
    CHECK_ST(rck_mbox_serve(-1, &got), RCK_OK);
    CHECK(got == 1 && handled == 2);
    CHECK_ST(rck_mbox_serve(1000000, &got), RCK_ERR_TIMEDOUT);
    CHECK(got == 0);

    CHECK_ST(rck_mbox_finalize(), RCK_OK);
    CHECK_ST(rck_mbox_send(me, 1, "x", 1), RCK_ERR_STATE);
    printf("mbox_errors: every bad input refused with its code\n");
    return 0;
}
