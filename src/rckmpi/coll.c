/* The data-movement collectives on intracommunicators
 * (docs/MPI-COLLECTIVES.md): barrier, broadcast, gather, scatter,
 * allgather, all-to-all and their v/w variants, over the collective
 * context of rckmpi_coll.h. */
#include "rkcoll.h"

#include "rck/config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

static int waitall(int n, MPI_Request *reqs)
{
    return n > 0 ? PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE) : MPI_SUCCESS;
}

/* ---- barrier: dissemination, ceil(log2 p) rounds of zero-byte messages */

int PMPI_Barrier(MPI_Comm comm)
{
    RK_MPI_GUARD;
    int rank, size, err = rkc_begin(comm, "MPI_Barrier", &rank, &size);

    if (err == MPI_SUCCESS && size > 1 && rkc_counter_barrier_ok(comm))
        return rkc_counter_barrier(comm);
    if (err == MPI_SUCCESS && size > 1 && size <= rkc_flat_max())
        return rkc_flat_barrier(comm);
    for (int k = 1; err == MPI_SUCCESS && k < size; k <<= 1) {
        MPI_Request r;
        err = rckmpi_coll_isend(NULL, 0, MPI_BYTE, (rank + k) % size,
                                RKC_TAG_BARRIER, comm, &r);
        if (err == MPI_SUCCESS)
            err = rckmpi_coll_recv(NULL, 0, MPI_BYTE, (rank - k + size) % size,
                                   RKC_TAG_BARRIER, comm, MPI_STATUS_IGNORE);
        if (err == MPI_SUCCESS)
            err = PMPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    return err;
}
RK_MPI_ALIAS(Barrier);

/* ---- broadcast: binomial tree rooted at root (relative ranks), or a
 * k-ary tree (RCK_MPI_BCAST_FANOUT; auto: binary on native) */

int rkc_bcast_fanout(void)
{
    static long fan = -2;

    if (fan == -2)
        fan = rkc_setting_auto("MPI_BCAST_FANOUT");
    if (fan >= 0)
        return (int)fan;
    return rckmpi_coll_host_memory() ? RKC_BCAST_FANOUT_HOST : 0;
}

int rkc_bcast(void *buf, int count, MPI_Datatype type, int root,
              MPI_Comm comm)
{
    return rkc_bcast_tag(buf, count, type, root, comm, RKC_TAG_BCAST);
}

int rkc_bcast_tag(void *buf, int count, MPI_Datatype type, int root,
                  MPI_Comm comm, int tag)
{
    int rank, size, mask = 1, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int rel = (rank - root + size) % size;
    int fan = rkc_bcast_fanout();

    /* from the parent: in a k-ary tree the root (and every inner rank)
     * posts k sends, where the binomial root posts ceil(log2 p) */
    if (fan > 0 && rel > 0)
        err = rckmpi_coll_recv(buf, count, type,
                               ((rel - 1) / fan + root) % size, tag, comm,
                               MPI_STATUS_IGNORE);
    while (fan == 0 && mask < size) {
        if (rel & mask) {
            err = rckmpi_coll_recv(buf, count, type,
                                   (rank - mask + size) % size, tag, comm,
                                   MPI_STATUS_IGNORE);
            break;
        }
        mask <<= 1;
    }
    if (err != MPI_SUCCESS)
        return err;
    return rkc_bcast_children(buf, count, type, tag, root, rel, size, comm);
}

int rkc_bcast_children(const void *buf, int count, MPI_Datatype type,
                       int tag, int root, int rel, int size, MPI_Comm comm)
{
    int fan = rkc_bcast_fanout(), err = MPI_SUCCESS;

    if (fan > 0) {
        for (int k = 1; err == MPI_SUCCESS && k <= fan; k++) {
            int c = rel * fan + k;
            if (c < size)
                err = rckmpi_coll_send(buf, count, type, (c + root) % size,
                                       tag, comm);
        }
        return err;
    }
    int mask = 1;
    while (mask < size && !(rel & mask))
        mask <<= 1;
    for (mask >>= 1; err == MPI_SUCCESS && mask > 0; mask >>= 1)
        if (rel + mask < size)
            err = rckmpi_coll_send(buf, count, type,
                                   (rel + mask + root) % size, tag, comm);
    return err;
}

int PMPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root,
               MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Bcast";
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err == MPI_SUCCESS)
        err = rkc_check_buf(comm, f, buffer, count, datatype);
    if (err == MPI_SUCCESS)
        err = rkc_check_root(comm, f, root, size);
    if (err != MPI_SUCCESS || size == 1)
        return err;
    err = rkc_bcast(buffer, count, datatype, root, comm);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Bcast);

/* ---- gather / scatter: the root posts every transfer at once, the MPB
 * channels move them in parallel */

/* The smallest block a gather's sender sends synchronously
 * (RCK_MPI_GATHER_SYNC; auto: RKC_GATHER_SYNC_HOST on native, never
 * elsewhere). docs/MPI.md, "The gather's large blocks". */
long rkc_gather_sync_min(void)
{
    static long min = -2;

    if (min == -2)
        min = rkc_setting_auto("MPI_GATHER_SYNC");
    if (min >= 0)
        return min;
    return rckmpi_coll_host_memory() ? RKC_GATHER_SYNC_HOST : LONG_MAX;
}

int rkc_gatherv(const void *sendbuf, int scount, MPI_Datatype stype,
                void *recvbuf, const int rcounts[], const int displs[],
                MPI_Datatype rtype, int root, MPI_Comm comm, int tag)
{
    int rank, size, n = 0, err;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (rank != root) {
        /* a large block goes when the root's receive is posted, straight
         * into its buffer: sent eagerly, the senders ran ahead and their
         * blocks of the next gathers went through the root's unexpected
         * queue (a malloc, fresh pages and one more copy each) */
        int tsize;
        PMPI_Type_size(stype, &tsize);
        if (scount > 0 && (long)tsize * scount >= rkc_gather_sync_min())
            return rckmpi_coll_ssend(sendbuf, scount, stype, root, tag, comm);
        return rckmpi_coll_send(sendbuf, scount, stype, root, tag, comm);
    }
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size; i++) {
        char *at = rkc_at(recvbuf, displs[i], rtype);
        if (i == root) {
            if (sendbuf != MPI_IN_PLACE)
                rkc_copy(sendbuf, scount, stype, at, rcounts[i], rtype);
            continue;
        }
        err = rckmpi_coll_irecv(at, rcounts[i], rtype, i, tag, comm,
                                &reqs[n]);
        if (err != MPI_SUCCESS)
            break;
        n++;
    }
    err = waitall(n, reqs);
    free(reqs);
    return err;
}

int rkc_scatterv(const void *sendbuf, const int scounts[], const int displs[],
                 MPI_Datatype stype, void *recvbuf, int rcount,
                 MPI_Datatype rtype, int root, MPI_Comm comm)
{
    int rank, size, n = 0, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (rank != root)
        return rckmpi_coll_recv(recvbuf, rcount, rtype, root,
                                RKC_TAG_SCATTER, comm, MPI_STATUS_IGNORE);
    MPI_Request *reqs = malloc(sizeof *reqs * (size_t)size);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int i = 0; i < size && err == MPI_SUCCESS; i++) {
        const char *at = rkc_at(sendbuf, displs[i], stype);
        if (i == root) {
            if (recvbuf != MPI_IN_PLACE)
                rkc_copy(at, scounts[i], stype, recvbuf, rcount, rtype);
            continue;
        }
        err = rckmpi_coll_isend(at, scounts[i], stype, i, RKC_TAG_SCATTER,
                                comm, &reqs[n]);
        if (err == MPI_SUCCESS)
            n++;
    }
    int werr = waitall(n, reqs);
    free(reqs);
    return err != MPI_SUCCESS ? err : werr;
}

/* The tree's largest block for a gather (@p gather) or a scatter:
 * RCK_MPI_TREE_MAX, or by channel. Every rank reads the same settings, so
 * every rank decides alike. */
static long tree_max(int gather)
{
    static long max = -2;

    if (max == -2)
        max = rkc_setting_auto("MPI_TREE_MAX");
    if (max >= 0)
        return max;
    if (!gather)
        return RKC_TREE_MAX;
    static long gmax = -1; /* the setting read once, not at every call */
    if (gmax < 0)
        gmax = strcmp(rck_config_get("MPI_CHANNEL"), "sccmpb") != 0
                   ? RKC_TREE_MAX_EXT_GATHER
                   : RKC_TREE_MAX;
    return gmax;
}

/* whether a block (the r side if use_r, else the s side: every rank
 * decides on the same size, as MPI makes both sides' sizes equal) is small
 * enough for the binomial tree of a gather (@p gather) or a scatter */
static int tree_block(int gather, int use_r, int rcount, MPI_Datatype rtype,
                      int scount, MPI_Datatype stype)
{
    int tsize;

    PMPI_Type_size(use_r ? rtype : stype, &tsize);
    return (long)tsize * (use_r ? rcount : scount) <= tree_max(gather);
}

/* whether a gather's block (as tree_block decides) goes through the
 * shared window's entries (coll_slot.c) */
static int slot_block(MPI_Comm comm, int use_r, int rcount,
                      MPI_Datatype rtype, int scount, MPI_Datatype stype)
{
    long max = rkc_slot_gather_max(comm);
    int tsize;

    if (max == 0)
        return 0;
    PMPI_Type_size(use_r ? rtype : stype, &tsize);
    return (long)tsize * (use_r ? rcount : scount) <= max;
}

/* uniform counts as v-arguments */
static int *uniform(int size, int count, int **displs)
{
    int *c = malloc(sizeof *c * (size_t)size * 2);

    if (c == NULL)
        return NULL;
    *displs = c + size;
    for (int i = 0; i < size; i++) {
        c[i] = count;
        (*displs)[i] = i * count;
    }
    return c;
}

/* the root's v-arguments: counts non-negative */
static int check_counts(MPI_Comm comm, const char *f, const int *counts,
                        const int *displs, int size)
{
    if (counts == NULL || displs == NULL)
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    for (int i = 0; i < size; i++)
        if (counts[i] < 0)
            return rckmpi_error(comm, MPI_ERR_COUNT, f);
    return MPI_SUCCESS;
}

/* the checks of a rooted collective's buffers (gather: the root receives,
 * and its send side may be MPI_IN_PLACE; scatter: the other way round) */
static int rooted_args(MPI_Comm comm, const char *f, int root, int *rank,
                       int *size, const void *sbuf, int scount,
                       MPI_Datatype stype, const void *rbuf, int rcount,
                       MPI_Datatype rtype, int gather)
{
    int err = rkc_begin(comm, f, rank, size);

    if (err == MPI_SUCCESS)
        err = rkc_check_root(comm, f, root, *size);
    if (err != MPI_SUCCESS)
        return err;
    if (*rank != root) /* one buffer: the one it sends or receives */
        return gather ? rkc_check_buf(comm, f, sbuf, scount, stype)
                      : rkc_check_buf(comm, f, rbuf, rcount, rtype);
    if (sbuf != MPI_IN_PLACE || !gather)
        err = rkc_check_buf(comm, f, sbuf, scount, stype);
    if (err == MPI_SUCCESS && (rbuf != MPI_IN_PLACE || gather))
        err = rkc_check_buf(comm, f, rbuf, rcount, rtype);
    return err;
}

int PMPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                void *recvbuf, int recvcount, MPI_Datatype recvtype, int root,
                MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Gather";
    int rank, size, *displs;
    int err = rooted_args(comm, f, root, &rank, &size, sendbuf, sendcount,
                          sendtype, recvbuf, recvcount, recvtype, 1);

    if (err != MPI_SUCCESS)
        return err;
    if (size > 1 && slot_block(comm, rank == root && sendbuf == MPI_IN_PLACE,
                               recvcount, recvtype, sendcount, sendtype)) {
        err = rkc_slot_gather(sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, recvtype, root, comm);
        return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
    }
    if (size > 2 && tree_block(1, rank == root && sendbuf == MPI_IN_PLACE,
                               recvcount, recvtype, sendcount, sendtype)) {
        err = rkc_tree_gather(sendbuf, sendcount, sendtype, recvbuf,
                              recvcount, recvtype, root, comm);
        return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
    }
    int *counts = uniform(size, recvcount, &displs);
    if (counts == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    err = rkc_gatherv(sendbuf, sendcount, sendtype, recvbuf, counts, displs,
                      recvtype, root, comm, RKC_TAG_GATHER);
    free(counts);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Gather);

int PMPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, const int recvcounts[], const int displs[],
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Gatherv";
    int rank, size;
    int err = rooted_args(comm, f, root, &rank, &size, sendbuf, sendcount,
                          sendtype, recvbuf, 0, recvtype, 1);

    if (err == MPI_SUCCESS && rank == root)
        err = check_counts(comm, f, recvcounts, displs, size);
    if (err != MPI_SUCCESS)
        return err;
    err = rkc_gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                      displs, recvtype, root, comm, RKC_TAG_GATHER);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Gatherv);

int PMPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 void *recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Scatter";
    int rank, size, *displs;
    int err = rooted_args(comm, f, root, &rank, &size, sendbuf, sendcount,
                          sendtype, recvbuf, recvcount, recvtype, 0);

    if (err != MPI_SUCCESS)
        return err;
    if (size > 2 && tree_block(0, rank != root, recvcount, recvtype,
                               sendcount, sendtype)) {
        err = rkc_tree_scatter(sendbuf, sendcount, sendtype, recvbuf,
                               recvcount, recvtype, root, comm);
        return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
    }
    int *counts = uniform(size, sendcount, &displs);
    if (counts == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    err = rkc_scatterv(sendbuf, counts, displs, sendtype, recvbuf, recvcount,
                       recvtype, root, comm);
    free(counts);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Scatter);

int PMPI_Scatterv(const void *sendbuf, const int sendcounts[],
                  const int displs[], MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, int root,
                  MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Scatterv";
    int rank, size;
    int err = rooted_args(comm, f, root, &rank, &size, sendbuf, 0, sendtype,
                          recvbuf, recvcount, recvtype, 0);

    if (err == MPI_SUCCESS && rank == root)
        err = check_counts(comm, f, sendcounts, displs, size);
    if (err != MPI_SUCCESS)
        return err;
    err = rkc_scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf,
                       recvcount, recvtype, root, comm);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Scatterv);

/* ---- allgather: a ring, p-1 steps, each rank forwards the block it
 * received last (every link busy, no root bottleneck) */

static int ring_allgatherv(void *recvbuf, const int counts[],
                           const int displs[], MPI_Datatype type,
                           MPI_Comm comm)
{
    int rank, size, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int right = (rank + 1) % size, left = (rank - 1 + size) % size;
    for (int s = 0; s < size - 1 && err == MPI_SUCCESS; s++) {
        int sb = (rank - s + size) % size, rb = (rank - s - 1 + size) % size;
        MPI_Request r[2];
        err = rckmpi_coll_irecv(rkc_at(recvbuf, displs[rb], type), counts[rb],
                                type, left, RKC_TAG_ALLGATHER, comm, &r[0]);
        if (err != MPI_SUCCESS)
            break;
        err = rckmpi_coll_isend(rkc_at(recvbuf, displs[sb], type), counts[sb],
                                type, right, RKC_TAG_ALLGATHER, comm, &r[1]);
        err = err == MPI_SUCCESS ? waitall(2, r) : err;
    }
    return err;
}

static int allgather_args(MPI_Comm comm, const char *f, int *rank, int *size,
                          const void *sbuf, int scount, MPI_Datatype stype,
                          const void *rbuf, int rcount, MPI_Datatype rtype)
{
    int err = rkc_begin(comm, f, rank, size);

    if (err == MPI_SUCCESS && sbuf != MPI_IN_PLACE)
        err = rkc_check_buf(comm, f, sbuf, scount, stype);
    if (err == MPI_SUCCESS)
        err = rkc_check_buf(comm, f, rbuf, rcount, rtype);
    return err;
}

int PMPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                    void *recvbuf, const int recvcounts[], const int displs[],
                    MPI_Datatype recvtype, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Allgatherv";
    int rank, size;
    int err = allgather_args(comm, f, &rank, &size, sendbuf, sendcount,
                             sendtype, recvbuf, 0, recvtype);

    if (err == MPI_SUCCESS)
        err = check_counts(comm, f, recvcounts, displs, size);
    if (err != MPI_SUCCESS)
        return err;
    if (sendbuf != MPI_IN_PLACE)
        rkc_copy(sendbuf, sendcount, sendtype,
                 rkc_at(recvbuf, displs[rank], recvtype), recvcounts[rank],
                 recvtype);
    err = ring_allgatherv(recvbuf, recvcounts, displs, recvtype, comm);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Allgatherv);

int PMPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                   void *recvbuf, int recvcount, MPI_Datatype recvtype,
                   MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Allgather";
    int rank, size, *displs;
    int err = allgather_args(comm, f, &rank, &size, sendbuf, sendcount,
                             sendtype, recvbuf, recvcount, recvtype);

    if (err != MPI_SUCCESS)
        return err;
    int *counts = uniform(size, recvcount, &displs);
    if (counts == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    if (sendbuf != MPI_IN_PLACE)
        rkc_copy(sendbuf, sendcount, sendtype,
                 rkc_at(recvbuf, displs[rank], recvtype), recvcount, recvtype);
    err = ring_allgatherv(recvbuf, counts, displs, recvtype, comm);
    free(counts);
    return err == MPI_SUCCESS ? err : rckmpi_error(comm, err, f);
}
RK_MPI_ALIAS(Allgather);
