/* Flat barrier and allreduce (docs/MPI-COLLECTIVES.md, "Flat
 * algorithms"): every rank sends to the last rank and waits for its
 * answer,
 * so that every rank but rank 0 sleeps once per operation, where the
 * dissemination barrier and recursive doubling wait log2 p times per
 * rank. The last rank posts every receive at once and waits for all of
 * them in one wait; the answer goes down MPI_Bcast's tree (eager sends
 * that complete at once: the outbox; binary on native, binomial
 * elsewhere: RCK_MPI_BCAST_FANOUT), so that it sends a few of them and
 * the ranks wake in a cascade, not all at once. The last rank, not rank
 * 0: the root leaves first and its next calls run beside the ranks it
 * woke (rank 0 as the root: its timed 4-byte bcasts and scatters right
 * after a barrier at 48 processes took 70 and 1,136 us per call instead
 * of 1-2), and rank 0 is the usual root of what a program does next.
 * Used up to RCK_MPI_COLL_FLAT processes; auto: at every size on the
 * native backend, never on the sim (whose chip runs the dissemination
 * barrier's rounds in parallel). */
#include "rkcoll.h"

#include "rck/config.h"

#include <stdlib.h>
#include <string.h>

int rkc_flat_max(void)
{
    static long max = -2;

    if (max == -2)
        max = rkc_setting_auto("MPI_COLL_FLAT");
    if (max >= 0)
        return (int)max;
    return rckmpi_coll_host_memory() ? RKC_FLAT_MAX_HOST : 0;
}

static int waitall(int n, MPI_Request *reqs)
{
    return n > 0 ? PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
}

int rkc_flat_barrier(MPI_Comm comm)
{
    int rank, size, n = 0, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int root = size - 1;
    if (rank != root) {
        MPI_Request r;
        err = rckmpi_coll_isend(NULL, 0, MPI_BYTE, root, RKC_TAG_BARRIER,
                                comm, &r);
        if (err == MPI_SUCCESS)
            err = rkc_bcast_tag(NULL, 0, MPI_BYTE, root, comm,
                                RKC_TAG_BARRIER);
        int werr = err == MPI_SUCCESS ? PMPI_Wait(&r, MPI_STATUS_IGNORE)
                                      : MPI_SUCCESS;
        return err != MPI_SUCCESS ? err : werr;
    }
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < root && err == MPI_SUCCESS; i++) {
        err = rckmpi_coll_irecv(NULL, 0, MPI_BYTE, i, RKC_TAG_BARRIER, comm,
                                &reqs[n]);
        if (err == MPI_SUCCESS)
            n++;
    }
    int werr = waitall(n, reqs);
    free(reqs);
    if (err == MPI_SUCCESS)
        err = werr;
    if (err == MPI_SUCCESS)
        err = rkc_bcast_tag(NULL, 0, MPI_BYTE, root, comm, RKC_TAG_BARRIER);
    return err;
}

/* recvbuf holds this rank's vector on entry and the result on return.
 * The last rank folds the vectors in rank order (lower ranks on the left),
 * so non-commutative operations are right too. */
int rkc_flat_allreduce(void *recvbuf, int count, MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm)
{
    int rank, size, n = 0, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int root = size - 1;
    if (rank != root) {
        MPI_Request r;
        err = rckmpi_coll_isend(recvbuf, count, type, root,
                                RKC_TAG_ALLREDUCE, comm, &r);
        int werr = err == MPI_SUCCESS ? PMPI_Wait(&r, MPI_STATUS_IGNORE)
                                      : MPI_SUCCESS;
        if (err == MPI_SUCCESS)
            err = werr;
        if (err == MPI_SUCCESS)
            err = rkc_bcast_tag(recvbuf, count, type, root, comm,
                                RKC_TAG_ALLREDUCE);
        return err;
    }
    /* a buffer per other rank: every vector is whole items of type
     * (rkc_tmpbuf accounts for its lower bound); the root's own is last */
    void **base = calloc((size_t)size, sizeof *base);
    void **vec = calloc((size_t)size, sizeof *vec);
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)size);
    if (base == NULL || vec == NULL || reqs == NULL)
        err = MPI_ERR_NO_MEM;
    for (int i = 0; i < root && err == MPI_SUCCESS; i++) {
        vec[i] = rkc_tmpbuf(count, type, &base[i]);
        if (vec[i] == NULL)
            err = MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < root && err == MPI_SUCCESS; i++) {
        err = rckmpi_coll_irecv(vec[i], count, type, i, RKC_TAG_ALLREDUCE,
                                comm, &reqs[n]);
        if (err == MPI_SUCCESS)
            n++;
    }
    int werr = waitall(n, reqs);
    if (err == MPI_SUCCESS)
        err = werr;
    /* v0 op v1 op ... op v_root: rkop_apply(op, in, inout) is inout = in
     * op inout, so the accumulated left side is @p in and the result lands
     * in the next rank's buffer, the last one in recvbuf */
    if (vec != NULL)
        vec[root] = recvbuf;
    for (int i = 1; i <= root && err == MPI_SUCCESS; i++)
        err = rkop_apply(op, vec[i - 1], vec[i], count, type);
    if (err == MPI_SUCCESS)
        err = rkc_bcast_tag(recvbuf, count, type, root, comm,
                            RKC_TAG_ALLREDUCE);
    for (int i = 0; base != NULL && i < root; i++)
        free(base[i]);
    free(base);
    free(vec);
    free(reqs);
    return err;
}
