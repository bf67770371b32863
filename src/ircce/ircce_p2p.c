/*
 * The public point-to-point calls of iRCCE: isend/irecv and their test,
 * wait and push; the pipelined synchronous ssend/srecv/issend/isrecv;
 * probes; cancel.
 */
#include "ircce_internal.h"

#include <string.h>

/* ---- validity of a request handed back by the program ---- */

/* @return iRCCE_SUCCESS if @p r is queued, its final code if it is over,
 * iRCCE_ERROR if the library never set it up (or it was copied). */
static int send_known(const iRCCE_SEND_REQUEST *r, const char *call)
{
    if (r->rck_magic != RCK_IRCCE_REQ_MAGIC ||
        r->rck_state < IRCCE_ST_QUEUED || r->rck_state > IRCCE_ST_FAILED)
        goto invalid;
    if (r->rck_state == IRCCE_ST_QUEUED || r->rck_state == IRCCE_ST_ACTIVE) {
        if (!ircce_send_queued(r))
            goto invalid;
        return iRCCE_SUCCESS;
    }
    return ircce_final_code(r->rck_state, r->rck_status);
invalid:
    rck_info("%s: not a request posted with iRCCE_isend/issend", call);
    return iRCCE_ERROR;
}

static int recv_known(const iRCCE_RECV_REQUEST *r, const char *call)
{
    if (r->rck_magic != RCK_IRCCE_REQ_MAGIC ||
        r->rck_state < IRCCE_ST_QUEUED || r->rck_state > IRCCE_ST_FAILED)
        goto invalid;
    if (r->rck_state == IRCCE_ST_QUEUED || r->rck_state == IRCCE_ST_ACTIVE) {
        if (!ircce_recv_queued(r))
            goto invalid;
        return iRCCE_SUCCESS;
    }
    return ircce_final_code(r->rck_state, r->rck_status);
invalid:
    rck_info("%s: not a request posted with iRCCE_irecv/isrecv", call);
    return iRCCE_ERROR;
}

static int queued_code(int st)
{
    return st == iRCCE_PENDING || st == iRCCE_RESERVED;
}

/* ---- send ---- */

/* A post names its call, for the message log: it may send and receive
 * (progress) before it returns. Before RCCE_init there is no core. */
static void named(const char *call, int peer, ssize_t size)
{
    if (rcce.hal != NULL) {
        rck_hal_set_context(rcce.hal, call, peer);
        if (call != NULL)
            rck_hal_set_message(rcce.hal, size >= 0 ? (long long)size : -1,
                                -1, -1);
    }
}

static int send_generic(char *buf, ssize_t size, int dest,
                        iRCCE_SEND_REQUEST *request, int sync,
                        const char *call)
{
    iRCCE_SEND_REQUEST tmp;
    int st;

    if (request == NULL)
        memset(&tmp, 0, sizeof(tmp));
    named(call, dest, size);
    st = ircce_send_post(request != NULL ? request : &tmp, buf, size, dest,
                         sync, call);
    named(NULL, -1, -1);
    if (request != NULL || !queued_code(st))
        return st;
    st = ircce_block_sized(ircce_send_over, &tmp, call, dest,
                           IRCCE_WATCH_NONE, size);
    if (st != iRCCE_SUCCESS) {
        ircce_send_unlink(&tmp);
        return st;
    }
    return ircce_final_code(tmp.rck_state, tmp.rck_status);
}

int iRCCE_isend(char *privbuf, ssize_t size, int dest,
                iRCCE_SEND_REQUEST *request)
{
    return send_generic(privbuf, size, dest, request, 0, "iRCCE_isend");
}

int iRCCE_issend(char *privbuf, ssize_t size, int dest,
                 iRCCE_SEND_REQUEST *request)
{
    return send_generic(privbuf, size, dest, request, 1, "iRCCE_issend");
}

int iRCCE_ssend(char *privbuf, ssize_t size, int dest)
{
    return send_generic(privbuf, size, dest, NULL, 1, "iRCCE_ssend");
}

int iRCCE_isend_test(iRCCE_SEND_REQUEST *request, int *test)
{
    int dummy, st;

    if (test == NULL)
        test = &dummy;
    *test = 1;
    st = ircce_ready("iRCCE_isend_test", 1);
    if (st != iRCCE_SUCCESS)
        return st;
    if (request == NULL) {
        st = ircce_isend_push_only();
        *test = st == iRCCE_SUCCESS;
        return st;
    }
    st = send_known(request, "iRCCE_isend_test");
    if (st != iRCCE_SUCCESS || request->rck_state == IRCCE_ST_DONE)
        return st;
    st = ircce_send_test_one(request);
    *test = !queued_code(st);
    return st;
}

static int sends_drained(void *arg)
{
    (void)arg;
    return ircce.sq_head == NULL;
}

int iRCCE_isend_wait(iRCCE_SEND_REQUEST *request)
{
    int st = ircce_ready("iRCCE_isend_wait", 1);

    if (st != iRCCE_SUCCESS)
        return st;
    if (request == NULL)
        return ircce_block(sends_drained, NULL, "iRCCE_isend_wait", -1,
                           IRCCE_WATCH_NONE);
    st = send_known(request, "iRCCE_isend_wait");
    if (st != iRCCE_SUCCESS || request->rck_state == IRCCE_ST_DONE)
        return st;
    st = ircce_block(ircce_send_over, request, "iRCCE_isend_wait",
                     request->dest, IRCCE_WATCH_NONE);
    if (st != iRCCE_SUCCESS)
        return st;
    return ircce_final_code(request->rck_state, request->rck_status);
}

int iRCCE_isend_push(void)
{
    int st = ircce_ready("iRCCE_isend_push", 1);

    return st != iRCCE_SUCCESS ? st : ircce_isend_push_only();
}

/* ---- receive ---- */

static int recv_generic(char *buf, ssize_t size, int source,
                        iRCCE_RECV_REQUEST *request, int sync,
                        const char *call)
{
    iRCCE_RECV_REQUEST tmp;
    int st;

    if (request == NULL)
        memset(&tmp, 0, sizeof(tmp));
    named(call, source, size);
    st = ircce_recv_post(request != NULL ? request : &tmp, buf, size, source,
                         sync, call);
    named(NULL, -1, -1);
    if (request != NULL || !queued_code(st))
        return st;
    st = ircce_block_sized(ircce_recv_over, &tmp, call, source,
                           IRCCE_WATCH_NONE, size);
    if (st != iRCCE_SUCCESS) {
        ircce_recv_unlink(&tmp);
        return st;
    }
    return ircce_final_code(tmp.rck_state, tmp.rck_status);
}

int iRCCE_irecv(char *privbuf, ssize_t size, int source,
                iRCCE_RECV_REQUEST *request)
{
    return recv_generic(privbuf, size, source, request, 0, "iRCCE_irecv");
}

int iRCCE_isrecv(char *privbuf, ssize_t size, int source,
                 iRCCE_RECV_REQUEST *request)
{
    return recv_generic(privbuf, size, source, request, 1, "iRCCE_isrecv");
}

int iRCCE_srecv(char *privbuf, ssize_t size, int source)
{
    return recv_generic(privbuf, size, source, NULL, 1, "iRCCE_srecv");
}

int iRCCE_irecv_test(iRCCE_RECV_REQUEST *request, int *test)
{
    int dummy, st;

    if (test == NULL)
        test = &dummy;
    *test = 1;
    st = ircce_ready("iRCCE_irecv_test", 1);
    if (st != iRCCE_SUCCESS)
        return st;
    if (request == NULL) {
        st = ircce_irecv_push_only();
        *test = st == iRCCE_SUCCESS;
        return st;
    }
    st = recv_known(request, "iRCCE_irecv_test");
    if (st != iRCCE_SUCCESS || request->rck_state == IRCCE_ST_DONE)
        return st;
    st = ircce_recv_test_one(request);
    *test = !queued_code(st);
    return st;
}

static int recvs_drained(void *arg)
{
    (void)arg;
    if (ircce.aq.head != NULL)
        return 0;
    for (int s = 0; s < rcce.nues; s++)
        if (ircce.rq[s].head != NULL)
            return 0;
    return 1;
}

int iRCCE_irecv_wait(iRCCE_RECV_REQUEST *request)
{
    int st = ircce_ready("iRCCE_irecv_wait", 1);

    if (st != iRCCE_SUCCESS)
        return st;
    if (request == NULL)
        return ircce_block(recvs_drained, NULL, "iRCCE_irecv_wait", -1,
                           IRCCE_WATCH_NONE);
    st = recv_known(request, "iRCCE_irecv_wait");
    if (st != iRCCE_SUCCESS || request->rck_state == IRCCE_ST_DONE)
        return st;
    st = ircce_block(ircce_recv_over, request, "iRCCE_irecv_wait",
                     request->source, IRCCE_WATCH_NONE);
    if (st != iRCCE_SUCCESS)
        return st;
    return ircce_final_code(request->rck_state, request->rck_status);
}

int iRCCE_irecv_push(void)
{
    int st = ircce_ready("iRCCE_irecv_push", 1);

    return st != iRCCE_SUCCESS ? st : ircce_irecv_push_only();
}

/* Checks shared by the receive calls that do not post at once. */
static int recv_args(const char *call, const char *buf, ssize_t size,
                     int source)
{
    int st = ircce_ready(call, 1);

    if (st != iRCCE_SUCCESS)
        return st;
    if (size < 0 && size != iRCCE_ANY_LENGTH)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "negative size %zd", size);
    if (size == iRCCE_ANY_LENGTH && !ircce.tagged)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "iRCCE_ANY_LENGTH needs whole-line flags");
    if (source != iRCCE_ANY_SOURCE && !ircce_peer_ok(source))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, call,
                          "UE %d is not a valid peer", source);
    if (buf == NULL && size != 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, call,
                          "NULL buffer");
    return iRCCE_SUCCESS;
}

/* The source whose unclaimed message is announced: @p source itself, or
 * any whose queue is empty; -1 if none. Never waits. Any-source searches,
 * and probes (@p probe), pass a collective's message by (see
 * ircce_internal.h); a receive from one source takes whatever comes next
 * from it, as RCCE_recv does. */
static int announced(int source, int probe)
{
    RCCE_FLAG_STATUS v = RCCE_FLAG_UNSET;

    if (source == iRCCE_ANY_SOURCE)
        return ircce_any_ready();
    if (ircce.rq[source].head != NULL)
        return -1;
    if (probe)
        return ircce_p2p_announced(source) ? source : -1;
    rcce_flag_get(&rcce.sent[source], &v, rcce.ue);
    return v != RCCE_FLAG_UNSET ? source : -1;
}

int iRCCE_srecv_test(char *privbuf, ssize_t size, int source, int *test)
{
    int st, from;

    if (test == NULL)
        return iRCCE_srecv(privbuf, size, source);
    *test = 0;
    st = recv_args("iRCCE_srecv_test", privbuf, size, source);
    if (st != iRCCE_SUCCESS)
        return st;
    /* earlier receives that could take the message go first */
    if (source == iRCCE_ANY_SOURCE ? ircce.aq.head != NULL
                                   : ircce.rq[source].head != NULL)
        ircce_irecv_push_only();
    if (source == iRCCE_ANY_SOURCE && ircce.aq.head != NULL)
        return iRCCE_PENDING;
    from = announced(source, 0);
    if (from < 0)
        return iRCCE_PENDING;
    *test = 1;
    return recv_generic(privbuf, size, from, NULL, 1, "iRCCE_srecv_test");
}

/* ---- probes ---- */

int iRCCE_iprobe(int source, int *test_rank, int *test_flag)
{
    int st = ircce_ready("iRCCE_iprobe", 1), from;

    if (test_rank != NULL)
        *test_rank = iRCCE_ANY_SOURCE;
    if (test_flag != NULL)
        *test_flag = 0;
    if (st != iRCCE_SUCCESS)
        return st;
    if (source != iRCCE_ANY_SOURCE && !ircce_peer_ok(source))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, "iRCCE_iprobe",
                          "UE %d is not a valid peer", source);
    from = announced(source, 1);
    if (from < 0)
        return iRCCE_SUCCESS;
    if (test_rank != NULL)
        *test_rank = from;
    if (test_flag != NULL)
        *test_flag = 1;
    ircce.recent_source = from;
    ircce.recent_length = ircce_peek_length(from);
    return iRCCE_SUCCESS;
}

/* rockcreek extension: iRCCE_iprobe that also copies the message's first
 * bytes (include/iRCCE.h) */
int iRCCE_peek(char *buf, size_t size, int source, int *test_rank,
               size_t *copied)
{
    int st = ircce_ready("iRCCE_peek", 1), from;
    size_t got = 0;

    if (test_rank != NULL)
        *test_rank = iRCCE_ANY_SOURCE;
    if (copied != NULL)
        *copied = 0;
    if (st != iRCCE_SUCCESS)
        return st;
    if (source != iRCCE_ANY_SOURCE && !ircce_peer_ok(source))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, "iRCCE_peek",
                          "UE %d is not a valid peer", source);
    if (buf == NULL && size > 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_TARGET, "iRCCE_peek",
                          "NULL buffer");
    from = announced(source, 1);
    if (from < 0)
        return iRCCE_SUCCESS;
    st = ircce_peek_first(from, buf, size, &got);
    if (st != iRCCE_SUCCESS)
        return rcce_error(RCCE_DEBUG_COMM, st, "iRCCE_peek",
                          "cannot read the message of UE %d", from);
    if (test_rank != NULL)
        *test_rank = from;
    if (copied != NULL)
        *copied = got;
    ircce.recent_source = from;
    ircce.recent_length = ircce_peek_length(from);
    return iRCCE_SUCCESS;
}

typedef struct {
    int source, found;
} probe_ctx_t;

static int probe_done(void *arg)
{
    probe_ctx_t *c = arg;
    c->found = announced(c->source, 1);
    return c->found >= 0;
}

int iRCCE_probe(int source, int *test_rank)
{
    probe_ctx_t c = {.source = source, .found = -1};
    int st = ircce_ready("iRCCE_probe", 1);

    if (st != iRCCE_SUCCESS)
        return st;
    if (source != iRCCE_ANY_SOURCE && !ircce_peer_ok(source))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, "iRCCE_probe",
                          "UE %d is not a valid peer", source);
    st = ircce_block(probe_done, &c, "iRCCE_probe", source, source);
    if (st != iRCCE_SUCCESS)
        return st;
    if (test_rank != NULL)
        *test_rank = c.found;
    ircce.recent_source = c.found;
    ircce.recent_length = ircce_peek_length(c.found);
    return iRCCE_SUCCESS;
}

/* ---- cancel ---- */

int iRCCE_isend_cancel(iRCCE_SEND_REQUEST *request, int *test)
{
    int dummy;

    if (test == NULL)
        test = &dummy;
    *test = 0;
    if (ircce_ready("iRCCE_isend_cancel", 1) != iRCCE_SUCCESS ||
        request == NULL || request->rck_magic != RCK_IRCCE_REQ_MAGIC ||
        (request->rck_state != IRCCE_ST_QUEUED &&
         request->rck_state != IRCCE_ST_ACTIVE) ||
        !ircce_send_queued(request))
        return iRCCE_NOT_ENQUEUED;
    if (request->rck_state == IRCCE_ST_ACTIVE)
        return iRCCE_PENDING;
    ircce_send_unlink(request);
    request->rck_state = IRCCE_ST_CANCELLED;
    *test = 1;
    return iRCCE_SUCCESS;
}

int iRCCE_irecv_cancel(iRCCE_RECV_REQUEST *request, int *test)
{
    int dummy;

    if (test == NULL)
        test = &dummy;
    *test = 0;
    if (ircce_ready("iRCCE_irecv_cancel", 1) != iRCCE_SUCCESS ||
        request == NULL || request->rck_magic != RCK_IRCCE_REQ_MAGIC ||
        (request->rck_state != IRCCE_ST_QUEUED &&
         request->rck_state != IRCCE_ST_ACTIVE) ||
        !ircce_recv_queued(request))
        return iRCCE_NOT_ENQUEUED;
    if (request->rck_state == IRCCE_ST_ACTIVE)
        return iRCCE_PENDING;
    ircce_recv_unlink(request);
    request->rck_state = IRCCE_ST_CANCELLED;
    *test = 1;
    return iRCCE_SUCCESS;
}
