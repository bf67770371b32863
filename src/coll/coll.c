/*
 * RCCE_comm collectives over iRCCE: scatter and gather on binomial trees,
 * allgather on a ring, alltoall by pairwise exchange, reduce_scatter as a
 * reduce and a scatter; faster bcast/reduce/allreduce whose results are
 * byte-identical to RCCE's (see include/RCCE_comm.h for why INT/LONG and
 * FLOAT/DOUBLE take different algorithms).
 *
 * Ranks are communicator ranks; rcce_comm_member() gives the UE. Trees are
 * built on the rank relative to the root, vr = (rank - root) mod n.
 */
#include "RCCE_comm.h"
#include "iRCCE.h"
#include "rcce_internal.h"

#include <stdlib.h>
#include <string.h>

/* Bytes per segment of the pipelined chain: about a rank's share of the
 * vector, within these bounds (short segments fill the pipeline of a long
 * chain sooner; long ones pay fewer flag round trips). */
#define RCK_COLL_SEGMENT_MIN 512
#define RCK_COLL_SEGMENT_MAX 4096

/* ---- arguments ---- */

static int comm_args(const char *call, const RCCE_COMM *comm)
{
    if (!rcce_ready(call))
        return RCCE_ERROR_COMM_UNDEFINED;
    if (rcce.shape & RCK_RCCE_SHAPE_GORY)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_OP, call,
                          "collectives need the library's buffers, which "
                          "the gory shape does not reserve");
    if (!rcce_comm_valid(comm))
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_COMM_UNDEFINED, call,
                          "invalid communicator");
    return RCCE_SUCCESS;
}

static int root_arg(const char *call, const RCCE_COMM *comm, int root)
{
    if (root < 0 || root >= comm->size)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ID, call,
                          "root %d is not a rank of the communicator", root);
    return RCCE_SUCCESS;
}

static int buf_arg(const char *call, const void *buf, size_t bytes, int code)
{
    if (buf == NULL && bytes > 0)
        return rcce_error(RCCE_DEBUG_COMM, code, call, "NULL buffer");
    return RCCE_SUCCESS;
}

static int op_type_args(const char *call, int type, int op)
{
    if (rcce_type_size(type) == 0)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_TYPE, call,
                          "unknown type %d", type);
    if (op != RCCE_SUM && op != RCCE_MIN && op != RCCE_MAX && op != RCCE_PROD)
        return rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_ILLEGAL_OP, call,
                          "unknown operator %d", op);
    return RCCE_SUCCESS;
}

/* ---- transport ---- */

/* In a collective: named for deadlock reports, and its messages (sent
 * and received through iRCCE) counted as RCCE's (docs/MONITORING.md). */
static int coll_as = -1;

static void coll_enter(const char *call)
{
    rck_hal_set_context(rcce.hal, call, -1);
    coll_as = rck_hal_comm_as(rcce.hal, rck__rcce_lib);
}

static void coll_leave(void)
{
    rck_hal_comm_as(rcce.hal, coll_as);
    coll_as = -1;
    rck_hal_set_context(rcce.hal, NULL, -1);
}

static int code(int st)
{
    /* an iRCCE wait that failed is RCCE's failed wait */
    return st == iRCCE_ERROR ? RCCE_ERROR_TARGET : st;
}

/* iRCCE_isend of a collective's message: marked so that any-source
 * receives pass it by (see src/ircce/ircce_internal.h). */
static int coll_isend(const char *buf, size_t n, int ue,
                      iRCCE_SEND_REQUEST *req)
{
    int st;

    rcce.coll++;
    st = iRCCE_isend((char *)buf, (ssize_t)n, ue, req);
    rcce.coll--;
    return st;
}

static int send_to(const RCCE_COMM *c, int rank, const char *buf, size_t n)
{
    if (n == 0)
        return RCCE_SUCCESS;
    return code(coll_isend(buf, n, rcce_comm_member(c, rank), NULL));
}

static int recv_from(const RCCE_COMM *c, int rank, char *buf, size_t n)
{
    if (n == 0)
        return RCCE_SUCCESS;
    return code(iRCCE_irecv(buf, (ssize_t)n, rcce_comm_member(c, rank),
                            NULL));
}

/* Send to one rank and receive from another (or the same) at once. */
static int exchange(const RCCE_COMM *c, int to, const char *sbuf, size_t sn,
                    int from, char *rbuf, size_t rn)
{
    iRCCE_SEND_REQUEST sreq;
    iRCCE_RECV_REQUEST rreq;
    int st = RCCE_SUCCESS, sposted = 0, rposted = 0;

    memset(&sreq, 0, sizeof(sreq));
    memset(&rreq, 0, sizeof(rreq));
    if (sn > 0) {
        st = coll_isend(sbuf, sn, rcce_comm_member(c, to), &sreq);
        sposted = st == iRCCE_SUCCESS || st == iRCCE_PENDING ||
                  st == iRCCE_RESERVED;
        if (!sposted)
            return code(st);
    }
    if (rn > 0) {
        st = iRCCE_irecv(rbuf, (ssize_t)rn, rcce_comm_member(c, from), &rreq);
        rposted = st == iRCCE_SUCCESS || st == iRCCE_PENDING ||
                  st == iRCCE_RESERVED;
        if (!rposted)
            st = code(st);
    }
    if (rposted)
        st = code(iRCCE_irecv_wait(&rreq));
    if (sposted) {
        int s2 = code(iRCCE_isend_wait(&sreq));
        if (st == RCCE_SUCCESS)
            st = s2;
    }
    return st;
}

/* ---- combining ---- */

/* Whether every order of combination gives the same result. */
static int exact_type(int type)
{
    return type == RCCE_INT || type == RCCE_LONG;
}

/* From this many bytes on, the pipelined chain beats the trees for exact
 * types too (on sim at 48 UEs, a 64 KiB allreduce: chain and multicast
 * 1.6 ms, recursive doubling 3.1 ms; at 4 KiB the doubling wins). */
#define RCK_COLL_CHAIN_MIN 16384

static int use_tree(int type, size_t bytes)
{
    return exact_type(type) && bytes < RCK_COLL_CHAIN_MIN;
}

/* ---- bcast ---- */

static int bcast_tree(char *buf, size_t num, int root, const RCCE_COMM *c)
{
    int n = c->size, vr = (c->my_rank - root + n) % n, mask = 1;
    int st = RCCE_SUCCESS;

    while (mask < n) {
        if (vr & mask) {
            st = recv_from(c, (vr - mask + root) % n, buf, num);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0 && st == RCCE_SUCCESS; mask >>= 1)
        if (vr + mask < n)
            st = send_to(c, (vr + mask + root) % n, buf, num);
    return st;
}

/* Small messages go down a binomial tree; larger ones are multicast
 * through the root's MPB (each piece written once, read by every member:
 * on sim at 48 UEs 2.6x faster than the tree at 4 KiB, 3.7x at 64 KiB). */
#define RCK_COLL_MCAST_MIN 256

static int bcast_impl(char *buf, size_t num, int root, const RCCE_COMM *c)
{
    if (num < RCK_COLL_MCAST_MIN)
        return bcast_tree(buf, num, root, c);
    return code(iRCCE_bcast(buf, (ssize_t)num, root, *c));
}

int RCCE_comm_bcast(char *buf, size_t num, int root, RCCE_COMM comm)
{
    int st = comm_args("RCCE_comm_bcast", &comm);

    if (st == RCCE_SUCCESS)
        st = root_arg("RCCE_comm_bcast", &comm, root);
    if (st == RCCE_SUCCESS)
        st = buf_arg("RCCE_comm_bcast", buf, num, RCCE_ERROR_TARGET);
    if (st != RCCE_SUCCESS || comm.size == 1 || num == 0)
        return st;
    coll_enter("RCCE_comm_bcast");
    st = bcast_impl(buf, num, root, &comm);
    coll_leave();
    return st;
}

/* ---- reduce ---- */

/* Binomial tree toward @p root (exact types only): the result lands in
 * @p out at the root. */
static int reduce_tree(const char *in, char *out, size_t num, int type,
                       int op, int root, const RCCE_COMM *c)
{
    int n = c->size, vr = (c->my_rank - root + n) % n, mask = 1;
    size_t bytes = num * rcce_type_size(type);
    char *acc = malloc(bytes ? bytes : 1), *tmp = malloc(bytes ? bytes : 1);
    int st = RCCE_SUCCESS;

    if (acc == NULL || tmp == NULL) {
        free(acc);
        free(tmp);
        return RCCE_ERROR_MALLOC;
    }
    memcpy(acc, in, bytes);
    for (; mask < n && st == RCCE_SUCCESS; mask <<= 1) {
        if (vr & mask) {
            st = send_to(c, (vr - mask + root) % n, acc, bytes);
            break;
        }
        if (vr + mask < n) {
            st = recv_from(c, (vr + mask + root) % n, tmp, bytes);
            if (st == RCCE_SUCCESS)
                rcce_combine(acc, tmp, num, type, op);
        }
    }
    if (st == RCCE_SUCCESS && vr == 0)
        memcpy(out, acc, bytes);
    free(acc);
    free(tmp);
    return st;
}

/*
 * A pipelined chain in rank order: rank r receives the partial result of
 * ranks 0..r-1 segment by segment, combines its own values on the right
 * and passes it on, so every element is combined exactly as RCCE_reduce
 * does. The result lands at rank n-1 (in @p out there; @p out is not used
 * elsewhere). Two segment buffers: one is forwarded while the next
 * arrives.
 */
static int reduce_chain(const char *in, char *out, size_t num, int type,
                        int op, const RCCE_COMM *c)
{
    size_t esz = rcce_type_size(type);
    size_t want = num * esz / (size_t)c->size, seg;
    if (want < RCK_COLL_SEGMENT_MIN)
        want = RCK_COLL_SEGMENT_MIN;
    if (want > RCK_COLL_SEGMENT_MAX)
        want = RCK_COLL_SEGMENT_MAX;
    seg = want / esz > 0 ? want / esz : 1;
    int r = c->my_rank, n = c->size, st = RCCE_SUCCESS;
    int next = r + 1 < n ? rcce_comm_member(c, r + 1) : -1;
    int prev = r > 0 ? rcce_comm_member(c, r - 1) : -1;
    iRCCE_SEND_REQUEST sreq[2];
    int spending[2] = {0, 0};
    char *buf[2] = {NULL, NULL};
    size_t k = 0;

    memset(sreq, 0, sizeof(sreq));
    if (r > 0) {
        buf[0] = malloc(seg * esz);
        buf[1] = malloc(seg * esz);
        if (buf[0] == NULL || buf[1] == NULL) {
            free(buf[0]);
            free(buf[1]);
            return RCCE_ERROR_MALLOC;
        }
    }
    for (size_t first = 0; first < num && st == RCCE_SUCCESS;
         first += seg, k++) {
        size_t cnt = num - first < seg ? num - first : seg;
        size_t off = first * esz, bytes = cnt * esz;
        int b = (int)(k % 2);
        char *part;

        if (spending[b]) {
            st = code(iRCCE_isend_wait(&sreq[b]));
            spending[b] = 0;
            if (st != RCCE_SUCCESS)
                break;
        }
        if (r == 0) {
            part = (char *)in + off;
        } else {
            part = buf[b];
            st = code(iRCCE_irecv(part, (ssize_t)bytes, prev, NULL));
            if (st != RCCE_SUCCESS)
                break;
            rcce_combine(part, in + off, cnt, type, op);
            /* after the combine, so that in == out works */
            if (r == n - 1)
                memcpy(out + off, part, bytes);
        }
        if (next >= 0) {
            st = coll_isend(part, (size_t)bytes, next, &sreq[b]);
            spending[b] = st == iRCCE_PENDING || st == iRCCE_RESERVED;
            st = spending[b] || st == iRCCE_SUCCESS ? RCCE_SUCCESS : code(st);
        }
    }
    for (int b = 0; b < 2; b++) {
        if (spending[b]) {
            int s2 = code(iRCCE_isend_wait(&sreq[b]));
            if (st == RCCE_SUCCESS)
                st = s2;
        }
    }
    free(buf[0]);
    free(buf[1]);
    return st;
}

static int reduce_args(const char *call, const char *in, const char *out,
                       int num, int type, int op, int root,
                       const RCCE_COMM *comm, int out_everywhere)
{
    int st = comm_args(call, comm);

    if (st == RCCE_SUCCESS && num < 0)
        st = rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH, call,
                        "negative count %d", num);
    if (st == RCCE_SUCCESS)
        st = op_type_args(call, type, op);
    if (st == RCCE_SUCCESS)
        st = root_arg(call, comm, root);
    if (st == RCCE_SUCCESS)
        st = buf_arg(call, in, (size_t)num, RCCE_ERROR_SOURCE);
    if (st == RCCE_SUCCESS && (out_everywhere || comm->my_rank == root))
        st = buf_arg(call, out, (size_t)num, RCCE_ERROR_TARGET);
    return st;
}

/* Reduce to @p root; @p out is needed at the root only. */
static int reduce_impl(const char *in, char *out, size_t num, int type,
                       int op, int root, const RCCE_COMM *c)
{
    size_t bytes = num * rcce_type_size(type);
    char *res;
    int st, last = c->size - 1;

    if (c->size == 1) {
        memmove(out, in, bytes);
        return RCCE_SUCCESS;
    }
    if (use_tree(type, bytes))
        return reduce_tree(in, out, num, type, op, root, c);
    if (c->my_rank != last) {
        /* the chain ends at the last rank, which forwards to the root */
        st = reduce_chain(in, NULL, num, type, op, c);
        if (st == RCCE_SUCCESS && c->my_rank == root)
            st = recv_from(c, last, out, bytes);
        return st;
    }
    if (root == last)
        return reduce_chain(in, out, num, type, op, c);
    res = malloc(bytes ? bytes : 1);
    if (res == NULL)
        return RCCE_ERROR_MALLOC;
    st = reduce_chain(in, res, num, type, op, c);
    if (st == RCCE_SUCCESS)
        st = send_to(c, root, res, bytes);
    free(res);
    return st;
}

int RCCE_comm_reduce(char *in, char *out, int num, int type, int op,
                     int root, RCCE_COMM comm)
{
    int st = reduce_args("RCCE_comm_reduce", in, out, num, type, op, root,
                         &comm, 0);

    if (st != RCCE_SUCCESS)
        return st;
    coll_enter("RCCE_comm_reduce");
    st = reduce_impl(in, out, (size_t)num, type, op, root, &comm);
    coll_leave();
    return st;
}

/* ---- allreduce ---- */

/* Recursive doubling (exact types): the ranks past the largest power of
 * two p2 first fold into a partner and get the result back at the end. */
static int allreduce_rd(const char *in, char *out, size_t num, int type,
                        int op, const RCCE_COMM *c)
{
    size_t bytes = num * rcce_type_size(type);
    int n = c->size, r = c->my_rank, p2 = 1, rem, vr;
    char *tmp = malloc(bytes ? bytes : 1);
    int st = RCCE_SUCCESS;

    if (tmp == NULL)
        return RCCE_ERROR_MALLOC;
    memmove(out, in, bytes);
    while (p2 * 2 <= n)
        p2 *= 2;
    rem = n - p2;
    if (r < 2 * rem) {
        if (r % 2 == 0) {
            st = send_to(c, r + 1, out, bytes);
            vr = -1;
        } else {
            st = recv_from(c, r - 1, tmp, bytes);
            if (st == RCCE_SUCCESS)
                rcce_combine(out, tmp, num, type, op);
            vr = r / 2;
        }
    } else {
        vr = r - rem;
    }
    for (int mask = 1; vr >= 0 && mask < p2 && st == RCCE_SUCCESS;
         mask <<= 1) {
        int pv = vr ^ mask, partner = pv < rem ? pv * 2 + 1 : pv + rem;
        st = exchange(c, partner, out, bytes, partner, tmp, bytes);
        if (st == RCCE_SUCCESS)
            rcce_combine(out, tmp, num, type, op);
    }
    if (st == RCCE_SUCCESS && r < 2 * rem) {
        if (r % 2 == 1)
            st = send_to(c, r - 1, out, bytes);
        else
            st = recv_from(c, r + 1, out, bytes);
    }
    free(tmp);
    return st;
}

int RCCE_comm_allreduce(char *in, char *out, int num, int type, int op,
                        RCCE_COMM comm)
{
    int st = reduce_args("RCCE_comm_allreduce", in, out, num, type, op, 0,
                         &comm, 1);
    size_t bytes;

    if (st != RCCE_SUCCESS)
        return st;
    bytes = (size_t)num * rcce_type_size(type);
    if (comm.size == 1) {
        memmove(out, in, bytes);
        return RCCE_SUCCESS;
    }
    coll_enter("RCCE_comm_allreduce");
    if (use_tree(type, bytes)) {
        st = allreduce_rd(in, out, (size_t)num, type, op, &comm);
    } else {
        /* every rank but the last only forwards; the last holds the
         * result in out and broadcasts it */
        st = reduce_chain(in, out, (size_t)num, type, op, &comm);
        if (st == RCCE_SUCCESS)
            st = bcast_impl(out, bytes, comm.size - 1, &comm);
    }
    coll_leave();
    return st;
}

/* ---- scatter / gather ---- */

static int block_args(const char *call, const RCCE_COMM *comm, int root,
                      const void *in, size_t in_bytes, const void *out,
                      size_t out_bytes)
{
    int st = comm_args(call, comm);

    if (st == RCCE_SUCCESS)
        st = root_arg(call, comm, root);
    if (st == RCCE_SUCCESS)
        st = buf_arg(call, in, in_bytes, RCCE_ERROR_SOURCE);
    if (st == RCCE_SUCCESS)
        st = buf_arg(call, out, out_bytes, RCCE_ERROR_TARGET);
    return st;
}

int RCCE_scatter(char *in, char *out, size_t num, int root, RCCE_COMM comm)
{
    int n = comm.size, vr, mask = 1, st;
    size_t have = 1;
    char *tmp = NULL;
    int st0 = block_args("RCCE_scatter", &comm, root, in,
                         comm.my_rank == root ? num : 0, out, num);

    if (st0 != RCCE_SUCCESS || num == 0)
        return st0;
    if (n == 1) {
        memmove(out, in, num);
        return RCCE_SUCCESS;
    }
    vr = (comm.my_rank - root + n) % n;
    coll_enter("RCCE_scatter");
    st = RCCE_SUCCESS;
    if (vr == 0) {
        /* the blocks in order of relative rank */
        tmp = malloc((size_t)n * num);
        if (tmp == NULL) {
            st = RCCE_ERROR_MALLOC;
            goto out;
        }
        for (int v = 0; v < n; v++)
            memcpy(tmp + (size_t)v * num, in + (size_t)((v + root) % n) * num,
                   num);
        mask = 1;
        while (mask < n)
            mask <<= 1;
        have = (size_t)n;
    } else {
        while (mask < n && !(vr & mask))
            mask <<= 1;
        have = (size_t)(mask < n - vr ? mask : n - vr);
        /* a leaf receives its block directly */
        tmp = have == 1 ? out : malloc(have * num);
        if (tmp == NULL) {
            st = RCCE_ERROR_MALLOC;
            goto out;
        }
        st = recv_from(&comm, (vr - mask + root) % n, tmp, have * num);
    }
    for (mask >>= 1; mask > 0 && st == RCCE_SUCCESS; mask >>= 1) {
        if (vr + mask < n) {
            size_t cnt = (size_t)(mask < n - vr - mask ? mask
                                                       : n - vr - mask);
            st = send_to(&comm, (vr + mask + root) % n,
                         tmp + (size_t)mask * num, cnt * num);
        }
    }
    if (st == RCCE_SUCCESS && tmp != out)
        memmove(out, tmp, num);
out:
    if (tmp != out)
        free(tmp);
    coll_leave();
    return st;
}

int RCCE_gather(char *in, char *out, size_t num, int root, RCCE_COMM comm)
{
    int n = comm.size, vr, mask, st = RCCE_SUCCESS;
    size_t cap;
    char *tmp;
    int st0 = block_args("RCCE_gather", &comm, root, in, num, out,
                         comm.my_rank == root ? num : 0);

    if (st0 != RCCE_SUCCESS || num == 0)
        return st0;
    if (n == 1) {
        memmove(out, in, num);
        return RCCE_SUCCESS;
    }
    vr = (comm.my_rank - root + n) % n;
    /* blocks of my subtree, from relative rank vr on */
    for (mask = 1; mask < n && !(vr & mask); mask <<= 1)
        ;
    cap = (size_t)(vr == 0 ? n : (mask < n - vr ? mask : n - vr));
    tmp = cap == 1 ? in : malloc(cap * num);
    if (tmp == NULL)
        return RCCE_ERROR_MALLOC;
    coll_enter("RCCE_gather");
    if (tmp != in)
        memcpy(tmp, in, num);
    for (mask = 1; mask < n && st == RCCE_SUCCESS; mask <<= 1) {
        if (vr & mask) {
            st = send_to(&comm, (vr - mask + root) % n, tmp,
                         (size_t)(mask < n - vr ? mask : n - vr) * num);
            break;
        }
        if (vr + mask < n) {
            size_t cnt = (size_t)(mask < n - vr - mask ? mask
                                                       : n - vr - mask);
            st = recv_from(&comm, (vr + mask + root) % n,
                           tmp + (size_t)mask * num, cnt * num);
        }
    }
    if (st == RCCE_SUCCESS && vr == 0)
        for (int v = 0; v < n; v++)
            memcpy(out + (size_t)((v + root) % n) * num,
                   tmp + (size_t)v * num, num);
    if (tmp != in)
        free(tmp);
    coll_leave();
    return st;
}

/* ---- allgather / alltoall ---- */

int RCCE_allgather(char *in, char *out, size_t num, RCCE_COMM comm)
{
    int n = comm.size, r = comm.my_rank, st;

    st = block_args("RCCE_allgather", &comm, 0, in, num, out, num);
    if (st != RCCE_SUCCESS || num == 0)
        return st;
    memmove(out + (size_t)r * num, in, num);
    coll_enter("RCCE_allgather");
    /* ring: step s passes block r-s to the right, takes r-s-1 from the
     * left */
    for (int s = 0; s < n - 1 && st == RCCE_SUCCESS; s++) {
        int sb = ((r - s) % n + n) % n, rb = ((r - s - 1) % n + n) % n;
        st = exchange(&comm, (r + 1) % n, out + (size_t)sb * num, num,
                      (r - 1 + n) % n, out + (size_t)rb * num, num);
    }
    coll_leave();
    return st;
}

int RCCE_alltoall(char *in, char *out, size_t num, RCCE_COMM comm)
{
    int n = comm.size, r = comm.my_rank, st;

    st = block_args("RCCE_alltoall", &comm, 0, in, num * (size_t)n, out,
                    num * (size_t)n);
    if (st != RCCE_SUCCESS || num == 0)
        return st;
    memmove(out + (size_t)r * num, in + (size_t)r * num, num);
    coll_enter("RCCE_alltoall");
    for (int k = 1; k < n && st == RCCE_SUCCESS; k++) {
        int to = (r + k) % n, from = (r - k + n) % n;
        st = exchange(&comm, to, in + (size_t)to * num, num, from,
                      out + (size_t)from * num, num);
    }
    coll_leave();
    return st;
}

/* ---- reduce_scatter ---- */

int RCCE_reduce_scatter(char *in, char *out, int *counts, int type, int op,
                        RCCE_COMM comm)
{
    int n = comm.size, r = comm.my_rank, root, st;
    size_t total = 0, esz;
    char *res = NULL;

    st = comm_args("RCCE_reduce_scatter", &comm);
    if (st == RCCE_SUCCESS && counts == NULL)
        st = rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_VAL_UNDEFINED,
                        "RCCE_reduce_scatter", "counts is NULL");
    if (st == RCCE_SUCCESS)
        st = op_type_args("RCCE_reduce_scatter", type, op);
    for (int i = 0; i < n && st == RCCE_SUCCESS; i++) {
        if (counts[i] < 0)
            st = rcce_error(RCCE_DEBUG_COMM, RCCE_ERROR_MESSAGE_LENGTH,
                            "RCCE_reduce_scatter", "counts[%d] = %d", i,
                            counts[i]);
        total += (size_t)counts[i];
    }
    if (st != RCCE_SUCCESS)
        return st;
    esz = rcce_type_size(type);
    st = buf_arg("RCCE_reduce_scatter", in, total, RCCE_ERROR_SOURCE);
    if (st == RCCE_SUCCESS)
        st = buf_arg("RCCE_reduce_scatter", out, (size_t)counts[r],
                     RCCE_ERROR_TARGET);
    if (st != RCCE_SUCCESS || total == 0)
        return st;
    /* the root is where each algorithm's result lands without a hop */
    root = use_tree(type, total * esz) ? 0 : n - 1;
    coll_enter("RCCE_reduce_scatter");
    if (r == root) {
        res = malloc(total * esz);
        if (res == NULL) {
            st = RCCE_ERROR_MALLOC;
            goto out;
        }
    }
    st = reduce_impl(in, res, total, type, op, root, &comm);
    if (st != RCCE_SUCCESS)
        goto out;
    if (r == root) {
        size_t off = 0;
        for (int i = 0; i < n && st == RCCE_SUCCESS; i++) {
            size_t b = (size_t)counts[i] * esz;
            if (i == r)
                memcpy(out, res + off, b);
            else
                st = send_to(&comm, i, res + off, b);
            off += b;
        }
    } else {
        st = recv_from(&comm, root, out, (size_t)counts[r] * esz);
    }
out:
    free(res);
    coll_leave();
    return st;
}
