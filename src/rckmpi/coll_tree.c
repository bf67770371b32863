/* Binomial gather and scatter (docs/MPI-COLLECTIVES.md): for MPI_Gather
 * and MPI_Scatter with blocks up to RKC_TREE_MAX bytes. Blocks travel
 * packed, in relative rank order, and subtrees merge on the way, so the
 * root's MPB sees log2 p senders instead of p - 1. */
#include "rkcoll.h"

#include <stdlib.h>
#include <string.h>

/* the number of ranks in rel's subtree: its lowest set bit (the whole
 * communicator for rel 0), cut at the communicator's end */
static int subtree(int rel, int size)
{
    int low = rel == 0 ? size : (rel & -rel);

    return low < size - rel ? low : size - rel;
}

int rkc_tree_gather(const void *sendbuf, int scount, MPI_Datatype stype,
                    void *recvbuf, int rcount, MPI_Datatype rtype, int root,
                    MPI_Comm comm)
{
    int rank, size, psize, pos = 0, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int rel = (rank - root + size) % size, have = 1;
    int in_place = rank == root && sendbuf == MPI_IN_PLACE;
    if (in_place)
        PMPI_Pack_size(rcount, rtype, comm, &psize);
    else
        PMPI_Pack_size(scount, stype, comm, &psize);
    char *tmp = malloc((size_t)psize * (size_t)subtree(rel, size) + 1);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    if (in_place)
        PMPI_Pack(rkc_at(recvbuf, (MPI_Aint)root * rcount, rtype), rcount,
                  rtype, tmp, psize, &pos, comm);
    else
        PMPI_Pack(sendbuf, scount, stype, tmp, psize, &pos, comm);
    for (int mask = 1; mask < size && err == MPI_SUCCESS; mask <<= 1) {
        if (rel & mask) {
            err = rckmpi_coll_send(tmp, have * psize, MPI_BYTE,
                                   (rank - mask + size) % size,
                                   RKC_TAG_GATHER, comm);
            break;
        }
        if (rel + mask < size) {
            int n = subtree(rel + mask, size);
            err = rckmpi_coll_recv(tmp + (size_t)mask * psize, n * psize,
                                   MPI_BYTE, (rank + mask) % size,
                                   RKC_TAG_GATHER, comm, MPI_STATUS_IGNORE);
            have += n;
        }
    }
    for (int j = 0; rank == root && err == MPI_SUCCESS && j < size; j++) {
        int r = (j + root) % size;
        pos = 0;
        if (!(in_place && r == root))
            PMPI_Unpack(tmp + (size_t)j * psize, psize, &pos,
                        rkc_at(recvbuf, (MPI_Aint)r * rcount, rtype), rcount,
                        rtype, comm);
    }
    free(tmp);
    return err;
}

int rkc_tree_scatter(const void *sendbuf, int scount, MPI_Datatype stype,
                     void *recvbuf, int rcount, MPI_Datatype rtype, int root,
                     MPI_Comm comm)
{
    int rank, size, psize, pos, err = MPI_SUCCESS;

    PMPI_Comm_rank(comm, &rank);
    PMPI_Comm_size(comm, &size);
    int rel = (rank - root + size) % size, n = subtree(rel, size);
    if (rank == root)
        PMPI_Pack_size(scount, stype, comm, &psize);
    else
        PMPI_Pack_size(rcount, rtype, comm, &psize);
    char *tmp = malloc((size_t)psize * (size_t)n + 1);
    if (tmp == NULL)
        return MPI_ERR_NO_MEM;
    for (int j = 0; rank == root && j < size; j++) {
        pos = 0;
        PMPI_Pack(rkc_at(sendbuf, (MPI_Aint)((j + root) % size) * scount,
                         stype),
                  scount, stype, tmp + (size_t)j * psize, psize, &pos, comm);
    }
    int mask = 1;
    while (mask < size && !(rel & mask))
        mask <<= 1;
    if (rel != 0)
        err = rckmpi_coll_recv(tmp, n * psize, MPI_BYTE,
                               (rank - mask + size) % size, RKC_TAG_SCATTER,
                               comm, MPI_STATUS_IGNORE);
    for (mask >>= 1; mask > 0 && err == MPI_SUCCESS; mask >>= 1) {
        if (rel + mask < size)
            err = rckmpi_coll_send(tmp + (size_t)mask * psize,
                                   subtree(rel + mask, size) * psize,
                                   MPI_BYTE, (rank + mask) % size,
                                   RKC_TAG_SCATTER, comm);
    }
    pos = 0;
    if (err == MPI_SUCCESS && !(rank == root && recvbuf == MPI_IN_PLACE))
        PMPI_Unpack(tmp, psize, &pos, recvbuf, rcount, rtype, comm);
    free(tmp);
    return err;
}
