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

#include <stdint.h>
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

/* ---- the counter barrier (MPI_COMM_WORLD on native; docs/MPI.md, "The
 * barrier's arrivals"): every rank increments one GIC atomic counter
 * (rckmpi_coll_counter) instead of sending to a root that wakes for each
 * arrival; the rank whose increment completes the count (the last to
 * arrive) sends the release down MPI_Bcast's tree rooted at itself. The
 * others do not know that root: each receives the release from any rank
 * (the payload names the root, so that it can find its own children in
 * the tree) and forwards it. The counter is never reset: after barrier k
 * it holds k * p (mod 2^32), and every rank counts k. Only one
 * communicator can own the counter, MPI_COMM_WORLD, and only when no
 * process can be spawned (MPI_UNIVERSE_SIZE is the world's size: spawned
 * processes would have their own MPI_COMM_WORLD on the same chip). */

int rkc_counter_barrier_ok(MPI_Comm comm)
{
    static int ok = -1;

    if (comm != MPI_COMM_WORLD)
        return 0;
    if (ok < 0) {
        long set = rkc_setting_auto("MPI_BARRIER_COUNTER");
        int size;
        PMPI_Comm_size(MPI_COMM_WORLD, &size);
        ok = (set > 0 || (set < 0 && rckmpi_coll_host_memory())) &&
             size > 1 && rckmpi_coll_universe() == size &&
             rckmpi_coll_counter(NULL) == 0;
    }
    return ok;
}

/* forward the barrier's release (the root's rank) down the tree */
static int release(int root, int rel, int size, MPI_Comm comm)
{
    return rkc_bcast_children(&root, 1, MPI_INT, RKC_TAG_BARRIER, root, rel,
                              size, comm);
}

/* operations on the counter so far (barriers and allreduces on
 * MPI_COMM_WORLD, which every rank calls in the same order) */
static uint32_t epoch;

/* this rank's arrival: 1 if it is the last one, 0 if not, -1 if the HAL
 * failed */
static int arrive(int size)
{
    int32_t old;
    uint32_t k = ++epoch;

    if (rckmpi_coll_counter(&old) != 0)
        return -1;
    return (uint32_t)old + 1u == k * (uint32_t)size;
}

int rkc_counter_barrier(MPI_Comm comm)
{
    int rank, size, root;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int last = arrive(size);
    if (last < 0)
        return MPI_ERR_INTERN;
    if (last)
        return release(rank, 0, size, comm);
    MPI_Status st;
    /* not the last: the release comes once every rank has arrived and
     * it has travelled down the tree (docs/MPI.md, "The release's
     * sleepers") */
    rckmpi_coll_wait_long(1);
    int err = rckmpi_coll_recv(&root, 1, MPI_INT, MPI_ANY_SOURCE,
                               RKC_TAG_BARRIER, comm, &st);
    rckmpi_coll_wait_long(0);
    if (err != MPI_SUCCESS)
        return err;
    if (root < 0 || root >= size || root == rank)
        return MPI_ERR_INTERN;
    return release(root, (rank - root + size) % size, size, comm);
}

/* forward @p msg (@p len bytes: the root's rank, then the result) from
 * @p rel relative to the root to its children in MPI_Bcast's tree */
static int release_msg(const char *msg, int len, int root, int rel,
                       int size, MPI_Comm comm)
{
    return rkc_bcast_children(msg, len, MPI_BYTE, RKC_TAG_ALLREDUCE, root,
                              rel, size, comm);
}

int rkc_counter_allreduce_ok(MPI_Comm comm, int count, MPI_Datatype type)
{
    int psize;

    if (!rkc_counter_barrier_ok(comm) || rckmpi_coll_slot_bytes() == 0)
        return 0;
    PMPI_Pack_size(count, type, comm, &psize);
    return (size_t)psize <= rckmpi_coll_slot_bytes();
}

/* The counter allreduce: every rank packs its vector into its slot of the
 * shared window and arrives at the counter; the last to arrive reads
 * every slot, folds them in rank order (non-commutative operations are
 * right) and sends the root's rank and the result down the tree rooted at
 * itself, as the counter barrier's release. A slot is written again only
 * after its rank left the operation, that is after the last arrival read
 * it. recvbuf holds this rank's vector on entry, the result on return. */
int rkc_counter_allreduce(void *recvbuf, int count, MPI_Datatype type,
                          MPI_Op op, MPI_Comm comm)
{
    int rank, size, psize, pos = 0, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    PMPI_Pack_size(count, type, comm, &psize);
    int len = (int)sizeof(int) + psize;
    char *msg = malloc((size_t)len);
    if (msg == NULL)
        return MPI_ERR_NO_MEM;
    PMPI_Pack(recvbuf, count, type, msg + sizeof(int), psize, &pos, comm);
    int last = rckmpi_coll_slot_write(rank, msg + sizeof(int),
                                      (size_t)psize) != 0
                   ? -1
                   : arrive(size);
    if (last < 0) {
        free(msg);
        return MPI_ERR_INTERN;
    }
    if (last) {
        void *base[2] = {NULL, NULL};
        char *acc = rkc_tmpbuf(count, type, &base[0]);
        char *in = rkc_tmpbuf(count, type, &base[1]);
        if (acc == NULL || in == NULL)
            err = MPI_ERR_NO_MEM;
        /* acc = v0 op v1 op ... : rkop_apply(op, in, inout) is inout = in
         * op inout, so fold left to right as acc_i = acc_{i-1} op v_i:
         * v_i is read into @p in, then in = acc op in, then swapped */
        for (int i = 0; i < size && err == MPI_SUCCESS; i++) {
            char *dst = i == 0 ? acc : in;
            if (rckmpi_coll_slot_read(i, msg + sizeof(int), (size_t)psize)) {
                err = MPI_ERR_INTERN;
                break;
            }
            pos = 0;
            PMPI_Unpack(msg + sizeof(int), psize, &pos, dst, count, type,
                        comm);
            if (i > 0) {
                err = rkop_apply(op, acc, in, count, type);
                char *t = acc;
                acc = in;
                in = t;
            }
        }
        if (err == MPI_SUCCESS) {
            rkc_copy(acc, count, type, recvbuf, count, type);
            pos = 0;
            PMPI_Pack(recvbuf, count, type, msg + sizeof(int), psize, &pos,
                      comm);
            memcpy(msg, &rank, sizeof(int));
            err = release_msg(msg, len, rank, 0, size, comm);
        }
        free(base[0]);
        free(base[1]);
        free(msg);
        return err;
    }
    rckmpi_coll_wait_long(1);
    err = rckmpi_coll_recv(msg, len, MPI_BYTE, MPI_ANY_SOURCE,
                           RKC_TAG_ALLREDUCE, comm, MPI_STATUS_IGNORE);
    rckmpi_coll_wait_long(0);
    int root = -1;
    if (err == MPI_SUCCESS)
        memcpy(&root, msg, sizeof(int));
    if (err == MPI_SUCCESS && (root < 0 || root >= size || root == rank))
        err = MPI_ERR_INTERN;
    if (err == MPI_SUCCESS)
        err = release_msg(msg, len, root, (rank - root + size) % size, size,
                          comm);
    if (err == MPI_SUCCESS) {
        pos = 0;
        PMPI_Unpack(msg + sizeof(int), psize, &pos, recvbuf, count, type,
                    comm);
    }
    free(msg);
    return err;
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
