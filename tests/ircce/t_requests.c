/*
 * iRCCE requests: cancel, wait lists, queries, and bad input.
 *
 * - cancel: a queued send or receive that has not started is cancelled
 *   (SUCCESS, test = 1; it then tests/waits as NOT_ENQUEUED and never
 *   reaches the peer); a started one is refused (PENDING, test = 0) and
 *   completes normally; cancelling twice or a finished request gives
 *   NOT_ENQUEUED;
 * - wait lists: wait_all, test_all, wait_any and test_any over sends and
 *   receives to several peers (each request reported once, exclusive
 *   outputs), a cancelled request in a list, empty lists (test_all
 *   succeeds, test_any/wait_any report iRCCE_ERROR instead of hanging);
 * - bad input: negative sizes, iRCCE_ANY_LENGTH for a send, bad and own
 *   UE ids, NULL buffers, requests never posted, a queued request posted
 *   again (refused; the original still completes), waiting twice;
 *   every call returns its documented code and nothing hangs.
 */
#include "ircce_test.h"

static int me, n;

static void bad_input(void)
{
    char buf[64];
    iRCCE_SEND_REQUEST s;
    iRCCE_RECV_REQUEST r;
    int f = 5, other = (me + 1) % n;

    conf_phase("bad input");
    memset(&s, 0, sizeof s);
    memset(&r, 0, sizeof r);
    EXPECT_IRC(iRCCE_isend(buf, -5, other, &s), RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_IRC(iRCCE_isend(buf, iRCCE_ANY_LENGTH, other, &s),
               RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_IRC(iRCCE_irecv(buf, -7, other, &r), RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_IRC(iRCCE_ssend(buf, -1, other), RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_IRC(iRCCE_msend(buf, -3), RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_IRC(iRCCE_isend(buf, 8, n, &s), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_isend(buf, 8, -1, &s), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_isend(buf, 8, me, &s), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_irecv(buf, 8, n + 3, &r), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_irecv(buf, 8, -2, &r), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_irecv(buf, 8, me, &r), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_iprobe(n, NULL, NULL), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_probe(me, NULL), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_mcast(buf, 8, n), RCCE_ERROR_ID);
    if (n > 1) {
        EXPECT_IRC(iRCCE_isend(NULL, 8, other, &s), RCCE_ERROR_TARGET);
        EXPECT_IRC(iRCCE_irecv(NULL, 8, other, &r), RCCE_ERROR_TARGET);
        /* zero bytes need no buffer and complete at once */
        EXPECT_IRC(iRCCE_isend(NULL, 0, other, &s), iRCCE_SUCCESS);
        EXPECT_IRC(iRCCE_isend_test(&s, &f), iRCCE_SUCCESS);
        EXPECT_IRC(f, 1);
        EXPECT_IRC(iRCCE_irecv(NULL, 0, other, &r), iRCCE_SUCCESS);
        EXPECT_IRC(iRCCE_irecv_wait(&r), iRCCE_SUCCESS);
    }
    /* requests the library never saw */
    memset(&s, 0, sizeof s);
    memset(&r, 0xab, sizeof r);
    EXPECT_IRC(iRCCE_isend_test(&s, &f), iRCCE_ERROR);
    EXPECT_IRC(f, 1);
    EXPECT_IRC(iRCCE_isend_wait(&s), iRCCE_ERROR);
    EXPECT_IRC(iRCCE_irecv_test(&r, &f), iRCCE_ERROR);
    EXPECT_IRC(iRCCE_irecv_wait(&r), iRCCE_ERROR);
    EXPECT_IRC(iRCCE_isend_cancel(&s, &f), iRCCE_NOT_ENQUEUED);
    EXPECT_IRC(f, 0);
    EXPECT_IRC(iRCCE_irecv_cancel(&r, &f), iRCCE_NOT_ENQUEUED);
    EXPECT_IRC(iRCCE_isend_cancel(NULL, &f), iRCCE_NOT_ENQUEUED);
    EXPECT_IRC(iRCCE_irecv_cancel(NULL, NULL), iRCCE_NOT_ENQUEUED);
    EXPECT_IRC(iRCCE_get_dest(NULL), iRCCE_ERROR);
    EXPECT_IRC(iRCCE_get_status(NULL, NULL), iRCCE_ERROR);
    EXPECT_IRC(iRCCE_get_status(&s, NULL), iRCCE_ERROR);
    /* wait lists: NULL and empty */
    {
        iRCCE_WAIT_LIST list;
        iRCCE_SEND_REQUEST *sp = (void *)1;
        iRCCE_RECV_REQUEST *rp = (void *)1;
        iRCCE_init_wait_list(&list);
        EXPECT_IRC(iRCCE_test_all(&list, &f), iRCCE_SUCCESS);
        EXPECT_IRC(f, 1);
        EXPECT_IRC(iRCCE_wait_all(&list), iRCCE_SUCCESS);
        EXPECT_IRC(iRCCE_test_any(&list, &sp, &rp), iRCCE_ERROR);
        CHECK(sp == NULL && rp == NULL);
        EXPECT_IRC(iRCCE_wait_any(&list, &sp, &rp), iRCCE_ERROR);
        EXPECT_IRC(iRCCE_wait_all(NULL), iRCCE_ERROR);
        EXPECT_IRC(iRCCE_test_all(NULL, &f), iRCCE_ERROR);
        iRCCE_add_to_wait_list(NULL, &s, &r); /* ignored */
        iRCCE_add_to_wait_list(&list, NULL, NULL);
        CHECK(list.first == NULL);
    }
    EXPECT_IRC(iRCCE_get_max_tagged_len(), RCCE_LINE_SIZE - 4);
}

/* UE 0 -> UE 1: cancellation of sends. */
static void cancel_sends(void)
{
    char a[100], b[100], c[100];
    iRCCE_SEND_REQUEST s1, s2, s3;
    int f = 7;

    conf_phase("cancel sends");
    if (me == 0) {
        conf_fill(a, 100, 1);
        conf_fill(b, 100, 2);
        conf_fill(c, 100, 3);
        CHECK_IRC(iRCCE_isend(a, 100, 1, &s1), iRCCE_PENDING);
        CHECK_IRC(iRCCE_isend(b, 100, 1, &s2), iRCCE_RESERVED);
        CHECK_IRC(iRCCE_isend(c, 100, 1, &s3), iRCCE_RESERVED);
        /* s1 has started: its first piece is announced */
        CHECK_IRC(iRCCE_isend_cancel(&s1, &f), iRCCE_PENDING);
        CHECK_EQ(f, 0);
        CHECK_IRC(iRCCE_isend_cancel(&s2, &f), iRCCE_SUCCESS);
        CHECK_EQ(f, 1);
        CHECK_IRC(iRCCE_isend_cancel(&s2, &f), iRCCE_NOT_ENQUEUED);
        CHECK_EQ(f, 0);
        CHECK_IRC(iRCCE_isend_test(&s2, &f), iRCCE_NOT_ENQUEUED);
        CHECK_EQ(f, 1);
        CHECK_IRC(iRCCE_isend_wait(&s2), iRCCE_NOT_ENQUEUED);
        CHECK_EQ(iRCCE_get_status(&s2, NULL), iRCCE_NOT_ENQUEUED);
        /* a cancelled request can be posted again */
        CHECK_IRC(iRCCE_isend(b, 100, 1, &s2), iRCCE_RESERVED);
        CHECK_IRC(iRCCE_isend_wait(&s1), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_isend_wait(NULL), iRCCE_SUCCESS);
        CHECK(s3.finished && s2.finished);
        CHECK_IRC(iRCCE_isend_cancel(&s1, &f), iRCCE_NOT_ENQUEUED);
    } else if (me == 1) {
        char x[100];
        /* a, c, then b again: the cancelled b never arrived */
        CHECK_IRC(iRCCE_irecv(x, 100, 0, NULL), iRCCE_SUCCESS);
        CHECK_PATTERN(x, 100, 1);
        CHECK_IRC(iRCCE_irecv(x, 100, 0, NULL), iRCCE_SUCCESS);
        CHECK_PATTERN(x, 100, 3);
        CHECK_IRC(iRCCE_irecv(x, 100, 0, NULL), iRCCE_SUCCESS);
        CHECK_PATTERN(x, 100, 2);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
    if (me == 1) {
        int fl;
        CHECK_IRC(iRCCE_iprobe(0, NULL, &fl), iRCCE_SUCCESS);
        CHECK_EQ(fl, 0);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
}

/* UE 1 cancels receives; a started multi-piece receive cannot be. */
static void cancel_recvs(void)
{
    size_t big = irc_chunk_guess(n) * 2 + 100;
    char *a = malloc(big), *x = malloc(big);
    iRCCE_RECV_REQUEST r1, r2, r3;
    int f = 7;

    conf_phase("cancel receives");
    CHECK(a && x);
    if (me == 1) {
        CHECK_IRC(iRCCE_irecv(x, 100, 0, &r1), iRCCE_PENDING);
        CHECK_IRC(iRCCE_irecv(x, 100, iRCCE_ANY_SOURCE, &r2), iRCCE_RESERVED);
        CHECK_IRC(iRCCE_irecv(x, 100, 0, &r3), iRCCE_RESERVED);
        /* nothing has been sent yet: all three can go */
        CHECK_IRC(iRCCE_irecv_cancel(&r2, &f), iRCCE_SUCCESS);
        CHECK_EQ(f, 1);
        CHECK_IRC(iRCCE_irecv_cancel(&r1, &f), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_irecv_cancel(&r3, NULL), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_irecv_wait(&r1), iRCCE_NOT_ENQUEUED);
        CHECK_IRC(iRCCE_irecv_test(&r3, &f), iRCCE_NOT_ENQUEUED);
        CHECK_EQ(f, 1);
        CHECK_IRC(iRCCE_irecv_push(), iRCCE_SUCCESS);
        RCCE_barrier(&RCCE_COMM_WORLD);
        /* wait until the first piece is there, take it, then try */
        CHECK_IRC(iRCCE_probe(0, NULL), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_irecv(x, (ssize_t)big, 0, &r1), iRCCE_PENDING);
        CHECK(r1.started);
        CHECK_IRC(iRCCE_irecv_cancel(&r1, &f), iRCCE_PENDING);
        CHECK_EQ(f, 0);
        CHECK_IRC(iRCCE_irecv_wait(&r1), iRCCE_SUCCESS);
        CHECK_PATTERN(x, big, 9);
        CHECK_IRC(iRCCE_irecv_cancel(&r1, &f), iRCCE_NOT_ENQUEUED);
    } else {
        RCCE_barrier(&RCCE_COMM_WORLD);
        if (me == 0) {
            conf_fill(a, big, 9);
            CHECK_IRC(iRCCE_isend(a, (ssize_t)big, 1, NULL), iRCCE_SUCCESS);
        }
    }
    free(a);
    free(x);
    RCCE_barrier(&RCCE_COMM_WORLD);
}

/* A posted request handed to isend/irecv again is refused; it still
 * completes. */
static void reuse(void)
{
    char a[64], b[64];
    iRCCE_SEND_REQUEST s;
    iRCCE_RECV_REQUEST r;

    conf_phase("reuse");
    if (me == 0) {
        RCCE_barrier(&RCCE_COMM_WORLD);
        conf_fill(a, 64, 11);
        CHECK_IRC(iRCCE_isend(a, 64, 1, &s), iRCCE_PENDING);
        CHECK_IRC(iRCCE_isend(b, 64, 1, &s), iRCCE_ERROR);
        CHECK_IRC(iRCCE_isend_wait(&s), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_isend_wait(&s), iRCCE_SUCCESS);
        /* done: it may be posted again */
        conf_fill(a, 64, 12);
        CHECK_POSTED(iRCCE_isend(a, 64, 1, &s));
        CHECK_IRC(iRCCE_isend_wait(&s), iRCCE_SUCCESS);
    } else if (me == 1) {
        /* posted before UE 0 sends: still queued when posted again */
        CHECK_IRC(iRCCE_irecv(b, 64, 0, &r), iRCCE_PENDING);
        CHECK_IRC(iRCCE_irecv(a, 64, 0, &r), iRCCE_ERROR);
        RCCE_barrier(&RCCE_COMM_WORLD);
        CHECK_IRC(iRCCE_irecv_wait(&r), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_irecv_wait(&r), iRCCE_SUCCESS);
        CHECK_PATTERN(b, 64, 11);
        CHECK_IRC(iRCCE_irecv(b, 64, 0, NULL), iRCCE_SUCCESS);
        CHECK_PATTERN(b, 64, 12);
    } else {
        RCCE_barrier(&RCCE_COMM_WORLD);
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
}

/* Every UE exchanges K messages with each of its two neighbours through
 * one wait list, drained with wait_any/test_any, then wait_all. */
static void lists(void)
{
    enum { K = 3 };
    int right = (me + 1) % n, left = (me - 1 + n) % n;
    iRCCE_SEND_REQUEST s[2 * K];
    iRCCE_RECV_REQUEST r[2 * K];
    char sb[2 * K][200], rb[2 * K][200];
    int seen_s[2 * K] = {0}, seen_r[2 * K] = {0};
    iRCCE_WAIT_LIST list;

    conf_phase("wait lists");
    iRCCE_init_wait_list(&list);
    for (int k = 0; k < 2 * K; k++) {
        int from = k % 2 ? right : left;
        CHECK_POSTED(iRCCE_irecv(rb[k], 150, from, &r[k]));
        iRCCE_add_to_wait_list(&list, NULL, &r[k]);
    }
    for (int k = 0; k < 2 * K; k++) {
        int to = k % 2 ? left : right;
        conf_fill(sb[k], 150, irc_seed(k, me, to, 150));
        CHECK_POSTED(iRCCE_isend(sb[k], 150, to, &s[k]));
        iRCCE_add_to_wait_list(&list, &s[k], NULL);
    }
    for (int done = 0; done < 4 * K; done++) {
        iRCCE_SEND_REQUEST *sp = NULL;
        iRCCE_RECV_REQUEST *rp = NULL;
        int st;
        if (done % 3 == 0) {
            st = iRCCE_wait_any(&list, &sp, &rp);
        } else {
            while ((st = iRCCE_test_any(&list, &sp, &rp)) == iRCCE_PENDING)
                CHECK(sp == NULL && rp == NULL);
        }
        CHECK_IRC(st, iRCCE_SUCCESS);
        CHECK((sp == NULL) != (rp == NULL));
        if (sp != NULL) {
            int k = (int)(sp - s);
            CHECK(k >= 0 && k < 2 * K && !seen_s[k]++);
        } else {
            int k = (int)(rp - r);
            CHECK(k >= 0 && k < 2 * K && !seen_r[k]++);
        }
    }
    CHECK(list.first == NULL && list.last == NULL);
    for (int k = 0; k < 2 * K; k++) {
        int from = k % 2 ? right : left;
        /* (with two UEs both neighbours are one UE, and the order of
         * its sends matches the order of these receives just as well) */
        CHECK_PATTERN(rb[k], 150, irc_seed(k, from, me, 150));
    }
    /* the same with wait_all, and a cancelled request in the list */
    iRCCE_init_wait_list(&list);
    for (int k = 0; k < 2; k++) {
        int from = k % 2 ? right : left;
        CHECK_POSTED(iRCCE_irecv(rb[k], 150, from, &r[k]));
        iRCCE_add_recv_to_wait_list(&list, &r[k]);
    }
    {
        iRCCE_RECV_REQUEST extra;
        char xb[8];
        CHECK_POSTED(iRCCE_irecv(xb, 8, right, &extra));
        CHECK_IRC(iRCCE_irecv_cancel(&extra, NULL), iRCCE_SUCCESS);
        iRCCE_add_recv_to_wait_list(&list, &extra);
        for (int k = 0; k < 2; k++) {
            int to = k % 2 ? left : right;
            conf_fill(sb[k], 150, irc_seed(k + 50, me, to, 150));
            CHECK_POSTED(iRCCE_isend(sb[k], 150, to, &s[k]));
            iRCCE_add_send_to_wait_list(&list, &s[k]);
        }
        CHECK_IRC(iRCCE_wait_all(&list), iRCCE_NOT_ENQUEUED);
        CHECK(list.first == NULL);
    }
    for (int k = 0; k < 2; k++) {
        int from = k % 2 ? right : left;
        CHECK_PATTERN(rb[k], 150, irc_seed(k + 50, from, me, 150));
    }
    RCCE_barrier(&RCCE_COMM_WORLD);
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    CHECK_IRC(iRCCE_init(), iRCCE_SUCCESS);
    bad_input();
    if (n > 1) {
        cancel_sends();
        cancel_recvs();
        reuse();
        lists();
    }
    bad_input();
    CHECK_OK(RCCE_finalize());
    conf_soft_exit();
    return 0;
}
