/*
 * Non-gory RCCE_send / RCCE_recv / RCCE_recv_test.
 *
 * Message sizes around the line size (32) and the payload size of one MPB
 * (8160 = 8192 - one line, and its neighbours), up to 1 MiB; patterns:
 * ring to the right and to the left, UE 0 to all, all to UE 0, and every
 * ordered pair. Private buffers sit at odd addresses with guard bytes on
 * both sides, and the bytes are a hash of (pattern, source, destination,
 * size), so a misrouted, truncated, shifted or padded message is caught.
 *
 * A send to oneself is not tested: RCCE-API.md leaves it unspecified (the
 * synchronous protocol would deadlock on the chip).
 *
 * Also built with -DSINGLEBITFLAGS (conf_sendrecv_sbf).
 */
#include "conf.h"

#include <sched.h>

static int me, n;

static const size_t ring_sizes[] = {
    0,    1,    2,    3,    7,    31,   32,    33,    63,    64,
    65,   100,  255,  1000, 4095, 4096, 4097,  8127,  8128,  8159,
    8160, 8161, 8191, 8192, 8193, 16319, 16320, 16321, 24481, 65541,
    1u << 20, (1u << 20) + 3};
#define NRING (sizeof ring_sizes / sizeof ring_sizes[0])

static uint32_t seed_of(int pattern, int src, int dst, size_t size)
{
    return (uint32_t)pattern * 1000003u + (uint32_t)src * 7919u +
           (uint32_t)dst * 104729u + (uint32_t)size * 31u;
}

/* Send @p size bytes of the (pattern, me, dst) pattern from an odd address. */
static void send_msg(int pattern, int dst, size_t size, size_t mis)
{
    char *buf = conf_galloc(size, mis);
    uint32_t seed = seed_of(pattern, me, dst, size);
    conf_fill(buf, size, seed);
    CHECK_OK(RCCE_send(buf, size, dst));
    /* the send buffer is the program's: untouched by the library */
    CHECK_PATTERN(buf, size, seed);
    CHECK_GUARDS(buf, size);
    conf_gfree(buf);
}

static void recv_msg(int pattern, int src, size_t size, size_t mis)
{
    char *buf = conf_galloc(size, mis);
    memset(buf, 0x5A, size);
    CHECK_OK(RCCE_recv(buf, size, src));
    CHECK_PATTERN(buf, size, seed_of(pattern, src, me, size));
    CHECK_GUARDS(buf, size);
    conf_gfree(buf);
}

/* Every UE sends to (me + shift) mod n and receives from (me - shift),
 * shift = +1 or -1. The
 * send is synchronous: even UEs send first, odd ones receive first, which
 * cannot deadlock for any n >= 2 (the one even-to-even edge, n-1 -> 0 for
 * odd n, waits only for UE 0's first send, which is to an odd UE). */
static void ring(int pattern, int shift, size_t size, size_t mis)
{
    int dst = ((me + shift) % n + n) % n;
    int src = ((me - shift) % n + n) % n;
    conf_phase("ring shift %d size %zu", shift, size);
    /* shift -1 is the mirror image of shift +1: UE n-1 plays UE 0's role */
    int pos = shift == 1 ? me : n - 1 - me;
    int first_send = pos % 2 == 0;
    if (first_send) {
        send_msg(pattern, dst, size, mis);
        recv_msg(pattern, src, size, mis + 3);
    } else {
        recv_msg(pattern, src, size, mis + 3);
        send_msg(pattern, dst, size, mis);
    }
}

static void zero_to_all(int pattern, size_t size)
{
    conf_phase("0 to all, size %zu", size);
    if (me == 0) {
        for (int d = 1; d < n; d++)
            send_msg(pattern, d, size, (size_t)d % 7 + 1);
    } else {
        recv_msg(pattern, 0, size, (size_t)me % 5);
    }
}

static void all_to_zero(int pattern, size_t size)
{
    conf_phase("all to 0, size %zu", size);
    if (me == 0) {
        for (int s = 1; s < n; s++)
            recv_msg(pattern, s, size, (size_t)s % 3 + 1);
    } else {
        send_msg(pattern, 0, size, (size_t)me % 9);
    }
}

/* Every ordered pair in one global order: deadlock-free, since the
 * earliest unfinished step always has both of its UEs waiting at it. */
static void all_pairs(int pattern, size_t size)
{
    for (int s = 0; s < n; s++)
        for (int d = 0; d < n; d++) {
            if (s == d)
                continue;
            conf_phase("pair %d -> %d, size %zu", s, d, size);
            if (me == s)
                send_msg(pattern, d, size, (size_t)(s + d) % 11);
            else if (me == d)
                recv_msg(pattern, s, size, (size_t)(s * d) % 13);
        }
}

/* Several messages between one pair, sizes changing, arrive in order. */
static void sequence(int pattern)
{
    static const size_t seq[] = {33, 0, 8161, 1, 8160, 40000, 32, 5};
    conf_phase("sequence 0 -> %d", n - 1);
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
        if (me == 0)
            send_msg(pattern + (int)i, n - 1, seq[i], i);
        else if (me == n - 1)
            recv_msg(pattern + (int)i, 0, seq[i], i + 1);
    }
}

/* RCCE_recv_test: test = 0 while nothing was sent (also while another UE's
 * message to us is pending), then it completes the receive. */
static void recv_test(int pattern, size_t size)
{
    int test;
    conf_phase("recv_test size %zu", size);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    if (me == 1) {
        char *buf = conf_galloc(size, 5);
        memset(buf, 0x3C, size);
        for (int i = 0; i < 50; i++) {
            test = -1;
            CHECK_OK(RCCE_recv_test(buf, size, 0, &test));
            CHECKF(test == 0, "recv_test says %d before UE 0 sent", test);
        }
        /* nothing was consumed or written */
        for (size_t i = 0; i < size; i++)
            CHECK_EQ((unsigned char)buf[i], 0x3C);
        CHECK_GUARDS(buf, size);
        if (n >= 3) {
            /* UE 2 sends to us now; recv_test from UE 0 must still say 0 */
            char go = 0;
            CHECK_OK(RCCE_recv(&go, 1, 2));
            CHECK_EQ(go, 'g');
            /* UE 2 is now sending its real message; wait for it to be
             * announced by receiving it last */
            for (int i = 0; i < 50; i++) {
                test = -1;
                CHECK_OK(RCCE_recv_test(buf, size, 0, &test));
                CHECKF(test == 0, "recv_test from 0 says %d while UE 2 sends",
                       test);
            }
            recv_msg(pattern + 1, 2, size, 1);
        }
        /* let UE 0 send */
        char go = 'g';
        CHECK_OK(RCCE_send(&go, 1, 0));
        long polls = 0;
        do {
            test = -1;
            CHECK_OK(RCCE_recv_test(buf, size, 0, &test));
            CHECK(test == 0 || test == 1);
            polls++;
            if (!test)
                sched_yield();
        } while (!test);
        CHECK(polls >= 1);
        CHECK_PATTERN(buf, size, seed_of(pattern, 0, 1, size));
        CHECK_GUARDS(buf, size);
        conf_gfree(buf);
        /* a completed recv_test leaves nothing behind: the next message
         * from 0 is the next one sent */
        recv_msg(pattern + 2, 0, 77, 0);
    } else if (me == 0) {
        char go = 0;
        CHECK_OK(RCCE_recv(&go, 1, 1));
        CHECK_EQ(go, 'g');
        send_msg(pattern, 1, size, 2);
        send_msg(pattern + 2, 1, 77, 1);
    } else if (me == 2) {
        char go = 'g';
        CHECK_OK(RCCE_send(&go, 1, 1));
        send_msg(pattern + 1, 1, size, 3);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    if (n < 2) {
        /* nothing to talk to; the library must still start and stop */
        CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
        CHECK_OK(RCCE_finalize());
        return 0;
    }
    int big = n <= 8; /* full size lists only where it stays quick */

    for (size_t i = 0; i < NRING; i++)
        ring(1, 1, ring_sizes[i], i % 8);
    for (size_t i = 0; i < NRING; i++)
        if (big || ring_sizes[i] <= 65541)
            ring(2, -1, ring_sizes[i], (i + 3) % 8);

    static const size_t fan_sizes[] = {0, 1, 33, 8159, 8160, 8161, 65541,
                                       (1u << 20) + 3};
    for (size_t i = 0; i < sizeof fan_sizes / sizeof fan_sizes[0]; i++) {
        if (!big && fan_sizes[i] > 65541)
            continue;
        zero_to_all(3, fan_sizes[i]);
        all_to_zero(4, fan_sizes[i]);
    }

    static const size_t pair_sizes[] = {33, 1, 8161};
    for (size_t i = 0; i < (big ? 3u : 1u); i++)
        all_pairs(5, pair_sizes[i]);

    sequence(10);

    recv_test(20, 1);
    recv_test(30, 33);
    recv_test(40, 20000);

    conf_phase("finalize");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_OK(RCCE_finalize());
    return 0;
}
