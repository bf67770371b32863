/*
 * A communicator's process topology (rk_comm_t.topo), shared by the
 * calls that make and read it (topo.c) and the object's copy and free
 * (topo_obj.c, which comm.c calls on MPI_Comm_dup and on release).
 */
#ifndef RCKMPI_TOPO_INT_H
#define RCKMPI_TOPO_INT_H

struct rk_topo {
    int kind; /* MPI_CART, MPI_GRAPH, MPI_DIST_GRAPH */
    /* MPI_CART */
    int ndims;
    int *dims, *periods;
    /* MPI_GRAPH: the whole graph (index[], edges[] as given) */
    int nnodes, nedges;
    int *index, *edges;
    /* MPI_DIST_GRAPH: this process's neighbours */
    int indeg, outdeg, weighted;
    int *src, *srcw, *dst, *dstw;
};

/* A copy of @p n ints (at least one allocated), or NULL. */
int *rk_dup_ints(const int *a, int n);

#endif
