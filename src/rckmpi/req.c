/*
 * Requests and the point-to-point calls of MPI (docs/MPI.md): argument
 * checks, the blocking calls as a start and a wait, buffered mode against
 * the attached buffer, and the entry points of the collectives
 * (rckmpi_coll_*: the communicator's collective context).
 */
#include "rckmpi.h"
#include "rckmpi_greq.h"

#include "rck/log.h"

#include <stdlib.h>
#include <string.h>

static struct {
    rk_req_t **tab;
    int n, cap, free_hint;
    void *bbuf;          /* MPI_Buffer_attach */
    size_t bsize, bused;
} rq;

rk_req_t *rk_req(MPI_Request h)
{
    if (h <= 0 || h > rq.n || rq.tab[h - 1] == NULL || !rq.tab[h - 1]->used)
        return NULL;
    return rq.tab[h - 1];
}

/* memset through a pointer: gcc turns a constant-size clear into an inline
 * "rep stos", which costs more than a small message's copy */
static void *(*volatile req_clear)(void *, int, size_t) = memset;

/* The generalized requests not yet released: every progress pass polls
 * those not done (rk_greqs_progress), so that a non-blocking collective
 * moves on while its process waits in another call (MPI's progress rule:
 * a blocking receive must not keep a schedule from sending what its peer
 * waits for). */
static struct {
    MPI_Request *h;
    int n, cap;
    int busy; /* inside a pass: a poll's own progress does not recurse */
} gq;

static int gq_add(MPI_Request h)
{
    if (gq.n == gq.cap) {
        int cap = gq.cap ? 2 * gq.cap : 16;
        MPI_Request *t = realloc(gq.h, (size_t)cap * sizeof(*t));
        if (t == NULL)
            return MPI_ERR_NO_MEM;
        gq.h = t;
        gq.cap = cap;
    }
    gq.h[gq.n++] = h;
    return MPI_SUCCESS;
}

static void gq_remove(MPI_Request h)
{
    for (int i = 0; i < gq.n; i++)
        if (gq.h[i] == h) {
            gq.h[i] = gq.h[--gq.n];
            return;
        }
}

int rk_greqs_active(void)
{
    return gq.n > 0;
}

void rk_greqs_progress(void)
{
    if (gq.busy || gq.n == 0)
        return;
    gq.busy = 1;
    /* backwards: a request released by its poll (MPI_Request_free'd and
     * now done) takes the last one's place, already polled */
    for (int i = gq.n - 1; i >= 0; i--) {
        rk_req_t *r = rk_req(gq.h[i]);
        if (r != NULL && r->active && !r->done)
            rk_greq_poll(r);
    }
    gq.busy = 0;
}

MPI_Request rk_req_new(rk_req_t **out)
{
    int i;

    for (i = rq.free_hint; i < rq.n; i++)
        if (!rq.tab[i]->used)
            break;
    if (i == rq.n) {
        if (rq.n == rq.cap) {
            int cap = rq.cap ? 2 * rq.cap : 64;
            rk_req_t **t = realloc(rq.tab, (size_t)cap * sizeof(*t));
            if (t == NULL)
                return MPI_REQUEST_NULL;
            rq.tab = t;
            rq.cap = cap;
        }
        rq.tab[i] = malloc(sizeof(rk_req_t));
        if (rq.tab[i] == NULL)
            return MPI_REQUEST_NULL;
        rq.n++;
    }
    req_clear(rq.tab[i], 0, sizeof(rk_req_t));
    rq.tab[i]->used = 1;
    rq.tab[i]->self = i + 1;
    rq.free_hint = i + 1;
    *out = rq.tab[i];
    return i + 1;
}

void rk_req_release(MPI_Request h)
{
    rk_req_t *r = rk_req(h);

    if (r == NULL)
        return;
    if (r->own_data)
        free(r->data);
    if (r->kind == RK_REQ_SEND || r->kind == RK_REQ_RECV) {
        rk_type_drop(r->type);
        rk_comm_drop(r->comm);
    }
    if (r->kind == RK_REQ_GEN) {
        gq_remove(h);
        if (r->release != NULL)
            r->release(r->state);
    }
    r->used = 0;
    if (h - 1 < rq.free_hint)
        rq.free_hint = h - 1;
}

void rk_reqs_finalize(void)
{
    for (int i = 0; i < rq.n; i++)
        free(rq.tab[i]);
    free(rq.tab);
    memset(&rq, 0, sizeof rq);
    free(gq.h);
    memset(&gq, 0, sizeof gq);
}

int rk_bsend_release(size_t bytes)
{
    rq.bused -= bytes;
    return MPI_SUCCESS;
}

void rk_status_set(MPI_Status *dst, const rk_req_t *r)
{
    if (dst == MPI_STATUS_IGNORE)
        return;
    *dst = r->st;
    if (r->kind == RK_REQ_SEND) {
        dst->MPI_SOURCE = MPI_ANY_SOURCE;
        dst->MPI_TAG = MPI_ANY_TAG;
        dst->MPI_ERROR = r->err;
        dst->rck_bytes = 0;
    }
}

/* Check the arguments common to every send and receive. */
static int check_args(const rk_comm_t *c, MPI_Comm comm, int count,
                      MPI_Datatype type, int peer, int tag, int recv,
                      int coll, const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    if (c == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_COMM, func,
                      "invalid communicator %d", comm);
    if (count < 0)
        return rk_err(comm, MPI_ERR_COUNT, func, "negative count %d", count);
    err = rckmpi_type_check(type);
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, func, "invalid or uncommitted datatype %d",
                      type);
    if (peer != MPI_PROC_NULL && !(recv && peer == MPI_ANY_SOURCE) &&
        (peer < 0 || peer >= c->psize))
        return rk_err(comm, MPI_ERR_RANK, func,
                      "rank %d is not in the communicator (size %d)", peer,
                      c->psize);
    if (!(recv && tag == MPI_ANY_TAG) &&
        (tag < 0 || (tag > RK_TAG_UB && !coll)))
        return rk_err(comm, MPI_ERR_TAG, func,
                      "tag %d outside 0..MPI_TAG_UB (%d)", tag, RK_TAG_UB);
    return MPI_SUCCESS;
}

static int make_req(const void *buf, int count, MPI_Datatype type, int peer,
                    int tag, MPI_Comm comm, int coll, int kind,
                    MPI_Request *req, rk_req_t **out)
{
    const rk_comm_t *c = rk_comm(comm);
    rk_req_t *r;
    MPI_Request h = rk_req_new(&r);

    if (h == MPI_REQUEST_NULL)
        return MPI_ERR_NO_MEM;
    r->kind = kind;
    rk_type_hold(type);
    rk_comm_hold(comm);
    r->buf = (void *)buf;
    r->count = count;
    r->type = type;
    r->peer = peer;
    r->tag = tag;
    r->comm = comm;
    r->ctx = c->ctx + (coll ? 1u : 0u);
    r->peer_ue = peer >= 0 ? c->peer[peer] : -1;
    r->active = 1;
    *req = h;
    *out = r;
    return MPI_SUCCESS;
}

/* Buffered mode: copy the data now (charged to the attached buffer) and
 * let an internal request carry it. */
int rk_bsend_copy(rk_req_t *r, const char *func)
{
    const rk_type_t *t = rk_type(r->type);
    size_t bytes = t->size * (size_t)r->count;
    size_t charge = bytes + MPI_BSEND_OVERHEAD;

    if (rq.bbuf == NULL || rq.bused + charge > rq.bsize)
        return rk_err(r->comm, MPI_ERR_BUFFER, func,
                      "the attached buffer (%zu bytes, %zu in use) has no "
                      "room for %zu bytes", rq.bsize, rq.bused, charge);
    r->data = malloc(bytes ? bytes : 1);
    if (r->data == NULL)
        return MPI_ERR_NO_MEM;
    rk_pack(r->buf, r->count, t, r->data);
    r->own_data = 1;
    r->bsend = charge;
    rq.bused += charge;
    return MPI_SUCCESS;
}

int rk_prepare(const void *buf, int count, MPI_Datatype type, int peer,
               int tag, MPI_Comm comm, int coll, int kind, int mode,
               MPI_Request *req, const char *func)
{
    rk_comm_t *c = rk_comm(comm);
    rk_req_t *r;
    int err = check_args(c, comm, count, type, peer, tag,
                         kind == RK_REQ_RECV, coll, func);

    if (err != MPI_SUCCESS)
        return err;
    if (req == NULL)
        return rk_err(comm, MPI_ERR_REQUEST, func, "request pointer is NULL");
    if (rk_type(type)->size * (size_t)count > UINT32_MAX)
        return rk_err(comm, MPI_ERR_COUNT, func,
                      "%d items of %zu bytes: messages are limited to 4 GiB",
                      count, rk_type(type)->size);
    err = make_req(buf, count, type, peer, tag, comm, coll, kind, req, &r);
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, func, "no request");
    r->mode = mode;
    return MPI_SUCCESS;
}

int rk_isend(const void *buf, int count, MPI_Datatype type, int dest,
             int tag, MPI_Comm comm, int coll, int mode, MPI_Request *req,
             const char *func)
{
    rk_req_t *r;
    int err = rk_prepare(buf, count, type, dest, tag, comm, coll, RK_REQ_SEND,
                         mode, req, func);

    if (err != MPI_SUCCESS)
        return err;
    r = rk_req(*req);
    if (mode == RK_MODE_BUF && dest != MPI_PROC_NULL) {
        err = rk_bsend_copy(r, func);
        if (err != MPI_SUCCESS) {
            rk_req_release(*req);
            *req = MPI_REQUEST_NULL;
            return err;
        }
    }
    err = rk_start_send(*req);
    return err == MPI_SUCCESS ? err : rk_err(comm, err, func, "send failed");
}

int rk_irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, int coll, MPI_Request *req, const char *func)
{
    int err = rk_prepare(buf, count, type, source, tag, comm, coll,
                         RK_REQ_RECV, RK_MODE_STD, req, func);

    if (err != MPI_SUCCESS)
        return err;
    return rk_start_recv(*req);
}

/* Wait for one request; frees it unless persistent. */
int rk_wait_req(MPI_Request *h, MPI_Status *st, const char *func)
{
    rk_req_t *r = rk_req(*h);
    int err;

    if (r == NULL || !r->active) {
        if (st != MPI_STATUS_IGNORE) {
            memset(st, 0, sizeof *st);
            st->MPI_SOURCE = MPI_ANY_SOURCE;
            st->MPI_TAG = MPI_ANY_TAG;
        }
        return MPI_SUCCESS;
    }
    while (!r->done) {
        rk_progress();
        rk_greq_poll(r);
        if (r->done)
            break;
        rk_progress_wait_req(func, r);
    }
    rk_status_set(st, r);
    err = r->err;
    if (r->persistent) {
        r->active = 0;
    } else {
        rk_req_release(*h);
        *h = MPI_REQUEST_NULL;
    }
    return err;
}

static int blocking(int err, MPI_Request *req, MPI_Status *st, MPI_Comm comm,
                    const char *func)
{
    if (err != MPI_SUCCESS)
        return err;
    err = rk_wait_req(req, st, func);
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, func, "the message was longer than the "
                                       "receive buffer");
    return MPI_SUCCESS;
}

int PMPI_Send(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm)
{
    RK_MPI_GUARD;
    MPI_Request r;
    int err;

    if (rk_send_short(buf, count, type, dest, tag, comm))
        return MPI_SUCCESS;
    err = rk_isend(buf, count, type, dest, tag, comm, 0, RK_MODE_STD, &r,
                   "MPI_Send");
    return blocking(err, &r, MPI_STATUS_IGNORE, comm, "MPI_Send");
}
RK_MPI_ALIAS(Send);

int PMPI_Ssend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm)
{
    RK_MPI_GUARD;
    MPI_Request r;
    int err = rk_isend(buf, count, type, dest, tag, comm, 0, RK_MODE_SYNC,
                       &r, "MPI_Ssend");
    return blocking(err, &r, MPI_STATUS_IGNORE, comm, "MPI_Ssend");
}
RK_MPI_ALIAS(Ssend);

int PMPI_Rsend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm)
{
    RK_MPI_GUARD;
    MPI_Request r;
    int err = rk_isend(buf, count, type, dest, tag, comm, 0, RK_MODE_READY,
                       &r, "MPI_Rsend");
    return blocking(err, &r, MPI_STATUS_IGNORE, comm, "MPI_Rsend");
}
RK_MPI_ALIAS(Rsend);

int PMPI_Bsend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm)
{
    RK_MPI_GUARD;
    MPI_Request r;
    int err = rk_isend(buf, count, type, dest, tag, comm, 0, RK_MODE_BUF, &r,
                       "MPI_Bsend");
    rk_req_t *q = rk_req(r);

    if (err != MPI_SUCCESS)
        return err;
    /* the copy is made: the transfer finishes on its own */
    if (q != NULL && !q->done)
        q->freed = 1;
    else
        rk_req_release(r);
    rk_progress();
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Bsend);

int PMPI_Recv(void *buf, int count, MPI_Datatype type, int source, int tag,
              MPI_Comm comm, MPI_Status *status)
{
    RK_MPI_GUARD;
    MPI_Request r;
    int err;

    /* the short path may sleep in the HAL without the wait's hand-off */
    if (!rk_mt && rk_recv_short(buf, count, type, source, tag, comm, status))
        return MPI_SUCCESS;
    err = rk_irecv(buf, count, type, source, tag, comm, 0, &r, "MPI_Recv");
    return blocking(err, &r, status, comm, "MPI_Recv");
}
RK_MPI_ALIAS(Recv);

int PMPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
               int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    int err = rk_isend(buf, count, type, dest, tag, comm, 0, RK_MODE_STD,
                       request, "MPI_Isend");
    if (err == MPI_SUCCESS)
        rk_progress();
    return err;
}
RK_MPI_ALIAS(Isend);

int PMPI_Issend(const void *buf, int count, MPI_Datatype type, int dest,
                int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return rk_isend(buf, count, type, dest, tag, comm, 0, RK_MODE_SYNC,
                    request, "MPI_Issend");
}
RK_MPI_ALIAS(Issend);

int PMPI_Irsend(const void *buf, int count, MPI_Datatype type, int dest,
                int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return rk_isend(buf, count, type, dest, tag, comm, 0, RK_MODE_READY,
                    request, "MPI_Irsend");
}
RK_MPI_ALIAS(Irsend);

int PMPI_Ibsend(const void *buf, int count, MPI_Datatype type, int dest,
                int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    /* the user's request completes at once (the data is copied); an
     * internal one carries the copy */
    rk_req_t *u;
    int err = PMPI_Bsend(buf, count, type, dest, tag, comm);

    if (err != MPI_SUCCESS)
        return err;
    *request = rk_req_new(&u);
    if (*request == MPI_REQUEST_NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, "MPI_Ibsend", "no request");
    u->kind = RK_REQ_SEND;
    u->active = 1;
    u->done = 1;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Ibsend);

int PMPI_Irecv(void *buf, int count, MPI_Datatype type, int source, int tag,
               MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return rk_irecv(buf, count, type, source, tag, comm, 0, request,
                    "MPI_Irecv");
}
RK_MPI_ALIAS(Irecv);

int PMPI_Buffer_attach(void *buffer, int size)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Buffer_attach");

    if (err != MPI_SUCCESS)
        return err;
    if (rq.bbuf != NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_attach",
                      "a buffer is already attached");
    if (size < 0 || (buffer == NULL && size > 0))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_attach",
                      "bad buffer (%p, %d bytes)", buffer, size);
    rq.bbuf = buffer;
    rq.bsize = (size_t)size;
    rq.bused = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Buffer_attach);

int PMPI_Buffer_detach(void *buffer_addr, int *size)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Buffer_detach");

    if (err != MPI_SUCCESS)
        return err;
    if (rq.bbuf == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_BUFFER, "MPI_Buffer_detach",
                      "no buffer is attached");
    /* the buffered messages must be out first */
    while (rq.bused > 0) {
        rk_progress();
        if (rq.bused > 0)
            rk_progress_wait("MPI_Buffer_detach");
    }
    *(void **)buffer_addr = rq.bbuf;
    *size = (int)rq.bsize;
    rq.bbuf = NULL;
    rq.bsize = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Buffer_detach);

/* ---- the collectives' point-to-point ---- */

int rckmpi_coll_isend(const void *buf, int count, MPI_Datatype type, int dest,
                      int tag, MPI_Comm comm, MPI_Request *req)
{
    int err = rk_isend(buf, count, type, dest, tag, comm, 1, RK_MODE_STD, req,
                       "rckmpi_coll_isend");
    if (err == MPI_SUCCESS)
        rk_progress();
    return err;
}

int rckmpi_coll_irecv(void *buf, int count, MPI_Datatype type, int source,
                      int tag, MPI_Comm comm, MPI_Request *req)
{
    return rk_irecv(buf, count, type, source, tag, comm, 1, req,
                    "rckmpi_coll_irecv");
}

int rckmpi_coll_send(const void *buf, int count, MPI_Datatype type, int dest,
                     int tag, MPI_Comm comm)
{
    MPI_Request r;
    int err = rk_isend(buf, count, type, dest, tag, comm, 1, RK_MODE_STD, &r,
                       "rckmpi_coll_send");
    return blocking(err, &r, MPI_STATUS_IGNORE, comm, "rckmpi_coll_send");
}

int rckmpi_coll_ssend(const void *buf, int count, MPI_Datatype type,
                      int dest, int tag, MPI_Comm comm)
{
    MPI_Request r;
    int err = rk_isend(buf, count, type, dest, tag, comm, 1, RK_MODE_SYNC, &r,
                       "rckmpi_coll_ssend");
    return blocking(err, &r, MPI_STATUS_IGNORE, comm, "rckmpi_coll_ssend");
}

int rckmpi_coll_recv(void *buf, int count, MPI_Datatype type, int source,
                     int tag, MPI_Comm comm, MPI_Status *status)
{
    MPI_Request r;
    int err = rk_irecv(buf, count, type, source, tag, comm, 1, &r,
                       "rckmpi_coll_recv");
    return blocking(err, &r, status, comm, "rckmpi_coll_recv");
}

/* ---- generalized requests (rckmpi_greq.h) ---- */


void rk_greq_poll(rk_req_t *r)
{
    int done = 0, err;

    if (r->kind != RK_REQ_GEN || r->done || r->polling)
        return;
    r->polling = 1;
    err = r->poll(r->state, &done);
    r->polling = 0;
    if (err != MPI_SUCCESS) {
        r->err = err;
        done = 1;
    }
    if (done) {
        r->st.MPI_ERROR = r->err;
        r->done = 1;
        rk_mt_progress++;
        if (r->freed) /* MPI_Request_free'd: no one waits for it */
            rk_req_release(r->self);
    }
}

int rckmpi_greq_start(rckmpi_greq_poll_fn poll, void *state,
                      void (*release)(void *state), MPI_Comm comm,
                      MPI_Request *req)
{
    rk_req_t *r;
    int err = rk_check_init("rckmpi_greq_start");

    if (err != MPI_SUCCESS)
        return err;
    if (poll == NULL || req == NULL)
        return rk_err(comm, MPI_ERR_ARG, "rckmpi_greq_start",
                      "NULL poll function or request");
    *req = rk_req_new(&r);
    if (*req == MPI_REQUEST_NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, "rckmpi_greq_start", "no request");
    r->kind = RK_REQ_GEN;
    r->comm = comm;
    r->active = 1;
    r->poll = poll;
    r->state = state;
    r->release = release;
    r->st.MPI_SOURCE = MPI_ANY_SOURCE;
    r->st.MPI_TAG = MPI_ANY_TAG;
    if (gq_add(*req) != MPI_SUCCESS) {
        r->release = NULL; /* the caller still owns the state */
        rk_req_release(*req);
        *req = MPI_REQUEST_NULL;
        return rk_err(comm, MPI_ERR_NO_MEM, "rckmpi_greq_start",
                      "no request");
    }
    rk_greq_poll(r);
    return MPI_SUCCESS;
}

/* ---- memory ---- */

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr)
{
    RK_MPI_GUARD;
    void *p;
    int err = rk_check_init("MPI_Alloc_mem");

    (void)info;
    if (err != MPI_SUCCESS)
        return err;
    if (size < 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Alloc_mem",
                      "negative size %ld", (long)size);
    /* no memory is special here: the MPBs are the channel's */
    p = malloc(size ? (size_t)size : 1);
    if (p == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "MPI_Alloc_mem",
                      "no memory for %ld bytes", (long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Alloc_mem);

int PMPI_Free_mem(void *base)
{
    RK_MPI_GUARD;
    free(base);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Free_mem);
