/*
 * The P54C's caches, one model for both engines (p54c_cache.h has the
 * owner's note and the filters' invariants; docs/P54C.md the rules).
 */
#include "p54c_cache.h"

#include <string.h>

#define TAG(c, e) ((c)->tl[2 * (e)])
#define LRU(c, e) ((c)->tl[2 * (e) + 1])

static int cache_init(p54c_cache_t *c, uint32_t bytes, uint32_t ways,
                      uint32_t line, unsigned char **buf)
{
    uint32_t lines = line ? bytes / line : 0;

    if (ways == 0 || lines < ways || lines % ways != 0)
        return -1;
    c->ways = ways;
    c->sets = lines / ways;
    c->tl = (uint64_t *)*buf;
    *buf += (size_t)lines * 16;
    c->dirty = *buf;
    *buf += ((size_t)lines + 7) / 8 * 8;
    c->clock = 0;
    c->set_mask = (c->sets & (c->sets - 1)) == 0 ? c->sets - 1 : 0;
    c->mru = 0;
    c->mru_e = 0;
    return 0;
}

static size_t cache_bytes(uint32_t bytes, uint32_t line)
{
    size_t lines = line ? bytes / line : 0;
    return lines * 16 + (lines + 7) / 8 * 8;
}

/* The store filter's slots by L1D set (fs0): one word per set at most
 * (sets <= lines). */
static size_t fs0_bytes(uint32_t bytes, uint32_t line)
{
    size_t lines = line ? bytes / line : 0;
    return (lines * 2 + 7) / 8 * 8;
}

size_t p54c_mem_bytes(const p54c_slot_t *s)
{
    if (s->line_bytes == 0 || (s->line_bytes & (s->line_bytes - 1)) != 0)
        return 0;
    return cache_bytes(s->l1i_bytes, s->line_bytes) +
           cache_bytes(s->l1d_bytes, s->line_bytes) +
           cache_bytes(s->l2_bytes, s->line_bytes) +
           fs0_bytes(s->l1d_bytes, s->line_bytes);
}

int p54c_mem_init(p54c_mem_t *m, p54c_slot_t *s, void *buf)
{
    unsigned char *b = buf;

    memset(m, 0, sizeof(*m));
    if (p54c_mem_bytes(s) == 0 || s->nmc == 0)
        return -1;
    m->s = s;
    while ((1u << m->line_shift) < s->line_bytes)
        m->line_shift++;
    if (cache_init(&m->l1d, s->l1d_bytes, s->l1_ways, s->line_bytes, &b) ||
        cache_init(&m->l1i, s->l1i_bytes, s->l1_ways, s->line_bytes, &b) ||
        cache_init(&m->l2, s->l2_bytes, s->l2_ways, s->line_bytes, &b))
        return -1;
    m->fs0 = (uint16_t *)b; /* used with the filters only */
    m->units = &s->units;
    m->wr_free = &s->wr_free;
    m->l1d_reads = &s->l1d_reads;
    m->l1d_writes = &s->l1d_writes;
    m->last_dw = NULL; /* the caller's: see p54c_mem_access */
    return 0;
}

/* ---- the filters (compiled engine) ---- */

/* Clear the entries of filter @p f that name a line of set @p set of
 * cache @p c, other than @p keep (a line, or P54C_FILT_EMPTY: none); with
 * @p only0, only those with flag bit 0. */
static inline void filt_clear_one(const p54c_mem_t *m, uint64_t *f,
                                  const p54c_cache_t *c, uint64_t k,
                                  uint64_t set, uint64_t keep, int only0)
{
    uint64_t e = f[k], line;

    if (e == P54C_FILT_EMPTY)
        return;
    line = (e & ~P54C_FS_HELD) >> m->line_shift;
    if ((line & c->set_mask) != set || line == keep || (only0 && (e & 1)))
        return;
    f[k] = P54C_FILT_EMPTY;
}

static inline void filt_clear_set(const p54c_mem_t *m, uint64_t *f,
                                  uint64_t n, const p54c_cache_t *c,
                                  uint64_t set, uint64_t keep, int only0)
{
    if (c->sets >= n) {
        filt_clear_one(m, f, c, set & (n - 1), set, keep, only0);
        return;
    }
    for (uint64_t k = set; k < n; k += c->sets)
        filt_clear_one(m, f, c, k, set, keep, only0);
}

/* Store filter: @p line's entry, with flag @p f (1: not in L1D); a
 * flag-0 entry is its L1D set's (fs0). */
static inline void fs_put(p54c_mem_t *m, uint64_t line, int f)
{
    uint64_t k = line & (P54C_FS_N - 1);

    m->fs[k] = (line << m->line_shift) | (uint64_t)f;
    if (f == 0)
        m->fs0[line & m->l1d.set_mask] = (uint16_t)(k + 1);
}

static void fi_epoch(p54c_mem_t *m);

/* L1D evicted @p line: a held store filter entry of it (its L2 state
 * still holds) now holds with flag 1 (not in L1D). */
static inline void fs_evicted(p54c_mem_t *m, uint64_t line)
{
    uint64_t k = line & (P54C_FS_N - 1);

    if (m->fs[k] == ((line << m->line_shift) | P54C_FS_HELD))
        fs_put(m, line, 1);
}

/* @p line became the most recently used line of its set in cache @p c
 * (@p installed: it was just brought in). Inline: in the flattened access
 * path the cache is known at each call (6% less CPU than a call on the
 * LU-like kernel, 2026-11-28). */
static inline void filt_mru(p54c_mem_t *m, const p54c_cache_t *c,
                            uint64_t line, int installed)
{
    uint64_t set = line & c->set_mask;

    if (m->fd == NULL)
        return;
    if (c == &m->l1d) {
        filt_clear_set(m, m->fd, P54C_FILT_N, c, set, line, 0);
        /* entries of other lines that were their set's L1D MRU (flag 0)
         * no longer are (at most one, at fs0's slot); those of lines not
         * in L1D (flag 1) still hold (a hit or an install adds no other
         * line, and an evicted line had flag 0 if any); an install: the
         * line's own flag-1 entry no longer holds */
        uint64_t k = line & (P54C_FS_N - 1), e;
        if (m->fs0[set] != 0) {
            /* held, not cleared: the line is still in L1D (not its set's
             * most recently used) and its L2 state holds (a change of it
             * clears held entries too); it comes back as flag 0 when the
             * line is its L1D set's most recently used again, as flag 1
             * when L1D evicts it (fs_evicted) */
            uint64_t h = m->fs0[set] - 1u, eh = m->fs[h], lh;
            lh = eh >> m->line_shift;
            if (eh != P54C_FILT_EMPTY && !(eh & (P54C_FS_HELD | 1)) &&
                (lh & c->set_mask) == set && lh != line)
                m->fs[h] = eh | P54C_FS_HELD;
        }
        e = m->fs[k];
        if (installed) {
            if (e != P54C_FILT_EMPTY &&
                (e & ~P54C_FS_HELD) >> m->line_shift == line)
                m->fs[k] = P54C_FILT_EMPTY;
        } else if (e == ((line << m->line_shift) | P54C_FS_HELD)) {
            fs_put(m, line, 0);
        }
    } else if (c == &m->l2) {
        filt_clear_set(m, m->fs, P54C_FS_N, c, set,
                       installed ? P54C_FILT_EMPTY : line, 0);
    } else {
        /* the entries of the blocks with a line in this set */
        uint64_t s = set & (P54C_FILT_N - 1);
        *m->blk = 0;
        if (!m->fi_sets) {
            fi_epoch(m);
            return;
        }
        for (unsigned i = 0; i < m->fi_nref[s]; i++)
            m->fi[m->fi_ref[s][i]] = P54C_FILT_EMPTY;
        m->fi_nref[s] = 0;
    }
}

/* Every fetch filter entry outdated at once: the epoch advances, the
 * lists empty. */
static void fi_epoch(p54c_mem_t *m)
{
    *m->fi_key += 1ull << 47;
    if (*m->fi_key == 0)
        for (int k = 0; k < P54C_FI_N; k++)
            m->fi[k] = P54C_FILT_EMPTY;
    for (int k = 0; m->fi_sets && k < P54C_FILT_N; k++)
        m->fi_nref[k] = 0;
}

/* List entry @p k of the fetch filter under the sets of lines @p l0 to
 * @p l1 (distinct sets). @return 0, or -1 if a list was full (then the
 * epoch advanced and every list is empty: the caller starts again). */
static int fi_refs(p54c_mem_t *m, uint16_t k, uint64_t l0, uint64_t l1)
{
    for (uint64_t l = l0; l <= l1; l++) {
        uint64_t s = l & m->l1i.set_mask & (P54C_FILT_N - 1);
        unsigned n = m->fi_nref[s], i;
        for (i = 0; i < n && m->fi_ref[s][i] != k; i++)
            ;
        if (i < n)
            continue;
        if (n == P54C_FI_REFS) {
            fi_epoch(m);
            return -1;
        }
        m->fi_ref[s][n] = k;
        m->fi_nref[s] = (uint8_t)(n + 1);
    }
    return 0;
}

/* The fetch filter's entry of the block starting at @p first (the check's
 * index: rck-as's seq_fetch). */
static inline uint16_t fi_slot(uint64_t first)
{
    return (uint16_t)((first >> P54C_FI_SHIFT) & (P54C_FI_N - 1));
}

/* Is @p line in cache @p c (no change)? */
static int cache_has(const p54c_cache_t *c, uint64_t line);

int p54c_mem_fetch_block(p54c_mem_t *m, uint64_t first,
                         const uint64_t (*seg)[2], unsigned n)
{
    uint16_t k = fi_slot(first);
    uint64_t lo = UINT64_MAX, hi = 0;
    unsigned i;

    if (m->fi == NULL || n == 0 || !m->fi_sets)
        return 0;
    for (i = 0; i < n; i++) {
        uint64_t l0 = seg[i][0] >> m->line_shift;
        uint64_t l1 = seg[i][1] >> m->line_shift;
        if (seg[i][1] < seg[i][0])
            return 0;
        lo = l0 < lo ? l0 : lo;
        hi = l1 > hi ? l1 : hi;
        for (uint64_t l = l0; l <= l1; l++)
            if (!cache_has(&m->l1i, l))
                return 0;
    }
    /* the block's lines must lie in distinct sets (then each stays its
     * set's most recently used once fetched) */
    if (hi - lo >= m->l1i.sets)
        return 0;
    for (i = 0; i < n; i++)
        p54c_mem_fetch(m, seg[i][0] >> m->line_shift,
                       seg[i][1] >> m->line_shift);
    for (i = 0; i < n; i++)
        if (fi_refs(m, k, seg[i][0] >> m->line_shift,
                    seg[i][1] >> m->line_shift) != 0)
            i = (unsigned)-1; /* the lists were emptied: again */
    m->fi[k] = first ^ *m->fi_key;
    *m->blk = first;
    return 1;
}

void p54c_mem_fetch_note(p54c_mem_t *m, uint64_t first, uint64_t l0,
                         uint64_t l1)
{
    uint16_t k = fi_slot(first);

    if (m->fi == NULL || l1 < l0 || l1 - l0 >= m->l1i.sets)
        return;
    while (m->fi_sets && fi_refs(m, k, l0, l1) != 0)
        ;
    m->fi[k] = first ^ *m->fi_key;
}

void p54c_mem_filters_clear(p54c_mem_t *m)
{
    if (m->fd == NULL)
        return;
    for (int k = 0; k < P54C_FILT_N; k++) {
        m->fd[k] = P54C_FILT_EMPTY;
        m->fi_nref[k] = 0;
    }
    for (int k = 0; k < P54C_FI_N; k++)
        m->fi[k] = P54C_FILT_EMPTY;
    for (int k = 0; k < P54C_FS_N; k++)
        m->fs[k] = P54C_FILT_EMPTY;
    for (uint32_t k = 0; k < m->l1d.sets; k++)
        m->fs0[k] = 0;
    *m->blk = 0;
}

/* ---- the caches ---- */

/* Sets a power of two: lines map to them by mask (set_mask, 0 for one). */
static inline int sets_pow2(const p54c_cache_t *c)
{
    return c->set_mask != 0 || c->sets == 1;
}

int p54c_mem_filterable(const p54c_mem_t *m)
{
    return sets_pow2(&m->l1d) && sets_pow2(&m->l1i) && sets_pow2(&m->l2);
}

/* The first entry of @p line's set (no division on the usual geometry). */
static inline uint64_t cache_set(const p54c_cache_t *c, uint64_t line)
{
    if (sets_pow2(c))
        return (line & c->set_mask) * c->ways;
    return (line % c->sets) * c->ways;
}

static int cache_has(const p54c_cache_t *c, uint64_t line)
{
    uint64_t base = cache_set(c, line);

    for (uint32_t w = 0; w < c->ways; w++)
        if (TAG(c, base + w) == line + 1)
            return 1;
    return 0;
}

/* @return the entry holding @p line (now the most recently used), or -1
 * and *victim the entry an install would take (the set's least recently
 * used, the first of equals): one pass over the set. */
static inline long cache_lookup(p54c_mem_t *m, p54c_cache_t *c,
                                uint64_t line, uint64_t *victim)
{
    uint64_t base, v, top = 0;
    long e = -1;

    *victim = 0;
    if (c->mru == line + 1)
        return c->mru_e;
    base = cache_set(c, line);
    v = base;
    for (uint32_t w = 0; w < c->ways; w++) {
        uint64_t st = LRU(c, base + w);
        if (TAG(c, base + w) == line + 1)
            e = (long)(base + w);
        top = st > top ? st : top;
        v = st < LRU(c, v) ? base + w : v;
    }
    *victim = v;
    if (e >= 0) {
        /* its set's most recently used already (stamps are distinct and
         * not 0 once stamped): no set's order changes, so every filter
         * entry still holds (and the fetch filter's epoch stays: a
         * block's hits must not outdate the other blocks' entries) */
        int set_mru = LRU(c, e) == top;
        LRU(c, e) = ++c->clock;
        c->mru = line + 1;
        c->mru_e = e;
        if (!set_mru)
            filt_mru(m, c, line, 0);
    }
    return e;
}

/* @return the entry holding @p line (now the most recently used), or -1. */
static inline long cache_find(p54c_mem_t *m, p54c_cache_t *c, uint64_t line)
{
    uint64_t v;

    return cache_lookup(m, c, line, &v);
}

/* Install @p line in entry @p v (cache_lookup's victim). @return the
 * entry; *old the line it held + 1 (0: empty), *was_dirty its dirty
 * bit. */
static inline long cache_install(p54c_mem_t *m, p54c_cache_t *c,
                                 uint64_t line, uint64_t v, uint64_t *old,
                                 int *was_dirty)
{
    *old = TAG(c, v);
    *was_dirty = c->dirty[v];
    TAG(c, v) = line + 1;
    c->dirty[v] = 0;
    LRU(c, v) = ++c->clock;
    c->mru = line + 1;
    c->mru_e = (long)v;
    filt_mru(m, c, line, 1);
    if (c == &m->l1d && *old != 0 && m->fd != NULL)
        fs_evicted(m, *old - 1);
    return (long)v;
}

static inline void ring_push(p54c_mem_t *m, int kind, uint32_t mc)
{
    p54c_slot_t *s = m->s;

    if (s->head - s->tail < P54C_RING) {
        s->ring[s->head % P54C_RING] =
            (*m->units << 16) | ((uint64_t)kind << 8) | mc;
        s->head++;
    } else {
        s->lost[kind][mc % P54C_MAX_MC]++;
    }
}

/* A line read into L1 (data or instructions) after an L1 miss. */
static void l2_read(p54c_mem_t *m, uint64_t line, uint32_t mc)
{
    p54c_slot_t *s = m->s;
    uint64_t old, v;
    int dirty;

    if (cache_lookup(m, &m->l2, line, &v) >= 0) {
        s->l2_hits++;
        *m->units += s->l2_fill;
        return;
    }
    s->l2_misses++;
    ring_push(m, P54C_TX_FILL, mc);
    cache_install(m, &m->l2, line, v, &old, &dirty);
    if (old == 0)
        s->l2_valid++;
    if (old != 0 && dirty) {
        s->l2_writebacks++;
        s->l2_dirty--;
        ring_push(m, P54C_TX_WB, mc);
    }
}

static void data_read(p54c_mem_t *m, uint64_t line, uint32_t mc)
{
    uint64_t old, v;
    int dirty;

    (*m->l1d_reads)++;
    if (cache_lookup(m, &m->l1d, line, &v) >= 0)
        return;
    m->s->l1d_misses++;
    l2_read(m, line, mc); /* L2 only: the L1D victim stays */
    cache_install(m, &m->l1d, line, v, &old, &dirty);
}

/* A store of @p dwords DWORDs (the P54C is a 32-bit core). The L1 is
 * write-through and does not allocate; the L2 takes the store if it holds
 * the line (one outstanding write: a store waits for the previous one),
 * else the store goes around the caches to memory. @return 1 if the L2
 * took it (*l1_hit: L1D held the line), 0 if it went around. */
static int data_write(p54c_mem_t *m, uint64_t line, uint32_t dwords,
                      uint32_t mc, int *l1_hit)
{
    p54c_slot_t *s = m->s;
    long e;

    (*m->l1d_writes)++;
    *l1_hit = cache_find(m, &m->l1d, line) >= 0;
    if (!*l1_hit)
        s->l1d_misses++;
    e = cache_find(m, &m->l2, line);
    if (e >= 0) {
        /* each DWORD waits for the port, then holds it l2_store units:
         * units = max(units, wr_free) + (dwords - 1) * l2_store */
        if (dwords > 0) {
            uint64_t u = *m->units;
            if (*m->wr_free > u)
                u = *m->wr_free;
            u += (uint64_t)(dwords - 1) * s->l2_store;
            *m->units = u;
            *m->wr_free = u + s->l2_store;
        }
        if (!m->l2.dirty[e]) {
            m->l2.dirty[e] = 1;
            s->l2_dirty++;
        }
        return 1;
    }
    for (uint32_t i = 0; i < dwords; i++) {
        s->write_arounds++;
        ring_push(m, P54C_TX_WRITE, mc);
    }
    return 0;
}

/* An access to shared DRAM through a plain pointer, timed as its mapping
 * (rck_hal_shm_set_map) says: uncached (the default) DWORD transactions;
 * cached like private memory (L1, L2, write-around) on the range's
 * controller; MPBT in L1 only, line reads from memory on a miss, stores
 * through the write-combine buffer (a line written out when a store goes
 * to another line). */
static __attribute__((noinline)) void shm_access(p54c_mem_t *m, uint64_t va, uint32_t dwords, int store)
{
    p54c_slot_t *s = m->s;
    uint64_t off = va - s->shm_base, line = va >> m->line_shift, old, v;
    uint32_t mc = (uint32_t)((off >> 24) % s->nmc);
    int type = 0, dirty, l1_hit;

    s->shm_accesses++;
    for (uint32_t i = 0; i < s->nmap && i < P54C_MAP_MAX; i++) {
        const p54c_map_t *r = &s->map[i];
        if (off - r->off < r->len) {
            type = r->type;
            if (r->mc >= 0)
                mc = (uint32_t)r->mc;
            break;
        }
    }
    if (type == 2) {
        if (store)
            data_write(m, line, dwords, mc, &l1_hit);
        else
            data_read(m, line, mc);
        return;
    }
    if (type == 1) {
        if (store) {
            (*m->l1d_writes)++;
            if (m->wcb_line != line + 1) {
                if (m->wcb_line != 0)
                    ring_push(m, P54C_TX_WCB, mc);
                m->wcb_line = line + 1;
            }
            return;
        }
        (*m->l1d_reads)++;
        if (cache_lookup(m, &m->l1d, line, &v) >= 0)
            return;
        s->l1d_misses++;
        ring_push(m, P54C_TX_LINE_READ, mc);
        cache_install(m, &m->l1d, line, v, &old, &dirty);
        return;
    }
    for (uint32_t i = 0; i < dwords; i++)
        ring_push(m, store ? P54C_TX_WRITE : P54C_TX_UC_READ, mc);
}

/* Stores continue the previous one's DWORD: the P54C writes at most a
 * DWORD per store; the host's code may store less at a time (x86-64
 * glibc's memset and memcpy use `rep stosb` / `rep movsb`, which QEMU
 * executes a byte at a time): a store that continues in the DWORD the
 * previous one ended in is taken as part of it, as the P54C's own string
 * instructions (`rep stosd`) would have written it. */
__attribute__((flatten)) void p54c_mem_access(p54c_mem_t *m, uint64_t va,
                                             uint32_t bytes, int store)
{
    p54c_slot_t *s = m->s;
    uint32_t dwords = (uint32_t)(((va + bytes - 1) >> 2) - (va >> 2)) + 1;
    uint64_t line = va >> m->line_shift;
    uint32_t mc = s->home_mc;
    int l1_hit;

    if (store) {
        if ((va >> 2) == *m->last_dw)
            dwords--;
        *m->last_dw = (va + bytes - 1) >> 2;
        if (dwords == 0) {
            s->merged_stores++;
            return;
        }
    }
    if (va - s->shm_base < s->shm_len) {
        shm_access(m, va, dwords, store);
        return;
    }
    if (va - s->mpb_base < s->mpb_len)
        return; /* MPB through mpb_map: not modelled (docs/P54C.md) */
    if (s->win_base != 0 && va - s->win_base < P54C_WIN_BYTES) {
        uint64_t slot = (va - s->win_base) >> P54C_WIN_SLOT_SHIFT;
        uint64_t in = (va - s->win_base) & ((1ull << P54C_WIN_SLOT_SHIFT) - 1);
        if (s->win_kind[slot] == P54C_WIN_SHARED) {
            shm_access(m,
                       s->shm_base +
                           ((uint64_t)s->win_page[slot]
                            << P54C_WIN_SLOT_SHIFT) +
                           in,
                       dwords, store);
            return;
        }
        if (s->win_kind[slot] != P54C_WIN_DRAM)
            return; /* an MPB, a CRB, nothing: not modelled */
        mc = s->win_mc[slot];
    }
    if (!store) {
        data_read(m, line, mc);
        if (m->fd != NULL) {
            m->fd[line % P54C_FILT_N] = line << m->line_shift;
            /* the line is now its L1D set's most recently used: a store
             * to it changes nothing but counts if it is its L2 set's most
             * recently used and dirty there (known at no cost when the
             * load just went to L2: then it is L2's last stamped line) */
            if (m->l2.mru == line + 1 && m->l2.dirty[m->l2.mru_e])
                fs_put(m, line, 0);
        }
        return;
    }
    if (data_write(m, line, dwords, mc, &l1_hit) && m->fd != NULL)
        fs_put(m, line, !l1_hit);
}

void p54c_mem_fetch(p54c_mem_t *m, uint64_t first, uint64_t last)
{
    p54c_slot_t *s = m->s;

    for (uint64_t l = first; l <= last; l++) {
        uint64_t old, v;
        int dirty;
        if (cache_lookup(m, &m->l1i, l, &v) < 0) {
            s->l1i_misses++;
            l2_read(m, l, s->home_mc); /* L2 only: the L1I victim stays */
            cache_install(m, &m->l1i, l, v, &old, &dirty);
        }
    }
}

void p54c_mem_drop(p54c_mem_t *m)
{
    p54c_cache_t *cs[3] = {&m->l1i, &m->l1d, &m->l2};

    for (int k = 0; k < 3; k++) {
        size_t n = (size_t)cs[k]->sets * cs[k]->ways;
        for (size_t e = 0; e < n; e++)
            TAG(cs[k], e) = 0;
        memset(cs[k]->dirty, 0, n * sizeof(*cs[k]->dirty));
        cs[k]->mru = 0;
    }
    m->s->l2_valid = m->s->l2_dirty = 0;
    p54c_mem_filters_clear(m);
}
