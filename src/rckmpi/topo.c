/*
 * Process topologies (docs/MPI.md, "Topologies"): Cartesian grids, graphs
 * and distributed graphs. A topology is a description attached to a
 * communicator (rk_comm_t.topo): the creating calls make a new
 * communicator with MPI_Comm_split (rank order kept: reorder is allowed
 * to do nothing) and attach it; MPI_Comm_dup copies it, the communicator's
 * release frees it. Everything else here is local arithmetic on it. The
 * neighborhood collectives (coll_neighbor.c) read the neighbour lists
 * through the public calls.
 *
 * Owns: the MPI_Cart_*, MPI_Graph_* and MPI_Dist_graph_* calls. May call:
 * the topology object (topo_obj.c), communicators (MPI_Comm_split), the
 * collectives (a distributed graph's creation); comm.c copies and frees
 * a topology through topo_obj.c, never through this file.
 */
#include "rckmpi.h"
#include "topo_int.h"

#include <stdlib.h>
#include <string.h>

/* @p comm valid and an intracommunicator (else the error, raised). */
static int intra_arg(MPI_Comm comm, rk_comm_t **c, const char *func)
{
    int err = rk_comm_arg(comm, c, func);

    if (err == MPI_SUCCESS && (*c)->inter)
        err = rk_err(comm, MPI_ERR_COMM, func,
                     "topologies need an intracommunicator");
    return err;
}

/* @p comm's topology, of kind @p kind (0: any), or the error raised. */
static int topo_arg(MPI_Comm comm, int kind, struct rk_topo **t,
                    const char *func)
{
    rk_comm_t *c;
    int err = intra_arg(comm, &c, func);

    if (err != MPI_SUCCESS)
        return err;
    if (c->topo == NULL || (kind != 0 && c->topo->kind != kind))
        return rk_err(comm, MPI_ERR_TOPOLOGY, func,
                      "communicator %d has no %s topology", comm,
                      kind == MPI_CART    ? "Cartesian"
                      : kind == MPI_GRAPH ? "graph"
                      : kind == 0         ? "process"
                                          : "distributed graph");
    *t = c->topo;
    return MPI_SUCCESS;
}

/* MPI_Comm_split of @p comm by @p color and @p key, the new communicator
 * given topology @p t (taken: freed on failure, and where this rank gets
 * MPI_COMM_NULL; NULL: out of memory) */
static int split_with(MPI_Comm comm, int color, int key, struct rk_topo *t,
                      MPI_Comm *out, const char *func)
{
    int err;

    if (t == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, func, "no memory");
    err = PMPI_Comm_split(comm, color, key, out);
    if (err != MPI_SUCCESS || *out == MPI_COMM_NULL) {
        rk_topo_free(t);
        return err;
    }
    rk_comm(*out)->topo = t;
    return MPI_SUCCESS;
}

/* The first @p n ranks of @p comm in a new communicator with topology
 * @p t (taken: freed on failure); the others get MPI_COMM_NULL. */
static int attach(MPI_Comm comm, int n, struct rk_topo *t, MPI_Comm *out,
                  const char *func)
{
    int rank = rk_comm(comm)->rank;

    return split_with(comm, rank < n ? 0 : MPI_UNDEFINED, rank, t, out,
                      func);
}

/* ---- Cartesian ---- */

static int cart_check(MPI_Comm comm, int ndims, const int dims[],
                      const int periods[], long *nodes, const char *func)
{
    long n = 1;

    if (ndims < 0)
        return rk_err(comm, MPI_ERR_DIMS, func, "negative ndims %d", ndims);
    if (ndims > 0 && (dims == NULL || periods == NULL))
        return rk_err(comm, MPI_ERR_ARG, func, "dims or periods is NULL");
    for (int i = 0; i < ndims; i++) {
        if (dims[i] <= 0)
            return rk_err(comm, MPI_ERR_DIMS, func,
                          "dims[%d] = %d: not positive", i, dims[i]);
        n *= dims[i];
        if (n > 1L << 30)
            return rk_err(comm, MPI_ERR_DIMS, func, "the grid is too large");
    }
    *nodes = n;
    return MPI_SUCCESS;
}

static struct rk_topo *cart_new(int ndims, const int dims[],
                                const int periods[])
{
    struct rk_topo *t = calloc(1, sizeof *t);

    if (t == NULL)
        return NULL;
    t->kind = MPI_CART;
    t->ndims = ndims;
    t->dims = rk_dup_ints(dims, ndims);
    t->periods = malloc((size_t)(ndims > 0 ? ndims : 1) * sizeof(int));
    t->index = rk_dup_ints(NULL, 0);
    t->edges = rk_dup_ints(NULL, 0);
    t->src = rk_dup_ints(NULL, 0);
    t->srcw = rk_dup_ints(NULL, 0);
    t->dst = rk_dup_ints(NULL, 0);
    t->dstw = rk_dup_ints(NULL, 0);
    if (!t->dims || !t->periods || !t->index || !t->edges || !t->src ||
        !t->srcw || !t->dst || !t->dstw) {
        rk_topo_free(t);
        return NULL;
    }
    for (int i = 0; i < ndims; i++)
        t->periods[i] = periods[i] != 0;
    return t;
}

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[],
                     const int periods[], int reorder, MPI_Comm *comm_cart)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Cart_create";
    rk_comm_t *c;
    long n;
    int err = intra_arg(comm_old, &c, f);

    (void)reorder;
    if (err != MPI_SUCCESS)
        return err;
    if (comm_cart == NULL)
        return rk_err(comm_old, MPI_ERR_ARG, f, "comm_cart is NULL");
    err = cart_check(comm_old, ndims, dims, periods, &n, f);
    if (err != MPI_SUCCESS)
        return err;
    if (n > c->size)
        return rk_err(comm_old, MPI_ERR_ARG, f,
                      "the grid has %ld processes, the communicator %d", n,
                      c->size);
    return attach(comm_old, (int)n, cart_new(ndims, dims, periods),
                  comm_cart, f);
}
RK_MPI_ALIAS(Cart_create);

int PMPI_Cartdim_get(MPI_Comm comm, int *ndims)
{
    RK_MPI_GUARD;
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_CART, &t, "MPI_Cartdim_get");

    if (err != MPI_SUCCESS)
        return err;
    if (ndims == NULL)
        return rk_err(comm, MPI_ERR_ARG, "MPI_Cartdim_get", "ndims is NULL");
    *ndims = t->ndims;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Cartdim_get);

/* coords of @p rank in @p t (row-major: the last dimension varies
 * fastest) */
static void coords_of(const struct rk_topo *t, int rank, int *coords)
{
    for (int i = t->ndims - 1; i >= 0; i--) {
        coords[i] = rank % t->dims[i];
        rank /= t->dims[i];
    }
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[],
                  int coords[])
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Cart_get";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_CART, &t, f);

    if (err != MPI_SUCCESS)
        return err;
    if (maxdims < t->ndims)
        return rk_err(comm, MPI_ERR_ARG, f, "maxdims %d < ndims %d", maxdims,
                      t->ndims);
    if (t->ndims > 0 && (dims == NULL || periods == NULL || coords == NULL))
        return rk_err(comm, MPI_ERR_ARG, f, "an output array is NULL");
    for (int i = 0; i < t->ndims; i++) {
        dims[i] = t->dims[i];
        periods[i] = t->periods[i];
    }
    coords_of(t, rk_comm(comm)->rank, coords);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Cart_get);

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int *rank)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Cart_rank";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_CART, &t, f), r = 0;

    if (err != MPI_SUCCESS)
        return err;
    if (rank == NULL || (t->ndims > 0 && coords == NULL))
        return rk_err(comm, MPI_ERR_ARG, f, "coords or rank is NULL");
    for (int i = 0; i < t->ndims; i++) {
        int x = coords[i], d = t->dims[i];
        if (x < 0 || x >= d) {
            if (!t->periods[i])
                return rk_err(comm, MPI_ERR_ARG, f,
                              "coords[%d] = %d outside 0..%d (not periodic)",
                              i, x, d - 1);
            x %= d;
            if (x < 0)
                x += d;
        }
        r = r * d + x;
    }
    *rank = r;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Cart_rank);

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Cart_coords";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_CART, &t, f);

    if (err != MPI_SUCCESS)
        return err;
    if (rank < 0 || rank >= rk_comm(comm)->size)
        return rk_err(comm, MPI_ERR_RANK, f, "rank %d", rank);
    if (maxdims < t->ndims || (t->ndims > 0 && coords == NULL))
        return rk_err(comm, MPI_ERR_ARG, f, "maxdims %d < ndims %d", maxdims,
                      t->ndims);
    coords_of(t, rank, coords);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Cart_coords);

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp,
                    int *rank_source, int *rank_dest)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Cart_shift";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_CART, &t, f);
    int coords[64], *cs = coords, out[2];

    if (err != MPI_SUCCESS)
        return err;
    if (direction < 0 || direction >= t->ndims)
        return rk_err(comm, MPI_ERR_ARG, f, "direction %d outside 0..%d",
                      direction, t->ndims - 1);
    if (rank_source == NULL || rank_dest == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "rank_source or rank_dest NULL");
    if (t->ndims > 64 && (cs = malloc((size_t)t->ndims * sizeof(int))) == NULL)
        return rk_err(comm, MPI_ERR_NO_MEM, f, "no memory");
    for (int k = 0; k < 2; k++) {
        long d = t->dims[direction], x;
        coords_of(t, rk_comm(comm)->rank, cs);
        x = (long)cs[direction] + (k == 0 ? -(long)disp : (long)disp);
        if (x < 0 || x >= d) {
            if (!t->periods[direction]) {
                out[k] = MPI_PROC_NULL;
                continue;
            }
            x %= d;
            if (x < 0)
                x += d;
        }
        cs[direction] = (int)x;
        out[k] = 0;
        for (int i = 0; i < t->ndims; i++)
            out[k] = out[k] * t->dims[i] + cs[i];
    }
    if (cs != coords)
        free(cs);
    *rank_source = out[0];
    *rank_dest = out[1];
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Cart_shift);

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm *newcomm)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Cart_sub";
    struct rk_topo *t = NULL, *nt;
    int err = topo_arg(comm, MPI_CART, &t, f), color = 0, key = 0, nd = 0;
    int *coords, *dims, *periods;

    if (err != MPI_SUCCESS)
        return err;
    if (newcomm == NULL || (t->ndims > 0 && remain_dims == NULL))
        return rk_err(comm, MPI_ERR_ARG, f, "remain_dims or newcomm NULL");
    coords = malloc((size_t)(t->ndims + 1) * sizeof(int));
    dims = malloc((size_t)(t->ndims + 1) * sizeof(int));
    periods = malloc((size_t)(t->ndims + 1) * sizeof(int));
    if (coords == NULL || dims == NULL || periods == NULL) {
        free(coords);
        free(dims);
        free(periods);
        return rk_err(comm, MPI_ERR_NO_MEM, f, "no memory");
    }
    coords_of(t, rk_comm(comm)->rank, coords);
    for (int i = 0; i < t->ndims; i++) {
        if (remain_dims[i]) {
            key = key * t->dims[i] + coords[i];
            dims[nd] = t->dims[i];
            periods[nd++] = t->periods[i];
        } else {
            color = color * t->dims[i] + coords[i];
        }
    }
    nt = cart_new(nd, dims, periods);
    free(coords);
    free(dims);
    free(periods);
    return split_with(comm, color, key, nt, newcomm, f);
}
RK_MPI_ALIAS(Cart_sub);

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[],
                  const int periods[], int *newrank)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Cart_map";
    rk_comm_t *c;
    long n;
    int err = intra_arg(comm, &c, f);

    if (err == MPI_SUCCESS)
        err = cart_check(comm, ndims, dims, periods, &n, f);
    if (err != MPI_SUCCESS)
        return err;
    if (newrank == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "newrank is NULL");
    if (n > c->size)
        return rk_err(comm, MPI_ERR_ARG, f,
                      "the grid has %ld processes, the communicator %d", n,
                      c->size);
    *newrank = c->rank < n ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Cart_map);

/* MPI_Dims_create: the free dimensions get the factorisation of what is
 * left whose largest and smallest factors are closest (then the smallest
 * largest factor), in non-increasing order: an exhaustive search over
 * non-increasing divisor sequences (small: k factors of at most 2^30). */
static void dims_search(long m, int k, long maxf, long *cur, int depth,
                        long *best, long *best_spread, long *best_max)
{
    if (k == 0) {
        if (m != 1)
            return;
        long hi = depth > 0 ? cur[0] : 1, lo = depth > 0 ? cur[depth - 1] : 1;
        if (hi - lo < *best_spread ||
            (hi - lo == *best_spread && hi < *best_max)) {
            *best_spread = hi - lo;
            *best_max = hi;
            memcpy(best, cur, (size_t)depth * sizeof(long));
        }
        return;
    }
    if (k == 1) {
        if (m <= maxf) {
            cur[depth] = m;
            dims_search(1, 0, m, cur, depth + 1, best, best_spread, best_max);
        }
        return;
    }
    /* the next factor f: f^k >= m (it is the largest left) and f | m */
    for (long f = maxf < m ? maxf : m; f >= 1; f--) {
        long p = 1;
        int i;
        if (m % f != 0)
            continue;
        for (i = 0; i < k && p < m; i++)
            p *= f;
        if (p < m)
            break; /* smaller factors cannot make m in k steps */
        cur[depth] = f;
        dims_search(m / f, k - 1, f, cur, depth + 1, best, best_spread,
                    best_max);
    }
}

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Dims_create";
    long fixed = 1, cur[64], best[64], spread = -1, bmax = 0;
    int nfree = 0;
    int err = rk_check_init(f);

    if (err != MPI_SUCCESS)
        return err;
    if (nnodes <= 0)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_ARG, f,
                      "nnodes %d: not positive", nnodes);
    if (ndims < 0 || (ndims > 0 && dims == NULL))
        return rk_err(MPI_COMM_WORLD, MPI_ERR_DIMS, f,
                      "ndims %d (or dims NULL)", ndims);
    for (int i = 0; i < ndims; i++) {
        if (dims[i] < 0)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_DIMS, f,
                          "dims[%d] = %d: negative", i, dims[i]);
        if (dims[i] == 0)
            nfree++;
        else
            fixed *= dims[i];
        if (fixed > nnodes)
            break;
    }
    if (nnodes % fixed != 0 || fixed > nnodes)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_DIMS, f,
                      "%d processes are not a multiple of the fixed "
                      "dimensions' product %ld", nnodes, fixed);
    if (nfree == 0) {
        if (fixed != nnodes)
            return rk_err(MPI_COMM_WORLD, MPI_ERR_DIMS, f,
                          "the dimensions make %ld processes, not %d", fixed,
                          nnodes);
        return MPI_SUCCESS;
    }
    if (nfree > 64)
        return rk_err(MPI_COMM_WORLD, MPI_ERR_DIMS, f,
                      "%d free dimensions (at most 64)", nfree);
    spread = nnodes; /* worse than any */
    dims_search(nnodes / fixed, nfree, nnodes / fixed, cur, 0, best, &spread,
                &bmax);
    for (int i = 0, j = 0; i < ndims; i++)
        if (dims[i] == 0)
            dims[i] = (int)best[j++];
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Dims_create);

/* ---- graphs ---- */

static int graph_check(MPI_Comm comm, int size, int nnodes,
                       const int index[], const int edges[], const char *f)
{
    if (nnodes < 0 || nnodes > size)
        return rk_err(comm, MPI_ERR_ARG, f,
                      "nnodes %d outside 0..%d (the communicator's size)",
                      nnodes, size);
    if (nnodes > 0 && index == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "index is NULL");
    for (int i = 0; i < nnodes; i++)
        if (index[i] < (i > 0 ? index[i - 1] : 0))
            return rk_err(comm, MPI_ERR_ARG, f,
                          "index[%d] = %d: decreasing or negative", i,
                          index[i]);
    if (nnodes > 0 && index[nnodes - 1] > 0 && edges == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "edges is NULL");
    for (int i = 0; nnodes > 0 && i < index[nnodes - 1]; i++)
        if (edges[i] < 0 || edges[i] >= nnodes)
            return rk_err(comm, MPI_ERR_ARG, f,
                          "edges[%d] = %d outside 0..%d", i, edges[i],
                          nnodes - 1);
    return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[],
                      const int edges[], int reorder, MPI_Comm *comm_graph)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Graph_create";
    rk_comm_t *c;
    struct rk_topo *t = NULL;
    int err = intra_arg(comm_old, &c, f);

    (void)reorder;
    if (err == MPI_SUCCESS)
        err = graph_check(comm_old, c->size, nnodes, index, edges, f);
    if (err != MPI_SUCCESS)
        return err;
    if (comm_graph == NULL)
        return rk_err(comm_old, MPI_ERR_ARG, f, "comm_graph is NULL");
    t = cart_new(0, NULL, NULL);
    if (t != NULL) {
        int ne = nnodes > 0 ? index[nnodes - 1] : 0;
        free(t->index);
        free(t->edges);
        t->kind = MPI_GRAPH;
        t->nnodes = nnodes;
        t->nedges = ne;
        t->index = rk_dup_ints(index, nnodes);
        t->edges = rk_dup_ints(edges, ne);
        if (t->index == NULL || t->edges == NULL) {
            rk_topo_free(t);
            t = NULL;
        }
    }
    return attach(comm_old, nnodes, t, comm_graph, f);
}
RK_MPI_ALIAS(Graph_create);

int PMPI_Graphdims_get(MPI_Comm comm, int *nnodes, int *nedges)
{
    RK_MPI_GUARD;
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_GRAPH, &t, "MPI_Graphdims_get");

    if (err != MPI_SUCCESS)
        return err;
    if (nnodes == NULL || nedges == NULL)
        return rk_err(comm, MPI_ERR_ARG, "MPI_Graphdims_get",
                      "nnodes or nedges is NULL");
    *nnodes = t->nnodes;
    *nedges = t->nedges;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Graphdims_get);

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[],
                   int edges[])
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Graph_get";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_GRAPH, &t, f);

    if (err != MPI_SUCCESS)
        return err;
    if (maxindex < 0 || maxedges < 0 || (maxindex > 0 && index == NULL) ||
        (maxedges > 0 && edges == NULL))
        return rk_err(comm, MPI_ERR_ARG, f, "bad output arrays");
    for (int i = 0; i < maxindex && i < t->nnodes; i++)
        index[i] = t->index[i];
    for (int i = 0; i < maxedges && i < t->nedges; i++)
        edges[i] = t->edges[i];
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Graph_get);

static int graph_rank(MPI_Comm comm, const struct rk_topo *t, int rank,
                      const char *f)
{
    if (rank < 0 || rank >= t->nnodes)
        return rk_err(comm, MPI_ERR_RANK, f, "rank %d outside 0..%d", rank,
                      t->nnodes - 1);
    return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int *nneighbors)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Graph_neighbors_count";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_GRAPH, &t, f);

    if (err == MPI_SUCCESS)
        err = graph_rank(comm, t, rank, f);
    if (err != MPI_SUCCESS)
        return err;
    if (nneighbors == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "nneighbors is NULL");
    *nneighbors = t->index[rank] - (rank > 0 ? t->index[rank - 1] : 0);
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Graph_neighbors_count);

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors,
                         int neighbors[])
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Graph_neighbors";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_GRAPH, &t, f);

    if (err == MPI_SUCCESS)
        err = graph_rank(comm, t, rank, f);
    if (err != MPI_SUCCESS)
        return err;
    if (maxneighbors < 0 || (maxneighbors > 0 && neighbors == NULL))
        return rk_err(comm, MPI_ERR_ARG, f, "bad neighbors array");
    int lo = rank > 0 ? t->index[rank - 1] : 0;
    for (int i = lo; i < t->index[rank] && i - lo < maxneighbors; i++)
        neighbors[i - lo] = t->edges[i];
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Graph_neighbors);

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[],
                   const int edges[], int *newrank)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Graph_map";
    rk_comm_t *c;
    int err = intra_arg(comm, &c, f);

    if (err == MPI_SUCCESS)
        err = graph_check(comm, c->size, nnodes, index, edges, f);
    if (err != MPI_SUCCESS)
        return err;
    if (newrank == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "newrank is NULL");
    *newrank = c->rank < nnodes ? c->rank : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Graph_map);

int PMPI_Topo_test(MPI_Comm comm, int *status)
{
    RK_MPI_GUARD;
    rk_comm_t *c;
    int err = rk_comm_arg(comm, &c, "MPI_Topo_test");

    if (err != MPI_SUCCESS)
        return err;
    if (status == NULL)
        return rk_err(comm, MPI_ERR_ARG, "MPI_Topo_test", "status is NULL");
    *status = c->topo != NULL ? c->topo->kind : MPI_UNDEFINED;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Topo_test);

/* ---- distributed graphs ---- */

static struct rk_topo *dist_new(int indeg, const int *src, const int *srcw,
                                int outdeg, const int *dst, const int *dstw,
                                int weighted)
{
    struct rk_topo *t = cart_new(0, NULL, NULL);

    if (t == NULL)
        return NULL;
    free(t->src);
    free(t->srcw);
    free(t->dst);
    free(t->dstw);
    t->kind = MPI_DIST_GRAPH;
    t->indeg = indeg;
    t->outdeg = outdeg;
    t->weighted = weighted;
    t->src = rk_dup_ints(src, indeg);
    t->dst = rk_dup_ints(dst, outdeg);
    t->srcw = calloc((size_t)(indeg > 0 ? indeg : 1), sizeof(int));
    t->dstw = calloc((size_t)(outdeg > 0 ? outdeg : 1), sizeof(int));
    if (!t->src || !t->dst || !t->srcw || !t->dstw) {
        rk_topo_free(t);
        return NULL;
    }
    if (weighted && srcw != NULL && indeg > 0)
        memcpy(t->srcw, srcw, (size_t)indeg * sizeof(int));
    if (weighted && dstw != NULL && outdeg > 0)
        memcpy(t->dstw, dstw, (size_t)outdeg * sizeof(int));
    return t;
}

static int is_weighted(const int *w)
{
    return w != MPI_UNWEIGHTED;
}

static int ranks_check(MPI_Comm comm, int n, const int *r, int size,
                       const char *what, const char *f)
{
    if (n < 0)
        return rk_err(comm, MPI_ERR_ARG, f, "negative %s degree %d", what, n);
    if (n > 0 && r == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "%s array is NULL", what);
    for (int i = 0; i < n; i++)
        if (r[i] < 0 || r[i] >= size)
            return rk_err(comm, MPI_ERR_RANK, f, "%s[%d] = %d outside 0..%d",
                          what, i, r[i], size - 1);
    return MPI_SUCCESS;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree,
                                    const int sources[],
                                    const int sourceweights[], int outdegree,
                                    const int destinations[],
                                    const int destweights[], MPI_Info info,
                                    int reorder, MPI_Comm *comm_dist_graph)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Dist_graph_create_adjacent";
    rk_comm_t *c;
    int err = intra_arg(comm_old, &c, f);

    (void)info;
    (void)reorder;
    if (err == MPI_SUCCESS)
        err = ranks_check(comm_old, indegree, sources, c->size, "sources", f);
    if (err == MPI_SUCCESS)
        err = ranks_check(comm_old, outdegree, destinations, c->size,
                          "destinations", f);
    if (err != MPI_SUCCESS)
        return err;
    if (comm_dist_graph == NULL)
        return rk_err(comm_old, MPI_ERR_ARG, f, "comm_dist_graph is NULL");
    if (is_weighted(sourceweights) != is_weighted(destweights))
        return rk_err(comm_old, MPI_ERR_ARG, f,
                      "one of sourceweights, destweights MPI_UNWEIGHTED");
    if (is_weighted(sourceweights) &&
        ((indegree > 0 && sourceweights == MPI_WEIGHTS_EMPTY) ||
         (outdegree > 0 && destweights == MPI_WEIGHTS_EMPTY)))
        return rk_err(comm_old, MPI_ERR_ARG, f,
                      "MPI_WEIGHTS_EMPTY with a degree above 0");
    return attach(comm_old, c->size,
                  dist_new(indegree, sources, sourceweights, outdegree,
                           destinations, destweights,
                           is_weighted(sourceweights)),
                  comm_dist_graph, f);
}
RK_MPI_ALIAS(Dist_graph_create_adjacent);

/* The edges named here as records of 3 ints for their two ends, grouped
 * by the rank they go to (@p cnt ints to rank r from @p dis[r]; @p pos
 * scratch): (0 = you are its source, destination, weight) to the source,
 * (1 = you are its destination, source, weight) to the destination. */
static void edges_pack(int n, const int *sources, const int *degrees,
                       const int *destinations, const int *weights, int size,
                       int *cnt, int *dis, int *pos, int *buf)
{
    for (int i = 0, e = 0; i < n; i++)
        for (int k = 0; k < degrees[i]; k++, e++) {
            cnt[sources[i]] += 3;
            cnt[destinations[e]] += 3;
        }
    for (int r = 1; r < size; r++)
        dis[r] = dis[r - 1] + cnt[r - 1];
    memcpy(pos, dis, (size_t)size * sizeof(int));
    for (int i = 0, e = 0; i < n; i++)
        for (int k = 0; k < degrees[i]; k++, e++) {
            int s = sources[i], d = destinations[e];
            int wt = weights != NULL ? weights[e] : 1;
            int *p = buf + pos[s];
            p[0] = 0, p[1] = d, p[2] = wt;
            pos[s] += 3;
            p = buf + pos[d];
            p[0] = 1, p[1] = s, p[2] = wt;
            pos[d] += 3;
        }
}

/* MPI_Dist_graph_create: every edge (s, d, w) given anywhere goes to s
 * (an out-edge) and to d (an in-edge) in one MPI_Alltoallv; each process
 * keeps them in the order they arrive (by the giving rank, then as
 * given). */
int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[],
                           const int degrees[], const int destinations[],
                           const int weights[], MPI_Info info, int reorder,
                           MPI_Comm *comm_dist_graph)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Dist_graph_create";
    rk_comm_t *c;
    int err = intra_arg(comm_old, &c, f), size, ne = 0, w, wall;
    int *scnt = NULL, *rcnt = NULL, *sdis = NULL, *rdis = NULL;
    int *sbuf = NULL, *rbuf = NULL, *src = NULL, *srcw = NULL, *dst = NULL,
        *dstw = NULL;

    (void)info;
    (void)reorder;
    if (err != MPI_SUCCESS)
        return err;
    size = c->size;
    if (n < 0 || (n > 0 && (sources == NULL || degrees == NULL)))
        return rk_err(comm_old, MPI_ERR_ARG, f,
                      "n %d, or sources or degrees NULL", n);
    if (comm_dist_graph == NULL)
        return rk_err(comm_old, MPI_ERR_ARG, f, "comm_dist_graph is NULL");
    err = ranks_check(comm_old, n, sources, size, "sources", f);
    for (int i = 0; err == MPI_SUCCESS && i < n; i++) {
        if (degrees[i] < 0)
            return rk_err(comm_old, MPI_ERR_ARG, f, "degrees[%d] = %d", i,
                          degrees[i]);
        ne += degrees[i];
    }
    if (err == MPI_SUCCESS)
        err = ranks_check(comm_old, ne, destinations, size, "destinations",
                          f);
    if (err != MPI_SUCCESS)
        return err;
    w = is_weighted(weights);
    if (w && ne > 0 && weights == MPI_WEIGHTS_EMPTY)
        return rk_err(comm_old, MPI_ERR_ARG, f,
                      "MPI_WEIGHTS_EMPTY with edges");
    err = PMPI_Allreduce(&w, &wall, 1, MPI_INT, MPI_MAX, comm_old);
    if (err != MPI_SUCCESS)
        return err;
    scnt = calloc((size_t)size, sizeof(int));
    rcnt = calloc((size_t)size, sizeof(int));
    sdis = calloc((size_t)size, sizeof(int));
    rdis = calloc((size_t)size, sizeof(int));
    sbuf = malloc((size_t)(6 * ne + 1) * sizeof(int));
    if (!scnt || !rcnt || !sdis || !rdis || !sbuf) {
        err = rk_err(comm_old, MPI_ERR_NO_MEM, f, "no memory");
        goto out;
    }
    edges_pack(n, sources, degrees, destinations,
               w && weights != MPI_WEIGHTS_EMPTY ? weights : NULL, size, scnt,
               sdis, rdis, sbuf);
    err = PMPI_Alltoall(scnt, 1, MPI_INT, rcnt, 1, MPI_INT, comm_old);
    if (err != MPI_SUCCESS)
        goto out;
    rdis[0] = 0;
    for (int r = 1; r < size; r++)
        rdis[r] = rdis[r - 1] + rcnt[r - 1];
    int total = rdis[size - 1] + rcnt[size - 1], nin = 0, nout = 0;
    rbuf = malloc((size_t)(total + 1) * sizeof(int));
    if (rbuf == NULL) {
        err = rk_err(comm_old, MPI_ERR_NO_MEM, f, "no memory");
        goto out;
    }
    err = PMPI_Alltoallv(sbuf, scnt, sdis, MPI_INT, rbuf, rcnt, rdis, MPI_INT,
                         comm_old);
    if (err != MPI_SUCCESS)
        goto out;
    src = malloc((size_t)(total / 3 + 1) * sizeof(int));
    srcw = malloc((size_t)(total / 3 + 1) * sizeof(int));
    dst = malloc((size_t)(total / 3 + 1) * sizeof(int));
    dstw = malloc((size_t)(total / 3 + 1) * sizeof(int));
    if (!src || !srcw || !dst || !dstw) {
        err = rk_err(comm_old, MPI_ERR_NO_MEM, f, "no memory");
        goto out;
    }
    for (int i = 0; i < total; i += 3) {
        if (rbuf[i] == 0) {
            dst[nout] = rbuf[i + 1];
            dstw[nout++] = rbuf[i + 2];
        } else {
            src[nin] = rbuf[i + 1];
            srcw[nin++] = rbuf[i + 2];
        }
    }
    err = attach(comm_old, size,
                 dist_new(nin, src, srcw, nout, dst, dstw, wall), comm_dist_graph,
                 f);
out:
    free(scnt);
    free(rcnt);
    free(sdis);
    free(rdis);
    free(sbuf);
    free(rbuf);
    free(src);
    free(srcw);
    free(dst);
    free(dstw);
    return err;
}
RK_MPI_ALIAS(Dist_graph_create);

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int *indegree,
                                    int *outdegree, int *weighted)
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Dist_graph_neighbors_count";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_DIST_GRAPH, &t, f);

    if (err != MPI_SUCCESS)
        return err;
    if (indegree == NULL || outdegree == NULL || weighted == NULL)
        return rk_err(comm, MPI_ERR_ARG, f, "an output is NULL");
    *indegree = t->indeg;
    *outdegree = t->outdeg;
    *weighted = t->weighted;
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Dist_graph_neighbors_count);

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[],
                              int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[])
{
    RK_MPI_GUARD;
    static const char f[] = "MPI_Dist_graph_neighbors";
    struct rk_topo *t = NULL;
    int err = topo_arg(comm, MPI_DIST_GRAPH, &t, f);

    if (err != MPI_SUCCESS)
        return err;
    if (maxindegree < t->indeg || maxoutdegree < t->outdeg)
        return rk_err(comm, MPI_ERR_ARG, f,
                      "room for %d and %d neighbours, %d and %d needed",
                      maxindegree, maxoutdegree, t->indeg, t->outdeg);
    if ((t->indeg > 0 && sources == NULL) ||
        (t->outdeg > 0 && destinations == NULL))
        return rk_err(comm, MPI_ERR_ARG, f, "sources or destinations NULL");
    for (int i = 0; i < t->indeg; i++) {
        sources[i] = t->src[i];
        if (t->weighted && is_weighted(sourceweights) &&
            sourceweights != MPI_WEIGHTS_EMPTY)
            sourceweights[i] = t->srcw[i];
    }
    for (int i = 0; i < t->outdeg; i++) {
        destinations[i] = t->dst[i];
        if (t->weighted && is_weighted(destweights) &&
            destweights != MPI_WEIGHTS_EMPTY)
            destweights[i] = t->dstw[i];
    }
    return MPI_SUCCESS;
}
RK_MPI_ALIAS(Dist_graph_neighbors);
