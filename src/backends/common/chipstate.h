/*
 * The chip's functional state, one for every backend that keeps it in
 * memory its cores share (native, the mpi backend's on-node path, the
 * sim): each
 * core's test-and-set register, pending interrupts (the pin and one GIC
 * bit per sender), frequency divider and LUT; the atomic counters; the
 * voltage of each island; the MPBs and the shared DRAM window. Its place
 * in a segment is computed once (rck_cs_layout), and its effects (a TAS
 * acquire and release, an interrupt posted and taken, a LUT entry, a
 * divider set for the whole tile, the console's write loop) are written
 * once here, as the slots rck_cs_* a backend points its ops table at.
 *
 * What a backend adds is how its cores wait (rck_cs_ops_t: who to wake
 * after a write or an interrupt), its timing and its transport; its own
 * per-core and per-run state lives in regions of its own in the same
 * segment (rck_cs_layout's extras), never in this state.
 *
 * Rules:
 *  - The backend's private struct (hal->backend) starts with an rck_cs_t:
 *    the slots find the state through it.
 *  - Every store other cores wait on is followed by the backend's wrote
 *    (MPB, TAS) or raised (interrupts) hook; readers of MPB data fence
 *    with acquire first, writers of a flag store it with release.
 *  - Effects never wait: a wait is the backend's (it tests conditions
 *    with rck_cs_conds_check and rck_cs_irq_pending).
 *
 * Owns: rck_cs_core_t, rck_cs_layout_t, rck_cs_t. May call: the HAL's
 * chip and LUT helpers, util's logger. Used by: src/backends/native,
 * src/backends/mpi (mpi_node.c) through the slots; src/backends/sim
 * through the layout and the effects (its slots add the timing).
 */
#ifndef RCK_BACKEND_CHIPSTATE_H
#define RCK_BACKEND_CHIPSTATE_H

#include "rck/chip.h"
#include "rck/copy.h"
#include "rck/hal.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* Limits of the state (a chip beyond them is refused by rck_cs_layout). */
#define RCK_CS_MAX_COUNTERS 4096
#define RCK_CS_MAX_ISLANDS 256
#define RCK_CS_GIC_WORDS (RCK_CHIP_MAX_CORES / 64)
#define RCK_CS_LUT_ENTRIES 256
/* Regions of the backend's own a layout can hold. */
#define RCK_CS_MAX_EXTRAS 8
/* Every region starts on a page (LUT windows map MPBs and shared DRAM). */
#define RCK_CS_ALIGN 4096

/* One core's functional state. A backend whose per-core struct carries
 * more (the sim's timing) starts it with these fields as an anonymous
 * member, struct { RCK_CS_CORE_FIELDS }; and passes its size to
 * rck_cs_layout (core_bytes): the effects then step through its array. */
#define RCK_CS_CORE_FIELDS                                                    \
    _Atomic uint32_t tas;      /* 0 free, 1 taken */                          \
    _Atomic uint32_t irq_pin;  /* a pin (configuration register)          \
                                  interrupt is pending */                     \
    _Atomic uint32_t fdiv;     /* the tile's frequency divider */             \
    uint32_t reserved;                                                        \
    /* pending GIC interrupts: bit s of word s / 64 for sender core s */      \
    _Atomic uint64_t gic_pending[RCK_CS_GIC_WORDS];                           \
    _Atomic uint32_t lut[RCK_CS_LUT_ENTRIES];

typedef struct {
    RCK_CS_CORE_FIELDS
} __attribute__((aligned(64))) rck_cs_core_t;

/* Where each part lies in a segment: byte offsets from its start, each a
 * multiple of RCK_CS_ALIGN.
 *
 *   [header][extra 0] ... [extra n-1][core x ncores, core_bytes each]
 *   [int32 counters][uint32 volts][MPB x ncores][shared DRAM]
 *
 * Core c's MPB is at mpb_off + c * chip->mpb_bytes. */
typedef struct {
    uint64_t extra_off[RCK_CS_MAX_EXTRAS];
    uint64_t cores_off;
    uint64_t core_bytes;       /* one core's struct (the stride) */
    uint64_t counters_off;
    uint64_t volts_off;
    uint64_t mpb_off;
    uint64_t shm_off;
    uint64_t shm_bytes;        /* the window, rounded up to a page */
    uint64_t seg_bytes;        /* the whole segment */
} rck_cs_layout_t;

struct rck_cs_ops;

/* A process's view of the state (the first member of the backend's
 * private struct). */
typedef struct {
    unsigned char *cores;      /* core c at cores + c * core_bytes */
    size_t core_bytes;
    _Atomic int32_t *counters;
    _Atomic uint32_t *volts;
    unsigned char *mpb;
    size_t mpb_bytes;          /* one core's MPB */
    unsigned char *shm;
    size_t shm_bytes;
    int ncores;
    int cores_per_tile;
    int gic_words;             /* GIC words in use: (ncores + 63) / 64 */
    int in_handler;            /* irq_poll runs a handler (no nesting) */
    const struct rck_cs_ops *ops;
} rck_cs_t;

/* What the effects need from the backend: how cores wait. Every hook is
 * filled (rck_cs_nothing* for none). */
typedef struct rck_cs_ops {
    /** A store into @p core's MPB or TAS register is done: wake whoever
     *  may wait for it. @p cs is the view, the first member of the
     *  backend's private struct (the hot path: no reload of
     *  hal->backend). */
    void (*wrote)(rck_cs_t *cs, int core);
    /** An interrupt is pending on @p core: wake it, whatever it waits
     *  for. */
    void (*raised)(rck_hal_t *hal, int core);
    /** An atomic counter changed (no wait is on a counter; a backend may
     *  count it as progress). */
    void (*counted)(rck_hal_t *hal);
} rck_cs_ops_t;

/** The hooks' "nothing to do". */
void rck_cs_nothing_core(rck_hal_t *hal, int core);
void rck_cs_nothing(rck_hal_t *hal);

/**
 * Compute the layout of a segment holding the state, once.
 * @param [in]  chip       the chip: 1..RCK_CHIP_MAX_CORES cores, at most
 *                         RCK_CS_MAX_COUNTERS counters and
 *                         RCK_CS_MAX_ISLANDS islands, MPBs of whole lines.
 * @param [in]  nues       UEs of the run, 1..ncores.
 * @param [in]  shm_bytes  the shared DRAM window (rounded up to a page).
 * @param [in]  hdr_bytes  the backend's header at offset 0 (> 0).
 * @param [in]  core_bytes one core's struct: 0 for rck_cs_core_t, else a
 *                         struct that starts with RCK_CS_CORE_FIELDS, a
 *                         multiple of 64 bytes.
 * @param [in]  extra      sizes of the backend's own regions, placed in
 *                         this order after the header (0 bytes: an empty
 *                         region).
 * @param [in]  nextra     how many (0..RCK_CS_MAX_EXTRAS).
 * @param [out] l          the layout (set only on success).
 * @return RCK_OK, or RCK_ERR_CONFIG with an error naming the size that
 *         does not fit.
 */
rck_status_t rck_cs_layout(const rck_chip_t *chip, int nues,
                           size_t shm_bytes, size_t hdr_bytes,
                           size_t core_bytes, const size_t *extra,
                           int nextra, rck_cs_layout_t *l);

/**
 * A process's view of the state in the segment mapped at @p seg.
 * @param [out] cs   the view.
 * @param [in]  seg  the segment's start.
 * @param [in]  l    its layout (rck_cs_layout).
 * @param [in]  chip the chip it was laid out for.
 * @param [in]  ops  the backend's hooks (lives as long as the view), or
 *                   NULL for a backend that calls only the effects, never
 *                   the slots (the sim: its wake-ups are timed events).
 */
void rck_cs_view(rck_cs_t *cs, void *seg, const rck_cs_layout_t *l,
                 const rck_chip_t *chip, const rck_cs_ops_t *ops);

/**
 * The state at power-on (once, by whoever made the segment, which is
 * zero-filled): TAS free, no interrupt pending, every core at the chip's
 * default divider with the default LUT (rck_lut_default), every island at
 * its starting voltage, the counters 0.
 */
void rck_cs_init(rck_cs_t *cs, const rck_chip_t *chip);

static inline rck_cs_t *rck_cs_of(rck_hal_t *hal)
{
    return (rck_cs_t *)hal->backend;
}

/* ---- the effects, for the backends' own paths ---- */

static inline rck_cs_core_t *rck_cs_core(const rck_cs_t *cs, int core)
{
    return (rck_cs_core_t *)(void *)(cs->cores +
                                     (size_t)core * cs->core_bytes);
}

static inline unsigned char *rck_cs_mpb_at(const rck_cs_t *cs, int core,
                                           uint32_t off)
{
    return cs->mpb + (size_t)core * cs->mpb_bytes + off;
}

/* The word a wait condition names. */
static inline _Atomic uint32_t *rck_cs_word(const rck_cs_t *cs,
                                            rck_space_t space, int core,
                                            uint32_t off)
{
    switch (space) {
    case RCK_SPACE_MPB:
        return (_Atomic uint32_t *)(void *)rck_cs_mpb_at(cs, core, off);
    case RCK_SPACE_SHM:
        return (_Atomic uint32_t *)(void *)(cs->shm + off);
    case RCK_SPACE_TAS:
        return &rck_cs_core(cs, core)->tas;
    }
    return NULL;
}

/* @return the index of the first satisfied condition, or -1. */
static inline int rck_cs_conds_check(const rck_cs_t *cs,
                                     const rck_hal_cond_t *c, int nc)
{
    for (int i = 0; i < nc; i++) {
        uint32_t v = atomic_load_explicit(
            rck_cs_word(cs, c[i].space, c[i].core, c[i].offset),
            memory_order_acquire);
        if (((v & c[i].mask) == c[i].value) == (c[i].op == RCK_COND_EQ))
            return i;
    }
    return -1;
}

/* Is an interrupt pending on @p core? */
static inline int rck_cs_irq_pending(const rck_cs_t *cs, int core)
{
    const rck_cs_core_t *t = rck_cs_core(cs, core);

    if (atomic_load_explicit(&t->irq_pin, memory_order_relaxed))
        return 1;
    for (int w = 0; w < cs->gic_words; w++) {
        if (atomic_load_explicit(&t->gic_pending[w], memory_order_relaxed))
            return 1;
    }
    return 0;
}

/* Take the test-and-set register of @p core: 1 if this call got it. */
static inline int rck_cs_tas_take(rck_cs_t *cs, int core)
{
    return atomic_exchange(&rck_cs_core(cs, core)->tas, 1) == 0;
}

/* Free it (whoever holds it; the chip does not check either). */
static inline void rck_cs_tas_free(rck_cs_t *cs, int core)
{
    atomic_store(&rck_cs_core(cs, core)->tas, 0);
}

static inline uint32_t rck_cs_lut_get(const rck_cs_t *cs, int core, int idx)
{
    return atomic_load_explicit(&rck_cs_core(cs, core)->lut[idx],
                                memory_order_acquire);
}

static inline void rck_cs_lut_set(rck_cs_t *cs, int core, int idx,
                                  uint32_t entry)
{
    atomic_store(&rck_cs_core(cs, core)->lut[idx], entry);
}

static inline int rck_cs_fdiv_get(const rck_cs_t *cs, int core)
{
    return (int)atomic_load(&rck_cs_core(cs, core)->fdiv);
}

/* The divider is per tile: every core of @p core's tile changes. */
static inline void rck_cs_fdiv_set(rck_cs_t *cs, int core, int fdiv)
{
    int first = core / cs->cores_per_tile * cs->cores_per_tile;

    for (int c = first; c < first + cs->cores_per_tile; c++)
        atomic_store(&rck_cs_core(cs, c)->fdiv, (uint32_t)fdiv);
}

/* The writes that wake, each followed by @p wrote(cs, core). The common
 * slots below pass the backend's hook from its rck_cs_ops_t; a backend
 * whose hot path should not pay an indirect call (native, the mpi
 * backend's on-node path) makes its slot a one-line call with its own
 * hook, which the compiler then inlines. */
typedef void (*rck_cs_wrote_fn)(rck_cs_t *cs, int core);

static inline rck_status_t rck_cs_mpb_write_with(rck_hal_t *hal, int core,
                                                 uint32_t off,
                                                 const void *src, size_t len,
                                                 rck_cs_wrote_fn wrote)
{
    rck_cs_t *cs = rck_cs_of(hal);

    rck_copy(rck_cs_mpb_at(cs, core, off), src, len);
    wrote(cs, core);
    return RCK_OK;
}

static inline rck_status_t rck_cs_mpb_copy_with(rck_hal_t *hal, int dst_core,
                                                uint32_t dst_off,
                                                int src_core,
                                                uint32_t src_off, size_t len,
                                                rck_cs_wrote_fn wrote)
{
    rck_cs_t *cs = rck_cs_of(hal);

    atomic_thread_fence(memory_order_acquire);
    memmove(rck_cs_mpb_at(cs, dst_core, dst_off),
            rck_cs_mpb_at(cs, src_core, src_off), len);
    wrote(cs, dst_core);
    return RCK_OK;
}

static inline rck_status_t rck_cs_mpb_store32_with(rck_hal_t *hal, int core,
                                                   uint32_t off,
                                                   uint32_t value,
                                                   rck_cs_wrote_fn wrote)
{
    rck_cs_t *cs = rck_cs_of(hal);

    atomic_store_explicit(rck_cs_word(cs, RCK_SPACE_MPB, core, off), value,
                          memory_order_release);
    wrote(cs, core);
    return RCK_OK;
}

/* The data, then the flag with release order, then one wrote: a sleeper
 * waits on the flag, and a poller finds the line with both. */
static inline rck_status_t
rck_cs_mpb_write_flag_with(rck_hal_t *hal, int core, uint32_t off,
                           const void *src, size_t len, uint32_t flag_off,
                           uint32_t flag, rck_cs_wrote_fn wrote)
{
    rck_cs_t *cs = rck_cs_of(hal);
    unsigned char *mpb = rck_cs_mpb_at(cs, core, 0);

    rck_copy(mpb + off, src, len);
    atomic_store_explicit((_Atomic uint32_t *)(void *)(mpb + flag_off), flag,
                          memory_order_release);
    wrote(cs, core);
    return RCK_OK;
}

static inline rck_status_t rck_cs_tas_release_with(rck_hal_t *hal, int core,
                                                   rck_cs_wrote_fn wrote)
{
    rck_cs_t *cs = rck_cs_of(hal);

    rck_cs_tas_free(cs, core);
    wrote(cs, core);
    return RCK_OK;
}

/* Mark an interrupt of @p kind from @p sender pending on @p core.
 * @return 0, or 1 when one was pending already (this one is lost, as on
 * the chip). */
int rck_cs_irq_post(rck_cs_t *cs, int core, int sender, rck_irq_kind_t kind);

/* Take every interrupt pending on @p core and run @p hal's handler for
 * each (pin first, then GIC by sender). @return how many ran. */
int rck_cs_irq_take(rck_cs_t *cs, rck_hal_t *hal, int core);

/* ---- the slots (rck/hal.h), for the backend's ops table ---- */

rck_status_t rck_cs_mpb_map(rck_hal_t *hal, int core, void **base);
rck_status_t rck_cs_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                              const void *src, size_t len);
rck_status_t rck_cs_mpb_read(rck_hal_t *hal, int core, uint32_t off,
                             void *dst, size_t len);
rck_status_t rck_cs_mpb_copy(rck_hal_t *hal, int dst_core, uint32_t dst_off,
                             int src_core, uint32_t src_off, size_t len);
rck_status_t rck_cs_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                uint32_t value);
rck_status_t rck_cs_mpb_load32(rck_hal_t *hal, int core, uint32_t off,
                               uint32_t *value);
/** The data, then the flag with release order, then one wrote. */
rck_status_t rck_cs_mpb_write_flag(rck_hal_t *hal, int core, uint32_t off,
                                   const void *src, size_t len,
                                   uint32_t flag_off, uint32_t flag);
/** The host is cache coherent: an invalidate only orders later reads
 *  after earlier ones, as CL1INVMB does. */
void rck_cs_cl1invmb(rck_hal_t *hal);
/** Orders earlier writes before later ones. */
void rck_cs_wcb_flush(rck_hal_t *hal);
rck_status_t rck_cs_tas_try(rck_hal_t *hal, int core, int *acquired);
rck_status_t rck_cs_tas_release(rck_hal_t *hal, int core);
rck_status_t rck_cs_irq_raise(rck_hal_t *hal, int core, rck_irq_kind_t kind);
rck_status_t rck_cs_irq_poll(rck_hal_t *hal, int *count);
rck_status_t rck_cs_atomic_inc(rck_hal_t *hal, int ctr, int32_t *old);
rck_status_t rck_cs_atomic_read(rck_hal_t *hal, int ctr, int32_t *value);
rck_status_t rck_cs_atomic_write(rck_hal_t *hal, int ctr, int32_t value);
rck_status_t rck_cs_lut_read(rck_hal_t *hal, int core, int idx,
                             uint32_t *entry);
rck_status_t rck_cs_lut_write(rck_hal_t *hal, int core, int idx,
                              uint32_t entry);
/** The divider is per tile: every core of @p core's tile changes. */
rck_status_t rck_cs_freq_set(rck_hal_t *hal, int core, int fdiv);
rck_status_t rck_cs_freq_get(rck_hal_t *hal, int core, int *fdiv);
rck_status_t rck_cs_volt_set(rck_hal_t *hal, int island, int mv);
rck_status_t rck_cs_volt_get(rck_hal_t *hal, int island, int *mv);
rck_status_t rck_cs_shm_map(rck_hal_t *hal, void **base, size_t *len);
rck_status_t rck_cs_shm_read(rck_hal_t *hal, size_t off, void *dst,
                             size_t len);

/** The console: every byte to the process's stdout (the launcher prefixes
 *  its lines), retried on EINTR and short writes. Used by every backend's
 *  console_write (the sim's times it around this call). */
rck_status_t rck_cs_console_write(rck_hal_t *hal, const char *buf,
                                  size_t len);

#endif
