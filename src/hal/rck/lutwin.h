/*
 * LUT windows (docs/LUT.md): the part of a core's address space where
 * slot i shows the 16 MiB page its LUT entry i names, and the protection
 * of a sequestered core (RCK_SEQUESTER).
 *
 * Invariants: the window is RCK_LUT_ENTRIES x 16 MiB of address space
 * reserved PROT_NONE at attach; a slot is either one MAP_SHARED|MAP_FIXED
 * mapping of the page's backing (the private-DRAM memfd, or the backend's
 * segment for MPBs and the shared window) followed by PROT_NONE, or all
 * PROT_NONE; mapped[i] is the entry the slot shows. Only the core's own
 * process maps its window; another core's write to its LUT shows at the
 * core's next LUT call (rck_hal_lut_addr, _read, _write) or at the first
 * fault on the slot.
 *
 * Owns: the window's mappings, the private-DRAM memfd's environment
 * variable, the SIGSEGV handler of window faults. Used by: hal.c (the
 * checked entry points; it hands the CRB emulation to the fault handler),
 * crb.c (the sequestered stop), the native and sim backends.
 */
#ifndef RCK_LUTWIN_H
#define RCK_LUTWIN_H

#include "rck/chip.h"
#include "rck/lut.h"
#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

/** Exit status of a core stopped by a protection fault (docs/LUT.md). */
#define RCK_HAL_EXIT_PROTECTION 5

typedef struct rck_lutwin rck_lutwin_t;

typedef struct rck_lutwin_params {
    const rck_chip_t *chip;
    int core;
    int shm_fd;             /* the shared window: shm_bytes at shm_off */
    uint64_t shm_off;
    size_t shm_bytes;
    int mpb_fd;             /* the MPBs: core c's at mpb_of(lut_arg, c) */
    uint64_t (*mpb_of)(void *arg, int core); /* UINT64_MAX: not mappable */
    int dram_fd;            /* private DRAM (rck_lutwin_dram_create) */
    /* this core's LUT entry @p idx, as the backend stores it */
    uint32_t (*lut_get)(void *arg, int idx);
    void *lut_arg;
    /* optional: slot @p idx of the window at @p base now shows @p t (the
     * sim tells its P54C models); may run in the fault handler */
    void (*on_map)(void *arg, int idx, const rck_lut_target_t *t,
                   void *base);
} rck_lutwin_params_t;

/** Launcher: the sparse memfd behind every controller's private pages. */
rck_status_t rck_lutwin_dram_create(const rck_chip_t *chip, int *fd);
/** Child before exec: keep @p fd and name it in RCK_LUT_DRAM_FD. */
rck_status_t rck_lutwin_child_env(int fd);
/** Core: the memfd named in the environment, or -1. */
int rck_lutwin_dram_fd(void);

/** 1 if RCK_LUT_WINDOWS is on (the default). */
int rck_lutwin_enabled(void);
/** 1 if RCK_SEQUESTER is on. */
int rck_lutwin_sequestered(void);

/**
 * Reserve the window and map every slot after the core's LUT.
 * @param [out] w  the window.
 */
rck_status_t rck_lutwin_create(const rck_lutwin_params_t *p,
                               rck_lutwin_t **w);
void rck_lutwin_destroy(rck_lutwin_t *w);
/** Remap every slot whose entry changed since it was mapped. */
void rck_lutwin_sync(rck_lutwin_t *w);
/** The address of slot @p idx (after a sync). */
void *rck_lutwin_addr(rck_lutwin_t *w, int idx);
/** Sequestered: the MPBs as mpb_map hands them out (each core's at
 *  core * mpb_bytes, only this core's backed; a touch of another's stops
 *  the core). NULL when not sequestered. */
void *rck_lutwin_mpb_view(rck_lutwin_t *w);
/**
 * What a fault in a slot that shows a tile's configuration registers is
 * handed to (the HAL's emulation of the access, crb_fault.c): carry out
 * the load or store of the context @p uc at byte @p off of tile @p tile's
 * CRB and step over it.
 * @return 0; -1 when it cannot (@p why says why: the core is stopped).
 */
typedef int (*rck_lutwin_crb_fn)(void *arg, void *uc, int tile, uint32_t off,
                                 const char **why);

/** Install the SIGSEGV handler of window faults (after the crash
 *  reporter's, which it calls for every other fault). A fault in a CRB
 *  slot goes to @p crb(@p crb_arg, ...); NULL: such a fault stops the
 *  core. The window knows nothing above it: the HAL hands its CRB
 *  emulation in here. */
void rck_lutwin_fault_install(rck_lutwin_t *w, rck_lutwin_crb_fn crb,
                              void *crb_arg);

/**
 * Stop this core for a forbidden access: print the report (core, address
 * or register, what it tried, whose resource) and end the process with
 * RCK_HAL_EXIT_PROTECTION. Async-signal-safe.
 */
__attribute__((noreturn)) void rck_lutwin_stop(int core, const char *what,
                                               uint64_t addr,
                                               const char *whose);

#endif
