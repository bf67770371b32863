/*
 * One-sided communication, synchronisation (docs/MPI-ONESIDED-IO.md):
 * fence, post-start-complete-wait, locks, flushes.
 */
#include "win_int.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* ---- synchronisation ---- */

static long long *fence_expect;

static int fence_done(rk_win_t *w)
{
    rk_win_origin_done(w);
    return w->npend == 0 && w->applied >= *fence_expect;
}

int PMPI_Win_fence(int assert, MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_fence");
    long long expect = 0;

    if (err != MPI_SUCCESS)
        return err;
    if (assert & ~(MPI_MODE_NOSTORE | MPI_MODE_NOPUT | MPI_MODE_NOPRECEDE |
                   MPI_MODE_NOSUCCEED))
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_fence",
                      "assertion %#x", (unsigned)assert);
    if (w->nlocked > 0 || w->lock_all || w->started || w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_fence",
                      "a lock or post/start epoch is open on the window");
    /* how many operations every origin ever sent me */
    err = PMPI_Reduce_scatter_block(w->issued, &expect, 1, MPI_LONG_LONG,
                                    MPI_SUM, w->comm);
    if (err != MPI_SUCCESS)
        return err;
    fence_expect = &expect;
    rk_win_progress_until(w, fence_done, "MPI_Win_fence");
    fence_expect = NULL;
    err = PMPI_Barrier(w->comm);
    w->fence = !(assert & MPI_MODE_NOSUCCEED);
    return err;
}
RK_MPI_ALIAS(Win_fence);

/* The window ranks of @p group's members into @p out; their count. */
static int group_ranks(rk_win_t *w, MPI_Group group, int *out,
                       const char *func)
{
    MPI_Group wg;
    int n, err, *in;

    err = PMPI_Group_size(group, &n);
    if (err != MPI_SUCCESS)
        return -1;
    if (n > w->size) {
        rk_err(w->comm, MPI_ERR_GROUP, func, "a group larger than the "
               "window's");
        return -1;
    }
    in = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    if (in == NULL)
        return -1;
    for (int i = 0; i < n; i++)
        in[i] = i;
    PMPI_Comm_group(w->comm, &wg);
    err = PMPI_Group_translate_ranks(group, n, in, wg, out);
    PMPI_Group_free(&wg);
    free(in);
    for (int i = 0; err == MPI_SUCCESS && i < n; i++)
        if (out[i] == MPI_UNDEFINED) {
            rk_err(w->comm, MPI_ERR_GROUP, func,
                   "member %d of the group is not in the window", i);
            return -1;
        }
    return err == MPI_SUCCESS ? n : -1;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_post"), n, *r;

    if (err != MPI_SUCCESS)
        return err;
    if (assert & ~(MPI_MODE_NOCHECK | MPI_MODE_NOSTORE | MPI_MODE_NOPUT))
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_post",
                      "assertion %#x", (unsigned)assert);
    if (w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_post",
                      "an exposure epoch is already open (MPI_Win_wait "
                      "first)");
    r = malloc((size_t)w->size * sizeof(int));
    if (r == NULL)
        return rk_err(w->comm, MPI_ERR_NO_MEM, "MPI_Win_post", "no memory");
    n = group_ranks(w, group, r, "MPI_Win_post");
    if (n < 0) {
        free(r);
        return MPI_ERR_GROUP;
    }
    /* before the first post leaves: an origin's MPI_Win_complete may
     * come back while this call still runs the progress engine */
    w->posted = 1;
    w->expect = w->completes + n;
    for (int i = 0; i < n; i++) {
        MPI_Request q;
        err = PMPI_Isend(NULL, 0, MPI_BYTE, r[i], W_POST, w->comm, &q);
        if (err == MPI_SUCCESS)
            rk_win_pend(&w->rep, &w->nrep, &w->caprep, q, NULL);
    }
    free(r);
    return err;
}
RK_MPI_ALIAS(Win_post);

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_start"), n;

    if (err != MPI_SUCCESS)
        return err;
    if (assert & ~MPI_MODE_NOCHECK)
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_start",
                      "assertion %#x", (unsigned)assert);
    if (w->started || w->nlocked > 0 || w->lock_all)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_start",
                      "an access epoch is already open");
    n = group_ranks(w, group, w->start, "MPI_Win_start");
    if (n < 0)
        return MPI_ERR_GROUP;
    /* wait for every target's MPI_Win_post */
    for (int i = 0; i < n && err == MPI_SUCCESS; i++)
        err = PMPI_Recv(NULL, 0, MPI_BYTE, w->start[i], W_POST, w->comm,
                        MPI_STATUS_IGNORE);
    w->nstart = n;
    w->started = 1;
    w->fence = 0;
    return err;
}
RK_MPI_ALIAS(Win_start);

int PMPI_Win_complete(MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_complete");

    if (err != MPI_SUCCESS)
        return err;
    if (!w->started)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_complete",
                      "no MPI_Win_start epoch is open");
    for (int i = 0; i < w->nstart && err == MPI_SUCCESS; i++)
        err = rk_win_ctl(w, w->start[i], K_COMPLETE, 0,
                           "MPI_Win_complete");
    rk_win_progress_until(w, rk_win_origin_done, "MPI_Win_complete");
    w->started = 0;
    w->nstart = 0;
    return err;
}
RK_MPI_ALIAS(Win_complete);

static int wait_done(rk_win_t *w)
{
    return w->completes >= w->expect;
}

int PMPI_Win_wait(MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_wait");

    if (err != MPI_SUCCESS)
        return err;
    if (!w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_wait",
                      "no MPI_Win_post epoch is open");
    rk_win_progress_until(w, wait_done, "MPI_Win_wait");
    w->posted = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_wait);

int PMPI_Win_test(MPI_Win win, int *flag)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_test");

    if (err != MPI_SUCCESS)
        return err;
    if (flag == NULL)
        return rk_err(w->comm, MPI_ERR_ARG, "MPI_Win_test", "flag is NULL");
    if (!w->posted)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_test",
                      "no MPI_Win_post epoch is open");
    rk_progress();
    *flag = wait_done(w);
    if (*flag)
        w->posted = 0;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_test);

/* Wait for the target's W_CTRL answer @p what. */
static int ctrl_wait(rk_win_t *w, int t, int what, const char *func)
{
    int v = 0, err = PMPI_Recv(&v, 1, MPI_INT, t, W_CTRL, w->comm,
                               MPI_STATUS_IGNORE);

    if (err == MPI_SUCCESS && v != what)
        return rk_err(w->comm, MPI_ERR_INTERN, func,
                      "rank %d answered %d, not %d", t, v, what);
    return err;
}

static int lock_one(rk_win_t *w, int type, int t, const char *func)
{
    int err = rk_win_ctl(w, t, K_LOCK, type, func);

    if (err == MPI_SUCCESS)
        err = ctrl_wait(w, t, K_LOCK, func);
    return err;
}

/* Unlock or flush @p t: the answer comes after every operation sent
 * before; then my side of them (gets' data) completes too. */
static int sync_one(rk_win_t *w, int t, int kind, const char *func)
{
    int err;

    if (kind == K_FLUSH && w->issued[t] == w->synced[t]) {
        /* no operation went to t as a message since its last flush or
         * unlock (only direct copies into its window in shared DRAM,
         * complete when they returned): nothing to ask t, whose answer
         * would need it to run its progress engine */
        rk_win_progress_until(w, rk_win_origin_done, func);
        return MPI_SUCCESS;
    }
    w->synced[t] = w->issued[t];
    err = rk_win_ctl(w, t, kind, 0, func);
    if (err == MPI_SUCCESS)
        err = ctrl_wait(w, t, kind, func);
    rk_win_progress_until(w, rk_win_origin_done, func);
    return err;
}

static int lock_args(rk_win_t *w, int rank, const char *func)
{
    if (rank == MPI_PROC_NULL)
        return -1;
    if (rank < 0 || rank >= w->size)
        return rk_err(w->comm, MPI_ERR_RANK, func,
                      "rank %d of a window of %d", rank, w->size);
    return MPI_SUCCESS;
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_lock");

    if (err != MPI_SUCCESS)
        return err;
    err = lock_args(w, rank, "MPI_Win_lock");
    if (err != MPI_SUCCESS)
        return err < 0 ? MPI_SUCCESS : err;
    if (lock_type != MPI_LOCK_EXCLUSIVE && lock_type != MPI_LOCK_SHARED)
        return rk_err(w->comm, MPI_ERR_LOCKTYPE, "MPI_Win_lock",
                      "lock type %d", lock_type);
    if (assert & ~MPI_MODE_NOCHECK)
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_lock",
                      "assertion %#x", (unsigned)assert);
    if (w->locked[rank] || w->lock_all || w->started)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_lock",
                      "rank %d is already in an access epoch", rank);
    err = lock_one(w, lock_type, rank, "MPI_Win_lock");
    if (err == MPI_SUCCESS) {
        w->locked[rank] = lock_type;
        w->nlocked++;
        w->fence = 0;
    }
    return err;
}
RK_MPI_ALIAS(Win_lock);

int PMPI_Win_unlock(int rank, MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_unlock");

    if (err != MPI_SUCCESS)
        return err;
    err = lock_args(w, rank, "MPI_Win_unlock");
    if (err != MPI_SUCCESS)
        return err < 0 ? MPI_SUCCESS : err;
    if (!w->locked[rank])
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_unlock",
                      "rank %d is not locked", rank);
    err = sync_one(w, rank, K_UNLOCK, "MPI_Win_unlock");
    w->locked[rank] = 0;
    w->nlocked--;
    return err;
}
RK_MPI_ALIAS(Win_unlock);

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_lock_all");

    if (err != MPI_SUCCESS)
        return err;
    if (assert & ~MPI_MODE_NOCHECK)
        return rk_err(w->comm, MPI_ERR_ASSERT, "MPI_Win_lock_all",
                      "assertion %#x", (unsigned)assert);
    if (w->nlocked > 0 || w->lock_all || w->started)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_lock_all",
                      "an access epoch is already open");
    /* in rank order: two lock_all never wait for each other */
    for (int t = 0; t < w->size && err == MPI_SUCCESS; t++)
        err = lock_one(w, MPI_LOCK_SHARED, t, "MPI_Win_lock_all");
    if (err == MPI_SUCCESS) {
        w->lock_all = 1;
        w->fence = 0;
    }
    return err;
}
RK_MPI_ALIAS(Win_lock_all);

int PMPI_Win_unlock_all(MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_unlock_all");

    if (err != MPI_SUCCESS)
        return err;
    if (!w->lock_all)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, "MPI_Win_unlock_all",
                      "no MPI_Win_lock_all epoch is open");
    for (int t = 0; t < w->size && err == MPI_SUCCESS; t++)
        err = sync_one(w, t, K_UNLOCK, "MPI_Win_unlock_all");
    w->lock_all = 0;
    return err;
}
RK_MPI_ALIAS(Win_unlock_all);

static int flush(MPI_Win win, int rank, const char *func)
{
    rk_win_t *w;
    int err = rk_win_arg(win, &w, func);

    if (err != MPI_SUCCESS)
        return err;
    if (rank != -2) {
        err = lock_args(w, rank, func);
        if (err != MPI_SUCCESS)
            return err < 0 ? MPI_SUCCESS : err;
        if (!w->locked[rank] && !w->lock_all)
            return rk_err(w->comm, MPI_ERR_RMA_SYNC, func,
                          "rank %d is not locked", rank);
        return sync_one(w, rank, K_FLUSH, func);
    }
    if (w->nlocked == 0 && !w->lock_all)
        return rk_err(w->comm, MPI_ERR_RMA_SYNC, func,
                      "no passive-target epoch is open");
    for (int t = 0; t < w->size && err == MPI_SUCCESS; t++)
        if (w->lock_all || w->locked[t])
            err = sync_one(w, t, K_FLUSH, func);
    return err;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
    RK_MPI_GUARD;
    return flush(win, rank, "MPI_Win_flush");
}
RK_MPI_ALIAS(Win_flush);

int PMPI_Win_flush_all(MPI_Win win)
{
    RK_MPI_GUARD;
    return flush(win, -2, "MPI_Win_flush_all");
}
RK_MPI_ALIAS(Win_flush_all);

/* local completion: done the same way as remote completion, which
 * implies it */
int PMPI_Win_flush_local(int rank, MPI_Win win)
{
    RK_MPI_GUARD;
    return flush(win, rank, "MPI_Win_flush_local");
}
RK_MPI_ALIAS(Win_flush_local);

int PMPI_Win_flush_local_all(MPI_Win win)
{
    RK_MPI_GUARD;
    return flush(win, -2, "MPI_Win_flush_local_all");
}
RK_MPI_ALIAS(Win_flush_local_all);

int PMPI_Win_sync(MPI_Win win)
{
    RK_MPI_GUARD;
    rk_win_t *w;
    int err = rk_win_arg(win, &w, "MPI_Win_sync");

    if (err != MPI_SUCCESS)
        return err;
    atomic_thread_fence(memory_order_seq_cst);
    rk_progress();
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Win_sync);

