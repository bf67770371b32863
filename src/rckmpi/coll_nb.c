/* The non-blocking collectives of MPI-3 (docs/MPI-COLLECTIVES.md,
 * "Non-blocking collectives"): each is a schedule (coll_sched.c) built
 * here at the call and run by the progress engine.
 *
 * Algorithms: barrier by dissemination; broadcast by binomial tree;
 * allreduce by recursive doubling (pairs folded first, rank order kept);
 * reduce by a binomial tree rooted at rank 0 that keeps rank order
 * (acc = acc op theirs), then to the root; scan and exscan by a chain
 * (rank r waits for r - 1); reduce_scatter(_block) as a reduce of the
 * whole vector to rank 0 and a scatter; gather(v), scatter(v),
 * allgather(v), alltoall(v/w) linear, every transfer of one process in
 * one round. Data a process contributes are read at the call (the
 * standard lets the call use its buffers from then on). */
#include "rkcoll.h"

#include <stdlib.h>
#include <string.h>

/* the checks every call shares: init, communicator, request */
static int begin(MPI_Comm comm, const char *f, MPI_Request *request,
                 int *rank, int *size)
{
    int err = rkc_begin(comm, f, rank, size);

    if (err == MPI_SUCCESS && request == NULL)
        err = rckmpi_error(comm, MPI_ERR_REQUEST, f);
    return err;
}

static int counts_check(MPI_Comm comm, const char *f, const int counts[],
                        const int displs[], int n, const void *buf,
                        MPI_Datatype type)
{
    if (counts == NULL || displs == NULL)
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    for (int i = 0; i < n; i++) {
        int err = rkc_check_buf(comm, f, buf, counts[i], type);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

static rkc_sched_t *sched(MPI_Comm comm, const char *f, int *err)
{
    rkc_sched_t *s = rkc_sched_new(comm);

    *err = s != NULL ? MPI_SUCCESS : rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    return s;
}

int PMPI_Ibarrier(MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ibarrier";
    int rank, size, err = begin(comm, f, request, &rank, &size);
    rkc_sched_t *s;

    if (err != MPI_SUCCESS || (s = sched(comm, f, &err)) == NULL)
        return err;
    for (int k = 1; k < size; k <<= 1) {
        rkc_sched_send(s, NULL, 0, MPI_BYTE, (rank + k) % size);
        rkc_sched_recv(s, NULL, 0, MPI_BYTE, (rank - k + size) % size);
        rkc_sched_round(s);
    }
    return rkc_sched_start(s, request, f);
}
RK_MPI_ALIAS(Ibarrier);

int PMPI_Ibcast(void *buffer, int count, MPI_Datatype datatype, int root,
                MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ibcast";
    int rank, size, err = begin(comm, f, request, &rank, &size);
    rkc_sched_t *s;

    if (err == MPI_SUCCESS)
        err = rkc_check_buf(comm, f, buffer, count, datatype);
    if (err == MPI_SUCCESS)
        err = rkc_check_root(comm, f, root, size);
    if (err != MPI_SUCCESS || (s = sched(comm, f, &err)) == NULL)
        return err;
    int rel = (rank - root + size) % size, mask = 1;
    while (mask < size && !(rel & mask))
        mask <<= 1;
    if (rel != 0) {
        rkc_sched_recv(s, buffer, count, datatype,
                       (rank - mask + size) % size);
        rkc_sched_round(s);
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rel + mask < size)
            rkc_sched_send(s, buffer, count, datatype, (rank + mask) % size);
    return rkc_sched_start(s, request, f);
}
RK_MPI_ALIAS(Ibcast);

/* ---- reductions ---- */

/* @p sendbuf checked unless MPI_IN_PLACE (or @p send 0), @p recvbuf if
 * @p recv, the operation always */
static int reduce_args(MPI_Comm comm, const char *f, int send,
                       const void *sendbuf, int recv, const void *recvbuf,
                       int count, MPI_Datatype type, MPI_Op op)
{
    int err = rkc_check_buf(comm, f, recv ? recvbuf : NULL,
                            recv ? count : 0, type);

    if (err == MPI_SUCCESS && send && sendbuf != MPI_IN_PLACE)
        err = rkc_check_buf(comm, f, sendbuf, count, type);
    if (err == MPI_SUCCESS && count < 0)
        err = rckmpi_error(comm, MPI_ERR_COUNT, f);
    if (err == MPI_SUCCESS)
        err = rkc_check_op(comm, f, op, type);
    return err;
}

/* acc (count of type, this process's contribution) becomes the reduction
 * of ranks rank .. (rank + subtree) in rank order at rank 0: a binomial
 * tree in which every parent computes acc = acc op child's. */
static void tree_to_zero(rkc_sched_t *s, void *acc, int count,
                         MPI_Datatype type, MPI_Op op, int rank, int size)
{
    void *tmp = NULL;

    for (int mask = 1; mask < size; mask <<= 1) {
        if (rank & mask) {
            rkc_sched_send(s, acc, count, type, rank - mask);
            rkc_sched_round(s);
            return;
        }
        if (rank + mask < size) {
            if (tmp == NULL && (tmp = rkc_sched_tmp(s, count, type)) == NULL)
                return;
            rkc_sched_recv(s, tmp, count, type, rank + mask);
            rkc_sched_reduce(s, op, acc, tmp, count, type); /* acc op tmp */
            rkc_sched_copy(s, tmp, count, type, acc, count, type);
            rkc_sched_round(s);
        }
    }
}

int PMPI_Ireduce(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm,
                 MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ireduce";
    int rank, size, err = begin(comm, f, request, &rank, &size);
    rkc_sched_t *s;
    void *acc;

    if (err == MPI_SUCCESS)
        err = rkc_check_root(comm, f, root, size);
    if (err == MPI_SUCCESS && rank != root && sendbuf == MPI_IN_PLACE)
        err = rckmpi_error(comm, MPI_ERR_BUFFER, f);
    if (err == MPI_SUCCESS)
        err = reduce_args(comm, f, 1, sendbuf, rank == root, recvbuf, count,
                          datatype, op);
    if (err != MPI_SUCCESS || (s = sched(comm, f, &err)) == NULL)
        return err;
    const void *mine = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
    if (rank == 0 && root == 0) {
        acc = recvbuf;
    } else {
        acc = rkc_sched_tmp(s, count, datatype);
    }
    if (acc != NULL) {
        rkc_copy(mine, count, datatype, acc, count, datatype);
        tree_to_zero(s, acc, count, datatype, op, rank, size);
        if (root != 0 && rank == 0) {
            rkc_sched_send(s, acc, count, datatype, root);
            rkc_sched_round(s);
        } else if (root != 0 && rank == root) {
            rkc_sched_recv(s, recvbuf, count, datatype, 0);
            rkc_sched_round(s);
        }
    }
    return rkc_sched_start(s, request, f);
}
RK_MPI_ALIAS(Ireduce);

/* the start of allreduce, scan and exscan, where every rank both sends
 * and receives @p count items: the shared checks, the reduction's
 * arguments and a schedule (NULL with @p err set when one fails) */
static rkc_sched_t *all_begin(const void *sendbuf, void *recvbuf, int count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request *request, const char *f, int *rank,
                              int *size, int *err)
{
    *err = begin(comm, f, request, rank, size);
    if (*err == MPI_SUCCESS)
        *err = reduce_args(comm, f, 1, sendbuf, 1, recvbuf, count, datatype,
                           op);
    return *err == MPI_SUCCESS ? sched(comm, f, err) : NULL;
}

/* recursive doubling over pof2 ranks; the first 2 * rem ranks fold in
 * pairs (even into odd) first so that rank order holds */
static void iallreduce_steps(rkc_sched_t *s, void *buf, void *tmp, int count,
                             MPI_Datatype type, MPI_Op op, int rank,
                             int size)
{
    int pof2 = 1, rem, newrank;

    while (pof2 * 2 <= size)
        pof2 *= 2;
    rem = size - pof2;
    if (rank < 2 * rem) {
        if (rank % 2 == 0) {
            rkc_sched_send(s, buf, count, type, rank + 1);
            rkc_sched_round(s);
            rkc_sched_recv(s, buf, count, type, rank + 1);
            rkc_sched_round(s);
            return;
        }
        rkc_sched_recv(s, tmp, count, type, rank - 1);
        rkc_sched_reduce(s, op, tmp, buf, count, type); /* theirs op mine */
        rkc_sched_round(s);
        newrank = rank / 2;
    } else {
        newrank = rank - rem;
    }
    for (int mask = 1; mask < pof2; mask <<= 1) {
        int pn = newrank ^ mask, peer = pn < rem ? pn * 2 + 1 : pn + rem;
        rkc_sched_send(s, buf, count, type, peer);
        rkc_sched_recv(s, tmp, count, type, peer);
        if (pn < newrank) {
            rkc_sched_reduce(s, op, tmp, buf, count, type);
        } else {
            rkc_sched_reduce(s, op, buf, tmp, count, type);
            rkc_sched_copy(s, tmp, count, type, buf, count, type);
        }
        rkc_sched_round(s);
    }
    if (rank < 2 * rem) {
        rkc_sched_send(s, buf, count, type, rank - 1);
        rkc_sched_round(s);
    }
}

int PMPI_Iallreduce(const void *sendbuf, void *recvbuf, int count,
                    MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                    MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Iallreduce";
    int rank, size, err;
    rkc_sched_t *s = all_begin(sendbuf, recvbuf, count, datatype, op, comm,
                               request, f, &rank, &size, &err);

    if (s == NULL)
        return err;
    void *tmp = rkc_sched_tmp(s, count, datatype);
    if (tmp != NULL) {
        if (sendbuf != MPI_IN_PLACE)
            rkc_copy(sendbuf, count, datatype, recvbuf, count, datatype);
        iallreduce_steps(s, recvbuf, tmp, count, datatype, op, rank, size);
    }
    return rkc_sched_start(s, request, f);
}
RK_MPI_ALIAS(Iallreduce);

/* reduce the whole vector (total items) to rank 0, then rank 0 sends
 * counts[i] items from displs[i] to rank i */
static int ireduce_scatter(const void *sendbuf, void *recvbuf,
                           const int counts[], MPI_Datatype type, MPI_Op op,
                           MPI_Comm comm, MPI_Request *request, int rank,
                           int size, const char *f)
{
    int err, total = 0;
    rkc_sched_t *s;
    int *displs = malloc((size_t)size * sizeof(int));

    if (displs == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    for (int i = 0; i < size; i++) {
        displs[i] = total;
        total += counts[i];
    }
    err = sendbuf == MPI_IN_PLACE
              ? MPI_SUCCESS
              : rkc_check_buf(comm, f, sendbuf, total, type);
    if (err != MPI_SUCCESS || (s = sched(comm, f, &err)) == NULL) {
        free(displs);
        return err;
    }
    void *acc = rkc_sched_tmp(s, total, type);
    if (acc != NULL) {
        rkc_copy(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, total, type, acc,
                 total, type);
        tree_to_zero(s, acc, total, type, op, rank, size);
        if (rank == 0) {
            for (int i = 1; i < size; i++)
                rkc_sched_send(s, rkc_at(acc, displs[i], type), counts[i],
                               type, i);
            rkc_sched_copy(s, acc, counts[0], type, recvbuf, counts[0], type);
        } else {
            rkc_sched_recv(s, recvbuf, counts[rank], type, 0);
        }
    }
    free(displs);
    return rkc_sched_start(s, request, f);
}

int PMPI_Ireduce_scatter_block(const void *sendbuf, void *recvbuf,
                               int recvcount, MPI_Datatype datatype,
                               MPI_Op op, MPI_Comm comm,
                               MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ireduce_scatter_block";
    int rank, size, err = begin(comm, f, request, &rank, &size);

    if (err == MPI_SUCCESS)
        err = reduce_args(comm, f, 1, sendbuf, 1, recvbuf, recvcount,
                          datatype, op);
    if (err != MPI_SUCCESS)
        return err;
    int *counts = malloc((size_t)size * sizeof(int));
    if (counts == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    for (int i = 0; i < size; i++)
        counts[i] = recvcount;
    err = ireduce_scatter(sendbuf, recvbuf, counts, datatype, op, comm,
                          request, rank, size, f);
    free(counts);
    return err;
}
RK_MPI_ALIAS(Ireduce_scatter_block);

int PMPI_Ireduce_scatter(const void *sendbuf, void *recvbuf,
                         const int recvcounts[], MPI_Datatype datatype,
                         MPI_Op op, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ireduce_scatter";
    int rank, size, err = begin(comm, f, request, &rank, &size);

    if (err == MPI_SUCCESS && recvcounts == NULL)
        err = rckmpi_error(comm, MPI_ERR_ARG, f);
    for (int i = 0; err == MPI_SUCCESS && i < size; i++)
        if (recvcounts[i] < 0)
            err = rckmpi_error(comm, MPI_ERR_COUNT, f);
    if (err == MPI_SUCCESS)
        err = reduce_args(comm, f, 0, sendbuf, 1, recvbuf, recvcounts[rank],
                          datatype, op);
    if (err != MPI_SUCCESS)
        return err;
    return ireduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm,
                           request, rank, size, f);
}
RK_MPI_ALIAS(Ireduce_scatter);

int PMPI_Iscan(const void *sendbuf, void *recvbuf, int count,
               MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
               MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Iscan";
    int rank, size, err;
    rkc_sched_t *s = all_begin(sendbuf, recvbuf, count, datatype, op, comm,
                               request, f, &rank, &size, &err);

    if (s == NULL)
        return err;
    if (sendbuf != MPI_IN_PLACE)
        rkc_copy(sendbuf, count, datatype, recvbuf, count, datatype);
    if (rank > 0) {
        void *tmp = rkc_sched_tmp(s, count, datatype);
        if (tmp != NULL) {
            rkc_sched_recv(s, tmp, count, datatype, rank - 1);
            /* x0..x(r-1) op x(r) */
            rkc_sched_reduce(s, op, tmp, recvbuf, count, datatype);
            rkc_sched_round(s);
        }
    }
    if (rank < size - 1)
        rkc_sched_send(s, recvbuf, count, datatype, rank + 1);
    return rkc_sched_start(s, request, f);
}
RK_MPI_ALIAS(Iscan);

int PMPI_Iexscan(const void *sendbuf, void *recvbuf, int count,
                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                 MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Iexscan";
    int rank, size, err;
    rkc_sched_t *s = all_begin(sendbuf, recvbuf, count, datatype, op, comm,
                               request, f, &rank, &size, &err);

    if (s == NULL)
        return err;
    void *mine = rkc_sched_tmp(s, count, datatype);
    if (mine != NULL) {
        rkc_copy(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, datatype,
                 mine, count, datatype);
        if (rank > 0) {
            rkc_sched_recv(s, recvbuf, count, datatype, rank - 1);
            /* what goes on: x0..x(r-1) op x(r) */
            rkc_sched_reduce(s, op, recvbuf, mine, count, datatype);
            rkc_sched_round(s);
        }
        if (rank < size - 1)
            rkc_sched_send(s, mine, count, datatype, rank + 1);
    }
    return rkc_sched_start(s, request, f);
}
RK_MPI_ALIAS(Iexscan);

/* ---- gather, scatter, allgather ---- */

/* gatherv and scatterv are one pattern with the direction turned round:
 * each rank has one block (@p one: the send side of a gather, the
 * receive side of a scatter) and the root has the vector of blocks (@p v)
 * that the others' blocks come into (@p gather) or go out of */
static int rooted_v(int gather, const void *one, int onecount,
                    MPI_Datatype onetype, const void *v, const int vcounts[],
                    const int displs[], MPI_Datatype vtype, int root,
                    MPI_Comm comm, MPI_Request *request, const char *f)
{
    int rank, size, err = begin(comm, f, request, &rank, &size);
    rkc_sched_t *s;

    if (err == MPI_SUCCESS)
        err = rkc_check_root(comm, f, root, size);
    if (err == MPI_SUCCESS && rank == root)
        err = counts_check(comm, f, vcounts, displs, size, v, vtype);
    if (err == MPI_SUCCESS && (rank != root || one != MPI_IN_PLACE))
        err = rkc_check_buf(comm, f, one == MPI_IN_PLACE ? NULL : one,
                            onecount, onetype);
    if (err != MPI_SUCCESS || (s = sched(comm, f, &err)) == NULL)
        return err;
    if (rank == root) {
        for (int i = 0; i < size; i++) {
            if (i == root)
                continue;
            if (gather)
                rkc_sched_recv(s, rkc_at(v, displs[i], vtype), vcounts[i],
                               vtype, i);
            else
                rkc_sched_send(s, rkc_at(v, displs[i], vtype), vcounts[i],
                               vtype, i);
        }
        if (one != MPI_IN_PLACE) {
            if (gather)
                rkc_copy(one, onecount, onetype,
                         rkc_at(v, displs[root], vtype), vcounts[root],
                         vtype);
            else
                rkc_copy(rkc_at(v, displs[root], vtype), vcounts[root],
                         vtype, (void *)one, onecount, onetype);
        }
    } else if (gather) {
        rkc_sched_send(s, one, onecount, onetype, root);
    } else {
        rkc_sched_recv(s, (void *)one, onecount, onetype, root);
    }
    return rkc_sched_start(s, request, f);
}

/* counts and displacements of blocks of @p count items: n of each */
static int *uniform(int n, int count)
{
    int *a = malloc((size_t)(2 * n) * sizeof(int));

    if (a != NULL)
        for (int i = 0; i < n; i++) {
            a[i] = count;
            a[n + i] = i * count;
        }
    return a;
}

/* gather and scatter as rooted_v with @p vcount items in every block;
 * what the v form finds wrong it reports under its own name @p vf */
static int rooted_uniform(int gather, const void *one, int onecount,
                          MPI_Datatype onetype, const void *v, int vcount,
                          MPI_Datatype vtype, int root, MPI_Comm comm,
                          MPI_Request *request, const char *f, const char *vf)
{
    int rank, size, err = begin(comm, f, request, &rank, &size), *cd;

    if (err == MPI_SUCCESS)
        err = rkc_check_root(comm, f, root, size);
    if (err != MPI_SUCCESS)
        return err;
    if ((cd = uniform(size, vcount)) == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    err = rooted_v(gather, one, onecount, onetype, v, cd, cd + size, vtype,
                   root, comm, request, vf);
    free(cd);
    return err;
}

int PMPI_Igatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, const int recvcounts[], const int displs[],
                  MPI_Datatype recvtype, int root, MPI_Comm comm,
                  MPI_Request *request)
{
    RK_MPI_GUARD;
    return rooted_v(1, sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                    displs, recvtype, root, comm, request, "MPI_Igatherv");
}
RK_MPI_ALIAS(Igatherv);

int PMPI_Igather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return rooted_uniform(1, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                          recvtype, root, comm, request, "MPI_Igather",
                          "MPI_Igatherv");
}
RK_MPI_ALIAS(Igather);

int PMPI_Iscatterv(const void *sendbuf, const int sendcounts[],
                   const int displs[], MPI_Datatype sendtype, void *recvbuf,
                   int recvcount, MPI_Datatype recvtype, int root,
                   MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return rooted_v(0, recvbuf, recvcount, recvtype, sendbuf, sendcounts,
                    displs, sendtype, root, comm, request, "MPI_Iscatterv");
}
RK_MPI_ALIAS(Iscatterv);

int PMPI_Iscatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return rooted_uniform(0, recvbuf, recvcount, recvtype, sendbuf, sendcount,
                          sendtype, root, comm, request, "MPI_Iscatter",
                          "MPI_Iscatterv");
}
RK_MPI_ALIAS(Iscatter);

int PMPI_Iallgatherv(const void *sendbuf, int sendcount,
                     MPI_Datatype sendtype, void *recvbuf,
                     const int recvcounts[], const int displs[],
                     MPI_Datatype recvtype, MPI_Comm comm,
                     MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Iallgatherv";
    int rank, size, err = begin(comm, f, request, &rank, &size);
    rkc_sched_t *s;

    if (err == MPI_SUCCESS)
        err = counts_check(comm, f, recvcounts, displs, size, recvbuf,
                           recvtype);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        err = rkc_check_buf(comm, f, sendbuf, sendcount, sendtype);
    if (err != MPI_SUCCESS || (s = sched(comm, f, &err)) == NULL)
        return err;
    void *mine = rkc_at(recvbuf, displs[rank], recvtype);
    if (sendbuf != MPI_IN_PLACE)
        rkc_copy(sendbuf, sendcount, sendtype, mine, recvcounts[rank],
                 recvtype);
    for (int i = 1; i < size; i++) {
        int to = (rank + i) % size, from = (rank - i + size) % size;
        rkc_sched_recv(s, rkc_at(recvbuf, displs[from], recvtype),
                       recvcounts[from], recvtype, from);
        rkc_sched_send(s, mine, recvcounts[rank], recvtype, to);
    }
    return rkc_sched_start(s, request, f);
}
RK_MPI_ALIAS(Iallgatherv);

int PMPI_Iallgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, int recvcount, MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Iallgather";
    int rank, size, err = begin(comm, f, request, &rank, &size), *cd;

    if (err != MPI_SUCCESS)
        return err;
    if ((cd = uniform(size, recvcount)) == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    err = PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, cd,
                           cd + size, recvtype, comm, request);
    free(cd);
    return err;
}
RK_MPI_ALIAS(Iallgather);

/* ---- all-to-all ---- */

/* block i of the send side: (buf, count, type) at byte displacement */
static int ialltoallw(const void *sendbuf, const int sendcounts[],
                      const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
                      void *recvbuf, const int recvcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                      MPI_Comm comm, MPI_Request *request, int rank, int size,
                      const char *f)
{
    int err;
    rkc_sched_t *s = sched(comm, f, &err);

    if (s == NULL)
        return err;
    for (int i = 0; i < size; i++) {
        int to = (rank + i) % size, from = (rank - i + size) % size;
        const void *sb;
        int sc;
        MPI_Datatype st;
        if (sendbuf == MPI_IN_PLACE) {
            /* the block for @p to leaves from a copy taken now */
            sc = recvcounts[to];
            st = recvtypes[to];
            void *t = rkc_sched_tmp(s, sc, st);
            if (t == NULL)
                break;
            rkc_copy((char *)recvbuf + rdispls[to], sc, st, t, sc, st);
            sb = t;
        } else {
            sb = (const char *)sendbuf + sdispls[to];
            sc = sendcounts[to];
            st = sendtypes[to];
        }
        if (i == 0) {
            if (sendbuf != MPI_IN_PLACE)
                rkc_copy(sb, sc, st, (char *)recvbuf + rdispls[rank],
                         recvcounts[rank], recvtypes[rank]);
            continue;
        }
        rkc_sched_recv(s, (char *)recvbuf + rdispls[from], recvcounts[from],
                       recvtypes[from], from);
        rkc_sched_send(s, sb, sc, st, to);
    }
    return rkc_sched_start(s, request, f);
}

static int a2a_check(MPI_Comm comm, const char *f, const void *buf,
                     const int counts[], const void *displs,
                     const MPI_Datatype *types, int n)
{
    if (counts == NULL || displs == NULL || types == NULL)
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    for (int i = 0; i < n; i++) {
        int err = rkc_check_buf(comm, f, buf, counts[i], types[i]);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

/* alltoall and alltoallv as alltoallw: byte displacements, one type */
static int a2a_as_w(const void *sendbuf, const int scounts[],
                    const int sdispls[], MPI_Datatype stype, void *recvbuf,
                    const int rcounts[], const int rdispls[],
                    MPI_Datatype rtype, MPI_Comm comm, MPI_Request *request,
                    const char *f)
{
    int rank, size, err = begin(comm, f, request, &rank, &size);
    MPI_Aint *sd = NULL, *rd = NULL, lb, sext = 0, rext;
    MPI_Datatype *st = NULL, *rt = NULL;

    if (err != MPI_SUCCESS)
        return err;
    if (rcounts == NULL || rdispls == NULL ||
        (sendbuf != MPI_IN_PLACE && (scounts == NULL || sdispls == NULL)))
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    sd = malloc((size_t)size * sizeof(*sd));
    rd = malloc((size_t)size * sizeof(*rd));
    st = malloc((size_t)size * sizeof(*st));
    rt = malloc((size_t)size * sizeof(*rt));
    if (sd == NULL || rd == NULL || st == NULL || rt == NULL) {
        err = rckmpi_error(comm, MPI_ERR_NO_MEM, f);
        goto out;
    }
    for (int i = 0; i < size; i++) {
        st[i] = stype;
        rt[i] = rtype;
    }
    if ((err = a2a_check(comm, f, recvbuf, rcounts, rdispls, rt, size)) !=
            MPI_SUCCESS ||
        (sendbuf != MPI_IN_PLACE &&
         (err = a2a_check(comm, f, sendbuf, scounts, sdispls, st, size)) !=
             MPI_SUCCESS))
        goto out;
    if (sendbuf != MPI_IN_PLACE)
        PMPI_Type_get_extent(stype, &lb, &sext);
    PMPI_Type_get_extent(rtype, &lb, &rext);
    for (int i = 0; i < size; i++) {
        sd[i] = sendbuf != MPI_IN_PLACE ? sdispls[i] * sext : 0;
        rd[i] = rdispls[i] * rext;
    }
    err = ialltoallw(sendbuf, scounts, sd, st, recvbuf, rcounts, rd, rt, comm,
                     request, rank, size, f);
out:
    free(sd);
    free(rd);
    free(st);
    free(rt);
    return err;
}

int PMPI_Ialltoallv(const void *sendbuf, const int sendcounts[],
                    const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                    const int recvcounts[], const int rdispls[],
                    MPI_Datatype recvtype, MPI_Comm comm,
                    MPI_Request *request)
{
    RK_MPI_GUARD;
    return a2a_as_w(sendbuf, sendcounts, sdispls, sendtype, recvbuf,
                    recvcounts, rdispls, recvtype, comm, request,
                    "MPI_Ialltoallv");
}
RK_MPI_ALIAS(Ialltoallv);

int PMPI_Ialltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ialltoall";
    int rank, size, err = begin(comm, f, request, &rank, &size);
    int *s = NULL, *r = NULL;

    if (err != MPI_SUCCESS)
        return err;
    s = uniform(size, sendcount);
    r = uniform(size, recvcount);
    if (s == NULL || r == NULL)
        err = rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    else
        err = a2a_as_w(sendbuf, s, s + size, sendtype, recvbuf, r, r + size,
                       recvtype, comm, request, f);
    free(s);
    free(r);
    return err;
}
RK_MPI_ALIAS(Ialltoall);

int PMPI_Ialltoallw(const void *sendbuf, const int sendcounts[],
                    const int sdispls[], const MPI_Datatype sendtypes[],
                    void *recvbuf, const int recvcounts[],
                    const int rdispls[], const MPI_Datatype recvtypes[],
                    MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ialltoallw";
    int rank, size, err = begin(comm, f, request, &rank, &size);
    MPI_Aint *sd = NULL, *rd = NULL;

    if (err == MPI_SUCCESS)
        err = a2a_check(comm, f, recvbuf, recvcounts, rdispls, recvtypes,
                        size);
    if (err == MPI_SUCCESS && sendbuf != MPI_IN_PLACE)
        err = a2a_check(comm, f, sendbuf, sendcounts, sdispls, sendtypes,
                        size);
    if (err != MPI_SUCCESS)
        return err;
    sd = malloc((size_t)size * sizeof(*sd));
    rd = malloc((size_t)size * sizeof(*rd));
    if (sd == NULL || rd == NULL) {
        err = rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    } else {
        for (int i = 0; i < size; i++) {
            sd[i] = sendbuf != MPI_IN_PLACE ? sdispls[i] : 0;
            rd[i] = rdispls[i];
        }
        err = ialltoallw(sendbuf, sendcounts, sd, sendtypes, recvbuf,
                         recvcounts, rd, recvtypes, comm, request, rank, size,
                         f);
    }
    free(sd);
    free(rd);
    return err;
}
RK_MPI_ALIAS(Ialltoallw);
