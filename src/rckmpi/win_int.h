/*
 * Internals of one-sided communication (win*.c, docs/MPI-ONESIDED-IO.md):
 * the messages, the window, the helpers the files share.
 */
#ifndef RCKMPI_WIN_INT_H
#define RCKMPI_WIN_INT_H

#include "rckmpi.h"

#include <stdint.h>

#define W_REQ 1   /* origin -> target: operations, lock, unlock, ... */
#define W_CTRL 2  /* target -> origin: lock granted, unlock/flush done */
#define W_POST 3  /* target -> origin: MPI_Win_post */
#define W_DATA 4  /* origin -> target: a large put's data (after its W_REQ) */
#define W_REPLY 16 /* + n: data of a get */

enum {
    K_PUT = 1, K_GET, K_ACC, K_GACC, K_CAS, /* data operations */
    K_LOCK, K_UNLOCK, K_FLUSH, K_COMPLETE
};

/* one message on W_REQ: this header, nblocks (off, len) pairs of the
 * target datatype, then the data */
typedef struct {
    int32_t kind, op;
    int32_t basic;     /* the target's basic type (accumulates) */
    int32_t tcount;    /* target items */
    int64_t disp;      /* bytes from the window's base */
    int64_t textent;   /* extent of one target item */
    int32_t nblocks;
    int32_t reply_tag; /* get, get_accumulate, CAS: where the data go */
    int64_t bytes;     /* data bytes of the target side */
    int32_t lock_type;
    int32_t split;     /* put: the data follow on W_DATA, not in here */
} w_hdr_t;

/* Puts of at least this many bytes send their data as a message of their
 * own, from the origin buffer to the target region when contiguous: no
 * packing, no staging buffer (docs/MPI-ONESIDED-IO.md) */
#define W_SPLIT_BYTES 8192

typedef struct {
    int64_t off, len;
} w_blk_t;

/* MPI_Rput/MPI_Rget's request: done once its operation's pend entry
 * completes; freed by the last of the two */
typedef struct {
    int refs, done;
    MPI_Win win;
} w_note_t;

typedef struct {
    MPI_Request req;
    void *buf;       /* freed when the request completes */
    w_note_t *note;  /* told when it completes, or NULL */
} w_pend_t;

/* memory attached to a dynamic window */
typedef struct {
    uintptr_t lo, hi;
} w_region_t;

typedef struct {
    int used;
    MPI_Comm comm;
    int size, rank;
    char *base;
    MPI_Aint bytes;
    int disp_unit, flavor;
    void *alloc;      /* MPI_Win_allocate's memory */
    MPI_Aint *rbytes; /* every rank's window size and displacement unit */
    int *runit;
    char name[MPI_MAX_OBJECT_NAME];
    MPI_Info info;       /* MPI_Win_set_info's hints (mpi3.c), or 0 */
    struct rk_attr *attrs; /* attr.c: its cached attributes */
    /* origin side */
    long long *issued;   /* data operations sent to each rank, ever */
    long long *synced;   /* issued[t] at the last flush or unlock of t (in
                            issued's allocation) */
    w_pend_t *pend;      /* my sends and get receives not yet complete */
    int npend, cappend;
    int *locked;         /* lock type held at each rank, or 0 */
    int nlocked, lock_all;
    int fence;           /* MPI_Win_fence opened an epoch */
    int *start;          /* ranks of MPI_Win_start's group */
    int nstart, started;
    int reply_seq;
    /* target side */
    long long applied;   /* data operations applied, ever */
    int lock_mode;       /* 0, MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED */
    int nshared;
    int *waitq, *waitt;  /* lock requests waiting: rank, type */
    int nwait;
    int completes;       /* MPI_Win_complete messages received, ever */
    int expect;          /* ... MPI_Win_wait waits for */
    int posted;
    w_pend_t *rep;       /* replies under way */
    int nrep, caprep;
    w_region_t *att;     /* dynamic: attached memory */
    int natt;
    long long shm_off;   /* my window in shared DRAM (win_shm.c), or -1 */
    long long *roff;     /* every rank's, or -1 (then: messages) */
} rk_win_t;

/* every window, by handle - 1 */
typedef struct {
    rk_win_t **w;
    int n;
    int live;
    int busy;  /* in the progress hook */
    int names; /* the hook serves the name service too (port.c) */
} rk_wins_t;
extern rk_wins_t rk_wn; /* win_tab.c */

/* The window behind @p h, or NULL. */
rk_win_t *rk_win_of(MPI_Win h); /* win_tab.c */
/* MPI initialised and @p h a window; else the error, raised on WORLD. */
int rk_win_arg(MPI_Win h, rk_win_t **w, const char *func);
/* Keep request @p r (and @p buf, freed with it) in @p p. */
int rk_win_pend(w_pend_t **p, int *n, int *cap, MPI_Request r, void *buf);
/* Release the completed requests of @p p (looks only: no progress). */
int rk_win_reap(w_pend_t *p, int *n);
/* Run the progress engine (and so the targets' side) until @p done(w). */
int rk_win_progress_until(rk_win_t *w, int (*done)(rk_win_t *),
                          const char *func);
/* The origin's sends and gets are all complete. */
int rk_win_origin_done(rk_win_t *w);
/* A control message (lock, unlock, flush, complete) to @p t. */
int rk_win_ctl(rk_win_t *w, int t, int kind, int lock_type,
               const char *func);

/* ---- windows in shared DRAM (win_shm.c) ---- */
/* @p size bytes of my slice (zeroed): the address, its offset in the
 * shared window in @p off; NULL if there is no room or no slice. */
void *rk_win_shm_alloc(size_t size, long long *off);
void rk_win_shm_free(long long off);
/* The address of offset @p off of the shared window here, or NULL. */
void *rk_win_shm_addr(long long off);
/* Put/get straight into/out of rank @p t's window (bytes @p disp on). */
int rk_win_shm_put(rk_win_t *w, int t, const void *odata, int ocount,
                   const rk_type_t *ot, MPI_Aint disp, const rk_type_t *tt,
                   int tcount);
int rk_win_shm_get(rk_win_t *w, int t, void *res, int rcount,
                   const rk_type_t *rt, MPI_Aint disp, const rk_type_t *tt,
                   int tcount);
/* Charge the target's plain accesses to its window in shared DRAM. */
void rk_win_shm_touch(const rk_win_t *w, const char *addr, size_t len,
                      int write);

#endif
