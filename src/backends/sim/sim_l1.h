/*
 * One core's caches and its map of shared DRAM (sim_l1.c): the L1 data
 * cache (with the inline lookup of the MPB loops), the L2, the map. All
 * process-local; includes nothing of the sim.
 */
#ifndef RCK_SIM_L1_H
#define RCK_SIM_L1_H

#include "rck/chip.h"
#include "rck/hal.h"

#include <stddef.h>
#include <stdint.h>

/* L1 data cache of this core (process-local, sim_l1.c). */
#define SIM_L1_WAYS 2
typedef struct {
    uint32_t nsets, ways, line;
    uint32_t set_mask;         /* nsets - 1 if a power of two, else 0 */
    uint32_t epoch;            /* CL1INVMB bumps it */
    uint64_t lru_clock;
    uint64_t *tag;             /* global line index + 1, 0 = empty */
    uint32_t *tag_epoch;       /* MPBT entries: fill epoch; others 0 */
    uint64_t *lru;
    unsigned char *data;
} sim_l1_t;

/* L2 of this core (process-local, cached shared-DRAM lines only). */
typedef struct {
    uint32_t nsets, ways, line;
    uint64_t lru_clock;
    uint64_t *tag;             /* shared-DRAM line + 1, 0 = empty */
    uint64_t *lru;
    unsigned char *dirty;
    unsigned char *data;       /* NULL until the first cached access */
} sim_l2_t;

/* This core's map of shared DRAM (shm_set_map). */
typedef struct {
    size_t off, len;
    int type;                  /* rck_map_t */
    int mc;                    /* controller or RCK_MC_INTERLEAVE */
} sim_map_range_t;
typedef struct {
    sim_map_range_t *r;        /* sorted, disjoint */
    size_t n, last;
} sim_map_t;

/* ---- L1 (sim_l1.c) ---- */
rck_status_t sim_l1_init(sim_l1_t *l1, const rck_chip_t *c);
void sim_l1_fini(sim_l1_t *l1);
/** Cached copy of global line @p idx, or NULL. */
unsigned char *sim_l1_find(sim_l1_t *l1, uint64_t idx);

/* The same, inline, for the MPB read and write loops: the entry of line
 * @p idx (made most recently used), or -1; and on a miss the entry
 * sim_l1_fill would replace, and the fill itself. */
static inline size_t sim_l1_set(const sim_l1_t *l1, uint64_t idx)
{
    if (l1->set_mask != 0 || l1->nsets == 1)
        return (size_t)(idx & l1->set_mask) * SIM_L1_WAYS;
    return (size_t)(idx % l1->nsets) * SIM_L1_WAYS;
}
static inline int sim_l1_valid(const sim_l1_t *l1, size_t e)
{
    return l1->tag[e] != 0 &&
           (l1->tag_epoch[e] == 0 || l1->tag_epoch[e] == l1->epoch);
}
static inline long sim_l1_lookup(sim_l1_t *l1, uint64_t idx)
{
    size_t set = sim_l1_set(l1, idx);

    for (size_t e = set; e < set + SIM_L1_WAYS; e++) {
        if (l1->tag[e] == idx + 1 && sim_l1_valid(l1, e)) {
            l1->lru[e] = ++l1->lru_clock;
            return (long)e;
        }
    }
    return -1;
}
static inline void sim_l1_install(sim_l1_t *l1, uint64_t idx,
                                  const unsigned char *data)
{
    size_t set = sim_l1_set(l1, idx), victim = set;

    for (size_t e = set; e < set + SIM_L1_WAYS; e++) {
        if (!sim_l1_valid(l1, e) || l1->tag[e] == idx + 1) {
            victim = e;
            break;
        }
        if (l1->lru[e] < l1->lru[victim])
            victim = e;
    }
    l1->tag[victim] = idx + 1;
    l1->tag_epoch[victim] = l1->epoch; /* MPBT */
    l1->lru[victim] = ++l1->lru_clock;
    if (l1->line == 32)
        __builtin_memcpy(l1->data + victim * 32, data, 32);
    else
        __builtin_memcpy(l1->data + victim * l1->line, data, l1->line);
}
/** Install line @p idx with @p data (evicting the set's LRU line), tagged
 *  MPBT or not. */
void sim_l1_fill(sim_l1_t *l1, uint64_t idx, const unsigned char *data,
                 int mpbt);
/** CL1INVMB: drop the MPBT lines. */
void sim_l1_invalidate(sim_l1_t *l1);
/** Drop every line. */
void sim_l1_drop_all(sim_l1_t *l1);
void sim_l2_init(sim_l2_t *l2, const rck_chip_t *c);
void sim_l2_fini(sim_l2_t *l2);
/** Entry holding shared-DRAM line @p line, or -1. */
long sim_l2_find(sim_l2_t *l2, uint64_t line);
/** Entry to fill for @p line (an empty or the LRU one), -1 if no memory. */
long sim_l2_victim(sim_l2_t *l2, uint64_t line);
/** Put @p line (clean) into entry @p e. */
void sim_l2_install(sim_l2_t *l2, long e, uint64_t line,
                    const unsigned char *data);
void sim_map_init(sim_map_t *m);
void sim_map_fini(sim_map_t *m);
/** Map [off, off + len) as @p type on @p mc. */
rck_status_t sim_map_set(sim_map_t *m, size_t off, size_t len, int type,
                         int mc);
/** Mapping of @p off, and the end of the range it belongs to. */
void sim_map_lookup(sim_map_t *m, size_t off, int *type, int *mc,
                    size_t *until);

#endif
