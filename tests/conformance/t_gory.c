/*
 * The gory shape (-DGORY; also built with -DGORY -DSINGLEBITFLAGS):
 * RCCE_malloc / RCCE_malloc_request / RCCE_free, RCCE_put / RCCE_get to and
 * from every UE (private and MPB sources and targets), RCCE_put_char /
 * RCCE_get_char, flags (alloc, free, write, read, wait_until, probe; many
 * UEs writing flags of one UE at once), and the gory RCCE_send / RCCE_recv
 * / RCCE_recv_test with program-supplied communication buffers and flags.
 *
 * Every UE makes the same MPB allocations in the same order, so an address
 * from RCCE_malloc names the same offset in every MPB (RCCE-API.md); the
 * put/get checks rely on exactly that.
 */
#include "conf.h"

#ifndef GORY
#error "t_gory.c is built with -DGORY"
#endif

#include <sched.h>

static int me, n;
static int total_lines; /* program MPB lines after RCCE_init */

static int cmp_ptr(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (t_vcharp const *)a;
    uintptr_t y = (uintptr_t) * (t_vcharp const *)b;
    return x < y ? -1 : x > y;
}

static void barrier(void)
{
    CHECK_OK(RCCE_barrier(&RCCE_COMM_WORLD));
}

/* ---- MPB allocation ---- */

static void test_malloc(void)
{
    static t_vcharp p[RCCE_BUFF_SIZE_MAX / RCCE_LINE_SIZE + 1];
    int k = 0;

    conf_phase("malloc until exhausted");
    for (;;) {
        t_vcharp q = RCCE_malloc(RCCE_LINE_SIZE);
        if (q == NULL)
            break;
        CHECKF(k < RCCE_BUFF_SIZE_MAX / RCCE_LINE_SIZE,
               "more than %d lines handed out", k);
        CHECKF((uintptr_t)q % RCCE_LINE_SIZE == 0, "block %d at %p", k,
               (void *)q);
        p[k++] = q;
    }
    total_lines = k;
    /* the library keeps at least its spare line and the WORLD barrier
     * flags (RCCE-API.md's protocol), at most a few lines more */
    CHECKF(k * RCCE_LINE_SIZE <= RCCE_BUFF_SIZE_MAX - RCCE_LINE_SIZE,
           "%d lines available", k);
    CHECKF(k * RCCE_LINE_SIZE >= RCCE_BUFF_SIZE_MAX - 4 * RCCE_LINE_SIZE,
           "only %d lines available", k);
    qsort(p, (size_t)k, sizeof p[0], cmp_ptr);
    for (int i = 1; i < k; i++)
        CHECKF(p[i] - p[i - 1] >= RCCE_LINE_SIZE, "blocks %p and %p overlap",
               (void *)p[i - 1], (void *)p[i]);
    CHECK(p[k - 1] - p[0] < RCCE_BUFF_SIZE_MAX);
    CHECK(RCCE_malloc(RCCE_LINE_SIZE) == NULL);
    CHECK(RCCE_malloc(2 * RCCE_LINE_SIZE) == NULL);

    conf_phase("free everything, one big block");
    for (int i = 0; i < k; i++)
        RCCE_free(p[i]);
    size_t all = (size_t)k * RCCE_LINE_SIZE;
    CHECK(RCCE_malloc(all + RCCE_LINE_SIZE) == NULL);
    CHECK(RCCE_malloc(RCCE_BUFF_SIZE_MAX * 2) == NULL);
    t_vcharp big = RCCE_malloc(all);
    CHECKF(big != NULL, "the %zu bytes just freed do not fit again", all);
    CHECK((uintptr_t)big % RCCE_LINE_SIZE == 0);
    CHECK(RCCE_malloc(RCCE_LINE_SIZE) == NULL);
    RCCE_free(big);

    conf_phase("fragment and coalesce");
    for (int i = 0; i < k; i++) {
        p[i] = RCCE_malloc(RCCE_LINE_SIZE);
        CHECK(p[i] != NULL);
    }
    for (int i = 1; i < k; i += 2)
        RCCE_free(p[i]);
    for (int i = k - 1 - (k - 1) % 2; i >= 0; i -= 2)
        RCCE_free(p[i]);
    big = RCCE_malloc(all);
    CHECKF(big != NULL, "freed blocks were not merged");
    RCCE_free(big);

    conf_phase("mixed sizes");
    t_vcharp a = RCCE_malloc(96), b = RCCE_malloc(1024), c = RCCE_malloc(32);
    CHECK(a && b && c);
    CHECK(b - a >= 96 || a - b >= 1024);
    CHECK(c - b >= 1024 || b - c >= 32);
    CHECK(c - a >= 96 || a - c >= 32);
    RCCE_free(b);
    t_vcharp d = RCCE_malloc(512);
    CHECK(d != NULL);
    RCCE_free(a);
    RCCE_free(c);
    RCCE_free(d);
    big = RCCE_malloc(all);
    CHECK(big != NULL);
    RCCE_free(big);
}

static size_t halve_to_fit(size_t want, size_t room)
{
    while (want > room)
        want /= 2;
    return want;
}

static void test_malloc_request(void)
{
    size_t room = (size_t)total_lines * RCCE_LINE_SIZE;
    size_t got = 0;

    conf_phase("malloc_request halving");
    t_vcharp a = RCCE_malloc_request(16384, &got);
    CHECK(a != NULL);
    CHECK_EQ(got, halve_to_fit(16384, room));
    room -= got;
    t_vcharp b = RCCE_malloc_request(4096, &got);
    CHECK(b != NULL);
    CHECK_EQ(got, halve_to_fit(4096, room));
    room -= got;
    t_vcharp c = RCCE_malloc_request(8192, &got);
    CHECK(c != NULL);
    CHECK_EQ(got, halve_to_fit(8192, room));
    room -= got;
    /* what fits at once is not halved */
    t_vcharp d = RCCE_malloc_request(32, &got);
    CHECK(d != NULL);
    CHECK_EQ(got, 32);
    RCCE_free(a);
    RCCE_free(b);
    RCCE_free(c);
    RCCE_free(d);

    conf_phase("malloc_request when full");
    t_vcharp all = RCCE_malloc((size_t)total_lines * RCCE_LINE_SIZE);
    CHECK(all != NULL);
    got = 12345;
    CHECK(RCCE_malloc_request(64, &got) == NULL);
    RCCE_free(all);
}

/* ---- one-sided access ---- */

static uint32_t put_seed(int src, int dst, int round)
{
    return 0x50000u + (uint32_t)round * 4099u + (uint32_t)src * 61u +
           (uint32_t)dst * 3u;
}

static void test_put_get(void)
{
    const int slot = 64; /* two lines per source UE */
    size_t len = (size_t)n * (size_t)slot;
    t_vcharp region = RCCE_malloc(len);
    t_vcharp region2 = RCCE_malloc(slot);
    CHECK(region != NULL && region2 != NULL);
    char *buf = conf_galloc(len, 1);

    conf_phase("put to self, get from self");
    conf_fill(buf, len, put_seed(me, me, 0));
    CHECK_OK(RCCE_put(region, (t_vcharp)buf, (int)len, me));
    memset(buf, 0, len);
    CHECK_OK(RCCE_get((t_vcharp)buf, region, (int)len, me));
    CHECK_PATTERN(buf, len, put_seed(me, me, 0));
    CHECK_GUARDS(buf, len);
    barrier();

    conf_phase("put my slot into every MPB");
    for (int j = 0; j < n; j++) {
        int t = (me + j) % n;
        char *src = conf_galloc((size_t)slot, (size_t)(t % 7) + 1);
        conf_fill(src, (size_t)slot, put_seed(me, t, 1));
        CHECK_OK(RCCE_put(region + me * slot, (t_vcharp)src, slot, t));
        CHECK_PATTERN(src, (size_t)slot, put_seed(me, t, 1));
        conf_gfree(src);
    }
    barrier();

    conf_phase("check my MPB holds every UE's slot");
    CHECK_OK(RCCE_get((t_vcharp)buf, region, (int)len, me));
    for (int s = 0; s < n; s++)
        CHECK_PATTERN(buf + s * slot, (size_t)slot, put_seed(s, me, 1));
    CHECK_GUARDS(buf, len);

    conf_phase("get slots back from every MPB");
    for (int j = 0; j < n; j++) {
        int t = (me + n - j) % n;
        char *dst = conf_galloc((size_t)slot * 2, 3);
        memset(dst, 0, (size_t)slot * 2);
        CHECK_OK(RCCE_get((t_vcharp)dst, region + me * slot, slot, t));
        CHECK_PATTERN(dst, (size_t)slot, put_seed(me, t, 1));
        int other = (me + 1) % n;
        CHECK_OK(RCCE_get((t_vcharp)dst + slot, region + other * slot, slot,
                          t));
        CHECK_PATTERN(dst + slot, (size_t)slot, put_seed(other, t, 1));
        CHECK_GUARDS(dst, (size_t)slot * 2);
        conf_gfree(dst);
    }
    barrier();

    conf_phase("put from my MPB into the right neighbour's MPB");
    int right = (me + 1) % n, left = (me + n - 1) % n;
    /* region + me*slot holds put_seed(me, me, 1) in my MPB */
    CHECK_OK(RCCE_put(region2, region + me * slot, slot, right));
    barrier();
    memset(buf, 0, (size_t)slot);
    CHECK_OK(RCCE_get((t_vcharp)buf, region2, slot, me));
    CHECK_PATTERN(buf, (size_t)slot, put_seed(left, left, 1));
    barrier();

    conf_phase("get into my MPB from the left neighbour's MPB");
    /* slot 0 of the left neighbour's region is put_seed(0, left, 1) */
    CHECK_OK(RCCE_get(region2, region, slot, left));
    memset(buf, 0, (size_t)slot);
    CHECK_OK(RCCE_get((t_vcharp)buf, region2, slot, me));
    CHECK_PATTERN(buf, (size_t)slot, put_seed(0, left, 1));
    barrier();

    conf_gfree(buf);
    RCCE_free(region2);
    RCCE_free(region);
}

static void test_chars(void)
{
    const int bytes = ((n + RCCE_LINE_SIZE - 1) / RCCE_LINE_SIZE + 1) *
                      RCCE_LINE_SIZE;
    t_vcharp cr = RCCE_malloc((size_t)bytes);
    CHECK(cr != NULL);
    char *buf = conf_galloc((size_t)bytes, 0);

    conf_phase("put_char: prefill");
    memset(buf, 0x11, (size_t)bytes);
    CHECK_OK(RCCE_put(cr, (t_vcharp)buf, bytes, me));
    barrier();

    conf_phase("put_char: my byte into every MPB");
    for (int j = 0; j < n; j++) {
        int t = (me + j) % n;
        CHECK_OK(RCCE_put_char(cr + me, (char)(0x40 + me), t));
    }
    barrier();

    conf_phase("put_char: check");
    /* one report per MPB at most; the rest of the test goes on */
    CHECK_OK(RCCE_get((t_vcharp)buf, cr, bytes, me));
    for (int i = 0; i < bytes; i++) {
        int want = i < n ? 0x40 + i : 0x11;
        if ((unsigned char)buf[i] != want) {
            conf_soft(__FILE__, __LINE__, "put_char landed",
                      "byte %d of my MPB is 0x%02x, expected 0x%02x "
                      "(concurrent put_char to one line lost a byte?)",
                      i, (unsigned char)buf[i], want);
            break;
        }
    }
    for (int j = 0; j < n; j++) {
        int t = (me + j) % n;
        for (int i = 0; i < n + 2 && i < bytes; i++) {
            char c = 0;
            CHECK_OK(RCCE_get_char(&c, cr + i, t));
            int want = i < n ? 0x40 + i : 0x11;
            if ((unsigned char)c != want) {
                conf_soft(__FILE__, __LINE__, "get_char",
                          "byte %d of UE %d is 0x%02x, expected 0x%02x", i,
                          t, (unsigned char)c, want);
                break;
            }
        }
    }
    barrier();

    /* many rounds of everybody writing its own byte of the same lines of
     * UE 0's MPB: a byte store must not rewrite its neighbours (on the
     * chip the write-combine buffer sends only the bytes written) */
    conf_phase("put_char: neighbours in one line, many rounds");
    const int rounds = n <= 8 ? 20000 : 1000;
    for (int k = 1; k <= rounds; k++)
        CHECK_OK(RCCE_put_char(cr + me, (char)((k + me) & 0x7f), 0));
    barrier();
    if (me == 0) {
        CHECK_OK(RCCE_get((t_vcharp)buf, cr, bytes, 0));
        for (int i = 0; i < n; i++) {
            int want = (rounds + i) & 0x7f;
            if ((unsigned char)buf[i] != want) {
                conf_soft(__FILE__, __LINE__, "put_char kept neighbours",
                          "byte %d (UE %d's) is 0x%02x, expected 0x%02x: "
                          "another UE's put_char rewrote it", i, i,
                          (unsigned char)buf[i], want);
                break;
            }
        }
    }
    barrier();
    conf_gfree(buf);
    RCCE_free(cr);
}

/* ---- flags ---- */

static void test_flags(void)
{
    enum { EXTRA = 2 };
    RCCE_FLAG fl[RCCE_MAXNP + EXTRA];
    int nf = n + EXTRA;
    RCCE_FLAG_STATUS v;

    conf_phase("flag_alloc");
    memset(fl, 0, sizeof fl);
    for (int i = 0; i < nf; i++)
        CHECK_OK(RCCE_flag_alloc(&fl[i]));
    for (int i = 0; i < nf; i++)
        CHECK_OK(RCCE_flag_write(&fl[i], RCCE_FLAG_UNSET, me));
    barrier();

    conf_phase("flags are independent");
    for (int i = 0; i < nf; i++) {
        CHECK_OK(RCCE_flag_write(&fl[i], RCCE_FLAG_SET, me));
        for (int j = 0; j < nf; j++) {
            v = -1;
            CHECK_OK(RCCE_flag_read(fl[j], &v, me));
            CHECKF(v == (i == j ? RCCE_FLAG_SET : RCCE_FLAG_UNSET),
                   "flag %d reads %d after setting flag %d", j, v, i);
            CHECK_EQ(RCCE_probe(fl[j]) != 0, i == j);
        }
        /* waiting for the value it already has returns */
        CHECK_OK(RCCE_wait_until(fl[i], RCCE_FLAG_SET));
        CHECK_OK(RCCE_flag_write(&fl[i], RCCE_FLAG_UNSET, me));
        CHECK_OK(RCCE_wait_until(fl[i], RCCE_FLAG_UNSET));
    }
    barrier();

    /* all UEs write their flag of one target at the same time: with
     * SINGLEBITFLAGS these are bits of one line, so a read-modify-write
     * without the target's lock loses some of them */
    for (int t = 0; t < n; t++) {
        conf_phase("everybody sets a flag of UE %d", t);
        for (int rep = 0; rep < 3; rep++)
            CHECK_OK(RCCE_flag_write(&fl[me], RCCE_FLAG_SET, t));
        barrier();
        if (me == t) {
            for (int s = 0; s < nf; s++) {
                v = -1;
                CHECK_OK(RCCE_flag_read(fl[s], &v, me));
                CHECKF(v == (s < n ? RCCE_FLAG_SET : RCCE_FLAG_UNSET),
                       "flag %d of UE %d is %d", s, t, v);
                CHECK_EQ(RCCE_probe(fl[s]) != 0, s < n);
            }
        }
        for (int s = 0; s < n; s++) {
            v = -1;
            CHECK_OK(RCCE_flag_read(fl[s], &v, t));
            CHECKF(v == RCCE_FLAG_SET, "remote read of flag %d of UE %d: %d",
                   s, t, v);
        }
        barrier();
        conf_phase("everybody clears a flag of UE %d", t);
        CHECK_OK(RCCE_flag_write(&fl[me], RCCE_FLAG_UNSET, t));
        barrier();
        if (me == t)
            for (int s = 0; s < nf; s++) {
                v = -1;
                CHECK_OK(RCCE_flag_read(fl[s], &v, me));
                CHECKF(v == RCCE_FLAG_UNSET, "flag %d of UE %d is %d", s, t,
                       v);
                CHECK_EQ(RCCE_probe(fl[s]) != 0, 0);
            }
        barrier();
    }

    /* ping-pong through wait_until between UE 0 and each other UE */
    for (int p = 1; p < n; p++) {
        conf_phase("flag ping-pong 0 <-> %d", p);
        for (int k = 0; k < 10; k++) {
            if (me == 0) {
                CHECK_OK(RCCE_flag_write(&fl[0], RCCE_FLAG_SET, p));
                CHECK_OK(RCCE_wait_until(fl[p], RCCE_FLAG_SET));
                CHECK_OK(RCCE_flag_write(&fl[p], RCCE_FLAG_UNSET, 0));
            } else if (me == p) {
                CHECK_OK(RCCE_wait_until(fl[0], RCCE_FLAG_SET));
                CHECK_OK(RCCE_flag_write(&fl[0], RCCE_FLAG_UNSET, p));
                CHECK_OK(RCCE_flag_write(&fl[p], RCCE_FLAG_SET, 0));
            }
        }
    }
    barrier();

    conf_phase("flag_free");
    for (int i = 0; i < nf; i++)
        CHECK_OK(RCCE_flag_free(&fl[i]));
    barrier();

    /* temporary flags, allocated and freed over and over (more often than
     * an MPB has bits): freeing must give the space back every time */
    conf_phase("flag alloc/free cycles");
    for (int k = 0; k < 70000; k++) {
        RCCE_FLAG t;
        int rc = RCCE_flag_alloc(&t);
        CHECKF(rc == RCCE_SUCCESS, "flag_alloc fails after %d alloc/free "
               "cycles: %d %s", k, rc, conf_code_name(rc));
        CHECK_OK(RCCE_flag_free(&t));
    }

    conf_phase("flag_alloc until exhausted");
    enum { FLAG_LIMIT = 70000 };
    RCCE_FLAG *many = calloc(FLAG_LIMIT, sizeof *many);
    CHECK(many != NULL);
    int nmany = 0;
    while (nmany < FLAG_LIMIT && RCCE_flag_alloc(&many[nmany]) == RCCE_SUCCESS)
        nmany++;
    CHECKF(nmany < FLAG_LIMIT, "%d flags and still no refusal", nmany);
#ifdef SINGLEBITFLAGS
    CHECKF(nmany >= 8 * total_lines, "only %d bit flags fit", nmany);
#else
    CHECKF(nmany == total_lines, "%d line flags fit, %d lines were free",
           nmany, total_lines);
#endif
    CHECK(RCCE_malloc(RCCE_LINE_SIZE) == NULL);
    for (int i = 0; i < nmany; i++)
        CHECK_OK(RCCE_flag_free(&many[i]));
    free(many);
    /* the MPB lines came back (a bit-flag library may keep one line) */
    t_vcharp big = RCCE_malloc((size_t)(total_lines - 1) * RCCE_LINE_SIZE);
    CHECKF(big != NULL, "freeing the flags did not give their lines back");
    RCCE_free(big);
    barrier();
}

/* ---- gory send/recv ---- */

static uint32_t msg_seed(int src, int dst, size_t size, size_t chunk)
{
    return 0x77000u + (uint32_t)src * 131u + (uint32_t)dst * 7u +
           (uint32_t)size * 3u + (uint32_t)chunk * 100003u;
}

static void gsend(t_vcharp combuf, size_t chunk, RCCE_FLAG *ready,
                  RCCE_FLAG *sent, int dst, size_t size)
{
    char *buf = conf_galloc(size, size % 5 + 1);
    uint32_t seed = msg_seed(me, dst, size, chunk);
    conf_fill(buf, size, seed);
    CHECK_OK(RCCE_send(buf, combuf, chunk, ready, sent, size, dst));
    CHECK_PATTERN(buf, size, seed);
    conf_gfree(buf);
}

static void grecv(t_vcharp combuf, size_t chunk, RCCE_FLAG *ready,
                  RCCE_FLAG *sent, int src, size_t size)
{
    char *buf = conf_galloc(size, size % 3 + 2);
    memset(buf, 0x99, size);
    CHECK_OK(RCCE_recv(buf, combuf, chunk, ready, sent, size, src));
    CHECK_PATTERN(buf, size, msg_seed(src, me, size, chunk));
    CHECK_GUARDS(buf, size);
    conf_gfree(buf);
}

static void test_gory_sendrecv(void)
{
    if (n < 2)
        return;
    size_t chunks[3] = {32, 1024, 0};
    /* the largest buffer that leaves room for the two flags */
    chunks[2] = (size_t)(total_lines - 2) * RCCE_LINE_SIZE;
    int right = (me + 1) % n, left = (me + n - 1) % n;

    for (int ci = 0; ci < 3; ci++) {
        size_t chunk = chunks[ci];
        RCCE_FLAG ready, sent;
        memset(&ready, 0, sizeof ready);
        memset(&sent, 0, sizeof sent);
        conf_phase("gory setup chunk %zu", chunk);
        t_vcharp combuf = RCCE_malloc(chunk);
        CHECK(combuf != NULL);
        CHECK_OK(RCCE_flag_alloc(&ready));
        CHECK_OK(RCCE_flag_alloc(&sent));
        CHECK_OK(RCCE_flag_write(&ready, RCCE_FLAG_UNSET, me));
        CHECK_OK(RCCE_flag_write(&sent, RCCE_FLAG_UNSET, me));
        barrier();

        size_t sizes[] = {0,         1,     31,    32,          33,
                          chunk - 1, chunk, chunk + 1, 3 * chunk + 17,
                          100000};
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t size = sizes[si];
            if (chunk == 32 && size > 20000)
                continue; /* 3000 flag round trips: enough is enough */
            conf_phase("gory ring chunk %zu size %zu", chunk, size);
            if (me % 2 == 0) {
                gsend(combuf, chunk, &ready, &sent, right, size);
                grecv(combuf, chunk, &ready, &sent, left, size);
            } else {
                grecv(combuf, chunk, &ready, &sent, left, size);
                gsend(combuf, chunk, &ready, &sent, right, size);
            }
        }
        barrier();

        /* recv_test: nothing announced yet, then completes */
        size_t size = 2 * chunk + 5;
        conf_phase("gory recv_test chunk %zu", chunk);
        if (me == 1) {
            char *buf = conf_galloc(size, 7);
            int test = -1;
            CHECK_OK(RCCE_recv_test(buf, combuf, chunk, &ready, &sent, size,
                                    0, &test));
            CHECK_EQ(test, 0);
            barrier();
            do {
                test = -1;
                CHECK_OK(RCCE_recv_test(buf, combuf, chunk, &ready, &sent,
                                        size, 0, &test));
                CHECK(test == 0 || test == 1);
                if (!test)
                    sched_yield();
            } while (!test);
            CHECK_PATTERN(buf, size, msg_seed(0, 1, size, chunk));
            CHECK_GUARDS(buf, size);
            conf_gfree(buf);
        } else {
            barrier();
            if (me == 0)
                gsend(combuf, chunk, &ready, &sent, 1, size);
        }
        barrier();

        CHECK_OK(RCCE_flag_free(&ready));
        CHECK_OK(RCCE_flag_free(&sent));
        RCCE_free(combuf);
        barrier();
    }
}

int main(int argc, char **argv)
{
    conf_watchdog();
    CHECK_OK(RCCE_init(&argc, &argv));
    conf_started();
    me = RCCE_ue();
    n = RCCE_num_ues();

    test_malloc();
    barrier();
    test_malloc_request();
    barrier();
    test_put_get();
    test_chars();
    test_flags();
    test_gory_sendrecv();

    conf_phase("finalize");
    barrier();
    CHECK_OK(RCCE_finalize());
    conf_soft_exit(); /* after finalize, so the other UEs end cleanly */
    return 0;
}
