/* The reducing collectives (docs/MPI-COLLECTIVES.md): reduce, allreduce,
 * reduce-scatter, scan, exscan. Every combination keeps rank order
 * (lower ranks on the left), so non-commutative operations are right. */
#include "rkcoll.h"

#include <stdlib.h>
#include <string.h>

/* a = a op b, b is scratch (its contents are lost): lower ranks in a */
static int combine_left(MPI_Op op, void **a, void **b, int count,
                        MPI_Datatype type)
{
    int err = rkop_apply(op, *a, *b, count, type); /* b = a op b */
    void *t = *a;

    *a = *b;
    *b = t;
    return err;
}

/* Binomial tree towards relative rank 0. Ranks with bit k set send their
 * partial result (ranks [rel, rel + 2^k)) to rel - 2^k, which puts it on
 * its right: rank order holds when the tree is rooted at rank 0, which a
 * non-commutative operation therefore always uses (rank 0 then forwards
 * the result to root). */
int rkc_reduce(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
    int rank, size, err = MPI_SUCCESS;
    void *b1, *b2;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int top = rkop_commutative(op) ? root : 0;
    void *acc = rkc_tmpbuf(count, type, &b1), *tmp = rkc_tmpbuf(count, type, &b2);
    if (acc == NULL || tmp == NULL) {
        free(b1);
        free(b2);
        return MPI_ERR_NO_MEM;
    }
    rkc_copy(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, type, acc,
             count, type);
    int rel = (rank - top + size) % size;
    for (int mask = 1; mask < size && err == MPI_SUCCESS; mask <<= 1) {
        if (rel & mask) {
            err = rckmpi_coll_send(acc, count, type,
                                   (rank - mask + size) % size,
                                   RKC_TAG_REDUCE, comm);
            break;
        }
        if (rel + mask < size) {
            err = rckmpi_coll_recv(tmp, count, type, (rank + mask) % size,
                                   RKC_TAG_REDUCE, comm, MPI_STATUS_IGNORE);
            if (err == MPI_SUCCESS)
                err = combine_left(op, &acc, &tmp, count, type);
        }
    }
    if (err == MPI_SUCCESS && top != root) {
        if (rank == top)
            err = rckmpi_coll_send(acc, count, type, root, RKC_TAG_REDUCE,
                                   comm);
        else if (rank == root)
            err = rckmpi_coll_recv(recvbuf, count, type, top, RKC_TAG_REDUCE,
                                   comm, MPI_STATUS_IGNORE);
    } else if (err == MPI_SUCCESS && rank == root) {
        rkc_copy(acc, count, type, recvbuf, count, type);
    }
    free(b1);
    free(b2);
    return err;
}

static int reduce_args(MPI_Comm comm, const char *f, int *rank, int *size,
                       const void *sbuf, const void *rbuf, int count,
                       MPI_Datatype type, MPI_Op op, int need_rbuf)
{
    int err = rkc_begin(comm, f, rank, size);

    if (err == MPI_SUCCESS)
        err = rkc_check_buf(comm, f, sbuf == MPI_IN_PLACE ? rbuf : sbuf,
                            count, type);
    if (err == MPI_SUCCESS && need_rbuf)
        err = rkc_check_buf(comm, f, rbuf, count, type);
    if (err == MPI_SUCCESS)
        err = rkc_check_op(comm, f, op, type);
    if (err == MPI_SUCCESS && need_rbuf && sbuf == rbuf && count > 0)
        err = rckmpi_error(comm, MPI_ERR_BUFFER, f);
    return err;
}

int PMPI_Reduce(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Reduce";
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err == MPI_SUCCESS)
        err = rkc_check_root(comm, f, root, size);
    if (err == MPI_SUCCESS) {
        if (rank != root && sendbuf == MPI_IN_PLACE)
            err = rckmpi_error(comm, MPI_ERR_BUFFER, f);
        else
            err = reduce_args(comm, f, &rank, &size, sendbuf, recvbuf, count,
                              datatype, op, rank == root);
    }
    if (err != MPI_SUCCESS)
        return err;
    err = rkc_reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Reduce);

/* Recursive doubling for commutative operations on short vectors (log2 p
 * steps, every rank ends with the result; the ranks above the largest
 * power of two fold into their partner first); reduce + broadcast
 * otherwise (docs/MPI-COLLECTIVES.md: the switch point). */
#define RKC_ALLREDUCE_RD_MAX 2048 /* bytes */

static int allreduce_rd(void *recvbuf, int count, MPI_Datatype type,
                        MPI_Op op, MPI_Comm comm)
{
    int rank, size, pof2 = 1, err = MPI_SUCCESS;
    void *base;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    while (pof2 * 2 <= size)
        pof2 *= 2;
    void *tmp = rkc_tmpbuf(count, type, &base);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    int extra = rank >= pof2;
    if (extra)
        err = rckmpi_coll_send(recvbuf, count, type, rank - pof2,
                               RKC_TAG_ALLREDUCE, comm);
    else if (rank + pof2 < size) {
        err = rckmpi_coll_recv(tmp, count, type, rank + pof2,
                               RKC_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
        err = err == MPI_SUCCESS ? rkop_apply(op, tmp, recvbuf, count, type)
                                 : err;
    }
    for (int mask = 1; !extra && mask < pof2 && err == MPI_SUCCESS;
         mask <<= 1) {
        int peer = rank ^ mask;
        MPI_Request r;
        err = rckmpi_coll_isend(recvbuf, count, type, peer,
                                RKC_TAG_ALLREDUCE, comm, &r);
        if (err == MPI_SUCCESS)
            err = rckmpi_coll_recv(tmp, count, type, peer, RKC_TAG_ALLREDUCE,
                                   comm, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = PMPI_Wait(&r, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = rkop_apply(op, tmp, recvbuf, count, type);
    }
    if (err == MPI_SUCCESS && extra)
        err = rckmpi_coll_recv(recvbuf, count, type, rank - pof2,
                               RKC_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
    else if (err == MPI_SUCCESS && rank + pof2 < size)
        err = rckmpi_coll_send(recvbuf, count, type, rank + pof2,
                               RKC_TAG_ALLREDUCE, comm);
    free(base);
    return err;
}

int PMPI_Allreduce(const void *sendbuf, void *recvbuf, int count,
                   MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Allreduce";
    int rank, size, tsize;
    int err = reduce_args(comm, f, &rank, &size, sendbuf, recvbuf, count,
                          datatype, op, 1);

    if (err != MPI_SUCCESS)
        return err;
    PMPI_Type_size(datatype, &tsize);
    /* a small vector: reduced in place in recvbuf, by the arrival
     * counter, the flat form or recursive doubling (commutative ops) */
    int (*in_place)(void *, int, MPI_Datatype, MPI_Op, MPI_Comm) = NULL;
    if ((long)tsize * count <= RKC_ALLREDUCE_RD_MAX) {
        if (size > 1 && rkc_counter_allreduce_ok(comm, count, datatype))
            in_place = rkc_counter_allreduce;
        else if (size > 1 && size <= rkc_flat_max())
            in_place = rkc_flat_allreduce;
        else if (rkop_commutative(op))
            in_place = allreduce_rd;
    }
    if (in_place != NULL) {
        if (sendbuf != MPI_IN_PLACE)
            rkc_copy(sendbuf, count, datatype, recvbuf, count, datatype);
        err = in_place(recvbuf, count, datatype, op, comm);
    } else {
        err = rkc_reduce(sendbuf, recvbuf, count, datatype, op, 0, comm);
        if (err == MPI_SUCCESS)
            err = rkc_bcast(recvbuf, count, datatype, 0, comm);
    }
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Allreduce);

/* reduce the whole vector to rank 0, scatter the pieces */
static int reduce_scatter(const void *sendbuf, void *recvbuf,
                          const int counts[], MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm)
{
    int rank, size, total = 0, err;
    void *base;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int *displs = malloc(sizeof *displs * (size_t)size);
    if (displs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++) {
        displs[i] = total;
        total += counts[i];
    }
    void *all = rkc_tmpbuf(total, type, &base);
    if (all == NULL) {
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    err = rkc_reduce(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, all, total,
                     type, op, 0, comm);
    if (err == MPI_SUCCESS)
        err = rkc_scatterv(all, counts, displs, type, recvbuf, counts[rank],
                           type, 0, comm);
    free(base);
    free(displs);
    return err;
}

int PMPI_Reduce_scatter(const void *sendbuf, void *recvbuf,
                        const int recvcounts[], MPI_Datatype datatype,
                        MPI_Op op, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Reduce_scatter";
    int rank, size, err = rkc_begin(comm, f, &rank, &size), total = 0;

    if (err == MPI_SUCCESS && recvcounts == NULL)
        err = rckmpi_error(comm, MPI_ERR_ARG, f);
    for (int i = 0; err == MPI_SUCCESS && i < size; i++) {
        if (recvcounts[i] < 0)
            err = rckmpi_error(comm, MPI_ERR_COUNT, f);
        total += recvcounts[i];
    }
    if (err == MPI_SUCCESS)
        err = rkc_check_buf(comm, f, sendbuf == MPI_IN_PLACE ? recvbuf
                                                             : sendbuf,
                            total, datatype);
    if (err == MPI_SUCCESS)
        err = rkc_check_buf(comm, f, recvbuf, recvcounts[rank], datatype);
    if (err == MPI_SUCCESS)
        err = rkc_check_op(comm, f, op, datatype);
    if (err != MPI_SUCCESS)
        return err;
    err = reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Reduce_scatter);

int PMPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf,
                              int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Reduce_scatter_block";
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err != MPI_SUCCESS)
        return err;
    if (recvcount < 0)
        return rckmpi_error(comm, MPI_ERR_COUNT, f);
    int *counts = malloc(sizeof *counts * (size_t)size);
    if (counts == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    for (int i = 0; i < size; i++)
        counts[i] = recvcount;
    err = PMPI_Reduce_scatter(sendbuf, recvbuf, counts, datatype, op, comm);
    free(counts);
    return err;
}
RK_MPI_ALIAS(Reduce_scatter_block);

/* Scan and exscan: recursive doubling. partial holds the reduction of the
 * aligned block of ranks around this one seen so far; a partner below
 * contributes on the left of both partial and the result. */
static int scan(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype type, MPI_Op op, MPI_Comm comm, int exclusive)
{
    int rank, size, have = !exclusive, err = MPI_SUCCESS;
    void *b1, *b2;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    void *part = rkc_tmpbuf(count, type, &b1), *tmp = rkc_tmpbuf(count, type, &b2);
    if (part == NULL || tmp == NULL) {
        free(b1);
        free(b2);
        return MPI_ERR_NO_MEM;
    }
    const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    rkc_copy(mine, count, type, part, count, type);
    if (!exclusive)
        rkc_copy(mine, count, type, recvbuf, count, type);
    for (int mask = 1; mask < size && err == MPI_SUCCESS; mask <<= 1) {
        int peer = rank ^ mask;
        if (peer >= size)
            continue;
        MPI_Request r;
        err = rckmpi_coll_isend(part, count, type, peer, RKC_TAG_SCAN, comm,
                                &r);
        if (err == MPI_SUCCESS)
            err = rckmpi_coll_recv(tmp, count, type, peer, RKC_TAG_SCAN, comm,
                                   MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = PMPI_Wait(&r, MPI_STATUS_IGNORE);
        if (err != MPI_SUCCESS)
            break;
        if (peer < rank) {
            if (have)
                err = rkop_apply(op, tmp, recvbuf, count, type);
            else
                rkc_copy(tmp, count, type, recvbuf, count, type);
            have = 1;
            if (err == MPI_SUCCESS)
                err = rkop_apply(op, tmp, part, count, type);
        } else {
            err = combine_left(op, &part, &tmp, count, type);
        }
    }
    /* the buffers may have swapped: free the allocations, not the names */
    free(b1);
    free(b2);
    return err;
}

static int scan_args(MPI_Comm comm, const char *f, const void *sbuf,
                     void *rbuf, int count, MPI_Datatype type, MPI_Op op)
{
    int rank, size;

    return reduce_args(comm, f, &rank, &size, sbuf, rbuf, count, type, op, 1);
}

int PMPI_Scan(const void *sendbuf, void *recvbuf, int count,
              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Scan";
    int err = scan_args(comm, f, sendbuf, recvbuf, count, datatype, op);

    if (err != MPI_SUCCESS)
        return err;
    err = scan(sendbuf, recvbuf, count, datatype, op, comm, 0);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Scan);

int PMPI_Exscan(const void *sendbuf, void *recvbuf, int count,
                MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Exscan";
    int err = scan_args(comm, f, sendbuf, recvbuf, count, datatype, op);

    if (err != MPI_SUCCESS)
        return err;
    err = scan(sendbuf, recvbuf, count, datatype, op, comm, 1);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Exscan);
