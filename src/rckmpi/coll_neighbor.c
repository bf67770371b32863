/* MPI-3's neighbourhood collectives (docs/MPI-COLLECTIVES.md,
 * "Neighbourhood collectives") on the topologies of topo.c, read through
 * the public calls: a Cartesian grid's neighbours are, for each dimension,
 * the processes at -1 and +1 (MPI_Cart_shift; MPI_PROC_NULL at the edge of
 * a non-periodic dimension: its block is neither sent nor received); a
 * graph's are MPI_Graph_neighbors both ways; a distributed graph's its
 * sources and destinations. Each call is one schedule round (coll_sched.c):
 * every receive and send at once. The blocking calls start the
 * non-blocking one and wait.
 *
 * On a Cartesian grid a neighbour can be the same process in both
 * directions (a periodic dimension of size 1 or 2), so each block carries
 * the receiver's slot in its tag: the block for the +1 neighbour of
 * dimension d lands in that process's -1 slot of d, and the other way
 * round (MPI-4.0 7.6). Graph neighbours listed twice are matched in order. */
#include "rkcoll.h"

#include <stdlib.h>

struct nbrs {
    int indeg, outdeg, cart;
    int *in, *out;
};

static void nbrs_free(struct nbrs *n)
{
    free(n->in);
    free(n->out);
}

static int nbrs_get(MPI_Comm comm, const char *f, struct nbrs *n)
{
    int st, rank, w, err;

    n->in = n->out = NULL;
    n->cart = 0;
    if ((err = PMPI_Topo_test(comm, &st)) != MPI_SUCCESS)
        return err;
    PMPI_Comm_rank(comm, &rank);
    if (st == MPI_CART) {
        int nd;
        PMPI_Cartdim_get(comm, &nd);
        if (2 * nd > RKC_NBC_TAGS)
            return rckmpi_error(comm, MPI_ERR_DIMS, f);
        n->indeg = n->outdeg = 2 * nd;
        n->cart = 1;
    } else if (st == MPI_GRAPH) {
        PMPI_Graph_neighbors_count(comm, rank, &n->indeg);
        n->outdeg = n->indeg;
    } else if (st == MPI_DIST_GRAPH) {
        PMPI_Dist_graph_neighbors_count(comm, &n->indeg, &n->outdeg, &w);
    } else {
        return rckmpi_error(comm, MPI_ERR_TOPOLOGY, f);
    }
    n->in = malloc((size_t)(n->indeg + 1) * sizeof(int));
    n->out = malloc((size_t)(n->outdeg + 1) * sizeof(int));
    if (n->in == NULL || n->out == NULL) {
        nbrs_free(n);
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    }
    if (st == MPI_CART) {
        for (int d = 0; 2 * d < n->indeg; d++)
            PMPI_Cart_shift(comm, d, 1, &n->in[2 * d], &n->in[2 * d + 1]);
        for (int k = 0; k < n->indeg; k++)
            n->out[k] = n->in[k];
    } else if (st == MPI_GRAPH) {
        PMPI_Graph_neighbors(comm, rank, n->indeg, n->in);
        for (int k = 0; k < n->indeg; k++)
            n->out[k] = n->in[k];
    } else {
        PMPI_Dist_graph_neighbors(comm, n->indeg, n->in, MPI_UNWEIGHTED,
                                  n->outdeg, n->out, MPI_UNWEIGHTED);
    }
    return MPI_SUCCESS;
}

/* the receiver's slot of my block j (Cartesian: -1 and +1 swap) */
static int sendoff(const struct nbrs *n, int j)
{
    return n->cart ? (j ^ 1) : 0;
}

static int recvoff(const struct nbrs *n, int k)
{
    return n->cart ? k : 0;
}

static int begin(MPI_Comm comm, const char *f, MPI_Request *request,
                 struct nbrs *n)
{
    int rank, size, err = rkc_begin(comm, f, &rank, &size);

    if (err == MPI_SUCCESS && request == NULL)
        err = rckmpi_error(comm, MPI_ERR_REQUEST, f);
    if (err == MPI_SUCCESS)
        err = nbrs_get(comm, f, n);
    return err;
}

/* the general form: block j of the send side goes to out[j], block k of
 * the receive side comes from in[k]; displacements in bytes, a type each */
static int neighbor_w(const void *sendbuf, const int scounts[],
                      const MPI_Aint sdispls[], const MPI_Datatype stypes[],
                      void *recvbuf, const int rcounts[],
                      const MPI_Aint rdispls[], const MPI_Datatype rtypes[],
                      MPI_Comm comm, const struct nbrs *n,
                      MPI_Request *request, const char *f)
{
    int err = MPI_SUCCESS;
    rkc_sched_t *s;

    if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
        return rckmpi_error(comm, MPI_ERR_BUFFER, f);
    for (int k = 0; err == MPI_SUCCESS && k < n->indeg; k++)
        err = rkc_check_buf(comm, f, recvbuf, rcounts[k], rtypes[k]);
    for (int j = 0; err == MPI_SUCCESS && j < n->outdeg; j++)
        err = rkc_check_buf(comm, f, sendbuf, scounts[j], stypes[j]);
    if (err != MPI_SUCCESS)
        return err;
    if ((s = rkc_sched_new(comm)) == NULL)
        return rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    for (int k = 0; k < n->indeg; k++)
        if (n->in[k] != MPI_PROC_NULL)
            rkc_sched_recv_tag(s, (char *)recvbuf + rdispls[k], rcounts[k],
                               rtypes[k], n->in[k], recvoff(n, k));
    for (int j = 0; j < n->outdeg; j++)
        if (n->out[j] != MPI_PROC_NULL)
            rkc_sched_send_tag(s, (const char *)sendbuf + sdispls[j],
                               scounts[j], stypes[j], n->out[j],
                               sendoff(n, j));
    return rkc_sched_start(s, request, f);
}

/* per-neighbour arrays for the uniform and v forms: counts, byte
 * displacements (item displacements times the extent, or block j at
 * j * count items when @p displs is NULL), types */
struct side {
    int *counts;
    MPI_Aint *displs;
    MPI_Datatype *types;
};

static int side_make(struct side *sd, int n, const int *counts, int count,
                     const int *displs, MPI_Datatype type)
{
    MPI_Aint lb, ext;

    sd->counts = malloc((size_t)(n + 1) * sizeof(int));
    sd->displs = malloc((size_t)(n + 1) * sizeof(MPI_Aint));
    sd->types = malloc((size_t)(n + 1) * sizeof(MPI_Datatype));
    if (!sd->counts || !sd->displs || !sd->types)
        return MPI_ERR_NO_MEM;
    ext = 0;
    if (rckmpi_type_check(type) == MPI_SUCCESS)
        PMPI_Type_get_extent(type, &lb, &ext);
    for (int i = 0; i < n; i++) {
        sd->counts[i] = counts != NULL ? counts[i] : count;
        sd->displs[i] = (displs != NULL ? (MPI_Aint)displs[i]
                                        : (MPI_Aint)i * count) *
                        ext;
        sd->types[i] = type;
    }
    return MPI_SUCCESS;
}

static void side_free(struct side *sd)
{
    free(sd->counts);
    free(sd->displs);
    free(sd->types);
}

/* uniform and v forms: send counts/displs (scounts NULL: scount to
 * every neighbour, the same block when @p same), receive likewise */
static int neighbor_v(const void *sendbuf, const int scounts[], int scount,
                      const int sdispls[], int same, MPI_Datatype stype,
                      void *recvbuf, const int rcounts[], int rcount,
                      const int rdispls[], MPI_Datatype rtype, MPI_Comm comm,
                      MPI_Request *request, const char *f)
{
    struct nbrs n;
    struct side s = {0}, r = {0};
    int err = begin(comm, f, request, &n);

    if (err != MPI_SUCCESS)
        return err;
    if (side_make(&s, n.outdeg, scounts, scount, sdispls, stype) !=
            MPI_SUCCESS ||
        side_make(&r, n.indeg, rcounts, rcount, rdispls, rtype) !=
            MPI_SUCCESS) {
        err = rckmpi_error(comm, MPI_ERR_NO_MEM, f);
    } else {
        if (same)
            for (int j = 0; j < n.outdeg; j++)
                s.displs[j] = 0;
        err = neighbor_w(sendbuf, s.counts, s.displs, s.types, recvbuf,
                         r.counts, r.displs, r.types, comm, &n, request, f);
    }
    side_free(&s);
    side_free(&r);
    nbrs_free(&n);
    return err;
}

int PMPI_Ineighbor_allgather(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             int recvcount, MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return neighbor_v(sendbuf, NULL, sendcount, NULL, 1, sendtype, recvbuf,
                      NULL, recvcount, NULL, recvtype, comm, request,
                      "MPI_Ineighbor_allgather");
}
RK_MPI_ALIAS(Ineighbor_allgather);

int PMPI_Ineighbor_allgatherv(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int recvcounts[], const int displs[],
                              MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ineighbor_allgatherv";

    if (recvcounts == NULL || displs == NULL)
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    return neighbor_v(sendbuf, NULL, sendcount, NULL, 1, sendtype, recvbuf,
                      recvcounts, 0, displs, recvtype, comm, request, f);
}
RK_MPI_ALIAS(Ineighbor_allgatherv);

int PMPI_Ineighbor_alltoall(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    return neighbor_v(sendbuf, NULL, sendcount, NULL, 0, sendtype, recvbuf,
                      NULL, recvcount, NULL, recvtype, comm, request,
                      "MPI_Ineighbor_alltoall");
}
RK_MPI_ALIAS(Ineighbor_alltoall);

int PMPI_Ineighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                             const int sdispls[], MPI_Datatype sendtype,
                             void *recvbuf, const int recvcounts[],
                             const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ineighbor_alltoallv";

    if (sendcounts == NULL || sdispls == NULL || recvcounts == NULL ||
        rdispls == NULL)
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    return neighbor_v(sendbuf, sendcounts, 0, sdispls, 0, sendtype, recvbuf,
                      recvcounts, 0, rdispls, recvtype, comm, request, f);
}
RK_MPI_ALIAS(Ineighbor_alltoallv);

int PMPI_Ineighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                             const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void *recvbuf,
                             const int recvcounts[], const MPI_Aint rdispls[],
                             const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request *request)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Ineighbor_alltoallw";
    struct nbrs n;
    int err;

    if (sendcounts == NULL || sdispls == NULL || sendtypes == NULL ||
        recvcounts == NULL || rdispls == NULL || recvtypes == NULL)
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    if ((err = begin(comm, f, request, &n)) != MPI_SUCCESS)
        return err;
    err = neighbor_w(sendbuf, sendcounts, sdispls, sendtypes, recvbuf,
                     recvcounts, rdispls, recvtypes, comm, &n, request, f);
    nbrs_free(&n);
    return err;
}
RK_MPI_ALIAS(Ineighbor_alltoallw);

/* ---- blocking forms: the non-blocking call, then a wait ---- */

static int wait_on(int err, MPI_Request *r)
{
    return err == MPI_SUCCESS ? PMPI_Wait(r, MPI_STATUS_IGNORE) : err;
}

int PMPI_Neighbor_allgather(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    RK_MPI_GUARD;
    MPI_Request r;
    return wait_on(neighbor_v(sendbuf, NULL, sendcount, NULL, 1, sendtype,
                              recvbuf, NULL, recvcount, NULL, recvtype, comm,
                              &r, "MPI_Neighbor_allgather"),
                   &r);
}
RK_MPI_ALIAS(Neighbor_allgather);

int PMPI_Neighbor_allgatherv(const void *sendbuf, int sendcount,
                             MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[],
                             MPI_Datatype recvtype, MPI_Comm comm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Neighbor_allgatherv";
    MPI_Request r;

    if (recvcounts == NULL || displs == NULL)
        return rckmpi_error(comm, MPI_ERR_ARG, f);
    return wait_on(neighbor_v(sendbuf, NULL, sendcount, NULL, 1, sendtype,
                              recvbuf, recvcounts, 0, displs, recvtype, comm,
                              &r, f),
                   &r);
}
RK_MPI_ALIAS(Neighbor_allgatherv);

int PMPI_Neighbor_alltoall(const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype,
                           MPI_Comm comm)
{
    RK_MPI_GUARD;
    MPI_Request r;
    return wait_on(neighbor_v(sendbuf, NULL, sendcount, NULL, 0, sendtype,
                              recvbuf, NULL, recvcount, NULL, recvtype, comm,
                              &r, "MPI_Neighbor_alltoall"),
                   &r);
}
RK_MPI_ALIAS(Neighbor_alltoall);

int PMPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[],
                            const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[],
                            const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
    RK_MPI_GUARD;
    MPI_Request r;
    return wait_on(PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls,
                                            sendtype, recvbuf, recvcounts,
                                            rdispls, recvtype, comm, &r),
                   &r);
}
RK_MPI_ALIAS(Neighbor_alltoallv);

int PMPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[],
                            const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf,
                            const int recvcounts[], const MPI_Aint rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm)
{
    RK_MPI_GUARD;
    MPI_Request r;
    return wait_on(PMPI_Ineighbor_alltoallw(sendbuf, sendcounts, sdispls,
                                            sendtypes, recvbuf, recvcounts,
                                            rdispls, recvtypes, comm, &r),
                   &r);
}
RK_MPI_ALIAS(Neighbor_alltoallw);
