/*
 * The libraries above the HAL register themselves (docs/ARCHITECTURE.md,
 * "A new library"), as the backends do: the HAL knows none of them by
 * name. A library describes itself with one rck_lib_desc_t and registers
 * it when it is loaded (a constructor); the HAL gives it an id, the row of
 * the communication matrix its messages are counted in (rck/monitor.h),
 * and records what it reserves of the MPBs and of the shared window.
 *
 * Ids are this process's: they follow the order of registration, which
 * differs between programs. What crosses processes is the name: each UE's
 * row of the matrix carries the names (and ranks) of its ids, and the
 * report merges the rows by name.
 *
 * A library that takes interrupts, or holds the core's HAL between calls,
 * says so in its descriptor too: its handlers per kind of interrupt, and
 * what it does when it attaches to the core's HAL (init: its reservations,
 * its state) and when it leaves it (fini), be it by its own finalize
 * (rck_lib_detach) or because the HAL goes down under it (rck_hal_close,
 * e.g. RCCE_finalize first). Its own init function calls rck_lib_attach;
 * the HAL runs the init hook, reports a failure by the library's name,
 * and chains the handlers while the library is attached.
 *
 * Owns: the registry (lib.c), the attached set and the interrupt chains
 * (libattach.c). May call: util (settings, logger).
 */
#ifndef RCK_LIB_H
#define RCK_LIB_H

#include "rck/config.h"
#include "rck/irq.h"
#include "rck/status.h"


/** Where the HAL's own settings are listed (`rck config --list`, before
 *  every backend's and library's: rck_config_register). */
#define RCK_HAL_CONFIG_RANK 5

/** Libraries a process can register (rows of the matrix). */
#define RCK_LIB_MAX 16
/** Bytes of a library's name, with its NUL. */
#define RCK_LIB_NAME_BYTES 12

/** rck_lib_desc_t.flags */
enum {
    /** The report lists the library's row even when it carried nothing
     *  (the six libraries the report has always listed); the others are
     *  listed once a UE counted a message of theirs. */
    RCK_LIB_LISTED = 1u << 0
};

/** Handlers a descriptor carries: at most this many (kinds may repeat). */
#define RCK_LIB_IRQS 2

/** One interrupt handler of a library (rck_lib_desc_t.irq). */
typedef struct rck_lib_irq {
    rck_irq_kind_t kind;
    /** Runs with arg NULL (the library reaches its own state); NULL ends
     *  the list. */
    rck_hal_irq_handler_t fn;
} rck_lib_irq_t;

/** Why a library's fini runs (rck_lib_desc_t.fini). */
typedef enum {
    RCK_LIB_DETACH = 0, /* its own finalize called rck_lib_detach */
    RCK_LIB_HAL_DOWN = 1 /* rck_hal_close with the library still attached:
                            the chip is still there, the HAL goes next */
} rck_lib_fini_why_t;

/** What a library tells the HAL about itself. Static storage. */
typedef struct rck_lib_desc {
    /** Its row's name in the report and the message log: a lowercase word
     *  of at most RCK_LIB_NAME_BYTES - 1 characters ("rcce", "snetq"). */
    const char *name;
    /** Its place in the report and in `rck config --list`: smaller first
     *  (ties: registration order). */
    int rank;
    unsigned flags; /* RCK_LIB_* */
    /** Its settings (terminated by an entry whose name is NULL), or NULL:
     *  registered with util's configuration at the library's rank. */
    const rck_config_entry_t *settings;
    /* What it reserves of the MPBs and the shared window is not declared
     * here: the HAL records the reservations it makes
     * (rck_hal_mpb_reserve / rck_hal_shm_reserve with its id) and names
     * their holders when one does not fit. */
    /** Its interrupt handlers: while it is attached to the core's HAL
     *  (rck_lib_attach), every interrupt of a handler's kind runs it, after
     *  the handlers of the attached libraries registered before it (the
     *  line is shared: a handler checks its own state for work). */
    rck_lib_irq_t irq[RCK_LIB_IRQS];
    /** Attaching (rck_lib_attach), before its handlers are chained: what
     *  the library sets up on this core (reservations, state). NULL: none.
     *  A failure is logged naming the library and leaves it detached. */
    rck_status_t (*init)(rck_hal_t *hal);
    /** Leaving, after its handlers are unchained (the chip is still
     *  attached): drop what refers to @p hal. NULL: none. */
    void (*fini)(rck_hal_t *hal, rck_lib_fini_why_t why);
} rck_lib_desc_t;

/**
 * Register a library. Registering the same name again returns the id it
 * has.
 * @param [in] desc  static storage.
 * @return its id (0 .. RCK_LIB_MAX-1), or -1 (logged) when the name is
 *         not a short word, a handler has no interrupt kind, or the
 *         registry is full: its messages are then not counted, and it
 *         cannot attach (rck_lib_attach refuses id -1).
 */
int rck_lib_register(const rck_lib_desc_t *desc);

/** @return the id of the registered library @p name, or -1. */
int rck_lib_find(const char *name);

/** @return the descriptor of library @p id, or NULL. */
const rck_lib_desc_t *rck_lib_desc(int id);

/** @return how many libraries are registered (ids 0 .. n-1). */
int rck_lib_count(void);

/** @return library @p id's name; "?" if there is none. */
const char *rck_lib_name(int id);

/**
 * Attach library @p id to this core's HAL (one core per process): run its
 * init hook, then chain its interrupt handlers. Attaching an attached
 * library does nothing.
 * @return RCK_OK; RCK_ERR_INVALID (no such id, NULL hal); what its init
 *         returned (logged with the library's name).
 */
rck_status_t rck_lib_attach(rck_hal_t *hal, int id);

/**
 * Detach library @p id: unchain its handlers, then run its fini
 * (RCK_LIB_DETACH). Detaching a detached library does nothing.
 */
void rck_lib_detach(rck_hal_t *hal, int id);

/** @return 1 if library @p id is attached to this core's HAL. */
int rck_lib_attached(int id);

/* HAL-internal (rck_hal_close): detach every attached library, the last
 * registered first, with RCK_LIB_HAL_DOWN. */
void rck__lib_hal_down(rck_hal_t *hal);

#endif
