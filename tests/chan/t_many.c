/*
 * t_many: many channels open at once between two UEs (ids beyond one
 * table chunk of 256 and beyond the tree's 1,024 leaf bits, which ids then
 * share). UE 0 and UE 1 open N channels with 8-line rings, alternately
 * notified through the ring and the tree on UE 1's side. UE 0 sends one
 * message on every channel (its index); UE 1 takes them all with
 * rck_chan_dispatch and per-channel handlers, checks each arrived once on
 * its own channel, and answers on every channel; UE 0 takes the answers
 * in any order with rck_chan_dispatch. Then both close everything.
 *
 *   t_many [N]   (default 1500)
 */
#include "chan_test.h"

static rck_chan_t *chs;
static int *seen, nch;
static long got;

static void on_msg(rck_chan_t ch, void *arg)
{
    int i = (int)(intptr_t)arg;
    uint32_t v;
    size_t len;
    rck_status_t st;

    while ((st = rck_chan_try_recv(ch, NULL, &v, sizeof(v), &len)) ==
           RCK_OK) {
        CT_CHECK(len == 4 && (int)v == i, "channel %d got %u", i, v);
        CT_CHECK(seen[i] == 0, "channel %d got two messages", i);
        seen[i] = 1;
        got++;
    }
    CT_CHECK(st == RCK_ERR_NOT_FOUND, "try_recv: %s", rck_status_string(st));
}

int main(int argc, char **argv)
{
    rck_chan_attr_t attr;
    int me;

    nch = argc > 1 ? atoi(argv[1]) : 1500;
    ct_start();
    rck_chan_attr_init(&attr);
    attr.ring_lines = 8;
    attr.bulk_bytes = 0;
    CT_OK(rck_chan_init(&attr));
    me = ct_me = rck_chan_ue();
    CT_CHECK(rck_chan_num_ues() == 2, "needs 2 UEs");
    chs = calloc((size_t)nch, sizeof(*chs));
    seen = calloc((size_t)nch, sizeof(*seen));
    CT_CHECK(chs != NULL && seen != NULL, "calloc");

    for (int i = 0; i < nch; i++) {
        rck_chan_open_attr_t oa;
        ct_phase("open %d", i);
        rck_chan_open_attr_init(&oa);
        oa.notify = (i & 1) ? RCK_CHAN_NOTIFY_TREE : RCK_CHAN_NOTIFY_RING;
        CT_OK(rck_chan_open_ex(me ^ 1, (uint32_t)i, &oa, &chs[i]));
    }
    if (me == 0) {
        ct_phase("send");
        for (int i = 0; i < nch; i++) {
            uint32_t v = (uint32_t)i;
            CT_OK(rck_chan_send(chs[i], 1, &v, sizeof(v)));
        }
        ct_phase("answers");
        while (got < nch) {
            rck_chan_t r;
            int i;
            CT_OK(rck_chan_dispatch(-1, &r));
            for (i = 0; i < nch && chs[i] != r; i++)
                ;
            CT_CHECK(i < nch, "dispatch returned 0x%x", r);
            on_msg(r, (void *)(intptr_t)i);
        }
    } else {
        for (int i = 0; i < nch; i++)
            CT_OK(rck_chan_set_handler(chs[i], on_msg, (void *)(intptr_t)i));
        ct_phase("receive");
        while (got < nch)
            CT_OK(rck_chan_dispatch(-1, NULL));
        ct_phase("answer");
        for (int i = 0; i < nch; i++) {
            uint32_t v = (uint32_t)i;
            CT_OK(rck_chan_send(chs[i], 2, &v, sizeof(v)));
        }
    }
    for (int i = 0; i < nch; i++)
        CT_CHECK(seen[i] == 1, "channel %d: %d messages", i, seen[i]);
    ct_phase("close");
    /* UE 1 closes after UE 0 has its answers: UE 0 closes first and UE 1
     * waits for each close */
    for (int i = 0; i < nch; i++) {
        if (me == 0) {
            CT_OK(rck_chan_close(chs[i]));
        } else {
            size_t len;
            CT_OK(rck_chan_set_handler(chs[i], NULL, NULL));
            CT_ST(rck_chan_recv(chs[i], NULL, NULL, 0, &len, -1),
                  RCK_ERR_STATE);
            CT_OK(rck_chan_close(chs[i]));
        }
    }
    CT_OK(rck_chan_finalize());
    printf("t_many: ue %d: %d channels ok\n", me, nch);
    free(chs);
    free(seen);
    return 0;
}
