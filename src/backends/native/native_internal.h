/*
 * Internals of the native backend shared by its files: the segment
 * layout and the per-process state (native.c), the deadlock detection
 * (native_deadlock.c). The waking protocol and the deadlock rules are at
 * the top of native.c.
 */
#ifndef RCK_NATIVE_INTERNAL_H
#define RCK_NATIVE_INTERNAL_H

#include "native.h"
#include "common/backend.h"
#include "common/chipstate.h"

#include <stdatomic.h>
#include <stdint.h>

#define NATIVE_MAGIC 0x323054414e4b4352ull /* "RCKNAT02" */
/* One address for the segment in every core. It must lie in application
 * memory of the sanitizers' layouts too: ThreadSanitizer allows only the
 * low 512 GiB and the top of the address space on x86-64. */
#if RCK_BE_TSAN
#define NATIVE_MAP_ADDR ((uintptr_t)0x006000000000ull)
#else
#define NATIVE_MAP_ADDR ((uintptr_t)0x3f0000000000ull)
#endif
#define NATIVE_CTX_LEN 40
#define NATIVE_DL_CONDS 8
/* Shared-DRAM words a sleeping core names to the writers (its watch); a
 * wait with more watches the range they span. */
#define NATIVE_WATCH_WORDS 64

/* CORE_DORMANT: a UE of the job's universe not started yet
 * (rck_hal_spawn claims it: CORE_IDLE until it attaches). */
enum {
    CORE_IDLE = 0,
    CORE_RUNNING = 1,
    CORE_DONE = 2,
    CORE_FAILED = 3,
    CORE_DORMANT = 4
};

/* How a core waits and what it tells the others (the chip's functional
 * state of the core is common/chipstate.h's rck_cs_core_t). */
typedef struct {
    _Atomic uint32_t doorbell;
    _Atomic uint32_t waiters;
    _Atomic uint32_t state;
    _Atomic int32_t pid;
    _Atomic int32_t ctx_peer;
    char ctx[NATIVE_CTX_LEN];
    /* deadlock detection: the published sleep (seqlock dl_pub, odd while
     * it is written) */
    _Atomic uint32_t dl_pub;
    _Atomic uint32_t dl_blocked;   /* asleep in a wait without deadline */
    _Atomic uint32_t dl_any_bell;  /* on the segment-wide doorbell */
    _Atomic uint32_t dl_bell_seq;  /* the bell's value before the sleep */
    _Atomic uint32_t dl_irq;       /* an interrupt ends the wait */
    _Atomic uint32_t dl_nconds;
    _Atomic uint64_t dl_since_ns;  /* wait start, from the job's t0 */
    rck_hal_cond_t dl_conds[NATIVE_DL_CONDS];
    /* The shared-DRAM words this core sleeps on (native.c, "Waking
     * protocol"): shm_watch is 1 while they are valid; shm_nwords = 0
     * means every word of [shm_lo, shm_hi). Written by this core only,
     * while shm_watch is 0. */
    _Alignas(64) _Atomic uint32_t shm_watch;
    _Atomic uint32_t shm_nwords;
    _Atomic uint64_t shm_lo, shm_hi;
    _Atomic uint32_t shm_words[NATIVE_WATCH_WORDS];
    /* times this core's sleeps were ended by a ring of its own doorbell
     * (a diagnostic: tests/hal/shm_bells.c) */
    _Atomic uint64_t bell_wakes;
    /* what this core did that may wake others (written by it only) */
    _Alignas(64) _Atomic uint64_t progress;
} __attribute__((aligned(64))) core_state_t;

/* The segment's regions of the native backend's own (rck_cs_layout's
 * extras). */
enum { NATIVE_REG_CORES = 0, NATIVE_REG_COMM = 1, NATIVE_NREGS = 2 };

typedef struct {
    uint64_t magic;
    uint64_t seg_bytes;
    rck_cs_layout_t layout;      /* extras: NATIVE_REG_* */
    uint64_t t0_ns;
    uint32_t nues;
    rck_chip_t chip;
    int32_t ue_core[RCK_CHIP_MAX_CORES];
    _Atomic uint32_t any_doorbell;
    _Atomic uint32_t any_waiters;
    _Atomic int32_t failed_core; /* -1 while every core is healthy */
    _Atomic int32_t sleepers;    /* cores asleep in futex_wait */
    _Atomic int32_t woken;       /* of those, woken but not yet running
                                    (may dip below 0 for a moment) */
    _Atomic int32_t deadlock;    /* 1 while one core reports, 2 after */
    _Atomic uint64_t progress;   /* job events (a core ended) */
    _Atomic int32_t dormant;     /* UEs not started (CORE_DORMANT) */
    _Atomic int32_t shm_watchers; /* cores with shm_watch set */
} seg_hdr_t;

struct rck_job {
    int fd;
    int dram_fd;                 /* private DRAM of the LUT windows, or -1 */
    seg_hdr_t *hdr;
    size_t bytes;
};

typedef struct {
    rck_cs_t cs;               /* the chip's state (first: its slots find
                                  it through hal->backend) */
    int fd;
    seg_hdr_t *hdr;
    core_state_t *cores;       /* how each core waits */
    int64_t spin_ns;           /* < 0: decide from the awake cores */
    int ncpu;
    int64_t yield_ns;
    int64_t crowd_yield_ns;    /* RCK_YIELD_CROWDED_NS */
    int crowd;                 /* RCK_YIELD_CROWD: job cores per CPU */
    int load_fd;               /* /proc/loadavg, or -1 */
    int64_t loaded_spin_ns;    /* RCK_SPIN_LOADED_NS */
    int load_running;          /* its runnable count, -1 if unknown */
    uint64_t load_at;          /* when it was read */
    const char *ctx_call;
    int ctx_peer;
    const char *pub_call;      /* what native_publish_context last wrote */
    int pub_peer;
    int pub_done;
    _Atomic uint64_t *progress; /* this core's progress word */
    int64_t dl_ns;             /* RCK_DEADLOCK_S in ns, 0 = off */
    int dl_seen;               /* observing a state where all are blocked */
    uint64_t dl_sum, dl_since, dl_next;
    int dl_failed;             /* a wait of this core failed by deadlock */
    int peer_dead_said;        /* "core N failed" logged (once a process) */
    int asym;                  /* registered for membarrier: writers skip
                                  the wake-up protocol's fence */
    int asym_sleep;            /* sleepers issue the membarrier */
} native_t;

struct rck_lutwin_params;
/* native_lut.c: the lut_window slot */
rck_status_t native_lut_window(rck_hal_t *hal, struct rck_lutwin_params *p);

/* @p k sleepers were just woken: until they run they compete for the CPUs
 * but are still counted as sleepers (spin_now). */
static inline void woke(native_t *n, int k)
{
    if (k > 0)
        atomic_fetch_add_explicit(&n->hdr->woken, k, memory_order_relaxed);
}

/* native_spin.c */
int64_t rck__nat_spin_budget(void);
int64_t rck__nat_spin_now(native_t *n, int nues, uint64_t now, int64_t *yield);
/* native_watch.c */
void rck__nat_wait_doorbell(native_t *n, const rck_hal_cond_t *c, int nc,
                            int self, _Atomic uint32_t **bell,
                            _Atomic uint32_t **waiters);
int rck__nat_wait_has_shm(const rck_hal_cond_t *c, int nc);
void rck__nat_shm_watch_begin(native_t *n, int self, const rck_hal_cond_t *c,
                              int nc);
void rck__nat_shm_watch_end(native_t *n, int self);
void rck__nat_shm_ring(native_t *n, uint64_t off, uint64_t len);

static inline native_t *nat(rck_hal_t *hal)
{
    return (native_t *)hal->backend;
}

/* Something that may wake another core happened (only this core writes
 * its progress word: no read-modify-write across cores). */
static inline void progress_bump(native_t *n)
{
    atomic_store_explicit(n->progress,
                          atomic_load_explicit(n->progress,
                                               memory_order_relaxed) +
                              1,
                          memory_order_relaxed);
}

static inline core_state_t *native_cores(seg_hdr_t *h)
{
    return (core_state_t *)((char *)h +
                            h->layout.extra_off[NATIVE_REG_CORES]);
}

static inline void wake_everyone(seg_hdr_t *h)
{
    core_state_t *cs = native_cores(h);
    int k = 0;

    for (int c = 0; c < h->chip.ncores; c++)
        k += rck_be_bell_wake(&cs[c].doorbell);
    k += rck_be_bell_wake(&h->any_doorbell);
    atomic_fetch_add_explicit(&h->woken, k, memory_order_relaxed);
}

static inline _Atomic uint32_t *word_at(native_t *n, rck_space_t space,
                                        int core, uint32_t off)
{
    return rck_cs_word(&n->cs, space, core, off);
}

static inline int conds_check(native_t *n, const rck_hal_cond_t *c, int nc)
{
    return rck_cs_conds_check(&n->cs, c, nc);
}

static inline int irq_any_pending(native_t *n, int core)
{
    return rck_cs_irq_pending(&n->cs, core);
}

/* ---- deadlock detection (native_deadlock.c) ---- */

/** Publish the sleep this core is about to take (before every futex wait
 * of a wait without deadline). */
void native_dl_publish(native_t *n, int core, const rck_hal_cond_t *conds,
                       int nc, int irq, int any_bell, uint32_t seq,
                       uint64_t start);
/** Take it back after the sleep. */
void native_dl_unpublish(native_t *n, int core);
/** Look at the others: @return 1 when the run is (now) deadlocked. */
int native_dl_look(native_t *n, rck_hal_t *hal, uint64_t now);

#endif
