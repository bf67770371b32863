/*
 * t_busy: a full notification ring makes senders retry, and nothing is
 * lost. UE 0 receives with a notification ring of only RING_SLOTS ids
 * from every other UE (one channel each, ring notification) and is slow:
 *
 *  1. try_send: every sender sends MSGS messages with rck_chan_try_send,
 *     retrying after a short HAL sleep whenever it returns RCK_ERR_BUSY.
 *     UE 0 does not look at its channels until every sender has seen
 *     RCK_ERR_BUSY at least once (each bumps GIC atomic counter 0 the
 *     first time), so the ring surely filled up. The senders start only
 *     when UE 0 has opened every channel (counter 1): UE 0's opens drain
 *     the ring, so an early sender could otherwise send all its messages
 *     without ever finding the ring full. Then it takes every
 *     message, sleeping a little after each.
 *  2. blocking send: every sender sends MSGS more with rck_chan_send,
 *     which waits for room itself; UE 0 is slow again.
 *
 * UE 0 checks that every message of every sender arrived once, in order;
 * each sender checks its BUSY count (phase 1) and the stats.
 *
 *   t_busy [MSGS]
 */
#include "chan_test.h"

#include "rck/hal.h"

enum { RING_SLOTS = 4, CTR = 0, GO = 1 };

static void hal_sleep(rck_hal_t *hal, int64_t ns)
{
    rck_status_t st = rck_hal_wait(hal, NULL, 0, 0, ns, NULL);
    CT_CHECK(st == RCK_ERR_TIMEDOUT, "sleep: %s", rck_status_string(st));
}

int main(int argc, char **argv)
{
    int msgs = argc > 1 ? atoi(argv[1]) : 25;
    rck_chan_attr_t attr;
    rck_chan_stats_t s;
    rck_hal_t *hal;
    int me, n;

    ct_start();
    rck_chan_attr_init(&attr);
    attr.notify = RCK_CHAN_NOTIFY_RING;
    attr.ring_slots = RING_SLOTS;
    CT_OK(rck_chan_init(&attr));
    hal = rck_hal_self();
    CT_CHECK(hal != NULL, "no HAL");
    me = ct_me = rck_chan_ue();
    n = rck_chan_num_ues();
    CT_CHECK(n >= 3, "needs 3 UEs or more");

    if (me == 0) {
        rck_chan_t *chs = calloc((size_t)n, sizeof(*chs));
        int *next = calloc((size_t)n, sizeof(*next));
        int *closed = calloc((size_t)n, sizeof(*closed));
        long total = 0;

        CT_CHECK(chs != NULL && next != NULL && closed != NULL, "calloc");
        for (int u = 1; u < n; u++) {
            ct_phase("open %d", u);
            CT_OK(rck_chan_open(u, 9, &chs[u]));
        }
        CT_OK(rck_hal_atomic_inc(hal, GO, NULL));
        for (int phase = 1; phase <= 2; phase++) {
            if (phase == 1) {
                int32_t busy = 0;
                ct_phase("wait for every sender to see BUSY");
                for (;;) {
                    CT_OK(rck_hal_atomic_read(hal, CTR, &busy));
                    if (busy >= n - 1)
                        break;
                    hal_sleep(hal, 20000);
                }
            }
            ct_phase("receive, phase %d", phase);
            while (total < (long)phase * (n - 1) * msgs) {
                rck_chan_t r;
                uint32_t m[2];
                size_t len;
                rck_status_t st;
                int u = -1;

                CT_OK(rck_chan_dispatch(-1, &r));
                for (int i = 1; i < n; i++)
                    if (chs[i] == r)
                        u = i;
                CT_CHECK(u > 0, "dispatch returned 0x%x", r);
                st = rck_chan_recv(r, NULL, m, sizeof(m), &len, 0);
                if (st == RCK_ERR_STATE) {
                    /* a sender that finished closed its side: the close
                     * comes after all its messages */
                    CT_CHECK(next[u] == 2 * msgs && !closed[u],
                             "UE %d closed after %d messages", u, next[u]);
                    closed[u] = 1;
                    continue;
                }
                CT_CHECK(st == RCK_OK, "recv: %s", rck_status_string(st));
                CT_CHECK(len == sizeof(m) && (int)m[0] == u &&
                             (int)m[1] == next[u],
                         "from UE %d: (%u, %u), expected (%d, %d)", u, m[0],
                         m[1], u, next[u]);
                next[u]++;
                total++;
                hal_sleep(hal, 3000); /* a slow receiver */
            }
        }
        for (int u = 1; u < n; u++)
            CT_CHECK(next[u] == 2 * msgs, "UE %d: %d messages", u, next[u]);
        rck_chan_stats(&s);
        printf("t_busy: ue 0 received %llu messages in %llu drains, %llu "
               "interrupts\n",
               (unsigned long long)s.received, (unsigned long long)s.drains,
               (unsigned long long)s.interrupts);
        /* the senders close when done; wait for all of them */
        for (int u = 1; u < n; u++) {
            size_t len;
            if (!closed[u])
                CT_ST(rck_chan_recv(chs[u], NULL, NULL, 0, &len, -1),
                      RCK_ERR_STATE);
        }
        free(chs);
        free(next);
        free(closed);
    } else {
        rck_chan_t ch;
        long busy = 0;

        ct_phase("open");
        CT_OK(rck_chan_open(0, 9, &ch));
        ct_phase("wait for UE 0's opens");
        for (;;) {
            int32_t go = 0;
            CT_OK(rck_hal_atomic_read(hal, GO, &go));
            if (go > 0)
                break;
            hal_sleep(hal, 20000);
        }
        ct_phase("try_send");
        for (int i = 0; i < msgs; i++) {
            uint32_t m[2] = {(uint32_t)me, (uint32_t)i};
            rck_status_t st;
            while ((st = rck_chan_try_send(ch, 1, m, sizeof(m))) ==
                   RCK_ERR_BUSY) {
                if (busy++ == 0)
                    CT_OK(rck_hal_atomic_inc(hal, CTR, NULL));
                hal_sleep(hal, 5000);
            }
            CT_CHECK(st == RCK_OK, "try_send %d: %s", i,
                     rck_status_string(st));
        }
        rck_chan_stats(&s);
        CT_CHECK(busy > 0 && s.busy_notify == (uint64_t)busy &&
                     s.busy_credit == 0,
                 "busy %ld, stats: %llu notify %llu credit", busy,
                 (unsigned long long)s.busy_notify,
                 (unsigned long long)s.busy_credit);
        ct_phase("send");
        for (int i = msgs; i < 2 * msgs; i++) {
            uint32_t m[2] = {(uint32_t)me, (uint32_t)i};
            CT_OK(rck_chan_send(ch, 1, m, sizeof(m)));
        }
        rck_chan_stats(&s);
        printf("t_busy: ue %d sent %llu, saw BUSY %ld times in try_send\n",
               me, (unsigned long long)s.sent, busy);
        CT_CHECK(s.sent == 2 * (uint64_t)msgs, "sent %llu",
                 (unsigned long long)s.sent);
        CT_OK(rck_chan_close(ch));
    }
    CT_OK(rck_chan_finalize());
    return 0;
}
