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
 *               (serving its own mails meanwhile).
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
 * svm_barrier, svm_finalize. svm_init uses mailboxes (rck_mbox.h) and must
 * run before RCCE_init if the program also uses RCCE.
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

typedef enum {
    SVM_STRONG = 0, /* single owner per page, ownership moves on faults */
    SVM_LAZY = 1    /* lazy release consistency */
} svm_model_t;

/** svm_alloc placement: pages spread over every memory controller. */
#define SVM_MC_ALL (-1)

/**
 * Set up SVM on this core (collective). The SVM region's size comes from
 * RCK_SVM_SIZE (carved from the top of the shared window, RCK_SHM_SIZE).
 */
rck_status_t svm_init(svm_model_t model);

/** Tear down (collective): every SVM block is released. */
rck_status_t svm_finalize(void);

/** @return the model given to svm_init. */
svm_model_t svm_model(void);

/**
 * Allocate @p size bytes (rounded up to whole pages) of shared virtual
 * memory (collective: every UE calls with the same arguments and gets the
 * same address).
 * @param [in] mc  memory controller holding the pages (0..nmc-1), or
 *                 SVM_MC_ALL to spread them over all controllers.
 * @return the address, or NULL with the reason logged (bad size, bad
 *         controller, region full).
 */
void *svm_alloc(size_t size, int mc);

/**
 * Release a block from svm_alloc (collective).
 * @return RCK_OK; RCK_ERR_INVALID for an address not from svm_alloc or a
 *         block already freed.
 */
rck_status_t svm_free(void *addr);

/**
 * Write this core's changes to [addr, addr+len) back to DRAM (the WCB).
 * @return RCK_OK; RCK_ERR_INVALID if the range is not inside one block
 *         from svm_alloc.
 */
rck_status_t svm_flush(void *addr, size_t len);

/**
 * Drop this core's cached copies of [addr, addr+len) (CL1INVMB).
 * @return as svm_flush().
 */
rck_status_t svm_invalidate(void *addr, size_t len);

/** Barrier of all UEs; under SVM_LAZY flushes before and invalidates
 *  after. */
rck_status_t svm_barrier(void);

/** Lock @p id (0..nues-1, a TAS register); under SVM_LAZY the acquire
 *  invalidates and the release flushes. */
rck_status_t svm_lock(int id);
rck_status_t svm_unlock(int id);

/** Counters of this core since svm_init. */
typedef struct {
    uint64_t faults;         /* page faults taken */
    uint64_t requests_sent;  /* ownership requests mailed */
    uint64_t forwards;       /* requests this core forwarded */
    uint64_t pages_given;    /* ownership given away */
    uint64_t flushes, invalidates, barriers;
} svm_stats_t;
void svm_stats(svm_stats_t *stats);

#ifdef __cplusplus
}
#endif

#endif
