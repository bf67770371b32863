/*
 * Every UE sends K mails to every UE (itself included) while receiving in
 * its handler: blocking sends to full mailboxes keep serving the sender's
 * own mails, so nobody deadlocks. Checks counts and per-sender order.
 *   mbox_alltoall K
 */
#include "mbox_check.h"

#include <stdint.h>
#include <string.h>

static long *next_seq;
static long total;

static void on_mail(const rck_mail_t *m, void *arg)
{
    uint32_t seq;

    (void)arg;
    CHECK(m->len == 8);
    memcpy(&seq, m->payload, 4);
    CHECK((long)seq == next_seq[m->sender]);
    uint32_t who;
    memcpy(&who, m->payload + 4, 4);
    CHECK((int)who == m->sender);
    next_seq[m->sender]++;
    total++;
}

int main(int argc, char **argv)
{
    int me, n, per;

    mbox_check_watchdog(100);
    CHECK(argc == 2);
    per = atoi(argv[1]);
    CHECK_ST(rck_mbox_init(), RCK_OK);
    me = rck_mbox_ue();
    n = rck_mbox_num_ues();
    next_seq = calloc((size_t)n, sizeof(long));
    CHECK(next_seq != NULL);
    CHECK_ST(rck_mbox_set_handler(on_mail, NULL), RCK_OK);
    for (int k = 0; k < per; k++) {
        for (int i = 1; i <= n; i++) {
            int dest = (me + i) % n;
            uint32_t p[2] = {(uint32_t)k, (uint32_t)me};
            CHECK_ST(rck_mbox_send(dest, 7, p, sizeof p), RCK_OK);
        }
    }
    while (total < (long)n * per)
        CHECK_ST(rck_mbox_serve(-1, NULL), RCK_OK);
    for (int u = 0; u < n; u++)
        CHECK(next_seq[u] == per);
    if (me == 0)
        printf("mbox_alltoall: %d UEs x %d mails each way, all delivered in "
               "order\n",
               n, per);
    return 0;
}
