/*
 * iRCCE's pipelined synchronous calls: iRCCE_ssend/srecv/srecv_test and
 * the non-blocking issend/isrecv.
 *
 * - sizes 0 (a pure synchronisation), 1 .. 28 (carried in the tagged flag
 *   line), 29, 31-33, around half a chunk (the pipelined halves), around a
 *   chunk, 8159-8161, several chunks, 1 MiB + 3 (below 9 UEs);
 * - ssend is synchronous: it returns only after the receiver has taken the
 *   whole message (checked through a shared-memory counter);
 * - srecv from iRCCE_ANY_SOURCE with iRCCE_ANY_LENGTH;
 * - srecv_test before anything was sent (test = 0, nothing consumed);
 * - mixing: ssend received by irecv, isend received by srecv, issend and
 *   isrecv with test loops;
 * - pairs (2k, 2k+1) at once, and a ring of ssends ordered by parity.
 * Also built with -DSINGLEBITFLAGS (no tagged messages, no any-length).
 */
#include "ircce_test.h"

static int me, n, light;

static size_t sizes[40];
static int nsizes;

static void make_sizes(void)
{
    size_t c = irc_chunk_guess(n), h = c / 2 / 32 * 32;
    size_t base[] = {0,     1,     2,     7,     27,    28,    29,
                     31,    32,    33,    h - 1, h,     h + 1, 2 * h + 1,
                     c - 1, c,     c + 1, 8159,  8160,  8161,  3 * c + 7};
    size_t big[] = {65541, (1u << 20) + 3};

    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        sizes[nsizes++] = base[i];
    if (!light)
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
            sizes[nsizes++] = big[i];
}

/* pairs: the even UE sends, the odd one receives, with every kind of call */
static void pairs(size_t size, int tag, volatile int *shared)
{
    int partner = me ^ 1;
    char *b = conf_galloc(size, 3);

    if (partner >= n) {
        conf_gfree(b);
        return;
    }
    conf_phase("pairs %zu bytes", size);
    if (me % 2 == 0) {
        conf_fill(b, size, irc_seed(tag, me, partner, size));
        CHECK_IRC(iRCCE_ssend(b, (ssize_t)size, partner), iRCCE_SUCCESS);
        /* synchronous: the receiver has taken it, so it had reached its
         * srecv (and said so just before) */
        if (shared != NULL)
            CHECK_EQ(shared[partner], tag);
        CHECK_PATTERN(b, size, irc_seed(tag, me, partner, size));
        /* isend -> srecv */
        conf_fill(b, size, irc_seed(tag + 1, me, partner, size));
        CHECK_IRC(iRCCE_isend(b, (ssize_t)size, partner, NULL),
                  iRCCE_SUCCESS);
        /* ssend -> irecv */
        conf_fill(b, size, irc_seed(tag + 2, me, partner, size));
        CHECK_IRC(iRCCE_ssend(b, (ssize_t)size, partner), iRCCE_SUCCESS);
        /* issend with a test loop -> isrecv */
        {
            iRCCE_SEND_REQUEST s;
            int f = 0;
            conf_fill(b, size, irc_seed(tag + 3, me, partner, size));
            CHECK_POSTED(iRCCE_issend(b, (ssize_t)size, partner, &s));
            while (!f)
                CHECK(iRCCE_issend_test(&s, &f) != iRCCE_ERROR);
            CHECK(s.finished);
        }
    } else {
        memset(b, 0x5a, size);
        if (shared != NULL) {
            shared[me] = tag;
            RCCE_shflush();
        }
        if (size > 0)
            CHECK_IRC(iRCCE_srecv(b, (ssize_t)size, partner), iRCCE_SUCCESS);
        else
            CHECK_IRC(iRCCE_srecv(NULL, 0, partner), iRCCE_SUCCESS);
        CHECK_PATTERN(b, size, irc_seed(tag, partner, me, size));
        memset(b, 0x5a, size);
        /* isend(0) sends nothing (as RCCE_send(0)): nothing to srecv */
        CHECK_IRC(size > 0 ? iRCCE_srecv(b, (ssize_t)size, partner)
                           : iRCCE_irecv(b, 0, partner, NULL),
                  iRCCE_SUCCESS);
        CHECK_PATTERN(b, size, irc_seed(tag + 1, partner, me, size));
        memset(b, 0x5a, size);
        if (size > 0) {
            CHECK_IRC(iRCCE_irecv(b, (ssize_t)size, partner, NULL),
                      iRCCE_SUCCESS);
        } else {
            /* a zero-byte irecv completes at once; the synchronising
             * message of ssend(0) needs a synchronous receive */
            CHECK_IRC(iRCCE_irecv(b, 0, partner, NULL), iRCCE_SUCCESS);
            CHECK_IRC(iRCCE_srecv(b, 0, partner), iRCCE_SUCCESS);
        }
        CHECK_PATTERN(b, size, irc_seed(tag + 2, partner, me, size));
        {
            iRCCE_RECV_REQUEST r;
            memset(b, 0x5a, size);
            CHECK_POSTED(iRCCE_isrecv(b, (ssize_t)size, partner, &r));
            CHECK_IRC(iRCCE_isrecv_wait(&r), iRCCE_SUCCESS);
            CHECK_PATTERN(b, size, irc_seed(tag + 3, partner, me, size));
        }
    }
    CHECK_GUARDS(b, size);
    conf_gfree(b);
}

/* every UE ssends to the right and srecvs from the left; even positions
 * send first (one even-to-even edge for odd n, which cannot close a
 * cycle). */
static void ring(size_t size, int tag)
{
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    char *s = conf_galloc(size, 1), *r = conf_galloc(size, 2);

    conf_phase("ring %zu bytes", size);
    conf_fill(s, size, irc_seed(tag, me, right, size));
    if (me % 2 == 0) {
        CHECK_IRC(iRCCE_ssend(s, (ssize_t)size, right), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_srecv(r, (ssize_t)size, left), iRCCE_SUCCESS);
    } else {
        CHECK_IRC(iRCCE_srecv(r, (ssize_t)size, left), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_ssend(s, (ssize_t)size, right), iRCCE_SUCCESS);
    }
    CHECK_PATTERN(r, size, irc_seed(tag, left, me, size));
    CHECK_GUARDS(r, size);
    conf_gfree(s);
    conf_gfree(r);
}

/* UE 0 takes one message from every other with srecv(ANY, ANY_LENGTH). */
static void gather_any(void)
{
    char buf[400];

    conf_phase("srecv any source");
    if (me != 0) {
        size_t sz = 10 + (size_t)me * 7 % 300;
        conf_fill(buf, sz, irc_seed(77, me, 0, sz));
        CHECK_IRC(iRCCE_ssend(buf, (ssize_t)sz, 0), iRCCE_SUCCESS);
        return;
    }
    for (int i = 1; i < n; i++) {
        int src;
#ifdef _iRCCE_ANY_LENGTH_
        size_t sz;
        CHECK_IRC(iRCCE_srecv(buf, iRCCE_ANY_LENGTH, iRCCE_ANY_SOURCE),
                  iRCCE_SUCCESS);
        src = iRCCE_get_source(NULL);
        sz = (size_t)iRCCE_get_length();
        CHECK_EQ(sz, 10 + (size_t)src * 7 % 300);
#else
        size_t sz;
        CHECK_IRC(iRCCE_probe(iRCCE_ANY_SOURCE, &src), iRCCE_SUCCESS);
        sz = 10 + (size_t)src * 7 % 300;
        CHECK_IRC(iRCCE_srecv(buf, (ssize_t)sz, src), iRCCE_SUCCESS);
        CHECK_EQ(iRCCE_get_source(NULL), src);
#endif
        CHECK(src > 0 && src < n);
        CHECK_PATTERN(buf, sz, irc_seed(77, src, 0, sz));
    }
}

/* srecv_test: nothing there yet -> test 0, PENDING, nothing consumed. */
static void recv_test(void)
{
    char buf[100];
    int test = 7;

    conf_phase("srecv_test");
    if (me > 1) {
        RCCE_barrier(&RCCE_COMM_WORLD);
        return;
    }
    if (me == 1) {
        CHECK_IRC(iRCCE_srecv_test(buf, 50, 0, &test), iRCCE_PENDING);
        CHECK_EQ(test, 0);
        CHECK_IRC(iRCCE_srecv_test(buf, 50, iRCCE_ANY_SOURCE, &test),
                  iRCCE_PENDING);
        CHECK_EQ(test, 0);
        RCCE_barrier(&RCCE_COMM_WORLD);
        do {
            CHECK(iRCCE_srecv_test(buf, 50, 0, &test) != iRCCE_ERROR);
        } while (!test);
        CHECK_PATTERN(buf, 50, irc_seed(5, 0, 1, 50));
    } else {
        RCCE_barrier(&RCCE_COMM_WORLD);
        conf_fill(buf, 50, irc_seed(5, 0, 1, 50));
        CHECK_IRC(iRCCE_ssend(buf, 50, 1), iRCCE_SUCCESS);
    }
}

int main(int argc, char **argv)
{
    volatile int *shared;

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    light = n > 8;
    CHECK_IRC(iRCCE_init(), iRCCE_SUCCESS);
    if (n == 1) {
        char c = 1;
        CHECK_IRC(iRCCE_ssend(&c, 1, 0), RCCE_ERROR_ID);
        CHECK_IRC(iRCCE_srecv(&c, 1, 0), RCCE_ERROR_ID);
        CHECK_IRC(iRCCE_ssend(&c, -2, 0), RCCE_ERROR_MESSAGE_LENGTH);
        CHECK_OK(RCCE_finalize());
        return 0;
    }
    shared = (volatile int *)RCCE_shmalloc((size_t)n * sizeof(int));
    CHECK(shared != NULL);
    shared[me] = -1;
    RCCE_barrier(&RCCE_COMM_WORLD);
    make_sizes();
    for (int i = 0; i < nsizes; i++)
        pairs(sizes[i], 10 * (i + 1), shared);
    for (int i = 0; i < nsizes; i += light ? 4 : 1)
        ring(sizes[i], 1000 + i);
    gather_any();
    RCCE_barrier(&RCCE_COMM_WORLD);
    recv_test();
    CHECK_IRC(iRCCE_isend_push(), iRCCE_SUCCESS);
    CHECK_IRC(iRCCE_irecv_push(), iRCCE_SUCCESS);
    CHECK_OK(RCCE_finalize());
    conf_soft_exit();
    return 0;
}
