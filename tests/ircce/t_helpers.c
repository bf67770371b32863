/*
 * iRCCE multicast, collectives and helpers.
 *
 * - iRCCE_mcast / msend / mrecv from several roots, sizes 1 to several
 *   chunks; iRCCE_bcast on WORLD and on split communicators (even/odd,
 *   blocks of 3) from every kind of root;
 * - iRCCE_barrier: nobody leaves before everybody arrived (shared-memory
 *   counters), mixed with RCCE_barrier on the same communicator;
 * - tagged flags: alloc on every UE, write with a tag to a neighbour,
 *   wait/test/read with the tag, too long tags refused;
 * - atomic increment registers: every UE increments one register K
 *   times; old values are distinct; the total is right;
 * - iRCCE_malloc (same offset everywhere), iRCCE_put/get of any length,
 *   iRCCE_memcpy_put/get; messages still work after the communication
 *   buffer shrank.
 * Also built with -DGORY (message passing refused with
 * RCCE_ERROR_ILLEGAL_OP, the helpers work on program-managed MPB).
 */
#include "ircce_test.h"

static int me, n;

#ifndef GORY
static int color_parity(int ue, void *aux)
{
    (void)aux;
    return ue % 2;
}
#endif

static int color_block3(int ue, void *aux)
{
    (void)aux;
    return ue / 3;
}

#ifndef GORY
static void mcasts(void)
{
    size_t c = irc_chunk_guess(n);
    size_t sizes[] = {1, 100, c + 7, 3 * c};
    int roots[] = {0, n - 1, n / 2};
    int light = n > 8;

    for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
        for (int ri = 0; ri < 3; ri++) {
            size_t sz = sizes[si];
            int root = roots[ri];
            char *b = conf_galloc(sz, 5);
            uint32_t seed = irc_seed((int)si, root, 99, sz);

            if (light && si == 3 && ri > 0) {
                conf_gfree(b);
                continue;
            }
            conf_phase("mcast %zu bytes from %d", sz, root);
            if (me == root)
                conf_fill(b, sz, seed);
            else
                memset(b, 0, sz);
            if (ri == 1 && me == root)
                CHECK_IRC(iRCCE_msend(b, (ssize_t)sz), iRCCE_SUCCESS);
            else if (ri == 1)
                CHECK_IRC(iRCCE_mrecv(b, (ssize_t)sz, root), iRCCE_SUCCESS);
            else
                CHECK_IRC(iRCCE_mcast(b, (ssize_t)sz, root), iRCCE_SUCCESS);
            CHECK_PATTERN(b, sz, seed);
            CHECK_GUARDS(b, sz);
            conf_gfree(b);
        }
    }
}

static void bcasts(void)
{
    int (*colors[])(int, void *) = {color_parity, color_block3};

    for (int ci = -1; ci < 2; ci++) {
        RCCE_COMM comm, *cp = &RCCE_COMM_WORLD;
        int size, rank;

        if (ci >= 0) {
            memset(&comm, 0, sizeof comm);
            CHECK_OK(RCCE_comm_split(colors[ci], NULL, &comm));
            cp = &comm;
        }
        RCCE_comm_size(*cp, &size);
        RCCE_comm_rank(*cp, &rank);
        for (int root = 0; root < size; root += size > 3 ? size / 3 : 1) {
            size_t sz = 50 + (size_t)root * 1000;
            char *b = conf_galloc(sz, 1);
            uint32_t seed = irc_seed(ci + 2, cp->member[root], root, sz);
            conf_phase("iRCCE_bcast comm %d root %d", ci, root);
            if (rank == root)
                conf_fill(b, sz, seed);
            else
                memset(b, 0, sz);
            CHECK_IRC(iRCCE_bcast(b, (ssize_t)sz, root, *cp), iRCCE_SUCCESS);
            CHECK_PATTERN(b, sz, seed);
            conf_gfree(b);
        }
        EXPECT_IRC(iRCCE_bcast(NULL, 8, size, *cp), RCCE_ERROR_ID);
        if (ci >= 0)
            CHECK_OK(RCCE_comm_free(&comm));
    }
}
#endif

static void barriers(volatile int *count)
{
    int rounds = n > 8 ? 30 : 200;

    conf_phase("barriers");
    for (int k = 1; k <= rounds; k++) {
        count[me] = k;
        RCCE_shflush();
        if (k % 3 == 0)
            CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
        else
            CHECK_IRC(iRCCE_barrier(&RCCE_COMM_WORLD), iRCCE_SUCCESS);
        for (int u = 0; u < n; u++)
            CHECKF(count[u] >= k, "round %d: UE %d is at %d", k, u,
                   count[u]);
    }
    {
        RCCE_COMM comm;
        memset(&comm, 0, sizeof comm);
        CHECK_OK(RCCE_comm_split(color_block3, NULL, &comm));
        for (int k = 0; k < 10; k++)
            CHECK_IRC(iRCCE_barrier(&comm), iRCCE_SUCCESS);
        CHECK_OK(RCCE_comm_free(&comm));
        memset(&comm, 0, sizeof comm);
        EXPECT_IRC(iRCCE_barrier(&comm), RCCE_ERROR_COMM_UNDEFINED);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
}

static void tagged(void)
{
    RCCE_FLAG f1, f2;
    char tag[32], got[32];
    int right = (me + 1) % n, left = (me - 1 + n) % n, res = 0;
    RCCE_FLAG_STATUS v = 0;

    conf_phase("tagged flags");
    CHECK_IRC(iRCCE_flag_alloc_tagged(&f1), iRCCE_SUCCESS);
    CHECK_IRC(iRCCE_flag_alloc(&f2), iRCCE_SUCCESS);
    /* new flags start unset (nobody writes them before the barrier) */
    CHECK_IRC(iRCCE_test_tagged(f1, 7, &res, got, 4), iRCCE_SUCCESS);
    CHECK_EQ(res, 0);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    snprintf(tag, sizeof tag, "from %d to %d, tagged!!", me, right);
    CHECK_EQ(strlen(tag) < 28, 1);
    CHECK_IRC(iRCCE_flag_write_tagged(&f1, 7, right, tag, 28),
              iRCCE_SUCCESS);
    memset(got, 0, sizeof got);
    CHECK_IRC(iRCCE_wait_tagged(f1, 7, got, 28), iRCCE_SUCCESS);
    snprintf(tag, sizeof tag, "from %d to %d, tagged!!", left, me);
    CHECK(strcmp(got, tag) == 0);
    memset(got, 0, sizeof got);
    CHECK_IRC(iRCCE_test_tagged(f1, 7, &res, got, 10), iRCCE_SUCCESS);
    CHECK_EQ(res, 1);
    CHECK(memcmp(got, tag, 10) == 0);
    CHECK_IRC(iRCCE_flag_read_tagged(f1, &v, me, got, 3), iRCCE_SUCCESS);
    CHECK_EQ(v, 7);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    /* the neighbour's copy, read remotely */
    memset(got, 0, sizeof got);
    CHECK_IRC(iRCCE_flag_read_tagged(f1, &v, right, got, 28), iRCCE_SUCCESS);
    CHECK_EQ(v, 7);
    snprintf(tag, sizeof tag, "from %d to %d, tagged!!", me, right);
    CHECK(strcmp(got, tag) == 0);
    /* plain flag calls on a tagged flag */
    CHECK_IRC(iRCCE_flag_write(&f2, RCCE_FLAG_SET, right), iRCCE_SUCCESS);
    CHECK_IRC(iRCCE_wait_until(f2, RCCE_FLAG_SET), iRCCE_SUCCESS);
    CHECK_IRC(iRCCE_flag_read(f2, &v, me), iRCCE_SUCCESS);
    CHECK_EQ(v, RCCE_FLAG_SET);
    EXPECT_IRC(iRCCE_flag_write_tagged(&f1, 1, right, tag, 29),
               RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_IRC(iRCCE_flag_write_tagged(&f1, 1, n, tag, 3), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_flag_read_tagged(f1, &v, me, NULL, 3),
               RCCE_ERROR_TARGET);
    {
        RCCE_FLAG bogus;
        memset(&bogus, 0, sizeof bogus);
        EXPECT_IRC(iRCCE_flag_write_tagged(&bogus, 1, right, tag, 3),
                   RCCE_ERROR_FLAG_NOT_ALLOCATED);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
}

static void atomics(void)
{
    iRCCE_AIR *reg = NULL, *reg2 = NULL;
    int K = n > 8 ? 5 : 50, old = -1, prev = -1, v = -1;

    conf_phase("atomic registers");
    CHECK_IRC(iRCCE_atomic_alloc(&reg), iRCCE_SUCCESS);
    CHECK_IRC(iRCCE_atomic_alloc(&reg2), iRCCE_SUCCESS);
    CHECK(reg != NULL && reg2 != NULL && reg != reg2);
    if (me == 0) {
        CHECK_IRC(iRCCE_atomic_write(reg, 0), iRCCE_SUCCESS);
        CHECK_IRC(iRCCE_atomic_write(reg2, 1000), iRCCE_SUCCESS);
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    for (int k = 0; k < K; k++) {
        CHECK_IRC(iRCCE_atomic_inc(reg, &old), iRCCE_SUCCESS);
        CHECKF(old > prev && old < n * K, "old value %d after %d", old,
               prev);
        prev = old;
    }
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    CHECK_IRC(iRCCE_atomic_read(reg, &v), iRCCE_SUCCESS);
    CHECK_EQ(v, n * K);
    CHECK_IRC(iRCCE_atomic_read(reg2, &v), iRCCE_SUCCESS);
    CHECK_EQ(v, 1000);
    EXPECT_IRC(iRCCE_atomic_inc(NULL, &old), iRCCE_ERROR);
    EXPECT_IRC(iRCCE_atomic_alloc(NULL), iRCCE_ERROR);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
}

static void onesided(void)
{
    t_vcharp p = iRCCE_malloc(64), q;
    char data[64], back[64];
    int right = (me + 1) % n, left = (me - 1 + n) % n;

    conf_phase("put/get");
    CHECK(p != NULL);
    CHECK(iRCCE_malloc(33) == NULL);
    q = iRCCE_malloc(32);
    CHECK(q != NULL && q != p);
    conf_fill(data, 40, irc_seed(1, me, right, 40));
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    /* 40 bytes (not a whole number of lines) into the right neighbour */
    CHECK_IRC(iRCCE_put(p, (t_vcharp)data, 40, right), iRCCE_SUCCESS);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
    memset(back, 0, sizeof back);
    CHECK(iRCCE_memcpy_get(back, (const void *)p, 40) == back);
    CHECK_PATTERN(back, 40, irc_seed(1, left, me, 40));
    memset(back, 0, sizeof back);
    CHECK_IRC(iRCCE_get((t_vcharp)back, p, 40, left), iRCCE_SUCCESS);
    CHECK_PATTERN(back, 40, irc_seed(1, (left - 1 + n) % n, left, 40));
    /* MPB to MPB: my p into my q, through memcpy_put */
    CHECK(iRCCE_memcpy_put((void *)q, (const void *)p, 32) == (void *)q);
    memset(back, 0, sizeof back);
    CHECK_IRC(iRCCE_get((t_vcharp)back, q, 32, me), iRCCE_SUCCESS);
    CHECK_PATTERN(back, 32, irc_seed(1, left, me, 40));
    EXPECT_IRC(iRCCE_put(p, (t_vcharp)data, 40, n), RCCE_ERROR_ID);
    EXPECT_IRC(iRCCE_put(p, (t_vcharp)data, -1, right),
               RCCE_ERROR_MESSAGE_LENGTH);
    EXPECT_IRC(iRCCE_put((t_vcharp)data, (t_vcharp)data, 8, right),
               RCCE_ERROR_TARGET);
    EXPECT_IRC(iRCCE_get((t_vcharp)back, (t_vcharp)back, 8, right),
               RCCE_ERROR_SOURCE);
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
}

#ifndef GORY
/* after iRCCE_malloc shrank the buffer, messages still go through */
static void after_malloc(void)
{
    size_t sz = 3 * irc_chunk_guess(n) + 11;
    char *s = malloc(sz), *r = malloc(sz);
    iRCCE_SEND_REQUEST sr;
    iRCCE_RECV_REQUEST rr;

    conf_phase("messages after iRCCE_malloc");
    CHECK(s && r);
    conf_fill(s, sz, irc_seed(3, me, (me + 1) % n, sz));
    CHECK_POSTED(iRCCE_irecv(r, (ssize_t)sz, (me - 1 + n) % n, &rr));
    CHECK_POSTED(iRCCE_isend(s, (ssize_t)sz, (me + 1) % n, &sr));
    CHECK_IRC(iRCCE_isend_wait(&sr), iRCCE_SUCCESS);
    CHECK_IRC(iRCCE_irecv_wait(&rr), iRCCE_SUCCESS);
    CHECK_PATTERN(r, sz, irc_seed(3, (me - 1 + n) % n, me, sz));
    /* and RCCE's own */
    if (me % 2 == 0 && me + 1 < n)
        CHECK_OK(RCCE_send(s, sz, me + 1));
    else if (me % 2 == 1)
        CHECK_OK(RCCE_recv(r, sz, me - 1));
    free(s);
    free(r);
}
#endif

int main(int argc, char **argv)
{
    volatile int *count;

    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();
    CHECK_IRC(iRCCE_init(), iRCCE_SUCCESS);
    count = (volatile int *)RCCE_shmalloc((size_t)n * sizeof(int));
    CHECK(count != NULL);
    count[me] = 0;
    RCCE_shflush();
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
#ifndef GORY
    mcasts();
    bcasts();
#else
    {
        char b[8];
        iRCCE_SEND_REQUEST s;
        EXPECT_IRC(iRCCE_isend(b, 8, (me + 1) % n, &s), RCCE_ERROR_ILLEGAL_OP);
        EXPECT_IRC(iRCCE_mcast(b, 8, 0), RCCE_ERROR_ILLEGAL_OP);
    }
#endif
    barriers(count);
    tagged();
    atomics();
    onesided();
#ifndef GORY
    if (n > 1)
        after_malloc();
#endif
    CHECK_OK(RCCE_finalize());
    conf_soft_exit();
    return 0;
}
