/*
 * A memory controller's queue (sim_mc_reserve): the service intervals it
 * has promised, [start, end), disjoint, kept in a treap ordered by start
 * (nodes in the segment, linked by index; priorities from a generator in
 * the controller, so the shape is the same in every run).
 *
 * A request takes the first gap at or after its arrival that is long
 * enough, so requests are served in time order even when they are booked
 * out of it: a core that books a long slice of transactions at its next
 * HAL call leaves the gaps between them to the cores that book later
 * (the P54C model books whole compute slices; a stream's transactions are
 * one interval each). Intervals that end before the floor (no request can
 * arrive earlier any more) are forgotten. Each operation costs O(log n);
 * the table holds SIM_MC_NODES intervals, and when it is full the
 * smallest eighth of the gaps are closed at once (those gaps are lost: a
 * little pessimistic, never optimistic).
 *
 * While few intervals are promised (one core booking, a quiet chip) they
 * are kept in a sorted array instead (the list: no tree to walk or
 * rebalance; a request lands at or near its end), with the same rules
 * and so the same answers; above SIM_MC_LIST_MAX intervals they move into
 * the tree, and back when forgetting leaves SIM_MC_LIST_BACK or fewer.
 *
 * Owns: the controllers' queues. May call: nothing of the sim.
 */
#include "sim_mc.h"

#include <stddef.h>

#include <stdlib.h>
#include <string.h>

#define NIL 0u

static uint32_t prio(sim_mc_t *mc)
{
    /* xorshift32, seeded on first use */
    uint32_t x = mc->rng != 0 ? mc->rng : 0x9e3779b9u;

    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    mc->rng = x;
    return x;
}

static uint32_t node_new(sim_mc_t *mc, uint64_t s, uint64_t e)
{
    uint32_t k;

    if (mc->free_head != NIL) {
        k = mc->free_head;
        mc->free_head = mc->iv[k].l;
    } else {
        k = ++mc->top; /* the caller made sure there is room */
    }
    mc->iv[k].s = s;
    mc->iv[k].e = e;
    mc->iv[k].l = mc->iv[k].r = mc->iv[k].next = NIL;
    mc->iv[k].pri = prio(mc);
    mc->n++;
    return k;
}

static void node_free(sim_mc_t *mc, uint32_t k)
{
    mc->iv[k].l = mc->free_head;
    mc->free_head = k;
    mc->n--;
}

/* Split @p t into starts < @p key (*l) and >= @p key (*r). */
static void split(sim_mc_t *mc, uint32_t t, uint64_t key, uint32_t *l,
                  uint32_t *r)
{
    if (t == NIL) {
        *l = *r = NIL;
    } else if (mc->iv[t].s < key) {
        split(mc, mc->iv[t].r, key, &mc->iv[t].r, r);
        *l = t;
    } else {
        split(mc, mc->iv[t].l, key, l, &mc->iv[t].l);
        *r = t;
    }
}

/* Every start in @p a is below every start in @p b. */
static uint32_t merge(sim_mc_t *mc, uint32_t a, uint32_t b)
{
    if (a == NIL)
        return b;
    if (b == NIL)
        return a;
    if (mc->iv[a].pri > mc->iv[b].pri) {
        mc->iv[a].r = merge(mc, mc->iv[a].r, b);
        return a;
    }
    mc->iv[b].l = merge(mc, a, mc->iv[b].l);
    return b;
}

/* The interval with the largest start <= @p key, or NIL. */
static uint32_t floor_node(const sim_mc_t *mc, uint64_t key)
{
    uint32_t t = mc->root, best = NIL;

    while (t != NIL) {
        if (mc->iv[t].s <= key) {
            best = t;
            t = mc->iv[t].r;
        } else {
            t = mc->iv[t].l;
        }
    }
    return best;
}

/* The interval with the smallest start > @p key, or NIL. */
static uint32_t next_node(const sim_mc_t *mc, uint64_t key)
{
    uint32_t t = mc->root, best = NIL;

    while (t != NIL) {
        if (mc->iv[t].s > key) {
            best = t;
            t = mc->iv[t].l;
        } else {
            t = mc->iv[t].r;
        }
    }
    return best;
}

/* Remove the node with start @p key (it exists). */
static void erase(sim_mc_t *mc, uint64_t key)
{
    uint32_t l, m, r;

    split(mc, mc->root, key, &l, &m);
    split(mc, m, key + 1, &m, &r);
    if (m != NIL)
        node_free(mc, m);
    mc->root = merge(mc, l, r);
}

static void free_tree(sim_mc_t *mc, uint32_t t)
{
    if (t == NIL)
        return;
    free_tree(mc, mc->iv[t].l);
    free_tree(mc, mc->iv[t].r);
    node_free(mc, t);
}

/* Forget the intervals that end at or before @p floor: a prefix (the
 * intervals are disjoint, so their ends grow with their starts). */
static void forget(sim_mc_t *mc, uint64_t floor)
{
    uint32_t k = floor_node(mc, floor), l, r;
    uint64_t cut;

    if (k == NIL)
        return; /* every interval starts after floor */
    /* k straddles floor: keep it and what follows; else every interval
     * that starts at or before floor has ended */
    cut = mc->iv[k].e > floor ? mc->iv[k].s : floor + 1;
    split(mc, mc->root, cut, &l, &r);
    mc->root = r;
    free_tree(mc, l);
    if (r == NIL)
        mc->tail = NIL; /* the last interval goes only with all of them */
}

/* The interval with the largest start, or NIL. */
static uint32_t rightmost(const sim_mc_t *mc)
{
    uint32_t t = mc->root;

    while (t != NIL && mc->iv[t].r != NIL)
        t = mc->iv[t].r;
    return t;
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

/* In order into @p out from index @p n; @return the next index. */
static uint32_t flatten(const sim_mc_t *mc, uint32_t t, uint64_t (*out)[2],
                        uint32_t n)
{
    if (t == NIL)
        return n;
    n = flatten(mc, mc->iv[t].l, out, n);
    out[n][0] = mc->iv[t].s;
    out[n][1] = mc->iv[t].e;
    return flatten(mc, mc->iv[t].r, out, n + 1);
}

/* The table is full: close the smallest eighth of the gaps and rebuild. */
static void compact(sim_mc_t *mc)
{
    uint32_t n, m = 0;
    uint64_t (*a)[2] = mc->flat, *gaps, limit;

    n = flatten(mc, mc->root, a, 0);
    /* the tree is read: its nodes hold the gaps meanwhile */
    gaps = (uint64_t *)(void *)mc->iv;
    for (uint32_t i = 0; i + 1 < n; i++)
        gaps[i] = a[i + 1][0] - a[i][1];
    limit = n > 1 ? select_kth(gaps, n - 1, (n - 1) / 8) : 0;
    for (uint32_t i = 0; i < n; i++) {
        if (m > 0 && a[i][0] - a[m - 1][1] <= limit)
            a[m - 1][1] = a[i][1];
        else {
            a[m][0] = a[i][0];
            a[m][1] = a[i][1];
            m++;
        }
    }
    mc->root = NIL;
    mc->n = 0;
    mc->top = 0;
    mc->free_head = NIL;
    for (uint32_t i = 0, last = NIL; i < m; i++) {
        uint32_t k = node_new(mc, a[i][0], a[i][1]);
        if (last != NIL)
            mc->iv[last].next = k;
        mc->root = merge(mc, mc->root, k);
        last = k;
    }
    mc->tail = rightmost(mc);
}

/* ---- the list: flat[head, head + n), sorted, disjoint ---- */

#define SIM_MC_LIST_MAX 256u
#define SIM_MC_LIST_BACK 32u

/* The list's intervals into the tree (as compact rebuilds it). */
static void list_to_treap(sim_mc_t *mc)
{
    uint32_t n = mc->n, h = mc->head, last = NIL;

    mc->root = NIL;
    mc->n = 0;
    mc->top = 0;
    mc->free_head = NIL;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t k = node_new(mc, mc->flat[h + i][0], mc->flat[h + i][1]);
        if (last != NIL)
            mc->iv[last].next = k;
        mc->root = merge(mc, mc->root, k);
        last = k;
    }
    mc->tail = last;
    mc->treap = 1;
}

/* The tree's intervals into the list. */
static void treap_to_list(sim_mc_t *mc)
{
    uint32_t n = flatten(mc, mc->root, mc->flat, 0);

    mc->root = NIL;
    mc->top = 0;
    mc->free_head = NIL;
    mc->tail = NIL;
    mc->n = n;
    mc->head = 0;
    mc->treap = 0;
}

/* Room for one more interval at the list's end. */
static void list_room(sim_mc_t *mc)
{
    if (mc->head + mc->n < SIM_MC_NODES)
        return;
    memmove(mc->flat, mc->flat + mc->head, (size_t)mc->n * sizeof(mc->flat[0]));
    mc->head = 0;
}

/* sim_mc_reserve on the list (mc->n < SIM_MC_LIST_MAX): the tree's
 * rules, step for step, on indices. */
static uint64_t list_reserve(sim_mc_t *mc, uint64_t arrive, uint64_t dur)
{
    uint64_t (*q)[2] = mc->flat + mc->head, t = arrive;
    uint32_t n = mc->n, k, lo, hi;
    int64_t prev;

    if (n == 0 || arrive >= q[n - 1][1]) {
        if (n > 0 && arrive == q[n - 1][1]) {
            q[n - 1][1] = arrive + dur;
        } else {
            list_room(mc);
            q = mc->flat + mc->head;
            q[n][0] = arrive;
            q[n][1] = arrive + dur;
            mc->n = n + 1;
        }
        mc->accesses++;
        return arrive;
    }
    /* the last start <= t (floor_node), by bisection */
    lo = 0;
    hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (q[mid][0] <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    prev = (int64_t)lo - 1;
    k = prev < 0 ? 0 : q[prev][1] > t ? (uint32_t)prev : (uint32_t)prev + 1;
    while (k < n && q[k][0] < t + dur) {
        t = q[k][1];
        prev = k;
        k++;
    }
    if (prev >= 0 && q[prev][1] == t) {
        q[prev][1] = t + dur;
        if (k < n && q[k][0] == t + dur) {
            q[prev][1] = q[k][1];
            memmove(q + k, q + k + 1, (size_t)(n - k - 1) * sizeof(q[0]));
            mc->n = n - 1;
        }
    } else if (k < n && q[k][0] == t + dur) {
        q[k][0] = t;
    } else {
        /* between prev and k (k < n: a request past the end extends it) */
        list_room(mc);
        q = mc->flat + mc->head;
        memmove(q + k + 1, q + k, (size_t)(n - k) * sizeof(q[0]));
        q[k][0] = t;
        q[k][1] = t + dur;
        mc->n = n + 1;
    }
    mc->accesses++;
    mc->queued += t - arrive;
    return t;
}

/* forget on the list: the intervals that end at or before @p floor are a
 * prefix. */
static void list_forget(sim_mc_t *mc, uint64_t floor)
{
    while (mc->n > 0 && mc->flat[mc->head][1] <= floor) {
        mc->head++;
        mc->n--;
    }
    if (mc->n == 0)
        mc->head = 0;
}

uint64_t sim_mc_reserve(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                        uint64_t floor)
{
    uint64_t t = arrive;
    uint32_t k, prev;

    if (mc == NULL)
        return arrive; /* zero load (a core outside the order) */
    if (!mc->treap) {
        if (floor > mc->forgot) {
            list_forget(mc, floor);
            mc->forgot = floor;
        }
        if (mc->n + 1 < SIM_MC_LIST_MAX)
            return list_reserve(mc, arrive, dur);
        list_to_treap(mc);
    }
    /* Below a floor that did not rise there is nothing new to forget:
     * every request arrives at or after every floor passed so far (each
     * floor bounds all the cores' future requests), so nothing booked
     * since the last forgetting ends below it. */
    if (floor > mc->forgot) {
        forget(mc, floor);
        mc->forgot = floor;
        if (mc->n <= SIM_MC_LIST_BACK) {
            treap_to_list(mc);
            return list_reserve(mc, arrive, dur);
        }
    }
    if (mc->n >= SIM_MC_NODES - 2)
        compact(mc);
    /* At or after the last interval's end (a stream, a slice booked in
     * order): free at once; what the general case below would do, without
     * its searches. */
    if (mc->tail == NIL || arrive >= mc->iv[mc->tail].e) {
        if (mc->tail != NIL && arrive == mc->iv[mc->tail].e) {
            mc->iv[mc->tail].e = arrive + dur;
        } else {
            uint32_t nk = node_new(mc, arrive, arrive + dur);
            if (mc->tail != NIL)
                mc->iv[mc->tail].next = nk;
            mc->root = merge(mc, mc->root, nk);
            mc->tail = nk;
        }
        mc->accesses++;
        return arrive;
    }
    /* first fit: from the interval that may cover the arrival on */
    prev = floor_node(mc, t);
    k = prev == NIL ? next_node(mc, t)
        : mc->iv[prev].e > t ? prev : mc->iv[prev].next;
    while (k != NIL && mc->iv[k].s < t + dur) {
        t = mc->iv[k].e;
        prev = k;
        k = mc->iv[k].next;
    }
    /* prev: the last interval before the gap (it ends at or before t) */
    if (prev != NIL && mc->iv[prev].e == t) {
        mc->iv[prev].e = t + dur;
        if (k != NIL && mc->iv[k].s == t + dur) {
            mc->iv[prev].e = mc->iv[k].e;
            mc->iv[prev].next = mc->iv[k].next;
            if (k == mc->tail)
                mc->tail = prev;
            erase(mc, mc->iv[k].s);
        }
    } else if (k != NIL && mc->iv[k].s == t + dur) {
        /* no other start lies in [t, t + dur): the key may move down */
        mc->iv[k].s = t;
    } else {
        uint32_t l, r, nk = node_new(mc, t, t + dur);
        /* between prev (ends at or before t) and k (starts after) */
        mc->iv[nk].next = k;
        if (prev != NIL)
            mc->iv[prev].next = nk;
        split(mc, mc->root, t, &l, &r);
        mc->root = merge(mc, merge(mc, l, nk), r);
    }
    mc->accesses++;
    mc->queued += t - arrive;
    return t;
}
