/*
 * iRCCE non-blocking point to point: isend/irecv with test, wait and push.
 *
 * - sizes 0, 1, 31, 32, 33, around half a chunk, around a chunk, 8159-8161,
 *   two chunks and more (up to 1 MiB + 3 below 9 UEs), on a ring in both
 *   directions at once (two queued sends, two receive queues);
 * - blocking and non-blocking calls mixed, and interoperation with RCCE:
 *   RCCE_send received by iRCCE_irecv and iRCCE_isend by RCCE_recv;
 * - queue semantics: sends complete in issue order, return codes PENDING
 *   (head) and RESERVED (queued behind), a test advances only its own
 *   request, push drains;
 * - probe/iprobe and iRCCE_ANY_LENGTH (and the errors when the length is
 *   not known or not the one posted: the message stays and can be
 *   received afterwards);
 * - every UE sending to every other at once through wait lists.
 * Also built with -DSINGLEBITFLAGS (no framing, no any-length).
 */
#include "ircce_test.h"

static int me, n, light;

static void pattern_send(char *buf, int tag, int dst, size_t size)
{
    conf_fill(buf, size, irc_seed(tag, me, dst, size));
}

static void check_recv(const char *buf, int tag, int src, size_t size)
{
    CHECK_PATTERN(buf, size, irc_seed(tag, src, me, size));
}

static size_t sizes[40];
static int nsizes;

static void make_sizes(void)
{
    size_t c = irc_chunk_guess(n), h = c / 2 / 32 * 32;
    size_t base[] = {0, 1, 31, 32, 33, h - 1, h, h + 1, c - 1, c, c + 1,
                     8159, 8160, 8161, 2 * c + 5};
    size_t big[] = {24481, 65541, (1u << 20) + 3};

    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++)
        sizes[nsizes++] = base[i];
    if (!light)
        for (size_t i = 0; i < sizeof big / sizeof big[0]; i++)
            sizes[nsizes++] = big[i];
}

/* Both ring directions at once: two sends queued, two receive queues. */
static void ring_both(size_t size, int tag)
{
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    char *sr = conf_galloc(size, 3), *sl = conf_galloc(size, 5);
    char *rl = conf_galloc(size, 7), *rr = conf_galloc(size, 1);
    iRCCE_SEND_REQUEST s1, s2;
    iRCCE_RECV_REQUEST r1, r2;
    int st;

    conf_phase("ring both ways, %zu bytes", size);
    pattern_send(sr, tag, right, size);
    pattern_send(sl, tag + 1, left, size);
    CHECK_POSTED(iRCCE_irecv(rl, (ssize_t)size, left, &r1));
    CHECK_POSTED(iRCCE_irecv(rr, (ssize_t)size, right, &r2));
    st = iRCCE_isend(sr, (ssize_t)size, right, &s1);
    if (size > 0)
        CHECKF(st == iRCCE_PENDING || st == iRCCE_SUCCESS, "first isend: %s",
               irc_name(st));
    else
        CHECK_IRC(st, iRCCE_SUCCESS);
    st = iRCCE_isend(sl, (ssize_t)size, left, &s2);
    if (size > 0)
        CHECK_IRC(st, iRCCE_RESERVED);
    /* mixed orders of waiting */
    if (me % 2) {
        CHECK_IRC(iRCCE_irecv_wait(&r1), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_isend_wait(&s2), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_irecv_wait(&r2), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_isend_wait(&s1), iRCCE_SUCCESS);
    } else {
        int f1 = 0, f2 = 0;
        CHECK_IRC(iRCCE_isend_wait(NULL), iRCCE_SUCCESS);
        while (!f1 || !f2) {
            if (!f1)
                iRCCE_irecv_test(&r1, &f1);
            if (!f2)
                iRCCE_irecv_test(&r2, &f2);
            if (!f1 || !f2)
                CHECK_IRC(iRCCE_irecv_wait(NULL), iRCCE_SUCCESS);
        }
    }
    CHECK(s1.finished && s2.finished && r1.finished && r2.finished);
    /* with two UEs left == right: the messages come in send order */
    check_recv(rl, tag, left, size);
    check_recv(rr, tag + 1, right, size);
    CHECK_PATTERN(sr, size, irc_seed(tag, me, right, size));
    CHECK_GUARDS(rl, size);
    CHECK_GUARDS(rr, size);
    conf_gfree(sr);
    conf_gfree(sl);
    conf_gfree(rl);
    conf_gfree(rr);
}

/* Pairs (2k, 2k+1) exchange with RCCE on one side and iRCCE on the
 * other, both blocking and non-blocking. */
static void interop(size_t size, int tag)
{
    int partner = me ^ 1;
    char *b;
    iRCCE_SEND_REQUEST s;
    iRCCE_RECV_REQUEST r;

    if (partner >= n)
        return;
    b = conf_galloc(size, 9);
    conf_phase("interop %zu bytes", size);
    if (me % 2 == 0) {
        pattern_send(b, tag, partner, size);
        CHECK_OK(RCCE_send(b, size, partner));          /* -> irecv */
        memset(b, 0, size);
        CHECK_OK(RCCE_recv(b, size, partner));          /* <- isend */
        check_recv(b, tag + 1, partner, size);
        pattern_send(b, tag + 2, partner, size);
        CHECK_IRC(iRCCE_isend(b, (ssize_t)size, partner, NULL),
                  iRCCE_SUCCESS);                      /* -> RCCE_recv */
        memset(b, 0, size);
        CHECK_IRC(iRCCE_irecv(b, (ssize_t)size, partner, NULL),
                  iRCCE_SUCCESS);                      /* <- RCCE_send */
        check_recv(b, tag + 3, partner, size);
    } else {
        CHECK_POSTED(iRCCE_irecv(b, (ssize_t)size, partner, &r));
        CHECK_IRC(iRCCE_irecv_wait(&r), iRCCE_SUCCESS);
        check_recv(b, tag, partner, size);
        pattern_send(b, tag + 1, partner, size);
        CHECK_POSTED(iRCCE_isend(b, (ssize_t)size, partner, &s));
        CHECK_IRC(iRCCE_isend_wait(&s), iRCCE_SUCCESS);
        memset(b, 0, size);
        CHECK_OK(RCCE_recv(b, size, partner));
        check_recv(b, tag + 2, partner, size);
        pattern_send(b, tag + 3, partner, size);
        CHECK_OK(RCCE_send(b, size, partner));
    }
    CHECK_GUARDS(b, size);
    conf_gfree(b);
}

/* UE 0 queues K sends to UE 1, UE 1 K receives from UE 0. */
static void queue_order(void)
{
    enum { K = 5 };
    size_t sz[K] = {40, 1, irc_chunk_guess(n) + 3, 0, 300};
    char *b[K];
    iRCCE_SEND_REQUEST s[K];
    iRCCE_RECV_REQUEST r[K];
    int f;

    conf_phase("queue order");
    if (me > 1) {
        RCCE_barrier(&RCCE_COMM_WORLD);
        return;
    }
    for (int i = 0; i < K; i++)
        b[i] = conf_galloc(sz[i], (size_t)i);
    if (me == 0) {
        /* UE 1 posts its receives first */
        RCCE_barrier(&RCCE_COMM_WORLD);
        for (int i = 0; i < K; i++) {
            int st;
            pattern_send(b[i], 100 + i, 1, sz[i]);
            st = iRCCE_isend(b[i], (ssize_t)sz[i], 1, &s[i]);
            if (sz[i] == 0)
                CHECK_IRC(st, iRCCE_SUCCESS);
            else if (i == 0)
                CHECK_IRC(st, iRCCE_PENDING);
            else
                CHECK_IRC(st, iRCCE_RESERVED);
        }
        /* the last is queued behind the others: a test does not move it */
        for (int t = 0; t < 50; t++)
            CHECK_IRC(iRCCE_isend_test(&s[K - 1], &f), iRCCE_RESERVED);
        CHECK_EQ(f, 0);
        CHECK_EQ(iRCCE_get_status(&s[K - 1], NULL), iRCCE_RESERVED);
        CHECK_EQ(iRCCE_get_dest(&s[2]), 1);
        CHECK_EQ(iRCCE_get_size(&s[2], NULL), (int)sz[2]);
        /* wait for the last: every earlier one is done by then */
        CHECK_IRC(iRCCE_isend_wait(&s[K - 1]), iRCCE_SUCCESS);
        for (int i = 0; i < K; i++)
            CHECK(s[i].finished);
        /* waiting twice, testing after completion: success again */
        CHECK_IRC(iRCCE_isend_wait(&s[0]), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_isend_test(&s[0], &f), iRCCE_SUCCESS);
        CHECK_EQ(f, 1);
        CHECK_IRC(iRCCE_isend_push(), iRCCE_SUCCESS);
    } else {
        for (int i = 0; i < K; i++) {
            int st = iRCCE_irecv(b[i], (ssize_t)sz[i], 0, &r[i]);
            if (sz[i] == 0)
                CHECK_IRC(st, iRCCE_SUCCESS);
            else if (i > 0)
                CHECK_IRC(st, iRCCE_RESERVED);
            else
                CHECK_IRC(st, iRCCE_PENDING);
        }
        CHECK_EQ(iRCCE_get_status(NULL, &r[0]), iRCCE_PENDING);
        CHECK_EQ(iRCCE_get_status(NULL, &r[1]), iRCCE_RESERVED);
        RCCE_barrier(&RCCE_COMM_WORLD);
        /* the second receive is behind the first: testing it alone never
         * completes it, however long */
        for (int t = 0; t < 200; t++)
            CHECK_IRC(iRCCE_irecv_test(&r[1], &f), iRCCE_RESERVED);
        CHECK(!r[1].finished);
        CHECK_EQ(iRCCE_get_source(&r[1]), 0);
        /* push until all are in */
        while (iRCCE_irecv_push() != iRCCE_SUCCESS)
            ;
        for (int i = 0; i < K; i++) {
            CHECK_IRC(iRCCE_irecv_test(&r[i], &f), iRCCE_SUCCESS);
            CHECK_EQ(f, 1);
            check_recv(b[i], 100 + i, 0, sz[i]);
        }
    }
    for (int i = 0; i < K; i++)
        conf_gfree(b[i]);
}

/* probe, iprobe, any length, length errors. */
static void probes(void)
{
    char buf[300], big[9000];
    iRCCE_RECV_REQUEST r;
    int rank, flag;
    size_t s1 = 200;

    conf_phase("probes");
    if (me > 1) {
        RCCE_barrier(&RCCE_COMM_WORLD);
        return;
    }
    if (me == 1) {
        CHECK_IRC(iRCCE_iprobe(0, &rank, &flag), iRCCE_SUCCESS);
        CHECK_EQ(flag, 0);
        CHECK_EQ(rank, iRCCE_ANY_SOURCE);
        CHECK_IRC(iRCCE_iprobe(iRCCE_ANY_SOURCE, &rank, &flag),
                  iRCCE_SUCCESS);
        CHECK_EQ(flag, 0);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 0) {
        pattern_send(buf, 300, 1, s1);
        CHECK_IRC(iRCCE_isend(buf, (ssize_t)s1, 1, NULL), iRCCE_SUCCESS);
        pattern_send(big, 301, 1, sizeof big);
        CHECK_IRC(iRCCE_isend(big, sizeof big, 1, NULL), iRCCE_SUCCESS);
        pattern_send(buf, 302, 1, 100);
        CHECK_OK(RCCE_send(buf, 100, 1));
        pattern_send(buf, 303, 1, 150);
        CHECK_IRC(iRCCE_isend(buf, 150, 1, NULL), iRCCE_SUCCESS);
        return;
    }
    CHECK_IRC(iRCCE_probe(iRCCE_ANY_SOURCE, &rank), iRCCE_SUCCESS);
    CHECK_EQ(rank, 0);
    CHECK_EQ(iRCCE_get_source(NULL), 0);
#ifdef _iRCCE_ANY_LENGTH_
    CHECK_EQ(iRCCE_get_length(), (int)s1);
    /* the length is known from the framing: receive any length */
    memset(buf, 0, sizeof buf);
    CHECK_IRC(iRCCE_irecv(buf, iRCCE_ANY_LENGTH, 0, &r), iRCCE_SUCCESS);
    CHECK_EQ(iRCCE_get_size(NULL, &r), (int)s1);
    CHECK_EQ(iRCCE_get_length(), (int)s1);
    check_recv(buf, 300, 0, s1);
    /* a wrong length is refused and the message stays */
    CHECK_IRC(iRCCE_probe(0, &rank), iRCCE_SUCCESS);
    CHECK_EQ(iRCCE_get_length(), (int)sizeof big);
    CHECK_IRC(iRCCE_irecv(big, 100, 0, NULL), RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_IRC(iRCCE_iprobe(0, &rank, &flag), iRCCE_SUCCESS);
    CHECK_EQ(flag, 1);
    CHECK_IRC(iRCCE_irecv(big, iRCCE_ANY_LENGTH, 0, NULL), iRCCE_SUCCESS);
    check_recv(big, 301, 0, sizeof big);
    /* RCCE_send carries no length: any-length is refused, the message
     * stays, its length is unknown to a probe */
    CHECK_IRC(iRCCE_probe(0, &rank), iRCCE_SUCCESS);
    CHECK_EQ(iRCCE_get_length(), iRCCE_ANY_LENGTH);
    CHECK_IRC(iRCCE_irecv(buf, iRCCE_ANY_LENGTH, 0, NULL),
              RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_IRC(iRCCE_irecv(buf, 100, 0, NULL), iRCCE_SUCCESS);
    check_recv(buf, 302, 0, 100);
#else
    CHECK_IRC(iRCCE_irecv(buf, iRCCE_ANY_LENGTH, 0, &r),
              RCCE_ERROR_MESSAGE_LENGTH);
    CHECK_IRC(iRCCE_irecv(buf, (ssize_t)s1, 0, NULL), iRCCE_SUCCESS);
    check_recv(buf, 300, 0, s1);
    CHECK_IRC(iRCCE_irecv(big, sizeof big, 0, NULL), iRCCE_SUCCESS);
    check_recv(big, 301, 0, sizeof big);
    CHECK_IRC(iRCCE_irecv(buf, 100, 0, NULL), iRCCE_SUCCESS);
    check_recv(buf, 302, 0, 100);
#endif
    CHECK_IRC(iRCCE_irecv(buf, 150, iRCCE_ANY_SOURCE, NULL), iRCCE_SUCCESS);
    check_recv(buf, 303, 0, 150);
    CHECK_EQ(iRCCE_get_source(NULL), 0);
}

/* Every UE sends to every other at once: n-1 queued sends, n-1 receive
 * queues, one wait list. */
static void all_pairs(size_t size, int tag)
{
    iRCCE_SEND_REQUEST *s = calloc((size_t)n, sizeof(*s));
    iRCCE_RECV_REQUEST *r = calloc((size_t)n, sizeof(*r));
    char **sb = calloc((size_t)n, sizeof(char *));
    char **rb = calloc((size_t)n, sizeof(char *));
    iRCCE_WAIT_LIST list;

    conf_phase("all pairs %zu bytes", size);
    CHECK(s && r && sb && rb);
    iRCCE_init_wait_list(&list);
    for (int k = 1; k < n; k++) {
        int from = (me - k + n) % n;
        rb[from] = conf_galloc(size, (size_t)k);
        CHECK_POSTED(iRCCE_irecv(rb[from], (ssize_t)size, from, &r[from]));
        iRCCE_add_recv_to_wait_list(&list, &r[from]);
    }
    for (int k = 1; k < n; k++) {
        int to = (me + k) % n;
        sb[to] = conf_galloc(size, (size_t)k + 1);
        pattern_send(sb[to], tag, to, size);
        CHECK_POSTED(iRCCE_isend(sb[to], (ssize_t)size, to, &s[to]));
        iRCCE_add_send_to_wait_list(&list, &s[to]);
    }
    CHECK_IRC(iRCCE_wait_all(&list), iRCCE_SUCCESS);
    CHECK(list.first == NULL);
    for (int k = 1; k < n; k++) {
        int from = (me - k + n) % n, to = (me + k) % n;
        check_recv(rb[from], tag, from, size);
        CHECK_GUARDS(rb[from], size);
        conf_gfree(rb[from]);
        conf_gfree(sb[to]);
    }
    free(s);
    free(r);
    free(sb);
    free(rb);
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    light = n > 8;
    CHECK_IRC(iRCCE_init(), iRCCE_SUCCESS);
    if (n == 1) {
        char c = 0;
        CHECK_IRC(iRCCE_isend(&c, 1, 0, NULL), RCCE_ERROR_ID);
        CHECK_IRC(iRCCE_irecv(&c, 1, 0, NULL), RCCE_ERROR_ID);
        CHECK_IRC(iRCCE_isend_push(), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_irecv_push(), iRCCE_SUCCESS);
        CHECK_OK(RCCE_finalize());
        return 0;
    }
    make_sizes();
    for (int i = 0; i < nsizes; i++)
        ring_both(sizes[i], 10 * i);
    for (int i = 0; i < nsizes; i += light ? 3 : 1)
        interop(sizes[i], 1000 + 10 * i);
    queue_order();
    probes();
    all_pairs(light ? 100 : 3000, 5000);
    if (!light)
        all_pairs(irc_chunk_guess(n) + 1, 5001);
    CHECK_IRC(iRCCE_isend_push(), iRCCE_SUCCESS);
    CHECK_IRC(iRCCE_irecv_push(), iRCCE_SUCCESS);
    CHECK_OK(RCCE_finalize());
    conf_soft_exit();
    return 0;
}
