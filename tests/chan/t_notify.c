/*
 * t_notify: all three notification kinds deliver, side by side, to one
 * receiver. UE 0 opens three channels with every other UE: port 0 notified
 * through its id ring, port 1 through its tree, port 2 polled (UE 0's
 * choice, per channel, with rck_chan_open_ex). Ring and tree channels get
 * handlers; polled ones are returned by rck_chan_dispatch. Every sender
 * sends MSGS messages on each of its three channels, interleaved, each
 * carrying (sender, port, number); UE 0 checks that every channel delivers
 * every message once, in order, and that interrupts were taken. Then UE 0
 * answers every sender on every channel (the senders' side of each channel
 * uses the core default, argv[1]) and each sender checks the answers with
 * rck_chan_dispatch too.
 *
 *   t_notify [ring|tree|poll [MSGS]]
 */
#include "chan_test.h"

#include "rck/hal.h"

enum { NPORTS = 3 };

static int nues, msgs;
static int *next_no; /* per (sender, port): next expected number */
static long got;

static void take(rck_chan_t ch, int sender, int port)
{
    uint32_t m[3];
    uint16_t type;
    size_t len;
    rck_status_t st;

    /* take everything there is: handlers may take several messages */
    while ((st = rck_chan_try_recv(ch, &type, m, sizeof(m), &len)) == RCK_OK) {
        int *want = &next_no[sender * NPORTS + port];
        CT_CHECK(len == sizeof(m) && type == (uint16_t)port, "len %zu type %u",
                 len, type);
        CT_CHECK((int)m[0] == sender && (int)m[1] == port,
                 "message (%u, %u) on the channel of (%d, %d)", m[0], m[1],
                 sender, port);
        CT_CHECK((int)m[2] == *want, "sender %d port %d: got %u, expected %d",
                 sender, port, m[2], *want);
        (*want)++;
        got++;
    }
    CT_CHECK(st == RCK_ERR_NOT_FOUND, "try_recv: %s", rck_status_string(st));
}

static void on_msg(rck_chan_t ch, void *arg)
{
    intptr_t who = (intptr_t)arg;
    take(ch, (int)(who / NPORTS), (int)(who % NPORTS));
}

int main(int argc, char **argv)
{
    rck_chan_notify_t kind = ct_kind(argc > 1 ? argv[1] : NULL);
    rck_chan_attr_t attr;
    rck_chan_stats_t s;
    rck_chan_t *chs;
    int me;

    msgs = argc > 2 ? atoi(argv[2]) : 40;
    ct_start();
    rck_chan_attr_init(&attr);
    attr.notify = kind;
    CT_OK(rck_chan_init(&attr));
    me = ct_me = rck_chan_ue();
    nues = rck_chan_num_ues();
    CT_CHECK(nues >= 2, "needs 2 UEs");
    chs = calloc((size_t)nues * NPORTS, sizeof(*chs));
    next_no = calloc((size_t)nues * NPORTS, sizeof(*next_no));
    CT_CHECK(chs != NULL && next_no != NULL, "calloc");

    if (me == 0) {
        static const rck_chan_notify_t kinds[NPORTS] = {
            RCK_CHAN_NOTIFY_RING, RCK_CHAN_NOTIFY_TREE, RCK_CHAN_NOTIFY_POLL};
        for (int u = 1; u < nues; u++) {
            for (int p = 0; p < NPORTS; p++) {
                rck_chan_open_attr_t oa;
                rck_chan_info_t info;
                rck_chan_t ch;

                ct_phase("open %d/%d", u, p);
                rck_chan_open_attr_init(&oa);
                oa.notify = kinds[p];
                CT_OK(rck_chan_open_ex(u, (uint32_t)p, &oa, &ch));
                CT_OK(rck_chan_info(ch, &info));
                CT_CHECK(info.in_notify == kinds[p] && info.out_notify == kind,
                         "kinds %d %d", info.in_notify, info.out_notify);
                chs[u * NPORTS + p] = ch;
                if (kinds[p] != RCK_CHAN_NOTIFY_POLL)
                    CT_OK(rck_chan_set_handler(
                        ch, on_msg, (void *)(intptr_t)(u * NPORTS + p)));
            }
        }
        ct_phase("receive");
        while (got < (long)(nues - 1) * NPORTS * msgs) {
            rck_chan_t r;
            CT_OK(rck_chan_dispatch(-1, &r));
            if (r != RCK_CHAN_NONE) {
                int found = 0;
                for (int i = 0; i < nues * NPORTS && !found; i++) {
                    if (chs[i] == r) {
                        CT_CHECK(i % NPORTS == 2, "channel %d of UE %d was "
                                 "returned but has a handler", i % NPORTS,
                                 i / NPORTS);
                        take(r, i / NPORTS, i % NPORTS);
                        found = 1;
                    }
                }
                CT_CHECK(found, "dispatch returned an unknown channel 0x%x", r);
            }
        }
        for (int i = NPORTS; i < nues * NPORTS; i++)
            CT_CHECK(next_no[i] == msgs, "UE %d port %d: %d messages",
                     i / NPORTS, i % NPORTS, next_no[i]);
        rck_chan_stats(&s);
        CT_CHECK(s.drains > 0, "%llu drains", (unsigned long long)s.drains);
        ct_phase("answer");
        for (int u = 1; u < nues; u++)
            for (int p = 0; p < NPORTS; p++) {
                uint32_t m[3] = {0, (uint32_t)p, 0};
                CT_OK(rck_chan_send(chs[u * NPORTS + p], (uint16_t)p, m,
                                    sizeof(m)));
            }
    } else {
        for (int p = 0; p < NPORTS; p++) {
            ct_phase("open %d", p);
            CT_OK(rck_chan_open(0, (uint32_t)p, &chs[p]));
        }
        ct_phase("send");
        for (int i = 0; i < msgs; i++)
            for (int p = 0; p < NPORTS; p++) {
                uint32_t m[3] = {(uint32_t)me, (uint32_t)p, (uint32_t)i};
                CT_OK(rck_chan_send(chs[p], (uint16_t)p, m, sizeof(m)));
            }
        ct_phase("answers");
        got = 0;
        while (got < NPORTS) {
            rck_chan_t r;
            int p = -1;
            CT_OK(rck_chan_dispatch(-1, &r));
            for (int i = 0; i < NPORTS; i++)
                if (chs[i] == r)
                    p = i;
            CT_CHECK(p >= 0, "dispatch returned 0x%x", r);
            take(r, 0, p);
        }
        rck_chan_stats(&s);
        if (kind != RCK_CHAN_NOTIFY_POLL)
            CT_CHECK(s.notifies > 0, "no notification");
    }
    printf("t_notify: ue %d done: %llu received, %llu notifies, %llu "
           "interrupts, %llu drains\n",
           me, (unsigned long long)s.received, (unsigned long long)s.notifies,
           (unsigned long long)s.interrupts, (unsigned long long)s.drains);
    ct_phase("finalize");
    /* a close drops what the peer has not taken yet: the senders, who
     * took their answers, close first, and UE 0 waits for their closes */
    if (me != 0) {
        for (int p = 0; p < NPORTS; p++)
            CT_OK(rck_chan_close(chs[p]));
    } else {
        /* wait until every sender closed: recv returns RCK_ERR_STATE */
        for (int i = NPORTS; i < nues * NPORTS; i++) {
            size_t len;
            CT_ST(rck_chan_recv(chs[i], NULL, NULL, 0, &len, -1),
                  RCK_ERR_STATE);
        }
        /* Interrupts: a drain may find every message before the pin
         * interrupt that announced it is taken (on native it arrives at
         * the receiver's next HAL call), so count them only now: every
         * sender raised its last one before it closed, and a poll takes
         * what is still pending. */
        int pending = 0;
        CT_OK(rck_hal_irq_poll(rck_hal_self(), &pending));
        rck_chan_stats(&s);
        CT_CHECK(s.interrupts > 0, "%llu interrupts, %llu drains",
                 (unsigned long long)s.interrupts,
                 (unsigned long long)s.drains);
    }
    CT_OK(rck_chan_finalize());
    free(chs);
    free(next_no);
    return 0;
}
