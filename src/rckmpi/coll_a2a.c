/* All-to-all (docs/MPI-COLLECTIVES.md): every rank posts its p-1 receives
 * and sends at once, in an order shifted by its rank so that the MPB
 * channels of all receivers are busy from the start. */
#include "rkcoll.h"

#include <stdlib.h>
#include <string.h>

/* one exchange: block i of type stypes[i] / rtypes[i] at byte offsets */
struct a2a {
    const char *sbuf;
    char *rbuf;
    const int *scounts, *sdispls, *rcounts, *rdispls;
    const MPI_Datatype *stypes, *rtypes;
    int bytes_displs; /* displacements in bytes (w) or items (v) */
};

static const char *sblock(const struct a2a *a, int i)
{
    return a->bytes_displs ? a->sbuf + a->sdispls[i]
                           : rkc_at(a->sbuf, a->sdispls[i], a->stypes[i]);
}

static char *rblock(const struct a2a *a, int i)
{
    return a->bytes_displs ? a->rbuf + a->rdispls[i]
                           : rkc_at(a->rbuf, a->rdispls[i], a->rtypes[i]);
}

static int exchange(const struct a2a *a, MPI_Comm comm)
{
    int rank, size, n = 0, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)size * 2);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int k = 1; k < size && err == MPI_SUCCESS; k++) {
        int src = (rank - k + size) % size;
        err = rckmpi_coll_irecv(rblock(a, src), a->rcounts[src],
                                a->rtypes[src], src, RKC_TAG_ALLTOALL, comm,
                                &reqs[n]);
        n += err == MPI_SUCCESS;
    }
    for (int k = 1; k < size && err == MPI_SUCCESS; k++) {
        int dst = (rank + k) % size;
        err = rckmpi_coll_isend(sblock(a, dst), a->scounts[dst],
                                a->stypes[dst], dst, RKC_TAG_ALLTOALL, comm,
                                &reqs[n]);
        n += err == MPI_SUCCESS;
    }
    rkc_copy(sblock(a, rank), a->scounts[rank], a->stypes[rank],
             rblock(a, rank), a->rcounts[rank], a->rtypes[rank]);
    int werr = n > 0 ? PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
    free(reqs);
    return err != MPI_SUCCESS ? err : werr;
}

/* MPI_IN_PLACE: the receive buffer is also what is sent; send from a copy
 * (the receive layout describes both) */
static int run(struct a2a *a, MPI_Comm comm, int size, const char *f)
{
    void *copy = NULL;
    int err;

    if (a->sbuf == MPI_IN_PLACE) {
        MPI_Aint hi = 0;
        for (int i = 0; i < size; i++) {
            MPI_Aint lb, ext, tlb, text;
            PMPI_Type_get_extent(a->rtypes[i], &lb, &ext);
            PMPI_Type_get_true_extent(a->rtypes[i], &tlb, &text);
            MPI_Aint end = (rblock(a, i) - a->rbuf) + tlb + text +
                           (a->rcounts[i] > 0 ? (a->rcounts[i] - 1) * ext : 0);
            if (a->rcounts[i] > 0 && end > hi)
                hi = end;
        }
        copy = malloc((size_t)hi + 1);
        if (copy == NULL)
            return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
        memcpy(copy, a->rbuf, (size_t)hi);
        a->sbuf = copy;
        a->scounts = a->rcounts;
        a->sdispls = a->rdispls;
        a->stypes = a->rtypes;
    }
    err = exchange(a, comm);
    free(copy);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}

static int check_side(MPI_Comm comm, const char *f, const void *buf,
                      const int *counts, const int *displs,
                      const MPI_Datatype *types, int size)
{
    if (counts == NULL || displs == NULL || types == NULL)
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    for (int i = 0; i < size; i++) {
        int err = rkc_check_buf(comm, f, buf, counts[i], types[i]);
        if (err != MPI_SUCCESS)
            return err;
    }
    return MPI_SUCCESS;
}

static int a2a_checked(struct a2a *a, MPI_Comm comm, const char *f)
{
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err == MPI_SUCCESS && a->sbuf != MPI_IN_PLACE)
        err = check_side(comm, f, a->sbuf, a->scounts, a->sdispls, a->stypes,
                         size);
    if (err == MPI_SUCCESS)
        err = check_side(comm, f, a->rbuf, a->rcounts, a->rdispls, a->rtypes,
                         size);
    return err == MPI_SUCCESS ? run(a, comm, size, f) : err;
}

/* the same count/type for every block, as the v/w arguments */
static int a2a_uniform(const void *sendbuf, int scount, MPI_Datatype stype,
                       void *recvbuf, int rcount, MPI_Datatype rtype,
                       MPI_Comm comm, const char *f)
{
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err != MPI_SUCCESS)
        return err;
    int *v = malloc(sizeof *v * (size_t)size * 4);
    MPI_Datatype *t = malloc(sizeof *t * (size_t)size * 2);
    if (v == NULL || t == NULL) {
        free(v);
        free(t);
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    }
    for (int i = 0; i < size; i++) {
        v[i] = scount;
        v[size + i] = i * scount;
        v[2 * size + i] = rcount;
        v[3 * size + i] = i * rcount;
        t[i] = stype;
        t[size + i] = rtype;
    }
    struct a2a a = {sendbuf, recvbuf, v, v + size, v + 2 * size, v + 3 * size,
                    t, t + size, 0};
    err = a2a_checked(&a, comm, f);
    free(v);
    free(t);
    return err;
}

int PMPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                  void *recvbuf, int recvcount, MPI_Datatype recvtype,
                  MPI_Comm comm)
{
    RK_MPI_GUARD;
    return a2a_uniform(sendbuf, sendcount, sendtype, recvbuf, recvcount,
                       recvtype, comm, "MPI_Alltoall");
}
RK_MPI_ALIAS(Alltoall);

int PMPI_Alltoallv(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int rdispls[],
                   MPI_Datatype recvtype, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Alltoallv";
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err != MPI_SUCCESS)
        return err;
    MPI_Datatype *t = malloc(sizeof *t * (size_t)size * 2);
    if (t == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    for (int i = 0; i < size; i++) {
        t[i] = sendtype;
        t[size + i] = recvtype;
    }
    struct a2a a = {sendbuf, recvbuf, sendcounts, sdispls, recvcounts,
                    rdispls, t, t + size, 0};
    err = a2a_checked(&a, comm, f);
    free(t);
    return err;
}
RK_MPI_ALIAS(Alltoallv);

int PMPI_Alltoallw(const void *sendbuf, const int sendcounts[],
                   const int sdispls[], const MPI_Datatype sendtypes[],
                   void *recvbuf, const int recvcounts[], const int rdispls[],
                   const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    RK_MPI_GUARD;
    struct a2a a = {sendbuf, recvbuf, sendcounts, sdispls, recvcounts,
                    rdispls, sendtypes, recvtypes, 1};

    return a2a_checked(&a, comm, "MPI_Alltoallw");
}
RK_MPI_ALIAS(Alltoallw);
