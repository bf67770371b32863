/*
 * iRCCE's multicast and collectives: msend/mrecv/mcast/bcast put each
 * piece once into the root's communication buffer and let every receiver
 * copy it out (RCCE's protocol with one sender and many receivers);
 * iRCCE_barrier is RCCE's linear barrier with the master waiting for all
 * arrivals at once instead of one after the other.
 */
#include "ircce_internal.h"

#include <stdlib.h>
#include <string.h>

static int sends_drained(void *arg)
{
    (void)arg;
    return ircce.sq_head == NULL;
}

/* Put each piece once, set sent[me] at every receiver, then collect every
 * ready flag (in whatever order they come). */
static int msend_to(const char *buf, size_t size, const int *to, int nto,
                    const char *call)
{
    rck_hal_cond_t *conds;
    int *left, st = iRCCE_SUCCESS;
    /* inside a collective, the message is marked for any-source receives
     * (see ircce_internal.h) */
    int mark = rcce.coll > 0 && ircce.tagged;
    uint32_t word1 = rcce_flag_offset(&rcce.sent[rcce.ue]) + 4;
    size_t done = 0;

    if (size == 0 || nto == 0)
        return iRCCE_SUCCESS;
    /* pending sends use the communication buffer: they go first */
    st = ircce_block(sends_drained, NULL, call, -1, IRCCE_WATCH_NONE);
    if (st != iRCCE_SUCCESS)
        return st;
    conds = calloc((size_t)nto, sizeof(*conds));
    left = calloc((size_t)nto, sizeof(*left));
    if (conds == NULL || left == NULL) {
        free(conds);
        free(left);
        return RCCE_ERROR_MALLOC;
    }
    rck_hal_set_context(rcce.hal, call, -1);
    while (done < size && st == iRCCE_SUCCESS) {
        size_t n = size - done < rcce.combuf_len ? size - done
                                                 : rcce.combuf_len;
        size_t full = n / rcce.line * rcce.line;
        int me = rcce_core_of(rcce.ue), nleft = nto;
        rck_status_t hs = RCK_OK;

        if (full > 0)
            hs = rck_hal_mpb_write(rcce.hal, me, rcce.combuf_off, buf + done,
                                   full);
        if (hs == RCK_OK && n > full) {
            unsigned char line[RCCE_LINE_SIZE] = {0};
            memcpy(line, buf + done + full, n - full);
            hs = rck_hal_mpb_write(rcce.hal, me,
                                   rcce.combuf_off + (uint32_t)full, line,
                                   rcce.line);
        }
        rck_hal_wcb_flush(rcce.hal);
        if (hs != RCK_OK) {
            st = RCCE_ERROR_TARGET;
            break;
        }
        for (int i = 0; i < nto && st == iRCCE_SUCCESS; i++) {
            if (mark && done == 0 &&
                rck_hal_mpb_store32(rcce.hal, rcce_core_of(to[i]), word1,
                                    RCK_RCCE_COLL_MARK) != RCK_OK)
                st = RCCE_ERROR_TARGET;
            if (st == iRCCE_SUCCESS)
                st = rcce_flag_set(&rcce.sent[rcce.ue], RCCE_FLAG_SET, to[i]);
            left[i] = to[i];
        }
        while (nleft > 0 && st == iRCCE_SUCCESS) {
            int which = -1;
            for (int i = 0; i < nleft; i++) {
                conds[i].space = RCK_SPACE_MPB;
                conds[i].core = me;
                conds[i].offset = rcce_flag_offset(&rcce.ready[left[i]]);
                conds[i].mask = rcce_flag_bits(&rcce.ready[left[i]]);
                conds[i].value = 0;
                conds[i].op = RCK_COND_NE;
            }
            hs = rck_hal_wait(rcce.hal, conds, nleft, 0, rcce.wait_timeout_ns,
                              &which);
            if (hs != RCK_OK) {
                st = ircce_hal_fail(hs, call);
                break;
            }
            st = rcce_flag_set(&rcce.ready[left[which]], RCCE_FLAG_UNSET,
                               rcce.ue);
            if (st == iRCCE_SUCCESS && mark && done == 0 &&
                rck_hal_mpb_store32(rcce.hal, rcce_core_of(left[which]),
                                    word1, 0) != RCK_OK)
                st = RCCE_ERROR_TARGET;
            left[which] = left[--nleft];
        }
        done += n;
    }
    rck_hal_set_context(rcce.hal, NULL, -1);
    free(conds);
    free(left);
    return st;
}

static int size_arg(ssize_t size, const char *call)
{
    if (size < 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                          "negative size %zd", size);
    return iRCCE_SUCCESS;
}

int iRCCE_msend(char *privbuf, ssize_t size)
{
    int *to, n = 0, st = ircce_ready("iRCCE_msend", 1);

    if (st == iRCCE_SUCCESS)
        st = size_arg(size, "iRCCE_msend");
    if (st == iRCCE_SUCCESS && privbuf == NULL && size > 0)
        st = RCCE_ERROR_TARGET;
    if (st != iRCCE_SUCCESS || size == 0 || rcce.nues == 1)
        return st;
    to = malloc((size_t)rcce.nues * sizeof(*to));
    if (to == NULL)
        return RCCE_ERROR_MALLOC;
    for (int ue = 0; ue < rcce.nues; ue++)
        if (ue != rcce.ue)
            to[n++] = ue;
    st = msend_to(privbuf, (size_t)size, to, n, "iRCCE_msend");
    free(to);
    return st;
}

int iRCCE_mrecv(char *privbuf, ssize_t size, int root)
{
    int st = ircce_ready("iRCCE_mrecv", 1);

    if (st == iRCCE_SUCCESS)
        st = size_arg(size, "iRCCE_mrecv");
    if (st != iRCCE_SUCCESS)
        return st;
    /* a multicast piece travels like an unframed RCCE message */
    return iRCCE_irecv(privbuf, size, root, NULL);
}

int iRCCE_mcast(char *privbuf, ssize_t size, int root)
{
    int st = ircce_ready("iRCCE_mcast", 1);

    if (st != iRCCE_SUCCESS)
        return st;
    if (root < 0 || root >= rcce.nues)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, "iRCCE_mcast",
                          "root %d", root);
    return root == rcce.ue ? iRCCE_msend(privbuf, size)
                           : iRCCE_mrecv(privbuf, size, root);
}

int iRCCE_bcast(char *privbuf, ssize_t size, int root, RCCE_COMM comm)
{
    int *to, n = 0, st = ircce_ready("iRCCE_bcast", 1);

    if (st == iRCCE_SUCCESS)
        st = size_arg(size, "iRCCE_bcast");
    if (st != iRCCE_SUCCESS)
        return st;
    if (!rcce_comm_valid(&comm))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_COMM_UNDEFINED,
                          "iRCCE_bcast", "invalid communicator");
    if (root < 0 || root >= comm.size)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, "iRCCE_bcast",
                          "root %d is not a rank of the communicator", root);
    if (privbuf == NULL && size > 0)
        return RCCE_ERROR_TARGET;
    if (size == 0 || comm.size == 1)
        return iRCCE_SUCCESS;
    if (comm.my_rank != root)
        return iRCCE_irecv(privbuf, size, rcce_comm_member(&comm, root),
                           NULL);
    to = malloc((size_t)comm.size * sizeof(*to));
    if (to == NULL)
        return RCCE_ERROR_MALLOC;
    for (int r = 0; r < comm.size; r++)
        if (r != root)
            to[n++] = rcce_comm_member(&comm, r);
    rcce.coll++;
    st = msend_to(privbuf, (size_t)size, to, n, "iRCCE_bcast");
    rcce.coll--;
    free(to);
    return st;
}

/*
 * The flags and the member side are RCCE_barrier's, so the two can be
 * mixed on one communicator; the master waits for every gather flag at
 * once (rck_hal_wait on all of them) and clears each as it sees it.
 */
int iRCCE_barrier(RCCE_COMM *comm)
{
    int st = ircce_ready("iRCCE_barrier", 0);

    if (st != iRCCE_SUCCESS)
        return st;
    if (!rcce_comm_valid(comm))
        return rcce_error(RCCE_DEBUG_SYNCH, RCCE_ERROR_COMM_UNDEFINED,
                          "iRCCE_barrier", "invalid communicator");
    if (comm->size == 1)
        return iRCCE_SUCCESS;
    rck_hal_set_context(rcce.hal, "iRCCE_barrier", -1);
    if (comm->my_rank == 0) {
        int nleft = comm->size - 1;
        rck_hal_cond_t *conds = calloc((size_t)nleft, sizeof(*conds));
        int *left = calloc((size_t)nleft, sizeof(*left));

        if (conds == NULL || left == NULL)
            st = RCCE_ERROR_MALLOC;
        for (int i = 0; i < nleft && st == iRCCE_SUCCESS; i++)
            left[i] = rcce_comm_member(comm, i + 1);
        while (nleft > 0 && st == iRCCE_SUCCESS) {
            int which = -1;
            rck_status_t hs;
            for (int i = 0; i < nleft; i++) {
                conds[i].space = RCK_SPACE_MPB;
                conds[i].core = rcce_core_of(left[i]);
                conds[i].offset = rcce_flag_offset(&comm->gather);
                conds[i].mask = rcce_flag_bits(&comm->gather);
                conds[i].value = 0;
                conds[i].op = RCK_COND_NE;
            }
            hs = rck_hal_wait(rcce.hal, conds, nleft, 0, rcce.wait_timeout_ns,
                              &which);
            if (hs != RCK_OK) {
                st = ircce_hal_fail(hs, "iRCCE_barrier");
                break;
            }
            st = rcce_flag_set(&comm->gather, RCCE_FLAG_UNSET, left[which]);
            left[which] = left[--nleft];
        }
        for (int r = 1; r < comm->size && st == iRCCE_SUCCESS; r++)
            st = rcce_flag_set(&comm->release, RCCE_FLAG_SET,
                               rcce_comm_member(comm, r));
        free(conds);
        free(left);
    } else {
        st = rcce_flag_set(&comm->gather, RCCE_FLAG_SET, rcce.ue);
        if (st == iRCCE_SUCCESS)
            st = rcce_flag_wait(&comm->release, RCCE_FLAG_SET, rcce.ue);
        if (st == iRCCE_SUCCESS)
            st = rcce_flag_set(&comm->release, RCCE_FLAG_UNSET, rcce.ue);
    }
    rck_hal_set_context(rcce.hal, NULL, -1);
    return st;
}
