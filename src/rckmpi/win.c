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
#include "win_int.h"
#include "rkcoll.h"

#include "rck/config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* MPI initialised and @p h a window; else the error, raised on WORLD */
int rk_win_arg(MPI_Win h, rk_win_t **w, const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    *w = rk_win_of(h);
    if (*w == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_WIN, func,
                      "invalid window handle %d", h);
    return MPI_SUCCESS;
}

int rk_win_pend(w_pend_t **p, int *n, int *cap, MPI_Request r,
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
int rk_win_reap(w_pend_t *p, int *n)
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
        rk_win_pend(&w->rep, &w->nrep, &w->caprep, r, v) != MPI_SUCCESS)
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

/* One run of window bytes at @p at to or from @p *packed (@p in: into
 * the window), which moves past it. */
static void region_copy(rk_win_t *w, char *at, size_t len, char **packed,
                        int in)
{
    if (at == NULL || len == 0)
        return;
    if (in)
        memcpy(at, *packed, len);
    else
        memcpy(*packed, at, len);
    rk_win_shm_touch(w, at, len, in);
    *packed += len;
}

/* Copy between the target region and a packed buffer (@p in: into the
 * window). */
static void region(rk_win_t *w, const w_hdr_t *h, const w_blk_t *b,
                   char *packed, int in)
{
    char *item = w->flavor == MPI_WIN_FLAVOR_DYNAMIC
                     ? (char *)(uintptr_t)h->disp
                     : w->base + h->disp;
    char *run = NULL;
    size_t rlen = 0;

    /* blocks that continue the previous one are copied together: a
     * target datatype of many adjacent items costs one copy, not one per
     * item */
    for (int i = 0; i < h->tcount; i++, item += h->textent)
        for (int k = 0; k < h->nblocks; k++) {
            char *at = item + b[k].off;
            if (run != NULL && at == run + rlen) {
                rlen += (size_t)b[k].len;
                continue;
            }
            region_copy(w, run, rlen, &packed, in);
            run = at;
            rlen = (size_t)b[k].len;
        }
    region_copy(w, run, rlen, &packed, in);
}

static void reply(rk_win_t *w, int to, int tag, void *data, int64_t bytes)
{
    MPI_Request r;

    if (PMPI_Isend(data, (int)bytes, MPI_BYTE, to, tag, w->comm, &r) !=
            MPI_SUCCESS ||
        rk_win_pend(&w->rep, &w->nrep, &w->caprep, r, data) != MPI_SUCCESS)
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

/* Take a large put's data off the channel without applying them. */
static void drain(rk_win_t *w, int from, int64_t bytes)
{
    char *tmp = malloc((size_t)bytes);

    if (tmp != NULL)
        PMPI_Recv(tmp, (int)bytes, MPI_BYTE, from, W_DATA, w->comm,
                  MPI_STATUS_IGNORE);
    free(tmp);
}

/* A large put's data, which follow its header on W_DATA: received into
 * the window when the region is one run of bytes, else staged. */
static void put_data(rk_win_t *w, int from, const w_hdr_t *h,
                     const w_blk_t *b)
{
    char *at = w->flavor == MPI_WIN_FLAVOR_DYNAMIC
                   ? (char *)(uintptr_t)h->disp
                   : w->base + h->disp;
    char *tmp = NULL;

    if (h->tcount == 1 && h->nblocks == 1 && b[0].len == h->bytes) {
        at += b[0].off;
        if (PMPI_Recv(at, (int)h->bytes, MPI_BYTE, from, W_DATA, w->comm,
                      MPI_STATUS_IGNORE) == MPI_SUCCESS)
            rk_win_shm_touch(w, at, (size_t)h->bytes, 1);
        return;
    }
    tmp = malloc((size_t)h->bytes);
    if (tmp == NULL) {
        rk_err(w->comm, MPI_ERR_NO_MEM, "MPI_Put (target side)",
               "no memory for rank %d's put of %lld bytes", from,
               (long long)h->bytes);
        return;
    }
    if (PMPI_Recv(tmp, (int)h->bytes, MPI_BYTE, from, W_DATA, w->comm,
                  MPI_STATUS_IGNORE) == MPI_SUCCESS)
        region(w, h, b, tmp, 1);
    free(tmp);
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
        if (h.kind == K_PUT && h.split)
            drain(w, from, h.bytes);
        rk_err(w->comm, MPI_ERR_RMA_RANGE, "MPI_Win (target side)",
               "rank %d's operation on bytes at %#llx is outside the memory "
               "attached to the dynamic window", from,
               (unsigned long long)h.disp);
        return;
    }
    if (h.kind == K_PUT && h.split) {
        put_data(w, from, &h, b);
        return;
    }
    if (h.kind == K_PUT) {
        region(w, &h, b, data, 1);
        return;
    }
    if (h.bytes > 0)
        old = malloc((size_t)h.bytes);
    if (old == NULL && h.bytes > 0) {
        /* an empty answer rather than an origin waiting for ever */
        if (h.reply_tag != 0)
            reply(w, from, h.reply_tag, NULL, 0);
        rk_err(w->comm, MPI_ERR_NO_MEM, "MPI_Win (target side)",
               "no memory for rank %d's operation of %lld bytes", from,
               (long long)h.bytes);
        return;
    }
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

    if (rk_wn.busy)
        return;
    rk_wn.busy = 1;
    do {
        /* world rank 0: MPI_Publish_name and friends (port.c) */
        n = rk_wn.names ? rk_names_serve() : 0;
        /* replies sent, then the requests (MPI calls: progress) */
        for (int i = 0; i < rk_wn.n; i++)
            if (rk_wn.w[i] != NULL && rk_wn.w[i]->used && rk_wn.w[i]->nrep > 0)
                rk_win_reap(rk_wn.w[i]->rep, &rk_wn.w[i]->nrep);
        for (int i = 0; i < rk_wn.n; i++)
            if (rk_wn.w[i] != NULL && rk_wn.w[i]->used)
                n += serve(rk_wn.w[i]);
    } while (n > 0);
    rk_wn.busy = 0;
}

void rk_win_names_serve(void)
{
    rk_wn.names = 1;
    rk_progress_hook = win_hook;
}

int rk_win_progress_until(rk_win_t *w, int (*done)(rk_win_t *),
                          const char *func)
{
    for (;;) {
        rk_progress();
        if (done(w))
            return MPI_SUCCESS;
        rk_progress_wait(func);
    }
}

int rk_win_origin_done(rk_win_t *w)
{
    rk_win_reap(w->pend, &w->npend);
    return w->npend == 0;
}

/* ---- windows ---- */

/* A window over @p base (@p alloc: heap memory to free with it; @p shm:
 * its offset in shared DRAM, or -1). */
static int win_new(void *base, MPI_Aint size, int disp_unit, MPI_Comm comm,
                   int flavor, void *alloc, long long shm, MPI_Win *win,
                   const char *func)
{
    rk_comm_t *c;
    rk_win_t *w;
    int err = rk_comm_arg(comm, &c, func), i;
    long long mine[3], *all;

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
    w->shm_off = shm;
    w->roff = calloc((size_t)w->size, sizeof(long long));
    w->rbytes = calloc((size_t)w->size, sizeof(MPI_Aint));
    w->runit = calloc((size_t)w->size, sizeof(int));
    w->issued = calloc((size_t)w->size * 2, sizeof(long long));
    w->synced = w->issued != NULL ? w->issued + w->size : NULL;
    w->locked = calloc((size_t)w->size, sizeof(int));
    w->start = calloc((size_t)w->size, sizeof(int));
    all = calloc((size_t)w->size * 3, sizeof(long long));
    if (w->rbytes == NULL || w->runit == NULL || w->issued == NULL ||
        w->locked == NULL || w->start == NULL || all == NULL ||
        w->roff == NULL) {
        err = MPI_ERR_NO_MEM;
    } else {
        mine[0] = size;
        mine[1] = disp_unit;
        mine[2] = shm;
        err = PMPI_Allgather(mine, 3, MPI_LONG_LONG, all, 3, MPI_LONG_LONG,
                             w->comm);
    }
    if (err == MPI_SUCCESS) {
        for (i = 0; i < w->size; i++) {
            w->rbytes[i] = (MPI_Aint)all[3 * i];
            w->runit[i] = (int)all[3 * i + 1];
            w->roff[i] = all[3 * i + 2];
        }
        for (i = 0; i < rk_wn.n && rk_wn.w[i] != NULL; i++)
            ;
        if (i == rk_wn.n) {
            rk_win_t **nw = realloc(rk_wn.w, (size_t)(rk_wn.n + 8) * sizeof(*nw));
            if (nw == NULL) {
                err = MPI_ERR_NO_MEM;
            } else {
                rk_wn.w = nw;
                memset(rk_wn.w + rk_wn.n, 0, 8 * sizeof(*nw));
                rk_wn.n += 8;
            }
        }
    }
    free(all);
    if (err != MPI_SUCCESS) {
        PMPI_Comm_free(&w->comm);
        free(w->roff);
        free(w->rbytes);
        free(w->runit);
        free(w->issued);
        free(w->locked);
        free(w->start);
        free(w);
        return rk_err(comm, err, func, "the window cannot be made");
    }
    w->used = 1;
    rk_wn.w[i] = w;
    rk_wn.live++;
    rk_progress_hook = win_hook;
    *win = i + 1;
    return MPI_SUCCESS;
}

int PMPI_Win_create(void *base, MPI_Aint size, int disp_unit, MPI_Info info,
                    MPI_Comm comm, MPI_Win *win)
{
    RK_MPI_GUARD;
    (void)info;
    return win_new(base, size, disp_unit, comm, MPI_WIN_FLAVOR_CREATE, NULL,
                   -1, win, "MPI_Win_create");
}
RK_MPI_ALIAS(Win_create);

/* RCK_MPI_WIN_ALLOCATE: shm, or auto in host memory (native, the mpi
 * backend on one node), where a direct copy costs what a memcpy does and
 * needs no progress at the target; heap (messages) on the chip's models,
 * whose shared DRAM is uncached */
static int win_allocate_shm(void)
{
    const char *how = rck_config_get("MPI_WIN_ALLOCATE");

    return strcmp(how, "shm") == 0 ||
           (strcmp(how, "auto") == 0 && rckmpi_coll_host_memory());
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info,
                      MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    RK_MPI_GUARD;
    void *mem, *heap = NULL;
    long long off = -1;
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
    /* RCK_MPI_WIN_ALLOCATE=shm: shared DRAM if it fits in my slice
     * (others then copy directly), else the heap (messages) */
    mem = win_allocate_shm() ? rk_win_shm_alloc((size_t)size, &off) : NULL;
    if (mem == NULL) {
        off = -1;
        mem = heap = calloc(1, size > 0 ? (size_t)size : 1);
    }
    if (mem == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, "MPI_Win_allocate",
                      "no memory for %ld bytes", (long)size);
    err = win_new(mem, size, disp_unit, comm, MPI_WIN_FLAVOR_ALLOCATE, heap,
                  off, win, "MPI_Win_allocate");
    if (err != MPI_SUCCESS) {
        free(heap);
        if (off >= 0)
            rk_win_shm_free(off);
        return err;
    }
    *(void **)baseptr = mem;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_allocate);

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info,
                             MPI_Comm comm, void *baseptr, MPI_Win *win)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    void *mem = NULL;
    long long off = -1;
    int err = rk_comm_arg(comm, &c, "MPI_Win_allocate_shared"), bad, any;

    (void)info;
    if (err != MPI_SUCCESS)
        return err;
    if (baseptr == NULL || size < 0)
        return rk_err(comm, size < 0 ? MPI_ERR_SIZE : MPI_ERR_ARG,
                      "MPI_Win_allocate_shared", "size %ld, baseptr %p",
                      (long)size, baseptr);
    if (size > 0)
        mem = rk_win_shm_alloc((size_t)size, &off);
    bad = size > 0 && mem == NULL;
    err = PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, comm);
    if (err == MPI_SUCCESS && any)
        err = MPI_ERR_RMA_SHARED;
    if (err == MPI_SUCCESS)
        err = win_new(mem, size, disp_unit, comm, MPI_WIN_FLAVOR_SHARED, NULL,
                      off, win, "MPI_Win_allocate_shared");
    if (err != MPI_SUCCESS) {
        if (off >= 0)
            rk_win_shm_free(off);
        return err == MPI_ERR_RMA_SHARED
                   ? rk_err(comm, err, "MPI_Win_allocate_shared",
                            "%ld bytes do not fit in the %s's slice of the "
                            "shared DRAM for windows (RCK_MPI_WIN_SHM)",
                            (long)size, bad ? "caller" : "other processes")
                   : err;
    }
    *(void **)baseptr = mem;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_allocate_shared);

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint *size,
                          int *disp_unit, void *baseptr)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_shared_query"), r = rank;

    if (err != MPI_SUCCESS)
        return err;
    if (w->flavor != MPI_WIN_FLAVOR_SHARED)
        return rk_err(w->comm, MPI_ERR_RMA_FLAVOR, "MPI_Win_shared_query",
                      "not a window of MPI_Win_allocate_shared");
    if (size == NULL || disp_unit == NULL || baseptr == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, "MPI_Win_shared_query",
                      "a NULL argument");
    if (rank == MPI_PROC_NULL) /* the first rank with memory */
        for (r = 0; r < w->size - 1 && w->rbytes[r] == 0; r++)
            ;
    if (r < 0 || r >= w->size)
        return rk_err(w->comm, MPI_ERR_RANK, "MPI_Win_shared_query",
                      "rank %d of a window of %d", rank, w->size);
    *size = w->rbytes[r];
    *disp_unit = w->runit[r];
    *(void **)baseptr = w->rbytes[r] > 0 ? rk_win_shm_addr(w->roff[r]) : NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_shared_query);

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win *win)
{
    RK_MPI_GUARD;
    (void)info;
    return win_new(NULL, 0, 1, comm, MPI_WIN_FLAVOR_DYNAMIC, NULL, -1, win,
                   "MPI_Win_create_dynamic");
}
RK_MPI_ALIAS(Win_create_dynamic);

int PMPI_Win_attach(MPI_Win win, void *base, MPI_Aint size)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_attach");
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
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_detach");

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
    rk_win_origin_done(w);
    rk_win_reap(w->rep, &w->nrep);
    return w->npend == 0 && w->nrep == 0;
}

int PMPI_Win_free(MPI_Win *win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win != NULL ? *win : MPI_WIN_NULL, &w, "MPI_Win_free");

    if (err != MPI_SUCCESS)
        return err;
    if (w->nlocked > 0 || w->lock_all || w->started || w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_free",
                      "an epoch is still open (unlock, complete or wait "
                      "first)");
    /* the attributes' delete callbacks first (MPI-3.1 6.7.4) */
    err = rk_attr_win_delete_all(*win);
    if (err != MPI_SUCCESS)
        return rk_err(w->comm, err, "MPI_Win_free",
                      "an attribute's delete callback failed");
    /* every origin's operations on me are done once all are here */
    rk_win_progress_until(w, free_done, "MPI_Win_free");
    err = PMPI_Barrier(w->comm);
    rk_win_progress_until(w, free_done, "MPI_Win_free");
    w->used = 0;
    rk_wn.w[*win - 1] = NULL;
    PMPI_Comm_free(&w->comm);
    free(w->alloc);
    if (w->shm_off >= 0)
        rk_win_shm_free(w->shm_off);
    free(w->roff);
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
    if (w->info != MPI_INFO_NULL)
        PMPI_Info_free(&w->info);
    free(w);
    if (--rk_wn.live == 0 && !rk_wn.names)
        rk_progress_hook = NULL;
    *win = MPI_WIN_NULL;
    return err;
}
RK_MPI_ALIAS(Win_free);

int PMPI_Win_get_group(MPI_Win win, MPI_Group *group)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_get_group");

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
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_get_attr");
    static int separate = MPI_WIN_SEPARATE, unified = MPI_WIN_UNIFIED;

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
        /* shared windows: loads and stores of every process on the same
         * memory */
        *(int **)val = w->flavor == MPI_WIN_FLAVOR_SHARED ? &unified
                                                          : &separate;
        break;
    default:
        *flag = 0;
        return rk_attr_win_get(win, keyval, val, flag);
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_get_attr);

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler eh)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_set_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    return rk_set_eh(w->comm, eh, RK_EH_WIN, "MPI_Win_set_errhandler");
}
RK_MPI_ALIAS(Win_set_errhandler);

MPI_Win rk_win_by_comm(MPI_Comm comm)
{
    for (int i = 0; i < rk_wn.n; i++)
        if (rk_wn.w[i] != NULL && rk_wn.w[i]->used &&
            rk_wn.w[i]->comm == comm)
            return (MPI_Win)(i + 1);
    return MPI_WIN_NULL;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler *eh)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_get_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    return PMPI_Comm_get_errhandler(w->comm, eh);
}
RK_MPI_ALIAS(Win_get_errhandler);

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_call_errhandler");

    if (err != MPI_SUCCESS)
        return err;
    rk_err(w->comm, errorcode, "MPI_Win_call_errhandler",
           "called by the program");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_call_errhandler);

int PMPI_Win_set_name(MPI_Win win, const char *name)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_set_name");

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
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_get_name");

    if (err != MPI_SUCCESS)
        return err;
    if (name == NULL || len == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, "MPI_Win_get_name",
                      "name or resultlen is NULL");
    *len = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", w->name);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_get_name);

