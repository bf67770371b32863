/*
 * t_bad: bad input gets RCK_ERR_INVALID (or the documented code) and a
 * logged reason, never a crash or a hang. 2 UEs or more (UEs above 1 only
 * check the local errors).
 *
 *  - before rck_chan_init: every call says RCK_ERR_STATE;
 *  - rck_chan_init with each bad setting: RCK_ERR_INVALID, then a good one;
 *  - open: NULL handle, peer -1 / this UE / nues, port 65536, an unknown
 *    or disabled notification kind, bad ring lines or bulk size;
 *  - handles: RCK_CHAN_NONE and made-up ones;
 *  - send: NULL data, a length above RCK_CHAN_MAX_MSG, a message above the
 *    inline limit to a peer without a bulk region;
 *  - receive: NULL length, NULL buffer with room, a buffer too small
 *    (RCK_ERR_NOSPACE, the message stays and is then received whole),
 *    nothing there (RCK_ERR_NOT_FOUND, RCK_ERR_TIMEDOUT);
 *  - dispatch with no channel open: RCK_ERR_STATE; with a timeout and
 *    nothing to do: RCK_ERR_TIMEDOUT;
 *  - rck_chan_init again after finalize (and after RCCE_init): other
 *    settings are refused, the same ones reuse the layout.
 */
#include "RCCE.h"
#include "chan_test.h"

int main(int argc, char **argv)
{
    rck_chan_attr_t a;
    rck_chan_open_attr_t oa;
    rck_chan_t ch = RCK_CHAN_NONE, nobulk = RCK_CHAN_NONE;
    rck_chan_info_t info;
    char b[256];
    size_t len;
    uint16_t type;
    int me, n;

    ct_start();
    ct_phase("before init");
    CT_ST(rck_chan_open(1, 0, &ch), RCK_ERR_STATE);
    CT_ST(rck_chan_send(0x10000, 0, "x", 1), RCK_ERR_STATE);
    CT_ST(rck_chan_recv(0x10000, NULL, b, 1, &len, 0), RCK_ERR_STATE);
    CT_ST(rck_chan_dispatch(0, NULL), RCK_ERR_STATE);
    CT_ST(rck_chan_close(0x10000), RCK_ERR_STATE);
    CT_CHECK(rck_chan_ue() == -1 && rck_chan_num_ues() == 0, "ue before init");
    CT_OK(rck_chan_finalize());

    ct_phase("bad settings");
#define BAD_ATTR(field, value)                                                \
    do {                                                                      \
        rck_chan_attr_init(&a);                                               \
        a.field = value;                                                      \
        CT_ST(rck_chan_init(&a), RCK_ERR_INVALID);                            \
    } while (0)
    BAD_ATTR(notify, (rck_chan_notify_t)9);
    BAD_ATTR(ring_slots, 1);
    BAD_ATTR(ring_slots, 5000);
    BAD_ATTR(tree_words, 33);
    BAD_ATTR(ring_lines, 4);
    BAD_ATTR(ring_lines, 4096);
    BAD_ATTR(bulk_bytes, 100);
    BAD_ATTR(bulk_bytes, 4000);
    BAD_ATTR(slice_bytes, 1000);
    rck_chan_attr_init(&a);
    a.notify = RCK_CHAN_NOTIFY_TREE;
    a.tree_words = 0;
    CT_ST(rck_chan_init(&a), RCK_ERR_INVALID);
    CT_CHECK(rck_chan_ue() == -1, "a failed init initialised");

    rck_chan_attr_init(&a);
    a.ring_slots = 0; /* ring notification disabled on every UE */
    CT_ST(rck_chan_init(&a), RCK_ERR_INVALID); /* but the default kind */
    a.notify = RCK_CHAN_NOTIFY_TREE;
    CT_OK(rck_chan_init(&a));
    CT_OK(rck_chan_init(&a)); /* idempotent */
    CT_CHECK(RCCE_init(&argc, &argv) == RCCE_SUCCESS, "RCCE_init");
    me = ct_me = rck_chan_ue();
    n = rck_chan_num_ues();
    CT_CHECK(n >= 2, "needs 2 UEs");

    ct_phase("open");
    CT_ST(rck_chan_dispatch(-1, NULL), RCK_ERR_STATE);
    CT_ST(rck_chan_open(me ^ 1, 0, NULL), RCK_ERR_INVALID);
    CT_ST(rck_chan_open(-1, 0, &ch), RCK_ERR_INVALID);
    CT_ST(rck_chan_open(me, 0, &ch), RCK_ERR_INVALID);
    CT_ST(rck_chan_open(n, 0, &ch), RCK_ERR_INVALID);
    CT_ST(rck_chan_open(1000000, 0, &ch), RCK_ERR_INVALID);
    CT_ST(rck_chan_open(me ^ 1, RCK_CHAN_PORTS, &ch), RCK_ERR_INVALID);
    CT_ST(rck_chan_open(me ^ 1, UINT32_MAX, &ch), RCK_ERR_INVALID);
    rck_chan_open_attr_init(&oa);
    oa.notify = (rck_chan_notify_t)7;
    CT_ST(rck_chan_open_ex(me ^ 1, 0, &oa, &ch), RCK_ERR_INVALID);
    oa.notify = RCK_CHAN_NOTIFY_RING; /* disabled at init */
    CT_ST(rck_chan_open_ex(me ^ 1, 0, &oa, &ch), RCK_ERR_INVALID);
    rck_chan_open_attr_init(&oa);
    oa.ring_lines = 2;
    CT_ST(rck_chan_open_ex(me ^ 1, 0, &oa, &ch), RCK_ERR_INVALID);
    rck_chan_open_attr_init(&oa);
    oa.bulk_bytes = 1000;
    CT_ST(rck_chan_open_ex(me ^ 1, 0, &oa, &ch), RCK_ERR_INVALID);
    CT_CHECK(ch == RCK_CHAN_NONE, "a failed open set the handle");

    ct_phase("bad handles");
    CT_ST(rck_chan_send(RCK_CHAN_NONE, 0, "x", 1), RCK_ERR_INVALID);
    CT_ST(rck_chan_send(0x7fff1234, 0, "x", 1), RCK_ERR_INVALID);
    CT_ST(rck_chan_recv(RCK_CHAN_NONE, NULL, b, 1, &len, 0), RCK_ERR_INVALID);
    CT_ST(rck_chan_close(0xdeadbeef), RCK_ERR_INVALID);
    CT_ST(rck_chan_info(RCK_CHAN_NONE, &info), RCK_ERR_INVALID);
    CT_ST(rck_chan_set_handler(12345, NULL, NULL), RCK_ERR_INVALID);

    if (me <= 1) {
        ct_phase("channels");
        CT_OK(rck_chan_open(me ^ 1, 0, &ch));
        /* port 1: UE 1 receives without a bulk region */
        rck_chan_open_attr_init(&oa);
        if (me == 1)
            oa.bulk_bytes = 0;
        CT_OK(rck_chan_open_ex(me ^ 1, 1, &oa, &nobulk));
        CT_ST(rck_chan_info(ch, NULL), RCK_ERR_INVALID);
        CT_OK(rck_chan_info(nobulk, &info));
        CT_CHECK(info.in_notify == RCK_CHAN_NOTIFY_TREE &&
                     (me == 0 ? info.out_bulk_bytes == 0
                              : info.out_bulk_bytes != 0),
                 "info: notify %d, bulk %u", info.in_notify,
                 info.out_bulk_bytes);

        ct_phase("bad sends");
        CT_ST(rck_chan_send(ch, 0, NULL, 5), RCK_ERR_INVALID);
        CT_ST(rck_chan_try_send(ch, 0, NULL, 1), RCK_ERR_INVALID);
        CT_ST(rck_chan_send(ch, 0, b, RCK_CHAN_MAX_MSG + 1), RCK_ERR_INVALID);
        CT_ST(rck_chan_send(ch, 0, b, SIZE_MAX), RCK_ERR_INVALID);
        if (me == 0)
            CT_ST(rck_chan_send(nobulk, 0, b, info.inline_max + 1),
                  RCK_ERR_INVALID);
        CT_OK(rck_chan_send(ch, 0, NULL, 0)); /* an empty message is fine */

        ct_phase("bad receives");
        CT_OK(rck_chan_recv(ch, &type, NULL, 0, &len, -1));
        CT_CHECK(len == 0 && type == 0, "empty message");
        CT_ST(rck_chan_recv(ch, &type, b, sizeof(b), NULL, 0),
              RCK_ERR_INVALID);
        CT_ST(rck_chan_recv(ch, &type, NULL, 10, &len, 0), RCK_ERR_INVALID);
        CT_ST(rck_chan_try_recv(ch, &type, b, sizeof(b), &len),
              RCK_ERR_NOT_FOUND);
        CT_ST(rck_chan_peek(ch, &type, &len), RCK_ERR_NOT_FOUND);
        CT_ST(rck_chan_recv(ch, &type, b, sizeof(b), &len, 1000),
              RCK_ERR_TIMEDOUT);
        CT_ST(rck_chan_dispatch(2000, NULL), RCK_ERR_TIMEDOUT);
        /* nothing more may arrive before every UE got here */
        CT_CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS, "barrier");

        ct_phase("too small a buffer");
        ct_fill(b, 100, 3);
        CT_OK(rck_chan_send(ch, 77, b, 100));
        memset(b, 0, sizeof(b));
        CT_ST(rck_chan_recv(ch, &type, b, 99, &len, -1), RCK_ERR_NOSPACE);
        CT_CHECK(len == 100, "length of the waiting message: %zu", len);
        CT_OK(rck_chan_peek(ch, &type, &len));
        CT_CHECK(len == 100 && type == 77, "peek");
        CT_OK(rck_chan_recv(ch, &type, b, 100, &len, -1));
        CT_CHECK(len == 100 && type == 77 && ct_verify(b, 100, 3) == (size_t)-1,
                 "the message after NOSPACE");
        /* a large one through the peer's bulk region, too small a buffer */
        if (me == 1) {
            char *big = malloc(100000);
            CT_CHECK(big != NULL, "malloc");
            ct_fill(big, 100000, 9);
            CT_OK(rck_chan_send(nobulk, 5, big, 100000));
            free(big);
        } else {
            char *big = malloc(100000);
            CT_CHECK(big != NULL, "malloc");
            CT_ST(rck_chan_recv(nobulk, &type, big, 1000, &len, -1),
                  RCK_ERR_NOSPACE);
            CT_CHECK(len == 100000, "bulk length %zu", len);
            CT_OK(rck_chan_recv(nobulk, &type, big, 100000, &len, -1));
            CT_CHECK(type == 5 && ct_verify(big, 100000, 9) == (size_t)-1,
                     "bulk message");
            free(big);
        }
        CT_CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS, "barrier");
        CT_OK(rck_chan_close(ch));
        CT_OK(rck_chan_close(nobulk));
    } else {
        CT_CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS, "barrier");
        CT_CHECK(RCCE_barrier(&RCCE_COMM_WORLD) == RCCE_SUCCESS, "barrier");
    }

    ct_phase("re-init");
    CT_OK(rck_chan_finalize());
    CT_ST(rck_chan_send(ch, 0, "x", 1), RCK_ERR_STATE);
    rck_chan_attr_init(&a);
    CT_ST(rck_chan_init(&a), RCK_ERR_INVALID); /* other settings */
    a.ring_slots = 0;
    a.notify = RCK_CHAN_NOTIFY_TREE;
    CT_OK(rck_chan_init(&a)); /* the same: the layout is reused */
    if (me <= 1)
        CT_ST(rck_chan_send(ch, 0, "x", 1), RCK_ERR_STATE);
    CT_OK(rck_chan_finalize());
    printf("t_bad: ue %d ok\n", me);
    RCCE_finalize();
    return 0;
}
