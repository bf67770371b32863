/*
 * A memory controller's queue (sim_mc.c): the service intervals it has
 * promised. A part of the timing model with state of its own, kept in the
 * segment (one per controller) and passed in by whoever books: the memory
 * model (sim_mem.c) and the P54C model's booking (sim_p54c_book.c, also
 * inside the QEMU plugin). Includes nothing of the sim.
 * Unit tests: tests/unit/test_sim_mc.c (against a plain list),
 * test_sim_mc_book.c (the P54C booking's runs against a plain booker).
 */
#ifndef RCK_SIM_MC_H
#define RCK_SIM_MC_H

#include <stdint.h>

/* The most intervals a controller holds (one less, in fact: when a
 * request finds SIM_MC_NODES - 2 promised, the smallest eighth of the gaps
 * are closed first). */
#define SIM_MC_NODES 65536

/* One promised service interval, [s, e). */
typedef struct {
    uint64_t s, e;
} sim_iv_t;

/* A memory controller's promised service intervals (sim_mc.c), sorted by
 * start and disjoint, in a gap buffer: the first part in iv[lo, gap), the
 * other @p nb in iv[SIM_MC_NODES - nb, SIM_MC_NODES); the room between
 * moves to where a request lands. All zeros is an empty controller. No
 * pointers (the segment is mapped at different addresses) and no malloc
 * (the core's heap stays as it was). */
typedef struct {
    uint64_t accesses;
    uint64_t queued;           /* ticks requests waited for the controller */
    uint64_t forgot;           /* the highest floor forgotten below */
    uint32_t n;                /* intervals promised: gap - lo + nb */
    uint32_t lo, gap, nb;
    sim_iv_t iv[SIM_MC_NODES];
    uint64_t scratch[SIM_MC_NODES]; /* compaction's gaps */
} sim_mc_t;

/** Book controller @p mc for @p dur from the first free moment at or
 *  after @p arrive; nothing can arrive before @p floor any more (NULL:
 *  a controller at zero load). @return the start of the service. */
uint64_t sim_mc_reserve(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                        uint64_t floor);

/** Book controller @p mc for @p count requests of @p dur each, under
 *  one floor @p floor, the first arriving at @p arrive and each next one
 *  @p step (>= @p dur) after the previous one's service starts: exactly
 *  what @p count calls of sim_mc_reserve in turn would do (a pile of
 *  write-backs behind one another on the core's write port), in a tight
 *  loop that appends while the queue ahead is free (NULL: a controller
 *  at zero load). @return the last request's service start; @p last
 *  gets its arrival (@p count 0: nothing booked, both @p arrive). */
uint64_t sim_mc_chain(sim_mc_t *mc, uint64_t arrive, uint64_t dur,
                      uint64_t step, uint64_t count, uint64_t floor,
                      uint64_t *last);

/* The most intervals a snapshot holds. */
#define SIM_MC_SNAP 16

/* A small controller's state, to find a booking that repeats itself: its
 * intervals, the highest floor forgotten below, its counts. */
typedef struct {
    uint64_t forgot, accesses, queued;
    uint32_t n, pad;
    sim_iv_t iv[SIM_MC_SNAP];
} sim_mc_snap_t;

/** Copy controller @p mc's state into @p out. @return 1, or 0 (nothing
 *  copied) when it holds more than SIM_MC_SNAP intervals. */
int sim_mc_snap(const sim_mc_t *mc, sim_mc_snap_t *out);

/** Is @p b the state @p a moved @p d later (every interval and the
 *  floor forgotten; the counts are not compared)? */
int sim_mc_snap_moved(const sim_mc_snap_t *a, const sim_mc_snap_t *b,
                      uint64_t d);

/** Move every interval of @p mc and the floor it forgot below @p d
 *  later, and add @p accesses and @p queued to its counts: the state
 *  after a booking that repeats itself (every request @p d later than
 *  one already booked) has gone on for that long (sim_p54c_book.c). */
void sim_mc_move(sim_mc_t *mc, uint64_t d, uint64_t accesses,
                 uint64_t queued);

#endif
