/*
 * The memory controller's queue (src/backends/sim/sim_mc.c) against a
 * plain first-fit list: random bookings, out of time order, with a rising
 * floor, give exactly the reference's service starts while the table has
 * room; past its capacity the answers are never earlier than the
 * reference's (closing gaps is pessimistic, never optimistic), and the
 * zero-load controller (NULL) serves at arrival. The queue's two forms
 * (a sorted list while few intervals are promised, the tree above) give
 * the same answers across their moves.
 */
#include "sim_mc.h"
#include "unit.h"

#include <stdlib.h>
#include <string.h>

/* The reference: sorted, disjoint [start, end) intervals in an array. */
typedef struct {
    uint64_t (*iv)[2];
    size_t n, cap;
} ref_t;

static uint64_t ref_reserve(ref_t *r, uint64_t arrive, uint64_t dur,
                            uint64_t floor)
{
    uint64_t t = arrive;
    size_t i, k = 0;

    while (k < r->n && r->iv[k][1] <= floor)
        k++;
    if (k > 0) {
        memmove(r->iv, r->iv + k, (r->n - k) * sizeof(r->iv[0]));
        r->n -= k;
    }
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

static uint64_t rnd(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* @p streams cores each book a stream of transactions, one core's whole
 * slice at a time (as the P54C model does), @p rounds times. */
static void compare(int streams, int rounds, int exact)
{
    sim_mc_t *mc = calloc(1, sizeof(*mc));
    ref_t ref = {0};
    uint64_t x = 88172645463325252ull, floor = 0;
    uint64_t *now = calloc((size_t)streams, sizeof(uint64_t));
    long mismatches = 0, earlier = 0;

    for (int r = 0; r < rounds; r++) {
        for (int c = 0; c < streams; c++) {
            uint64_t t = now[c];
            int len = 1 + (int)(rnd(&x) % 200);
            for (int k = 0; k < len; k++) {
                uint64_t dur = 20 + rnd(&x) % 40;
                uint64_t a = sim_mc_reserve(mc, t, dur, floor);
                uint64_t b = ref_reserve(&ref, t, dur, floor);
                mismatches += a != b;
                earlier += a < b;
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
    if (exact)
        CHECK(mismatches == 0);
    CHECK(earlier == 0);
    CHECK(mc->accesses > 0);
    free(now);
    free(ref.iv);
    free(mc);
}

/* The two forms (the sorted list while few intervals are promised, the
 * tree above): bursts of many cores without a floor fill it into the
 * tree, a floor that jumps forgets it back into the list, many times
 * over; every answer as the reference's, and both moves seen. */
static void list_and_tree(void)
{
    sim_mc_t *mc = calloc(1, sizeof(*mc));
    ref_t ref = {0};
    uint64_t x = 0x2545f4914f6cdd1dull, floor = 0, base = 0;
    long mismatches = 0, to_tree = 0, to_list = 0;
    uint32_t was = mc->treap;

    for (int burst = 0; burst < 40; burst++) {
        int cores = 1 + (int)(rnd(&x) % 48);
        for (int c = 0; c < cores; c++) {
            uint64_t t = base + rnd(&x) % 3000;
            int len = 1 + (int)(rnd(&x) % 40);
            for (int k = 0; k < len; k++) {
                uint64_t dur = 10 + rnd(&x) % 30;
                uint64_t a = sim_mc_reserve(mc, t, dur, floor);
                uint64_t b = ref_reserve(&ref, t, dur, floor);
                mismatches += a != b;
                to_tree += !was && mc->treap;
                to_list += was && !mc->treap;
                was = mc->treap;
                t = a + dur + rnd(&x) % 100;
            }
        }
        /* every other burst the floor passes almost everything */
        if (burst % 2 == 1 && ref.n > 0) {
            floor = ref.iv[ref.n - 1][1] - 1;
            base = floor + 1;
        }
    }
    CHECK(mismatches == 0);
    CHECK(to_tree > 0);
    CHECK(to_list > 0);
    free(ref.iv);
    free(mc);
}

/* No floor: the table fills and closes gaps; still never optimistic. */
static void full_table(void)
{
    sim_mc_t *mc = calloc(1, sizeof(*mc));
    ref_t ref = {0};
    long earlier = 0;

    for (uint64_t i = 0; i < 3 * (uint64_t)SIM_MC_NODES; i++) {
        uint64_t t = i * 100;
        uint64_t a = sim_mc_reserve(mc, t, 30, 0);
        uint64_t b = ref_reserve(&ref, t, 30, 0);
        earlier += a < b;
    }
    CHECK(earlier == 0);
    CHECK(mc->n < SIM_MC_NODES);
    /* a request in the middle of the past still gets an answer */
    CHECK(sim_mc_reserve(mc, 1000, 30, 0) >= 1000);
    free(ref.iv);
    free(mc);
}

int main(void)
{
    CHECK(sim_mc_reserve(NULL, 1234, 50, 0) == 1234);
    compare(1, 200, 1);
    compare(4, 300, 1);
    compare(12, 100, 1);
    list_and_tree();
    full_table();
    if (failures == 0)
        printf("test_sim_mc: ok\n");
    return failures != 0;
}
