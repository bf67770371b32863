/*
 * The sim's shared state: the segment (its header, the UEs, the cores,
 * the sim's regions) and a process's view of it (sim_t), with the
 * engine's invariants. Types, constants and accessors only: no part's
 * functions are declared here; each part has its own header of what it
 * offers (sim_engine.h, sim_cost.h, sim_mc.h, sim_l1.h, sim_compute.h,
 * sim_p54c.h, sim_power.h, sim_monitor.h, sim_report.h, sim_seg.h,
 * sim_mem.h, sim_wait.h, sim_lazy.h, sim_charge.h, sim_sched.h). It
 * includes only the headers of the types it embeds, none of which
 * includes it back (docs/SIM.md, "Source files").
 *
 * Segment (one memfd made by the launcher's job_create, inherited by every
 * core and mapped at SIM_MAP_ADDR in each), laid out by the common chip
 * state (common/chipstate.h, rck_cs_layout) with the sim's own regions
 * (SIM_REG_*) first:
 *
 *   [sim_hdr_t][sim_ue_t x nues][GIC pending times ncores x ncores][MPB
 *   line visibility times][memory controllers][MPB writes, nues x ncores]
 *   [mesh links, nues x ntiles x 4][pending writes, nues][communication
 *   matrix][sim_core_t x ncores][atomic counters][volts: unused, the
 *   sim's are hdr->volt_mv][MPB x ncores][shm]
 *
 * sim_core_t starts with the common state of a core (TAS, divider, LUT),
 * which the HAL slots change through the common effects (rck_cs_*); what
 * the sim adds is timing: when a write is visible, when an interrupt is
 * delivered (the pin and GIC times; the common pending bits are unused
 * here).
 *
 * Time. Virtual time is counted in ticks: SIM_TICKS ticks are one cycle of
 * the chip's base core clock (chip.core_mhz). Costs given in base cycles
 * (the calibration tables) are exact in ticks; costs in the issuing core's
 * own cycles scale with its frequency divider.
 *
 * THE INVARIANTS OF THE ENGINE (everything else relies on them):
 *  1. At most one process runs program code or touches model state at a
 *     time: the holder of the run token (hdr->token). Every other attached
 *     core sleeps inside a HAL call. The only exceptions are the launcher
 *     (job_core_exited when a core died, which either aborts the run or
 *     acts for the dead holder) and a run that has been aborted (deadlock,
 *     dead peer), after which cores run free and only waits fail.
 *  2. The holder's virtual time is the smallest (wake, ue) of all runnable
 *     cores whenever it executes an event on shared state (sim_engine_order;
 *     with RCK_SIM_LOOKAHEAD, at most that much larger). A core's `wake` is
 *     its virtual time while it is runnable, the time it is to be woken
 *     while parked (SIM_INF: only a write can wake it).
 *  3. Event times handed out are never earlier than the holder's: a wake-up
 *     is max(park time, visibility time) + poll cost >= the writer's issue
 *     time. So the processed event times never decrease (without
 *     lookahead), and every decision depends on virtual times only: the run
 *     is the same every time.
 *  4. Only the holder changes another core's scheduling fields; token
 *     hand-over is a seq_cst store of hdr->token plus a futex wake of the
 *     receiver's `go` word, which publishes everything written before it.
 *  5. Lazy writes. A core that is not the earliest may still issue a
 *     plain write (MPB write or store, TAS release): it queues the write,
 *     with its key (time, UE), in its own pending queue instead of handing
 *     over, and goes on. A queued write is applied (memory, visibility
 *     times, wake-ups) by whichever core holds the token, exactly when the
 *     global order reaches its key: before any event with a larger key is
 *     executed (sim_engine_order and sim_engine_settle apply every pending
 *     write up to the key about to run, and only those). So every read
 *     sees exactly the writes with smaller keys, as in strict order: the
 *     run is the same as without lazy writes, only with fewer hand-overs.
 *  6. Booking steps (P54C). A core's booking (sim_ue_t.p54c_book: its
 *     port and the slice it books) is touched only by the token's holder:
 *     the core itself while it books, or, while it waits STOPPED in time
 *     order, the holder that takes its next step when the order reaches
 *     it (sim_engine.c settle_books, sim_p54c.c p54c_book_step), exactly
 *     as the core would have: the same bookings, fewer hand-overs.
 */
#ifndef RCK_SIM_STATE_H
#define RCK_SIM_STATE_H

#include "common/backend.h"
#include "common/chipstate.h"
#include "sim_cost.h"
#include "sim_l1.h"
#include "sim_mc.h"
#include "sim_monitor_types.h"
#include "sim_p54c_types.h"
#include "sim_power_types.h"

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

/** Where the sim's settings are listed (rck_config_register): after the
 *  native backend's. */
#define RCK_SIM_CONFIG_RANK 20

#define SIM_MAGIC 0x314d495354434b52ull /* "RCKTSIM1" */
#define SIM_INF UINT64_MAX
#define SIM_MAX_CONDS 256
#define SIM_CTX_LEN 40
#define SIM_MAX_HAZARDS 32
#define SIM_MAX_ISLANDS 256
#define SIM_PATH_LEN 1024

/* One address for the segment in every core, apart from native's. It must
 * lie in application memory of the sanitizers' layouts too (ThreadSanitizer
 * allows only the low 512 GiB on x86-64). */
#if RCK_BE_TSAN
#define SIM_MAP_ADDR ((uintptr_t)0x007000000000ull)
#else
#define SIM_MAP_ADDR ((uintptr_t)0x3e0000000000ull)
#endif
/* Every core's P54C slot, in each core that books for the others
 * (sim_p54c.c): just below the segment, at most this large. */
#define SIM_P54C_SLOTS_MAX (1ull << 35)
#define SIM_P54C_SLOTS_ADDR (SIM_MAP_ADDR - SIM_P54C_SLOTS_MAX)

/* Scheduling state of a UE. UE_FREE: the watchdog took the token from it
 * while it ran outside the HAL for too long; it runs unordered until its
 * next HAL call puts it back in line. */
/* UE_DORMANT: a UE of the job's universe not started (rck_hal_spawn);
 * UE_JOIN: claimed by a spawn, eligible from its wake time (the spawner's
 * time) before its process attaches. */
enum {
    UE_ABSENT = 0,
    UE_RUN = 1,
    UE_PARK = 2,
    UE_DONE = 3,
    UE_FREE = 4,
    UE_JOIN = 5,
    UE_DORMANT = 6
};

/* hdr->token while the watchdog or the launcher decides who gets it. */
#define SIM_TOKEN_BUSY (-2)

/* How a UE ended (report). */
enum {
    UE_END_RUNNING = 0,
    UE_END_DETACHED = 1,  /* detach or exit through the atexit hook */
    UE_END_EXITED = 2,    /* exited without detaching (launcher saw it) */
    UE_END_FAILED = 3,    /* crashed, killed, or exited non-zero */
    UE_END_DEADLOCK = 4,  /* its wait failed with RCK_ERR_DEADLOCK */
    UE_END_ABORTED = 5    /* its wait failed because a peer died */
};

/* Why a run stopped being simulated in order. */
enum { SIM_ABORT_NONE = 0, SIM_ABORT_PEER_DEAD = 1, SIM_ABORT_DEADLOCK = 2 };

/* Where the cycles of a core went (report). */
enum {
    CAT_COMPUTE = 0,
    CAT_MPB = 1,
    CAT_DRAM = 2,
    CAT_WAIT = 3,
    CAT_IRQ = 4,
    CAT_OTHER = 5,
    CAT_N = 6
};

/* Compute models (RCK_COMPUTE). */
enum { COMPUTE_NONE = 0, COMPUTE_HOST = 1, COMPUTE_INSTR = 2,
       COMPUTE_P54C = 3, COMPUTE_P54C_FAST = 4 /* sim_p54c.c */ };

/* The name of compute model @p kind (COMPUTE_*), as RCK_COMPUTE spells it:
 * beside the
 * kinds: the dispatcher (sim_compute.c), the models below it (sim_p54c.c)
 * and the report name them. */
static inline const char *sim_compute_name(int kind)
{
    switch (kind) {
    case COMPUTE_NONE: return "none";
    case COMPUTE_HOST: return "host";
    case COMPUTE_INSTR: return "instructions";
    case COMPUTE_P54C: return "p54c";
    case COMPUTE_P54C_FAST: return "p54c-fast";
    }
    return "?";
}

/* wait flags published while parked */
enum { PARK_IRQ = 1u << 0, PARK_HANDLER = 1u << 1 };

typedef struct {
    int32_t target;        /* MPB owner core; -1: shared DRAM */
    uint64_t off;          /* byte offset of the first stale byte */
    uint64_t count;
    uint64_t first_tick;
    char ctx[SIM_CTX_LEN];
    int32_t peer;
} sim_hazard_t;

typedef struct {
    /* ---- scheduling (invariant 4; state and wake are in the header,
     * sim_state() and sim_wake()) ---- */
    _Atomic uint32_t go;       /* futex: bumped when the token is given */
    _Atomic uint32_t sleeping; /* in (or about to enter) futex_wait on go */
    uint64_t vt;               /* virtual time (ticks) */
    /* ---- the wait this UE is parked in ---- */
    int32_t nconds;
    uint32_t park_flags;
    uint64_t wait_start;       /* vt at which the wait began */
    int32_t sat_which;         /* condition a writer found true, or -1 */
    int32_t sat_early;         /* ... by a write older than the wait */
    uint64_t park_wake;        /* wake time without writes: timeout, irq */
    int32_t ctx_peer;
    char ctx[SIM_CTX_LEN];
    rck_hal_cond_t conds[SIM_MAX_CONDS];
    uint64_t poll[SIM_MAX_CONDS]; /* ticks of one poll of each, by it */
    /* ---- watchdog ---- */
    _Atomic uint32_t in_hal;
    _Atomic uint64_t hal_seq;  /* HAL calls left */
    _Atomic uint64_t wd_seq;   /* watchdog: hal_seq + 1 when it first */
    _Atomic uint64_t wd_since; /* saw the core outside the HAL, and when */
    _Atomic int32_t pid;
    /* ---- statistics, written by the UE itself ---- */
    uint64_t cat[CAT_N];       /* ticks */
    uint64_t cyc;              /* own clock, in cycle ticks */
    uint64_t events, handovers, parks, stale_reads, l1_misses, irqs;
    uint64_t yields;           /* hand-overs at an event (not a park) */
    uint64_t instructions;     /* from the compute model */
    uint64_t mpb_lines_written, mpb_lines_read;
    uint64_t dram_tx, l2_hits, l2_misses, l2_writebacks;
    uint64_t nc_reads;         /* non-cacheable DWORD reads (perfctr) */
    uint64_t book_steps;       /* booking steps it took for stopped cores
                                  (sim_p54c.c), without a hand-over */
    _Atomic uint32_t end;      /* UE_END_* */
    uint32_t nhaz;
    sim_hazard_t haz[SIM_MAX_HAZARDS];
    sim_power_ue_t pw;         /* energy (sim_power.c) */
    sim_p54c_pend_t p54c_book; /* the P54C port and the slice being
                                  booked (sim_p54c.c) */
} __attribute__((aligned(64))) sim_ue_t;

typedef struct {
    struct {
        RCK_CS_CORE_FIELDS     /* the chip's state of the core */
    };
    int32_t ue;                /* UE running on this core, -1 if none */
    uint32_t watchers;         /* parked waits on this MPB or TAS */
    uint64_t watch_ues[RCK_CHIP_MAX_CORES / 64]; /* UEs with one of them */
    uint64_t tas_vis;          /* completion time of the last TAS write */
    uint64_t pin_at;           /* pin interrupt delivery time, SIM_INF */
    uint64_t irq_next;         /* earliest pending delivery, SIM_INF */
} __attribute__((aligned(64))) sim_core_t;

/* The sim's own regions of the segment (rck_cs_layout's extras). */
enum {
    SIM_REG_UES = 0,
    SIM_REG_GIC,
    SIM_REG_VIS,
    SIM_REG_MC,
    SIM_REG_MATRIX,
    SIM_REG_LINKS,
    SIM_REG_PW,
    SIM_REG_COMM,
    SIM_NREGS
};

/* MPB writes of one UE into one core's MPB. */
typedef struct {
    uint64_t bytes;
    uint64_t writes;           /* HAL calls (mpb_write, store32, copy) */
} sim_pair_t;

/* A write queued by a core that was not the earliest (invariant 5). */
enum { SIM_PW_MPB = 0, SIM_PW_TAS = 1 };
typedef struct {
    uint64_t t;                /* issue time: the key is (t, UE) */
    uint64_t per;              /* MPB: ticks per line (visibility) */
    uint64_t dend;             /* data ring position after its data */
    int32_t kind, core;
    uint32_t off, len;
    uint32_t data;             /* offset of its data in the ring */
} sim_pw_t;

#define SIM_PW_SLOTS 64
#define SIM_PW_DATA (32u << 10)
typedef struct {
    uint32_t head, tail;       /* queued entries: [head, tail) */
    uint64_t dhead, dtail;     /* data ring, monotonic byte counters */
    sim_pw_t e[SIM_PW_SLOTS];
    unsigned char data[SIM_PW_DATA];
} sim_pwq_t;

typedef struct sim_hdr {
    uint64_t magic;
    uint64_t seg_bytes;
    rck_cs_layout_t layout;    /* extras: SIM_REG_* */
    uint64_t shm_bytes;        /* = layout.shm_bytes */
    sim_monitor_job_t mon;     /* progress output (sim_monitor.c) */
    rck_chip_t chip;
    uint32_t nues;
    int32_t ue_core[RCK_CHIP_MAX_CORES];
    /* resolved once, in job_create, so every core agrees */
    int32_t compute;           /* COMPUTE_* */
    double compute_rel;        /* host: SCC speed relative to the host */
    double compute_cpi;        /* instructions: cycles per instruction */
    int32_t hazards;           /* RCK_SIM_HAZARDS */
    int32_t summary;           /* RCK_SIM_SUMMARY */
    int32_t pin_cpu;           /* -1: no pinning */
    int32_t watchdog_s;        /* 0: off */
    int64_t spin_ns;           /* a core gives up the token and spins */
    uint64_t lookahead;        /* ticks a core may run past the horizon */
    uint64_t sched_seed;       /* RCK_SIM_SCHEDULE; 0: the model's order */
    int32_t private_job;
    char report_path[SIM_PATH_LEN]; /* empty: no report file */
    char trace_path[SIM_PATH_LEN];  /* empty: no trace */
    uint64_t host_t0_ns;
    /* ---- engine ---- */
    _Atomic int32_t token;     /* UE holding the run token, -1 none */
    _Atomic int32_t spinner;   /* UE spinning for the token, -1 none */
    _Atomic int32_t watcher;   /* the waiting UE that watches, -1 none */
    _Atomic int32_t settled;   /* UEs attached or gone before attaching */
    int32_t nstart;            /* UEs started with the job (settled's goal) */
    _Atomic int32_t started;
    _Atomic int32_t abort;     /* SIM_ABORT_* */
    _Atomic int32_t failed_core;
    _Atomic uint64_t watchdog_warned; /* hal_seq + 1 of the last warning */
    _Atomic int32_t reported;
    _Atomic uint32_t steals;   /* tokens the watchdog took (run unordered) */
    uint32_t nparked_shm;      /* parked waits with a shared-DRAM word */
    uint32_t npending;         /* queued writes of all UEs */
    uint64_t lazy_writes;      /* writes that were queued (report) */
    uint64_t pend_t[RCK_CHIP_MAX_CORES]; /* per UE: key time of its first
                                            queued write, SIM_INF: none */
    uint64_t pend_ues[RCK_CHIP_MAX_CORES / 64]; /* UEs with queued writes */
    uint64_t pend_min_t;       /* the smallest (pend_t, UE), when */
    int32_t pend_min_ue;       /* pend_min_ok */
    int32_t pend_min_ok;
    /* Per UE, side by side: every hand-over looks at all of them (a
     * sim_ue_t is a few pages; after a context switch each page costs a
     * TLB miss). state: UE_*; wake: see invariant 2. */
    _Atomic uint32_t ue_state[RCK_CHIP_MAX_CORES];
    uint64_t ue_wake[RCK_CHIP_MAX_CORES];
    uint64_t deadlock_tick;
    uint32_t volt_mv[SIM_MAX_ISLANDS];
    sim_p54c_job_t p54c;       /* the P54C compute model (sim_p54c.c) */
    sim_power_hdr_t pw;        /* regulators, DVFS log (sim_power.c) */
} sim_hdr_t;

/* This core's port to memory: the last read and write transactions (one
 * outstanding write; transactions of one kind at least `interval`
 * apart). */
typedef struct {
    uint64_t rd_start, rd_next, rd_done;
    uint64_t wr_start, wr_next, wr_done;
} sim_port_t;

#define SIM_CTX_LOG 8

/* A library call named by set_context, and its message (set_message;
 * -1: not known / none). */
typedef struct {
    const char *call;
    int peer;
    int tag, comm;
    long long bytes;
} sim_ctx_t;

/* This core's part of the trace (sim_report.c). */
typedef struct {
    char *buf;                 /* NULL: not tracing (sim_trace.c's buffer) */
    size_t len;                /* bytes in it */
    int fd;                    /* the part's file */
    int failed;                /* a write failed: no more */
    uint64_t n, max;           /* events written, at most */
    int truncated;
    sim_ctx_t call;            /* open library call (set_context) */
    uint64_t call_t;
    uint64_t flows;
} sim_trace_t;

/* The calling process's view. */
typedef struct sim {
    rck_cs_t cs;               /* the chip's state (common/chipstate.h) */
    int fd;
    sim_hdr_t *hdr;
    sim_ue_t *ues;
    sim_core_t *cores;
    uint64_t *gic;             /* [target * ncores + sender] delivery time */
    _Atomic int32_t *counters;
    uint64_t *vis;             /* [core * lines_per_mpb + line] */
    sim_mc_t *mcs;
    sim_pair_t *matrix;        /* [ue * ncores + target] */
    unsigned char *mpb;
    unsigned char *shm;
    const rck_chip_t *chip;
    uint32_t lines_per_mpb;
    uint32_t line_shift;       /* log2(line_bytes), 0 if not a power of 2 */
    int mhz_fdiv;              /* the divider mhz is for, -1: none */
    double mhz;
    uint64_t *cost_lw, *cost_dr; /* per target core, 0: not yet known */

    int ue, core;
    sim_ue_t *me;
    uint64_t floor_cache;      /* the controllers' floor (sim_mem.c), */
    int floor_valid;           /* valid until the core orders again */
    uint64_t hz_vt;            /* horizon: min (wake, ue) of the others */
    int hz_ue;
    uint64_t wake_gen;         /* bumped when this core changes a wake */
    int detached;
    int compute_started;       /* sim_compute_start was called */
    int in_handler;
    int unordered;             /* the run was aborted: no ordering */

    /* compute model */
    int compute;
    double compute_rel, compute_cpi;
    double compute_carry;      /* fractional cycles not charged yet */
    uint64_t compute_discount_ns; /* host: trap time not to charge (trap) */
    int compute_discount_slices;  /* compute slices it may come from */
    uint64_t compute_mark;     /* host ns or instructions at HAL exit */
    uint64_t compute_ovh;      /* what one reading itself adds */
    /* host: the thread's CPU time without a system call (sim_compute.c) */
    int clock_fd;
    const volatile void *clock_page;
    uint64_t clock_cpu, clock_wall;
    uint32_t clock_seq;
    int clock_valid;
    int clock_rseq;            /* switches seen through rseq, not perf */
    const volatile void *clock_tls; /* rseq: the thread of the reading */
    uint64_t clock_last;       /* the last value returned: monotonic */
    int clock_est;             /* clock_cpu is carried across a sleep */
    uint64_t clock_at;         /* wall time of the last reading, and */
    int clock_at_est;          /* whether it came from an estimate */
    uint64_t mark_at;          /* the same for compute_mark */
    int mark_est;
    uint64_t sleep_cpu;        /* the CPU time when it went to sleep */
    int sleep_ok;
    int perf_fd;

    const char *ctx_call;
    int ctx_peer;
    /* set_context's changes since the trace last saw them (it sees them
     * at the next HAL entry: sim_trace_context); the oldest are lost
     * beyond SIM_CTX_LOG */
    sim_ctx_t ctx_log[SIM_CTX_LOG];
    uint32_t ctx_n, ctx_seen;
    sim_l1_t l1;
    sim_l2_t l2;
    sim_map_t map;
    sim_port_t port;
    sim_link_t *links;         /* this UE's row of link counters */
    sim_trace_t trace;
    sim_p54c_core_t p54c;      /* the P54C compute model (sim_p54c.c) */
} sim_t;

static inline sim_t *sim_of(rck_hal_t *hal)
{
    return (sim_t *)hal->backend;
}

/* (t1, u1) before (t2, u2): the event order. */
static inline int sim_before(uint64_t t1, int u1, uint64_t t2, int u2)
{
    return t1 < t2 || (t1 == t2 && u1 < u2);
}

/* The host's monotonic clock, in ns. */
static inline uint64_t sim_host_ns(void)
{
    return rck_be_now_ns();
}

/* segment accessors */
static inline sim_ue_t *sim_hdr_ues(sim_hdr_t *h)
{
    return (sim_ue_t *)((char *)h + h->layout.extra_off[SIM_REG_UES]);
}
static inline sim_core_t *sim_hdr_cores(sim_hdr_t *h)
{
    return (sim_core_t *)((char *)h + h->layout.cores_off);
}
static inline unsigned char *sim_hdr_mpb(sim_hdr_t *h)
{
    return (unsigned char *)h + h->layout.mpb_off;
}
static inline unsigned char *sim_hdr_shm(sim_hdr_t *h)
{
    return (unsigned char *)h + h->layout.shm_off;
}
static inline sim_mc_t *sim_hdr_mcs(sim_hdr_t *h)
{
    return (sim_mc_t *)((char *)h + h->layout.extra_off[SIM_REG_MC]);
}
static inline sim_pair_t *sim_hdr_matrix(sim_hdr_t *h)
{
    return (sim_pair_t *)((char *)h + h->layout.extra_off[SIM_REG_MATRIX]);
}
/* [ue * ntiles * SIM_LINK_DIRS + tile * SIM_LINK_DIRS + dir] */
static inline sim_link_t *sim_hdr_links(sim_hdr_t *h)
{
    return (sim_link_t *)((char *)h + h->layout.extra_off[SIM_REG_LINKS]);
}
/* UE @p ue's row of the communication matrix (rck/monitor.h) */
static inline uint64_t *sim_hdr_comm(sim_hdr_t *h, int ue)
{
    return (uint64_t *)((char *)h + h->layout.extra_off[SIM_REG_COMM]) +
           rck_comm_row_words((int)h->nues) * (size_t)ue;
}
static inline _Atomic uint32_t *sim_state(sim_hdr_t *h, int ue)
{
    return &h->ue_state[ue];
}
static inline uint64_t *sim_wake(sim_hdr_t *h, int ue)
{
    return &h->ue_wake[ue];
}
static inline sim_pwq_t *sim_hdr_pwq(sim_hdr_t *h, int ue)
{
    return (sim_pwq_t *)((char *)h + h->layout.extra_off[SIM_REG_PW]) + ue;
}
/** Value of a waited-on word now. */
static inline uint32_t sim_word(sim_hdr_t *h, const rck_hal_cond_t *c)
{
    switch (c->space) {
    case RCK_SPACE_MPB:
        return __atomic_load_n(
            (uint32_t *)(sim_hdr_mpb(h) +
                         (size_t)c->core * h->chip.mpb_bytes + c->offset),
            __ATOMIC_RELAXED);
    case RCK_SPACE_SHM:
        return __atomic_load_n((uint32_t *)(sim_hdr_shm(h) + c->offset),
                               __ATOMIC_RELAXED);
    case RCK_SPACE_TAS:
        return atomic_load_explicit(&sim_hdr_cores(h)[c->core].tas,
                                    memory_order_relaxed);
    }
    return 0;
}

#endif
