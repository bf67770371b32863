/*
 * RCCE_peek and iRCCE_peek (rockcreek extensions, docs/PYTHON.md):
 *
 * - arguments: a bad source is RCCE_ERROR_ID, NULL buffer RCCE_ERROR_TARGET;
 *   nothing waiting gives from = -1 and 0 bytes, for one source and for
 *   any source;
 * - RCCE_send to UE 0 from every other UE (sizes below, at and above one
 *   chunk): UE 0 waits with iRCCE_probe, then peeks (any source and the
 *   found source) twice and sees the sender's first bytes both times;
 *   peeking a source that has sent nothing finds nothing while another has;
 *   the message is then received whole by RCCE_recv;
 * - iRCCE senders (isend: framed; issend of <= 28 bytes: inline in the
 *   flag line; issend of several chunks: pipelined halves): iRCCE_peek
 *   gives the first bytes and iRCCE_get_length() the length (whole-line
 *   flags), and the message is then received with iRCCE_srecv.
 * Also built with -DSINGLEBITFLAGS (no lengths, no inline messages).
 */
#include "ircce_test.h"

static int me, n;

static size_t msg_size(int s, int k)
{
    size_t c = irc_chunk_guess(n);
    switch ((s + k) % 4) {
    case 0: return 8;
    case 1: return 40 + (size_t)s * 3;
    case 2: return c + 100;
    default: return 2 * c + 17;
    }
}

/* message k of UE s: (k, s, size) then a pattern */
static void fill_msg(char *b, int s, int k, size_t sz)
{
    uint32_t h[2] = {(uint32_t)k, (uint32_t)s};
    conf_fill(b, sz, irc_seed(k, s, 0, sz));
    memcpy(b, h, sz < sizeof h ? sz : sizeof h);
}

static void check_first(const char *got, size_t ngot, int s, int k,
                        size_t sz)
{
    char *want = malloc(sz);
    CHECK(want != NULL);
    fill_msg(want, s, k, sz);
    CHECKF(memcmp(got, want, ngot < sz ? ngot : sz) == 0,
           "first bytes of message %d of UE %d", k, s);
    free(want);
}

static void args(void)
{
    char b[16];
    int from = 7;
    size_t got = 7;

    conf_phase("arguments");
    CHECK_RC(RCCE_peek(b, sizeof b, me, &from, &got), RCCE_ERROR_ID);
    CHECK_EQ(from, -1);
    CHECK_EQ(got, (size_t)0);
    CHECK_RC(RCCE_peek(b, sizeof b, n, NULL, NULL), RCCE_ERROR_ID);
    CHECK_RC(RCCE_peek(b, sizeof b, -2, NULL, NULL), RCCE_ERROR_ID);
    CHECK_IRC(iRCCE_peek(b, sizeof b, me, NULL, NULL), RCCE_ERROR_ID);
    CHECK_IRC(iRCCE_peek(b, sizeof b, n, NULL, NULL), RCCE_ERROR_ID);
    CHECK_RC(RCCE_peek(NULL, 8, RCCE_ANY_SOURCE, NULL, NULL),
             RCCE_ERROR_TARGET);
    CHECK_IRC(iRCCE_peek(NULL, 8, iRCCE_ANY_SOURCE, NULL, NULL),
              RCCE_ERROR_TARGET);
    /* nothing sent yet */
    CHECK_OK(RCCE_peek(b, sizeof b, RCCE_ANY_SOURCE, &from, &got));
    CHECK_EQ(from, -1);
    CHECK_EQ(got, (size_t)0);
    CHECK_IRC(iRCCE_peek(b, sizeof b, iRCCE_ANY_SOURCE, &from, &got),
              iRCCE_SUCCESS);
    CHECK_EQ(from, iRCCE_ANY_SOURCE);
    if (n > 1) {
        CHECK_OK(RCCE_peek(NULL, 0, (me + 1) % n, &from, &got));
        CHECK_EQ(from, -1);
    }
}

/* every UE but 0 sends message k with RCCE_send; UE 0 peeks and takes
 * them in the order the peeks find them */
static void rcce_round(int k)
{
    size_t big = msg_size(0, 3) + 64;
    char *buf = malloc(big), *peek = malloc(big);
    int from, from2, rank;
    size_t got, got2;

    conf_phase("RCCE round %d", k);
    CHECK(buf != NULL && peek != NULL);
    if (me != 0) {
        size_t sz = msg_size(me, k);
        fill_msg(buf, me, k, sz);
        CHECK_OK(RCCE_send(buf, sz, 0));
    } else {
        for (int i = 1; i < n; i++) {
            size_t sz;
            CHECK_IRC(iRCCE_probe(iRCCE_ANY_SOURCE, &rank), iRCCE_SUCCESS);
            CHECK_OK(RCCE_peek(peek, big, RCCE_ANY_SOURCE, &from, &got));
            CHECK(from > 0 && from < n);
            sz = msg_size(from, k);
            CHECK(got >= (sz < irc_chunk_guess(n) ? sz : 8));
            check_first(peek, got, from, k, sz);
            /* again, from that source: still there, same bytes */
            memset(peek, 0, big);
            CHECK_OK(RCCE_peek(peek, 8, from, &from2, &got2));
            CHECK_EQ(from2, from);
            CHECK_EQ(got2, (size_t)8);
            check_first(peek, 8, from, k, sz);
            CHECK_IRC(iRCCE_peek(peek, 8, from, &from2, &got2),
                      iRCCE_SUCCESS);
            CHECK_EQ(from2, from);
            CHECK_EQ(got2, (size_t)8);
            CHECK_EQ(iRCCE_get_length(), iRCCE_ANY_LENGTH);
            check_first(peek, 8, from, k, sz);
            CHECK_OK(RCCE_recv(buf, sz, from));
            check_first(buf, sz, from, k, sz);
        }
    }
    free(buf);
    free(peek);
    RCCE_barrier(&RCCE_COMM_WORLD);
}

/* iRCCE senders: isend (framed) in even rounds, issend (inline when it
 * fits in the flag line, else pipelined) in odd ones */
static void ircce_round(int k)
{
    size_t big = msg_size(0, 3) + 64;
    char *buf = malloc(big), *peek = malloc(big);
    int from, rank;
    size_t got;

    conf_phase("iRCCE round %d", k);
    CHECK(buf != NULL && peek != NULL);
    if (me != 0) {
        size_t sz = msg_size(me, k);
        iRCCE_SEND_REQUEST r;
        fill_msg(buf, me, k, sz);
#ifdef SINGLEBITFLAGS
        CHECK_POSTED(iRCCE_isend(buf, (ssize_t)sz, 0, &r));
#else
        if (k % 2 == 0)
            CHECK_POSTED(iRCCE_isend(buf, (ssize_t)sz, 0, &r));
        else
            CHECK_POSTED(iRCCE_issend(buf, (ssize_t)sz, 0, &r));
#endif
        CHECK_IRC(iRCCE_isend_wait(&r), iRCCE_SUCCESS);
    } else {
        for (int i = 1; i < n; i++) {
            size_t sz, want;
            CHECK_IRC(iRCCE_probe(iRCCE_ANY_SOURCE, &rank), iRCCE_SUCCESS);
            memset(peek, 0, big);
            CHECK_IRC(iRCCE_peek(peek, big, iRCCE_ANY_SOURCE, &from, &got),
                      iRCCE_SUCCESS);
            CHECK(from > 0 && from < n);
            sz = msg_size(from, k);
#ifdef SINGLEBITFLAGS
            CHECK_EQ(iRCCE_get_length(), iRCCE_ANY_LENGTH);
            want = sz < irc_chunk_guess(n) ? sz : 8;
            CHECK(got >= want);
#else
            CHECK_EQ(iRCCE_get_length(), (int)sz);
            /* inline payload and short messages whole; a long one's first
             * piece (a chunk, or half of one when pipelined) */
            want = sz <= irc_chunk_guess(n) / 2 ? sz : 8;
            CHECK(got >= want && got <= sz);
#endif
            CHECKF(iRCCE_get_source(NULL) == from, "source %d", from);
            check_first(peek, got, from, k, sz);
            CHECK_IRC(iRCCE_srecv(buf, (ssize_t)sz, from), iRCCE_SUCCESS);
            check_first(buf, sz, from, k, sz);
        }
    }
    free(buf);
    free(peek);
    RCCE_barrier(&RCCE_COMM_WORLD);
}

int main(int argc, char **argv)
{
    conf_begin(&argc, &argv);
    me = conf_me;
    n = conf_n;
    CHECK_IRC(iRCCE_init(), iRCCE_SUCCESS);
    args();
    RCCE_barrier(&RCCE_COMM_WORLD);
    for (int k = 0; k < 4 && n > 1; k++)
        rcce_round(k);
    for (int k = 0; k < 4 && n > 1; k++)
        ircce_round(k);
    CHECK_OK(RCCE_finalize());
    conf_soft_exit();
    return 0;
}
