/*
 * Internal state of the SVM library (include/rck_svm.h), shared by svm.c
 * (set-up, blocks, faults, the cost model, barriers and locks) and
 * svm_strong.c (the ownership protocol of SVM_STRONG).
 *
 * One core per process, so the state is one static object (svm_state).
 *
 * The SVM region, reserved once per process at the top of the shared
 * window (the same offset on every core), and never given back:
 *
 *   [control words][nack[nues]][owner[npages]] .. page boundary
 *   [page 0][page 1] ... [page npages-1]
 *
 * INVARIANTS (strong model):
 *  1. owner[p] names the one UE that may map page p (SVM_NOBODY: no UE
 *     yet; the first core to touch it claims it under the claim lock).
 *     Only the owner writes owner[p] (when it gives the page away), or a
 *     core holding the claim lock while owner[p] == SVM_NOBODY, or UE 0
 *     in svm_alloc before the allocation's barrier.
 *  2. A core maps page p (PROT_READ or PROT_READ|PROT_WRITE) only while
 *     owner[p] is itself; it drops the mapping before it writes a new
 *     owner.
 *  3. A core that is acquiring page p (svm.acquiring == p: from its fault
 *     until the faulting access has been retried) never gives p away: a
 *     request for p that reaches it then is refused with a NACK, and the
 *     requester asks again. Handlers run only inside HAL waits, and the
 *     fault handler does not wait after it has seen itself in owner[p],
 *     so the faulting access always completes once (no livelock). Such a
 *     request is kept (svm.deferred) and served at the core's next HAL
 *     wait, after the access: the core mails itself a kick when the
 *     fault ends, so the requests move on with the page.
 *  4. Each core has at most one request in flight (its fault), named by
 *     (page, requester, seq); a NACK is the word nack[requester] = seq,
 *     so an old NACK never matches a newer request.
 */
#ifndef RCK_SVM_INTERNAL_H
#define RCK_SVM_INTERNAL_H

#include "rck/hal.h"
#include "rck/status.h"
#include "rck_svm.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

/** owner[p] of a page no core has touched since svm_alloc. */
#define SVM_NOBODY 0xffffffffu
/** Mailbox tag of SVM requests. */
#define SVM_TAG 0x5356u

/* Control words, byte offsets from the start of the region. */
enum {
    SVM_CTL_BARRIER = 0,   /* epoch of the last completed barrier */
    SVM_CTL_CLAIM = 4,     /* claim lock: ticket now served */
    SVM_CTL_ALLOC = 64,    /* two svm_alloc records (svm_alloc_rec_t) */
    SVM_CTL_NACK = 128     /* nack[nues], then owner[npages] */
};

/** What UE 0 publishes in svm_alloc so the others can check their call. */
typedef struct {
    uint32_t seq;     /* allocation number + 1 */
    uint32_t first;   /* first page */
    uint32_t npages;
    int32_t mc;
} svm_alloc_rec_t;

/** Per-page state of this core (svm.pst[]). */
enum {
    PS_OWNED = 1u << 0,   /* strong: owner[p] is this core */
    PS_R = 1u << 1,       /* mapped readable */
    PS_W = 1u << 2,       /* mapped writable */
    PS_TOUCHED = 1u << 3, /* cost model: lines read in this epoch */
    PS_DIRTY = 1u << 4    /* cost model: written in this epoch */
};

typedef struct {
    size_t first, npages; /* pages of the block */
    int mc;               /* as given to svm_alloc */
} svm_block_t;

enum { SVM_REQ_PAGE = 0, SVM_REQ_KICK = 1 };

/** An ownership request, the payload of an SVM_TAG mail (or a kick a core
 *  mails itself to serve the requests it deferred). */
typedef struct {
    uint32_t kind; /* SVM_REQ_PAGE or SVM_REQ_KICK */
    uint32_t page;
    uint32_t requester; /* UE */
    uint32_t seq;       /* the requester's request number, never 0 */
    uint32_t hops;      /* times forwarded */
} svm_req_t;

typedef struct {
    int ready;
    svm_model_t model;
    rck_hal_t *hal;
    int model_pages; /* sim backend: the per-epoch cost model is on */
    uint64_t trap_ns; /* host cost of one fault round trip (rck_hal_trap) */
    int wait_flags;  /* RCK_WAIT_IRQ while our mail handler is installed */
    int ue, nues;
    size_t page; /* bytes per SVM page */

    unsigned char *win;  /* the shared window in this process */
    size_t region_off;   /* window offset of the region */
    size_t nack_off;     /* window offsets of nack[] and owner[] */
    size_t owner_off;
    size_t data_off;     /* window offset of page 0 */
    unsigned char *data; /* address of page 0 */
    size_t npages;

    uint8_t *pst;          /* npages entries */
    uint8_t *locks_held;   /* nues entries */
    svm_block_t *blocks;   /* sorted by first page */
    size_t nblocks, cap;
    size_t hwm;            /* pages at or above it were never handed out */

    uint32_t bar_epoch;    /* last barrier this core passed */
    uint32_t alloc_seq;
    uint32_t seq;          /* last request number */
    long acquiring;        /* page the fault handler is acquiring, or -1 */
    svm_req_t *deferred;   /* requests for it, served after the access */
    svm_req_t *deferred_work;
    int ndeferred;
    int kick_pending;      /* a kick is in our own mailbox */
    int ctr_barrier, ctr_claim;

    struct sigaction old_segv;
    svm_stats_t stats;
} svm_t;

extern svm_t svm_state;
/* SVM's library id (svm.c, rck/lib.h). */
extern int rck__svm_lib;

/* svm.c */
/** Set the protection of pages [first, first+n) (a system call). */
rck_status_t svm_protect(svm_t *s, size_t first, size_t n, int prot);
/** The live block holding page @p p, or NULL. */
const svm_block_t *svm_block_of_page(const svm_t *s, size_t p);
/**
 * Wait on @p n conditions, serving mails. After an interrupt it reads
 * shared DRAM words itself and waits again; with a TAS condition it
 * returns RCK_INTERRUPTED and the caller tries again.
 */
rck_status_t svm_wait(svm_t *s, const rck_hal_cond_t *c, int n, int *which);
/** Window offset of page @p p. */
static inline size_t svm_page_off(const svm_t *s, size_t p)
{
    return s->data_off + p * s->page;
}

/* svm_strong.c */
/** Become the owner of page @p p (from the fault handler). */
rck_status_t svm_strong_acquire(svm_t *s, size_t p);
/** Install / remove the mail handler. */
rck_status_t svm_strong_start(svm_t *s);
void svm_strong_stop(svm_t *s);
/** The fault is over: have the requests deferred during it served at the
 *  next HAL wait. */
void svm_strong_done(svm_t *s);
/** Reset owner[] of pages [first, first+n) to SVM_NOBODY (UE 0). */
rck_status_t svm_strong_reset(svm_t *s, size_t first, size_t n);

#endif
