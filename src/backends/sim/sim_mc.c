/*
 * A memory controller's queue (sim_mc_reserve): the service intervals it
 * has promised, [start, end), sorted and disjoint, never touching (a
 * booking that touches a neighbour extends it).
 *
 * A request takes the first gap at or after its arrival that is long
 * enough, so requests are served in time order even when they are booked
 * out of it: a core that books a long slice of transactions at its next
 * HAL call leaves the gaps between them to the cores that book later
 * (the P54C model books whole compute slices; a stream's transactions are
 * one interval each). Intervals that end at or before the floor (no
 * request can arrive earlier any more) are forgotten, when the floor
 * rises. The table holds SIM_MC_NODES - 1 intervals; when a request finds
 * SIM_MC_NODES - 2 of them, the smallest eighth of the gaps are closed at
 * once (those gaps are lost: a little pessimistic, never optimistic).
 * These rules are the whole of the model: how the intervals are stored
 * changes no answer (tests/unit/test_sim_mc.c checks every answer
 * against a plain list with the same rules, past the capacity too).
 *
 * Storage: a gap buffer (sim_mc.h). The intervals lie in one array in
 * order, split in two around free room, and the room moves to where a
 * booking lands, copying the intervals it passes. The bookings come
 * nearly in order: one core books its slice's transactions in time order
 * (each lands at or just after the previous one, where the room already
 * is), a stream appends at the end, and forgetting drops a prefix. So a
 * booking costs the intervals it walks past and a search that starts at
 * the room (O(log d) for one that lands d intervals away), and a jump
 * back to another core's slice one copy of the intervals between.
 * Nothing is allocated or freed per booking.
 *
 * Runs (the P54C booking, docs/P54C.md "Booking in runs"): a chain of
 * requests under one floor, each a fixed step after the previous one's
 * service start, appended in a tight loop while the room is at the end
 * and the queue ahead free (sim_mc_chain: the same rules, so the same
 * answers as one sim_mc_reserve each); a small state's snapshot, and
 * every interval and the forgotten floor moved later at once
 * (sim_mc_move), for a booking that repeats itself.
 *
 * Owns: the controllers' queues. May call: nothing of the sim.
 */
#include "sim_mc.h"

#include <stddef.h>
#include <string.h>

#define CAP ((uint32_t)SIM_MC_NODES)

/* Where the second part starts. */
static inline uint32_t hi_of(const sim_mc_t *mc)
{
    return CAP - mc->nb;
}

/* The @p i-th interval in order (i < n). */
static inline sim_iv_t *at(sim_mc_t *mc, uint32_t i)
{
    uint32_t nf = mc->gap - mc->lo;

    return i < nf ? &mc->iv[mc->lo + i] : &mc->iv[hi_of(mc) + (i - nf)];
}

/* Move the room so that the first part holds the first @p p intervals
 * (p differs from the first part's length). */
static void move_gap_to(sim_mc_t *mc, uint32_t p)
{
    uint32_t nf = mc->gap - mc->lo;

    if (p < nf) {
        uint32_t cnt = nf - p;
        memmove(&mc->iv[hi_of(mc) - cnt], &mc->iv[mc->gap - cnt],
                (size_t)cnt * sizeof(sim_iv_t));
        mc->gap -= cnt;
        mc->nb += cnt;
    } else if (p > nf) {
        uint32_t cnt = p - nf;
        memmove(&mc->iv[mc->gap], &mc->iv[hi_of(mc)],
                (size_t)cnt * sizeof(sim_iv_t));
        mc->gap += cnt;
        mc->nb -= cnt;
    }
    if (mc->gap == mc->lo)
        mc->lo = mc->gap = 0; /* all the room in one piece */
}

/* Move the room so that the first part holds the first @p p intervals. */
static inline void move_gap(sim_mc_t *mc, uint32_t p)
{
    if (p != mc->gap - mc->lo)
        move_gap_to(mc, p);
}

/* Insert @p s, @p e as the @p p-th interval. */
static inline void insert_at(sim_mc_t *mc, uint32_t p, uint64_t s,
                             uint64_t e)
{
    move_gap(mc, p);
    if (mc->gap == hi_of(mc)) {
        /* no room between the parts: the room before the first part
         * (there is some: n < CAP) joins it */
        memmove(&mc->iv[0], &mc->iv[mc->lo],
                (size_t)(mc->gap - mc->lo) * sizeof(sim_iv_t));
        mc->gap -= mc->lo;
        mc->lo = 0;
    }
    mc->iv[mc->gap].s = s;
    mc->iv[mc->gap].e = e;
    mc->gap++;
    mc->n++;
}

/* Forget the intervals that end at or before @p floor: a prefix (the
 * intervals are disjoint, so their ends grow with their starts). */
static void forget(sim_mc_t *mc, uint64_t floor)
{
    while (mc->gap > mc->lo && mc->iv[mc->lo].e <= floor)
        mc->lo++;
    if (mc->gap == mc->lo) {
        mc->lo = mc->gap = 0;
        while (mc->nb > 0 && mc->iv[hi_of(mc)].e <= floor)
            mc->nb--;
    }
    mc->n = mc->gap - mc->lo + mc->nb;
}

/* The @p k-th smallest of @p v[0..n) (k < n), reordering v: quickselect
 * with the median of three as pivot (deterministic; no allocation). */
static uint64_t select_kth(uint64_t *v, uint32_t n, uint32_t k)
{
    uint32_t lo = 0, hi = n - 1;

    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2, i = lo, j = hi;
        uint64_t a = v[lo], b = v[mid], c = v[hi], pivot, t;
        pivot = a < b ? (b < c ? b : (a < c ? c : a))
                      : (a < c ? a : (b < c ? c : b));
        while (i <= j) {
            while (v[i] < pivot)
                i++;
            while (v[j] > pivot)
                j--;
            if (i <= j) {
                t = v[i];
                v[i] = v[j];
                v[j] = t;
                i++;
                if (j == 0)
                    break;
                j--;
            }
        }
        if (k <= j)
            hi = j;
        else if (k >= i)
            lo = i;
        else
            return v[k];
    }
    return v[k];
}

/* The table is full: close the smallest eighth of the gaps (every gap no
 * longer than the ((n - 1) / 8)-th smallest, counting from 0). */
static void compact(sim_mc_t *mc)
{
    uint32_t n, m = 0;
    sim_iv_t *a;
    uint64_t *gaps = mc->scratch, limit;

    move_gap(mc, mc->n); /* all of them in the first part, in order */
    a = &mc->iv[mc->lo];
    n = mc->n;
    for (uint32_t i = 0; i + 1 < n; i++)
        gaps[i] = a[i + 1].s - a[i].e;
    limit = n > 1 ? select_kth(gaps, n - 1, (n - 1) / 8) : 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m > 0 && a[i].s - a[m - 1].e <= limit) {
            a[m - 1].e = a[i].e;
        } else {
            a[m] = a[i];
            m++;
        }
    }
    mc->gap = mc->lo + m;
    mc->n = m;
}

/* the first i in [lo, hi] with v[i].s > t (hi if none in [lo, hi)),
 * given that v[lo - 1].s <= t and v[hi].s > t where they exist */
static uint32_t bisect_le(const sim_iv_t *v, uint32_t lo, uint32_t hi,
                          uint64_t t)
{
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (v[mid].s <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* How many intervals start at or before @p t: at the room first (where
 * the previous booking landed), else galloping away from it and then by
 * bisection (a core's next booking lands near its previous one). */
static uint32_t count_le(const sim_mc_t *mc, uint64_t t)
{
    uint32_t nf = mc->gap - mc->lo, lo, hi, step;
    const sim_iv_t *v;

    if (nf > 0 && mc->iv[mc->gap - 1].s > t) {
        /* in the first part: v[-step] for step = 1, 2, 4, ... until one
         * starts at or before t */
        v = &mc->iv[mc->gap];
        step = 2;
        while (step <= nf && v[-(int64_t)step].s > t)
            step *= 2;
        /* the answer lies in (nf - step, nf - step / 2] */
        lo = step <= nf ? nf - step + 1 : 0;
        hi = nf - step / 2;
        v = &mc->iv[mc->lo];
    } else if (mc->nb > 0 && mc->iv[hi_of(mc)].s <= t) {
        /* in the second part: v[step - 1] for step = 2, 4, ... until
         * one starts after t */
        v = &mc->iv[hi_of(mc)];
        step = 2;
        while (step <= mc->nb && v[step - 1].s <= t)
            step *= 2;
        /* the count within it lies in [step / 2, step - 1] */
        lo = step / 2;
        hi = step <= mc->nb ? step - 1 : mc->nb;
        return nf + bisect_le(v, lo, hi, t);
    } else {
        return nf;
    }
    return bisect_le(v, lo, hi, t);
}

uint64_t sim_mc_reserve(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                        uint64_t floor)
{
    uint64_t t = arrive;
    uint32_t n, k, c;
    int64_t prev;
    sim_iv_t *last;

    if (mc == NULL)
        return arrive; /* zero load (a core outside the order) */
    /* Below a floor that did not rise there is nothing new to forget:
     * every request arrives at or after every floor passed so far (each
     * floor bounds all the cores' future requests), so nothing booked
     * since the last forgetting ends below it. */
    if (floor > mc->forgot) {
        forget(mc, floor);
        mc->forgot = floor;
    }
    if (mc->n >= CAP - 2)
        compact(mc);
    n = mc->n;
    /* At or after the last interval's end (a stream, a slice booked in
     * order): free at once. */
    last = n == 0 ? NULL
           : mc->nb > 0 ? &mc->iv[CAP - 1]
                        : &mc->iv[mc->gap - 1];
    if (last == NULL || arrive >= last->e) {
        if (last != NULL && arrive == last->e)
            last->e = arrive + dur;
        else
            insert_at(mc, n, arrive, arrive + dur);
        mc->accesses++;
        return arrive;
    }
    /* first fit: from the interval that may cover the arrival on */
    c = count_le(mc, t);
    prev = (int64_t)c - 1;
    k = prev < 0 ? 0 : at(mc, (uint32_t)prev)->e > t ? (uint32_t)prev
                                                      : (uint32_t)prev + 1;
    while (k < n) {
        const sim_iv_t *q = at(mc, k);
        if (q->s >= t + dur)
            break;
        t = q->e;
        prev = k;
        k++;
    }
    /* prev: the last interval before the gap (it ends at or before t) */
    /* the room goes to just after the booking: the core's next one will
     * land there or a little later */
    if (prev >= 0 && at(mc, (uint32_t)prev)->e == t) {
        move_gap(mc, k);
        mc->iv[mc->gap - 1].e = t + dur;
        if (k < n && mc->iv[hi_of(mc)].s == t + dur) {
            /* the booking fills the gap: prev and k become one */
            mc->iv[mc->gap - 1].e = mc->iv[hi_of(mc)].e;
            mc->nb--;
            mc->n--;
        }
    } else if (k < n && at(mc, k)->s == t + dur) {
        move_gap(mc, k + 1);
        mc->iv[mc->gap - 1].s = t;
    } else {
        /* between prev and k (k < n: a request past the end extends it) */
        insert_at(mc, k, t, t + dur);
    }
    mc->accesses++;
    mc->queued += t - arrive;
    return t;
}

uint64_t sim_mc_chain(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                      uint64_t step, uint64_t count, uint64_t floor,
                      uint64_t *last)
{
    uint64_t served;

    if (count == 0 || mc == NULL) {
        /* nothing, or a controller at zero load: each served at once */
        arrive += count > 1 ? (count - 1) * step : 0;
        *last = arrive;
        return arrive;
    }
    served = sim_mc_reserve(mc, arrive, dur, floor);

    /* The floor is forgotten below now (mc->forgot >= floor): each later
     * request does no more than first fit. While the room is at the end
     * and the table not full, a request at or after the last interval's
     * end is appended (or extends it) here, as sim_mc_reserve would. */
    for (uint64_t i = 1; i < count; i++) {
        arrive = served + step;
        if (mc->nb == 0 && mc->gap > mc->lo && mc->gap < CAP &&
            mc->n < CAP - 2 && arrive >= mc->iv[mc->gap - 1].e) {
            sim_iv_t *end = &mc->iv[mc->gap - 1];
            if (arrive == end->e) {
                end->e = arrive + dur;
            } else {
                mc->iv[mc->gap].s = arrive;
                mc->iv[mc->gap].e = arrive + dur;
                mc->gap++;
                mc->n++;
            }
            mc->accesses++;
            served = arrive;
        } else {
            served = sim_mc_reserve(mc, arrive, dur, floor);
        }
    }
    *last = arrive;
    return served;
}

int sim_mc_snap(const sim_mc_t *mc, sim_mc_snap_t *out)
{
    uint32_t nf = mc->gap - mc->lo;

    if (mc->n > SIM_MC_SNAP)
        return 0;
    out->forgot = mc->forgot;
    out->accesses = mc->accesses;
    out->queued = mc->queued;
    out->n = mc->n;
    out->pad = 0;
    memcpy(out->iv, &mc->iv[mc->lo], (size_t)nf * sizeof(sim_iv_t));
    memcpy(out->iv + nf, &mc->iv[hi_of(mc)],
           (size_t)mc->nb * sizeof(sim_iv_t));
    return 1;
}

int sim_mc_snap_moved(const sim_mc_snap_t *a, const sim_mc_snap_t *b,
                      uint64_t d)
{
    if (a->n != b->n || b->forgot - a->forgot != d)
        return 0;
    for (uint32_t i = 0; i < a->n; i++)
        if (b->iv[i].s - a->iv[i].s != d || b->iv[i].e - a->iv[i].e != d)
            return 0;
    return 1;
}

void sim_mc_move(sim_mc_t *mc, uint64_t d, uint64_t accesses,
                 uint64_t queued)
{
    for (uint32_t i = mc->lo; i < mc->gap; i++) {
        mc->iv[i].s += d;
        mc->iv[i].e += d;
    }
    for (uint32_t i = hi_of(mc); i < CAP; i++) {
        mc->iv[i].s += d;
        mc->iv[i].e += d;
    }
    mc->forgot += d;
    mc->accesses += accesses;
    mc->queued += queued;
}
