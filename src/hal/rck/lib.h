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
 * Owns: the registry (lib.c). May call: util (settings, logger).
 */
#ifndef RCK_LIB_H
#define RCK_LIB_H

#include "rck/config.h"


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
} rck_lib_desc_t;

/**
 * Register a library. Registering the same name again returns the id it
 * has.
 * @param [in] desc  static storage.
 * @return its id (0 .. RCK_LIB_MAX-1), or -1 (logged) when the name is
 *         not a short word or the registry is full: its messages are then
 *         not counted, and everything else works.
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

#endif
