/*
 * A memory controller's queue (sim_mc.c): the service intervals it has
 * promised. A part of the timing model with state of its own, kept in the
 * segment (one per controller) and passed in by whoever books: the memory
 * model (sim_mem.c) and the P54C model's booking (sim_p54c_book.c, also
 * inside the QEMU plugin). Includes nothing of the sim.
 * Unit test: tests/unit/test_sim_mc.c.
 */
#ifndef RCK_SIM_MC_H
#define RCK_SIM_MC_H

#include <stdint.h>

/* A memory controller's promised service intervals (sim_mc.c): a treap
 * of [start, end) by start, disjoint; index 0 is no node. */
#define SIM_MC_NODES 65536
typedef struct {
    uint64_t s, e;
    uint32_t l, r, pri;
    uint32_t next;             /* the following interval, 0 for the last */
} sim_iv_t;
typedef struct {
    uint64_t accesses;
    uint64_t queued;           /* ticks requests waited for the controller */
    uint32_t n;                /* intervals in the tree */
    uint32_t root, top, free_head, rng;
    uint32_t tail;             /* the last interval (latest end), or 0 */
    uint64_t forgot;           /* the highest floor forgotten below */
    uint32_t treap;            /* 1: the intervals are in the tree; 0:
                                  in flat[head, head + n), in order */
    uint32_t head;
    sim_iv_t iv[SIM_MC_NODES];
    uint64_t flat[SIM_MC_NODES][2]; /* the list, or compaction's scratch
                                       (no malloc: the core's heap stays
                                       as it was) */
} sim_mc_t;

/** Book controller @p mc for @p dur from the first free moment at or
 *  after @p arrive; nothing can arrive before @p floor any more (NULL:
 *  a controller at zero load). @return the start of the service. */
uint64_t sim_mc_reserve(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                        uint64_t floor);

#endif
