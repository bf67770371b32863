/*
 * Completion (MPI_Wait/Test and their all/any/some forms), persistent
 * requests, cancel, probe, status queries, Sendrecv.
 */
#include "rckmpi.h"

#include <stdlib.h>
#include <string.h>

static int req_ok(MPI_Request h, const char *func)
{
    if (h == MPI_REQUEST_NULL || rk_req(h) != NULL)
        return MPI_SUCCESS;
    return rk_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, func,
                  "invalid request handle %d", h);
}

/* Is request @p h finished (or null/inactive)? */
static int finished(MPI_Request h)
{
    rk_req_t *r = rk_req(h);

    if (r != NULL && r->active && !r->done)
        rk_greq_poll(r);
    return r == NULL || !r->active || r->done;
}

static int inactive(MPI_Request h)
{
    rk_req_t *r = rk_req(h);
    return r == NULL || !r->active;
}

int PMPI_Wait(MPI_Request *request, MPI_Status *status)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Wait");

    if (err == MPI_SUCCESS && request == NULL)
        err = rk_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Wait",
                     "request pointer is NULL");
    if (err == MPI_SUCCESS)
        err = req_ok(*request, "MPI_Wait");
    if (err != MPI_SUCCESS)
        return err;
    {
        rk_req_t *r = rk_req(*request);
        MPI_Comm comm = r != NULL ? r->comm : MPI_COMM_WORLD;
        err = rk_wait_req(request, status, "MPI_Wait");
        if (err != MPI_SUCCESS)
            return rk_err(comm, err, "MPI_Wait", "the request failed");
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Wait);

int PMPI_Test(MPI_Request *request, int *flag, MPI_Status *status)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Test");

    if (err == MPI_SUCCESS && (request == NULL || flag == NULL))
        err = rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Test",
                     "NULL request or flag");
    if (err == MPI_SUCCESS)
        err = req_ok(*request, "MPI_Test");
    if (err != MPI_SUCCESS)
        return err;
    rk_progress();
    *flag = finished(*request);
    if (*flag)
        return PMPI_Wait(request, status);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Test);

static int check_array(int count, MPI_Request reqs[], const char *func)
{
    int err = rk_check_init(func);

    if (err != MPI_SUCCESS)
        return err;
    if (count < 0 || (count > 0 && reqs == NULL))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, func,
                      "bad request array (count %d)", count);
    for (int i = 0; i < count; i++) {
        err = req_ok(reqs[i], func);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

static MPI_Status *status_at(MPI_Status *statuses, int i)
{
    return statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
}

/* Complete every request (all finished): statuses, errors. */
static int complete_all(int count, MPI_Request reqs[], MPI_Status sts[],
                        const char *func)
{
    int errs = 0;

    for (int i = 0; i < count; i++) {
        MPI_Status tmp, *st = status_at(sts, i);
        int err = rk_wait_req(&reqs[i], st == MPI_STATUS_IGNORE ? &tmp : st,
                              func);
        if (err != MPI_SUCCESS)
            errs++;
        if (sts != MPI_STATUSES_IGNORE)
            sts[i].MPI_ERROR = err;
    }
    if (errs)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_IN_STATUS, func,
                      "%d of %d requests failed", errs, count);
    return MPI_SUCCESS;
}

int PMPI_Waitall(int count, MPI_Request reqs[], MPI_Status *statuses)
{
    RK_MPI_GUARD;
    int err = check_array(count, reqs, "MPI_Waitall");

    if (err != MPI_SUCCESS)
        return err;
    for (;;) {
        int all = 1;
        rk_progress();
        for (int i = 0; i < count && all; i++)
            all = finished(reqs[i]);
        if (all)
            break;
        rk_progress_wait("MPI_Waitall");
    }
    return complete_all(count, reqs, statuses, "MPI_Waitall");
}
RK_MPI_ALIAS(Waitall);

int PMPI_Testall(int count, MPI_Request reqs[], int *flag,
                 MPI_Status *statuses)
{
    RK_MPI_GUARD;
    int err = check_array(count, reqs, "MPI_Testall");

    if (err != MPI_SUCCESS)
        return err;
    rk_progress();
    *flag = 1;
    for (int i = 0; i < count && *flag; i++)
        *flag = finished(reqs[i]);
    if (!*flag)
        return MPI_SUCCESS;
    return complete_all(count, reqs, statuses, "MPI_Testall");
}
RK_MPI_ALIAS(Testall);

/* First finished active request, -1 none, MPI_UNDEFINED if none active. */
static int any_done(int count, MPI_Request reqs[])
{
    int active = 0;

    for (int i = 0; i < count; i++) {
        if (inactive(reqs[i]))
            continue;
        active = 1;
        if (finished(reqs[i]))
            return i;
    }
    return active ? -1 : MPI_UNDEFINED;
}

int PMPI_Waitany(int count, MPI_Request reqs[], int *index, MPI_Status *status)
{
    RK_MPI_GUARD;
    int err = check_array(count, reqs, "MPI_Waitany"), i;

    if (err != MPI_SUCCESS)
        return err;
    for (;;) {
        rk_progress();
        i = any_done(count, reqs);
        if (i != -1)
            break;
        rk_progress_wait("MPI_Waitany");
    }
    *index = i;
    if (i == MPI_UNDEFINED) {
        MPI_Request null = MPI_REQUEST_NULL;
        return rk_wait_req(&null, status, "MPI_Waitany");
    }
    return PMPI_Wait(&reqs[i], status);
}
RK_MPI_ALIAS(Waitany);

int PMPI_Testany(int count, MPI_Request reqs[], int *index, int *flag,
                 MPI_Status *status)
{
    RK_MPI_GUARD;
    int err = check_array(count, reqs, "MPI_Testany"), i;

    if (err != MPI_SUCCESS)
        return err;
    rk_progress();
    i = any_done(count, reqs);
    *flag = i != -1;
    *index = i == -1 ? MPI_UNDEFINED : i;
    if (i == MPI_UNDEFINED) {
        MPI_Request null = MPI_REQUEST_NULL;
        return rk_wait_req(&null, status, "MPI_Testany");
    }
    if (i >= 0)
        return PMPI_Wait(&reqs[i], status);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Testany);

static int some(int incount, MPI_Request reqs[], int *outcount,
                int indices[], MPI_Status *statuses, const char *func)
{
    int n = 0, active = 0, errs = 0;

    for (int i = 0; i < incount; i++) {
        if (inactive(reqs[i]))
            continue;
        active = 1;
        if (!finished(reqs[i]))
            continue;
        MPI_Status *st = status_at(statuses, n);
        int err = rk_wait_req(&reqs[i], st, func);
        if (err != MPI_SUCCESS)
            errs++;
        if (statuses != MPI_STATUSES_IGNORE)
            statuses[n].MPI_ERROR = err;
        indices[n++] = i;
    }
    *outcount = active ? n : MPI_UNDEFINED;
    if (errs)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_IN_STATUS, func,
                      "%d requests failed", errs);
    return MPI_SUCCESS;
}

int PMPI_Waitsome(int incount, MPI_Request reqs[], int *outcount,
                  int indices[], MPI_Status *statuses)
{
    RK_MPI_GUARD;
    int err = check_array(incount, reqs, "MPI_Waitsome");

    if (err != MPI_SUCCESS)
        return err;
    for (;;) {
        rk_progress();
        if (any_done(incount, reqs) != -1)
            break;
        rk_progress_wait("MPI_Waitsome");
    }
    return some(incount, reqs, outcount, indices, statuses, "MPI_Waitsome");
}
RK_MPI_ALIAS(Waitsome);

int PMPI_Testsome(int incount, MPI_Request reqs[], int *outcount,
                  int indices[], MPI_Status *statuses)
{
    RK_MPI_GUARD;
    int err = check_array(incount, reqs, "MPI_Testsome");

    if (err != MPI_SUCCESS)
        return err;
    rk_progress();
    return some(incount, reqs, outcount, indices, statuses, "MPI_Testsome");
}
RK_MPI_ALIAS(Testsome);

int PMPI_Request_free(MPI_Request *request)
{
    RK_MPI_GUARD;
    int err = check_array(1, request, "MPI_Request_free");
    rk_req_t *r;

    if (err != MPI_SUCCESS)
        return err;
    r = rk_req(*request);
    if (r == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Request_free",
                      "the request is MPI_REQUEST_NULL");
    if (r->done || !r->active)
        rk_req_release(*request);
    else
        r->freed = 1; /* released when it completes */
    *request = MPI_REQUEST_NULL;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Request_free);

int PMPI_Request_get_status(MPI_Request request, int *flag,
                            MPI_Status *status)
{
    RK_MPI_GUARD;
    int err = check_array(1, &request, "MPI_Request_get_status");
    rk_req_t *r;

    if (err != MPI_SUCCESS)
        return err;
    rk_progress();
    r = rk_req(request);
    *flag = finished(request);
    if (*flag && r != NULL && r->active)
        rk_status_set(status, r);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Request_get_status);

int PMPI_Cancel(MPI_Request *request)
{
    RK_MPI_GUARD;
    int err = check_array(1, request, "MPI_Cancel");
    rk_req_t *r;

    if (err != MPI_SUCCESS)
        return err;
    r = rk_req(*request);
    if (r == NULL)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Cancel",
                      "the request is MPI_REQUEST_NULL");
    if (r->kind == RK_REQ_SEND)
        return rk_err(r->comm, MPI_ERR_UNSUPPORTED_OPERATION, "MPI_Cancel",
                      "cancelling a send is not implemented (docs/MPI.md)");
    if (r->kind == RK_REQ_GEN && r->cancel != NULL) {
        err = r->cancel(r->state);
        return err == MPI_SUCCESS
                       ? MPI_SUCCESS
                       : rk_err(r->comm, err, "MPI_Cancel",
                                "the cancel function failed");
    }
    if (r->kind == RK_REQ_GEN)
        return rk_err(r->comm, MPI_ERR_REQUEST, "MPI_Cancel",
                      "a non-blocking collective cannot be cancelled");
    if (r->kind == RK_REQ_RECV && !r->done)
        rk_cancel_recv(r); /* matched already: it completes normally */
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Cancel);

int PMPI_Test_cancelled(const MPI_Status *status, int *flag)
{
    RK_MPI_GUARD;
    *flag = status->rck_cancelled;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Test_cancelled);

int PMPI_Get_count(const MPI_Status *status, MPI_Datatype type, int *count)
{
    RK_MPI_GUARD;
    rk_type_t *t;
    int err = rckmpi_type_check(type);

    if (err != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, err, "MPI_Get_count",
                      "invalid datatype %d", type);
    t = rk_type(type);
    if (t->size == 0)
        *count = status->rck_bytes == 0 ? 0 : MPI_UNDEFINED;
    else if ((size_t)status->rck_bytes % t->size != 0)
        *count = MPI_UNDEFINED;
    else
        *count = (int)((size_t)status->rck_bytes / t->size);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_count);

int PMPI_Get_elements(const MPI_Status *status, MPI_Datatype type, int *count)
{
    RK_MPI_GUARD;
    int err = rckmpi_type_check(type);

    if (err != MPI_SUCCESS)
        return rk_err(MPI_COMM_WORLD, err, "MPI_Get_elements",
                      "invalid datatype %d", type);
    *count = (int)rk_type_elements(rk_type(type), status->rck_bytes);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Get_elements);

/* ---- persistent requests ---- */

static int persist(MPI_Request *req, int err)
{
    rk_req_t *r;

    if (err != MPI_SUCCESS)
        return err;
    r = rk_req(*req);
    r->persistent = 1;
    r->active = 0;
    return MPI_SUCCESS;
}

int PMPI_Send_init(const void *buf, int count, MPI_Datatype type, int dest,
                   int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return persist(request, rk_prepare(buf, count, type, dest, tag, comm, 0,
                                       RK_REQ_SEND, RK_MODE_STD, request,
                                       "MPI_Send_init"));
}
RK_MPI_ALIAS(Send_init);

int PMPI_Ssend_init(const void *buf, int count, MPI_Datatype type, int dest,
                    int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return persist(request, rk_prepare(buf, count, type, dest, tag, comm, 0,
                                       RK_REQ_SEND, RK_MODE_SYNC, request,
                                       "MPI_Ssend_init"));
}
RK_MPI_ALIAS(Ssend_init);

int PMPI_Rsend_init(const void *buf, int count, MPI_Datatype type, int dest,
                    int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return persist(request, rk_prepare(buf, count, type, dest, tag, comm, 0,
                                       RK_REQ_SEND, RK_MODE_READY, request,
                                       "MPI_Rsend_init"));
}
RK_MPI_ALIAS(Rsend_init);

int PMPI_Bsend_init(const void *buf, int count, MPI_Datatype type, int dest,
                    int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    /* the data are copied into the attached buffer at each MPI_Start */
    return persist(request, rk_prepare(buf, count, type, dest, tag, comm, 0,
                                       RK_REQ_SEND, RK_MODE_BUF, request,
                                       "MPI_Bsend_init"));
}
RK_MPI_ALIAS(Bsend_init);

int PMPI_Recv_init(void *buf, int count, MPI_Datatype type, int source,
                   int tag, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return persist(request, rk_prepare(buf, count, type, source, tag, comm, 0,
                                       RK_REQ_RECV, RK_MODE_STD, request,
                                       "MPI_Recv_init"));
}
RK_MPI_ALIAS(Recv_init);

int PMPI_Start(MPI_Request *request)
{
    RK_MPI_GUARD;
    int err = check_array(1, request, "MPI_Start");
    rk_req_t *r;

    if (err != MPI_SUCCESS)
        return err;
    r = rk_req(*request);
    if (r == NULL || !r->persistent || r->active)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Start",
                      "not an inactive persistent request");
    r->active = 1;
    if (r->kind == RK_REQ_SEND) {
        r->data = NULL;
        if (r->mode == RK_MODE_BUF && r->peer != MPI_PROC_NULL &&
            (err = rk_bsend_copy(r, "MPI_Start")) != MPI_SUCCESS) {
            r->active = 0;
            return err;
        }
        err = rk_start_send(*request);
        rk_progress();
    } else {
        err = rk_start_recv(*request);
    }
    return err == MPI_SUCCESS ? err
                              : rk_err(r->comm, err, "MPI_Start", "failed");
}
RK_MPI_ALIAS(Start);

int PMPI_Startall(int count, MPI_Request requests[])
{
    RK_MPI_GUARD;
    int err = check_array(count, requests, "MPI_Startall");

    for (int i = 0; err == MPI_SUCCESS && i < count; i++)
        err = PMPI_Start(&requests[i]);
    return err;
}
RK_MPI_ALIAS(Startall);

/* ---- probe and sendrecv ---- */

int rk_probe_args(int source, int tag, MPI_Comm comm, rk_comm_t **c,
                  const char *func)
{
    int err = rk_comm_arg(comm, c, func);

    if (err != MPI_SUCCESS)
        return err;
    if (source != MPI_ANY_SOURCE && source != MPI_PROC_NULL &&
        (source < 0 || source >= (*c)->psize))
        return rk_err(comm, MPI_ERR_RANK, func,
                      "rank %d is not in the communicator (size %d)", source,
                      (*c)->psize);
    if (tag != MPI_ANY_TAG && (tag < 0 || tag > RK_TAG_UB))
        return rk_err(comm, MPI_ERR_TAG, func, "tag %d outside 0..MPI_TAG_UB",
                      tag);
    return MPI_SUCCESS;
}

void rk_proc_null_status(MPI_Status *st)
{
    if (st == MPI_STATUS_IGNORE)
        return;
    memset(st, 0, sizeof *st);
    st->MPI_SOURCE = MPI_PROC_NULL;
    st->MPI_TAG = MPI_ANY_TAG;
}

int PMPI_Iprobe(int source, int tag, MPI_Comm comm, int *flag,
                MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_probe_args(source, tag, comm, &c, "MPI_Iprobe");

    if (err != MPI_SUCCESS)
        return err;
    if (source == MPI_PROC_NULL) {
        *flag = 1;
        rk_proc_null_status(status);
        return MPI_SUCCESS;
    }
    rk_progress();
    *flag = rk_probe(c->ctx, source == MPI_ANY_SOURCE ? -1 : c->peer[source],
                     tag, c, status, NULL);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Iprobe);

int PMPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_probe_args(source, tag, comm, &c, "MPI_Probe");

    if (err != MPI_SUCCESS)
        return err;
    if (source == MPI_PROC_NULL) {
        rk_proc_null_status(status);
        return MPI_SUCCESS;
    }
    for (;;) {
        rk_progress();
        if (rk_probe(c->ctx, source == MPI_ANY_SOURCE ? -1 : c->peer[source],
                     tag, c, status, NULL))
            return MPI_SUCCESS;
        rk_progress_wait("MPI_Probe");
    }
}
RK_MPI_ALIAS(Probe);

int PMPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  int dest, int sendtag, void *recvbuf, int recvcount,
                  MPI_Datatype recvtype, int source, int recvtag,
                  MPI_Comm comm, MPI_Status *status)
{
    RK_MPI_GUARD;
    MPI_Request r[2];
    MPI_Status st[2];
    int err;

    err = rk_irecv(recvbuf, recvcount, recvtype, source, recvtag, comm, 0,
                   &r[0], "MPI_Sendrecv");
    if (err != MPI_SUCCESS)
        return err;
    err = rk_isend(sendbuf, sendcount, sendtype, dest, sendtag, comm, 0,
                   RK_MODE_STD, &r[1], "MPI_Sendrecv");
    if (err != MPI_SUCCESS)
        return err;
    for (;;) {
        rk_progress();
        if (rk_req(r[0])->done && rk_req(r[1])->done)
            break;
        rk_progress_wait("MPI_Sendrecv");
    }
    rk_wait_req(&r[1], &st[1], "MPI_Sendrecv");
    err = rk_wait_req(&r[0], &st[0], "MPI_Sendrecv");
    if (status != MPI_STATUS_IGNORE)
        *status = st[0];
    if (err != MPI_SUCCESS)
        return rk_err(comm, err, "MPI_Sendrecv",
                      "the message was longer than the receive buffer");
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Sendrecv);

int PMPI_Sendrecv_replace(void *buf, int count, MPI_Datatype type, int dest,
                          int sendtag, int source, int recvtag, MPI_Comm comm,
                          MPI_Status *status)
{
    RK_MPI_GUARD;
    int err = rk_check_init("MPI_Sendrecv_replace"), size = 0;
    void *tmp;

    if (err != MPI_SUCCESS)
        return err;
    err = rckmpi_type_check(type);
    if (err != MPI_SUCCESS || count < 0)
        return rk_err(comm, err ? err : MPI_ERR_COUNT, "MPI_Sendrecv_replace",
                      "bad datatype or count");
    PMPI_Pack_size(count, type, comm, &size);
    tmp = malloc(size ? (size_t)size : 1);
    if (tmp == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, "MPI_Sendrecv_replace",
                      "no memory for %d bytes", size);
    rk_pack(buf, count, rk_type(type), tmp);
    err = PMPI_Sendrecv(tmp, size, MPI_BYTE, dest, sendtag, buf, count, type,
                        source, recvtag, comm, status);
    free(tmp);
    return err;
}
RK_MPI_ALIAS(Sendrecv_replace);

/* ---- waits on the shared window: the small gather's entries
 * (rckmpi_coll_gslot_*; their place in the window: rk_chan_gslot) ---- */

int rk_wait_shm_word(size_t off, uint32_t value, const char *call)
{
    uint32_t w;

    for (;;) {
        if (rck_hal_shm_read(rk.hal, off, &w, sizeof w) != RCK_OK)
            return MPI_ERR_INTERN;
        if (w == value)
            return MPI_SUCCESS;
        rk_progress();
        if (rk_progress_wait_shm(off, value, call) < 0)
            return MPI_ERR_OTHER;
    }
}

static size_t gslot_at(int ue, unsigned long long g)
{
    return rk_chan_gslot(ue, g, 0);
}

static size_t gdone_at(int ue, unsigned long long g)
{
    return rk_chan_gslot(ue, g, 1);
}

int rckmpi_coll_gslot_put(unsigned long long g, const void *buf, size_t len)
{
    size_t at = gslot_at(rk.ue, g);
    uint32_t head[2] = {(uint32_t)g, (uint32_t)len};
    int err;

    if (rckmpi_coll_slot_bytes() == 0 || len > RKC_GSLOT_DATA || g == 0)
        return MPI_ERR_INTERN;
    /* the entry's last use, gather g - RKC_GSLOT_N, must have been read.
     * When it has not, wait until half the ring has been (the root reads
     * in order when it is the same root), so that a sender that runs
     * ahead sleeps once per RKC_GSLOT_N / 2 gathers, not at every one */
    if (g > RKC_GSLOT_N) {
        uint32_t done, old = (uint32_t)(g - RKC_GSLOT_N);
        if (rck_hal_shm_read(rk.hal, gdone_at(rk.ue, g), &done, 4) != RCK_OK)
            return MPI_ERR_INTERN;
        if (done != old) {
            unsigned long long h = g - RKC_GSLOT_N / 2;
            err = rk_wait_shm_word(gdone_at(rk.ue, h), (uint32_t)h,
                                   "MPI_Gather");
            if (err == MPI_SUCCESS)
                err = rk_wait_shm_word(gdone_at(rk.ue, g), old,
                                       "MPI_Gather");
            if (err != MPI_SUCCESS)
                return err;
        }
    }
    /* the data and length, then the number that says they are there (the
     * stores reach the other cores in this order: HAL writes in program
     * order) */
    char entry[4 + RKC_GSLOT_DATA];
    memcpy(entry, &head[1], 4);
    memcpy(entry + 4, buf, len);
    if (rck_hal_shm_write(rk.hal, at + 4, entry, len + 4) != RCK_OK ||
        rck_hal_shm_write(rk.hal, at, &head[0], 4) != RCK_OK)
        return MPI_ERR_INTERN;
    return MPI_SUCCESS;
}

int rckmpi_coll_gslot_root(unsigned long long g)
{
    uint32_t done = (uint32_t)g;

    if (rckmpi_coll_slot_bytes() == 0 || g == 0)
        return MPI_ERR_INTERN;
    return rck_hal_shm_write(rk.hal, gdone_at(rk.ue, g), &done, 4) == RCK_OK
               ? MPI_SUCCESS
               : MPI_ERR_INTERN;
}

int rckmpi_coll_gslot_take(int ue, unsigned long long g, void *buf,
                           size_t len)
{
    uint32_t n, done = (uint32_t)g;

    if (rckmpi_coll_slot_bytes() == 0 || ue < 0 || ue >= rk.nues ||
        len > RKC_GSLOT_DATA || g == 0)
        return MPI_ERR_INTERN;
    size_t at = gslot_at(ue, g);
    int err = rk_wait_shm_word(at, (uint32_t)g, "MPI_Gather");
    if (err != MPI_SUCCESS)
        return err;
    if (rck_hal_shm_read(rk.hal, at + 4, &n, 4) != RCK_OK || n != len ||
        rck_hal_shm_read(rk.hal, at + 8, buf, len) != RCK_OK ||
        rck_hal_shm_write(rk.hal, gdone_at(ue, g), &done, 4) != RCK_OK)
        return MPI_ERR_INTERN;
    return MPI_SUCCESS;
}

/* the HAL's wait flags for the waits to come: RCK_WAIT_SLEEP while a
 * collective's rank waits for a release that comes late (coll_flat.c) */
void rckmpi_coll_wait_long(int on)
{
    rk.wait_flags = on ? RCK_WAIT_SLEEP : 0;
}
