/*
 * rck_svm: MetalSVM-style shared virtual memory over the rockcreek HAL.
 *
 * svm_alloc() hands out memory in the chip's shared DRAM, at the same
 * virtual address on every core. Ordinary loads and stores of the program
 * reach it; consistency between cores is kept by one of two models, chosen
 * at svm_init():
 *
 *   SVM_STRONG  one owner per page at a time. A core touching a page it
 *               does not own takes a page fault (real page protection:
 *               mprotect and a SIGSEGV handler); the handler mails the
 *               owner named by the owner vector in shared DRAM (the mail is
 *               forwarded if ownership has moved on), the owner revokes
 *               its own access, flushes, and writes the new owner into the
 *               vector, while the faulting core waits on that vector entry
 *               (serving its own mails meanwhile). A page nobody has
 *               touched since svm_alloc belongs to the first core that
 *               touches it (claimed under a lock, no mail).
 *   SVM_LAZY    lazy release consistency: every core may access every page;
 *               caches are flushed and invalidated at synchronisation points
 *               (svm_barrier, svm_lock/svm_unlock), with no faults between.
 *
 * Pages are mapped MPBT (L1 write-through, L2 bypassed), so a flush is the
 * write-combine buffer and an invalidate is CL1INVMB. On the sim backend
 * every fault, mail, flush, interrupt and the DRAM traffic of the pages a
 * core touches cost modelled cycles (docs/SVM.md gives the model).
 *
 * Collective calls (every UE, same order): svm_init, svm_alloc, svm_free,
 * svm_barrier, svm_finalize. svm_init reserves its region of the shared
 * window and (SVM_STRONG) the mailboxes' MPB lines, so it must run before
 * RCCE_init if the program also uses RCCE; programs that use only SVM need
 * no RCCE_init (svm_ue, svm_num_ues).
 *
 * What SVM takes over on a core between svm_init and svm_finalize: the
 * SIGSEGV handler (faults outside SVM memory go on to the previous
 * handler, so a wild pointer still crashes the program), the mailbox
 * handler (SVM_STRONG: mails with other tags are dropped), and the two
 * highest GIC atomic counters.
 *
 * Requests are served inside HAL waits (any blocking rockcreek call, a
 * fault of this core, rck_mbox_poll): under SVM_STRONG a core must not
 * spin on SVM memory or compute for long without such a call while other
 * cores need its pages. One thread per core.
 *
 * Return codes are rck_status_t (rck/status.h).
 */
#ifndef RCK_SVM_H
#define RCK_SVM_H

#include "rck/status.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(default) /* exported API: see RCCE.h */

typedef enum {
    SVM_STRONG = 0, /* single owner per page, ownership moves on faults */
    SVM_LAZY = 1    /* lazy release consistency */
} svm_model_t;

/** svm_alloc placement: pages spread over every memory controller. */
#define SVM_MC_ALL (-1)

/**
 * Set up SVM on this core (collective). The SVM region's size comes from
 * RCK_SVM_SIZE (default 24 MiB, at most 3/8 of the window), carved from
 * the top of the shared window (RCK_SHM_SIZE) the first time; a later
 * svm_init in the same run (after svm_finalize) uses the same region.
 * @param [in] model  SVM_STRONG or SVM_LAZY.
 * @return RCK_OK; RCK_ERR_INVALID for an unknown model; RCK_ERR_STATE if
 *         SVM is already initialised; RCK_ERR_BUSY after RCCE_init;
 *         RCK_ERR_NOSPACE / RCK_ERR_CONFIG for a region that does not fit
 *         or a malformed RCK_SVM_SIZE.
 */
rck_status_t svm_init(svm_model_t model);

/** Tear down (collective): every SVM block is released, the SIGSEGV and
 *  mail handlers are given back. RCK_ERR_STATE before svm_init. */
rck_status_t svm_finalize(void);

/** @return the model given to svm_init. */
svm_model_t svm_model(void);

/** @return this core's UE id after svm_init, or -1 (programs that use SVM
 *  without RCCE need no RCCE_init). */
int svm_ue(void);
/** @return the number of UEs after svm_init, or 0. */
int svm_num_ues(void);

/**
 * Allocate @p size bytes (rounded up to whole pages) of shared virtual
 * memory (collective: every UE calls with the same arguments and gets the
 * same address). The memory is zero-filled.
 * @param [in] mc  memory controller holding the pages (0..nmc-1), or
 *                 SVM_MC_ALL to spread them over all controllers, page
 *                 by page (page k of the region on controller k mod nmc).
 * @return the address, or NULL with the reason logged (before svm_init,
 *         bad size, bad controller, region full, or a call that does not
 *         match UE 0's).
 */
void *svm_alloc(size_t size, int mc);

/**
 * Release a block from svm_alloc (collective; a barrier). Later accesses
 * to it crash as a wild pointer would.
 * @return RCK_OK; RCK_ERR_INVALID for an address that is not the start of
 *         a live block (not from svm_alloc, or already freed);
 *         RCK_ERR_STATE before svm_init.
 */
rck_status_t svm_free(void *addr);

/**
 * Write this core's changes to [addr, addr+len) back to DRAM (the WCB).
 * @return RCK_OK; RCK_ERR_INVALID if the range is not inside one block
 *         from svm_alloc; RCK_ERR_STATE before svm_init.
 */
rck_status_t svm_flush(void *addr, size_t len);

/**
 * Drop this core's cached copies of [addr, addr+len) (CL1INVMB).
 * @return as svm_flush().
 */
rck_status_t svm_invalidate(void *addr, size_t len);

/** Barrier of all UEs (a GIC atomic counter and a word in shared DRAM; no
 *  RCCE needed); mails are served while waiting. Under SVM_LAZY flushes
 *  before and invalidates after. RCK_ERR_STATE before svm_init. */
rck_status_t svm_barrier(void);

/**
 * Lock @p id (0..nues-1): the TAS register of UE @p id's core, the same
 * register as RCCE_acquire_lock(id). Mails are served while waiting.
 * Under SVM_LAZY the acquire invalidates and the release flushes.
 * @return RCK_OK; RCK_ERR_INVALID for an id out of range; RCK_ERR_STATE
 *         before svm_init, for a lock this UE already holds (svm_lock) or
 *         does not hold (svm_unlock).
 */
rck_status_t svm_lock(int id);
rck_status_t svm_unlock(int id);

/** Counters of this core since svm_init. */
typedef struct {
    uint64_t faults;         /* page faults taken (strong: on pages this
                                core did not own) */
    uint64_t requests_sent;  /* ownership requests mailed */
    uint64_t forwards;       /* requests this core forwarded */
    uint64_t pages_given;    /* ownership given away */
    uint64_t flushes, invalidates, barriers;
    uint64_t soft_faults;    /* faults of the sim cost model only (first
                                touch of a page in an epoch; no protocol) */
    uint64_t claims;         /* strong: unowned pages claimed on first touch */
    uint64_t retries;        /* strong: requests asked again after a NACK */
    uint64_t nacks;          /* strong: requests this core refused (NACK) */
} svm_stats_t;
/** Copy this core's counters into @p stats (zeros before svm_init). */
void svm_stats(svm_stats_t *stats);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif

#endif
