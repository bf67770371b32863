/*
 * The memory model (sim_mem.c): the effect and the cost of an access to
 * an MPB (through this core's L1, write-through, line visibility times)
 * and to shared DRAM (L1, L2, memory controllers, the core's port), the
 * mesh traffic they make, and stale-read hazards. The small address
 * helpers below are used by the waits and the lazy writes too.
 */
#ifndef RCK_SIM_MEM_H
#define RCK_SIM_MEM_H

#include "sim_state.h"
#include "sim_cost.h"

/* off / line_bytes and off % line_bytes */
static inline uint32_t line_div(const sim_t *s, uint32_t off)
{
    return s->line_shift ? off >> s->line_shift : off / s->chip->line_bytes;
}
static inline uint32_t line_mod(const sim_t *s, uint32_t off)
{
    return s->line_shift ? off & ((1u << s->line_shift) - 1)
                         : off % s->chip->line_bytes;
}

static inline unsigned char *mpb_at(sim_t *s, int core, uint32_t off)
{
    return s->mpb + (size_t)core * s->chip->mpb_bytes + off;
}

static inline int mc_of(sim_t *s, size_t off, int mc)
{
    return mc == RCK_MC_INTERLEAVE ? sim_mc_of_shm(s->chip, off) : mc;
}

static inline uint64_t shm_l1_idx(sim_t *s, uint64_t line)
{
    return (uint64_t)s->chip->ncores * s->lines_per_mpb + line;
}

/* A request and its answer between this core and @p tile: @p out bytes of
 * data go there, @p back bytes come back. */
static inline void mesh_xfer(sim_t *s, int tile, uint64_t out, uint64_t back)
{
    int me = rck_chip_tile(s->chip, s->core);

    if (tile == me)
        return;
    sim_mesh_route(s->chip, s->links, me, tile, out);
    sim_mesh_route(s->chip, s->links, tile, me, back);
}

/* @p n such requests and answers, @p out and @p back bytes in all. */
static inline void mesh_xfer_n(sim_t *s, int tile, uint64_t out, uint64_t back,
                        uint64_t n)
{
    int me = rck_chip_tile(s->chip, s->core);

    if (tile == me || n == 0)
        return;
    sim_mesh_route_n(s->chip, s->links, me, tile, out, n);
    sim_mesh_route_n(s->chip, s->links, tile, me, back, n);
}

/** Read through this core's L1 from core @p target's MPB. @return the
 * cost in ticks. */
uint64_t sim_mpb_read_l1(sim_t *s, int target, uint32_t off,
                         unsigned char *dst, size_t len);
/** Write through to core @p target's MPB (queued when @p lazy). @return
 * the cost in ticks. */
uint64_t sim_mpb_write_lines(sim_t *s, int target, uint32_t off,
                             const unsigned char *src, size_t len, int lazy);
/** Shared DRAM through this core's map (charged as it goes). */
void sim_shm_read_range(sim_t *s, size_t off, unsigned char *dst,
                        size_t len);
void sim_shm_write_range(sim_t *s, size_t off, const unsigned char *src,
                         size_t len);
/** Plain loads or stores to shared DRAM made outside the HAL (SVM). */
void sim_shm_touch_range(sim_t *s, size_t off, size_t len, int write);
/** Write back every dirty L2 line and drop both caches; counts the lines
 * in *clean and *dirty. */
void sim_caches_flush(sim_t *s, uint64_t *clean, uint64_t *dirty);

#endif
