/* Schedules of the non-blocking collectives (rkcoll.h, docs/
 * MPI-COLLECTIVES.md "Non-blocking collectives"): rounds of point-to-point
 * transfers on the collective context with the operation's own tag, and
 * local steps after them, driven by a generalized request. The library's
 * progress engine polls every such request (req.c), so a schedule moves on
 * whichever MPI call its process is in.
 *
 * Invariant: steps[cur] is the first step of the round under way; posted
 * says whether its transfers are out (their requests in req[0..nreq)). */
#include "rkcoll.h"
#include "rckmpi_greq.h"

#include <stdlib.h>
#include <string.h>

enum { ST_SEND, ST_RECV, ST_COPY, ST_REDUCE, ST_END };

struct step {
    int kind, peer, tagoff;
    const void *src;
    void *dst;
    int count, count2;
    MPI_Datatype type, type2;
    MPI_Op op;
};

struct rkc_sched {
    MPI_Comm comm;
    int tag, nomem;
    struct step *steps;
    int n, cap, cur, posted, nreq, maxreq, inround;
    MPI_Request *req;
    void **tmp;
    int ntmp;
};

rkc_sched_t *rkc_sched_new(MPI_Comm comm)
{
    rkc_sched_t *s = calloc(1, sizeof *s);

    if (s == NULL)
        return NULL;
    s->comm = comm;
    s->tag = RKC_TAG_NBC +
             (int)(rckmpi_coll_nbc_seq(comm) % RKC_NBC_SEQS) * RKC_NBC_TAGS;
    return s;
}

void rkc_sched_free(rkc_sched_t *s)
{
    if (s == NULL)
        return;
    for (int i = 0; i < s->ntmp; i++)
        free(s->tmp[i]);
    free(s->tmp);
    free(s->steps);
    free(s->req);
    free(s);
}

static struct step *add(rkc_sched_t *s, int kind)
{
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 16;
        struct step *n = realloc(s->steps, (size_t)cap * sizeof(*n));
        if (n == NULL) {
            s->nomem = 1;
            return NULL;
        }
        s->steps = n;
        s->cap = cap;
    }
    struct step *st = &s->steps[s->n++];
    memset(st, 0, sizeof *st);
    st->kind = kind;
    if (kind == ST_SEND || kind == ST_RECV) {
        if (++s->inround > s->maxreq)
            s->maxreq = s->inround;
    } else if (kind == ST_END) {
        s->inround = 0;
    }
    return st;
}

/* a send (from @p src) or receive (into @p dst) step; NULL when out of
 * memory */
static struct step *xfer(rkc_sched_t *s, int kind, const void *src,
                         void *dst, int count, MPI_Datatype type, int peer)
{
    struct step *st = add(s, kind);

    if (st != NULL) {
        st->src = src;
        st->dst = dst;
        st->count = count;
        st->type = type;
        st->peer = peer;
    }
    return st;
}

void rkc_sched_send(rkc_sched_t *s, const void *buf, int count,
                    MPI_Datatype type, int peer)
{
    xfer(s, ST_SEND, buf, NULL, count, type, peer);
}

void rkc_sched_recv(rkc_sched_t *s, void *buf, int count, MPI_Datatype type,
                    int peer)
{
    xfer(s, ST_RECV, NULL, buf, count, type, peer);
}

void rkc_sched_send_tag(rkc_sched_t *s, const void *buf, int count,
                        MPI_Datatype type, int peer, int tagoff)
{
    struct step *st = xfer(s, ST_SEND, buf, NULL, count, type, peer);

    if (st != NULL)
        st->tagoff = tagoff;
}

void rkc_sched_recv_tag(rkc_sched_t *s, void *buf, int count,
                        MPI_Datatype type, int peer, int tagoff)
{
    struct step *st = xfer(s, ST_RECV, NULL, buf, count, type, peer);

    if (st != NULL)
        st->tagoff = tagoff;
}

void rkc_sched_copy(rkc_sched_t *s, const void *src, int scount,
                    MPI_Datatype stype, void *dst, int rcount,
                    MPI_Datatype rtype)
{
    struct step *st = add(s, ST_COPY);

    if (st != NULL) {
        st->src = src;
        st->count = scount;
        st->type = stype;
        st->dst = dst;
        st->count2 = rcount;
        st->type2 = rtype;
    }
}

void rkc_sched_reduce(rkc_sched_t *s, MPI_Op op, const void *in, void *inout,
                      int count, MPI_Datatype type)
{
    struct step *st = add(s, ST_REDUCE);

    if (st != NULL) {
        st->op = op;
        st->src = in;
        st->dst = inout;
        st->count = count;
        st->type = type;
    }
}

void rkc_sched_round(rkc_sched_t *s)
{
    add(s, ST_END);
}

void *rkc_sched_tmp(rkc_sched_t *s, int count, MPI_Datatype type)
{
    void **t = realloc(s->tmp, (size_t)(s->ntmp + 1) * sizeof(*t)), *buf;

    if (t == NULL) {
        s->nomem = 1;
        return NULL;
    }
    s->tmp = t;
    buf = rkc_tmpbuf(count, type, &s->tmp[s->ntmp]);
    if (buf == NULL) {
        s->nomem = 1;
        return NULL;
    }
    s->ntmp++;
    return buf;
}

/* the end of the round that starts at @p i (index of its ST_END or n) */
static int round_end(const rkc_sched_t *s, int i)
{
    while (i < s->n && s->steps[i].kind != ST_END)
        i++;
    return i;
}

static int post(rkc_sched_t *s, int end)
{
    s->nreq = 0;
    for (int i = s->cur; i < end; i++) {
        struct step *st = &s->steps[i];
        int err = MPI_SUCCESS;
        if (st->kind == ST_SEND)
            err = rckmpi_coll_isend(st->src, st->count, st->type, st->peer,
                                    s->tag + st->tagoff, s->comm,
                                    &s->req[s->nreq++]);
        else if (st->kind == ST_RECV)
            err = rckmpi_coll_irecv(st->dst, st->count, st->type, st->peer,
                                    s->tag + st->tagoff, s->comm,
                                    &s->req[s->nreq++]);
        if (err != MPI_SUCCESS)
            return err;
    }
    s->posted = 1;
    return MPI_SUCCESS;
}

static int poll(void *p, int *done)
{
    rkc_sched_t *s = p;
    int err = MPI_SUCCESS;

    while (s->cur < s->n) {
        int end = round_end(s, s->cur), flag = 1;
        if (!s->posted && (err = post(s, end)) != MPI_SUCCESS)
            break;
        if (s->nreq > 0)
            err = PMPI_Testall(s->nreq, s->req, &flag, MPI_STATUSES_IGNORE);
        if (err != MPI_SUCCESS || !flag)
            break;
        for (int i = s->cur; i < end && err == MPI_SUCCESS; i++) {
            struct step *st = &s->steps[i];
            if (st->kind == ST_COPY)
                rkc_copy(st->src, st->count, st->type, st->dst, st->count2,
                         st->type2);
            else if (st->kind == ST_REDUCE)
                err = rkop_apply(st->op, st->src, st->dst, st->count,
                                 st->type);
        }
        s->cur = end < s->n ? end + 1 : end;
        s->posted = 0;
        if (err != MPI_SUCCESS)
            break;
    }
    *done = s->cur >= s->n || err != MPI_SUCCESS;
    return err;
}

static void release(void *p)
{
    rkc_sched_free(p);
}

int rkc_sched_start(rkc_sched_t *s, MPI_Request *req, const char *func)
{
    MPI_Comm comm = s->comm;
    int err;

    if (!s->nomem && s->maxreq > 0 &&
        (s->req = malloc((size_t)s->maxreq * sizeof(*s->req))) == NULL)
        s->nomem = 1;
    if (s->nomem) {
        rkc_sched_free(s);
        return rckmpi_error(comm, MPI_ERR_NO_MEM, func);
    }
    err = rckmpi_greq_start(poll, s, release, comm, req);
    if (err != MPI_SUCCESS) {
        rkc_sched_free(s);
        return rckmpi_error(comm, err, func);
    }
    return MPI_SUCCESS;
}
