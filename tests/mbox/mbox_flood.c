/*
 * Every other UE sends K mails to UE 0 at once. UE 0 checks that none is
 * lost, none is duplicated and each sender's mails arrive in order, with
 * the payload and tag each one was sent with.
 *   mbox_flood h|p K    (h: handler-driven receive, p: polled receive)
 */
#include "mbox_check.h"

#include <stdint.h>
#include <string.h>

static int nues, per;
static long *next_seq;
static long total;

static void fill(unsigned char *p, int sender, uint32_t seq, size_t len)
{
    memcpy(p, &seq, 4);
    for (size_t i = 4; i < len; i++)
        p[i] = (unsigned char)(sender * 31 + seq * 7 + i);
}

static void check_mail(const rck_mail_t *m)
{
    unsigned char want[RCK_MBOX_PAYLOAD];
    uint32_t seq;

    CHECK(m->sender > 0 && m->sender < nues);
    CHECK(m->len >= 4);
    memcpy(&seq, m->payload, 4);
    CHECK((long)seq == next_seq[m->sender]); /* in order, none lost */
    CHECK(m->tag == (uint16_t)(seq * 3));
    CHECK(m->len == 4 + seq % (RCK_MBOX_PAYLOAD - 3));
    fill(want, m->sender, seq, m->len);
    CHECK(memcmp(want, m->payload, m->len) == 0);
    next_seq[m->sender]++;
    total++;
}

static void on_mail(const rck_mail_t *m, void *arg)
{
    (void)arg;
    check_mail(m);
}

int main(int argc, char **argv)
{
    int handler_mode, me;

    mbox_check_watchdog(100);
    CHECK(argc == 3);
    handler_mode = argv[1][0] == 'h';
    per = atoi(argv[2]);
    CHECK_ST(rck_mbox_init(), RCK_OK);
    me = rck_mbox_ue();
    nues = rck_mbox_num_ues();
    if (me == 0) {
        next_seq = calloc((size_t)nues, sizeof(long));
        CHECK(next_seq != NULL);
        if (handler_mode)
            CHECK_ST(rck_mbox_set_handler(on_mail, NULL), RCK_OK);
        while (total < (long)(nues - 1) * per) {
            if (handler_mode) {
                int got = -1;
                CHECK_ST(rck_mbox_serve(-1, &got), RCK_OK);
                CHECK(got > 0);
            } else {
                rck_mail_t m;
                CHECK_ST(rck_mbox_recv(&m, -1), RCK_OK);
                check_mail(&m);
            }
        }
        for (int u = 1; u < nues; u++)
            CHECK(next_seq[u] == per);
        rck_mbox_stats_t st;
        rck_mbox_stats(&st);
        CHECK(st.received == (uint64_t)(nues - 1) * (uint64_t)per);
        printf("mbox_flood %s: %ld mails from %d senders, in order, none "
               "lost\n",
               handler_mode ? "handler" : "polled", total, nues - 1);
    } else {
        for (int k = 0; k < per; k++) {
            unsigned char p[RCK_MBOX_PAYLOAD];
            size_t len = 4 + (size_t)k % (RCK_MBOX_PAYLOAD - 3);
            fill(p, me, (uint32_t)k, len);
            CHECK_ST(rck_mbox_send(0, (uint16_t)(k * 3), p, len), RCK_OK);
        }
    }
    CHECK_ST(rck_mbox_finalize(), RCK_OK);
    return 0;
}
