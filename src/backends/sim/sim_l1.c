/*
 * One core's caches and its map of shared DRAM (all process-local: nobody
 * else can see a core's caches or page tables).
 *
 * L1 data cache: set-associative, 2 ways, LRU, line_bytes lines named by
 * their global index (MPB lines first, core * lines_per_mpb + line, then
 * shared-DRAM lines, SIM_L1_SHM_BASE + offset / line_bytes). Each entry
 * is tagged MPBT or not: CL1INVMB drops every MPBT entry in O(1) by
 * starting a new epoch (an MPBT entry is valid only in the epoch it was
 * filled in); other entries survive it. Only lines the HAL moves are
 * modelled: the program's own data would compete for the same sets on the
 * chip, so real lines may be evicted sooner than here (never later).
 *
 * L2: 4 ways, LRU, write-back (a write that hits marks the line dirty and
 * does not reach memory), no allocate on a write miss; filled by cached
 * reads only. Allocated at the first cached access.
 *
 * The map: sorted, disjoint ranges of the shared window with their
 * mapping type and home controller; offsets outside every range have the
 * default mapping (uncached, interleaved).
 *
 * Owns: sim_l1_t, sim_l2_t, sim_map_t (contents and replacement only:
 * what an access costs and what it does to memory is the memory model's,
 * sim_mem.c). May call: nothing else of the sim.
 */
#include "sim_l1.h"

#include <stdlib.h>
#include <string.h>

#define SIM_L2_WAYS 4

rck_status_t sim_l1_init(sim_l1_t *l1, const rck_chip_t *c)
{
    size_t n;

    memset(l1, 0, sizeof(*l1));
    l1->line = c->line_bytes;
    l1->ways = SIM_L1_WAYS;
    l1->nsets = c->l1d_bytes / c->line_bytes / SIM_L1_WAYS;
    if (l1->nsets == 0)
        l1->nsets = 1;
    l1->set_mask = (l1->nsets & (l1->nsets - 1)) == 0 ? l1->nsets - 1 : 0;
    l1->epoch = 1;
    n = (size_t)l1->nsets * l1->ways;
    l1->tag = calloc(n, sizeof(*l1->tag));
    l1->tag_epoch = calloc(n, sizeof(*l1->tag_epoch));
    l1->lru = calloc(n, sizeof(*l1->lru));
    l1->data = calloc(n, l1->line);
    if (l1->tag == NULL || l1->tag_epoch == NULL || l1->lru == NULL ||
        l1->data == NULL) {
        sim_l1_fini(l1);
        return RCK_ERR_NOMEM;
    }
    return RCK_OK;
}

void sim_l1_fini(sim_l1_t *l1)
{
    free(l1->tag);
    free(l1->tag_epoch);
    free(l1->lru);
    free(l1->data);
    memset(l1, 0, sizeof(*l1));
}

/* tag_epoch 0 marks a non-MPBT entry (epochs start at 1). */
static int l1_valid(const sim_l1_t *l1, size_t e)
{
    return l1->tag[e] != 0 &&
           (l1->tag_epoch[e] == 0 || l1->tag_epoch[e] == l1->epoch);
}

static inline size_t l1_set(const sim_l1_t *l1, uint64_t idx)
{
    if (l1->set_mask != 0 || l1->nsets == 1)
        return (size_t)(idx & l1->set_mask) * SIM_L1_WAYS;
    return (size_t)(idx % l1->nsets) * SIM_L1_WAYS;
}

unsigned char *sim_l1_find(sim_l1_t *l1, uint64_t idx)
{
    size_t set = l1_set(l1, idx);

    for (uint32_t w = 0; w < SIM_L1_WAYS; w++) {
        size_t e = set + w;
        if (l1->tag[e] == idx + 1 && l1_valid(l1, e)) {
            l1->lru[e] = ++l1->lru_clock;
            return l1->data + e * l1->line;
        }
    }
    return NULL;
}

void sim_l1_fill(sim_l1_t *l1, uint64_t idx, const unsigned char *data,
                 int mpbt)
{
    size_t set = l1_set(l1, idx);
    size_t victim = set;

    for (uint32_t w = 0; w < SIM_L1_WAYS; w++) {
        size_t e = set + w;
        if (!l1_valid(l1, e) || l1->tag[e] == idx + 1) {
            victim = e;
            break;
        }
        if (l1->lru[e] < l1->lru[victim])
            victim = e;
    }
    l1->tag[victim] = idx + 1;
    l1->tag_epoch[victim] = mpbt ? l1->epoch : 0;
    l1->lru[victim] = ++l1->lru_clock;
    if (l1->line == 32)
        memcpy(l1->data + victim * 32, data, 32);
    else
        memcpy(l1->data + victim * l1->line, data, l1->line);
}

void sim_l1_invalidate(sim_l1_t *l1)
{
    l1->epoch++;
    if (l1->epoch == 0) { /* wrapped: drop the MPBT entries for real */
        size_t n = (size_t)l1->nsets * l1->ways;
        for (size_t e = 0; e < n; e++) {
            if (l1->tag_epoch[e] != 0)
                l1->tag[e] = 0;
        }
        l1->epoch = 1;
    }
}

void sim_l1_drop_all(sim_l1_t *l1)
{
    memset(l1->tag, 0, (size_t)l1->nsets * l1->ways * sizeof(*l1->tag));
}

/* ---- L2 ---- */

static rck_status_t l2_alloc(sim_l2_t *l2)
{
    size_t n = (size_t)l2->nsets * l2->ways;

    l2->tag = calloc(n, sizeof(*l2->tag));
    l2->lru = calloc(n, sizeof(*l2->lru));
    l2->dirty = calloc(n, 1);
    l2->data = calloc(n, l2->line);
    if (l2->tag == NULL || l2->lru == NULL || l2->dirty == NULL ||
        l2->data == NULL) {
        sim_l2_fini(l2);
        return RCK_ERR_NOMEM;
    }
    return RCK_OK;
}

void sim_l2_init(sim_l2_t *l2, const rck_chip_t *c)
{
    memset(l2, 0, sizeof(*l2));
    l2->line = c->line_bytes;
    l2->ways = SIM_L2_WAYS;
    l2->nsets = c->l2_bytes / c->line_bytes / SIM_L2_WAYS;
    if (l2->nsets == 0)
        l2->nsets = 1;
}

void sim_l2_fini(sim_l2_t *l2)
{
    free(l2->tag);
    free(l2->lru);
    free(l2->dirty);
    free(l2->data);
    l2->tag = NULL;
    l2->lru = NULL;
    l2->dirty = NULL;
    l2->data = NULL;
}

long sim_l2_find(sim_l2_t *l2, uint64_t line)
{
    size_t set;

    if (l2->tag == NULL)
        return -1;
    set = (size_t)(line % l2->nsets) * l2->ways;
    for (uint32_t w = 0; w < l2->ways; w++) {
        size_t e = set + w;
        if (l2->tag[e] == line + 1) {
            l2->lru[e] = ++l2->lru_clock;
            return (long)e;
        }
    }
    return -1;
}

long sim_l2_victim(sim_l2_t *l2, uint64_t line)
{
    size_t set, victim;

    if (l2->tag == NULL && l2_alloc(l2) != RCK_OK)
        return -1;
    set = (size_t)(line % l2->nsets) * l2->ways;
    victim = set;
    for (uint32_t w = 0; w < l2->ways; w++) {
        size_t e = set + w;
        if (l2->tag[e] == 0) {
            victim = e;
            break;
        }
        if (l2->lru[e] < l2->lru[victim])
            victim = e;
    }
    return (long)victim;
}

void sim_l2_install(sim_l2_t *l2, long e, uint64_t line,
                    const unsigned char *data)
{
    l2->tag[e] = line + 1;
    l2->dirty[e] = 0;
    l2->lru[e] = ++l2->lru_clock;
    memcpy(l2->data + (size_t)e * l2->line, data, l2->line);
}

/* ---- the map of shared DRAM ---- */

void sim_map_init(sim_map_t *m)
{
    memset(m, 0, sizeof(*m));
}

void sim_map_fini(sim_map_t *m)
{
    free(m->r);
    memset(m, 0, sizeof(*m));
}

static int map_same(const sim_map_range_t *a, const sim_map_range_t *b)
{
    return a->type == b->type && a->mc == b->mc;
}

rck_status_t sim_map_set(sim_map_t *m, size_t off, size_t len, int type,
                         int mc)
{
    size_t end = off + len, k = 0, n = 0;
    sim_map_range_t *all;

    if (len == 0)
        return RCK_OK;
    all = malloc((m->n + 3) * sizeof(*all));
    if (all == NULL)
        return RCK_ERR_NOMEM;
    /* the ranges before, the head of one that overlaps off, the new one,
     * the tail of one that overlaps end, the ranges after */
    for (size_t i = 0; i < m->n; i++) {
        sim_map_range_t r = m->r[i];
        if (r.off + r.len <= off) {
            all[k++] = r;
        } else if (r.off < off) {
            r.len = off - r.off;
            all[k++] = r;
        }
    }
    all[k].off = off;
    all[k].len = len;
    all[k].type = type;
    all[k].mc = mc;
    k++;
    for (size_t i = 0; i < m->n; i++) {
        sim_map_range_t r = m->r[i];
        size_t rend = r.off + r.len;
        if (r.off >= end) {
            all[k++] = r;
        } else if (rend > end) {
            r.off = end;
            r.len = rend - end;
            all[k++] = r;
        }
    }
    for (size_t i = 0; i < k; i++) {
        if (n > 0 && all[n - 1].off + all[n - 1].len == all[i].off &&
            map_same(&all[n - 1], &all[i]))
            all[n - 1].len += all[i].len;
        else
            all[n++] = all[i];
    }
    free(m->r);
    m->r = all;
    m->n = n;
    m->last = 0;
    return RCK_OK;
}

void sim_map_lookup(sim_map_t *m, size_t off, int *type, int *mc,
                    size_t *until)
{
    size_t lo = 0, hi = m->n;

    if (m->last < m->n && m->r[m->last].off <= off &&
        off < m->r[m->last].off + m->r[m->last].len) {
        lo = m->last;
    } else {
        /* first range that ends after off */
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (m->r[mid].off + m->r[mid].len <= off)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    if (lo < m->n && m->r[lo].off <= off) {
        m->last = lo;
        *type = m->r[lo].type;
        *mc = m->r[lo].mc;
        *until = m->r[lo].off + m->r[lo].len;
        return;
    }
    *type = RCK_MAP_UNCACHED;
    *mc = RCK_MC_INTERLEAVE;
    *until = lo < m->n ? m->r[lo].off : SIZE_MAX;
}
