/*
 * The memory controller's queue (src/backends/sim/sim_mc.c) against a
 * plain first-fit list with the same rules (forgetting when the floor
 * rises; closing the smallest eighth of the gaps when a request finds
 * SIM_MC_NODES - 2 intervals): every answer must be the reference's,
 * booking in order, out of order from many cores, far past the array's
 * length (the room wraps), and past the table's capacity (compaction).
 * After each booking the gap buffer must hold the reference's intervals
 * exactly, in order, in its two parts, and its counts (bookings, ticks
 * waited) must be the reference's. The zero-load controller (NULL)
 * serves at arrival.
 *
 * The run calls (sim_mc_chain, the snapshots and sim_mc_move) against the
 * same reference booked one request at a time: a chain must leave the
 * reference's intervals and counts, through compactions too; a booking
 * that repeats itself, moved ahead by sim_mc_move, must leave what the
 * reference's bookings of every period leave. Each comparison is also
 * run with a bug planted (a step one tick off, a move one period short,
 * a snapshot moved by the wrong amount) and must then fail.
 */
#include "sim_mc.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

/* The reference: sorted, disjoint [start, end) intervals in an array. */
typedef struct {
    uint64_t (*iv)[2];
    size_t n, cap;
    uint64_t forgot;
    long compactions;
} ref_t;

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

    return x < y ? -1 : x > y;
}

/* Close every gap no longer than the ((n - 1) / 8)-th smallest. */
static void ref_compact(ref_t *r)
{
    size_t m = 0;
    uint64_t *g = malloc(r->n * sizeof(uint64_t)), limit;

    for (size_t i = 0; i + 1 < r->n; i++)
        g[i] = r->iv[i + 1][0] - r->iv[i][1];
    qsort(g, r->n - 1, sizeof(uint64_t), cmp_u64);
    limit = g[(r->n - 1) / 8];
    for (size_t i = 0; i < r->n; i++) {
        if (m > 0 && r->iv[i][0] - r->iv[m - 1][1] <= limit) {
            r->iv[m - 1][1] = r->iv[i][1];
        } else {
            r->iv[m][0] = r->iv[i][0];
            r->iv[m][1] = r->iv[i][1];
            m++;
        }
    }
    r->n = m;
    r->compactions++;
    free(g);
}

static uint64_t ref_reserve(ref_t *r, uint64_t arrive, uint64_t dur,
                            uint64_t floor)
{
    uint64_t t = arrive;
    size_t i, k = 0;

    if (floor > r->forgot) {
        while (k < r->n && r->iv[k][1] <= floor)
            k++;
        if (k > 0) {
            memmove(r->iv, r->iv + k, (r->n - k) * sizeof(r->iv[0]));
            r->n -= k;
        }
        r->forgot = floor;
    }
    if (r->n >= SIM_MC_NODES - 2)
        ref_compact(r);
    {
        size_t lo = 0, hi = r->n; /* the first interval ending after t */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (r->iv[mid][1] <= t)
                lo = mid + 1;
            else
                hi = mid;
        }
        i = lo;
    }
    for (; i < r->n && r->iv[i][0] < t + dur; i++)
        t = r->iv[i][1];
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 1024;
        r->iv = realloc(r->iv, r->cap * sizeof(r->iv[0]));
    }
    memmove(r->iv + i + 1, r->iv + i, (r->n - i) * sizeof(r->iv[0]));
    r->iv[i][0] = t;
    r->iv[i][1] = t + dur;
    r->n++;
    /* merge touching neighbours, as the controller does */
    if (i + 1 < r->n && r->iv[i + 1][0] == r->iv[i][1]) {
        r->iv[i][1] = r->iv[i + 1][1];
        memmove(r->iv + i + 1, r->iv + i + 2,
                (r->n - i - 2) * sizeof(r->iv[0]));
        r->n--;
    }
    if (i > 0 && r->iv[i - 1][1] == r->iv[i][0]) {
        r->iv[i - 1][1] = r->iv[i][1];
        memmove(r->iv + i, r->iv + i + 1, (r->n - i - 1) * sizeof(r->iv[0]));
        r->n--;
    }
    return t;
}

/* Does the gap buffer hold exactly the reference's intervals? */
static int same_state(const sim_mc_t *mc, const ref_t *r)
{
    uint32_t nf = mc->gap - mc->lo, hi = SIM_MC_NODES - mc->nb;

    if (mc->lo > mc->gap || mc->gap > hi || mc->n != nf + mc->nb ||
        mc->n != r->n)
        return 0;
    for (uint32_t i = 0; i < mc->n; i++) {
        const sim_iv_t *v = i < nf ? &mc->iv[mc->lo + i]
                                   : &mc->iv[hi + (i - nf)];
        if (v->s != r->iv[i][0] || v->e != r->iv[i][1])
            return 0;
    }
    return 1;
}

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* A run against the reference: mismatched answers, states checked (every
 * @p every bookings) that differ. */
typedef struct {
    sim_mc_t *mc;
    ref_t ref;
    long bookings, mismatches, bad_states, every;
    uint64_t waited;           /* the reference's waits, summed */
} run_t;

static run_t *run_new(long every)
{
    run_t *u = calloc(1, sizeof(*u));

    u->mc = calloc(1, sizeof(*u->mc)); /* all zeros: empty */
    u->every = every;
    return u;
}

static uint64_t run_book(run_t *u, uint64_t t, uint64_t dur, uint64_t floor)
{
    uint64_t a = sim_mc_reserve(u->mc, t, dur, floor);
    uint64_t b = ref_reserve(&u->ref, t, dur, floor);

    u->mismatches += a != b;
    u->waited += b - t;
    if (u->every > 0 && u->bookings % u->every == 0)
        u->bad_states += !same_state(u->mc, &u->ref);
    u->bookings++;
    return b;
}

static void run_end(run_t *u)
{
    CHECK(u->mismatches == 0);
    CHECK(u->bad_states == 0);
    CHECK(same_state(u->mc, &u->ref));
    CHECK(u->mc->accesses == (uint64_t)u->bookings);
    CHECK(u->mc->queued == u->waited);
    free(u->ref.iv);
    free(u->mc);
    free(u);
}

/* @p streams cores each book a stream of transactions, one core's whole
 * slice at a time (as the P54C model does), @p rounds times: the room
 * jumps back to each core's slice and walks forward with it. */
static void compare(int streams, int rounds)
{
    run_t *u = run_new(1);
    uint64_t x = 88172645463325252ull, floor = 0;
    uint64_t *now = calloc((size_t)streams, sizeof(uint64_t));

    for (int r = 0; r < rounds; r++) {
        for (int c = 0; c < streams; c++) {
            uint64_t t = now[c];
            int len = 1 + (int)(rnd(&x) % 200);
            for (int k = 0; k < len; k++) {
                uint64_t dur = 20 + rnd(&x) % 40;
                uint64_t a = run_book(u, t, dur, floor);
                t = a + dur + rnd(&x) % 150;
            }
            now[c] = t;
        }
        /* the floor: the earliest core, less a lookahead */
        floor = now[0];
        for (int c = 1; c < streams; c++)
            floor = now[c] < floor ? now[c] : floor;
        floor = floor > 500 ? floor - 500 : 0;
    }
    free(now);
    run_end(u);
}

/* One core, as the P54C model books a DRAM-bound slice: line fills of
 * two reads in flight, write-backs that run ahead of the core, the floor
 * at each issue less @p lookahead. Many times the array's length: the
 * window of live intervals slides to the array's end and moves back to
 * its start, again and again (with a lookahead it never empties on the
 * way), while bookings land just before the latest ones. With @p far, an
 * interval far in the future stays in the second part throughout. */
static void sliding(uint64_t lookahead, int far)
{
    run_t *u = run_new(97);
    uint64_t x = 0x9e3779b97f4a7c15ull, t = 0, wr = 0;

    if (far)
        run_book(u, (uint64_t)1 << 60, 100, 0);
    for (long i = 0; i < 6L * SIM_MC_NODES; i++) {
        uint64_t fl = t > lookahead ? t - lookahead : 0;
        uint64_t r0 = run_book(u, t + 5, 30, fl);
        run_book(u, t + 5, 30, fl);
        if (rnd(&x) % 3 == 0) {
            uint64_t s = wr > t ? wr : t;
            wr = run_book(u, s + 40, 60, fl) + 60;
        }
        t = r0 + 20 + rnd(&x) % 50;
    }
    CHECK(u->mc->n < 64 + lookahead / 8);
    CHECK(lookahead == 0 || u->mc->n >= 2);
    run_end(u);
}

/* Bursts of many cores without a floor fill many intervals, a floor that
 * jumps forgets nearly all of them (into the second part too). */
static void bursts(void)
{
    run_t *u = run_new(1);
    uint64_t x = 0x2545f4914f6cdd1dull, floor = 0, base = 0;

    for (int burst = 0; burst < 40; burst++) {
        int cores = 1 + (int)(rnd(&x) % 48);
        for (int c = 0; c < cores; c++) {
            uint64_t t = base + rnd(&x) % 3000;
            int len = 1 + (int)(rnd(&x) % 40);
            for (int k = 0; k < len; k++) {
                uint64_t dur = 10 + rnd(&x) % 30;
                uint64_t a = run_book(u, t, dur, floor);
                t = a + dur + rnd(&x) % 100;
            }
        }
        /* every other burst the floor passes almost everything */
        if (burst % 2 == 1 && u->ref.n > 0) {
            floor = u->ref.iv[u->ref.n - 1][1] - 1;
            base = floor + 1;
        }
    }
    run_end(u);
}

/* No floor: the table fills and closes gaps, many times; every answer
 * and state still the reference's, and the table never overflows. A
 * request in the middle of the past still gets an answer. */
static void full_table(void)
{
    run_t *u = run_new(4099);
    uint64_t x = 0x1234567887654321ull;

    for (uint64_t i = 0; i < 3 * (uint64_t)SIM_MC_NODES; i++)
        run_book(u, i * 100 + rnd(&x) % 64, 30, 0);
    /* out of order, from the past, into a full table */
    for (int i = 0; i < 5000; i++)
        run_book(u, (rnd(&x) % (3 * (uint64_t)SIM_MC_NODES)) * 100, 25, 0);
    CHECK(u->ref.compactions >= 2);
    CHECK(u->mc->n < SIM_MC_NODES - 1);
    CHECK(run_book(u, 1000, 30, 0) >= 1000);
    run_end(u);
}


/* A chain of @p count requests (each @p step after the previous one's
 * service start), from @p arrive, under @p floor, on both; with @p bug,
 * the controller's chain steps one tick more. @return 1 if the answers,
 * the states and the counts agree. */
static int chain_same(run_t *u, uint64_t arrive, uint64_t dur, uint64_t step,
                      uint64_t count, uint64_t floor, int bug)
{
    uint64_t last = 0, a = arrive, served = 0;
    uint64_t s = sim_mc_chain(u->mc, arrive, dur, step + (bug ? 1 : 0),
                              count, floor, &last);

    for (uint64_t i = 0; i < count; i++) {
        served = ref_reserve(&u->ref, a, dur, floor);
        u->waited += served - a;
        u->bookings++;
        if (i + 1 < count)
            a = served + step;
    }
    return s == served && last == a && same_state(u->mc, &u->ref) &&
           u->mc->accesses == (uint64_t)u->bookings &&
           u->mc->queued == u->waited;
}

/* Chains on an empty controller, behind other cores' intervals (some in
 * the way, some far ahead: the room is not at the end), and long enough
 * to fill the table (compactions). */
static void chains(void)
{
    run_t *u = run_new(0);
    uint64_t x = 0x5deece66dull;

    {
        uint64_t last = 0;
        CHECK(sim_mc_chain(NULL, 100, 30, 80, 3, 0, &last) == 260);
        CHECK(last == 260);
        CHECK(sim_mc_chain(u->mc, 100, 30, 80, 0, 0, &last) == 100);
        CHECK(last == 100 && u->mc->n == 0 && u->mc->accesses == 0);
    }
    CHECK(chain_same(u, 1000, 30, 80, 1, 500, 0));
    CHECK(chain_same(u, 2000, 30, 80, 500, 1500, 0));
    CHECK(chain_same(u, 2000, 30, 30, 200, 1500, 0)); /* touching */
    /* other cores' intervals in the way and far ahead */
    for (int i = 0; i < 300; i++)
        run_book(u, 100000 + rnd(&x) % 100000, 20 + rnd(&x) % 50, 1500);
    run_book(u, (uint64_t)1 << 50, 100, 1500);
    CHECK(chain_same(u, 90000, 25, 70, 4000, 1500, 0));
    /* past the table's capacity, the floor held back */
    CHECK(chain_same(u, (uint64_t)1 << 40, 30, 95,
                     3 * (uint64_t)SIM_MC_NODES, 2000, 0));
    CHECK(u->ref.compactions >= 2);
    CHECK(chain_same(u, ((uint64_t)1 << 40) + 5, 30, 95, 1000, 2000, 0));
    run_end(u);
    /* planted: a chain one tick off per step must be caught */
    u = run_new(0);
    CHECK(!chain_same(u, 2000, 30, 80, 50, 1500, 1));
    free(u->ref.iv);
    free(u->mc);
    free(u);
}

/* One period of a core's DRAM-bound booking from @p t, as the P54C model
 * books a line fill and a write-around with the floor at the issue time
 * less @p la: two reads in flight, eight reads, then a write after them.
 * @return the next issue time. */
static uint64_t period(run_t *u, uint64_t t, uint64_t la)
{
    uint64_t fl[2] = {t, t}, done = t;

    for (int d = 0; d < 8; d++) {
        uint64_t ready = fl[d % 2] > t ? fl[d % 2] : t;
        uint64_t f = ready > la ? ready - la : 0;
        fl[d % 2] = run_book(u, ready + 7, 31, f) + 31 + 4;
        done = fl[d % 2] > done ? fl[d % 2] : done;
    }
    done = run_book(u, done + 7, 40, done > la ? done - la : 0) + 44;
    return done + 13;
}

/* A booking that repeats itself: after a few periods, two in a row leave
 * the controller moved by the period; moving it @p m periods ahead must
 * leave what @p m more periods booked one by one leave (with @p bug, a
 * move one period short, which must then differ). */
static int moved_same(uint64_t la, uint64_t m, int bug)
{
    run_t *u = run_new(0);
    sim_mc_snap_t a, b;
    uint64_t t = 5000, t1, d, acc, q;
    int ok = 1;

    for (int i = 0; i < 4; i++)
        t = period(u, t, la);
    ok &= sim_mc_snap(u->mc, &a);
    t1 = period(u, t, la);
    ok &= sim_mc_snap(u->mc, &b);
    d = t1 - t;
    ok &= sim_mc_snap_moved(&a, &b, d);
    /* planted: the same snapshots moved by another amount are not */
    ok &= !sim_mc_snap_moved(&a, &b, d + 1);
    acc = b.accesses - a.accesses;
    q = b.queued - a.queued;
    sim_mc_move(u->mc, d * (m - (bug ? 1 : 0)), acc * m, q * m);
    t = t1;
    for (uint64_t i = 0; i < m; i++) {
        uint64_t a0 = u->bookings;
        /* the reference alone */
        uint64_t fl[2] = {t, t}, done = t;
        for (int k = 0; k < 8; k++) {
            uint64_t ready = fl[k % 2] > t ? fl[k % 2] : t;
            uint64_t f = ready > la ? ready - la : 0;
            uint64_t s = ref_reserve(&u->ref, ready + 7, 31, f);
            u->waited += s - (ready + 7);
            fl[k % 2] = s + 31 + 4;
            done = fl[k % 2] > done ? fl[k % 2] : done;
        }
        {
            uint64_t f = done > la ? done - la : 0;
            uint64_t s = ref_reserve(&u->ref, done + 7, 40, f);
            u->waited += s - (done + 7);
            done = s + 44;
        }
        u->bookings = a0 + 9;
        t = done + 13;
    }
    ok &= t - t1 == d * m;
    ok &= same_state(u->mc, &u->ref);
    ok &= u->mc->accesses == (uint64_t)u->bookings;
    ok &= u->mc->queued == u->waited;
    ok &= u->mc->forgot == u->ref.forgot;
    free(u->ref.iv);
    free(u->mc);
    free(u);
    return ok;
}

static void moves(void)
{
    sim_mc_snap_t s;
    sim_mc_t *mc = calloc(1, sizeof(*mc));

    CHECK(moved_same(0, 1, 0));
    CHECK(moved_same(0, 1000, 0));
    CHECK(moved_same(300, 777, 0)); /* a lookahead: several periods live */
    CHECK(!moved_same(0, 1000, 1)); /* planted: one period short */
    CHECK(!moved_same(300, 10, 1));
    /* a snapshot refuses more than SIM_MC_SNAP intervals */
    for (int i = 0; i <= SIM_MC_SNAP; i++)
        sim_mc_reserve(mc, 100 * (uint64_t)i, 10, 0);
    CHECK(sim_mc_snap(mc, &s) == 0);
    free(mc);
}

int main(void)
{
    CHECK(sim_mc_reserve(NULL, 1234, 50, 0) == 1234);
    compare(1, 200);
    compare(4, 300);
    compare(12, 100);
    compare(48, 20);
    sliding(0, 0);
    sliding(3000, 0);
    sliding(3000, 1);
    bursts();
    full_table();
    chains();
    moves();
    if (failures == 0)
        printf("test_sim_mc: ok\n");
    return failures != 0;
}
