/* Flat barrier and allreduce (docs/MPI-COLLECTIVES.md, "Flat
 * algorithms"): every rank sends to rank 0 and waits for rank 0's answer,
 * so that every rank but rank 0 sleeps once per operation, where the
 * dissemination barrier and recursive doubling wait log2 p times per
 * rank. Rank 0 posts every receive at once and waits for all of them in
 * one wait; the answer goes down a binomial tree (eager sends that
 * complete at once: the outbox), so that rank 0 sends log2 p of them and
 * the ranks wake in a cascade, not all at once beside rank 0 (with rank 0
 * answering all 47 at 48 processes, its next calls' times grew by the
 * herd it woke). Used up to RCK_MPI_COLL_FLAT processes; auto: at every size
 * on the native backend, never on the sim (whose chip runs the
 * dissemination barrier's rounds in parallel). */
#include "rkcoll.h"

#include "rck/config.h"

#include <stdlib.h>
#include <string.h>

int rkc_flat_max(void)
{
    static long max = -2;

    if (max == -2) {
        const char *s = rck_config_get("MPI_COLL_FLAT");
        char *end;
        long v = strtol(s, &end, 0);

        max = strcmp(s, "auto") != 0 && *s != '\0' && *end == '\0' &&
                      v >= 0
                  ? v
                  : -1; /* auto */
    }
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
    if (rank != 0) {
        MPI_Request r;
        err = rckmpi_coll_isend(NULL, 0, MPI_BYTE, 0, RKC_TAG_BARRIER, comm,
                                &r);
        if (err == MPI_SUCCESS)
            err = rkc_bcast_tag(NULL, 0, MPI_BYTE, 0, comm, RKC_TAG_BARRIER);
        int werr = err == MPI_SUCCESS ? PMPI_Wait(&r, MPI_STATUS_IGNORE)
                                      : MPI_SUCCESS;
        return err != MPI_SUCCESS ? err : werr;
    }
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 1; i < size && err == MPI_SUCCESS; i++) {
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
        err = rkc_bcast_tag(NULL, 0, MPI_BYTE, 0, comm, RKC_TAG_BARRIER);
    return err;
}

/* recvbuf holds this rank's vector on entry and the result on return.
 * Rank 0 folds the vectors in rank order (lower ranks on the left), so
 * non-commutative operations are right too. */
int rkc_flat_allreduce(void *recvbuf, int count, MPI_Datatype type,
                       MPI_Op op, MPI_Comm comm)
{
    int rank, size, n = 0, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (rank != 0) {
        MPI_Request r;
        err = rckmpi_coll_isend(recvbuf, count, type, 0, RKC_TAG_ALLREDUCE,
                                comm, &r);
        int werr = err == MPI_SUCCESS ? PMPI_Wait(&r, MPI_STATUS_IGNORE)
                                      : MPI_SUCCESS;
        if (err == MPI_SUCCESS)
            err = werr;
        if (err == MPI_SUCCESS)
            err = rkc_bcast_tag(recvbuf, count, type, 0, comm,
                                RKC_TAG_ALLREDUCE);
        return err;
    }
    /* one buffer per other rank, then one to swap with: every vector is
     * whole items of type (rkc_tmpbuf accounts for its lower bound) */
    void **base = calloc((size_t)size, sizeof *base);
    void **vec = calloc((size_t)size, sizeof *vec);
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)size);
    if (base == NULL || vec == NULL || reqs == NULL)
        err = MPI_ERR_NO_MEM;
    for (int i = 1; i < size && err == MPI_SUCCESS; i++) {
        vec[i] = rkc_tmpbuf(count, type, &base[i]);
        if (vec[i] == NULL)
            err = MPI_ERR_NO_MEM;
    }
    for (int i = 1; i < size && err == MPI_SUCCESS; i++) {
        err = rckmpi_coll_irecv(vec[i], count, type, i, RKC_TAG_ALLREDUCE,
                                comm, &reqs[n]);
        if (err == MPI_SUCCESS)
            n++;
    }
    int werr = waitall(n, reqs);
    if (err == MPI_SUCCESS)
        err = werr;
    /* acc = v0 op v1 op ... : rkop_apply(op, in, inout) is inout = in op
     * inout, so the accumulated left side is @p in and the result lands in
     * the next rank's buffer */
    void *acc = recvbuf;
    for (int i = 1; i < size && err == MPI_SUCCESS; i++) {
        err = rkop_apply(op, acc, vec[i], count, type);
        acc = vec[i];
    }
    if (err == MPI_SUCCESS && acc != recvbuf)
        rkc_copy(acc, count, type, recvbuf, count, type);
    if (err == MPI_SUCCESS)
        err = rkc_bcast_tag(recvbuf, count, type, 0, comm, RKC_TAG_ALLREDUCE);
    for (int i = 1; base != NULL && i < size; i++)
        free(base[i]);
    free(base);
    free(vec);
    free(reqs);
    return err;
}
