/*
 * rck_hal: the SCC as software on one core sees it.
 *
 * Every library (RCCE, iRCCE, mailboxes, SVM, ...) touches chip state only
 * through these calls, so a backend can order and time each of them: the
 * native backend runs them at host speed on shared memory, the sim backend
 * turns each into an event at the core's virtual time. No library spins on
 * memory: waiting is rck_hal_wait().
 *
 * Addresses. Cores are physical core ids 0 .. chip->ncores-1. An MPB
 * location is (core, byte offset into that core's MPB). Shared off-chip
 * DRAM is one window mapped at the same virtual address in every core.
 *
 * Memory model seen through the HAL (the chip's, not the host's):
 *  - rck_hal_mpb_write() of whole lines behaves like MPBT writes through
 *    the write-combine buffer; the data is visible to other cores once the
 *    call returns (native) or at the modelled completion time (sim).
 *  - rck_hal_mpb_read() may return stale data for lines this core read
 *    before and has not invalidated with rck_hal_cl1invmb() (sim models the
 *    L1; native is coherent, so stale reads never happen there).
 *  - Word operations (rck_hal_mpb_load32/store32) are single 32-bit
 *    accesses; they are not atomic read-modify-writes. The only atomic
 *    primitives are the TAS registers and the GIC atomic counters.
 */
#ifndef RCK_HAL_H
#define RCK_HAL_H

#include "rck/chip.h"
#include "rck/lib.h"
#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

/** Exit status of a core whose wait failed because the run deadlocked
 * (RCK_ERR_DEADLOCK), even if its program then returns 0: the same on
 * every backend that detects deadlocks (native, sim), so a deadlocked run
 * ends with this status (README, "Exit status"). */
#define RCK_HAL_EXIT_DEADLOCK 3

typedef struct rck_job rck_job_t;
typedef struct rck_hal_ops rck_hal_ops_t;
struct rck_lutwin_params; /* rck/lutwin.h */

/** Where a waited-on word lives. */
typedef enum {
    RCK_SPACE_MPB = 0, /* (core, offset) in a message passing buffer */
    RCK_SPACE_SHM = 1, /* offset into the shared DRAM window; core ignored */
    RCK_SPACE_TAS = 2  /* core's TAS register: 0 free, 1 taken; offset 0 */
} rck_space_t;

/** Condition on one 32-bit word, for rck_hal_wait(). */
typedef enum {
    RCK_COND_EQ = 0, /* (word & mask) == value */
    RCK_COND_NE = 1  /* (word & mask) != value */
} rck_cond_op_t;

typedef struct {
    rck_space_t space;
    int core;          /* MPB owner (RCK_SPACE_MPB) */
    uint32_t offset;   /* byte offset, 4-byte aligned */
    uint32_t mask;
    uint32_t value;
    rck_cond_op_t op;
} rck_hal_cond_t;

/** rck_hal_wait() flags. */
enum {
    RCK_WAIT_IRQ = 1u << 0, /* also return when an interrupt is pending */
    /* a hint: the caller expects a long wait (the early arrivals of a
     * barrier). Native does not spin first when the job has more cores
     * than the host has CPUs (it yields, where its policy yields, then
     * sleeps); the other backends ignore it. */
    RCK_WAIT_SLEEP = 1u << 1
};

/**
 * How a core maps a range of shared DRAM (page-table attributes on the
 * chip): the access path and the costs the sim backend charges follow it.
 */
typedef enum {
    RCK_MAP_UNCACHED = 0, /* every access goes to the memory controller */
    RCK_MAP_MPBT = 1,     /* L1 only, tagged MPBT; writes through the WCB */
    RCK_MAP_CACHED = 2    /* L1 + L2, write-around (no allocate on write) */
} rck_map_t;

/**
 * Backend capabilities (rck_hal_ops_t.caps). A library or tool that behaves
 * differently on some backend asks one of these; comparing a backend's name
 * is refused by the test structure.backend_names.
 */
#define RCK_CAP_TIMED 0x01u         /* a virtual-time model: costs, reports */
#define RCK_CAP_SCHEDULES 0x02u     /* schedule seeds (--schedule, explore) */
#define RCK_CAP_SHARED_MEMORY 0x04u /* every core shares this host's memory */
#define RCK_CAP_IDLE_CORES 0x08u    /* starts processes on idle cores later
                                       (--universe, MPI_Comm_spawn) */
#define RCK_CAP_STDIN_ROUTE 0x10u   /* the launcher routes stdin to UEs */
#define RCK_CAP_MPIRUN 0x20u        /* cores are ranks started by mpirun
                                       (--hostfile, --host) */
#define RCK_CAP_PROGRESS 0x40u      /* job ticks: a status line while the
                                       job runs (rck_job_ops_t.tick) */

/** Home memory controller: interleave pages over all controllers. */
#define RCK_MC_INTERLEAVE (-1)

/* rck_irq_kind_t and rck_hal_irq_handler_t: rck/irq.h */

/** Parameters of a job (one run of a program on N cores), launcher side. */
typedef struct {
    const rck_chip_t *chip;
    int nues;                 /* number of units of execution */
    const int *cores;         /* physical core of each UE, sorted ascending */
    int nstart;               /* UEs started at once (0: all); the others
                               * are dormant until rck_hal_spawn claims them */
    size_t shm_bytes;         /* shared DRAM window size */
    const char *program;      /* the program the cores run (argv[0]), or
                               * NULL; the sim backend's default compute
                               * model depends on how it was built */
} rck_job_params_t;

/**
 * A backend's launcher side (rck_hal_ops_t.job): a job's shared state, its
 * cores' processes. Every slot filled: a backend without something points
 * at the shared default (src/backends/common/backend.h, rck_be_job_*).
 */
typedef struct rck_job_ops {
    /**
     * Create the shared state of a job before its cores start.
     * @param [in]  params  job shape.
     * @param [out] job     new job.
     */
    rck_status_t (*create)(const rck_job_params_t *params, rck_job_t **job);
    /**
     * In the child process of UE @p ue, after fork and before exec: set the
     * environment (and keep the file descriptors) the core needs to attach.
     */
    rck_status_t (*child_setup)(rck_job_t *job, int ue);
    /**
     * In the child of UE @p ue, after child_setup: the command line to
     * execute instead of @p argv (the program under an instrumenting
     * emulator), NULL-terminated and allocated (the exec replaces the
     * process); NULL to run @p argv as it is (rck_be_job_child_wrap_none).
     */
    char **(*child_wrap)(rck_job_t *job, int ue, char *const *argv);
    /**
     * Called by the launcher when UE @p ue ended, before core_exited.
     * @return 1 if its process attached to its core (rck_hal_open:
     * RCCE_init, MPI_Init, ...) or the backend cannot tell
     * (rck_be_job_core_attached_unknown), 0 if it never did.
     */
    int (*core_attached)(rck_job_t *job, int ue);
    /** The launcher saw UE @p ue end; @p failed is non-zero if abnormally. */
    void (*core_exited)(rck_job_t *job, int ue, int failed);
    /**
     * Called by the launcher about once per 100 ms of host time while the
     * job runs, on backends with RCK_CAP_PROGRESS (the sim's progress
     * line; the others: rck_be_job_tick_none).
     * @return 1 while a status line of the backend is on the terminal: the
     *         launcher erases it ("\r", erase to end of line) before it
     *         prints other output; 0 otherwise.
     */
    int (*tick)(rck_job_t *job);
    /**
     * RCK_SHM_SIZE=auto: the shared window a job of @p nues UEs gets.
     * Backends that do not size it point at rck_be_job_shm_auto_fixed
     * (the setting's fixed meaning of auto, 64m: src/util/config.c);
     * native sizes it for the MPI library's rings
     * (docs/MPI.md, "Settings").
     * @param [out] capped  1 when the host's memory made the window
     *                      smaller than @p want, else 0.
     * @param [out] want    what the job would get without that cap.
     */
    size_t (*shm_auto)(int nues, int *capped, size_t *want);
    /**
     * Write the run's outputs (report, trace) and release the job's
     * shared state (no segment may survive this, whatever the outputs).
     * @return RCK_OK, or RCK_ERR_IO when an output could not be written
     *         (logged, naming the user's path): the run then fails.
     */
    rck_status_t (*destroy)(rck_job_t *job);
} rck_job_ops_t;

/**
 * A backend: a table of operations, every slot filled (rck_hal_backend_
 * register refuses a table with an empty slot). Slots a backend does not
 * implement point at a shared function (src/backends/common/backend.h:
 * rck_be_*) that returns RCK_ERR_UNSUPPORTED or does what the chip's
 * absence of the feature means (a hint ignored, nothing to record).
 * Callers never test a slot for NULL. All per-core slots take the
 * attached core's handle as first argument.
 */
struct rck_hal_ops {
    const char *name;
    /** RCK_CAP_* bits: what the backend can do. Libraries and tools ask
     *  these (rck_hal_caps, rck_backend_caps), never the backend's name. */
    unsigned caps;
    /** The launcher side: job ops (the core side follows). */
    const rck_job_ops_t *job;

    /* ---- core side ---- */
    /**
     * Attach the calling process to its core. Reads the environment set by
     * job_child_setup; without one, creates a private one-core job.
     * @param [in,out] hal  zeroed handle with hal->ops set.
     */
    rck_status_t (*attach)(rck_hal_t *hal);
    /**
     * Called by rck_hal_open once the HAL's own
     * part of the attach (the world, the monitor) is done: what runs from
     * here on is the program's. The sim starts charging the program's
     * work here, so that the HAL's reads of the environment and its
     * allocations are never the program's (docs/P54C.md, "Determinism").
     */
    void (*attach_end)(rck_hal_t *hal);
    /** Detach; after this no other slot may be called. */
    void (*detach)(rck_hal_t *hal);

    /**
     * Address of core @p core's MPB in this process, for programs that
     * keep pointers into it (RCCE's t_vcharp). Loads and stores through it
     * bypass the model: libraries use it only to compute offsets.
     */
    rck_status_t (*mpb_map)(rck_hal_t *hal, int core, void **base);
    /** Copy @p len bytes into core @p core's MPB at @p off. */
    rck_status_t (*mpb_write)(rck_hal_t *hal, int core, uint32_t off,
                              const void *src, size_t len);
    /** Copy @p len bytes out of core @p core's MPB at @p off. */
    rck_status_t (*mpb_read)(rck_hal_t *hal, int core, uint32_t off,
                             void *dst, size_t len);
    /** MPB to MPB copy through this core (a read then a write). */
    rck_status_t (*mpb_copy)(rck_hal_t *hal, int dst_core, uint32_t dst_off,
                             int src_core, uint32_t src_off, size_t len);
    /** Store one 32-bit word. */
    rck_status_t (*mpb_store32)(rck_hal_t *hal, int core, uint32_t off,
                                uint32_t value);
    /** Load one 32-bit word. */
    rck_status_t (*mpb_load32)(rck_hal_t *hal, int core, uint32_t off,
                               uint32_t *value);
    /** CL1INVMB: drop every MPBT-tagged line from this core's L1. */
    void (*cl1invmb)(rck_hal_t *hal);
    /** A hint that this core reads @p len bytes
     *  at @p off of @p core's MPB next. The chip has no such thing (the
     *  P54C does not prefetch); a host backend may start the transfer;
     *  the others ignore it (rck_be_mpb_prefetch_none). */
    void (*mpb_prefetch)(rck_hal_t *hal, int core, uint32_t off, size_t len);
    /** Force the write-combine buffer out. */
    void (*wcb_flush)(rck_hal_t *hal);

    /** Read core @p core's TAS register: *acquired = 1 if it was free. */
    rck_status_t (*tas_try)(rck_hal_t *hal, int core, int *acquired);
    /** Write (clear) core @p core's TAS register. */
    rck_status_t (*tas_release)(rck_hal_t *hal, int core);

    /** Raise an interrupt on @p core (lost if one of @p kind from this
     *  sender is already pending, as on the chip). */
    rck_status_t (*irq_raise)(rck_hal_t *hal, int core, rck_irq_kind_t kind);
    /** Run handlers for every pending interrupt; *count = how many. */
    rck_status_t (*irq_poll)(rck_hal_t *hal, int *count);

    /**
     * Block until one condition holds, an interrupt is pending (with
     * RCK_WAIT_IRQ), or @p timeout_ns passes (< 0 = no timeout).
     * @param [out] which  index of the satisfied condition, or -1 for an
     *                     interrupt; set only on RCK_OK/RCK_INTERRUPTED.
     * @return RCK_OK, RCK_INTERRUPTED, RCK_ERR_TIMEDOUT, RCK_ERR_DEADLOCK.
     */
    rck_status_t (*wait)(rck_hal_t *hal, const rck_hal_cond_t *conds, int n,
                         unsigned flags, int64_t timeout_ns, int *which);

    /** Global timestamp counter (FPGA clock ticks). */
    rck_status_t (*gtsc_read)(rck_hal_t *hal, uint64_t *ticks);
    /** Atomic increment counter @p ctr: *old = value before += 1. */
    rck_status_t (*atomic_inc)(rck_hal_t *hal, int ctr, int32_t *old);
    rck_status_t (*atomic_read)(rck_hal_t *hal, int ctr, int32_t *value);
    rck_status_t (*atomic_write)(rck_hal_t *hal, int ctr, int32_t value);

    /** LUT entry @p idx (0..255) of core @p core. */
    rck_status_t (*lut_read)(rck_hal_t *hal, int core, int idx,
                             uint32_t *entry);
    rck_status_t (*lut_write)(rck_hal_t *hal, int core, int idx,
                              uint32_t entry);

    /**
     * The shared DRAM window: same address in every core of the job.
     * @param [out] base  start address.
     * @param [out] len   bytes.
     */
    rck_status_t (*shm_map)(rck_hal_t *hal, void **base, size_t *len);
    /**
     * Set this core's mapping of shared DRAM [off, off+len) (page
     * granularity on the chip; any range here) and the controller that
     * holds it (RCK_MC_INTERLEAVE or 0..nmc-1). The default for the whole
     * window is RCK_MAP_UNCACHED, interleaved. Backends that do not model
     * memory record nothing and return RCK_OK.
     */
    rck_status_t (*shm_set_map)(rck_hal_t *hal, size_t off, size_t len,
                                rck_map_t type, int mc);
    /** Make this core's writes to shared DRAM visible (write buffers out). */
    rck_status_t (*shm_flush)(rck_hal_t *hal);
    /** Write back and invalidate this core's cached shared data. */
    rck_status_t (*dcache_flush)(rck_hal_t *hal);
    /** Copy into the shared window at @p off (timed in sim). */
    rck_status_t (*shm_write)(rck_hal_t *hal, size_t off, const void *src,
                              size_t len);
    /** Copy out of the shared window at @p off (timed in sim). */
    rck_status_t (*shm_read)(rck_hal_t *hal, size_t off, void *dst,
                             size_t len);

    /**
     * Account for code that touched shared DRAM [off, off+len) with plain
     * loads (@p write 0) or stores (@p write 1) outside the HAL, e.g. SVM
     * pages: the model charges one line transaction per line under the
     * range's mapping and controller; no data moves. Native: nothing.
     */
    rck_status_t (*shm_touch)(rck_hal_t *hal, size_t off, size_t len,
                              int write);
    /**
     * Run @p fn(@p arg) as kernel work on this core (a trap or system
     * call, e.g. a page-fault handler changing page protection): the model
     * charges one null system call and does not count @p fn's host time as
     * compute. @p fn must not call the HAL.
     */
    void (*syscall)(rck_hal_t *hal, void (*fn)(void *arg), void *arg);
    /**
     * This core has just taken a trap delivered as a signal (a page fault
     * of SVM memory), whose host cost (fault, signal delivery, sigreturn)
     * is about @p host_ns: the model charges one null system call for it
     * and does not count those host nanoseconds as the program's compute.
     * Called first thing in the signal handler. Native: nothing.
     */
    void (*trap)(rck_hal_t *hal, uint64_t host_ns);

    /** Set the frequency divider of @p core's tile (rck_hal_freq_set has
     *  checked that the island's voltage sustains it). */
    rck_status_t (*freq_set)(rck_hal_t *hal, int core, int fdiv);
    rck_status_t (*freq_get)(rck_hal_t *hal, int core, int *fdiv);
    /**
     * Start changing the voltage (millivolts, on the regulator's step) of
     * voltage island @p island. Backends that model the regulator's
     * latency (sim: dvfs.volt_change_cycles) keep the old voltage until
     * the change completes and refuse a second change in flight with
     * RCK_ERR_BUSY; the others apply it at once.
     */
    rck_status_t (*volt_set)(rck_hal_t *hal, int island, int millivolts);
    /** The island's present voltage (the old one while a change runs). */
    rck_status_t (*volt_get)(rck_hal_t *hal, int island, int *millivolts);
    /** Block until the island's voltage change in flight, if any, is
     *  complete. */
    rck_status_t (*volt_wait)(rck_hal_t *hal, int island);
    /** The chip's power sensor: whole-chip power (watts) at this core's
     *  time. RCK_ERR_UNSUPPORTED on backends without a power model. */
    rck_status_t (*power_read)(rck_hal_t *hal, double *watts);

    /** This core's cycle counter (at its current frequency). */
    rck_status_t (*cycles)(rck_hal_t *hal, uint64_t *cycles);
    /** Seconds on this core's clock since the job started. */
    rck_status_t (*wtime)(rck_hal_t *hal, double *seconds);
    /** Performance counter @p idx (0 or 1). */
    rck_status_t (*perfctr_read)(rck_hal_t *hal, int idx, uint64_t *value);
    /** Write to the core's console. */
    rck_status_t (*console_write)(rck_hal_t *hal, const char *buf,
                                  size_t len);
    /**
     * Record which library call this core is in (NULL when it leaves), so
     * deadlock and crash reports can name it. Cheap; no timing effect.
     */
    void (*set_context)(rck_hal_t *hal, const char *call, int peer);
    /**
     * Run monitoring work (the message log, docs/MONITORING.md): call
     * @p fn(@p arg, seconds) with this core's clock now (sim: virtual
     * time, no cost charged; native, mpi: host seconds since the job
     * started); the model charges nothing for it and does not count its
     * host time or instructions as the program's. @p fn must not call the
     * HAL. A backend without a model: rck_be_monitor_now (@p fn runs at
     * once with the wtime slot's seconds).
     */
    void (*monitor)(rck_hal_t *hal, void (*fn)(void *arg, double seconds),
                    void *arg);
    /**
     * Claim @p n dormant UEs
     * of the job (rck_job_params_t.nstart) for a program the launcher will
     * start: from now on they count as started (the sim: they join at this
     * core's time). All or none: @return RCK_ERR_BUSY if fewer than @p n
     * are dormant; RCK_ERR_UNSUPPORTED, not logged, on backends without
     * RCK_CAP_IDLE_CORES (rck_be_spawn_claim_unsupported).
     * @param [out] ues  the UEs claimed, ascending.
     */
    rck_status_t (*spawn_claim)(rck_hal_t *hal, int n, int *ues);
    /** Give claimed UEs back (the launcher could not be asked to start
     *  them); rck_be_spawn_release_none where nothing can be claimed. */
    void (*spawn_release)(rck_hal_t *hal, int n, const int *ues);
    /** Copy @p len bytes to @p off of @p core's MPB, then store the word
     *  @p flag at @p flag_off of the same MPB, seen by any core only after
     *  the data: a message and its flag in one call. A backend without its
     *  own: rck_be_mpb_write_flag_composed (mpb_write, wcb_flush,
     *  mpb_store32). */
    rck_status_t (*mpb_write_flag)(rck_hal_t *hal, int core, uint32_t off,
                                   const void *src, size_t len,
                                   uint32_t flag_off, uint32_t flag);
    /** The message of the library call just named with set_context:
     *  @p bytes its size (-1: not known), @p tag (-1: none), @p comm its
     *  communicator (-1: none), for the sim's trace. Cheap; no timing
     *  effect. Backends without a trace: rck_be_set_message_none. */
    void (*set_message)(rck_hal_t *hal, long long bytes, int tag, int comm);
    /** Called by rck_hal_open after attach: fill @p p with what this core's LUT window maps (the
     *  segments, where the MPBs and the shared window lie in them, how to
     *  read the core's LUT); the HAL makes the window (rck/lutwin.h).
     *  @return RCK_OK, or RCK_ERR_UNSUPPORTED after setting
     *  hal->lutwin_none to the reason (the mpi backend across nodes;
     *  rck_be_lut_window_none: a backend without LUT windows). */
    rck_status_t (*lut_window)(rck_hal_t *hal, struct rck_lutwin_params *p);
};

/**
 * The handle of the calling process's core. Backends own everything after
 * the common fields.
 */
struct rck_hal {
    const rck_hal_ops_t *ops;
    rck_chip_t chip;        /* resolved chip configuration */
    int core;               /* physical core id of this process */
    int ue;                 /* rank among the job's cores */
    int nues;               /* UEs of the job (its universe) */
    int *ue_core;           /* physical core of each UE (nues entries) */
    /* The UEs this process was started with, itself among them, ascending
     * (RCK_WORLD; all nues unless the job has dormant UEs or this process
     * was spawned: rck_hal_spawn). */
    int world_size;
    int *world;
    rck_hal_irq_handler_t irq_handler;
    void *irq_arg;
    /* Library reservations (rck_hal_mpb_reserve / rck_hal_shm_reserve):
     * bytes kept at the top of every MPB and of the shared window. */
    uint32_t mpb_reserved;
    size_t shm_reserved;
    /* ... per library id (rck/lib.h); index RCK_LIB_MAX: unnamed ones */
    uint32_t mpb_held[RCK_LIB_MAX + 1];
    size_t shm_held[RCK_LIB_MAX + 1];
    const char *reserve_owner; /* who froze the layout (RCCE_init), or NULL */
    /* Monitoring (rck/monitor.h): this UE's row of the communication
     * matrix (set by the backend's attach, in its segment; NULL: the HAL
     * keeps a private one), the HAL's monitor state, and the event each
     * performance counter counts (rck_hal_perfctr_select). */
    uint64_t *comm_row;
    struct rck_monitor *mon;
    int perfctr_event[2];
    /* This core's LUT window (rck/lutwin.h), made by rck_hal_open from the
     * backend's lut_window slot (NULL when the backend has none or
     * RCK_LUT_WINDOWS is off); destroyed by rck_hal_close. */
    struct rck_lutwin *lutwin;
    const char *lutwin_none; /* why there is none, or NULL */
    void *backend;          /* backend private state */
};


/* ---- backend registry (hal.c; filled by src/backends/registry.c) ---- */

/**
 * Make a backend known to the HAL. The backends layer registers every
 * backend compiled in when the library is loaded (a constructor in
 * src/backends/registry.c), so the HAL never calls up into it.
 * @param [in] ops  the backend's ops table (static storage); registering
 *                  the same name twice keeps the first.
 * @return RCK_OK, RCK_ERR_INVALID (logged) when a slot of the table is
 *         empty, or RCK_ERR_CONFIG when the registry is full.
 */
rck_status_t rck_hal_backend_register(const rck_hal_ops_t *ops);

/**
 * The first empty slot of @p ops ("wait", "job->tick", ...), or NULL when
 * every slot is filled, as rck_hal_backend_register requires.
 */
const char *rck_hal_ops_missing(const rck_hal_ops_t *ops);

/**
 * Find a registered backend by name.
 * @param [in] name  "native", "sim", "mpi".
 * @return its ops table, or NULL (the caller names the problem).
 */
const rck_hal_ops_t *rck_hal_backend_find(const char *name);

/**
 * The first registered backend that has every capability in @p caps
 * (RCK_CAP_* bits), or NULL.
 */
const rck_hal_ops_t *rck_hal_backend_with(unsigned caps);

/** @return the RCK_CAP_* bits of the attached core's backend (0 if none). */
unsigned rck_hal_caps(const rck_hal_t *hal);

/** @return comma-separated names of the compiled-in backends. */
const char *rck_hal_backend_names(void);

/** The registered backend number @p i (0, 1, ...), or NULL after the
 *  last. */
const rck_hal_ops_t *rck_hal_backend_at(int i);

/** @return the name of the one RCK_CAP_* bit @p cap ("timed",
 *  "shared_memory", ...: the reports' and `rck backends`' words), NULL if
 *  it is not one. */
const char *rck_cap_name(unsigned cap);

/** The slot every backend uses for what it does not implement. */
rck_status_t rck_hal_unsupported(void);

/* ---- the calling process's core ---- */

/**
 * Attach this process to its core, with the backend named by RCK_BACKEND
 * (or @p backend if not NULL). Idempotent: later calls return the same
 * handle.
 * @param [in]  backend  backend name or NULL.
 * @param [out] hal      the handle, set on success.
 */
rck_status_t rck_hal_open(const char *backend, rck_hal_t **hal);

/** Detach and free the handle from rck_hal_open(). */
void rck_hal_close(rck_hal_t *hal);

/** @return the handle from rck_hal_open(), or NULL before it. */
rck_hal_t *rck_hal_self(void);

/*
 * Checked entry points. Each validates its arguments (core ids, offsets,
 * lengths, alignment) once here, logs the first problem, and calls the
 * backend; backends may assume valid arguments.
 */
rck_status_t rck_hal_mpb_map(rck_hal_t *hal, int core, void **base);
rck_status_t rck_hal_mpb_write(rck_hal_t *hal, int core, uint32_t off,
                               const void *src, size_t len);
rck_status_t rck_hal_mpb_read(rck_hal_t *hal, int core, uint32_t off,
                              void *dst, size_t len);
rck_status_t rck_hal_mpb_copy(rck_hal_t *hal, int dst_core, uint32_t dst_off,
                              int src_core, uint32_t src_off, size_t len);
rck_status_t rck_hal_mpb_store32(rck_hal_t *hal, int core, uint32_t off,
                                 uint32_t value);
rck_status_t rck_hal_mpb_load32(rck_hal_t *hal, int core, uint32_t off,
                                uint32_t *value);
void rck_hal_cl1invmb(rck_hal_t *hal);
/** A hint, no effect on the data or on chip time: see mpb_prefetch. Bad
 *  arguments make it do nothing (it reports nothing). */
void rck_hal_mpb_prefetch(rck_hal_t *hal, int core, uint32_t off, size_t len);
void rck_hal_wcb_flush(rck_hal_t *hal);
/** mpb_write, wcb_flush, then mpb_store32 of @p flag at @p flag_off of the
 *  same MPB (a message, then its flag). @p len may be 0 (the flag alone).
 *  Nothing is written when an argument is wrong. */
rck_status_t rck_hal_mpb_write_flag(rck_hal_t *hal, int core, uint32_t off,
                                    const void *src, size_t len,
                                    uint32_t flag_off, uint32_t flag);
rck_status_t rck_hal_tas_try(rck_hal_t *hal, int core, int *acquired);
/** Spin-free acquire: waits (through the backend) until the TAS is free. */
rck_status_t rck_hal_tas_acquire(rck_hal_t *hal, int core);
rck_status_t rck_hal_tas_release(rck_hal_t *hal, int core);
rck_status_t rck_hal_irq_raise(rck_hal_t *hal, int core, rck_irq_kind_t kind);
/**
 * Install this core's interrupt handler (NULL removes it; pending
 * interrupts then stay pending).
 */
void rck_hal_irq_set_handler(rck_hal_t *hal, rck_hal_irq_handler_t handler,
                             void *arg);
/** The most handlers one kind of interrupt takes on a core. */
#define RCK_HAL_IRQ_HANDLERS 8
/**
 * Add a handler of one kind of interrupt by hand (a program, a test): the
 * libraries' handlers come with their descriptors instead (rck/lib.h,
 * rck_lib_attach). A core's interrupt lines are shared: every handler of a
 * kind runs on each interrupt of that kind, first those of the attached
 * libraries in registration order, then those added here in the order
 * they were added, and must check its own state for work (an interrupt may
 * be another's, and several raised before one is taken arrive as one).
 * Adding the same (handler, arg) twice keeps one. Installs a dispatcher as
 * the core's handler while any kind has one; an interrupt of a kind without
 * a handler is taken and dropped. rck_hal_irq_set_handler() replaces the
 * dispatcher.
 * @return RCK_OK; RCK_ERR_INVALID (unknown kind, NULL handler);
 *         RCK_ERR_NOMEM (RCK_HAL_IRQ_HANDLERS of the kind already).
 */
rck_status_t rck_hal_irq_add_handler(rck_hal_t *hal, rck_irq_kind_t kind,
                                     rck_hal_irq_handler_t handler, void *arg);
/** Remove a handler added with the same (handler, arg); RCK_ERR_NOTFOUND
 *  when there is none. */
rck_status_t rck_hal_irq_remove_handler(rck_hal_t *hal, rck_irq_kind_t kind,
                                        rck_hal_irq_handler_t handler,
                                        void *arg);
/**
 * Make @p handler the only handler of one kind added by hand (NULL removes
 * them all); the attached libraries' handlers stay.
 */
void rck_hal_irq_set_kind_handler(rck_hal_t *hal, rck_irq_kind_t kind,
                                  rck_hal_irq_handler_t handler, void *arg);
rck_status_t rck_hal_irq_poll(rck_hal_t *hal, int *count);
rck_status_t rck_hal_wait(rck_hal_t *hal, const rck_hal_cond_t *conds, int n,
                          unsigned flags, int64_t timeout_ns, int *which);
/** Wait until the MPB word (core, off) & mask == value. */
rck_status_t rck_hal_wait_mpb_eq(rck_hal_t *hal, int core, uint32_t off,
                                 uint32_t mask, uint32_t value,
                                 int64_t timeout_ns);
rck_status_t rck_hal_gtsc_read(rck_hal_t *hal, uint64_t *ticks);
rck_status_t rck_hal_atomic_inc(rck_hal_t *hal, int ctr, int32_t *old);
rck_status_t rck_hal_atomic_read(rck_hal_t *hal, int ctr, int32_t *value);
rck_status_t rck_hal_atomic_write(rck_hal_t *hal, int ctr, int32_t value);
/**
 * LUT entry @p idx (0..255) of core @p core (format: rck/lut.h). The
 * native and sim backends start every core with the chip's default map.
 */
rck_status_t rck_hal_lut_read(rck_hal_t *hal, int core, int idx,
                              uint32_t *entry);
/**
 * Write LUT entry @p idx of core @p core. On native and sim, the core's
 * window slot @p idx then shows the page the entry names (at once for
 * this core's own LUT; another core's shows at that core's next LUT call
 * or first fault on the slot: docs/LUT.md). Under RCK_SEQUESTER a LUT
 * write stops this core (rck/lutwin.h, RCK_HAL_EXIT_PROTECTION).
 * @return RCK_OK; RCK_ERR_INVALID for a malformed entry (bypass bit, a
 *         route to no tile) or a bad core or index.
 */
rck_status_t rck_hal_lut_write(rck_hal_t *hal, int core, int idx,
                               uint32_t entry);
/**
 * The address at which this core sees LUT slot @p idx: 16 MiB showing the
 * page entry @p idx names (private or shared DRAM, an MPB; a CRB slot and
 * an empty entry show nothing and fault). Loads and stores through it are
 * plain memory accesses: not ordered or timed by the HAL (docs/LUT.md).
 * @return the address, or NULL (logged) for a bad @p idx or a backend
 *         without windows (mpi, RCK_LUT_WINDOWS=off).
 */
void *rck_hal_lut_addr(rck_hal_t *hal, int idx);
rck_status_t rck_hal_shm_map(rck_hal_t *hal, void **base, size_t *len);
rck_status_t rck_hal_shm_set_map(rck_hal_t *hal, size_t off, size_t len,
                                 rck_map_t type, int mc);
rck_status_t rck_hal_shm_flush(rck_hal_t *hal);
rck_status_t rck_hal_dcache_flush(rck_hal_t *hal);
rck_status_t rck_hal_shm_write(rck_hal_t *hal, size_t off, const void *src,
                               size_t len);
rck_status_t rck_hal_shm_read(rck_hal_t *hal, size_t off, void *dst,
                              size_t len);
rck_status_t rck_hal_shm_touch(rck_hal_t *hal, size_t off, size_t len,
                               int write);
void rck_hal_syscall(rck_hal_t *hal, void (*fn)(void *arg), void *arg);
void rck_hal_trap(rck_hal_t *hal, uint64_t host_ns);
rck_status_t rck_hal_freq_set(rck_hal_t *hal, int core, int fdiv);
rck_status_t rck_hal_freq_get(rck_hal_t *hal, int core, int *fdiv);
rck_status_t rck_hal_volt_set(rck_hal_t *hal, int island, int millivolts);
rck_status_t rck_hal_volt_get(rck_hal_t *hal, int island, int *millivolts);
rck_status_t rck_hal_volt_wait(rck_hal_t *hal, int island);
rck_status_t rck_hal_power_read(rck_hal_t *hal, double *watts);
rck_status_t rck_hal_cycles(rck_hal_t *hal, uint64_t *cycles);
rck_status_t rck_hal_wtime(rck_hal_t *hal, double *seconds);
rck_status_t rck_hal_perfctr_read(rck_hal_t *hal, int idx, uint64_t *value);
/**
 * Make performance counter @p idx (0 or 1) count @p event (RCK_PERF_*, a
 * P54C event code; like writing the P54C's CESR). Defaults: counter 0
 * RCK_PERF_INSTRUCTIONS, counter 1 RCK_PERF_DATA_MISS. Whether the
 * backend can give the event shows at rck_hal_perfctr_read
 * (RCK_ERR_UNSUPPORTED otherwise).
 * @return RCK_OK, RCK_ERR_INVALID (bad counter, unknown event).
 */
rck_status_t rck_hal_perfctr_select(rck_hal_t *hal, int idx, int event);
rck_status_t rck_hal_console_write(rck_hal_t *hal, const char *buf,
                                   size_t len);
void rck_hal_set_context(rck_hal_t *hal, const char *call, int peer);
/**
 * The size (-1: not known), tag and communicator (-1: none) of the message
 * of the call just named with rck_hal_set_context (the sim's trace shows
 * them on the call's slice). No effect on backends without the op.
 */
void rck_hal_set_message(rck_hal_t *hal, long long bytes, int tag, int comm);

/*
 * Layout of the MPBs and of the shared window among libraries. Libraries
 * that need a fixed place in every core's MPB (mailboxes) or a region of
 * shared DRAM (channels, SVM) reserve it from the top, before a library
 * that takes "the rest" (RCCE's allocators) freezes the layout. Every core
 * must make the same reservations in the same order (SPMD programs that
 * call the same init functions do), so every core computes the same
 * offsets without communicating. Each reservation names the library
 * that makes it (its id, rck/lib.h), so that a layout that does not fit
 * (two libraries of 4 KiB each, S-Net's scc layer and librckip, in an
 * 8 KiB MPB) is refused naming every library that holds a part.
 */
/**
 * Reserve @p bytes (rounded up to whole lines) at the top of every MPB.
 * @param [in]  lib  the reserving library's id (rck_lib_register; -1
 *                   counts as "a library").
 * @param [out] off  offset of the reserved range in every core's MPB.
 * @return RCK_OK; RCK_ERR_BUSY if the layout is frozen (the error names
 *         who froze it); RCK_ERR_NOSPACE if the MPB has no room (the error
 *         names the libraries that hold it).
 */
rck_status_t rck_hal_mpb_reserve(rck_hal_t *hal, int lib, uint32_t bytes,
                                 uint32_t *off);
/**
 * Reserve @p bytes aligned to @p align (a power of two) at the top of the
 * shared window.
 * @param [in]  lib  as for rck_hal_mpb_reserve().
 * @param [out] off  offset of the reserved range in the window.
 * @return as rck_hal_mpb_reserve().
 */
rck_status_t rck_hal_shm_reserve(rck_hal_t *hal, int lib, size_t bytes,
                                 size_t align, size_t *off);
/**
 * Who holds the reserved part of the MPB (@p mpb non-zero) or of the
 * shared window: "snetq 4128, ip 1024 bytes", or "nothing reserved", in
 * @p buf (always terminated), for a library's error when the rest is too
 * small for it.
 */
void rck_hal_reserve_holders(const rck_hal_t *hal, int mpb, char *buf,
                             size_t len);
/**
 * Freeze the layout: later reservations fail naming @p owner. RCCE_init
 * calls it and then uses [0, mpb_bytes - mpb_reserved) of the MPB and
 * [0, window - shm_reserved) of the window.
 */
void rck_hal_reserve_freeze(rck_hal_t *hal, const char *owner);

/**
 * Libraries whose every UE takes part from the start (RCCE, mailboxes,
 * channels) refuse a job with dormant UEs or a spawned world: @return 0
 * and report naming @p who if this process's world is not the whole job.
 */
int rck_hal_world_is_job(const rck_hal_t *hal, const char *who);

/** @return non-zero if @p core is a valid physical core id. */
#include "rck/monitor.h"

static inline int rck_hal_core_valid(const rck_hal_t *hal, int core)
{
    return core >= 0 && core < hal->chip.ncores;
}

#endif
