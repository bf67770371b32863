/* MPI_Gather of small blocks through the shared window (native,
 * MPI_COMM_WORLD; docs/MPI-COLLECTIVES.md, "The small gather's entries"):
 * every rank but the root packs its block into its own entry for this
 * gather (rckmpi_coll_gslot_put: a ring of RKC_GSLOT_N per UE, so senders
 * run up to RKC_GSLOT_N gathers ahead of a root before they wait) and
 * returns; the root reads each entry as it is written. No message, no
 * matching, no unexpected queue: a 4-byte block costs its sender two
 * stores to shared memory and the root one read per rank, where the
 * binomial tree cost every rank of a subtree a receive and a send. */
#include "rkcoll.h"

#include <stdlib.h>

/* gathers through the entries so far (every rank counts each gather on
 * MPI_COMM_WORLD that takes them, and all decide alike) */
static unsigned long long gathers;

long rkc_slot_gather_max(MPI_Comm comm)
{
    static long max = -2;

    if (max == -2) {
        max = rkc_setting_auto("MPI_GATHER_SLOTS");
        if (max < 0)
            max = RKC_GSLOT_DATA;
        if (max > RKC_GSLOT_DATA)
            max = RKC_GSLOT_DATA;
    }
    /* the same conditions as the counter's slots: native, the world, no
     * spawned processes (their MPI_COMM_WORLD would share the UEs'
     * entries) */
    int size;
    if (max == 0 || !rkc_counter_barrier_ok(comm) ||
        rckmpi_coll_slot_bytes() == 0)
        return 0;
    /* the root reads the entries one after the other, and waits for each
     * that is not written yet: at 48 processes on 2 CPUs it slept 15-50
     * times per gather where the tree's root slept about once */
    PMPI_Comm_size(comm, &size);
    return size <= RKC_GSLOT_PROCS ? max : 0;
}

int rkc_slot_gather(const void *sendbuf, int scount, MPI_Datatype stype,
                    void *recvbuf, int rcount, MPI_Datatype rtype, int root,
                    MPI_Comm comm)
{
    int rank, size, psize, pos = 0, err = MPI_SUCCESS;
    char tmp[RKC_GSLOT_DATA];
    unsigned long long g = ++gathers;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    if (rank != root) {
        PMPI_Pack_size(scount, stype, comm, &psize);
        if (psize > RKC_GSLOT_DATA)
            return MPI_ERR_INTERN;
        PMPI_Pack(sendbuf, scount, stype, tmp, psize, &pos, comm);
        return rckmpi_coll_gslot_put(g, tmp, (size_t)psize);
    }
    PMPI_Pack_size(rcount, rtype, comm, &psize);
    if (psize > RKC_GSLOT_DATA)
        return MPI_ERR_INTERN;
    /* its own entry is free for its gather g + RKC_GSLOT_N */
    err = rckmpi_coll_gslot_root(g);
    if (sendbuf != MPI_IN_PLACE)
        rkc_copy(sendbuf, scount, stype,
                 rkc_at(recvbuf, (MPI_Aint)root * rcount, rtype), rcount,
                 rtype);
    /* in rank order from the root's right: the ranks that left their
     * previous collective first come first */
    for (int j = 1; j < size && err == MPI_SUCCESS; j++) {
        int r = (root + j) % size;
        err = rckmpi_coll_gslot_take(r, g, tmp, (size_t)psize);
        pos = 0;
        if (err == MPI_SUCCESS)
            PMPI_Unpack(tmp, psize, &pos,
                        rkc_at(recvbuf, (MPI_Aint)r * rcount, rtype), rcount,
                        rtype, comm);
    }
    return err;
}
