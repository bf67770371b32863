/*
 * t_close: a closed channel gives errors, never a hang or a crash.
 *
 *  1. UE 0 and UE 1 open port 1; UE 0 sends three messages and closes.
 *     Every call on UE 0's old handle returns RCK_ERR_STATE (send,
 *     try_send, recv, try_recv, peek, set_handler, info, close again).
 *     UE 1 takes the three messages, then a blocking receive returns
 *     RCK_ERR_STATE (the peer closed) instead of waiting for ever; its
 *     sends fail with RCK_ERR_STATE at the latest when they need credit.
 *  2. Port 1 opens again between the same UEs: a new handle that works,
 *     the old one still refused. UE 1 blocks in rck_chan_recv; UE 0
 *     closes: the blocked receive ends with RCK_ERR_STATE.
 *  3. A channel whose peer closed is ready for rck_chan_dispatch: its
 *     handler runs and its receive says RCK_ERR_STATE.
 *  4. Open and close 150 channels in turn with a slice that holds 7
 *     blocks (ids and blocks are reused once both sides closed) and the
 *     last one still carries messages.
 * With 3 UEs or more, UE 2 runs the same against UE 0 after UE 1
 * (closed channels of one peer do not disturb another).
 */
#include "chan_test.h"

static int handler_saw;

static void on_close(rck_chan_t ch, void *arg)
{
    size_t len;
    (void)arg;
    CT_ST(rck_chan_try_recv(ch, NULL, NULL, 0, &len), RCK_ERR_STATE);
    handler_saw++;
    CT_OK(rck_chan_close(ch));
}

static void stale_refused(rck_chan_t ch)
{
    rck_chan_info_t info;
    uint16_t type;
    size_t len;
    char b[8];

    CT_ST(rck_chan_send(ch, 0, "x", 1), RCK_ERR_STATE);
    CT_ST(rck_chan_try_send(ch, 0, "x", 1), RCK_ERR_STATE);
    CT_ST(rck_chan_recv(ch, &type, b, sizeof(b), &len, -1), RCK_ERR_STATE);
    CT_ST(rck_chan_try_recv(ch, &type, b, sizeof(b), &len), RCK_ERR_STATE);
    CT_ST(rck_chan_peek(ch, &type, &len), RCK_ERR_STATE);
    CT_ST(rck_chan_set_handler(ch, NULL, NULL), RCK_ERR_STATE);
    CT_ST(rck_chan_info(ch, &info), RCK_ERR_STATE);
    CT_ST(rck_chan_close(ch), RCK_ERR_STATE);
}

static void run_pair(int me, int peer, int closer)
{
    rck_chan_t ch, old, last = RCK_CHAN_NONE;
    char b[64];
    size_t len;
    rck_status_t st;

    ct_phase("1: open (peer %d)", peer);
    CT_OK(rck_chan_open(peer, 1, &ch));
    if (closer) {
        for (int i = 0; i < 3; i++)
            CT_OK(rck_chan_send(ch, (uint16_t)i, "abc", 3));
        CT_OK(rck_chan_close(ch));
        stale_refused(ch);
    } else {
        for (int i = 0; i < 3; i++) {
            uint16_t type;
            CT_OK(rck_chan_recv(ch, &type, b, sizeof(b), &len, -1));
            CT_CHECK(type == i && len == 3 && !memcmp(b, "abc", 3),
                     "message %d", i);
        }
        CT_ST(rck_chan_recv(ch, NULL, b, sizeof(b), &len, -1), RCK_ERR_STATE);
        CT_ST(rck_chan_try_recv(ch, NULL, b, sizeof(b), &len), RCK_ERR_STATE);
        /* sends are dropped until they need credit, then refused */
        st = RCK_OK;
        for (int i = 0; i < 1000 && st == RCK_OK; i++)
            st = rck_chan_send(ch, 0, b, sizeof(b));
        CT_CHECK(st == RCK_ERR_STATE, "send to a closed peer: %s",
                 rck_status_string(st));
        CT_OK(rck_chan_close(ch));
        stale_refused(ch);
    }
    old = ch;

    ct_phase("2: reopen, close under a blocked receive");
    CT_OK(rck_chan_open(peer, 1, &ch));
    CT_CHECK(ch != old, "the new handle equals the old one");
    CT_ST(rck_chan_send(old, 0, "x", 1), RCK_ERR_STATE);
    if (closer) {
        uint16_t type;
        CT_OK(rck_chan_recv(ch, &type, b, sizeof(b), &len, -1));
        CT_CHECK(type == 42, "ready message");
        CT_OK(rck_chan_close(ch));
    } else {
        CT_OK(rck_chan_send(ch, 42, NULL, 0));
        CT_ST(rck_chan_recv(ch, NULL, b, sizeof(b), &len, -1), RCK_ERR_STATE);
        CT_OK(rck_chan_close(ch));
    }

    ct_phase("3: dispatch sees the close");
    CT_OK(rck_chan_open(peer, 2, &ch));
    if (closer) {
        CT_OK(rck_chan_close(ch));
    } else {
        rck_chan_t r;
        handler_saw = 0;
        CT_OK(rck_chan_set_handler(ch, on_close, NULL));
        CT_OK(rck_chan_dispatch(-1, &r));
        CT_CHECK(r == RCK_CHAN_NONE && handler_saw == 1,
                 "dispatch: 0x%x, handler %d", r, handler_saw);
    }

    ct_phase("4: many opens and closes");
    for (int i = 0; i < 150; i++) {
        CT_OK(rck_chan_open(peer, 100 + (uint32_t)(i % 7), &ch));
        if (i == 149) {
            last = ch;
            break;
        }
        /* both close: the blocks come back once both sides closed */
        CT_OK(rck_chan_close(ch));
    }
    if (closer) {
        uint16_t type;
        CT_OK(rck_chan_send(last, 7, "last", 4));
        CT_OK(rck_chan_recv(last, &type, b, sizeof(b), &len, -1));
        CT_CHECK(type == 8 && len == 4 && !memcmp(b, "back", 4), "answer");
    } else {
        uint16_t type;
        CT_OK(rck_chan_recv(last, &type, b, sizeof(b), &len, -1));
        CT_CHECK(type == 7 && len == 4 && !memcmp(b, "last", 4), "message");
        CT_OK(rck_chan_send(last, 8, "back", 4));
    }
    /* the closer waits for the other side to finish with the channel */
    if (closer)
        CT_ST(rck_chan_recv(last, NULL, b, sizeof(b), &len, -1),
              RCK_ERR_STATE);
    CT_OK(rck_chan_close(last));
    stale_refused(last);
}

int main(void)
{
    rck_chan_attr_t attr;
    int me, n;

    ct_start();
    /* a 16 KiB slice holds 7 channel blocks: 150 channels must reuse them */
    rck_chan_attr_init(&attr);
    attr.slice_bytes = 16384;
    CT_OK(rck_chan_init(&attr));
    me = ct_me = rck_chan_ue();
    n = rck_chan_num_ues();
    CT_CHECK(n >= 2, "needs 2 UEs");
    if (me == 0) {
        for (int u = 1; u < n && u <= 2; u++)
            run_pair(me, u, 1);
    } else if (me <= 2) {
        run_pair(me, 0, 0);
    }
    ct_phase("finalize");
    CT_OK(rck_chan_finalize());
    printf("t_close: ue %d ok\n", me);
    return 0;
}
