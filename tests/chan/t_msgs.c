/*
 * t_msgs: messages of 0 B to 1 MiB arrive byte-exact, in order, both ways.
 * UEs pair up (0-1, 2-3, ...; an odd last UE only initialises). The even
 * UE of a pair sends every size and receives it back with another pattern;
 * the odd UE finds the channel with rck_chan_dispatch, receives, checks and
 * answers. Sizes cross every boundary of the format: the first line (20
 * payload bytes), further lines (28), a line exactly (32), the inline limit
 * and the bulk path (one piece, many pieces, an odd tail).
 *
 *   t_msgs [ring|tree|poll [MAXSIZE]]
 *
 * Channels come up before RCCE_init (rck_chan_init reserves its MPB and
 * shared DRAM first) and RCCE works beside them.
 */
#include "RCCE.h"
#include "chan_test.h"

int main(int argc, char **argv)
{
    rck_chan_notify_t kind = ct_kind(argc > 1 ? argv[1] : NULL);
    size_t maxsize = argc > 2 ? (size_t)strtoull(argv[2], NULL, 0) : 1u << 20;
    rck_chan_attr_t attr;
    rck_chan_info_t info;
    rck_chan_t ch;
    size_t sizes[32], nsizes = 0, len;
    unsigned char *buf;
    int me, n, peer;

    ct_start();
    rck_chan_attr_init(&attr);
    attr.notify = kind;
    CT_OK(rck_chan_init(&attr));
    CT_CHECK(RCCE_init(&argc, &argv) == RCCE_SUCCESS, "RCCE_init");
    me = ct_me = rck_chan_ue();
    n = rck_chan_num_ues();
    CT_CHECK(me == RCCE_ue() && n == RCCE_num_ues(), "UE ids agree");
    peer = me ^ 1;
    if (peer >= n) {
        RCCE_barrier(&RCCE_COMM_WORLD);
        CT_OK(rck_chan_finalize());
        RCCE_finalize();
        return 0;
    }
    ct_phase("open");
    CT_OK(rck_chan_open(peer, 5, &ch));
    CT_OK(rck_chan_info(ch, &info));
    CT_CHECK(info.peer == peer && info.port == 5, "info");
    CT_CHECK(info.in_notify == kind && info.out_notify == kind, "kinds %d %d",
             info.in_notify, info.out_notify);
    {
        size_t base[] = {0,    1,    19,   20,   21,        31,
                         32,   33,   48,   49,   200,       info.inline_max,
                         info.inline_max + 1,   4096, 8191, 8192,
                         8193, 65536, 1u << 20, (1u << 20) - 3};
        for (size_t i = 0; i < sizeof(base) / sizeof(base[0]); i++)
            if (base[i] <= maxsize)
                sizes[nsizes++] = base[i];
    }
    buf = malloc(maxsize + 64);
    CT_CHECK(buf != NULL, "malloc");
    RCCE_barrier(&RCCE_COMM_WORLD);

    for (size_t i = 0; i < nsizes; i++) {
        size_t sz = sizes[i];
        uint16_t type = 0;
        size_t bad;

        ct_phase("size %zu", sz);
        if (!(me & 1)) {
            ct_fill(buf, sz, (unsigned)i);
            CT_OK(rck_chan_send(ch, (uint16_t)(1000 + i), buf, sz));
            memset(buf, 0xee, sz + 64);
            CT_OK(rck_chan_recv(ch, &type, buf, maxsize + 64, &len, -1));
            CT_CHECK(len == sz && type == (uint16_t)(2000 + i),
                     "echo of %zu: len %zu type %u", sz, len, type);
            bad = ct_verify(buf, sz, (unsigned)i + 100);
            CT_CHECK(bad == (size_t)-1, "echo of %zu differs at %zu", sz, bad);
        } else {
            rck_chan_t r = RCK_CHAN_NONE;
            CT_OK(rck_chan_dispatch(-1, &r));
            CT_CHECK(r == ch, "dispatch returned 0x%x, expected 0x%x", r, ch);
            memset(buf, 0xee, sz + 64);
            CT_OK(rck_chan_recv(ch, &type, buf, maxsize + 64, &len, 0));
            CT_CHECK(len == sz && type == (uint16_t)(1000 + i),
                     "message of %zu: len %zu type %u", sz, len, type);
            bad = ct_verify(buf, sz, (unsigned)i);
            CT_CHECK(bad == (size_t)-1, "message of %zu differs at %zu", sz,
                     bad);
            CT_CHECK(buf[sz] == 0xee, "wrote past the message of %zu", sz);
            ct_fill(buf, sz, (unsigned)i + 100);
            CT_OK(rck_chan_send(ch, (uint16_t)(2000 + i), buf, sz));
        }
    }
    ct_phase("stream");
    /* many small messages in a row: the ring wraps, credits flow back */
    if (!(me & 1)) {
        for (unsigned i = 0; i < 500; i++) {
            size_t sz = (i * 7) % 90;
            ct_fill(buf, sz, i);
            CT_OK(rck_chan_send(ch, (uint16_t)i, buf, sz));
        }
    } else {
        for (unsigned i = 0; i < 500; i++) {
            uint16_t type;
            size_t sz = (i * 7) % 90;
            CT_OK(rck_chan_recv(ch, &type, buf, maxsize, &len, -1));
            CT_CHECK(type == (uint16_t)i && len == sz, "stream %u: type %u "
                     "len %zu", i, type, len);
            CT_CHECK(ct_verify(buf, sz, i) == (size_t)-1, "stream %u", i);
        }
    }
    {
        rck_chan_stats_t s;
        rck_chan_stats(&s);
        printf("t_msgs: ue %d (%s) sent %llu received %llu notifies %llu "
               "interrupts %llu bulk pieces %llu/%llu\n",
               me, rck_chan_notify_name(kind), (unsigned long long)s.sent,
               (unsigned long long)s.received,
               (unsigned long long)s.notifies,
               (unsigned long long)s.interrupts,
               (unsigned long long)s.bulk_pieces_sent,
               (unsigned long long)s.bulk_pieces_received);
        CT_CHECK(s.received == nsizes + ((me & 1) ? 500 : 0), "received");
        if (kind != RCK_CHAN_NOTIFY_POLL && (me & 1))
            CT_CHECK(s.interrupts > 0, "no interrupt with %s notification",
                     rck_chan_notify_name(kind));
    }
    ct_phase("finalize");
    RCCE_barrier(&RCCE_COMM_WORLD);
    CT_OK(rck_chan_finalize());
    free(buf);
    RCCE_finalize();
    return 0;
}
