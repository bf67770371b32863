/*
 * One-sided communication, the origin's side (docs/MPI-ONESIDED-IO.md):
 * put, get, the accumulates, compare-and-swap, MPI_Rput/MPI_Rget. Each
 * operation is checked here and goes to its target as one W_REQ message
 * (win_int.h); win.c applies it there.
 */
#include "win_int.h"
#include "rkcoll.h"
#include "rckmpi_greq.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
        err = rk_win_pend(&w->pend, &w->npend, &w->cappend, r, msg);
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

int rk_win_ctl(rk_win_t *w, int t, int kind, int lock_type,
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
/* The datatypes and the operation of an accumulate checked; its basic
 * type in @p basic. */
static int acc_check(rk_win_t *w, int kind, const void *odata,
                     MPI_Datatype otype, const void *res, MPI_Datatype rtype,
                     MPI_Datatype ttype, MPI_Op op, MPI_Datatype *basic,
                     const char *func)
{
    int n, on;

    *basic = rckmpi_type_basic(ttype, &n);
    if (*basic == MPI_DATATYPE_NULL || *basic == MPI_FLOAT_INT ||
        *basic == MPI_DOUBLE_INT || *basic == MPI_LONG_INT ||
        *basic == MPI_2INT || *basic == MPI_SHORT_INT ||
        *basic == MPI_LONG_DOUBLE_INT)
        return rk_err(w->comm, MPI_ERR_TYPE, func,
                      "accumulate needs a target datatype of one "
                      "predefined type (pair types are not implemented)");
    if ((odata != NULL && rckmpi_type_basic(otype, &on) != *basic) ||
        (res != NULL && rckmpi_type_basic(rtype, &on) != *basic))
        return rk_err(w->comm, MPI_ERR_TYPE, func,
                      "origin and target datatypes of different basic "
                      "types");
    if (kind != K_CAS && op != MPI_REPLACE && op != MPI_NO_OP &&
        (op < MPI_MAX || op > MPI_BXOR || rkop_check(op, *basic) != 0))
        return rk_err(w->comm, MPI_ERR_OP, func,
                      "operation %d is not a predefined operation valid for "
                      "the type", op);
    if (kind == K_ACC && op == MPI_NO_OP)
        return rk_err(w->comm, MPI_ERR_OP, func,
                      "MPI_NO_OP is for MPI_Get_accumulate");
    return MPI_SUCCESS;
}

/* Counts and datatypes of the three buffers checked; the target's bytes
 * in @p tbytes. */
static int buf_check(rk_win_t *w, int ocount, MPI_Datatype otype,
                     const void *odata, int rcount, MPI_Datatype rtype,
                     const void *res, int tcount, MPI_Datatype ttype,
                     size_t *tbytes, const char *func)
{
    if (tcount < 0 || ocount < 0 || rcount < 0)
        return rk_err(w->comm, MPI_ERR_COUNT, func, "negative count");
    if (rckmpi_type_check(ttype) != MPI_SUCCESS ||
        (odata != NULL && rckmpi_type_check(otype) != MPI_SUCCESS) ||
        (res != NULL && rckmpi_type_check(rtype) != MPI_SUCCESS))
        return rk_err(w->comm, MPI_ERR_TYPE, func,
                      "invalid or uncommitted datatype");
    *tbytes = rk_type(ttype)->size * (size_t)tcount;
    if (odata != NULL && rk_type(otype)->size * (size_t)ocount != *tbytes)
        return rk_err(w->comm, MPI_ERR_TYPE, func,
                      "the origin has %zu bytes, the target %zu",
                      rk_type(otype)->size * (size_t)ocount, *tbytes);
    if (res != NULL && rk_type(rtype)->size * (size_t)rcount != *tbytes)
        return rk_err(w->comm, MPI_ERR_TYPE, func,
                      "the result buffer has %zu bytes, the target %zu",
                      rk_type(rtype)->size * (size_t)rcount, *tbytes);
    return MPI_SUCCESS;
}

/* Put or get on a target whose window is in shared DRAM: a copy through
 * the HAL, complete when it returns. */
static int direct(rk_win_t *w, int kind, const void *odata, int ocount,
                  const rk_type_t *ot, void *res, int rcount,
                  MPI_Datatype rtype, int t, MPI_Aint disp,
                  const rk_type_t *tt, int tcount, w_note_t *note,
                  const char *func)
{
    int err = kind == K_PUT
                  ? rk_win_shm_put(w, t, odata, ocount, ot, disp, tt, tcount)
                  : rk_win_shm_get(w, t, res, rcount, rk_type(rtype), disp,
                                   tt, tcount);

    if (err != MPI_SUCCESS)
        return rk_err(w->comm, err, func,
                      "copying %s rank %d's window in shared DRAM failed",
                      kind == K_PUT ? "into" : "out of", t);
    if (note != NULL)
        note->done = 1;
    return MPI_SUCCESS;
}

/* the target region [tdisp, +tcount items of tt) inside rank t's window
 * (a dynamic window's displacement is an address: not checked here) */
static int range_check(const rk_win_t *w, const rk_type_t *tt, int t,
                       MPI_Aint tdisp, int tcount, size_t tbytes,
                       const char *func)
{
    long long lo, hi;

    if (tcount <= 0 || tbytes == 0 || w->flavor == MPI_WIN_FLAVOR_DYNAMIC)
        return MPI_SUCCESS;
    lo = (long long)tdisp * w->runit[t] + tt->true_lb;
    hi = (long long)tdisp * w->runit[t] + (long long)(tcount - 1) * tt->extent +
         tt->true_ub;
    if (lo < 0 || hi > (long long)w->rbytes[t])
        return rk_err(w->comm, MPI_ERR_RMA_RANGE, func,
                      "bytes %lld..%lld of rank %d's window of %ld", lo, hi, t,
                      (long)w->rbytes[t]);
    return MPI_SUCCESS;
}

/* the request's block table after its header @p h: one block for a
 * contiguous target type (of every byte when h->tcount is 1), else the
 * type's blocks */
static void put_blocks(w_blk_t *b, const w_hdr_t *h, const rk_type_t *tt,
                       size_t tbytes)
{
    if (tt->contig) {
        b[0].off = 0;
        b[0].len = h->tcount == 1 ? (int64_t)tbytes : (int64_t)tt->size;
        return;
    }
    for (int k = 0; k < (int)h->nblocks; k++) {
        b[k].off = tt->blocks[k].off;
        b[k].len = (int64_t)tt->blocks[k].len;
    }
}

/* keep @p rr pending on the window; a request's note (*note, if any)
 * waits for it too, and is taken: *note becomes NULL */
static int pend_noted(rk_win_t *w, MPI_Request rr, w_note_t **note)
{
    int err = rk_win_pend(&w->pend, &w->npend, &w->cappend, rr, NULL);

    if (err == MPI_SUCCESS && *note != NULL) {
        w->pend[w->npend - 1].note = *note;
        (*note)->refs++;
        *note = NULL;
    }
    return err;
}

static int rma_op(int kind, const void *odata, int ocount, MPI_Datatype otype,
                  const void *cmp, void *res, int rcount, MPI_Datatype rtype,
                  int t, MPI_Aint tdisp, int tcount, MPI_Datatype ttype,
                  MPI_Op op, MPI_Win win, w_note_t *note, const char *func)
{
    rk_win_t *w;
    const rk_type_t *tt, *ot = NULL;
    int err = rk_win_arg(win, &w, func), nb, split;
    size_t tbytes = 0, len;
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
    err = buf_check(w, ocount, otype, odata, rcount, rtype, res, tcount,
                    ttype, &tbytes, func);
    if (err == MPI_SUCCESS && (kind == K_ACC || kind == K_GACC ||
                               kind == K_CAS))
        err = acc_check(w, kind, odata, otype, res, rtype, ttype, op, &basic,
                        func);
    if (err != MPI_SUCCESS)
        return err;
    tt = rk_type(ttype);
    if (odata != NULL)
        ot = rk_type(otype);
    err = range_check(w, tt, t, tdisp, tcount, tbytes, func);
    if (err != MPI_SUCCESS)
        return err;
    if ((kind == K_PUT || kind == K_GET) && w->roff[t] >= 0)
        return direct(w, kind, odata, ocount, ot, res, rcount, rtype, t,
                      (MPI_Aint)tdisp * w->runit[t], tt, tcount, note, func);
    nb = tt->contig ? 1 : tt->nblocks;
    split = kind == K_PUT && tbytes >= W_SPLIT_BYTES;
    len = sizeof h + (size_t)nb * sizeof(w_blk_t) +
          (odata != NULL && !split ? tbytes : 0) +
          (cmp != NULL ? tbytes : 0);
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
    if (tt->contig && tcount > 1) {
        /* a contiguous target region: one block of every byte, so that
         * the target copies it at once, not item by item */
        h.tcount = 1;
        h.textent = (int64_t)tbytes;
    }
    h.bytes = (int64_t)tbytes;
    h.split = split;
    if (res != NULL) {
        w->reply_seq = (w->reply_seq + 1) % (RK_TAG_UB - W_REPLY);
        h.reply_tag = W_REPLY + w->reply_seq;
    }
    memcpy(msg, &h, sizeof h);
    put_blocks((w_blk_t *)(msg + sizeof h), &h, tt, tbytes);
    if (odata != NULL && !split)
        rk_pack(odata, ocount, ot, msg + sizeof h + (size_t)nb * sizeof(w_blk_t));
    if (cmp != NULL)
        rk_pack(cmp, ocount, ot,
                msg + sizeof h + (size_t)nb * sizeof(w_blk_t) + tbytes);
    if (res != NULL) {
        /* the reply goes straight into the result buffer */
        err = PMPI_Irecv(res, rcount, rtype, t, h.reply_tag, w->comm, &rr);
        if (err == MPI_SUCCESS) /* MPI_Rget: done when the data are here */
            err = pend_noted(w, rr, &note);
        if (err != MPI_SUCCESS) {
            free(msg);
            return rk_err(w->comm, err, func, "cannot receive from rank %d",
                          t);
        }
    }
    if (split) {
        /* the data straight from the origin buffer, sent before the
         * header: the channel keeps one sender's messages in order, so
         * the target, which receives them when it applies the header,
         * finds them under way and never waits for a send the origin has
         * not made yet (both sides may be serving each other inside
         * their own MPI calls); complete at the next synchronisation, as
         * the origin buffer may not change before */
        err = PMPI_Isend(odata, ocount, otype, t, W_DATA, w->comm, &rr);
        if (err == MPI_SUCCESS)
            err = pend_noted(w, rr, &note);
        if (err != MPI_SUCCESS) {
            free(msg);
            return rk_err(w->comm, err, func, "cannot send to rank %d", t);
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
    RK_MPI_GUARD;
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
    RK_MPI_GUARD;
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
    RK_MPI_GUARD;
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
    RK_MPI_GUARD;
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
    RK_MPI_GUARD;
    return rma_op(K_GACC, op == MPI_NO_OP ? NULL : origin_addr, 1, datatype,
                  NULL, result_addr, 1, datatype, target_rank, target_disp,
                  1, datatype, op, win, NULL, "MPI_Fetch_and_op");
}
RK_MPI_ALIAS(Fetch_and_op);

int PMPI_Compare_and_swap(const void *origin_addr, const void *compare_addr,
                          void *result_addr, MPI_Datatype datatype,
                          int target_rank, MPI_Aint target_disp, MPI_Win win)
{
    RK_MPI_GUARD;
    if (origin_addr == NULL || compare_addr == NULL || result_addr == NULL) {
        rk_win_t *w;
        int err = rk_win_arg(win, &w, "MPI_Compare_and_swap");
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
    rk_win_t *w = rk_win_of(n->win);

    if (!n->done && w != NULL)
        rk_win_reap(w->pend, &w->npend);
    *done = n->done;
    return MPI_SUCCESS;
}

static void note_release(void *state)
{
    w_note_t *n = state;

    if (--n->refs == 0)
        free(n);
}

/* rma_op with a request: done when the origin buffer may be reused
 * (puts, accumulates) or the result is there (gets) */
static int rma_req(int kind, const void *odata, int ocount,
                   MPI_Datatype otype, void *res, int rcount,
                   MPI_Datatype rtype, int t, MPI_Aint tdisp, int tcount,
                   MPI_Datatype ttype, MPI_Op op, MPI_Win win,
                   MPI_Request *request, const char *func)
{
    rk_win_t *w;
    w_note_t *n;
    int err = rk_win_arg(win, &w, func);

    if (err != MPI_SUCCESS)
        return err;
    if (request == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, func, "request is NULL");
    n = calloc(1, sizeof *n);
    if (n == NULL)
        return rk_err(w->comm, MPI_ERR_NO_MEM, func, "no memory");
    n->refs = 1;
    n->win = win;
    err = rma_op(kind, odata, ocount, otype, NULL, res, rcount, rtype, t,
                 tdisp, tcount, ttype, op, win, n, func);
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
    RK_MPI_GUARD;
    return rma_req(K_PUT, origin_addr, origin_count, origin_datatype, NULL,
                   0, MPI_DATATYPE_NULL, target_rank, target_disp,
                   target_count, target_datatype, MPI_REPLACE, win, request,
                   "MPI_Rput");
}
RK_MPI_ALIAS(Rput);

int PMPI_Rget(void *origin_addr, int origin_count,
              MPI_Datatype origin_datatype, int target_rank,
              MPI_Aint target_disp, int target_count,
              MPI_Datatype target_datatype, MPI_Win win,
              MPI_Request *request)
{
    RK_MPI_GUARD;
    return rma_req(K_GET, NULL, 0, MPI_DATATYPE_NULL, origin_addr,
                   origin_count, origin_datatype, target_rank, target_disp,
                   target_count, target_datatype, MPI_NO_OP, win, request,
                   "MPI_Rget");
}
RK_MPI_ALIAS(Rget);

int PMPI_Raccumulate(const void *origin_addr, int origin_count,
                     MPI_Datatype origin_datatype, int target_rank,
                     MPI_Aint target_disp, int target_count,
                     MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                     MPI_Request *request)
{
    RK_MPI_GUARD;
    return rma_req(K_ACC, origin_addr, origin_count, origin_datatype, NULL,
                   0, MPI_DATATYPE_NULL, target_rank, target_disp,
                   target_count, target_datatype, op, win, request,
                   "MPI_Raccumulate");
}
RK_MPI_ALIAS(Raccumulate);

int PMPI_Rget_accumulate(const void *origin_addr, int origin_count,
                         MPI_Datatype origin_datatype, void *result_addr,
                         int result_count, MPI_Datatype result_datatype,
                         int target_rank, MPI_Aint target_disp,
                         int target_count, MPI_Datatype target_datatype,
                         MPI_Op op, MPI_Win win, MPI_Request *request)
{
    RK_MPI_GUARD;
    return rma_req(K_GACC, op == MPI_NO_OP ? NULL : origin_addr,
                   origin_count, origin_datatype, result_addr, result_count,
                   result_datatype, target_rank, target_disp, target_count,
                   target_datatype, op, win, request, "MPI_Rget_accumulate");
}
RK_MPI_ALIAS(Rget_accumulate);

