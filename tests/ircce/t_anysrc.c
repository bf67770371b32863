/*
 * iRCCE_ANY_SOURCE receives: UE 0 receives from every other UE.
 *
 * - fairness: with a message from every sender announced, n-1 any-source
 *   receives take one from each sender, in round-robin order;
 * - no sender starved under load: every sender sends M messages (blocking
 *   sends, sizes varying and crossing a chunk), UE 0 keeps a window of
 *   any-source receives (iRCCE_ANY_LENGTH where available) open through a
 *   wait list (wait_any / test_any); every message arrives, per-sender
 *   order is kept, sizes are reported right;
 * - any-source and specific-source receives mixed (a specific receive
 *   takes its sender's messages first);
 * - blocking any-source iRCCE_irecv(..., NULL) and iRCCE_probe.
 * Also built with -DSINGLEBITFLAGS (sizes then known in advance).
 */
#include "ircce_test.h"

static int me, n, M;

/* size of message k from sender s */
static size_t msg_size(int s, int k)
{
    size_t c = irc_chunk_guess(n);
    switch ((s + k) % 4) {
    case 0: return 8;
    case 1: return 33 + (size_t)(s * 7 + k) % 200;
    case 2: return c + 1;
    default: return 9 + (size_t)k;
    }
}

/* message k of sender s: its numbers, then a pattern; k = 0 is the
 * 8-byte message of the fairness rounds */
static size_t msg_len(int s, int k)
{
    return k == 0 ? 8 : msg_size(s, k);
}

static void fill_msg(char *b, int s, int k)
{
    size_t sz = msg_len(s, k);
    conf_fill(b, sz, irc_seed(k, s, 0, sz));
    memcpy(b, &k, sizeof k);
    memcpy(b + 4, &s, sizeof s);
}

static void check_msg(const char *b, size_t got, int s, int k)
{
    size_t sz = msg_len(s, k);
    int kk, ss;

    CHECK_EQ(got, sz);
    memcpy(&kk, b, sizeof kk);
    memcpy(&ss, b + 4, sizeof ss);
    CHECK_EQ(ss, s);
    CHECK_EQ(kk, k);
    for (size_t i = 8; i < sz; i++)
        CHECKF((unsigned char)b[i] == conf_byte(irc_seed(k, s, 0, sz), i),
               "message %d of UE %d, byte %zu", k, s, i);
}

/* The any-source receives of one round take the senders in round-robin
 * order: each once, each the one after the previous (skipping UE 0). */
static void fairness(void)
{
    char buf[64];
    int *order = calloc((size_t)n, sizeof(int));
    iRCCE_SEND_REQUEST s;

    conf_phase("fairness");
    CHECK(order != NULL);
    if (me != 0) {
        fill_msg(buf, me, 0);
        CHECK_POSTED(iRCCE_isend(buf, 8, 0, &s));
        RCCE_barrier(&RCCE_COMM_WORLD);
        CHECK_IRC(iRCCE_isend_wait(&s), iRCCE_SUCCESS);
    } else {
        RCCE_barrier(&RCCE_COMM_WORLD);
        for (int i = 1; i < n; i++) {
            iRCCE_RECV_REQUEST r;
            CHECK_IRC(iRCCE_irecv(buf, 8, iRCCE_ANY_SOURCE, &r),
                      iRCCE_SUCCESS);
            order[i] = iRCCE_get_source(&r);
            CHECK(order[i] > 0 && order[i] < n);
            check_msg(buf, 8, order[i], 0);
            if (i > 1)
                CHECKF(order[i] == order[i - 1] % (n - 1) + 1,
                       "receive %d came from UE %d after UE %d", i,
                       order[i], order[i - 1]);
        }
    }
    free(order);
    RCCE_barrier(&RCCE_COMM_WORLD);
}

#define WIN 8

static void load(void)
{
    size_t cap = irc_chunk_guess(n) + 64;
    int *next = calloc((size_t)n, sizeof(int)), total = (n - 1) * M, got = 0;

    conf_phase("load");
    CHECK(next != NULL);
    if (me != 0) {
        char *b = malloc(cap);
        CHECK(b != NULL);
        for (int k = 1; k <= M; k++) {
            fill_msg(b, me, k);
            CHECK_IRC(iRCCE_isend(b, (ssize_t)msg_size(me, k), 0, NULL),
                      iRCCE_SUCCESS);
        }
        free(b);
    } else {
#ifdef _iRCCE_ANY_LENGTH_
        iRCCE_RECV_REQUEST r[WIN];
        char *b[WIN];
        iRCCE_WAIT_LIST list;
        int posted = 0;
        char *seen = calloc((size_t)(n * (M + 1)), 1);

        CHECK(seen != NULL);
        iRCCE_init_wait_list(&list);
        for (int i = 0; i < WIN; i++) {
            b[i] = malloc(cap);
            CHECK(b[i] != NULL);
        }
        for (int i = 0; i < WIN && posted < total; i++, posted++) {
            CHECK_POSTED(iRCCE_irecv(b[i], iRCCE_ANY_LENGTH,
                                     iRCCE_ANY_SOURCE, &r[i]));
            iRCCE_add_recv_to_wait_list(&list, &r[i]);
        }
        while (got < total) {
            iRCCE_RECV_REQUEST *done = NULL;
            iRCCE_SEND_REQUEST *sdone = NULL;
            int i, src, st, k;

            if (got % 2)
                st = iRCCE_wait_any(&list, &sdone, &done);
            else
                while ((st = iRCCE_test_any(&list, &sdone, &done)) ==
                       iRCCE_PENDING)
                    ;
            CHECK_IRC(st, iRCCE_SUCCESS);
            CHECK(sdone == NULL && done != NULL);
            i = (int)(done - r);
            CHECK(i >= 0 && i < WIN);
            src = iRCCE_get_source(done);
            CHECK(src > 0 && src < n);
            /* a wait list reports completions in list order, not in the
             * order they happened: take k from the message */
            memcpy(&k, b[i], sizeof k);
            CHECK(k >= 1 && k <= M);
            CHECKF(!(seen[src * (M + 1) + k]++), "message %d of UE %d twice",
                   k, src);
            next[src]++;
            check_msg(b[i], (size_t)iRCCE_get_size(NULL, done), src, k);
            got++;
            if (posted < total) {
                CHECK_POSTED(iRCCE_irecv(b[i], iRCCE_ANY_LENGTH,
                                         iRCCE_ANY_SOURCE, &r[i]));
                iRCCE_add_recv_to_wait_list(&list, &r[i]);
                posted++;
            }
        }
        CHECK(list.first == NULL);
        for (int i = 0; i < WIN; i++)
            free(b[i]);
        free(seen);
#else
        /* without any-length: probe for the sender, then receive its
         * next message with the size it must have */
        char *b = malloc(cap);
        CHECK(b != NULL);
        while (got < total) {
            int src;
            CHECK_IRC(iRCCE_probe(iRCCE_ANY_SOURCE, &src), iRCCE_SUCCESS);
            CHECK(src > 0 && src < n);
            next[src]++;
            CHECK_IRC(iRCCE_irecv(b, (ssize_t)msg_size(src, next[src]), src,
                                  NULL),
                      iRCCE_SUCCESS);
            check_msg(b, msg_size(src, next[src]), src, next[src]);
            got++;
        }
        free(b);
#endif
        for (int s = 1; s < n; s++)
            CHECK_EQ(next[s], M);
    }
    free(next);
    RCCE_barrier(&RCCE_COMM_WORLD);
}

/* A specific receive from UE 1 posted after an any-source one still gets
 * UE 1's message when UE 1 is the only sender; the any-source receive gets
 * the next. */
static void mixed(void)
{
    char a[16], b[16];
    iRCCE_RECV_REQUEST ra, rb;

    conf_phase("mixed");
    if (me == 1) {
        RCCE_barrier(&RCCE_COMM_WORLD);
        fill_msg(a, 1, 0);
        CHECK_IRC(iRCCE_isend(a, 8, 0, NULL), iRCCE_SUCCESS);
        fill_msg(a, 1, 3);
        CHECK_IRC(iRCCE_isend(a, 8, 0, NULL), iRCCE_SUCCESS);
    } else if (me == 0) {
        CHECK_IRC(iRCCE_irecv(a, 8, iRCCE_ANY_SOURCE, &ra), iRCCE_RESERVED);
        CHECK_IRC(iRCCE_irecv(b, 8, 1, &rb), iRCCE_PENDING);
        RCCE_barrier(&RCCE_COMM_WORLD);
        CHECK_IRC(iRCCE_irecv_wait(&rb), iRCCE_SUCCESS);
        check_msg(b, 8, 1, 0);
        CHECK_IRC(iRCCE_irecv_wait(&ra), iRCCE_SUCCESS);
        CHECK_EQ(iRCCE_get_source(&ra), 1);
        check_msg(a, 8, 1, 3);
    } else {
        RCCE_barrier(&RCCE_COMM_WORLD);
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
    M = n > 8 ? 3 : 20;
    CHECK_IRC(iRCCE_init(), iRCCE_SUCCESS);
    if (n > 1) {
        fairness();
        load();
        mixed();
        fairness();
    }
    CHECK_OK(RCCE_finalize());
    conf_soft_exit();
    return 0;
}
