/*
 * MPI_Comm_idup (docs/MPI.md, "MPI-2.2/3.x additions"): the context
 * agreement of comm.c as a request of non-blocking steps.
 */
#include "rckmpi.h"
#include "rckmpi_greq.h"
#include "rkcoll.h"

#include <stdlib.h>
#include <string.h>

#define NCTXW RK_NCTXW

/* ---- MPI_Comm_idup: the agreement as a request ----
 * Rank 0 of the parent gathers every member's contexts in use, proposes
 * the lowest pair free in all of them and in its own (reserving it), and
 * every other member reserves it too if it is still free there and says
 * so; if all can, rank 0 says commit and each builds the duplicate;
 * otherwise the candidate is released, added to the mask and the next
 * one proposed. Reserving keeps a blocking agreement of another
 * communicator, made meanwhile, off the candidate. Every step is a
 * non-blocking message on the parent's collective context with tags of
 * one non-blocking collective's sequence number, driven by the request's
 * poll (rckmpi_greq.h): the caller never blocks. */
typedef struct {
    MPI_Comm parent;
    MPI_Comm *out;
    int n, me, phase, tag;
    uint32_t mask[NCTXW];   /* root: contexts in use somewhere */
    int *bitmaps;           /* root: the members' (n x NCTXW) */
    uint32_t mine[NCTXW];   /* non-root: my snapshot */
    int cand, ok, verdict;  /* the proposal, my answer, the outcome */
    int *oks;               /* root: the answers */
    int reserved;
    MPI_Request *rq;        /* outstanding receives and sends */
    int nrq;
} idup_t;

static int pair_used(const uint32_t *used, int ctx)
{
    uint32_t pair = (uint32_t)ctx / 2;
    return (used[pair / 32] >> (pair % 32)) & 1u;
}

/* all of rq done (tested, not waited) */
static int rq_done(idup_t *d, int *err)
{
    int flag = 1;

    if (d->nrq > 0) {
        *err = PMPI_Testall(d->nrq, d->rq, &flag, MPI_STATUSES_IGNORE);
        if (*err != MPI_SUCCESS)
            return 1;
    }
    if (flag)
        d->nrq = 0;
    return flag;
}

static int idup_send(idup_t *d, const void *buf, int count, int to, int off)
{
    return rckmpi_coll_isend(buf, count, MPI_INT, to, d->tag + off, d->parent,
                             &d->rq[d->nrq++]);
}

static int idup_recv(idup_t *d, void *buf, int count, int from, int off)
{
    return rckmpi_coll_irecv(buf, count, MPI_INT, from, d->tag + off,
                             d->parent, &d->rq[d->nrq++]);
}

/* root: propose the next candidate */
static int idup_propose(idup_t *d)
{
    uint32_t all[NCTXW], now[NCTXW];
    int err = MPI_SUCCESS;

    rk_ctx_used(now);
    for (int w = 0; w < NCTXW; w++)
        all[w] = d->mask[w] | now[w];
    d->cand = (int)rk_ctx_pick(all);
    if (d->cand == 0)
        return MPI_ERR_INTERN; /* every context in use */
    rk_ctx_reserve((uint32_t)d->cand, 1);
    d->reserved = 1;
    for (int r = 1; r < d->n && err == MPI_SUCCESS; r++)
        err = idup_send(d, &d->cand, 1, r, 1);
    for (int r = 1; r < d->n && err == MPI_SUCCESS; r++)
        err = idup_recv(d, &d->oks[r], 1, r, 2);
    d->phase = 2;
    return err;
}

static int idup_build(idup_t *d)
{
    rk_comm_t *p = rk_comm(d->parent);
    MPI_Comm nc;

    if (p == NULL)
        return MPI_ERR_COMM;
    nc = rk_comm_new(p->ue, p->size, p->rank, (uint32_t)d->cand, NULL, 0);
    if (nc == MPI_COMM_NULL)
        return MPI_ERR_NO_MEM;
    d->reserved = 0; /* the communicator holds the mark now */
    rk_comm(nc)->eh = rk_comm(d->parent)->eh;
    *d->out = nc;
    return rk_comm_dup_tail(d->parent, d->out);
}

static int idup_poll(void *state, int *done)
{
    idup_t *d = state;
    int err = MPI_SUCCESS;

next:
    /* each step posts the next messages and tests them at once (that
     * moves them: a wait must not sleep on sends not yet on their way) */
    if (!rq_done(d, &err))
        return err;
    if (err != MPI_SUCCESS)
        goto fail;
    /* a blocking agreement under way here sent its contexts before a
     * reservation made now: reserve nothing until it is over */
    if (rk_ctx_agreeing() > 0 && (d->phase == 0 || d->phase == 5))
        return MPI_SUCCESS;
    switch (d->phase) {
    case 0: /* every member's contexts have arrived at the root */
        if (d->me == 0) {
            for (int r = 1; r < d->n; r++)
                for (int w = 0; w < NCTXW; w++)
                    d->mask[w] |= (uint32_t)d->bitmaps[r * NCTXW + w];
            if (d->n == 1) {
                uint32_t all[NCTXW];
                rk_ctx_used(all);
                d->cand = (int)rk_ctx_pick(all);
                if (d->cand == 0) {
                    err = MPI_ERR_INTERN;
                    goto fail;
                }
                rk_ctx_reserve((uint32_t)d->cand, 1);
                d->reserved = 1;
                goto build;
            }
            err = idup_propose(d);
        } else {
            /* a candidate arrived */
            if (d->cand == 0) {
                err = MPI_ERR_INTERN;
                goto fail;
            }
            uint32_t now[NCTXW];
            rk_ctx_used(now);
            d->ok = !pair_used(now, d->cand);
            if (d->ok) {
                rk_ctx_reserve((uint32_t)d->cand, 1);
                d->reserved = 1;
            }
            err = idup_send(d, &d->ok, 1, 0, 2);
            if (err == MPI_SUCCESS)
                err = idup_recv(d, &d->verdict, 1, 0, 3);
            d->phase = 3;
        }
        break;
    case 2: { /* root: every answer is in */
        int all = 1;
        for (int r = 1; r < d->n; r++)
            all &= d->oks[r] != 0;
        d->verdict = all;
        for (int r = 1; r < d->n && err == MPI_SUCCESS; r++)
            err = idup_send(d, &d->verdict, 1, r, 3);
        d->phase = all ? 4 : 5;
        break;
    }
    case 3: /* non-root: the verdict is in */
        if (d->verdict)
            goto build;
        if (d->reserved)
            rk_ctx_reserve((uint32_t)d->cand, 0);
        d->reserved = 0;
        d->cand = 0;
        err = idup_recv(d, &d->cand, 1, 0, 1);
        d->phase = 0;
        break;
    case 4: /* root: commit sent */
        goto build;
    case 5: /* root: retry sent */
        rk_ctx_reserve((uint32_t)d->cand, 0);
        d->reserved = 0;
        d->mask[d->cand / 2 / 32] |= 1u << (d->cand / 2 % 32);
        err = idup_propose(d);
        break;
    default:
        return MPI_SUCCESS;
    }
    if (err != MPI_SUCCESS)
        goto fail;
    goto next;
build:
    err = idup_build(d);
    if (err != MPI_SUCCESS)
        goto fail;
    *done = 1;
    d->phase = 6;
    return MPI_SUCCESS;
fail:
    if (d->reserved)
        rk_ctx_reserve((uint32_t)d->cand, 0);
    d->reserved = 0;
    *d->out = MPI_COMM_NULL;
    *done = 1;
    d->phase = 6;
    return err;
}

static void idup_release(void *state)
{
    idup_t *d = state;

    free(d->bitmaps);
    free(d->oks);
    free(d->rq);
    free(d);
}

int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Comm_idup";
    rk_comm_t *p;
    idup_t *d;
    int err = rk_comm_arg(comm, &p, f);

    if (err != MPI_SUCCESS)
        return err;
    if (p->inter)
        return rk_err(comm, MPI_ERR_COMM, f,
                      "not implemented on an intercommunicator (docs/MPI.md)");
    if (newcomm == NULL || request == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "newcomm or request is NULL");
    d = calloc(1, sizeof *d);
    if (d == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, f, "no memory");
    d->parent = comm;
    d->out = newcomm;
    d->n = p->size;
    d->me = p->rank;
    d->tag = RKC_TAG_NBC +
             (int)(rckmpi_coll_nbc_seq(comm) % RKC_NBC_SEQS) * RKC_NBC_TAGS;
    d->rq = malloc((2 * (size_t)d->n + 2) * sizeof(MPI_Request));
    if (d->me == 0) {
        d->bitmaps = calloc((size_t)d->n * NCTXW, sizeof(int));
        d->oks = calloc((size_t)d->n, sizeof(int));
    }
    if (d->rq == NULL || (d->me == 0 && (d->bitmaps == NULL || d->oks == NULL))) {
        idup_release(d);
        return rk_err(comm, MPI_ERR_NO_MEM, f, "no memory");
    }
    *newcomm = MPI_COMM_NULL;
    rk_ctx_used(d->mask);
    if (d->me == 0) {
        for (int r = 1; r < d->n && err == MPI_SUCCESS; r++)
            err = idup_recv(d, &d->bitmaps[r * NCTXW], NCTXW, r, 0);
    } else {
        rk_ctx_used(d->mine);
        err = idup_send(d, d->mine, NCTXW, 0, 0);
        if (err == MPI_SUCCESS)
            err = idup_recv(d, &d->cand, 1, 0, 1);
    }
    if (err == MPI_SUCCESS)
        err = rckmpi_greq_start(idup_poll, d, idup_release, comm, request);
    else
        idup_release(d);
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, f, "the agreement could not start");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Comm_idup);
