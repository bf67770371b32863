/*
 * Error codes for bad input. Where RCCE-API.md (and Intel's RCCE, whose
 * behaviour it describes) names the code, the code is checked exactly:
 *   UE id out of range (send, recv, recv_test, put, get, flag access)
 *                                        RCCE_ERROR_ID
 *   root out of range (bcast, reduce)    RCCE_ERROR_ID
 *   put/get MPB address not line aligned RCCE_ERROR_ALIGNMENT
 *   put/get length not a multiple of 32  RCCE_ERROR_MESSAGE_LENGTH
 *   put target / get source outside the MPB
 *                                        RCCE_ERROR_TARGET / _SOURCE
 *   unknown reduction op / type          RCCE_ERROR_ILLEGAL_OP / _TYPE
 *   flag value other than SET/UNSET      RCCE_ERROR_FLAG_STATUS_UNDEFINED
 *   flag_read into NULL                  RCCE_ERROR_VAL_UNDEFINED
 *   unknown debug selector               RCCE_ERROR_DEBUG_FLAG
 *   unknown error code                   RCCE_ERROR_INVALID_ERROR_CODE
 *   RCCE_malloc that does not fit        NULL
 * Where it is silent (flags never allocated or already freed, freeing an
 * uninitialised communicator, locks of UEs that do not exist), the call
 * must return some non-success code, and not hang or crash.
 *
 * Each call has exactly one thing wrong. After all of them the library
 * must still work (a ring exchange and a barrier).
 *
 * Built twice: non-gory (conf_errors) and -DGORY (conf_errors_gory).
 */
#include "conf.h"

static int me, n;

static void error_strings(void)
{
    char buf[RCCE_MAX_ERROR_STRING + 64];
    char seen[29][RCCE_MAX_ERROR_STRING + 64];
    int len;

    conf_phase("error_string of every code");
    for (int i = 0; i <= 28; i++) {
        int code = i == 0 ? RCCE_SUCCESS : RCCE_ERROR_BASE + i;
        memset(buf, 0x7E, sizeof buf);
        len = -1;
        EXPECTF(RCCE_error_string(code, buf, &len) == RCCE_SUCCESS,
               "error_string(%d = %s) refused", code, conf_code_name(code));
        size_t sl = strnlen(buf, RCCE_MAX_ERROR_STRING);
        EXPECTF(sl < RCCE_MAX_ERROR_STRING,
               "string of %s does not fit in RCCE_MAX_ERROR_STRING bytes",
               conf_code_name(code));
        EXPECTF(sl > 0, "empty string for %s", conf_code_name(code));
        EXPECTF((size_t)len == sl, "len %d for a string of %zu chars (%s)", len,
               sl, conf_code_name(code));
        for (size_t j = RCCE_MAX_ERROR_STRING; j < sizeof buf; j++)
            EXPECTF((unsigned char)buf[j] == 0x7E,
                   "error_string wrote past RCCE_MAX_ERROR_STRING (%s)",
                   conf_code_name(code));
        memcpy(seen[i], buf, sl + 1);
        for (int j = 0; j < i; j++)
            EXPECTF(strcmp(seen[j], seen[i]) != 0,
                   "%s and %s have the same string '%s'",
                   conf_code_name(j ? RCCE_ERROR_BASE + j : 0),
                   conf_code_name(code), buf);
    }
    conf_phase("error_string of unknown codes");
    static const int bad[] = {1, -1, -99999, RCCE_ERROR_BASE + 29,
                              RCCE_ERROR_BASE + 1000, 1234300};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(buf, 0, sizeof buf);
        len = 0;
        EXPECT_RC(RCCE_error_string(bad[i], buf, &len),
                 RCCE_ERROR_INVALID_ERROR_CODE);
    }
}

static void debug_selectors(void)
{
    static const int good[] = {RCCE_DEBUG_ALL, RCCE_DEBUG_SYNCH,
                               RCCE_DEBUG_COMM, RCCE_DEBUG_RPC,
                               RCCE_DEBUG_DEBUG};
    static const int bad[] = {0, 1, -1, 111112, 111222, RCCE_ERROR_BASE};
    conf_phase("debug_set / debug_unset");
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        CHECK_OK(RCCE_debug_set(good[i]));
        CHECK_OK(RCCE_debug_unset(good[i]));
    }
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        EXPECT_RC(RCCE_debug_set(bad[i]), RCCE_ERROR_DEBUG_FLAG);
        EXPECT_RC(RCCE_debug_unset(bad[i]), RCCE_ERROR_DEBUG_FLAG);
    }
    CHECK_OK(RCCE_debug_unset(RCCE_DEBUG_ALL));
}

static void bad_ids(void)
{
    int ids[] = {-1, n, RCCE_MAXNP, RCCE_MAXNP + 5, -1000};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        int id = ids[i];
        conf_phase("UE id %d", id);
#ifdef GORY
        t_vcharp combuf = RCCE_malloc(RCCE_LINE_SIZE * 4);
        RCCE_FLAG ready, sent;
        CHECK(combuf != NULL);
        CHECK_OK(RCCE_flag_alloc(&ready));
        CHECK_OK(RCCE_flag_alloc(&sent));
        char msg[100];
        int test = 0;
        memset(msg, 1, sizeof msg);
        EXPECT_RC(RCCE_send(msg, combuf, RCCE_LINE_SIZE * 4, &ready, &sent,
                           sizeof msg, id),
                 RCCE_ERROR_ID);
        EXPECT_RC(RCCE_recv(msg, combuf, RCCE_LINE_SIZE * 4, &ready, &sent,
                           sizeof msg, id),
                 RCCE_ERROR_ID);
        EXPECT_RC(RCCE_recv_test(msg, combuf, RCCE_LINE_SIZE * 4, &ready,
                                &sent, sizeof msg, id, &test),
                 RCCE_ERROR_ID);
        char line[RCCE_LINE_SIZE];
        memset(line, 0, sizeof line);
        EXPECT_RC(RCCE_put(combuf, (t_vcharp)line, RCCE_LINE_SIZE, id),
                 RCCE_ERROR_ID);
        EXPECT_RC(RCCE_get((t_vcharp)line, combuf, RCCE_LINE_SIZE, id),
                 RCCE_ERROR_ID);
        EXPECT_NOT_OK(RCCE_put_char(combuf, 'x', id));
        char c;
        EXPECT_NOT_OK(RCCE_get_char(&c, combuf, id));
        EXPECT_RC(RCCE_flag_write(&ready, RCCE_FLAG_SET, id), RCCE_ERROR_ID);
        RCCE_FLAG_STATUS v;
        EXPECT_RC(RCCE_flag_read(ready, &v, id), RCCE_ERROR_ID);
        CHECK_OK(RCCE_flag_free(&sent));
        CHECK_OK(RCCE_flag_free(&ready));
        RCCE_free(combuf);
#else
        char msg[100];
        int test = 0;
        memset(msg, 1, sizeof msg);
        EXPECT_RC(RCCE_send(msg, sizeof msg, id), RCCE_ERROR_ID);
        EXPECT_RC(RCCE_recv(msg, sizeof msg, id), RCCE_ERROR_ID);
        EXPECT_RC(RCCE_recv_test(msg, sizeof msg, id, &test), RCCE_ERROR_ID);
        /* roots are ranks in the communicator */
        EXPECT_RC(RCCE_bcast(msg, sizeof msg, id, RCCE_COMM_WORLD),
                 RCCE_ERROR_ID);
        int x = 1, y = 0;
        EXPECT_RC(RCCE_reduce((char *)&x, (char *)&y, 1, RCCE_INT, RCCE_SUM,
                             id, RCCE_COMM_WORLD),
                 RCCE_ERROR_ID);
#endif
        EXPECT_NOT_OK(RCCE_acquire_lock(id));
        EXPECT_NOT_OK(RCCE_release_lock(id));
    }
}

#ifndef GORY
static void bad_reductions(void)
{
    int in[4] = {1, 2, 3, 4}, out[4] = {0, 0, 0, 0};
    static const int bad_ops[] = {RCCE_OP_BASE - 1, RCCE_OP_BASE + 4, 0, -1,
                                  RCCE_TYPE_BASE};
    static const int bad_types[] = {RCCE_TYPE_BASE - 1, RCCE_TYPE_BASE + 4, 0,
                                    -1, RCCE_OP_BASE};
    conf_phase("reduce with unknown op / type");
    for (size_t i = 0; i < sizeof bad_ops / sizeof bad_ops[0]; i++) {
        EXPECT_RC(RCCE_reduce((char *)in, (char *)out, 4, RCCE_INT, bad_ops[i],
                             0, RCCE_COMM_WORLD),
                 RCCE_ERROR_ILLEGAL_OP);
        EXPECT_RC(RCCE_allreduce((char *)in, (char *)out, 4, RCCE_INT,
                                bad_ops[i], RCCE_COMM_WORLD),
                 RCCE_ERROR_ILLEGAL_OP);
    }
    for (size_t i = 0; i < sizeof bad_types / sizeof bad_types[0]; i++) {
        EXPECT_RC(RCCE_reduce((char *)in, (char *)out, 4, bad_types[i],
                             RCCE_SUM, 0, RCCE_COMM_WORLD),
                 RCCE_ERROR_ILLEGAL_TYPE);
        EXPECT_RC(RCCE_allreduce((char *)in, (char *)out, 4, bad_types[i],
                                RCCE_MAX, RCCE_COMM_WORLD),
                 RCCE_ERROR_ILLEGAL_TYPE);
    }
}
#endif

static void bad_comms(void)
{
    RCCE_COMM c;
    conf_phase("comm_free of a communicator never split");
    memset(&c, 0, sizeof c);
    EXPECT_NOT_OK(RCCE_comm_free(&c));
}

#ifdef GORY
static void bad_put_get(void)
{
    const int room = 8 * RCCE_LINE_SIZE;
    t_vcharp mpb = RCCE_malloc((size_t)room);
    CHECK(mpb != NULL);
    char *priv = conf_galloc((size_t)room * 4, 0);
    char *priv2 = conf_galloc((size_t)room * 4, 0);
    memset(priv, 0, (size_t)room * 4);
    int peer = (me + 1) % n;

    conf_phase("put/get: misaligned MPB address");
    static const int offs[] = {1, 4, 8, 16, 31};
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        EXPECT_RC(RCCE_put(mpb + offs[i], (t_vcharp)priv, RCCE_LINE_SIZE, peer),
                 RCCE_ERROR_ALIGNMENT);
        EXPECT_RC(RCCE_get((t_vcharp)priv, mpb + offs[i], RCCE_LINE_SIZE, peer),
                 RCCE_ERROR_ALIGNMENT);
    }

    conf_phase("put/get: length not a multiple of 32");
    static const int lens[] = {1, 31, 33, 63, 100, -32};
    for (size_t i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        EXPECT_RC(RCCE_put(mpb, (t_vcharp)priv, lens[i], peer),
                 RCCE_ERROR_MESSAGE_LENGTH);
        EXPECT_RC(RCCE_get((t_vcharp)priv, mpb, lens[i], peer),
                 RCCE_ERROR_MESSAGE_LENGTH);
    }

    conf_phase("put/get: range outside the MPB");
    /* private memory where the MPB address belongs */
    EXPECT_RC(RCCE_put((t_vcharp)priv2, (t_vcharp)priv, RCCE_LINE_SIZE, peer),
             RCCE_ERROR_TARGET);
    EXPECT_RC(RCCE_get((t_vcharp)priv, (t_vcharp)priv2, RCCE_LINE_SIZE, peer),
             RCCE_ERROR_SOURCE);
    /* starts inside, runs past the end of the 8 KiB */
    EXPECT_RC(RCCE_put(mpb, (t_vcharp)priv, RCCE_BUFF_SIZE_MAX, peer),
             RCCE_ERROR_TARGET);
    EXPECT_RC(RCCE_get((t_vcharp)priv, mpb, RCCE_BUFF_SIZE_MAX, peer),
             RCCE_ERROR_SOURCE);
    /* and a length that is simply larger than any MPB */
    char *huge = conf_galloc(4 * RCCE_BUFF_SIZE_MAX, 0);
    EXPECT_RC(RCCE_put(mpb, (t_vcharp)huge, 2 * RCCE_BUFF_SIZE_MAX, peer),
             RCCE_ERROR_TARGET);
    EXPECT_RC(RCCE_get((t_vcharp)huge, mpb, 2 * RCCE_BUFF_SIZE_MAX, peer),
             RCCE_ERROR_SOURCE);
    conf_gfree(huge);

    conf_phase("put/get: the same calls done right still work");
    conf_fill(priv, (size_t)room, 0xABCu + (uint32_t)me);
    CHECK_OK(RCCE_put(mpb, (t_vcharp)priv, room, me));
    memset(priv2, 0, (size_t)room);
    CHECK_OK(RCCE_get((t_vcharp)priv2, mpb, room, me));
    CHECK_PATTERN(priv2, (size_t)room, 0xABCu + (uint32_t)me);

    conf_phase("malloc that does not fit");
    CHECK(RCCE_malloc(RCCE_BUFF_SIZE_MAX) == NULL);
    CHECK(RCCE_malloc(RCCE_BUFF_SIZE_MAX + RCCE_LINE_SIZE) == NULL);
    CHECK(RCCE_malloc((size_t)1 << 40) == NULL);

    conf_gfree(priv);
    conf_gfree(priv2);
    RCCE_free(mpb);
}

static void bad_flags(void)
{
    RCCE_FLAG f, never;
    RCCE_FLAG_STATUS v;

    conf_phase("flag value neither SET nor UNSET");
    CHECK_OK(RCCE_flag_alloc(&f));
    CHECK_OK(RCCE_flag_write(&f, RCCE_FLAG_UNSET, me));
    EXPECT_RC(RCCE_flag_write(&f, 7, me), RCCE_ERROR_FLAG_STATUS_UNDEFINED);
    EXPECT_RC(RCCE_flag_write(&f, -1, me), RCCE_ERROR_FLAG_STATUS_UNDEFINED);
    EXPECT_RC(RCCE_wait_until(f, 2), RCCE_ERROR_FLAG_STATUS_UNDEFINED);
    EXPECT_RC(RCCE_flag_read(f, NULL, me), RCCE_ERROR_VAL_UNDEFINED);
    v = -1;
    CHECK_OK(RCCE_flag_read(f, &v, me));
    CHECK_EQ(v, RCCE_FLAG_UNSET);

    conf_phase("flag never allocated");
    memset(&never, 0, sizeof never);
    EXPECT_NOT_OK(RCCE_flag_write(&never, RCCE_FLAG_SET, me));
    EXPECT_NOT_OK(RCCE_flag_read(never, &v, me));
    EXPECT_NOT_OK(RCCE_wait_until(never, RCCE_FLAG_SET));
    EXPECT_NOT_OK(RCCE_flag_free(&never));
    memset(&never, 0xFF, sizeof never);
    EXPECT_NOT_OK(RCCE_flag_write(&never, RCCE_FLAG_SET, me));
    EXPECT_NOT_OK(RCCE_wait_until(never, RCCE_FLAG_SET));

    conf_phase("flag already freed");
    CHECK_OK(RCCE_flag_free(&f));
    EXPECT_NOT_OK(RCCE_flag_free(&f));
    EXPECT_NOT_OK(RCCE_flag_write(&f, RCCE_FLAG_SET, me));
    EXPECT_NOT_OK(RCCE_wait_until(f, RCCE_FLAG_SET));
}
#endif

static void still_works(void)
{
    conf_phase("library still works after the errors");
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
#ifndef GORY
    if (n > 1) {
        char out[100], in[100];
        conf_fill(out, sizeof out, 0x1234u + (uint32_t)me);
        int right = (me + 1) % n, left = (me + n - 1) % n;
        if (me % 2 == 0) {
            CHECK_OK(RCCE_send(out, sizeof out, right));
            CHECK_OK(RCCE_recv(in, sizeof in, left));
        } else {
            CHECK_OK(RCCE_recv(in, sizeof in, left));
            CHECK_OK(RCCE_send(out, sizeof out, right));
        }
        CHECK_PATTERN(in, sizeof in, 0x1234u + (uint32_t)left);
    }
    int x = me, sum = -1;
    CHECK_OK(RCCE_allreduce((char *)&x, (char *)&sum, 1, RCCE_INT, RCCE_SUM,
                            RCCE_COMM_WORLD));
    CHECK_EQ(sum, n * (n - 1) / 2);
#endif
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();

    error_strings();
    debug_selectors();
    bad_ids();
#ifndef GORY
    bad_reductions();
#else
    bad_put_get();
    bad_flags();
#endif
    bad_comms();
    still_works();

    CHECK_OK(RCCE_finalize());
    conf_soft_exit(); /* after finalize, so the other UEs end cleanly */
    return 0;
}
