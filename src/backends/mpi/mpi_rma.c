/*
 * The mpi backend's bottom: the remote primitives on the chip's RMA window
 * (each complete at the target on return), the progress call and the
 * wake-up of a blocked core (the protocol is at the top of mpi.c).
 *
 * Owns: nothing with state. May call: MPI, the logger. Everything else in
 * the backend (mpi.c's slots, attach, the node part, the waits) calls
 * these; they call none of them back.
 */
#include "mpi/mpi_priv.h"

rck_status_t mpi_fail(int rc, const char *what)
{
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;

    MPI_Error_string(rc, msg, &len);
    rck_error("mpi backend: %s: %s", what, msg);
    return RCK_ERR_IO;
}

/* ---- remote primitives (each complete at the target on return) ---- */

rck_status_t put_flush(mpib_t *m, int rank, MPI_Aint disp,
                              const void *src, size_t len)
{
    MPI_CHECK(MPI_Put(src, (int)len, MPI_BYTE, rank, disp, (int)len,
                      MPI_BYTE, m->win),
              "MPI_Put");
    MPI_CHECK(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    return RCK_OK;
}

rck_status_t get_flush(mpib_t *m, int rank, MPI_Aint disp, void *dst,
                              size_t len)
{
    MPI_CHECK(MPI_Get(dst, (int)len, MPI_BYTE, rank, disp, (int)len,
                      MPI_BYTE, m->win),
              "MPI_Get");
    MPI_CHECK(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    return RCK_OK;
}

/* An atomic on one word, flushed; @p old NULL: nothing to fetch, so an
 * MPI_Accumulate (atomic with the other accumulate operations as
 * MPI_Fetch_and_op is; MPICH completes it about 10% sooner, Open MPI
 * the same). */
rck_status_t fop(mpib_t *m, int rank, MPI_Aint disp, uint32_t in,
                        MPI_Op op, uint32_t *old)
{
    if (old == NULL)
        MPI_CHECK(MPI_Accumulate(&in, 1, MPI_UINT32_T, rank, disp, 1,
                                 MPI_UINT32_T, op, m->win),
                  "MPI_Accumulate");
    else
        MPI_CHECK(MPI_Fetch_and_op(&in, old, MPI_UINT32_T, rank, disp, op,
                                   m->win),
                  "MPI_Fetch_and_op");
    MPI_CHECK(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    return RCK_OK;
}

rck_status_t cas(mpib_t *m, int rank, MPI_Aint disp, uint32_t cmp,
                        uint32_t val, uint32_t *old)
{
    MPI_CHECK(MPI_Compare_and_swap(&val, &cmp, old, MPI_UINT32_T, rank, disp,
                                   m->win),
              "MPI_Compare_and_swap");
    MPI_CHECK(MPI_Win_flush(rank, m->win), "MPI_Win_flush");
    return RCK_OK;
}

/* Let the MPI library move data: both MPIs serve RMA on these windows
 * only while the target is inside MPI (Open MPI's atomics, every MPICH
 * operation), so every call that reads the own core's memory, which is
 * how a program polls, comes here. Open MPI's MPI_Win_sync (osc/rdma) is
 * a full progress call, which is enough; MPICH's is not, so there an
 * MPI_Iprobe follows. */
void progress(mpib_t *m)
{
    MPI_Win_sync(m->win);
#ifndef OPEN_MPI
    int flag;

    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, m->comm, &flag,
               MPI_STATUS_IGNORE);
#endif
}

/* Take the wake word at @p disp of @p rank (1 -> 0), @p old its value
 * before. It only ever holds 0 or 1, so a swap with 0 is the same as a
 * compare-and-swap 1 -> 0, and each MPI gets its faster one: Open MPI
 * 4.1's osc/rdma serves a 32-bit MPI_Fetch_and_op as one active message
 * (0.4-0.6 us here) and MPI_Compare_and_swap far slower (2.3 us); on
 * MPICH 4.0 the compare-and-swap is the cheaper (docs/MPI-BACKEND.md). */
rck_status_t wake_take(mpib_t *m, int rank, MPI_Aint disp, uint32_t *old)
{
#ifdef OPEN_MPI
    return fop(m, rank, disp, 0, MPI_REPLACE, old);
#else
    return cas(m, rank, disp, 1, 0, old);
#endif
}

/* After a write that may satisfy a wait of core @p core: wake it if it is
 * blocked (see the protocol at the top). */
rck_status_t wake(rck_hal_t *hal, int core)
{
    mpib_t *m = mb(hal);
    int ue = m->ue_of_core[core];
    uint32_t old = 0;
    rck_status_t st;

    if (ue < 0 || core == hal->core || m->no_wake)
        return RCK_OK;
    /* the data is visible before the look at wake (store -> load) */
    atomic_thread_fence(memory_order_seq_cst);
    st = wake_take(m, m->home[core], st_disp(m, core, ST_WAKE), &old);
    if (st != RCK_OK || old != 1)
        return st;
    MPI_CHECK(MPI_Send(NULL, 0, MPI_BYTE, ue, TAG_WAKE, m->comm),
              "MPI_Send (wake-up)");
    return RCK_OK;
}
