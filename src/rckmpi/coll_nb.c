/* Non-blocking barrier, broadcast and allreduce (docs/MPI-COLLECTIVES.md):
 * a schedule of point-to-point steps driven by a generalized request
 * (rckmpi_greq.h). A step posts up to two transfers on the collective
 * context; when both are done, its action runs (a reduction) and the next
 * step starts. The algorithms are the blocking ones' (dissemination,
 * binomial tree, recursive doubling that keeps rank order). */
#include "rkcoll.h"
#include "rckmpi_greq.h"

#include <stdlib.h>
#include <string.h>

enum { ACT_NONE, ACT_LEFT, ACT_RIGHT }; /* buf = tmp op buf / buf op tmp */

struct xfer {
    int send, peer;
    void *buf;
};

struct step {
    int n, act;
    struct xfer x[2];
};

struct sched {
    MPI_Comm comm;
    int tag, count, nsteps, cur, posted;
    MPI_Datatype type;
    MPI_Op op;
    void *buf, *tmp, *tmp_base;
    MPI_Request req[2];
    struct step *steps;
};

static void release(void *p)
{
    struct sched *s = p;

    free(s->tmp_base);
    free(s->steps);
    free(s);
}

static int post(struct sched *s)
{
    struct step *st = &s->steps[s->cur];

    for (int i = 0; i < st->n; i++) {
        struct xfer *x = &st->x[i];
        int err = x->send
                      ? rckmpi_coll_isend(x->buf, s->count, s->type, x->peer,
                                          s->tag, s->comm, &s->req[i])
                      : rckmpi_coll_irecv(x->buf, s->count, s->type, x->peer,
                                          s->tag, s->comm, &s->req[i]);
        if (err != MPI_SUCCESS)
            return err;
    }
    s->posted = 1;
    return MPI_SUCCESS;
}

static int poll(void *p, int *done)
{
    struct sched *s = p;
    int err = MPI_SUCCESS;

    while (s->cur < s->nsteps) {
        struct step *st = &s->steps[s->cur];
        int flag = 1;
        if (!s->posted && (err = post(s)) != MPI_SUCCESS)
            return err;
        if (st->n > 0)
            err = PMPI_Testall(st->n, s->req, &flag, MPI_STATUSES_IGNORE);
        if (err != MPI_SUCCESS || !flag)
            break;
        if (st->act == ACT_LEFT) {
            err = rkop_apply(s->op, s->tmp, s->buf, s->count, s->type);
        } else if (st->act == ACT_RIGHT) {
            err = rkop_apply(s->op, s->buf, s->tmp, s->count, s->type);
            rkc_copy(s->tmp, s->count, s->type, s->buf, s->count, s->type);
        }
        s->cur++;
        s->posted = 0;
        if (err != MPI_SUCCESS)
            break;
    }
    *done = s->cur >= s->nsteps || err != MPI_SUCCESS;
    return err;
}

static struct sched *sched_new(MPI_Comm comm, int tag, void *buf, int count,
                               MPI_Datatype type, int maxsteps)
{
    struct sched *s = calloc(1, sizeof *s);

    if (s == NULL)
        return NULL;
    s->steps = calloc((size_t)maxsteps + 1, sizeof *s->steps);
    if (s->steps == NULL) {
        free(s);
        return NULL;
    }
    s->comm = comm;
    s->tag = tag;
    s->buf = buf;
    s->count = count;
    s->type = type;
    return s;
}

static void add(struct sched *s, int act, int send, int peer, void *buf,
                int send2, int peer2, void *buf2)
{
    struct step *st = &s->steps[s->nsteps++];

    st->act = act;
    st->n = 0;
    if (peer >= 0)
        st->x[st->n++] = (struct xfer){send, peer, buf};
    if (peer2 >= 0)
        st->x[st->n++] = (struct xfer){send2, peer2, buf2};
}

static int start(struct sched *s, MPI_Comm comm, MPI_Request *req,
                 const char *f)
{
    int err = rckmpi_greq_start(poll, s, release, comm, req);

    if (err != MPI_SUCCESS) {
        release(s);
        return rckmpi_error(comm, err, f);
    }
    return MPI_SUCCESS;
}

static int log2ceil(int size)
{
    int k = 0;

    while ((1 << k) < size)
        k++;
    return k;
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    static const char f[] = "MPI_Ibarrier";
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err != MPI_SUCCESS)
        return err;
    if (request == NULL)
        return rckmpi_error(comm, MPI_ERR_REQUEST, f);
    struct sched *s = sched_new(comm, RKC_TAG_IBARRIER, NULL, 0, MPI_BYTE,
                                log2ceil(size));
    if (s == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    for (int k = 1; k < size; k <<= 1)
        add(s, ACT_NONE, 1, (rank + k) % size, NULL, 0,
            (rank - k + size) % size, NULL);
    return start(s, comm, request, f);
}
RK_MPI_ALIAS(Ibarrier);

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
                MPI_Comm comm, MPI_Request *request)
{
    static const char f[] = "MPI_Ibcast";
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err == MPI_SUCCESS)
        err = rkc_check_buf(comm, f, buffer, count, datatype);
    if (err == MPI_SUCCESS)
        err = rkc_check_root(comm, f, root, size);
    if (err == MPI_SUCCESS && request == NULL)
        err = rckmpi_error(comm, MPI_ERR_REQUEST, f);
    if (err != MPI_SUCCESS)
        return err;
    struct sched *s = sched_new(comm, RKC_TAG_IBCAST, buffer, count,
                                datatype, log2ceil(size) + 1);
    if (s == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    int rel = (rank - root + size) % size, mask = 1;
    while (mask < size && !(rel & mask))
        mask <<= 1;
    if (rel != 0)
        add(s, ACT_NONE, 0, (rank - mask + size) % size, buffer, 0, -1, NULL);
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < size)
            add(s, ACT_NONE, 1, (rank + mask) % size, buffer, 0, -1, NULL);
    return start(s, comm, request, f);
}
RK_MPI_ALIAS(Ibcast);

/* recursive doubling over pof2 ranks; the first 2 * rem ranks fold in
 * pairs (even into odd) first so that rank order holds */
static void iallreduce_steps(struct sched *s, int rank, int size)
{
    int pof2 = 1 << (log2ceil(size + 1) - 1), rem, newrank;

    if (pof2 > size)
        pof2 >>= 1;
    rem = size - pof2;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            add(s, ACT_NONE, 1, rank + 1, s->buf, 0, -1, NULL);
            add(s, ACT_NONE, 0, rank + 1, s->buf, 0, -1, NULL);
            return;
        }
        add(s, ACT_LEFT, 0, rank - 1, s->tmp, 0, -1, NULL);
        newrank = rank / 2;
    } else {
        newrank = rank - rem;
    }
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int pn = newrank ^ mask, peer = pn < rem ? pn * 2 + 1 : pn + rem;
        add(s, pn < newrank ? ACT_LEFT : ACT_RIGHT, 1, peer, s->buf, 0, peer,
            s->tmp);
    }
    if (rank < 2 * rem)
        add(s, ACT_NONE, 1, rank - 1, s->buf, 0, -1, NULL);
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    static const char f[] = "MPI_Iallreduce";
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err == MPI_SUCCESS)
        err = rkc_check_buf(comm, f, recvbuf, count, datatype);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        err = rkc_check_buf(comm, f, sendbuf, count, datatype);
    if (err == MPI_SUCCESS)
        err = rkc_check_op(comm, f, op, datatype);
    if (err == MPI_SUCCESS && request == NULL)
        err = rckmpi_error(comm, MPI_ERR_REQUEST, f);
    if (err != MPI_SUCCESS)
        return err;
    struct sched *s = sched_new(comm, RKC_TAG_IALLREDUCE, recvbuf, count,
                                datatype, log2ceil(size) + 3);
    if (s == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    s->op = op;
    s->tmp = rkc_tmpbuf(count, datatype, &s->tmp_base);
    if (s->tmp == NULL) {
        release(s);
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    }
    if (sendbuf != MPI_IN_PLACE)
        rkc_copy(sendbuf, count, datatype, recvbuf, count, datatype);
    iallreduce_steps(s, rank, size);
    return start(s, comm, request, f);
}
RK_MPI_ALIAS(Iallreduce);
