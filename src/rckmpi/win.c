/*
 * One-sided communication (docs/MPI-ONESIDED-IO.md): windows, put, get,
 * accumulate and their fetching forms, by active messages over the
 * library's point-to-point channel.
 *
 * Every window has a private duplicate of its communicator. An origin
 * packs each operation (a header, the target datatype flattened to byte
 * blocks, the origin data) into one message to the target on tag W_REQ;
 * the target applies it when its progress engine runs: rk_progress calls
 * win_hook at the end of every pass, which takes every W_REQ message that
 * has arrived and applies it to the window memory. A target therefore
 * applies operations whenever it is inside any MPI call (which is also
 * when it waits in a synchronisation call); one process applies them one
 * at a time, so accumulates are atomic per element (per operation in fact)
 * and a lock's holder is decided in one place. The data of gets goes back
 * on a tag of its own per operation, straight into the origin buffer.
 * Locks, flushes and MPI_Win_complete are W_REQ messages too, so that the
 * target sees them after the operations the origin issued before them
 * (the channel keeps one sender's messages in order on one tag).
 *
 * Completion: an origin counts the operations it sent to every target;
 * MPI_Win_fence sums the counts per target (MPI_Reduce_scatter_block) and
 * every target waits until it has applied as many, then a barrier; unlock
 * and flush wait for the target's acknowledgement of a W_REQ sent after
 * the operations; MPI_Win_wait waits for one MPI_Win_complete message per
 * origin of the post group.
 */
#include "rckmpi.h"
#include "rkcoll.h"
#include "rckmpi_greq.h"

#include <limits.h>
#include <stdint.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define W_REQ 1   /* origin -> target: operations, lock, unlock, ... */
#define W_CTRL 2  /* target -> origin: lock granted, unlock/flush done */
#define W_POST 3  /* target -> origin: MPI_Win_post */
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
    int32_t pad;
} w_hdr_t;

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
    /* origin side */
    long long *issued;   /* data operations sent to each rank, ever */
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
} rk_win_t;

static struct {
    rk_win_t **w;
    int n;
    int live;
    int busy; /* in win_hook */
} wn;

static rk_win_t *win_of(MPI_Win h)
{
    if (h <= 0 || h > wn.n || wn.w[h - 1] == NULL || !wn.w[h - 1]->used)
        return NULL;
    return wn.w[h - 1];
}

/* MPI initialised and @p h a window; else the error, raised on WORLD */
static int win_arg(MPI_Win h, rk_win_t **w, const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    *w = win_of(h);
    if (*w == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_WIN, func,
                      "invalid window handle %d", h);
    return MPI_SUCCESS;
}

static int add_pend(w_pend_t **p, int *n, int *cap, MPI_Request r,
                    void *buf)
{
    if (*n == *cap) {
        int nc = *cap ? 2 * *cap : 16;
        w_pend_t *np = realloc(*p, (size_t)nc * sizeof(*np));
        if (np == NULL)
            return MPI_ERR_NO_MEM;
        *p = np;
        *cap = nc;
    }
    (*p)[*n].req = r;
    (*p)[*n].note = NULL;
    (*p)[(*n)++].buf = buf;
    return MPI_SUCCESS;
}

/* Release what has completed in @p p; returns the first error. Only
 * looks (no progress): a caller that finds something still pending may
 * block until the next packet. */
static int reap(w_pend_t *p, int *n)
{
    int err = MPI_SUCCESS;

    for (int i = 0; i < *n;) {
        rk_req_t *q = rk_req(p[i].req);
        if (q == NULL || q->done) {
            int e = q == NULL ? MPI_SUCCESS
                              : rk_wait_req(&p[i].req, MPI_STATUS_IGNORE,
                                            "MPI_Win");
            if (e != MPI_SUCCESS && err == MPI_SUCCESS)
                err = e;
            free(p[i].buf);
            if (p[i].note != NULL) {
                p[i].note->done = 1;
                if (--p[i].note->refs == 0)
                    free(p[i].note);
            }
            p[i] = p[--*n];
        } else {
            i++;
        }
    }
    return err;
}

/* ---- the target's side ---- */

static void send_ctrl(rk_win_t *w, int to, int what)
{
    int *v = malloc(sizeof(int));
    MPI_Request r;

    if (v == NULL)
        return;
    *v = what;
    if (PMPI_Isend(v, 1, MPI_INT, to, W_CTRL, w->comm, &r) != MPI_SUCCESS ||
        add_pend(&w->rep, &w->nrep, &w->caprep, r, v) != MPI_SUCCESS)
        free(v);
}

static int grantable(const rk_win_t *w, int type)
{
    if (w->lock_mode == 0)
        return 1;
    return w->lock_mode == MPI_LOCK_SHARED && type == MPI_LOCK_SHARED;
}

static void grant(rk_win_t *w, int to, int type)
{
    w->lock_mode = type;
    if (type == MPI_LOCK_SHARED)
        w->nshared++;
    send_ctrl(w, to, K_LOCK);
}

static void lock_req(rk_win_t *w, int from, int type)
{
    if (w->nwait == 0 && grantable(w, type)) {
        grant(w, from, type);
        return;
    }
    /* first come, first served: a shared request waits behind an
     * exclusive one */
    int *q = realloc(w->waitq, (size_t)(w->nwait + 1) * sizeof(int));
    if (q != NULL)
        w->waitq = q;
    int *t = realloc(w->waitt, (size_t)(w->nwait + 1) * sizeof(int));
    if (t != NULL)
        w->waitt = t;
    if (q == NULL || t == NULL)
        return;
    w->waitq[w->nwait] = from;
    w->waitt[w->nwait++] = type;
}

static void unlock_req(rk_win_t *w, int from)
{
    if (w->lock_mode == MPI_LOCK_SHARED && --w->nshared > 0) {
        /* still held by other readers */
    } else {
        w->lock_mode = 0;
        w->nshared = 0;
    }
    send_ctrl(w, from, K_UNLOCK);
    while (w->nwait > 0 && grantable(w, w->waitt[0])) {
        int to = w->waitq[0], type = w->waitt[0];
        memmove(w->waitq, w->waitq + 1, (size_t)(w->nwait - 1) * sizeof(int));
        memmove(w->waitt, w->waitt + 1, (size_t)(w->nwait - 1) * sizeof(int));
        w->nwait--;
        grant(w, to, type);
    }
}

/* Copy between the target region and a packed buffer (@p in: into the
 * window). */
static void region(rk_win_t *w, const w_hdr_t *h, const w_blk_t *b,
                   char *packed, int in)
{
    char *item = w->flavor == MPI_WIN_FLAVOR_DYNAMIC
                     ? (char *)(uintptr_t)h->disp
                     : w->base + h->disp;

    for (int i = 0; i < h->tcount; i++, item += h->textent)
        for (int k = 0; k < h->nblocks; k++) {
            if (in)
                memcpy(item + b[k].off, packed, (size_t)b[k].len);
            else
                memcpy(packed, item + b[k].off, (size_t)b[k].len);
            packed += b[k].len;
        }
}

static void reply(rk_win_t *w, int to, int tag, void *data, int64_t bytes)
{
    MPI_Request r;

    if (PMPI_Isend(data, (int)bytes, MPI_BYTE, to, tag, w->comm, &r) !=
            MPI_SUCCESS ||
        add_pend(&w->rep, &w->nrep, &w->caprep, r, data) != MPI_SUCCESS)
        free(data);
}

/* A dynamic window's target region inside memory attached to it? */
static int attached(const rk_win_t *w, const w_hdr_t *h, const w_blk_t *b)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;

    if (h->tcount == 0 || h->bytes == 0)
        return 1;
    for (int k = 0; k < h->nblocks; k++) {
        if (b[k].off < lo)
            lo = b[k].off;
        if (b[k].off + b[k].len > hi)
            hi = b[k].off + b[k].len;
    }
    lo += h->disp;
    hi += h->disp + (int64_t)(h->tcount - 1) * h->textent;
    for (int i = 0; i < w->natt; i++)
        if ((uintptr_t)lo >= w->att[i].lo && (uintptr_t)hi <= w->att[i].hi)
            return 1;
    return 0;
}

/* Apply one W_REQ message from @p from. */
static void apply(rk_win_t *w, int from, char *msg)
{
    w_hdr_t h;
    const w_blk_t *b;
    char *data, *old = NULL;
    int esize;

    memcpy(&h, msg, sizeof h);
    b = (const w_blk_t *)(msg + sizeof h);
    data = msg + sizeof h + (size_t)h.nblocks * sizeof(w_blk_t);
    switch (h.kind) {
    case K_LOCK:
        lock_req(w, from, h.lock_type);
        return;
    case K_UNLOCK:
        unlock_req(w, from);
        return;
    case K_FLUSH:
        send_ctrl(w, from, K_FLUSH);
        return;
    case K_COMPLETE:
        w->completes++;
        return;
    default:
        break;
    }
    w->applied++;
    if (w->flavor == MPI_WIN_FLAVOR_DYNAMIC && !attached(w, &h, b)) {
        /* the origin could not check: refuse here, answer anyway */
        if (h.reply_tag != 0)
            reply(w, from, h.reply_tag, calloc(1, (size_t)h.bytes + 1),
                  h.bytes);
        rk_err(w->comm, MPI_ERR_RMA_RANGE, "MPI_Win (target side)",
               "rank %d's operation on bytes at %#llx is outside the memory "
               "attached to the dynamic window", from,
               (unsigned long long)h.disp);
        return;
    }
    if (h.kind == K_PUT) {
        region(w, &h, b, data, 1);
        return;
    }
    if (h.bytes > 0)
        old = malloc((size_t)h.bytes);
    if (old == NULL && h.bytes > 0)
        return;
    if (h.bytes > 0)
        region(w, &h, b, old, 0);
    switch (h.kind) {
    case K_GET:
        reply(w, from, h.reply_tag, old, h.bytes);
        return;
    case K_CAS: {
        /* data: the new value, then the value to compare with */
        int same = memcmp(old, data + h.bytes, (size_t)h.bytes) == 0;
        reply(w, from, h.reply_tag, old, h.bytes);
        if (same)
            region(w, &h, b, data, 1);
        return;
    }
    case K_GACC: {
        char *cur = malloc((size_t)h.bytes + 1);
        if (cur != NULL)
            memcpy(cur, old, (size_t)h.bytes);
        reply(w, from, h.reply_tag, old, h.bytes);
        old = cur;
        if (old == NULL)
            return;
        break;
    }
    default:
        break;
    }
    /* accumulate: old op= data, elementwise on the basic type */
    if (h.op == MPI_REPLACE) {
        region(w, &h, b, data, 1);
    } else if (h.op != MPI_NO_OP) {
        PMPI_Type_size(h.basic, &esize);
        rkop_apply(h.op, data, old, (int)(h.bytes / esize), h.basic);
        region(w, &h, b, old, 1);
    }
    free(old);
}

/* Take and apply every W_REQ message of @p w that has arrived; how
 * many. */
static int serve(rk_win_t *w)
{
    rk_comm_t *c;
    MPI_Status st;
    int n = 0;

    c = rk_comm(w->comm);
    if (c == NULL)
        return 0;
    while (rk_probe(c->ctx, -1, W_REQ, c, &st, NULL)) {
        size_t len = (size_t)st.rck_bytes;
        char *msg = malloc(len > 0 ? len : 1);
        int from = st.MPI_SOURCE;
        if (msg == NULL)
            return n;
        if (PMPI_Recv(msg, (int)len, MPI_BYTE, from, W_REQ, w->comm,
                      MPI_STATUS_IGNORE) == MPI_SUCCESS &&
            len >= sizeof(w_hdr_t))
            apply(w, from, msg);
        free(msg);
        n++;
        c = rk_comm(w->comm);
        if (c == NULL)
            return n;
    }
    return n;
}

/* Every window's messages, until a pass finds none: the MPI calls made
 * here run the progress engine, which may take new packets after a
 * window's last look; the caller may block once this returns. */
static void win_hook(void)
{
    int n;

    if (wn.busy)
        return;
    wn.busy = 1;
    do {
        n = 0;
        /* replies sent, then the requests (MPI calls: progress) */
        for (int i = 0; i < wn.n; i++)
            if (wn.w[i] != NULL && wn.w[i]->used && wn.w[i]->nrep > 0)
                reap(wn.w[i]->rep, &wn.w[i]->nrep);
        for (int i = 0; i < wn.n; i++)
            if (wn.w[i] != NULL && wn.w[i]->used)
                n += serve(wn.w[i]);
    } while (n > 0);
    wn.busy = 0;
}

/* Run the progress engine (and so the targets' side) until @p done(w). */
static int progress_until(rk_win_t *w, int (*done)(rk_win_t *),
                          const char *func)
{
    for (;;) {
        rk_progress();
        if (done(w))
            return MPI_SUCCESS;
        rk_progress_wait(func);
    }
}

static int origin_done(rk_win_t *w)
{
    reap(w->pend, &w->npend);
    return w->npend == 0;
}

/* ---- windows ---- */

static int win_new(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm,
                   int flavor, void *alloc, MPI_Win *win, const char *func)
{
    rk_comm_t *c;
    rk_win_t *w;
    int err = rk_comm_arg(comm, &c, func), i;
    long long mine[2], *all;

    if (err != MPI_SUCCESS)
        return err;
    if (c->inter)
        return rk_err(comm, MPI_ERR_COMM, func,
                      "windows need an intracommunicator");
    if (win == NULL)
        return rk_err(comm, MPI_ERR_ARG, func, "win is NULL");
    if (size < 0)
        return rk_err(comm, MPI_ERR_SIZE, func, "size %ld < 0", (long)size);
    if (disp_unit <= 0)
        return rk_err(comm, MPI_ERR_DISP, func, "disp_unit %d <= 0",
                      disp_unit);
    if (base == NULL && size > 0)
        return rk_err(comm, MPI_ERR_BASE, func, "base NULL with size %ld",
                      (long)size);
    w = calloc(1, sizeof *w);
    if (w == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, func, "no memory");
    err = PMPI_Comm_dup(comm, &w->comm);
    if (err != MPI_SUCCESS) {
        free(w);
        return err;
    }
    c = rk_comm(w->comm);
    c->eh = MPI_ERRORS_ARE_FATAL;
    snprintf(c->name, sizeof c->name, "window");
    w->size = c->size;
    w->rank = c->rank;
    w->base = base;
    w->bytes = size;
    w->disp_unit = disp_unit;
    w->flavor = flavor;
    w->alloc = alloc;
    w->rbytes = calloc((size_t)w->size, sizeof(MPI_Aint));
    w->runit = calloc((size_t)w->size, sizeof(int));
    w->issued = calloc((size_t)w->size, sizeof(long long));
    w->locked = calloc((size_t)w->size, sizeof(int));
    w->start = calloc((size_t)w->size, sizeof(int));
    all = calloc((size_t)w->size * 2, sizeof(long long));
    if (w->rbytes == NULL || w->runit == NULL || w->issued == NULL ||
        w->locked == NULL || w->start == NULL || all == NULL) {
        err = MPI_ERR_NO_MEM;
    } else {
        mine[0] = size;
        mine[1] = disp_unit;
        err = PMPI_Allgather(mine, 2, MPI_LONG_LONG, all, 2, MPI_LONG_LONG,
                             w->comm);
    }
    if (err == MPI_SUCCESS) {
        for (i = 0; i < w->size; i++) {
            w->rbytes[i] = (MPI_Aint)all[2 * i];
            w->runit[i] = (int)all[2 * i + 1];
        }
        for (i = 0; i < wn.n && wn.w[i] != NULL; i++)
            ;
        if (i == wn.n) {
            rk_win_t **nw = realloc(wn.w, (size_t)(wn.n + 8) * sizeof(*nw));
            if (nw == NULL) {
                err = MPI_ERR_NO_MEM;
            } else {
                wn.w = nw;
                memset(wn.w + wn.n, 0, 8 * sizeof(*nw));
                wn.n += 8;
            }
        }
    }
    free(all);
    if (err != MPI_SUCCESS) {
        PMPI_Comm_free(&w->comm);
        free(w->rbytes);
        free(w->runit);
        free(w->issued);
        free(w->locked);
        free(w->start);
        free(w);
        return rk_err(comm, err, func, "the window cannot be made");
    }
    w->used = 1;
    wn.w[i] = w;
    wn.live++;
    rk_progress_hook = win_hook;
    *win = i + 1;
    return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                    MPI_Comm comm, MPI_Win *win)
{
    (void)info;
    return win_new(base, size, disp_unit, comm, MPI_WIN_FLAVOR_CREATE, NULL,
                   win, "MPI_Win_create");
}
RK_MPI_ALIAS(Win_create);

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                      MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    void *mem;
    int err;

    (void)info;
    if (rk_check_init("MPI_Win_allocate") != MPI_SUCCESS)
        return MPI_ERR_OTHER;
    if (baseptr == NULL)
        return rk_err(comm, MPI_ERR_ARG, "MPI_Win_allocate",
                      "baseptr is NULL");
    if (size < 0)
        return rk_err(comm, MPI_ERR_SIZE, "MPI_Win_allocate", "size %ld < 0",
                      (long)size);
    mem = calloc(1, size > 0 ? (size_t)size : 1);
    if (mem == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, "MPI_Win_allocate",
                      "no memory for %ld bytes", (long)size);
    err = win_new(mem, size, disp_unit, comm, MPI_WIN_FLAVOR_ALLOCATE, mem,
                  win, "MPI_Win_allocate");
    if (err != MPI_SUCCESS) {
        free(mem);
        return err;
    }
    *(void **)baseptr = mem;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_allocate);

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    (void)info;
    return win_new(NULL, 0, 1, comm, MPI_WIN_FLAVOR_DYNAMIC, NULL, win,
                   "MPI_Win_create_dynamic");
}
RK_MPI_ALIAS(Win_create_dynamic);

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_attach");
    w_region_t *a;

    if (err != MPI_SUCCESS)
        return err;
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return rk_err(w->comm, MPI_ERR_RMA_FLAVOR, "MPI_Win_attach",
                      "not a window of MPI_Win_create_dynamic");
    if (size < 0 || (base == NULL && size > 0))
        return rk_err(w->comm, MPI_ERR_RMA_ATTACH, "MPI_Win_attach",
                      "base %p size %ld", base, (long)size);
    for (int i = 0; i < w->natt; i++)
        if ((uintptr_t)base < w->att[i].hi &&
            (uintptr_t)base + (uintptr_t)size > w->att[i].lo)
            return rk_err(w->comm, MPI_ERR_RMA_ATTACH, "MPI_Win_attach",
                          "%p overlaps memory already attached", base);
    a = realloc(w->att, (size_t)(w->natt + 1) * sizeof(*a));
    if (a == NULL)
        return rk_err(w->comm, MPI_ERR_NO_MEM, "MPI_Win_attach",
                      "no memory");
    w->att = a;
    a[w->natt].lo = (uintptr_t)base;
    a[w->natt++].hi = (uintptr_t)base + (uintptr_t)size;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_attach);

int PMPI_Win_detach(MPI_Win win, const void *base)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_detach");

    if (err != MPI_SUCCESS)
        return err;
    if (w->flavor != MPI_WIN_FLAVOR_DYNAMIC)
        return rk_err(w->comm, MPI_ERR_RMA_FLAVOR, "MPI_Win_detach",
                      "not a window of MPI_Win_create_dynamic");
    for (int i = 0; i < w->natt; i++)
        if (w->att[i].lo == (uintptr_t)base) {
            w->att[i] = w->att[--w->natt];
            return MPI_SUCCESS;
        }
    return rk_err(w->comm, MPI_ERR_RMA_ATTACH, "MPI_Win_detach",
                  "%p is not the base of memory attached", base);
}
RK_MPI_ALIAS(Win_detach);

static int free_done(rk_win_t *w)
{
    origin_done(w);
    reap(w->rep, &w->nrep);
    return w->npend == 0 && w->nrep == 0;
}

int PMPI_Win_free(MPI_Win *win)
{
    rk_win_t *w;
    int err = win_arg(win != NULL ? *win : MPI_WIN_NULL, &w, "MPI_Win_free");

    if (err != MPI_SUCCESS)
        return err;
    if (w->nlocked > 0 || w->lock_all || w->started)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_free",
                      "an access epoch is still open (unlock or complete "
                      "first)");
    /* every origin's operations on me are done once all are here */
    progress_until(w, free_done, "MPI_Win_free");
    err = PMPI_Barrier(w->comm);
    progress_until(w, free_done, "MPI_Win_free");
    w->used = 0;
    wn.w[*win - 1] = NULL;
    PMPI_Comm_free(&w->comm);
    free(w->alloc);
    free(w->rbytes);
    free(w->runit);
    free(w->issued);
    free(w->locked);
    free(w->start);
    free(w->pend);
    free(w->rep);
    free(w->waitq);
    free(w->waitt);
    free(w->att);
    free(w);
    if (--wn.live == 0)
        rk_progress_hook = NULL;
    *win = MPI_WIN_NULL;
    return err;
}
RK_MPI_ALIAS(Win_free);

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_get_group");

    if (err != MPI_SUCCESS)
        return err;
    if (group == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, "MPI_Win_get_group",
                      "group is NULL");
    return PMPI_Comm_group(w->comm, group);
}
RK_MPI_ALIAS(Win_get_group);

int PMPI_Win_get_attr(MPI_Win win, int keyval, void *val, int *flag)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_get_attr");
    static int model = MPI_WIN_SEPARATE;

    if (err != MPI_SUCCESS)
        return err;
    if (val == NULL || flag == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, "MPI_Win_get_attr",
                      "attribute_val or flag is NULL");
    *flag = 1;
    switch (keyval) {
    case MPI_WIN_BASE:
        *(void **)val = w->base;
        break;
    case MPI_WIN_SIZE:
        *(MPI_Aint **)val = &w->bytes;
        break;
    case MPI_WIN_DISP_UNIT:
        *(int **)val = &w->disp_unit;
        break;
    case MPI_WIN_CREATE_FLAVOR:
        *(int **)val = &w->flavor;
        break;
    case MPI_WIN_MODEL:
        *(int **)val = &model;
        break;
    default:
        *flag = 0;
        return rk_err(w->comm, MPI_ERR_KEYVAL, "MPI_Win_get_attr",
                      "keyval %d (only the predefined window attributes "
                      "are implemented)", keyval);
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_get_attr);

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler eh)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_set_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    return PMPI_Comm_set_errhandler(w->comm, eh);
}
RK_MPI_ALIAS(Win_set_errhandler);

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *eh)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_get_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    return PMPI_Comm_get_errhandler(w->comm, eh);
}
RK_MPI_ALIAS(Win_get_errhandler);

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_call_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    rk_err(w->comm, errorcode, "MPI_Win_call_errhandler",
           "called by the program");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_call_errhandler);

int PMPI_Win_set_name(MPI_Win win, const char *name)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_set_name");

    if (err != MPI_SUCCESS)
        return err;
    if (name == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, "MPI_Win_set_name",
                      "name is NULL");
    snprintf(w->name, sizeof w->name, "%s", name);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_set_name);

int PMPI_Win_get_name(MPI_Win win, char *name, int *len)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_get_name");

    if (err != MPI_SUCCESS)
        return err;
    if (name == NULL || len == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, "MPI_Win_get_name",
                      "name or resultlen is NULL");
    *len = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", w->name);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_get_name);

/* ---- the origin's side ---- */

/* May the origin access @p t now? */
static int in_epoch(const rk_win_t *w, int t)
{
    if (w->fence || w->lock_all || w->locked[t])
        return 1;
    for (int i = 0; w->started && i < w->nstart; i++)
        if (w->start[i] == t)
            return 1;
    return 0;
}

/* Send a W_REQ message (kept until sent). */
static int send_req(rk_win_t *w, int t, void *msg, size_t len,
                    w_note_t *note, const char *func)
{
    MPI_Request r;
    int err;

    if (len > INT_MAX) {
        free(msg);
        return rk_err(w->comm, MPI_ERR_COUNT, func,
                      "operation of %zu bytes (at most 2 GiB)", len);
    }
    err = PMPI_Isend(msg, (int)len, MPI_BYTE, t, W_REQ, w->comm, &r);
    if (err == MPI_SUCCESS)
        err = add_pend(&w->pend, &w->npend, &w->cappend, r, msg);
    if (err != MPI_SUCCESS) {
        free(msg);
        return rk_err(w->comm, err, func, "cannot send to rank %d", t);
    }
    if (note != NULL) {
        w->pend[w->npend - 1].note = note;
        note->refs++;
    }
    return MPI_SUCCESS;
}

static int send_ctl_req(rk_win_t *w, int t, int kind, int lock_type,
                        const char *func)
{
    w_hdr_t *h = calloc(1, sizeof *h);

    if (h == NULL)
        return rk_err(w->comm, MPI_ERR_NO_MEM, func, "no memory");
    h->kind = kind;
    h->lock_type = lock_type;
    return send_req(w, t, h, sizeof *h, NULL, func);
}

/* One data operation: checks, then the message.
 * @p odata/@p ocount/@p otype: origin data sent (put, accumulates, CAS:
 * NULL for get); @p cmp: CAS's compare value (one item of otype);
 * @p res/@p rcount/@p rtype: where fetched data go (NULL: nothing). */
static int rma_op(int kind, const void *odata, int ocount, MPI_Datatype otype,
                  const void *cmp, void *res, int rcount, MPI_Datatype rtype,
                  int t, MPI_Aint tdisp, int tcount, MPI_Datatype ttype,
                  MPI_Op op, MPI_Win win, w_note_t *note, const char *func)
{
    rk_win_t *w;
    const rk_type_t *tt, *ot = NULL, *rt = NULL;
    int err = win_arg(win, &w, func), nb;
    size_t tbytes, len;
    MPI_Datatype basic = MPI_DATATYPE_NULL;
    w_hdr_t h;
    char *msg;
    MPI_Request rr;

    if (err != MPI_SUCCESS)
        return err;
    if (t == MPI_PROC_NULL) {
        if (note != NULL)
            note->done = 1;
        return MPI_SUCCESS;
    }
    if (t < 0 || t >= w->size)
        return rk_err(w->comm, MPI_ERR_RANK, func,
                      "target rank %d of a window of %d", t, w->size);
    if (!in_epoch(w, t))
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, func,
                      "no access epoch to rank %d is open (MPI_Win_fence, "
                      "MPI_Win_start or MPI_Win_lock first)", t);
    if (tcount < 0 || ocount < 0 || rcount < 0)
        return rk_err(w->comm, MPI_ERR_COUNT, func, "negative count");
    if (rckmpi_type_check(ttype) != MPI_SUCCESS ||
        (odata != NULL && rckmpi_type_check(otype) != MPI_SUCCESS) ||
        (res != NULL && rckmpi_type_check(rtype) != MPI_SUCCESS))
        return rk_err(w->comm, MPI_ERR_TYPE, func,
                      "invalid or uncommitted datatype");
    tt = rk_type(ttype);
    tbytes = tt->size * (size_t)tcount;
    if (odata != NULL) {
        ot = rk_type(otype);
        if (ot->size * (size_t)ocount != tbytes)
            return rk_err(w->comm, MPI_ERR_TYPE, func,
                          "the origin has %zu bytes, the target %zu",
                          ot->size * (size_t)ocount, tbytes);
    }
    if (res != NULL) {
        rt = rk_type(rtype);
        if (rt->size * (size_t)rcount != tbytes)
            return rk_err(w->comm, MPI_ERR_TYPE, func,
                          "the result buffer has %zu bytes, the target %zu",
                          rt->size * (size_t)rcount, tbytes);
    }
    if (kind == K_ACC || kind == K_GACC || kind == K_CAS) {
        int n, on;
        basic = rckmpi_type_basic(ttype, &n);
        if (basic == MPI_DATATYPE_NULL || basic == MPI_FLOAT_INT ||
            basic == MPI_DOUBLE_INT || basic == MPI_LONG_INT ||
            basic == MPI_2INT || basic == MPI_SHORT_INT ||
            basic == MPI_LONG_DOUBLE_INT)
            return rk_err(w->comm, MPI_ERR_TYPE, func,
                          "accumulate needs a target datatype of one "
                          "predefined type (pair types are not "
                          "implemented)");
        if ((odata != NULL && rckmpi_type_basic(otype, &on) != basic) ||
            (res != NULL && rckmpi_type_basic(rtype, &on) != basic))
            return rk_err(w->comm, MPI_ERR_TYPE, func,
                          "origin and target datatypes of different "
                          "basic types");
        if (kind != K_CAS && op != MPI_REPLACE && op != MPI_NO_OP &&
            (op < MPI_MAX || op > MPI_BXOR || rkop_check(op, basic) != 0))
            return rk_err(w->comm, MPI_ERR_OP, func,
                          "operation %d is not a predefined operation valid "
                          "for the type", op);
        if (kind == K_ACC && op == MPI_NO_OP)
            return rk_err(w->comm, MPI_ERR_OP, func,
                          "MPI_NO_OP is for MPI_Get_accumulate");
    }
    /* the target region inside the target's window */
    if (tcount > 0 && tbytes > 0 && w->flavor != MPI_WIN_FLAVOR_DYNAMIC) {
        long long lo = (long long)tdisp * w->runit[t] + tt->true_lb;
        long long hi = (long long)tdisp * w->runit[t] +
                       (long long)(tcount - 1) * tt->extent + tt->true_ub;
        if (lo < 0 || hi > (long long)w->rbytes[t])
            return rk_err(w->comm, MPI_ERR_RMA_RANGE, func,
                          "bytes %lld..%lld of rank %d's window of %ld", lo,
                          hi, t, (long)w->rbytes[t]);
    }
    nb = tt->contig ? 1 : tt->nblocks;
    len = sizeof h + (size_t)nb * sizeof(w_blk_t) +
          (odata != NULL ? tbytes : 0) + (cmp != NULL ? tbytes : 0);
    msg = malloc(len);
    if (msg == NULL)
        return rk_err(w->comm, MPI_ERR_NO_MEM, func, "no memory");
    memset(&h, 0, sizeof h);
    h.kind = kind;
    h.op = op;
    h.basic = basic;
    h.tcount = tcount;
    h.disp = (int64_t)tdisp * w->runit[t]; /* dynamic: an address */
    h.textent = tt->extent;
    h.nblocks = nb;
    h.bytes = (int64_t)tbytes;
    if (res != NULL) {
        w->reply_seq = (w->reply_seq + 1) % (RK_TAG_UB - W_REPLY);
        h.reply_tag = W_REPLY + w->reply_seq;
    }
    memcpy(msg, &h, sizeof h);
    {
        w_blk_t *b = (w_blk_t *)(msg + sizeof h);
        if (tt->contig) {
            b[0].off = 0;
            b[0].len = (int64_t)tt->size;
        } else {
            for (int k = 0; k < nb; k++) {
                b[k].off = tt->blocks[k].off;
                b[k].len = (int64_t)tt->blocks[k].len;
            }
        }
    }
    if (odata != NULL)
        rk_pack(odata, ocount, ot, msg + sizeof h + (size_t)nb * sizeof(w_blk_t));
    if (cmp != NULL)
        rk_pack(cmp, ocount, ot,
                msg + sizeof h + (size_t)nb * sizeof(w_blk_t) + tbytes);
    if (res != NULL) {
        /* the reply goes straight into the result buffer */
        err = PMPI_Irecv(res, rcount, rtype, t, h.reply_tag, w->comm, &rr);
        if (err == MPI_SUCCESS)
            err = add_pend(&w->pend, &w->npend, &w->cappend, rr, NULL);
        if (err != MPI_SUCCESS) {
            free(msg);
            return rk_err(w->comm, err, func, "cannot receive from rank %d",
                          t);
        }
        if (note != NULL) {
            /* MPI_Rget: done when the data are here */
            w->pend[w->npend - 1].note = note;
            note->refs++;
            note = NULL;
        }
    }
    w->issued[t]++;
    return send_req(w, t, msg, len, note, func);
}

int PMPI_Put(const void *origin_addr, int origin_count,
             MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    return rma_op(K_PUT, origin_addr, origin_count, origin_datatype, NULL,
                  NULL, 0, MPI_DATATYPE_NULL, target_rank, target_disp,
                  target_count, target_datatype, MPI_REPLACE, win, NULL,
                  "MPI_Put");
}
RK_MPI_ALIAS(Put);

int PMPI_Get(void *origin_addr, int origin_count,
             MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count,
             MPI_Datatype target_datatype, MPI_Win win)
{
    return rma_op(K_GET, NULL, 0, MPI_DATATYPE_NULL, NULL, origin_addr,
                  origin_count, origin_datatype, target_rank, target_disp,
                  target_count, target_datatype, MPI_NO_OP, win, NULL,
                  "MPI_Get");
}
RK_MPI_ALIAS(Get);

int PMPI_Accumulate(const void *origin_addr, int origin_count,
                    MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count,
                    MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
    return rma_op(K_ACC, origin_addr, origin_count, origin_datatype, NULL,
                  NULL, 0, MPI_DATATYPE_NULL, target_rank, target_disp,
                  target_count, target_datatype, op, win, NULL,
                  "MPI_Accumulate");
}
RK_MPI_ALIAS(Accumulate);

int PMPI_Get_accumulate(const void *origin_addr, int origin_count,
                        MPI_Datatype origin_datatype, void *result_addr,
                        int result_count, MPI_Datatype result_datatype,
                        int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype,
                        MPI_Op op, MPI_Win win)
{
    /* MPI_NO_OP: the origin buffer is ignored */
    return rma_op(K_GACC, op == MPI_NO_OP ? NULL : origin_addr,
                  origin_count, origin_datatype, NULL, result_addr,
                  result_count, result_datatype, target_rank, target_disp,
                  target_count, target_datatype, op, win, NULL,
                  "MPI_Get_accumulate");
}
RK_MPI_ALIAS(Get_accumulate);

int PMPI_Fetch_and_op(const void *origin_addr, void *result_addr,
                      MPI_Datatype datatype, int target_rank,
                      MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
    return rma_op(K_GACC, op == MPI_NO_OP ? NULL : origin_addr, 1, datatype,
                  NULL, result_addr, 1, datatype, target_rank, target_disp,
                  1, datatype, op, win, NULL, "MPI_Fetch_and_op");
}
RK_MPI_ALIAS(Fetch_and_op);

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                          void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    if (origin_addr == NULL || compare_addr == NULL || result_addr == NULL) {
        rk_win_t *w;
        int err = win_arg(win, &w, "MPI_Compare_and_swap");
        return err != MPI_SUCCESS
                   ? err
                   : rk_err(w->comm, MPI_ERR_BUFFER, "MPI_Compare_and_swap",
                            "a NULL buffer");
    }
    return rma_op(K_CAS, origin_addr, 1, datatype, compare_addr, result_addr,
                  1, datatype, target_rank, target_disp, 1, datatype,
                  MPI_REPLACE, win, NULL, "MPI_Compare_and_swap");
}
RK_MPI_ALIAS(Compare_and_swap);

/* ---- request-based operations ---- */

static int note_poll(void *state, int *done)
{
    w_note_t *n = state;
    rk_win_t *w = win_of(n->win);

    if (!n->done && w != NULL)
        reap(w->pend, &w->npend);
    *done = n->done;
    return MPI_SUCCESS;
}

static void note_release(void *state)
{
    w_note_t *n = state;

    if (--n->refs == 0)
        free(n);
}

static int rma_req(int get, void *addr, int ocount, MPI_Datatype otype,
                   int t, MPI_Aint tdisp, int tcount, MPI_Datatype ttype,
                   MPI_Win win, MPI_Request *request, const char *func)
{
    rk_win_t *w;
    w_note_t *n;
    int err = win_arg(win, &w, func);

    if (err != MPI_SUCCESS)
        return err;
    if (request == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, func, "request is NULL");
    n = calloc(1, sizeof *n);
    if (n == NULL)
        return rk_err(w->comm, MPI_ERR_NO_MEM, func, "no memory");
    n->refs = 1;
    n->win = win;
    err = get ? rma_op(K_GET, NULL, 0, MPI_DATATYPE_NULL, NULL, addr, ocount,
                       otype, t, tdisp, tcount, ttype, MPI_NO_OP, win, n,
                       func)
              : rma_op(K_PUT, addr, ocount, otype, NULL, NULL, 0,
                       MPI_DATATYPE_NULL, t, tdisp, tcount, ttype,
                       MPI_REPLACE, win, n, func);
    if (err == MPI_SUCCESS)
        err = rckmpi_greq_start(note_poll, n, note_release, w->comm,
                                request);
    if (err != MPI_SUCCESS && --n->refs == 0)
        free(n);
    return err;
}

int PMPI_Rput(const void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    return rma_req(0, (void *)origin_addr, origin_count, origin_datatype,
                   target_rank, target_disp, target_count, target_datatype,
                   win, request, "MPI_Rput");
}
RK_MPI_ALIAS(Rput);

int PMPI_Rget(void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    return rma_req(1, origin_addr, origin_count, origin_datatype,
                   target_rank, target_disp, target_count, target_datatype,
                   win, request, "MPI_Rget");
}
RK_MPI_ALIAS(Rget);

/* ---- synchronisation ---- */

static long long *fence_expect;

static int fence_done(rk_win_t *w)
{
    origin_done(w);
    return w->npend == 0 && w->applied >= *fence_expect;
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_fence");
    long long expect = 0;

    if (err != MPI_SUCCESS)
        return err;
    if (assert & ~(MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
                   MPI_MODE_NOSUCCEED))
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_fence",
                      "assertion %#x", (unsigned)assert);
    if (w->nlocked > 0 || w->lock_all || w->started || w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_fence",
                      "a lock or post/start epoch is open on the window");
    /* how many operations every origin ever sent me */
    err = PMPI_Reduce_scatter_block(w->issued, &expect, 1, MPI_LONG_LONG,
                                    MPI_SUM, w->comm);
    if (err != MPI_SUCCESS)
        return err;
    fence_expect = &expect;
    progress_until(w, fence_done, "MPI_Win_fence");
    fence_expect = NULL;
    err = PMPI_Barrier(w->comm);
    w->fence = !(assert & MPI_MODE_NOSUCCEED);
    return err;
}
RK_MPI_ALIAS(Win_fence);

/* The window ranks of @p group's members into @p out; their count. */
static int group_ranks(rk_win_t *w, MPI_Group group, int *out,
                       const char *func)
{
    MPI_Group wg;
    int n, err, *in;

    err = PMPI_Group_size(group, &n);
    if (err != MPI_SUCCESS)
        return -1;
    if (n > w->size) {
        rk_err(w->comm, MPI_ERR_GROUP, func, "a group larger than the "
               "window's");
        return -1;
    }
    in = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (in == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        in[i] = i;
    PMPI_Comm_group(w->comm, &wg);
    err = PMPI_Group_translate_ranks(group, n, in, wg, out);
    PMPI_Group_free(&wg);
    free(in);
    for (int i = 0; err == MPI_SUCCESS && i < n; i++)
        if (out[i] == MPI_UNDEFINED) {
            rk_err(w->comm, MPI_ERR_GROUP, func,
                   "member %d of the group is not in the window", i);
            return -1;
        }
    return err == MPI_SUCCESS ? n : -1;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_post"), n, *r;

    if (err != MPI_SUCCESS)
        return err;
    if (assert & ~(MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT))
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_post",
                      "assertion %#x", (unsigned)assert);
    if (w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_post",
                      "an exposure epoch is already open (MPI_Win_wait "
                      "first)");
    r = malloc((size_t)w->size * sizeof(int));
    if (r == NULL)
        return rk_err(w->comm, MPI_ERR_NO_MEM, "MPI_Win_post", "no memory");
    n = group_ranks(w, group, r, "MPI_Win_post");
    if (n < 0) {
        free(r);
        return MPI_ERR_GROUP;
    }
    /* before the first post leaves: an origin's MPI_Win_complete may
     * come back while this call still runs the progress engine */
    w->posted = 1;
    w->expect = w->completes + n;
    for (int i = 0; i < n; i++) {
        MPI_Request q;
        err = PMPI_Isend(NULL, 0, MPI_BYTE, r[i], W_POST, w->comm, &q);
        if (err == MPI_SUCCESS)
            add_pend(&w->rep, &w->nrep, &w->caprep, q, NULL);
    }
    free(r);
    return err;
}
RK_MPI_ALIAS(Win_post);

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_start"), n;

    if (err != MPI_SUCCESS)
        return err;
    if (assert & ~MPI_MODE_NOCHECK)
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_start",
                      "assertion %#x", (unsigned)assert);
    if (w->started || w->nlocked > 0 || w->lock_all)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_start",
                      "an access epoch is already open");
    n = group_ranks(w, group, w->start, "MPI_Win_start");
    if (n < 0)
        return MPI_ERR_GROUP;
    /* wait for every target's MPI_Win_post */
    for (int i = 0; i < n && err == MPI_SUCCESS; i++)
        err = PMPI_Recv(NULL, 0, MPI_BYTE, w->start[i], W_POST, w->comm,
                        MPI_STATUS_IGNORE);
    w->nstart = n;
    w->started = 1;
    w->fence = 0;
    return err;
}
RK_MPI_ALIAS(Win_start);

int PMPI_Win_complete(MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_complete");

    if (err != MPI_SUCCESS)
        return err;
    if (!w->started)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_complete",
                      "no MPI_Win_start epoch is open");
    for (int i = 0; i < w->nstart && err == MPI_SUCCESS; i++)
        err = send_ctl_req(w, w->start[i], K_COMPLETE, 0,
                           "MPI_Win_complete");
    progress_until(w, origin_done, "MPI_Win_complete");
    w->started = 0;
    w->nstart = 0;
    return err;
}
RK_MPI_ALIAS(Win_complete);

static int wait_done(rk_win_t *w)
{
    return w->completes >= w->expect;
}

int PMPI_Win_wait(MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_wait");

    if (err != MPI_SUCCESS)
        return err;
    if (!w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_wait",
                      "no MPI_Win_post epoch is open");
    progress_until(w, wait_done, "MPI_Win_wait");
    w->posted = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_wait);

int PMPI_Win_test(MPI_Win win, int *flag)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_test");

    if (err != MPI_SUCCESS)
        return err;
    if (flag == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, "MPI_Win_test", "flag is NULL");
    if (!w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_test",
                      "no MPI_Win_post epoch is open");
    rk_progress();
    *flag = wait_done(w);
    if (*flag)
        w->posted = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_test);

/* Wait for the target's W_CTRL answer @p what. */
static int ctrl_wait(rk_win_t *w, int t, int what, const char *func)
{
    int v = 0, err = PMPI_Recv(&v, 1, MPI_INT, t, W_CTRL, w->comm,
                               MPI_STATUS_IGNORE);

    if (err == MPI_SUCCESS && v != what)
        return rk_err(w->comm, MPI_ERR_INTERN, func,
                      "rank %d answered %d, not %d", t, v, what);
    return err;
}

static int lock_one(rk_win_t *w, int type, int t, const char *func)
{
    int err = send_ctl_req(w, t, K_LOCK, type, func);

    if (err == MPI_SUCCESS)
        err = ctrl_wait(w, t, K_LOCK, func);
    return err;
}

/* Unlock or flush @p t: the answer comes after every operation sent
 * before; then my side of them (gets' data) completes too. */
static int sync_one(rk_win_t *w, int t, int kind, const char *func)
{
    int err = send_ctl_req(w, t, kind, 0, func);

    if (err == MPI_SUCCESS)
        err = ctrl_wait(w, t, kind, func);
    progress_until(w, origin_done, func);
    return err;
}

static int lock_args(rk_win_t *w, int rank, const char *func)
{
    if (rank == MPI_PROC_NULL)
        return -1;
    if (rank < 0 || rank >= w->size)
        return rk_err(w->comm, MPI_ERR_RANK, func,
                      "rank %d of a window of %d", rank, w->size);
    return MPI_SUCCESS;
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_lock");

    if (err != MPI_SUCCESS)
        return err;
    err = lock_args(w, rank, "MPI_Win_lock");
    if (err != MPI_SUCCESS)
        return err < 0 ? MPI_SUCCESS : err;
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return rk_err(w->comm, MPI_ERR_LOCKTYPE, "MPI_Win_lock",
                      "lock type %d", lock_type);
    if (assert & ~MPI_MODE_NOCHECK)
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_lock",
                      "assertion %#x", (unsigned)assert);
    if (w->locked[rank] || w->lock_all || w->started)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_lock",
                      "rank %d is already in an access epoch", rank);
    err = lock_one(w, lock_type, rank, "MPI_Win_lock");
    if (err == MPI_SUCCESS) {
        w->locked[rank] = lock_type;
        w->nlocked++;
        w->fence = 0;
    }
    return err;
}
RK_MPI_ALIAS(Win_lock);

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_unlock");

    if (err != MPI_SUCCESS)
        return err;
    err = lock_args(w, rank, "MPI_Win_unlock");
    if (err != MPI_SUCCESS)
        return err < 0 ? MPI_SUCCESS : err;
    if (!w->locked[rank])
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_unlock",
                      "rank %d is not locked", rank);
    err = sync_one(w, rank, K_UNLOCK, "MPI_Win_unlock");
    w->locked[rank] = 0;
    w->nlocked--;
    return err;
}
RK_MPI_ALIAS(Win_unlock);

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_lock_all");

    if (err != MPI_SUCCESS)
        return err;
    if (assert & ~MPI_MODE_NOCHECK)
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_lock_all",
                      "assertion %#x", (unsigned)assert);
    if (w->nlocked > 0 || w->lock_all || w->started)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_lock_all",
                      "an access epoch is already open");
    /* in rank order: two lock_all never wait for each other */
    for (int t = 0; t < w->size && err == MPI_SUCCESS; t++)
        err = lock_one(w, MPI_LOCK_SHARED, t, "MPI_Win_lock_all");
    if (err == MPI_SUCCESS) {
        w->lock_all = 1;
        w->fence = 0;
    }
    return err;
}
RK_MPI_ALIAS(Win_lock_all);

int PMPI_Win_unlock_all(MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_unlock_all");

    if (err != MPI_SUCCESS)
        return err;
    if (!w->lock_all)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_unlock_all",
                      "no MPI_Win_lock_all epoch is open");
    for (int t = 0; t < w->size && err == MPI_SUCCESS; t++)
        err = sync_one(w, t, K_UNLOCK, "MPI_Win_unlock_all");
    w->lock_all = 0;
    return err;
}
RK_MPI_ALIAS(Win_unlock_all);

static int flush(MPI_Win win, int rank, const char *func)
{
    rk_win_t *w;
    int err = win_arg(win, &w, func);

    if (err != MPI_SUCCESS)
        return err;
    if (rank != -2) {
        err = lock_args(w, rank, func);
        if (err != MPI_SUCCESS)
            return err < 0 ? MPI_SUCCESS : err;
        if (!w->locked[rank] && !w->lock_all)
            return rk_err(w->comm, MPI_ERR_RMA_SYNC, func,
                          "rank %d is not locked", rank);
        return sync_one(w, rank, K_FLUSH, func);
    }
    if (w->nlocked == 0 && !w->lock_all)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, func,
                      "no passive-target epoch is open");
    for (int t = 0; t < w->size && err == MPI_SUCCESS; t++)
        if (w->lock_all || w->locked[t])
            err = sync_one(w, t, K_FLUSH, func);
    return err;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    return flush(win, rank, "MPI_Win_flush");
}
RK_MPI_ALIAS(Win_flush);

int PMPI_Win_flush_all(MPI_Win win)
{
    return flush(win, -2, "MPI_Win_flush_all");
}
RK_MPI_ALIAS(Win_flush_all);

/* local completion: done the same way as remote completion, which
 * implies it */
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    return flush(win, rank, "MPI_Win_flush_local");
}
RK_MPI_ALIAS(Win_flush_local);

int PMPI_Win_flush_local_all(MPI_Win win)
{
    return flush(win, -2, "MPI_Win_flush_local_all");
}
RK_MPI_ALIAS(Win_flush_local_all);

int PMPI_Win_sync(MPI_Win win)
{
    rk_win_t *w;
    int err = win_arg(win, &w, "MPI_Win_sync");

    if (err != MPI_SUCCESS)
        return err;
    atomic_thread_fence(memory_order_seq_cst);
    rk_progress();
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_sync);
